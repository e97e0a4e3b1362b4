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
"""

from __future__ import annotations

import argparse
import hashlib
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
EPOCH = 0  # --epoch: a later state of the same web (some schedules moved, some start pages turned JS shells)
SCHEDULE_FILES = ("msze.html", "porzadek-mszy.html", "nabozenstwa.html", "msze-swiete/index.html")


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


def _page_body(spec: SiteSpec, path: str, rng: random.Random) -> str:
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
def page_html(n: int, path: str) -> bytes | None:
    """The HTML of page `path` of site n (None: no such page)."""
    spec = site_spec(n)
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
        return "error", 404, b"<html><body><h1>404 Nie znaleziono</h1></body></html>", spec.delay
    return "page", 200, html, spec.delay


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


def write_urls(path: str, sites: int) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.writelines(f"http://{host(n)}/\n" for n in range(sites))


def serve(port: int, sites: int) -> None:
    """Run the server until killed; prints `PROXY http://127.0.0.1:PORT` once listening."""
    from twisted.internet import reactor
    from twisted.web import resource, server

    class FakeWeb(resource.Resource):
        isLeaf = True

        def render_GET(self, request):  # noqa: ANN001, ANN202, N802 (Twisted's names)
            uri = request.uri.decode("latin-1")
            parts = urlsplit(uri)
            hostname = parts.hostname or (request.getHeader("host") or "").split(":")[0]
            kind, status, body, delay = answer(hostname, parts.path or "/", sites)
            n = site_number(hostname)
            tag = (
                etag(n, parts.path or "/")
                if kind == "page" and n is not None and parts.path != "/robots.txt"
                else None
            )
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
                    request.setHeader(b"Content-Type", b"text/html; charset=utf-8")
                    request.setHeader(b"Content-Length", str(len(body)).encode())
                    request.write(body)
                request.finish()

            if delay:
                reactor.callLater(delay, finish)
            else:
                finish()
            return server.NOT_DONE_YET

    for n in range(sites):  # generate every page before listening, so no crawl pays for generation
        for path in site_spec(n).pages:
            page_html(n, path)
    site = server.Site(FakeWeb())
    site.log = lambda request: None  # no access log: it would cost more than the answers
    listening = reactor.listenTCP(port, site, interface="127.0.0.1", backlog=1024)
    line = f"PROXY http://127.0.0.1:{listening.getHost().port}"
    print(line, flush=True)
    reactor.run()


def start(sites: int, urls: str | os.PathLike[str], epoch: int = 0) -> tuple[subprocess.Popen[str], str]:
    """Serve the fake web from a child process (start URLs written to `urls`); (the process, its proxy URL)
    once it listens. The benchmarks and scripts/crawl_all_resume_check.py start it this way."""
    proc = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--sites", str(sites), "--urls", str(urls),
         "--epoch", str(epoch)],
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
    args = parser.parse_args(argv)
    global EPOCH
    EPOCH = args.epoch
    if args.urls:
        write_urls(args.urls, args.sites)
    if args.stats:
        print(stats(args.sites))
        return 0
    serve(args.port, args.sites)
    return 0


if __name__ == "__main__":
    sys.exit(main())
