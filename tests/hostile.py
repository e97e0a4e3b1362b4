"""Hostile web servers for crawl tests: one scenario at a time on 127.0.0.1:0, reached as an HTTP proxy.

Each `Scenario` is a small site whose server misbehaves the way real parish hosting does (compression bombs,
bodies that never end or drip a byte at a time, 300 new links a page, a session id in every link, 30-hop
redirect chains, UTF-16 and 8-bit Polish code pages, connections closed mid-body, 429 with Retry-After: 86400
or an odd value ("²", 10**400), compressed pages under extensionless URLs, credentials in links), with the
pages a crawl must store and the stats it must show. `run_scenario` runs `scrapy crawl parish` (or
`parishes`) against it through conftest.run_crawl inside a fresh child process, so the crawl's peak RSS is
that child's `getrusage(RUSAGE_CHILDREN)`:

    python tests/hostile.py --measure '{"url": ..., "tmp": ..., "settings": [...]}'   # what run_scenario runs

tests/crawls/test_hostile.py asserts every scenario; scripts/hostile_report.py prints them as a table.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import resource
import subprocess
import sys
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import brotli

try:
    from compression import zstd  # Python 3.14+
except ImportError:  # pragma: no cover (the venv's Python 3.11)
    from backports import zstd

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
from conftest import CrawlResult, run_crawl  # noqa: E402 (after the sys.path line above)

CRAWL_TIMEOUT = 60.0  # a scenario's crawl is killed after this (a safety bound, not a benchmark)
SERVE_LIMIT = 30.0  # no handler streams longer than this, whatever the client does
POLISH = "Msze święte: niedziela 7:00, 9:30 i 18:00; w dni powszednie o 7:00. Zażółć gęślą jaźń."
MAX_RSS_MB = 400  # a scenario's crawl process must stay under this peak RSS (a safety bound)
BOMB_SIZE = 64 * 1024 * 1024  # decompressed; the crawl's DOWNLOAD_MAXSIZE (16 MB) must stop it first

Handler = Callable[["HostileHandler", str, str], None]  # (handler, path, query) -> writes the whole response


def page(title: str, links: Iterable[str] = (), text: str = POLISH) -> str:
    """A small parish page (Polish text, links in a list) as a str."""
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in links)
    return (
        f'<html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><h1>{title}</h1><p>{text}</p><ul>{items}</ul></body></html>"
    )


class HostileHandler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"
    host = ""  # the site asked for (proxy form or Host header), lower-case, no port

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        parts = urlsplit(self.path)  # proxy form (GET http://host/path) or origin form (GET /path)
        self.host = (parts.hostname or self.headers.get("Host", "").split(":")[0]).lower()
        self.server.hostile.record(self, parts.path or "/")
        handler = self.server.hostile.handler_for(parts.path or "/")
        handler(self, parts.path or "/", parts.query)

    def send(
        self,
        body: bytes,
        content_type: str = "text/html; charset=utf-8",
        status: int = 200,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        """A whole response with its Content-Length."""
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        with contextlib.suppress(OSError):
            self.wfile.write(body)

    def stream(self, chunks: Iterator[bytes], headers: Mapping[str, str], pause: float = 0.0) -> None:
        """Headers, then chunks until they run out, the client goes away or SERVE_LIMIT passes."""
        self.close_connection = True
        self.send_response(200)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Connection", "close")
        self.end_headers()
        deadline = time.monotonic() + SERVE_LIMIT
        with contextlib.suppress(OSError):
            for chunk in chunks:
                if time.monotonic() > deadline:
                    break
                self.wfile.write(chunk)
                self.wfile.flush()
                if pause:
                    time.sleep(pause)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    hostile: HostileServer

    def handle_error(self, request: Any, client_address: Any) -> None:  # a client that hung up: expected
        pass


@dataclass
class Hit:
    host: str
    path: str
    authorization: str | None


class HostileServer:
    """A scenario's routes on 127.0.0.1:0; a route ending in "*" matches every path with that prefix."""

    def __init__(self, routes: Mapping[str, Handler]) -> None:
        self.routes = dict(routes)
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), HostileHandler)
        self._server.hostile = self

    def __enter__(self) -> HostileServer:
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def proxy(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def handler_for(self, path: str) -> Handler:
        if path in self.routes:
            return self.routes[path]
        prefixes = [p for p in self.routes if p.endswith("*") and path.startswith(p[:-1])]
        return self.routes[max(prefixes, key=len)] if prefixes else not_found

    def record(self, handler: HostileHandler, path: str) -> None:
        with self._lock:
            self.hits.append(Hit(handler.host, path, handler.headers.get("Authorization")))


# --- handlers ---------------------------------------------------------------------------------------------
def not_found(handler: HostileHandler, path: str, query: str) -> None:
    handler.send(b"<html><body><h1>404</h1></body></html>", status=404)


def html(body: str, content_type: str = "text/html; charset=utf-8", encoding: str = "utf-8") -> Handler:
    data = body.encode(encoding)

    def handle(handler: HostileHandler, path: str, query: str) -> None:
        handler.send(data, content_type)

    return handle


def raw(data: bytes, content_type: str = "text/html", **headers: str) -> Handler:
    def handle(handler: HostileHandler, path: str, query: str) -> None:
        handler.send(data, content_type, headers={k.replace("_", "-"): v for k, v in headers.items()})

    return handle


def redirect_chain(prefix: str) -> Handler:
    """/prefix/N answers 302 to /prefix/N-1; /prefix/0 is a page."""

    def handle(handler: HostileHandler, path: str, query: str) -> None:
        hops = int(path[len(prefix) :] or 0)
        if hops == 0:
            handler.send(page(f"Koniec {prefix}").encode())
        else:
            handler.send(b"", status=302, headers={"Location": f"{prefix}{hops - 1}"})

    return handle


def fan_out(handler: HostileHandler, path: str, query: str) -> None:
    """/ and /p/N: 300 links to pages never seen before (/p/300N+1 ... /p/300N+300)."""
    n = int(path.removeprefix("/p/") or 0) if path.startswith("/p/") else 0
    handler.send(page(f"Strona {n}", (f"/p/{300 * n + i}" for i in range(1, 301))).encode())


def session_trap(handler: HostileHandler, path: str, query: str) -> None:
    """Every answer links to every page with a new session id in the path (a servlet without cookies)."""
    sid = uuid.uuid4().hex.upper()
    links = [
        f"/;jsessionid={sid}",
        f"/msze;jsessionid={sid}.node1",
        f"/kontakt;JSESSIONID={sid}?lang=pl",
        f"/ogloszenia;sid={sid[:8]}",
        f"/(S({sid[:24].lower()}))/historia",
    ]
    handler.send(page("Parafia", links).encode())


def endless(handler: HostileHandler, path: str, query: str) -> None:
    """A text page that never ends: no Content-Length, the body is written until the client gives up."""
    chunk = ("<p>" + POLISH + "</p>\n").encode() * 500
    handler.stream(iter(lambda: chunk, None), {"Content-Type": "text/html; charset=utf-8"})


def drip(handler: HostileHandler, path: str, query: str) -> None:
    """Headers at once, then one byte every 0.1 s of a 100 kB page (never finishes in time)."""
    headers = {"Content-Type": "text/html; charset=utf-8", "Content-Length": "100000"}
    handler.stream(iter(lambda: b" ", None), headers, pause=0.1)


def closed_mid_body(handler: HostileHandler, path: str, query: str) -> None:
    """Content-Length 20 000, 5 000 bytes sent, then the connection is closed."""
    body = page("Urwana", text=POLISH * 100).encode()
    handler.stream(iter([body[:5000]]), {"Content-Type": "text/html", "Content-Length": "20000"})


def closed_at_once(handler: HostileHandler, path: str, query: str) -> None:
    """The request is read, then the connection is dropped without a byte."""
    handler.close_connection = True
    with contextlib.suppress(OSError):
        handler.connection.shutdown(2)


def busy(retry_after: str = "86400", failures: int = 2) -> Handler:
    """429 with Retry-After (a day) to the first `failures` requests of the path, then the page."""

    def handle(handler: HostileHandler, path: str, query: str) -> None:
        if sum(hit.path == path for hit in handler.server.hostile.hits) <= failures:
            handler.send(b"Too Many Requests", "text/plain", 429, {"Retry-After": retry_after})
        else:
            handler.send(page("Zajęta").encode())

    return handle


ENCODERS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "br": brotli.compress,
    "zstd": zstd.compress,
    "deflate": zlib.compress,
}


def compressed(body: str, encoding: str) -> Handler:
    return raw(ENCODERS[encoding](body.encode()), "text/html", Content_Encoding=encoding)


@cache
def bomb(encoding: str) -> bytes:
    """BOMB_SIZE bytes of an HTML page (mostly spaces) compressed with `encoding`: 64 kB gzip, 2 kB zstd."""
    data = b"<html><body><p>" + POLISH.encode() + b"</p>" + b" " * BOMB_SIZE
    if encoding == "br":
        return brotli.compress(data, quality=4)  # the default quality 11 takes seconds here
    return ENCODERS[encoding](data)


def compression_bomb(encoding: str) -> Handler:
    def handle(handler: HostileHandler, path: str, query: str) -> None:
        handler.send(bomb(encoding), "text/html", headers={"Content-Encoding": encoding})

    return handle


def declared_length(size: int) -> Handler:
    """Content-Length says `size` bytes (more than DOWNLOAD_MAXSIZE); the body is a short page."""

    def handle(handler: HostileHandler, path: str, query: str) -> None:
        body = page("Za duża").encode()
        handler.stream(iter([body]), {"Content-Type": "text/html", "Content-Length": str(size)})

    return handle


BIG_PAGE_SIZE = 15 * 1024 * 1024  # under DOWNLOAD_MAXSIZE (16 MB): a page the crawl accepts


@cache
def big_page() -> str:
    """BIG_PAGE_SIZE bytes of a page: numbered paragraphs of Polish text with times."""
    paragraph = "<p>{} " + POLISH + "</p>\n"
    head, tail = page("Duża").split("</body>")
    parts, size, i = [head], len(head.encode()), 0
    while size < BIG_PAGE_SIZE - 100:
        part = paragraph.format(i)
        parts.append(part)
        size += len(part.encode())
        i += 1
    return "".join(parts) + "</body>" + tail


def by_host(handlers: Mapping[str, Handler]) -> Handler:
    def handle(handler: HostileHandler, path: str, query: str) -> None:
        handlers.get(handler.host, not_found)(handler, path, query)

    return handle


def small_site(handler: HostileHandler, path: str, query: str) -> None:
    """Three pages linking to each other."""
    if path in ("/", "/msze", "/kontakt"):
        handler.send(page(f"Mała {path}", ["/", "/msze", "/kontakt"]).encode())
    else:
        not_found(handler, path, query)


def _user_links(port: int) -> str:
    base = f"127.0.0.1:{port}"
    return page(
        "Parafia",
        [f"http://ks:tajne@{base}/a", f"http://admin@{base}/b", "/c", f"http://ks.jan@wp.pl@{base}/e"],
    )


def userinfo_start(handler: HostileHandler, path: str, query: str) -> None:
    """Links with credentials (user:pass@, user@, an e-mail address as user) to the same host."""
    handler.send(_user_links(handler.server.hostile.port).encode())


def userinfo_redirect(handler: HostileHandler, path: str, query: str) -> None:
    """A redirect whose Location carries credentials."""
    location = f"http://ks:tajne@127.0.0.1:{handler.server.hostile.port}/d"
    handler.send(b"", status=302, headers={"Location": location})


# Retry-After values no number or date parser may choke on (the header goes out as latin-1: "٣" is sent as its
# UTF-8 bytes); the last three are valid.
ODD_RETRY_AFTER = {
    "superscript": "²",
    "empty": "",
    "exponent": "1e999",
    "negative": "-5",
    "arabic": "٣".encode().decode("latin-1"),
    "huge": "1" + "0" * 400,
    "past": "Thu, 01 Jan 1970 00:00:00 GMT",
    "far_future": "Fri, 31 Dec 9999 23:59:59 GMT",
}


# --- scenarios --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scenario:
    """A hostile site, the crawl's settings, and what the crawl must store and count.

    `pages`: the exact paths stored (with query), or, where the choice depends on scheduling (fan-out), the
    exact number of pages of the site. `stats`: exact values (0 = absent); `min_stats`: lower bounds;
    `log`: lines the log must contain, each with its exact count. Every stored page but the start page must
    contain `phrase` (decoded right). `direct`: the start URL is http://127.0.0.1:PORT/ (no proxy).
    `hosts`: the `parishes` spider crawls these sites in one process (handlers tell them apart by
    `handler.host`); `pages` then holds for the first host, `other_pages` for each of the others.
    """

    name: str
    what: str
    routes: Mapping[str, Handler]
    pages: frozenset[str] | int
    stats: Mapping[str, float] = field(default_factory=dict)
    min_stats: Mapping[str, float] = field(default_factory=dict)
    log: Mapping[str, int] = field(default_factory=dict)
    settings: tuple[str, ...] = ()
    phrase: str = "święte"
    direct: bool = False
    hosts: tuple[str, ...] = ()
    other_pages: frozenset[str] = frozenset()
    key_stats: tuple[str, ...] = ()  # shown in the report table


def _start(*links: str) -> Handler:
    return html(page("Parafia", links))


SCENARIOS: list[Scenario] = [
    Scenario(
        "compression_bombs",
        "64 MB of HTML as ~64 kB gzip / br / zstd under extensionless URLs",
        {
            "/": _start("/bomba-gz", "/bomba-br", "/bomba-zstd"),
            "/bomba-gz": compression_bomb("gzip"),
            "/bomba-br": compression_bomb("br"),
            "/bomba-zstd": compression_bomb("zstd"),
        },
        frozenset({"/"}),
        stats={"msze/binary_sniff/dropped": 0, "httpcompression/response_count": 0},
        log={"exceeded DOWNLOAD_MAXSIZE (16777216 B) during decompression": 3},
        key_stats=("downloader/response_bytes", "msze/binary_sniff/dropped"),
    ),
    Scenario(
        "endless_body",
        "a body without Content-Length that never ends; a Content-Length of 1 GB",
        {"/": _start("/bez-konca", "/za-duza"), "/bez-konca": endless, "/za-duza": declared_length(2**30)},
        frozenset({"/"}),
        stats={"msze/parish/errors/DownloadCancelledError": 2, "msze/backoff/retries": 0},
        log={
            "WARNING: Expected to receive 1073741824 bytes which is larger than download max size": 1,
            "bytes which is larger than download warn size": 1,  # the endless one, once
        },
        key_stats=("msze/parish/errors/DownloadCancelledError",),
    ),
    Scenario(
        "slow_drip",
        "one byte every 0.1 s: DOWNLOAD_TIMEOUT per attempt, BACKOFF_REPEAT_LIMIT attempts",
        {"/": _start("/kapie"), "/kapie": drip},
        frozenset({"/"}),
        stats={
            "msze/parish/errors/DownloadTimeoutError": 1,
            "msze/backoff/reason/DownloadTimeoutError": 3,
            "msze/backoff/gave_up": 1,
        },
        settings=("DOWNLOAD_TIMEOUT=1.5",),
        key_stats=("msze/backoff/gave_up",),
    ),
    Scenario(
        "slow_drip_time_cap",
        "three dripping pages, PARISH_MAX_SECONDS=1: their retries are not sent",
        {"/": _start("/kapie/1", "/kapie/2", "/kapie/3"), "/kapie/*": drip},
        frozenset({"/"}),
        stats={
            "msze/parish/errors/DownloadTimeoutError": 0,  # not given up: the retries were dropped
            "msze/backoff/reason/DownloadTimeoutError": 3,
            "msze/budget/dropped/max_seconds": 3,
            "msze/budget/sites/max_seconds": 1,
        },
        settings=("DOWNLOAD_TIMEOUT=1.5", "PARISH_MAX_SECONDS=1"),
        key_stats=("msze/budget/dropped/max_seconds",),
    ),
    Scenario(
        "fan_out",
        "300 new links a page (27 million pages at depth 3), PARISH_MAX_PAGES=40",
        {"/": fan_out, "/p/*": fan_out},
        40,
        stats={"msze/budget/sites/max_pages": 1},
        min_stats={"msze/budget/dropped/max_pages": 300 - 40},
        settings=("PARISH_MAX_PAGES=40",),
        phrase="Msze",
        key_stats=("msze/budget/dropped/max_pages",),
    ),
    Scenario(
        "session_trap",
        "a new ;jsessionid= / ;sid= / ASP.NET (S(...)) session id in every link of every answer",
        {"/*": session_trap},
        frozenset({"/", "/msze", "/kontakt?lang=pl", "/ogloszenia", "/historia"}),
        min_stats={"dupefilter/filtered": 20},
        key_stats=("dupefilter/filtered",),
    ),
    Scenario(
        "redirect_chains",
        "a 30-hop redirect chain (over REDIRECT_MAX_TIMES=20) and a 5-hop one",
        {
            "/": _start("/dlugi/30", "/krotki/5"),
            "/dlugi/*": redirect_chain("/dlugi/"),
            "/krotki/*": redirect_chain("/krotki/"),
        },
        frozenset({"/", "/krotki/0"}),
        stats={"msze/redirect/too_many": 1},
        phrase="Koniec",
        key_stats=("msze/redirect/too_many",),
    ),
    Scenario(
        "utf16",
        "UTF-16 LE and BE pages with a BOM (no charset), UTF-16LE declared in Content-Type (no BOM)",
        {
            "/": _start("/bom-le", "/bom-be", "/zadeklarowana"),
            "/bom-le": html("\ufeff" + page("LE"), "text/html", "utf-16-le"),
            "/bom-be": html("\ufeff" + page("BE"), "text/html", "utf-16-be"),
            "/zadeklarowana": html(page("Zadeklarowana"), "text/html; charset=utf-16le", "utf-16-le"),
        },
        frozenset({"/", "/bom-le", "/bom-be", "/zadeklarowana"}),
        stats={"msze/binary_sniff/dropped": 0},
    ),
    Scenario(
        "polish_8bit",
        "windows-1250 and ISO-8859-2 pages, no charset anywhere",
        {
            "/": _start("/cp1250", "/iso-8859-2"),
            "/cp1250": html(page("Ogłoszenia").replace(' charset="utf-8"', ""), "text/html", "cp1250"),
            "/iso-8859-2": html(page("Intencje").replace(' charset="utf-8"', ""), "text/html", "iso-8859-2"),
        },
        frozenset({"/", "/cp1250", "/iso-8859-2"}),
        stats={"msze/charset/guessed/windows-1250": 1, "msze/charset/guessed/iso-8859-2": 1},
        phrase=POLISH,
        key_stats=("msze/charset/guessed/windows-1250", "msze/charset/guessed/iso-8859-2"),
    ),
    Scenario(
        "closed_connections",
        "5 000 of 20 000 bytes then closed; closed before a byte",
        {"/": _start("/urwana", "/zerwana"), "/urwana": closed_mid_body, "/zerwana": closed_at_once},
        frozenset({"/"}),
        stats={
            "msze/parish/errors/ResponseDataLossError": 1,
            "msze/parish/errors/DownloadFailedError": 1,
            "msze/backoff/gave_up": 2,
        },
        key_stats=("msze/backoff/gave_up",),
    ),
    Scenario(
        "retry_after_day",
        "429 with Retry-After: 86400 twice, then 200; BACKOFF_MAX_WAIT=1 caps each wait",
        {"/": _start("/zajeta"), "/zajeta": busy()},
        frozenset({"/", "/zajeta"}),
        stats={"msze/backoff/retry_after": 2, "msze/backoff/wait_seconds": 2.0, "msze/backoff/gave_up": 0},
        settings=("BACKOFF_MAX_WAIT=1",),
        phrase="Zajęta",
        key_stats=("msze/backoff/wait_seconds",),
    ),
    Scenario(
        "retry_after_odd",
        "429 with Retry-After: ², '', 1e999, -5, ٣ (UTF-8 bytes), 10**400, 1970 and 9999 dates, then 200",
        {"/": _start(*(f"/zajeta/{name}" for name in ODD_RETRY_AFTER))}
        | {f"/zajeta/{name}": busy(value, failures=1) for name, value in ODD_RETRY_AFTER.items()},
        frozenset({"/", *(f"/zajeta/{name}" for name in ODD_RETRY_AFTER)}),
        # every page retried once after the normal backoff (capped at 1 s); only the last three are read as
        # a wait (then capped too)
        stats={
            "msze/backoff/retries": len(ODD_RETRY_AFTER),
            "msze/backoff/retry_after": 3,
            "msze/backoff/wait_seconds": float(len(ODD_RETRY_AFTER)),
            "msze/backoff/gave_up": 0,
        },
        settings=("BACKOFF_MAX_WAIT=1",),
        phrase="Zajęta",
        key_stats=("msze/backoff/retries", "msze/backoff/retry_after"),
    ),
    Scenario(
        "compressed_pages",
        "gzip, br, zstd and deflate pages under extensionless URLs",
        {
            "/": _start("/gz", "/br", "/zstd", "/deflate"),
            **{
                f"/{name}": compressed(page(name), encoding)
                for name, encoding in (("gz", "gzip"), ("br", "br"), ("zstd", "zstd"), ("deflate", "deflate"))
            },
        },
        frozenset({"/", "/gz", "/br", "/zstd", "/deflate"}),
        stats={"httpcompression/response_count": 4, "msze/binary_sniff/dropped": 0},
        key_stats=("httpcompression/response_count",),
    ),
    Scenario(
        "odd_bodies",
        "Content-Encoding: gzip over plain HTML; gzip applied twice (gzip, gzip); 200 000 nested <div>s",
        {
            "/": _start("/zly-gzip", "/podwojny-gzip", "/zagniezdzona"),
            "/zly-gzip": raw(page("Zły gzip").encode(), Content_Encoding="gzip"),
            "/podwojny-gzip": raw(
                gzip.compress(gzip.compress(page("Podwójny gzip").encode())), Content_Encoding="gzip, gzip"
            ),
            "/zagniezdzona": html(page("Głęboka", text="<div>" * 200_000 + POLISH + "</div>" * 200_000)),
        },
        frozenset({"/", "/podwojny-gzip", "/zagniezdzona"}),
        stats={"msze/parish/errors/BadGzipFile": 1, "msze/backoff/retries": 0},
        key_stats=("msze/parish/errors/BadGzipFile",),
    ),
    Scenario(
        "big_page",
        "one 15 MB HTML page of Polish paragraphs (under DOWNLOAD_MAXSIZE): stored whole, its beginning read",
        {"/": _start("/duza"), "/duza": html(big_page())},
        frozenset({"/", "/duza"}),
        stats={"msze/text/html_cut": 1, "msze/hours/truncated": 1, "msze/backoff/retries": 0},
        key_stats=("downloader/response_bytes", "msze/text/html_cut"),
    ),
    Scenario(
        "userinfo_links",
        "links with user:pass@, user@ and an e-mail as user; a redirect to user:pass@ (direct, no proxy)",
        {
            "/": userinfo_start,
            "/a": html(page("A")),
            "/b": html(page("B")),
            "/c": userinfo_redirect,
            "/d": html(page("D")),
            "/e": html(page("E")),
        },
        frozenset({"/", "/a", "/b", "/d", "/e"}),
        stats={"msze/userinfo/dropped": 1},
        direct=True,
        key_stats=("msze/userinfo/dropped",),
    ),
    Scenario(
        "fan_out_parishes",
        "the `parishes` spider: a fan-out site capped at 30 pages next to a small site crawled whole",
        {"/*": by_host({"wielka.test": fan_out, "mala.test": small_site})},
        30,
        stats={"msze/budget/sites/max_pages": 1, "msze/parishes/sites": 2},
        min_stats={"msze/budget/dropped/max_pages": 300 - 30},
        settings=("PARISH_MAX_PAGES=30",),
        phrase="Msze",
        hosts=("wielka.test", "mala.test"),
        other_pages=frozenset({"/", "/msze", "/kontakt"}),
        key_stats=("msze/budget/dropped/max_pages",),
    ),
]


# --- running a scenario -----------------------------------------------------------------------------------
@dataclass
class Outcome:
    scenario: Scenario
    result: CrawlResult | None  # None when the crawl did not end within CRAWL_TIMEOUT
    seconds: float
    peak_rss_mb: float
    hits: list[Hit]

    def paths(self, host: str | None = None) -> set[str]:
        """Stored pages as path?query (of one host, or of all)."""
        out = set()
        for item in self.result.items if self.result else []:
            parts = urlsplit(item["url"])
            if host is None or parts.hostname == host:
                out.add(parts.path + (f"?{parts.query}" if parts.query else ""))
        return out


def problems(outcome: Outcome) -> list[str]:
    """What the crawl of a scenario did wrong, one line each ([] = it behaved)."""
    scenario, result = outcome.scenario, outcome.result
    if result is None:
        return [f"the crawl did not end within {CRAWL_TIMEOUT:.0f} s"]
    found = []
    if result.returncode != 0 or result.stats.get("finish_reason") != "finished":
        found.append(f"exit status {result.returncode}, finish_reason {result.stats.get('finish_reason')}")
    if "Traceback" in result.log:
        found.append("a traceback in the log")
    if outcome.peak_rss_mb >= MAX_RSS_MB:
        found.append(f"peak RSS {outcome.peak_rss_mb:.0f} MB >= {MAX_RSS_MB} MB")
    hosts = scenario.hosts or (None,)
    expected = [scenario.pages] + [scenario.other_pages] * (len(hosts) - 1)
    for host, pages in zip(hosts, expected, strict=True):
        stored = outcome.paths(host)
        if stored != pages and not (isinstance(pages, int) and len(stored) == pages):
            shown = sorted(stored) if len(stored) < 20 else f"{len(stored)} pages"
            found.append(f"stored {shown} of {host or 'the site'}, expected {pages}")
    for item in result.items:
        if urlsplit(item["url"]).path != "/" and scenario.phrase not in item["html"]:
            found.append(f"{item['url']}: {scenario.phrase!r} not in the stored HTML")
    for key, value in scenario.stats.items():
        if result.stats.get(key, 0) != value:
            found.append(f"stat {key} = {result.stats.get(key)}, expected {value}")
    for key, value in scenario.min_stats.items():
        if result.stats.get(key, 0) < value:
            found.append(f"stat {key} = {result.stats.get(key)}, expected at least {value}")
    for line, count in scenario.log.items():
        if result.log.count(line) != count:
            found.append(f"log has {result.log.count(line)} x {line!r}, expected {count}")
    if any(hit.authorization for hit in outcome.hits):
        found.append("credentials were sent (Authorization header)")
    return found


def measured_crawl(
    url: str | None,
    tmp: Path,
    settings: Iterable[str],
    proxy: str | None,
    spider: str = "parish",
    args: Iterable[str] = (),
) -> tuple[CrawlResult | None, float, float]:
    """run_crawl in a fresh child process: (result, or None on timeout; seconds; the crawl's peak RSS, MB)."""
    job = {
        "url": url,
        "tmp": str(tmp),
        "settings": list(settings),
        "proxy": proxy,
        "spider": spider,
        "args": list(args),
    }
    done = subprocess.run(
        [sys.executable, __file__, "--measure", json.dumps(job)],
        capture_output=True,
        text=True,
        timeout=CRAWL_TIMEOUT + 30,
        check=True,
    )
    report = json.loads(done.stdout)
    result = report["result"]
    if result is not None:
        result = CrawlResult(**{**result, "pages_dir": Path(result["pages_dir"])})
    return result, report["seconds"], report["peak_rss_kb"] / 1024


def run_scenario(scenario: Scenario, tmp: Path) -> Outcome:
    """Serve the scenario, crawl it (measured), return what was stored, counted and measured."""
    with HostileServer(scenario.routes) as server:
        proxy = None if scenario.direct else server.proxy
        if scenario.hosts:
            urls = tmp / "urls.txt"
            urls.write_text("".join(f"http://{host}/\n" for host in scenario.hosts), encoding="utf-8")
            crawl = measured_crawl(
                None, tmp, scenario.settings, proxy, spider="parishes", args=("-a", f"urls={urls}")
            )
        else:
            url = f"http://127.0.0.1:{server.port}/" if scenario.direct else f"http://{scenario.name}.test/"
            crawl = measured_crawl(url, tmp, scenario.settings, proxy)
        return Outcome(scenario, *crawl, list(server.hits))


def _measure(job: dict[str, Any]) -> None:
    """The child process: one run_crawl, then its wall time and the crawl's peak RSS as JSON on stdout."""
    started = time.monotonic()
    try:
        result: CrawlResult | None = run_crawl(
            job["url"],
            Path(job["tmp"]),
            *job["settings"],
            proxy=job["proxy"],
            spider=job["spider"],
            args=tuple(job["args"]),
            timeout=CRAWL_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        result = None
    seconds = time.monotonic() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # kB on Linux
    data = None if result is None else {**asdict(result), "pages_dir": str(result.pages_dir)}
    json.dump({"result": data, "seconds": seconds, "peak_rss_kb": peak}, sys.stdout)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--measure":
        _measure(json.loads(sys.argv[2]))
    else:
        sys.exit("usage: python tests/hostile.py --measure JOB_JSON (scripts/hostile_report.py runs it)")
