"""A local fake web of generated parish sites for the crawl benchmarks, served on 127.0.0.1.

    python benchmarks/fakeweb.py --sites 220 --urls /tmp/urls.txt     # serve until Ctrl-C

One Twisted web server (single-threaded, non-blocking, so slow sites cost no threads) answers for every site.
Sites are distinct host names (`parafia-0001.test` ...) reached through the server as an HTTP proxy: crawlers
run with `http_proxy=http://127.0.0.1:PORT`, so each site has its own domain, its own Scrapy download slot and
its own `<domain>.jsonl`, exactly as real parish sites do (plain `http://127.0.0.1:PORT/<site>/` paths would
make every site one domain). Pages are generated deterministically from the site number: a shared template
(menu, sidebar, footer) around Polish-looking filler, 15–90 KB of HTML like real parish pages, one schedule
page per site, news pages chained 2–4 links deep, robots.txt allowing everything. About 10 % of sites are slow
(0.2–1 s per answer), 4 % fail on every page (HTTP 500), 3 % drop the connection, 10 % have a broken link
(404).

`--realistic` (`start(..., realistic=True)`) serves a web shaped like the real one for whole-country runs
(benchmarks/bench_poland.py); its distributions are stated in `realistic_spec` and docs/benchmarks.md. The
default mode's pages and answers stay as they were (bench_crawl.py's figures depend on them). `--media`
(realistic mode) gives 10 % of sites their schedule only as a text PDF and 5 % only as a JPEG image, linked
from the schedule page, whose HTML then has no times (`media_kind`).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import math
import os
import random
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

_WORDS_TEXT = """
parafia kościół msza święta nabożeństwo wspólnota ksiądz proboszcz wikariusz kaplica ołtarz
modlitwa różaniec adoracja spowiedź rekolekcje odpust procesja chór schola ministranci lektorzy
katecheza bierzmowanie komunia chrzest ślub pogrzeb intencja ofiara remont dach organy dzwon witraż
plebania cmentarz kancelaria godzina tydzień niedziela sobota piątek czwartek środa wtorek
poniedziałek święto uroczystość wspomnienie adwent wielki post wielkanoc boże narodzenie
pielgrzymka zbiórka caritas młodzież dzieci rodzina małżeństwo seniorzy chorzy odwiedziny kolęda
błogosławieństwo zaproszenie serdecznie zapraszamy wszystkich parafian gości bóg zapłać za złożone
ofiary na potrzeby naszej świątyni w tym roku przypada rocznica poświęcenia kamienia węgielnego
historia sięga wieku gdy
"""
_NAMES_TEXT = """
św. Wojciecha|św. Józefa|Najświętszego Serca Pana Jezusa|MB Częstochowskiej|św. Jadwigi|
Wniebowzięcia NMP|św. Stanisława|Miłosierdzia Bożego|św. Floriana|Podwyższenia Krzyża Świętego|
św. Anny|św. Maksymiliana Kolbego|Chrystusa Króla|św. Jana Chrzciciela|Ducha Świętego
"""
_TOWNS_TEXT = """
Dębina|Zalesie|Borki|Kamionka|Wola|Lipnik|Grabowo|Dąbrowa|Olszyny|Brzozów|Sosnowiec Górny|Jasień
"""
WORDS = _WORDS_TEXT.split()
NAMES = [x.strip() for x in _NAMES_TEXT.replace("\n", "").split("|")]
TOWNS = [x.strip() for x in _TOWNS_TEXT.replace("\n", "").split("|")]
MEDIA = False  # --media: some realistic sites post their schedule as a PDF or an image (media_kind)
PDF_SHARE, IMAGE_SHARE = 0.10, 0.05  # of sites, with --media
SCHEDULE_PDF, SCHEDULE_IMAGE = "/porzadek-mszy.pdf", "/porzadek-mszy.jpg"
EPOCH = 0  # --epoch: a later state of the same web (some schedules moved, some start pages turned JS shells)
SCHEDULE_FILES = ("msze.html", "porzadek-mszy.html", "nabozenstwa.html", "msze-swiete/index.html")
DOWNLOAD_TIMEOUT = 30.0  # msze/settings.py's: the realistic mode's dead sites answer 15 s after it
LATE = DOWNLOAD_TIMEOUT + 15.0
ALLOW_ALL = "User-agent: *\nAllow: /\n"
DISALLOW_ADMIN = "User-agent: *\nDisallow: /wp-admin/\n"  # WordPress's default robots.txt
DISALLOW_GALLERY = "User-agent: *\nDisallow: /galeria/\n"
NOT_FOUND = b"<html><body><h1>404 Nie znaleziono</h1></body></html>"


def host(n: int) -> str:
    return f"parafia-{n:04d}.test"


@dataclass(frozen=True)
class SiteSpec:
    """What kind of server site n is (deterministic from n)."""

    n: int
    delay: float  # seconds before every answer (slow sites)
    fails: bool  # HTTP 500 on every page
    drops: bool  # closes the connection without an answer
    pages: tuple[str, ...]  # paths of its pages
    schedule: str  # path of its schedule page
    timeouts: bool = False  # answers only after LATE s, when the crawler has given up (realistic mode)
    robots: str | None = ALLOW_ALL  # robots.txt; None: 404
    gzip: bool = False  # gzip Content-Encoding for clients that accept it (realistic mode)
    realistic: bool = False


@cache
def site_spec(n: int) -> SiteSpec:
    rng = random.Random(n * 7919)
    roll = rng.random()
    delay = round(rng.uniform(0.2, 1.0), 2) if roll < 0.10 else 0.0
    fails = 0.10 <= roll < 0.14
    drops = 0.14 <= roll < 0.17
    schedule = "/" + rng.choice(SCHEDULE_FILES).removesuffix("index.html")
    news = [f"/aktualnosci/{i}.html" for i in range(1, rng.randint(4, 14))]
    pages = ("/", schedule, "/ogloszenia.html", "/intencje.html", "/historia.html", "/kontakt.html",
             "/galeria.html", "/aktualnosci/", *news)  # fmt: skip
    return SiteSpec(n, delay, fails, drops, pages, schedule)


@cache
def realistic_spec(n: int) -> SiteSpec:
    """Site n of the realistic web. Answer latency per site: 85 % 0.1-0.3 s, 10 % 1-3 s, 3 % later than
    DOWNLOAD_TIMEOUT, 2 % drop the connection. robots.txt: 80 % allow all, 10 % disallow /wp-admin/,
    5 % /galeria/, 5 % 404. 80 % gzip their answers. Pages: the fixed menu pages and /wp-admin/, a news
    archive of lognormal(median 30, sigma 0.9) posts (at most 400) listed 10 to a page, 0-12 gallery albums;
    all within 3 links of the start page, so a depth-3 crawl fetches them (docs/benchmarks.md says why)."""
    rng = random.Random(n * 104729 + 1)
    roll = rng.random()
    drops, timeouts = roll < 0.02, 0.02 <= roll < 0.05
    if timeouts:
        delay = LATE
    elif 0.05 <= roll < 0.15:
        delay = round(rng.uniform(1.0, 3.0), 2)
    else:
        delay = round(rng.uniform(0.1, 0.3), 3)
    robots_roll = rng.random()
    robots = (
        None if robots_roll < 0.05 else DISALLOW_ADMIN if robots_roll < 0.15
        else DISALLOW_GALLERY if robots_roll < 0.20 else ALLOW_ALL
    )  # fmt: skip
    compressed = rng.random() < 0.8
    schedule = "/" + rng.choice(SCHEDULE_FILES).removesuffix("index.html")
    posts = min(400, int(rng.lognormvariate(math.log(30), 0.9)))
    listings = [f"/aktualnosci/strona-{k}/" for k in range(2, math.ceil(posts / 10) + 1)]
    news = [f"/aktualnosci/{i}.html" for i in range(1, posts + 1)]
    albums = [f"/galeria/album-{j}.html" for j in range(1, rng.randint(0, 12) + 1)]
    pages = ("/", schedule, "/ogloszenia.html", "/intencje.html", "/historia.html", "/kontakt.html",
             "/galeria.html", "/aktualnosci/", "/wp-admin/", *listings, *news, *albums)  # fmt: skip
    return SiteSpec(n, delay, False, drops, pages, schedule, timeouts, robots, compressed, realistic=True)


def _filler(rng: random.Random, words: int) -> str:
    out, sentence = [], []
    for _ in range(words):
        sentence.append(rng.choice(WORDS))
        if len(sentence) > rng.randint(8, 18):
            out.append(" ".join(sentence).capitalize() + ".")
            sentence = []
    return " ".join(out)


def _times(rng: random.Random, count: int) -> list[str]:
    hours = sorted(rng.sample([6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 18, 19], count))
    style = rng.choice(("{h}.{m:02d}", "{h}:{m:02d}", "{h}<sup>{m:02d}</sup>", "{h}.oo"))
    result = []
    for h in hours:
        m = rng.choice((0, 0, 0, 30))
        result.append(style.format(h=h, m=m) if "oo" not in style or m == 0 else f"{h}.{m:02d}")
    return result


def media_kind(n: int) -> str | None:
    """With --media: "pdf" for PDF_SHARE of the sites, "image" for IMAGE_SHARE (their schedule is only in
    that file), None for the rest; drawn from its own seed, so the other distributions stay as they are."""
    if not MEDIA:
        return None
    roll = random.Random(f"media:{n}").random()
    return "pdf" if roll < PDF_SHARE else "image" if roll < PDF_SHARE + IMAGE_SHARE else None


def _schedule_rows(n: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    rng = random.Random(f"media-times:{n}")
    sunday = sorted(rng.sample([7, 8, 9, 10, 11, 12, 18], rng.randint(3, 5)))
    return (
        ("Niedziele i święta:", tuple(f"{h}:00" for h in sunday)),
        ("Dni powszednie:", tuple(f"{h}:00" for h in sorted(rng.sample([7, 8, 17, 18], 2)))),
    )


@cache
def media_body(n: int, path: str) -> tuple[bytes, str] | None:
    """(body, Content-Type) of site n's schedule file at `path`, None when it has none there."""
    kind = media_kind(n)
    if kind == "pdf" and path == SCHEDULE_PDF:
        tests = str(Path(__file__).resolve().parents[1] / "tests")
        if tests not in sys.path:
            sys.path.insert(0, tests)
        from pdfs import Line, text_pdf  # the tests' PDF writer: msze itself only reads PDFs

        lines = [Line(60, 760, "Porządek Mszy Świętych", 16)]
        for i, (label, times) in enumerate(_schedule_rows(n)):
            lines.append(Line(60, 720 - 30 * i, f"{label} {', '.join(times)}"))
        return text_pdf(lines), "application/pdf"
    if kind == "image" and path == SCHEDULE_IMAGE:
        from msze.testing.schedule_image import FONTS, Schedule, Style, render_schedule

        style = Style(font=FONTS[n % len(FONTS)], size=26, rotation=(n % 5 - 2) / 2, quality=60, noise=20)
        return render_schedule(Schedule(rows=_schedule_rows(n)), style), "image/jpeg"
    return None


def _media_schedule(kind: str) -> str:
    """The schedule page of a site whose schedule is only in a file: a heading, the link, no times."""
    if kind == "pdf":
        link = f'<a href="{SCHEDULE_PDF}">porządek Mszy (PDF)</a>'
        return f"<h2>Porządek Mszy Świętych</h2><p>Aktualny {link}.</p>"
    return (
        '<h2>Porządek Mszy Świętych</h2><figure><img src="' + SCHEDULE_IMAGE + '" width="800" height="400" '
        'alt="Porządek Mszy świętych"><figcaption>Porządek Mszy</figcaption></figure>'
    )


def _page_body(spec: SiteSpec, path: str, rng: random.Random) -> str:
    if path == spec.schedule and spec.realistic and media_kind(spec.n):
        return _media_schedule(media_kind(spec.n) or "") + f"<p>{_filler(rng, 120)}</p>"
    if path == spec.schedule:
        sunday, weekday = _times(rng, rng.randint(3, 6)), _times(rng, 2)
        if EPOCH and spec.n % 10 == 0:  # this parish moved its Mass times since epoch 0; the rest stays
            moved = random.Random(f"{spec.n}:{path}:epoch{EPOCH}")
            sunday, weekday = _times(moved, len(sunday)), _times(moved, 2)
        return (
            "<h2>Porządek Mszy Świętych</h2><table><tr><td>Niedziele i święta</td><td>"
            + ", ".join(sunday)
            + "</td></tr><tr><td>Dni powszednie</td><td>"
            + ", ".join(weekday)
            + "</td></tr></table><p>Spowiedź pół godziny przed każdą Mszą św. Kancelaria czynna we wtorki "
            "16.00–17.30.</p>" + "".join(f"<p>{_filler(rng, 120)}</p>" for _ in range(rng.randint(5, 20)))
        )
    paragraphs = rng.randint(8, 70)
    body = f"<h2>{rng.choice(WORDS).capitalize()} {rng.choice(WORDS)}</h2>"
    if spec.realistic:
        pool = _paragraphs()
        body += "".join(f"<p>{pool[rng.randrange(len(pool))]}</p>" for _ in range(paragraphs))
        return body + _archive_links(spec, path)
    body += "".join(f"<p>{_filler(rng, rng.randint(40, 160))}</p>" for _ in range(paragraphs))
    if path == "/aktualnosci/":
        body += (
            "<ul>"
            + "".join(
                f'<li><a href="{p}">Wiadomość {p.rsplit("/", 1)[-1]}</a></li>' for p in spec.pages[8:11]
            )
            + "</ul>"
        )
    elif path.startswith("/aktualnosci/") and path in spec.pages:
        # News pages link on to the next ones: a chain 2-4 links deep, like paginated archives.
        i = spec.pages.index(path)
        body += "".join(f'<p><a href="{p}">Czytaj dalej</a></p>' for p in spec.pages[i + 3 : i + 5])
    return body


@cache
def _paragraphs() -> tuple[str, ...]:
    """Filler paragraphs the realistic pages draw from: generating 60 000 pages word by word would take
    minutes; 4 000 are too many for a site's pages to share one, so none looks like the site's template."""
    rng = random.Random(2026)
    return tuple(_filler(rng, rng.randint(40, 160)) for _ in range(4000))


def _archive_links(spec: SiteSpec, path: str) -> str:
    """The realistic mode's listing links: 10 posts a news page (the first also links every other listing
    page, as numbered pagination does) and the albums on the gallery page."""
    if path == "/galeria.html":
        targets = [p for p in spec.pages if p.startswith("/galeria/")]
    elif path == "/aktualnosci/" or path.startswith("/aktualnosci/strona-"):
        k = int(path.rstrip("/").rsplit("-", 1)[1]) if "strona-" in path else 1
        news = [p for p in spec.pages if p.startswith("/aktualnosci/") and p.endswith(".html")]
        targets = news[(k - 1) * 10 : k * 10]
        if k == 1:
            targets += [p for p in spec.pages if "strona-" in p]
    else:
        return ""
    return "<ul>" + "".join(f'<li><a href="{p}">Więcej: {p.rstrip("/").rsplit("/", 1)[-1]}</a></li>'
                            for p in targets) + "</ul>"  # fmt: skip


@cache
def page_html(n: int, path: str) -> bytes | None:
    """The HTML of page `path` of site n (None: no such page)."""
    return _html(site_spec(n), path)


@cache
def realistic_body(n: int, path: str) -> bytes | None:
    """What realistic site n sends for `path` to a client accepting gzip: gzip-compressed HTML on the gzip
    sites (only that is kept, 1 000 sites' HTML would take gigabytes), plain HTML on the others."""
    html = _html(realistic_spec(n), path)
    if html is None or not realistic_spec(n).gzip:
        return html
    return gzip.compress(html, compresslevel=6, mtime=0)


def _html(spec: SiteSpec, path: str) -> bytes | None:
    n = spec.n
    if path not in spec.pages:
        return None
    rng = random.Random(f"{n}:{path}")
    name = f"Parafia {NAMES[n % len(NAMES)]} w {TOWNS[n % len(TOWNS)]}"
    shell = EPOCH and n % 25 == 1 and path == "/"  # the site moved to JavaScript rendering
    menu = "".join(
        f'<li><a href="{p}">{label}</a></li>'
        for p, label in (
            ("/", "Strona główna"),
            (spec.schedule, "Msze święte"),
            ("/ogloszenia.html", "Ogłoszenia"),
            ("/intencje.html", "Intencje"),
            ("/aktualnosci/", "Aktualności"),
            ("/historia.html", "Historia"),
            ("/galeria.html", "Galeria"),
            ("/kontakt.html", "Kontakt"),
        )
    )
    broken = '<a href="/stara-strona.html">Archiwum</a>' if n % 10 == 3 else ""
    if spec.realistic:
        broken += '<a href="/wp-admin/">Zaloguj</a>'
    sidebar = (
        "<div class='sidebar'><h3>Kancelaria</h3><p>wtorek i czwartek 16.00–17.30</p>"
        f"<h3>Konto</h3><p>PL 12 3456 7890 {n:04d} 0000 1111 2222</p>{broken}"
        "<a href='https://www.facebook.com/parafia'>Facebook</a> <a href='/plan.pdf'>Plan (PDF)</a></div>"
    )
    html = (
        f"<!DOCTYPE html><html lang='pl'><head><meta charset='utf-8'><title>{name}</title>"
        "<style>" + "body{font-family:serif} .menu li{display:inline}" * 40 + "</style></head><body>"
        f"<header><h1>{name}</h1><ul class='menu'>{menu}</ul></header>"
        f"<main>{'<div id=app></div><script src=/app.js></script>' if shell else _page_body(spec, path, rng)}"
        "</main>"
        f"{sidebar}<footer><p>© {name}, ul. Kościelna {n % 90 + 1}, {TOWNS[n % len(TOWNS)]}</p></footer>"
        "</body></html>"
    )
    return html.encode("utf-8")


def generated_pages(count: int) -> list[str]:
    """The HTML of the first ``count`` pages of the fake web's sites from site 1, in site order."""
    pages: list[str] = []
    n = 1
    while len(pages) < count:
        for path in site_spec(n).pages:
            html = page_html(n, path)
            if html is not None and len(pages) < count:
                pages.append(html.decode("utf-8"))
        n += 1
    return pages


def site_number(hostname: str) -> int | None:
    name = hostname.lower().removeprefix("www.")
    if name.startswith("parafia-") and name.endswith(".test"):
        digits = name[len("parafia-") : -len(".test")]
        if digits.isdigit():
            return int(digits)
    return None


def answer(hostname: str, path: str, sites: int) -> tuple[str, int, bytes, float]:
    """(kind, status, body, delay) for a request; kind is "page", "drop" or "error"."""
    n = site_number(hostname)
    if n is None or n >= sites:
        return "error", 502, b"unknown host", 0.0
    spec = site_spec(n)
    if spec.drops:
        return "drop", 0, b"", spec.delay
    if path == "/robots.txt":
        return "page", 200, b"User-agent: *\nAllow: /\n", spec.delay
    if spec.fails:
        return "error", 500, b"<html><body><h1>Internal Server Error</h1></body></html>", spec.delay
    html = page_html(n, path)
    if html is None:
        return "error", 404, NOT_FOUND, spec.delay
    return "page", 200, html, spec.delay


def realistic_answer(
    hostname: str, path: str, sites: int, accepts_gzip: bool
) -> tuple[str, int, bytes, float, dict[str, str]]:
    """(kind, status, body, delay, headers) for a request to the realistic web; kind as in `answer`. Each
    answer's delay is its site's latency +-20 %, seeded by the path."""
    n = site_number(hostname)
    if n is None or n >= sites:
        return "error", 502, b"unknown host", 0.0, {}
    spec = realistic_spec(n)
    delay = (
        spec.delay if spec.timeouts else round(spec.delay * random.Random(f"{n}:{path}").uniform(0.8, 1.2), 3)
    )
    if spec.drops:
        return "drop", 0, b"", delay, {}
    if path == "/robots.txt":
        if spec.robots is None:
            return "error", 404, NOT_FOUND, delay, {}
        return "page", 200, spec.robots.encode(), delay, {"Content-Type": "text/plain"}
    media = media_body(n, path)
    if media is not None:
        return "page", 200, media[0], delay, {"Content-Type": media[1]}
    body = realistic_body(n, path)
    if body is None:
        return "error", 404, NOT_FOUND, delay, {}
    headers = {"Content-Type": "text/html; charset=utf-8"}
    if spec.gzip and accepts_gzip:
        headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
    elif spec.gzip:
        body = gzip.decompress(body)
    return "page", 200, body, delay, headers


@cache
def etag(n: int, path: str) -> str:
    """A strong validator of the page (changes when its HTML does), as Apache/nginx send for static files."""
    return '"' + hashlib.sha1(page_html(n, path) or b"").hexdigest()[:16] + '"'


def stats(sites: int) -> dict[str, float]:
    """Counts of the generated web: pages, sizes, slow/failing sites."""
    specs = [site_spec(n) for n in range(sites)]
    ok = [s for s in specs if not s.fails and not s.drops]
    sizes = [len(page_html(s.n, p) or b"") for s in ok for p in s.pages]
    return {
        "sites": sites,
        "pages": len(sizes),
        "mean_kb": round(sum(sizes) / len(sizes) / 1024, 1),
        "max_kb": round(max(sizes) / 1024, 1),
        "slow_sites": sum(1 for s in specs if s.delay),
        "failing_sites": sum(1 for s in specs if s.fails),
        "dropping_sites": sum(1 for s in specs if s.drops),
    }


def realistic_stats(sites: int) -> dict[str, float]:
    """Counts of the realistic web's first `sites` sites: the shares its docstring states, pages per site
    (pages reachable within depth 3, robots.txt not applied) and their HTML sizes."""
    specs = [realistic_spec(n) for n in range(sites)]
    fast = [s for s in specs if not s.drops and not s.timeouts and s.delay < 1]
    counts = sorted(len(s.pages) for s in specs)
    sample = [len(_html(s, p) or b"") for s in specs[:100] for p in s.pages]
    compressed = [len(realistic_body(s.n, p) or b"") for s in specs[:100] if s.gzip for p in s.pages]
    plain = [len(_html(s, p) or b"") for s in specs[:100] if s.gzip for p in s.pages]
    return {
        "sites": sites,
        "fast_share": len(fast) / sites,
        "slow_share": sum(1 for s in specs if not s.drops and 1 <= s.delay <= 3) / sites,
        "timeout_share": sum(1 for s in specs if s.timeouts) / sites,
        "drop_share": sum(1 for s in specs if s.drops) / sites,
        "robots_404_share": sum(1 for s in specs if s.robots is None) / sites,
        "robots_disallow_share": sum(1 for s in specs if s.robots not in (None, ALLOW_ALL)) / sites,
        "gzip_share": sum(1 for s in specs if s.gzip) / sites,
        "pages": sum(counts),
        "pages_median": counts[len(counts) // 2],
        "pages_p90": counts[int(len(counts) * 0.9)],
        "pages_max": counts[-1],
        "html_mean_kb": round(sum(sample) / len(sample) / 1024, 1),
        "gzip_ratio": round(sum(plain) / sum(compressed), 1),
        "pdf_schedule_share": sum(media_kind(s.n) == "pdf" for s in specs) / sites,
        "image_schedule_share": sum(media_kind(s.n) == "image" for s in specs) / sites,
    }


def write_urls(path: str, sites: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(f"http://{host(n)}/\n" for n in range(sites))


def serve(port: int, sites: int, realistic: bool = False) -> None:
    """Run the server until killed; prints `PROXY http://127.0.0.1:PORT` once listening."""
    from twisted.internet import reactor
    from twisted.web import resource, server

    class FakeWeb(resource.Resource):
        isLeaf = True

        def render_GET(self, request):  # noqa: ANN001, ANN202, N802 (Twisted's names)
            uri = request.uri.decode("latin-1")
            parts = urlsplit(uri)
            hostname = parts.hostname or (request.getHeader("host") or "").split(":")[0]
            path = parts.path or "/"
            if realistic:
                accepts = "gzip" in (request.getHeader("accept-encoding") or "")
                kind, status, body, delay, headers = realistic_answer(hostname, path, sites, accepts)
                tag = None
            else:
                kind, status, body, delay = answer(hostname, path, sites)
                headers = {"Content-Type": "text/html; charset=utf-8"}
                n = site_number(hostname)
                tag = etag(n, path) if kind == "page" and n is not None and path != "/robots.txt" else None
            if tag and request.getHeader("if-none-match") == tag:
                kind, status, body = "not_modified", 304, b""

            def finish() -> None:
                if request.finished or request._disconnected:
                    return
                if kind == "drop":
                    request.transport.abortConnection()
                    return
                request.setResponseCode(status)
                if tag:
                    request.setHeader(b"ETag", tag.encode())
                if status != 304:
                    for name, value in headers.items():
                        request.setHeader(name.encode(), value.encode())
                    request.setHeader(b"Content-Length", str(len(body)).encode())
                    request.write(body)
                request.finish()

            if delay:
                reactor.callLater(delay, finish)
            else:
                finish()
            return server.NOT_DONE_YET

    for n in range(sites):  # generate every page before listening, so no crawl pays for generation
        if realistic:
            for path in realistic_spec(n).pages:
                realistic_body(n, path)
        else:
            for path in site_spec(n).pages:
                page_html(n, path)
    site = server.Site(FakeWeb())
    site.log = lambda request: None  # no access log: it would cost more than the answers
    listening = reactor.listenTCP(port, site, interface="127.0.0.1", backlog=1024)
    line = f"PROXY http://127.0.0.1:{listening.getHost().port}"
    print(line, flush=True)
    reactor.run()


def start(
    sites: int, urls: str | os.PathLike[str], epoch: int = 0, realistic: bool = False, media: bool = False
) -> tuple[subprocess.Popen[str], str]:
    """Serve the fake web from a child process (start URLs written to `urls`); (the process, its proxy URL)
    once it listens. The benchmarks and scripts/crawl_all_resume_check.py start it this way."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--sites", str(sites), "--urls", str(urls),
         "--epoch", str(epoch), *(["--realistic"] if realistic else []), *(["--media"] if media else [])],
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    line = proc.stdout.readline().strip() if proc.stdout else ""
    if not line.startswith("PROXY "):
        proc.kill()
        raise SystemExit(f"fake web did not start: {line!r}")
    return proc, line.split()[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=220, help="number of parish sites (default 220)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: any free one)")
    parser.add_argument("--urls", help="write the sites' start URLs to this file")
    parser.add_argument("--stats", action="store_true", help="print the generated web's counts and exit")
    parser.add_argument(
        "--epoch",
        type=int,
        default=0,
        help="a later state of the web: every 10th site moved its Mass times, and the start page of sites "
        "n %% 25 == 1 became a JavaScript shell (default 0 = the first state)",
    )
    parser.add_argument(
        "--realistic",
        action="store_true",
        help="real-web latency (some sites time out or drop), robots.txt rules, gzip, archive-sized sites",
    )
    parser.add_argument(
        "--media",
        action="store_true",
        help="with --realistic: 10 %% of sites post their schedule only as a PDF, 5 %% only as an image",
    )
    args = parser.parse_args(argv)
    global EPOCH, MEDIA
    EPOCH, MEDIA = args.epoch, args.media
    if args.urls:
        write_urls(args.urls, args.sites)
    if args.stats:
        print(realistic_stats(args.sites) if args.realistic else stats(args.sites))
        return 0
    serve(args.port, args.sites, args.realistic)
    return 0


if __name__ == "__main__":
    sys.exit(main())
