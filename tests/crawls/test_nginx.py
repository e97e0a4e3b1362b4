"""The crawl against a real web server: nginx compressing (gzip, brotli) pages under CMS-style URLs.

Real parish servers compress HTML and their URLs have no `.html`; the plain fixture web does neither. Each
fixture site is crawled once through the plain fixture web (the reference) and once through nginx serving its
pretty-URL copy (tests/nginx.py), and the crawl must store the same pages with the same text and Mass hours.
zstd (and brotli again) come from the Python fixture web, which nginx cannot send. The frameset site and the
iframe site (tests/sites/README.md) must yield their schedule's Mass times through both servers.
"""

from __future__ import annotations

import gzip
import http.client
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import CrawlResult, run_crawl
from nginx import PRETTY_SITES, Nginx, docroot_file, pretty_url, write_pretty_site
from webserver import WEB_ROOT, Compressed, Encoded, FixtureWeb

A, B = "swwojciech.test", "mbcz-debina.test"
FRAMES, IFRAME = "nmp-zagorze.test", "swanna-lipowiec.test"
START = {
    A: "http://swwojciech.test/",
    B: "http://www.mbcz-debina.test/",
    FRAMES: "http://nmp-zagorze.test/",
    IFRAME: "http://swanna-lipowiec.test/",
}
# What the reference crawl stores (plain URLs: the static pages within depth 3); the schedules' Masses.
STORED = {
    A: {
        f"http://{A}{path}"
        for path in (
            "/",
            "/index.html",
            "/msze.html",
            "/ogloszenia/",
            "/aktualnosci/",
            "/aktualnosci/odpust-2026.html",
            "/aktualnosci/archiwum.html",
            "/intencje.html",
            "/historia.html",
            "/kontakt.html",
        )
    },
    B: {f"http://www.{B}{path}" for path in ("/", "/nabozenstwa.html", "/ogloszenia.html", "/historia.html")},
}
SCHEDULE = {A: f"http://{A}/msze.html", B: f"http://www.{B}/nabozenstwa.html"}
MASSES = {
    A: {("07:00", "sunday"), ("09:00", "sunday"), ("11:00", "sunday"), ("18:00", "sunday")}
    | {("07:00", "weekday"), ("18:00", "weekday")},
    B: {("08:00", "sunday"), ("10:30", "sunday"), ("12:00", "sunday"), ("17:00", "sunday")}
    | {("07:30", "weekday"), ("17:00", "weekday")},
    FRAMES: {("07:30", "sunday"), ("09:30", "sunday"), ("11:00", "sunday"), ("16:00", "sunday")}
    | {("07:00", "weekday"), ("17:30", "weekday")},
    IFRAME: {("08:00", "sunday"), ("09:30", "sunday"), ("11:00", "sunday"), ("18:00", "sunday")}
    | {("06:30", "weekday"), ("18:00", "weekday")},
}


Crawl = Callable[[Any, str], CrawlResult]  # crawl(web, host), `web` a FixtureWeb or an Nginx

# --- servers ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pretty_roots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Document roots of the pretty-URL copies of swwojciech.test and mbcz-debina.test."""
    root = tmp_path_factory.mktemp("pretty")
    return {host: write_pretty_site(WEB_ROOT / host, root / host, p) for host, p in PRETTY_SITES.items()}


def nginx_sites(pretty_roots: dict[str, Path]) -> dict[str, Path]:
    """The pretty copies, and the frameset and iframe sites as they are (old sites keep their .html)."""
    return {**pretty_roots, FRAMES: WEB_ROOT / FRAMES, IFRAME: WEB_ROOT / IFRAME}


@pytest.fixture(scope="module")
def gzip_nginx(pretty_roots: dict[str, Path]) -> Iterator[Nginx]:
    with Nginx(nginx_sites(pretty_roots)) as web:
        yield web


@pytest.fixture(scope="module")
def brotli_nginx(pretty_roots: dict[str, Path]) -> Iterator[Nginx]:
    with Nginx(nginx_sites(pretty_roots), brotli=True) as web:
        yield web


@pytest.fixture(scope="module")
def plain_web() -> Iterator[FixtureWeb]:
    """The fixture web with the static pages only: the re-encoded pages are its special routes' encodings."""
    web = FixtureWeb(default_host=A)
    for host, pages in PRETTY_SITES.items():
        for page in (p for p in pages if p.encoding != "utf-8"):
            for name in (host, f"www.{host}"):
                web.route(name, page.plain, Encoded(WEB_ROOT / host / page.source, page.encoding))
    with web:
        yield web


def compressed_web(pretty_roots: dict[str, Path], host: str, encoding: str) -> FixtureWeb:
    """The Python fixture web serving the pretty copy of `host` compressed with `encoding` (route by path)."""
    web = FixtureWeb(root=pretty_roots[host].parent, default_host=host)
    paths = [urlsplit(page.pretty).path for page in PRETTY_SITES[host]]
    assert len(set(paths)) == len(paths), "a route answers for one path whatever its query"
    for page, path in zip(PRETTY_SITES[host], paths, strict=True):
        handler = Compressed(pretty_roots[host] / docroot_file(page.pretty), encoding)
        for name in (host, f"www.{host}"):
            web.route(name, path, handler)
    return web


# --- crawls -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def crawls() -> dict[tuple[str, str], CrawlResult]:
    return {}


@pytest.fixture
def crawl(crawls: dict[tuple[str, str], CrawlResult], tmp_path_factory: pytest.TempPathFactory) -> Crawl:
    """crawl(web, host): the crawl of START[host] through `web` (an http_proxy), run once per module."""

    def run(web: Nginx | FixtureWeb, host: str) -> CrawlResult:
        key = (web.proxy, host)
        if key not in crawls:
            crawls[key] = run_crawl(START[host], tmp_path_factory.mktemp(host), proxy=web.proxy)
        return crawls[key]

    return run


def assert_crawled(result: CrawlResult) -> None:
    """The crawl finished cleanly and dropped no page as binary."""
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["finish_reason"] == "finished"
    assert "Traceback" not in result.log, result.log[-3000:]
    drops = {key: n for key, n in result.stats.items() if key.startswith("msze/binary_sniff/dropped")}
    assert drops == {}, drops


def page_fields(item: dict[str, Any]) -> dict[str, Any]:
    """What must not depend on the server: the page's place in the crawl, its text and its hours."""
    hours = [(h["text"], h["time"], h["day"], h["label"]) for h in item.get("hours", [])]
    keys = ("depth", "button_text", "text", "masses")
    return {**{key: item.get(key) for key in keys}, "hours": hours}


def masses_of(item: dict[str, Any]) -> set[tuple[str, str]]:
    return {(h["time"], h["day"]) for h in item["hours"] if h["label"] == "mass"}


def assert_same_pages(reference: CrawlResult, result: CrawlResult, host: str) -> None:
    """`result` stored the reference's pages under their pretty URLs, with the same text and hours."""
    assert_crawled(reference)
    assert reference.urls() == STORED[host]
    assert masses_of(reference.item(SCHEDULE[host])) == MASSES[host]
    assert_crawled(result)
    expected = {pretty_url(url): url for url in reference.urls()}
    assert result.urls() == set(expected)
    for url, plain in expected.items():
        assert page_fields(result.item(url)) == page_fields(reference.item(plain)), url


def assert_sent_compressed(web: Nginx, host: str, result: CrawlResult, encoding: str) -> None:
    """nginx answered every stored page with `encoding` (chunked), so the test measured what it claims."""
    pages = [e for e in web.log(host) if e.status == 200 and e.content_type.startswith("text/html")]
    assert result.urls() <= {e.url for e in pages}
    assert {e.content_encoding for e in pages} == {encoding}
    assert {e.transfer_encoding for e in pages} == {"chunked"}


# --- tests ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", [A, B])
def test_gzip_pages_under_cms_urls_stored_as_from_the_plain_web(
    host: str, crawl: Crawl, plain_web: FixtureWeb, gzip_nginx: Nginx
) -> None:
    result = crawl(gzip_nginx, host)
    assert_same_pages(crawl(plain_web, host), result, host)
    assert_sent_compressed(gzip_nginx, host, result, "gzip")


def test_brotli_pages_stored_as_from_the_plain_web(
    crawl: Crawl, plain_web: FixtureWeb, brotli_nginx: Nginx
) -> None:
    result = crawl(brotli_nginx, A)
    assert_same_pages(crawl(plain_web, A), result, A)
    assert_sent_compressed(brotli_nginx, A, result, "br")


@pytest.mark.parametrize("encoding", ["zstd", "br"])
def test_zstd_and_brotli_from_the_python_web_stored_as_from_the_plain_web(
    encoding: str, crawl: Crawl, plain_web: FixtureWeb, pretty_roots: dict[str, Path]
) -> None:
    with compressed_web(pretty_roots, B, encoding) as web:
        result = crawl(web, B)
    assert_same_pages(crawl(plain_web, B), result, B)
    handlers = {path: handler for (_, path), handler in web.routes.items()}
    assert {path: h.compressed for path, h in handlers.items()} == {path: 1 for path in handlers}


def test_nginx_answers_carry_validators_and_keep_the_connection(gzip_nginx: Nginx) -> None:
    """ETag and Last-Modified (the recrawl's conditional requests), gzip, chunked, keep-alive."""
    url = pretty_url(SCHEDULE[A])
    connection = http.client.HTTPConnection("127.0.0.1", gzip_nginx.port, timeout=5)
    connection.request("GET", url, headers={"Accept-Encoding": "gzip"})
    answer = connection.getresponse()
    body = answer.read()
    assert answer.status == 200
    assert answer.getheader("Content-Encoding") == "gzip"
    assert answer.getheader("Transfer-Encoding") == "chunked" and answer.getheader("Content-Length") is None
    etag, last_modified = answer.getheader("ETag"), answer.getheader("Last-Modified")
    assert etag and last_modified
    assert "Porządek Mszy świętych" in gzip.decompress(body).decode("utf-8")
    socket = connection.sock
    connection.request("GET", url, headers={"Accept-Encoding": "gzip", "If-None-Match": etag})
    again = connection.getresponse()
    again.read()
    assert again.status == 304
    assert connection.sock is socket  # kept alive: http.client opens a new socket after a close


def test_recrawl_through_nginx_gets_not_modified(gzip_nginx: Nginx, tmp_path: Path) -> None:
    """A second crawl sends nginx's (weak, gzip) validators back and re-uses every stored page."""
    state = f"RECRAWL_STATE={tmp_path / 'state.sqlite'}"
    first = run_crawl(START[B], tmp_path / "run1", state, proxy=gzip_nginx.proxy)
    assert_crawled(first)
    assert len(first.items) == len(STORED[B])
    seen = len(gzip_nginx.log(B))
    second = run_crawl(START[B], tmp_path / "run2", state, proxy=gzip_nginx.proxy)
    assert_crawled(second)
    answers = {e.url: e.status for e in gzip_nginx.log(B)[seen:] if e.uri != "/robots.txt"}
    assert answers == {url: 304 for url in first.urls()}
    assert second.stats["msze/recrawl/not_modified"] == len(STORED[B])
    assert {item["change"] for item in second.items} == {"not_modified"}
    schedule = second.item(pretty_url(SCHEDULE[B]))
    assert masses_of(schedule) == MASSES[B]


@pytest.mark.parametrize("server", ["plain_web", "gzip_nginx"])
def test_frameset_site_yields_its_schedule(server: str, crawl: Crawl, request: pytest.FixtureRequest) -> None:
    """index = <frameset> (menu + main frame); the schedule is linked only from the menu frame."""
    result = crawl(request.getfixturevalue(server), FRAMES)
    assert_crawled(result)
    site = f"http://{FRAMES}"
    pages = ("/", "/menu.html", "/glowna.html", "/msze.html", "/ogloszenia.html")
    assert result.urls() == {site + path for path in pages}
    menu = result.item(f"{site}/menu.html")
    assert (menu["depth"], menu["button_text"]) == (1, "menu")  # the frame's name is its link text
    schedule = result.item(f"{site}/msze.html")
    assert (schedule["depth"], schedule["button_text"]) == (2, "Msze i nabożeństwa")
    assert masses_of(schedule) == MASSES[FRAMES]
    assert {t for item in result.items for t in item["masses"]} == {t for t, _ in MASSES[FRAMES]}


@pytest.mark.parametrize("server", ["plain_web", "gzip_nginx"])
def test_iframe_schedule_and_script_menus_followed(
    server: str, crawl: Crawl, request: pytest.FixtureRequest
) -> None:
    """The schedule is an <iframe> of the home page; two menu items navigate by onclick / window.open."""
    result = crawl(request.getfixturevalue(server), IFRAME)
    assert_crawled(result)
    site = f"http://{IFRAME}"
    pages = ("/", "/msze.html", "/ogloszenia.html", "/kancelaria.html")
    assert result.urls() == {site + path for path in pages}
    schedule = result.item(f"{site}/msze.html")
    assert (schedule["depth"], schedule["button_text"]) == (1, "Porządek Mszy świętych")  # the iframe's title
    assert masses_of(schedule) == MASSES[IFRAME]
    assert {t for item in result.items for t in item["masses"]} == {t for t, _ in MASSES[IFRAME]}
    assert {result.item(f"{site}/{name}.html")["depth"] for name in ("ogloszenia", "kancelaria")} == {1}


def test_missing_nginx_fails_with_a_clear_message(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"nginx is missing: .*scripts/setup.sh installs it"):
        Nginx({}, binary=tmp_path / "nginx", dir=tmp_path).start()
