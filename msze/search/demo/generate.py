"""Synthetic parishes and Mass times: the bundled demo, the test fixtures and the benchmark come from here.

Everything is generated from word lists and a seeded random generator; no text comes from a real parish page.
Websites live under the reserved `.example` top-level domain, so no demo link points at a real site.

`python -m msze.search.demo.generate OUT_DIR [--parishes N]` writes `parishes.tsv` (deon layout), `places.tsv`
(extended.tsv layout) and `results.jsonl` (batch results contract): the three files `search load` reads.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Engine, insert

from msze.search.db import LEGACY_DAYS, mass_times, minute_of, parishes, town_key
from msze.utils.text import fold

DEDICATIONS = [
    "Najświętszego Serca Pana Jezusa",
    "Matki Bożej Częstochowskiej",
    "Świętego Józefa",
    "Świętej Trójcy",
    "Wniebowzięcia Najświętszej Maryi Panny",
    "Świętego Wojciecha",
    "Świętego Stanisława Biskupa",
    "Miłosierdzia Bożego",
    "Świętej Jadwigi Królowej",
    "Świętych Apostołów Piotra i Pawła",
    "Świętego Maksymiliana Kolbego",
    "Matki Bożej Różańcowej",
    "Świętego Antoniego z Padwy",
    "Świętej Rodziny",
    "Podwyższenia Krzyża Świętego",
    "Świętego Michała Archanioła",
    "Świętej Faustyny",
    "Ducha Świętego",
    "Świętego Jana Chrzciciela",
    "Chrystusa Króla",
]
# (city, diocese, voivodeship, postcode prefix)
# the cities' centres (WGS 84): a demo parish stands within about 4 km of its city's
CENTRES = {
    "Warszawa": (52.2297, 21.0122), "Kraków": (50.0614, 19.9366), "Łódź": (51.7592, 19.4560),
    "Wrocław": (51.1079, 17.0385), "Poznań": (52.4064, 16.9252), "Gdańsk": (54.3520, 18.6466),
    "Lublin": (51.2465, 22.5684), "Białystok": (53.1325, 23.1688), "Kielce": (50.8661, 20.6286),
    "Opole": (50.6751, 17.9213), "Zielona Góra": (51.9356, 15.5062), "Tarnów": (50.0121, 20.9858),
}  # fmt: skip
CITIES = [
    ("Warszawa", "warszawska", "mazowieckie", "00"),
    ("Kraków", "krakowska", "małopolskie", "30"),
    ("Łódź", "łódzka", "łódzkie", "90"),
    ("Wrocław", "wrocławska", "dolnośląskie", "50"),
    ("Poznań", "poznańska", "wielkopolskie", "60"),
    ("Gdańsk", "gdańska", "pomorskie", "80"),
    ("Lublin", "lubelska", "lubelskie", "20"),
    ("Białystok", "białostocka", "podlaskie", "15"),
    ("Kielce", "kielecka", "świętokrzyskie", "25"),
    ("Opole", "opolska", "opolskie", "45"),
    ("Zielona Góra", "zielonogórsko-gorzowska", "lubuskie", "65"),
    ("Tarnów", "tarnowska", "małopolskie", "33"),
]
STREETS = [
    "Kościelna",
    "Parafialna",
    "Długa",
    "Ogrodowa",
    "Polna",
    "Lipowa",
    "Klasztorna",
    "Szkolna",
    "Leśna",
]
SUNDAY_TIMES = [
    "06:30",
    "07:00",
    "08:00",
    "09:00",
    "09:30",
    "10:30",
    "11:00",
    "12:00",
    "13:00",
    "16:00",
    "18:00",
    "19:00",
    "20:00",
]
WEEKDAY_TIMES = ["06:30", "07:00", "07:30", "08:00", "17:00", "18:00", "18:30", "19:00"]
SATURDAY_TIMES = ["07:00", "08:00", "17:00", "18:00"]
HOLIDAY_TIMES = ["07:00", "09:00", "10:00", "12:00", "18:00"]
# Sentence shapes in the style of parish announcements, filled with the times drawn for the parish.
CONTEXTS = {
    "sunday": ["Msze święte w niedziele i święta: {times}", "Niedziela – Msza św. o godz. {times}"],
    "weekday": ["W dni powszednie Msza św. o godz. {times}", "Od poniedziałku do piątku: {times}"],
    "saturday": ["Sobota: Msza św. {times}", "W soboty Msze św. o godz. {times}"],
    "holiday": ["W święta zniesione: {times}", "Uroczystości kościelne – Msze św. {times}"],
}


def slug(text: str) -> str:
    text = unicodedata.normalize("NFKD", fold(text))
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")


@dataclass
class DemoParish:
    name: str
    city: str
    address: list[str]
    diocese: str
    decanate: str
    voivodeship: str
    website: str
    crawled_at: str
    masses: list[dict]
    lat: float = 0.0
    lng: float = 0.0


def parishes_iter(count: int, seed: int = 8, times_per_parish: int | None = None) -> Iterator[DemoParish]:
    """`count` synthetic parishes, each with a plausible Sunday/weekday/Saturday/holiday schedule.

    With `times_per_parish` every parish gets exactly that many times (the benchmark's 10 per parish).
    """
    rng = random.Random(seed)
    base = datetime(2026, 11, 1, 6, 0, tzinfo=UTC)
    seen: set[tuple[str, str]] = set()
    for index in range(count):
        city, diocese, voivodeship, postcode = CITIES[index % len(CITIES)]
        dedication = DEDICATIONS[(index // len(CITIES)) % len(DEDICATIONS)]
        name = dedication
        round_ = index // (len(CITIES) * len(DEDICATIONS))
        if round_:
            name = f"{dedication} ({round_ + 1})"
        assert (name, city) not in seen
        seen.add((name, city))
        street = f"ul. {rng.choice(STREETS)} {rng.randint(1, 120)}"
        host = f"{slug(dedication)[:30]}-{slug(city)}-{index}.example"
        website = f"https://{host}/"
        days = {
            "sunday": sorted(rng.sample(SUNDAY_TIMES, rng.randint(3, 6))),
            "weekday": sorted(rng.sample(WEEKDAY_TIMES, rng.randint(1, 3))),
            "saturday": sorted(rng.sample(SATURDAY_TIMES, rng.randint(1, 2))),
            "holiday": sorted(rng.sample(HOLIDAY_TIMES, rng.randint(0, 3))),
        }
        if times_per_parish is not None:
            days = _exactly(rng, times_per_parish)
        page = website + rng.choice(["porzadek-mszy", "msze-swiete", "nabozenstwa", "index.php/msze"])
        masses = _masses(rng, days, page)
        crawled = base + timedelta(days=rng.randint(0, 20), minutes=rng.randint(0, 600))
        yield DemoParish(
            name=name,
            city=city,
            address=[name, street, f"{postcode}-{rng.randint(100, 999)} {city}"],
            diocese=diocese,
            decanate=f"{city} – {rng.choice(['Śródmieście', 'Północ', 'Południe', 'Wschód', 'Zachód'])}",
            voivodeship=voivodeship,
            website=website,
            crawled_at=crawled.isoformat().replace("+00:00", "Z"),
            masses=masses,
            **_near_centre(city, index, seed),
        )


def _near_centre(city: str, index: int, seed: int) -> dict[str, float]:
    """A point within about 4 km of the city's centre, drawn apart from the schedules (which stay as they
    were generated before the demo had coordinates)."""
    rng = random.Random(f"{seed}-{index}")
    lat, lng = CENTRES[city]
    return {
        "lat": round(lat + rng.uniform(-0.035, 0.035), 5),
        "lng": round(lng + rng.uniform(-0.055, 0.055), 5),
    }


def _masses(rng: random.Random, days: dict[str, list[str]], page: str) -> list[dict]:
    """The result's `masses` for a drawn schedule: one announcement sentence per day, as on a parish page."""
    masses = []
    for day, times in days.items():
        context = rng.choice(CONTEXTS[day]).format(times=", ".join(_said(t) for t in times))
        for time in times:
            masses.append(
                {
                    "time": time,
                    "day": day,
                    "url": page,
                    "context": context,
                    "source": rng.choice(["rules", "rules", "classifier"]),
                    "score": round(rng.uniform(0.6, 1.0), 3),
                }
            )
    return masses


def _exactly(rng: random.Random, count: int) -> dict[str, list[str]]:
    pools = {
        "sunday": SUNDAY_TIMES,
        "weekday": WEEKDAY_TIMES,
        "saturday": SATURDAY_TIMES,
        "holiday": HOLIDAY_TIMES,
    }
    sizes = {"sunday": min(5, count), "weekday": 0, "saturday": 0, "holiday": 0}
    left = count - sizes["sunday"]
    for day in ("weekday", "saturday", "holiday"):
        take = min(left, len(pools[day]) if day != "weekday" else 3)
        sizes[day] = take
        left -= take
    sizes["sunday"] += left
    return {day: sorted(rng.sample(pools[day], min(size, len(pools[day])))) for day, size in sizes.items()}


def write_files(out_dir: str | Path, count: int, seed: int = 8) -> dict[str, Path]:
    """Write parishes.tsv, places.tsv and results.jsonl for `count` synthetic parishes."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"parishes": out / "parishes.tsv", "places": out / "places.tsv", "results": out / "results.jsonl"}
    with (
        paths["parishes"].open("w", encoding="utf-8") as deon,
        paths["places"].open("w", encoding="utf-8") as places,
        paths["results"].open("w", encoding="utf-8") as results,
    ):
        deon.write("Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo\n")
        places.write(
            "Parafia\tMiejscowość\turl\tAdres\tDiecezja\tDekanat\tWojewództwo\tplace_id\tstatus\tlat\tlng\n"
        )
        for index, parish in enumerate(parishes_iter(count, seed)):
            address = "|".join(parish.address)
            common = [parish.name, parish.city]
            tail = [parish.diocese, parish.decanate, parish.voivodeship]
            deon.write("\t".join([*common, address, *tail]) + "\n")
            place = [f"demo-{index}", "OK", str(parish.lat), str(parish.lng)]
            places.write("\t".join([*common, parish.website, address, *tail, *place]) + "\n")
            host = parish.website.split("/")[2]
            result = {
                "start_url": parish.website,
                "domain": host,
                "status": "finished",
                "error": None,
                "pages": 12,
                "bytes": 150_000,
                "crawled_at": parish.crawled_at,
                "masses": parish.masses,  # the first version's field, still written beside `schedule`
                **consolidated(parish, index, seed),
            }
            results.write(json.dumps(result, ensure_ascii=False) + "\n")
    return paths


# The consolidated results' day codes of the first version's day categories.
_DAY_CODES = {"sunday": ["sun"], "weekday": ["mon", "tue", "wed", "thu", "fri"], "saturday": ["sat"],
              "holiday": ["holiday"]}  # fmt: skip
CHAPELS = ["Kaplica w Zalesiu", "Kaplica w Julianowie", "Kaplica na Borku", "Kaplica w Dąbrowie",
           "Kaplica w Olszynach", "Kaplica w Woli", "Kaplica w Lipnikach"]  # fmt: skip
# One-off Masses of the demo (date, time, the announcement's sentence): two coming, one already held.
ONE_OFFS = [
    ("2026-12-24", "22:00", "W Wigilię Bożego Narodzenia Pasterka o godz. 22.00"),
    ("2026-12-31", "23:00", "31 grudnia o 23.00 Msza św. dziękczynna na zakończenie roku"),
    ("2026-11-11", "11:00", "11 listopada o 11.00 Msza św. w intencji Ojczyzny"),
]
LAST_SUNDAY_PARISH = 1  # the one parish (Kraków's first) whose chapel has a Mass on the month's last Sunday


def consolidated(parish: DemoParish, index: int, seed: int) -> dict:
    """`schedule`, `one_off`, `monthly` and `confession` of the current results format for a demo parish: its
    drawn times by day, and, drawn apart from them (so the first version's `masses` stay as they were), a
    Saturday vigil, a chapel, a summer or school-year time, the year's one-offs, monthly Masses and confession
    times."""
    rng = random.Random(f"{seed}-extra-{index}")
    schedule = [
        _weekly(m["time"], _DAY_CODES[m["day"]], m["url"], m["context"], source=m["source"], score=m["score"])
        for m in parish.masses
    ]
    page = parish.masses[0]["url"] if parish.masses else parish.website
    if rng.random() < 0.6:
        time = rng.choice(["17:00", "18:00", "19:00"])
        context = f"W sobotę o {time.replace(':', '.')} Msza św. wigilijna z liturgii niedzieli"
        schedule.append(_weekly(time, ["sat"], page, context, vigil=True))
    if rng.random() < 0.4:
        chapel = rng.choice(CHAPELS)
        time = rng.choice(["08:30", "10:00", "11:30"])
        schedule.append(
            _weekly(time, ["sun"], page, f"{chapel}: niedziela {time.replace(':', '.')}", church=chapel)
        )
    season, time, days, context = rng.choice(
        [
            ("summer", "20:00", ["sun"], "W wakacje (lipiec, sierpień) także o godz. 20.00"),
            ("school-year", "07:30", ["mon", "tue", "wed", "thu", "fri"], "W roku szkolnym także o 7.30"),
            ("advent", "06:00", ["mon", "tue", "wed", "thu", "fri", "sat"], "W Adwencie Roraty o 6.00"),
        ]
    )
    schedule.append(_weekly(time, days, page, context, season=season))
    one_off = [
        {"date": date, "time": time, "days": [], "church": None, "note": note,
         "evidence": [{"url": page, "context": note, "source": "rules", "score": 1.0}]}
        for date, time, note in ONE_OFFS
        if rng.random() < 0.7
    ]  # fmt: skip
    confession = [
        {"days": ["sat"], "start": "17:00", "end": "18:00", "church": None, "season": None,
         "evidence": [{"url": page, "context": "Spowiedź: w soboty 17.00–18.00", "source": "rules"}]},
    ]  # fmt: skip
    if rng.random() < 0.5:
        start = rng.choice(["06:30", "17:30"])
        context = f"Spowiedź w dni powszednie od {start.replace(':', '.')} przed Mszą św."
        confession.append(
            {"days": _DAY_CODES["weekday"], "start": start, "end": None, "church": None, "season": None,
             "evidence": [{"url": page, "context": context, "source": "rules"}]}
        )  # fmt: skip
    return {
        "schedule": schedule,
        "one_off": one_off,
        "monthly": _monthly_masses(page, index, seed),
        "confession": confession,
        "conflicts": [],  # (no page of the demo overrides another's)
    }


def _monthly_masses(page: str, index: int, seed: int) -> list[dict]:
    """`monthly` of the current results format: first Fridays (and Saturdays) in some parishes, and one
    chapel's Mass on the last Sunday of the month; drawn apart, so the other fields stay as they were."""
    rng = random.Random(f"{seed}-monthly-{index}")
    entries = []
    if rng.random() < 0.4:
        time = rng.choice(["17:00", "18:00"])
        entries.append(
            _monthly(1, ["fri"], time, page, f"W pierwsze piątki miesiąca o {_said(time)} Msza św.")
        )
    if rng.random() < 0.2:
        entries.append(
            _monthly(1, ["sat"], "08:00", page, "W pierwsze soboty miesiąca o 8.00 Msza wynagradzająca")
        )
    if index == LAST_SUNDAY_PARISH:
        chapel = CHAPELS[0]
        note = f"{chapel}: w ostatnią niedzielę miesiąca o 15.00"
        entries.append(_monthly(-1, ["sun"], "15:00", page, note, church=chapel))
    return entries


def _monthly(week: int, days: list[str], time: str, url: str, note: str, church: str | None = None) -> dict:
    """A `monthly` entry: one time on a week of the month (1..4, -1 the last), with where it was read."""
    evidence = [{"url": url, "context": note, "source": "rules", "score": 1.0}]
    return {"week": week, "days": days, "time": time, "church": church, "season": None, "note": note,
            "evidence": evidence}  # fmt: skip


def _said(time: str) -> str:
    """A time as a parish announcement writes it: "17:00" is "17.00", "08:00" is "8.00"."""
    return time.replace(":", ".").removeprefix("0")


def _weekly(time: str, days: list[str], url: str, context: str, source: str = "rules", score: float = 1.0,
            **reading) -> dict:  # fmt: skip
    """A `schedule` entry: one time on its days, with church, season and vigil, and where it was read."""
    entry = {"time": time, "days": days, "church": None, "season": None, "vigil": False} | reading
    return entry | {
        "evidence": [{"url": url, "context": context, "source": source, "score": score}],
        "pages": 1,
    }


def _parish_row(parish_id: int, parish: DemoParish, crawled: datetime) -> dict:
    """A `parishes` row as the loader would write it (folded keys included)."""
    return {
        "id": parish_id,
        "name": parish.name,
        "city": parish.city,
        "address": "\n".join(parish.address),
        "decanate": parish.decanate,
        "diocese": parish.diocese,
        "voivodeship": parish.voivodeship,
        "website": parish.website,
        "domain": parish.website.split("/")[2],
        "name_key": fold(parish.name),
        "city_key": fold(parish.city),
        "town_key": town_key(fold(parish.city)),
        "diocese_key": fold(parish.diocese),
        "crawled_at": crawled,
        "crawl_status": "finished",
        "lat": parish.lat,
        "lng": parish.lng,
    }


def _time_rows(parish_id: int, mass: dict, crawled: datetime) -> list[dict]:
    """The `mass_times` rows of one demo mass: its day category spread over the days of the week."""
    return [_time_row(parish_id, mass, crawled, day) for day in LEGACY_DAYS[mass["day"]]]


def _time_row(parish_id: int, mass: dict, crawled: datetime, day: str) -> dict:
    return {
        "parish_id": parish_id,
        "day": day,
        "minute": minute_of(mass["time"]),
        "time": mass["time"],
        "source_url": mass["url"],
        "context": mass["context"],
        "source": mass["source"],
        "score": mass["score"],
        "crawled_at": crawled,
    }


def bulk_insert(engine: Engine, count: int, times_per_parish: int, seed: int = 8) -> int:
    """Fill an empty database directly (no loader): the benchmark's 10 000 parishes x 10 times in seconds."""
    total = 0
    with engine.begin() as conn:
        parish_rows, time_rows = [], []
        for parish_id, parish in enumerate(parishes_iter(count, seed, times_per_parish), 1):
            crawled = datetime.fromisoformat(parish.crawled_at.replace("Z", "+00:00"))
            parish_rows.append(_parish_row(parish_id, parish, crawled))
            time_rows.extend(row for mass in parish.masses for row in _time_rows(parish_id, mass, crawled))
            if len(parish_rows) >= 2000:  # a batch at a time: the benchmark's database has 100 000 times
                conn.execute(insert(parishes), parish_rows)
                conn.execute(insert(mass_times), time_rows)
                total += len(time_rows)
                parish_rows, time_rows = [], []
        if parish_rows:
            conn.execute(insert(parishes), parish_rows)
            conn.execute(insert(mass_times), time_rows)
            total += len(time_rows)
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out_dir")
    parser.add_argument("--parishes", type=int, default=120)
    parser.add_argument("--seed", type=int, default=8)
    args = parser.parse_args(argv)
    paths = write_files(args.out_dir, args.parishes, args.seed)
    print(json.dumps({key: str(path) for key, path in paths.items()}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
