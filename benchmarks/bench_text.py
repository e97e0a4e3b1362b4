"""HTML → text converters side by side: speed and whether extraction finds the same hours and Mass times.

    .venv/bin/python benchmarks/bench_text.py [--kb 120] [--pages 20] [--big-mb 5]

Generates parish pages of realistic size and markup (menu, sidebar schedule with <sup> minutes, a table
schedule, announcements, footer with office hours; text made up here), converts each with every converter
available, and reports per converter: ms per page, speed ratio against html2text (the thesis converter, the
baseline), and agreement with html2text on the hours found (find_hours) and the Mass times (rules). Every
converter gets the same preprocess_html() (superscript minutes → ":MM") so only the text extraction differs.
Then the linearity check: html_to_text + extract on a 0.5 MB and a 5 MB page (ratio ≈ 10 means linear).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msze.extraction.hours import find_hours  # noqa: E402
from msze.extraction.page import extract  # noqa: E402
from msze.extraction.text import html_to_text, preprocess_html  # noqa: E402

_WORD_TEXT = (
    "parafia kościół wspólnota zapraszamy wszystkich wiernych modlitwa rodzina dzieci młodzież spotkanie "
    "ksiądz proboszcz wikariusz ogłoszenia tydzień niedziela uroczystość pielgrzymka rekolekcje katecheza "
    "ofiary remont dach organy chór schola ministranci nowenna odpust cmentarz kaplica dzwony ołtarz"
)
WORDS = _WORD_TEXT.split()

MENU = "".join(
    f'<li><a href="/{w}.html">{w.capitalize()}</a></li>'
    for w in ("aktualnosci", "msze", "ogloszenia", "intencje", "historia", "kontakt")
)
SIDEBAR = (
    "<div class='sidebar'><h3>Msze święte</h3><p><b>Niedziele i święta:</b> 7<sup>00</sup>, 9<sup>00</sup>, "
    "10<sup>30</sup>, 12<sup>00</sup>, 18<sup>00</sup></p><p><b>Dni powszednie:</b> 7<sup>00</sup>, "
    "18<sup>00</sup></p></div>"
)
FOOTER = (
    "<div class='footer'><p>Kancelaria czynna: pn–pt 9:00–11:00, 16:00–17:30</p>"
    "<p>tel. 61 852 30 00</p></div>"
)


def paragraph(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(20, 60))]
    if rng.random() < 0.3:
        words.insert(
            rng.randint(0, len(words)), f"o godz. {rng.choice([7, 8, 17, 18, 19])}.{rng.choice(['00', '30'])}"
        )
    if rng.random() < 0.2:
        words.insert(0, f"{rng.randint(1, 28)} {rng.choice(['maja', 'czerwca', 'października'])} 2024 r.")
    text = " ".join(words)
    return f"<p>{text[0].upper()}{text[1:]}.</p>"


def make_page(kb: int, seed: int) -> str:
    """A parish page of about `kb` kilobytes of HTML."""
    rng = random.Random(seed)
    head = (
        "<!DOCTYPE html><html lang='pl'><head><meta charset='utf-8'><title>Parafia</title>"
        "<style>body{font-family:serif} .sidebar{float:right}</style><script>var x = 1;</script></head><body>"
        "<div id='header'><h1>Parafia pw. św. Wojciecha</h1></div>"
        f"<ul id='menu'>{MENU}</ul><div id='content'>"
        "<h2>Porządek Mszy świętych</h2><table><tr><td>Sobota</td><td>18:00</td></tr>"
        "<tr><td>Niedziela</td><td>8:00, 10:00, 12:00</td></tr></table>"
    )
    tail = f"</div>{SIDEBAR}{FOOTER}</body></html>"
    parts = [head]
    size = len(head) + len(tail)
    while size < kb * 1024:
        block = paragraph(rng)
        if rng.random() < 0.1:
            items = "".join(f"<li>{paragraph(rng)[3:-4]}</li>" for _ in range(rng.randint(2, 6)))
            block = f"<h3>Ogłoszenia</h3><ul>{items}</ul>"
        parts.append(block)
        size += len(block)
    parts.append(tail)
    return "".join(parts)


# --- converters ------------------------------------------------------------------------------------

_BLOCK_TAGS = {
    "p",
    "div",
    "br",
    "li",
    "tr",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "table",
    "ul",
    "ol",
    "section",
}


def lxml_text(html: str) -> str:
    import lxml.html

    root = lxml.html.fromstring(html)
    for bad in root.xpath("//script|//style"):
        bad.drop_tree()
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag in _BLOCK_TAGS:
            el.tail = "\n" + (el.tail or "")
        if isinstance(el.tag, str) and el.tag in ("td", "th"):
            el.tail = " " + (el.tail or "")
    return re.sub(r"\n\s*\n+", "\n\n", root.text_content())


def selectolax_text(html: str) -> str:
    from selectolax.lexbor import LexborHTMLParser

    tree = LexborHTMLParser(html)
    for node in tree.css("script, style"):
        node.decompose()
    body = tree.body
    return body.text(separator="\n", strip=True) if body is not None else ""


def resiliparse_text(html: str) -> str:
    from resiliparse.extract.html2text import extract_plain_text
    from resiliparse.parse.html import HTMLTree

    return extract_plain_text(HTMLTree.parse(html), preserve_formatting=True, main_content=False, links=False)


CONVERTERS: dict[str, Callable[[str], str]] = {
    "html2text (msze.extraction.text, baseline)": html_to_text,
    "lxml text_content": lambda h: lxml_text(preprocess_html(h)),
    "selectolax (lexbor)": lambda h: selectolax_text(preprocess_html(h)),
    "resiliparse": lambda h: resiliparse_text(preprocess_html(h)),
}


def available() -> dict[str, Callable[[str], str]]:
    out = {}
    for name, fn in CONVERTERS.items():
        try:
            fn("<p>Msze 7<sup>00</sup></p>")
        except ImportError as exc:
            print(f"  (skipped {name}: {exc})")
            continue
        out[name] = fn
    return out


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    best = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best.append(time.perf_counter() - t0)
    return min(best)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--kb", type=int, default=120, help="size of each generated page (default 120 kB)")
    parser.add_argument("--pages", type=int, default=20, help="pages per converter (default 20)")
    parser.add_argument("--big-mb", type=float, default=5.0, help="size of the big page (default 5 MB)")
    args = parser.parse_args()

    pages = [make_page(args.kb, seed) for seed in range(args.pages)]
    print(f"{len(pages)} generated pages of ~{args.kb} kB HTML each")
    converters = available()
    base_name = next(iter(converters))
    base_hours = [Counter(h.time for h in find_hours(html_to_text(p))) for p in pages]
    base_masses = [extract(html_to_text(p)).masses for p in pages]
    rows = []
    for name, fn in converters.items():
        times = []
        same_hours = same_masses = 0
        for page, hours, masses in zip(pages, base_hours, base_masses, strict=True):
            t0 = time.perf_counter()
            text = fn(page)
            times.append(time.perf_counter() - t0)
            same_hours += Counter(h.time for h in find_hours(text)) == hours
            same_masses += extract(text).masses == masses
        rows.append((name, statistics.median(times) * 1000, same_hours, same_masses))
    base_ms = rows[0][1]
    print(
        f"\n{'converter':<34} {'ms/page':>9} {'speed vs html2text':>18} "
        f"{'same hours':>11} {'same masses':>12}"
    )
    for name, ms, sh, sm in rows:
        print(f"{name:<34} {ms:9.1f} {base_ms / ms:17.1f}x {sh:>5}/{len(pages):<5} {sm:>6}/{len(pages):<5}")
    print(f"(baseline: {base_name})")

    print("\nLinearity: html_to_text + extract on one big page")
    small = make_page(512, 1)
    big = make_page(int(args.big_mb * 1024), 2)
    for label, html in (("0.5 MB", small), (f"{args.big_mb:g} MB", big)):
        t_text = timed(lambda html=html: html_to_text(html))
        text = html_to_text(html)
        t_ex = timed(lambda text=text: extract(text))
        print(
            f"  {label:>7} HTML ({len(html) / 1e6:.2f} MB): "
            f"html_to_text {t_text:6.2f} s, extract {t_ex:6.2f} s"
        )
        if label == "0.5 MB":
            small_times = (t_text, t_ex, len(html))
        else:
            size_ratio = len(html) / small_times[2]
            print(
                f"  size ratio {size_ratio:.1f}: time ratio html_to_text {t_text / small_times[0]:.1f}, "
                f"extract {t_ex / small_times[1]:.1f} (≈ size ratio means linear)"
            )
    fastest = min(rows[1:], key=lambda r: r[1]) if len(rows) > 1 else None
    if fastest:
        print(f"\nfastest alternative: {fastest[0]} ({base_ms / fastest[1]:.1f}x html2text)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
