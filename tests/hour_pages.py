"""Synthetic parish pages for the classifier tests, written from templates in the style parish pages use.

Each page is a dict in the layout of ../shared/data/realpages (id, url, text, tokens with spans and labels,
mass_times, kind), so the dataset builder, the trainer and cross-validation can all run on it.
"""

from __future__ import annotations

import random

MASS_TEMPLATES = [
    "Msze święte w niedziele i święta: godz. {a}, {b}, {c}",
    "Porządek Mszy św.\nNiedziela: {a}, {b}, {c}\nDni powszednie: {d}",
    "W dni powszednie Msza święta o godz. {a} i {b}.",
    "Msza św. niedzielna: {a} (suma), {b}, {c} (dla dzieci)",
    "Msze św.: w tygodniu {a}, {b}; w sobotę {c}",
    "W niedzielę Msze Święte o godz. {a}, {b} oraz {c}.",
]
OTHER_TEMPLATES = [
    "Kancelaria parafialna czynna od {a} do {b}",
    "Kancelaria czynna: wtorek i czwartek {a} - {b}",
    "Spowiedź św. od godz. {a} do {b}",
    "Różaniec w październiku o godz. {a}",
    "Spotkanie kandydatów do bierzmowania o godz. {a} w salce",
    "Biuro parafialne: poniedziałek {a}–{b}, piątek {c}–{d}",
]
TIMES = [
    "6:30",
    "7:00",
    "7.30",
    "8.00",
    "9:00",
    "10:30",
    "11.00",
    "12:00",
    "16:00",
    "17.00",
    "18:00",
    "19.00",
]
FILLER = [
    "Zapraszamy wszystkich parafian.",
    "Bóg zapłać za ofiary.",
    "Parafia pw. św. Józefa",
    "Ogłoszenia duszpasterskie",
    "ul. Kościelna 4",
]


def _fill(template: str, rng: random.Random) -> tuple[str, list[tuple[int, int]]]:
    """The template with times filled in, and the spans of those times."""
    text = ""
    spans: list[tuple[int, int]] = []
    rest = template
    while "{" in rest:
        head, _, tail = rest.partition("{")
        _, _, rest = tail.partition("}")
        text += head
        time = rng.choice(TIMES)
        spans.append((len(text), len(text) + len(time)))
        text += time
    return text + rest, spans


def make_pages(n: int, seed: int = 0) -> list[dict]:
    """``n`` synthetic pages; even pages are schedules (mass), odd pages office hours etc. (other)."""
    rng = random.Random(seed)
    pages = []
    for i in range(n):
        mass = i % 2 == 0
        template = rng.choice(MASS_TEMPLATES if mass else OTHER_TEMPLATES)
        prefix = rng.choice(FILLER) + "\n\n"
        body, spans = _fill(template, rng)
        suffix = "\n\n" + rng.choice(FILLER)
        text = prefix + body + suffix
        label = "mass" if mass else "other"
        tokens = [
            {"start": len(prefix) + s, "end": len(prefix) + e, "text": body[s:e], "label": label}
            for s, e in spans
        ]
        pages.append(
            {
                "id": f"S{i:03d}",
                "url": f"https://parafia-{i % 40}.pl/strona-{i}",
                "text": text,
                "tokens": tokens,
                "mass_times": sorted({_norm(t["text"]) for t in tokens if t["label"] == "mass"}),
                "kind": "schedule" if mass else "negative",
            }
        )
    return pages


def _norm(written: str) -> str:
    hour, _, minute = written.replace(".", ":").partition(":")
    return f"{int(hour):02d}:{minute}"
