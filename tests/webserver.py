"""The fixture web: parish sites from tests/sites/<host>/ served on 127.0.0.1:0, plus special routes.

One threaded server answers for every site by host name. Crawls reach it as an HTTP proxy
(`http_proxy=http://127.0.0.1:PORT`), so each fixture site has its own domain (`swwojciech.test`, ...), as
real parish sites do; a plain `http://127.0.0.1:PORT/` request gets the default site. Every request is
recorded (`FixtureWeb.requests`) so tests can assert exactly which URLs a crawl fetched.

Special routes (`FixtureWeb.route(host, path, handler)`) cover what real parish servers do: 503 twice then 200
with Retry-After, redirect loops, slow answers, closed connections, a huge video served as text/html (counting
the bytes actually sent), pages in windows-1250 / ISO-8859-2 without a charset header, calendars without end.
"""

from __future__ import annotations

import contextlib
import gzip
import mimetypes
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import brotli
from backports import zstd

WEB_ROOT = Path(__file__).parent / "sites"

Handler = Callable[["RequestHandler", str], None]  # (handler, query) -> writes the whole response


@dataclass
class Hit:
    host: str
    path: str  # path with query
    time: float
    user_agent: str

    @property
    def url(self) -> str:
        return f"http://{self.host}{self.path}"


class RequestHandler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        web = self.server.web
        parts = urlsplit(self.path)
        if parts.scheme:  # proxy form: GET http://host/path HTTP/1.1
            host = (parts.hostname or "").lower()
        else:
            host = (self.headers.get("Host") or "").split(":")[0].lower()
        if host in ("127.0.0.1", "localhost", ""):
            host = web.default_host
        path = parts.path or "/"
        target = path + (f"?{parts.query}" if parts.query else "")
        web.record(Hit(host, target, time.monotonic(), self.headers.get("User-Agent", "")))
        handler = web.routes.get((host, path))
        site = web.sites.get(host.removeprefix("www."))
        if handler is not None:
            handler(self, parts.query)
        elif site is not None:
            self.serve_file(site, path)
        else:  # a host outside the fixture web: never reached by a well-behaved crawl
            self.send_body(b"unknown host", "text/plain", status=502)

    # --- response helpers for routes --------------------------------------------------------------
    def send_body(
        self, body: bytes, content_type: str = "text/html", status: int = 200, **headers: str
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def redirect(self, location: str, status: int = 301) -> None:
        self.send_body(b"", status=status, Location=location)

    def serve_file(self, root: Path, path: str) -> None:
        file = (root / path.lstrip("/")).resolve()
        if file.is_dir():
            file = file / "index.html"
        if not file.is_relative_to(root.resolve()) or not file.is_file():
            self.send_body(b"<html><body><h1>404 Nie znaleziono strony</h1></body></html>", status=404)
            return
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        self.send_body(file.read_bytes(), content_type)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    web: FixtureWeb


@dataclass
class FixtureWeb:
    """The fixture sites on one 127.0.0.1:0 server; use as a context manager or call start()/stop()."""

    root: Path = WEB_ROOT
    default_host: str = ""
    sites: dict[str, Path] = field(default_factory=dict)
    routes: dict[tuple[str, str], Handler] = field(default_factory=dict)
    requests: list[Hit] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: _Server | None = None

    def __post_init__(self) -> None:
        for folder in sorted(self.root.iterdir()):
            if folder.is_dir():
                self.sites[folder.name] = folder
        self.default_host = self.default_host or next(iter(self.sites), "")

    # --- lifecycle --------------------------------------------------------------------------------
    def start(self) -> FixtureWeb:
        self._server = _Server(("127.0.0.1", 0), RequestHandler)
        self._server.web = self
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def __enter__(self) -> FixtureWeb:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None
        return self._server.server_address[1]

    @property
    def proxy(self) -> str:
        """The value for http_proxy: crawls reach every fixture site through it."""
        return f"http://127.0.0.1:{self.port}"

    def url(self, host: str, path: str = "/") -> str:
        return f"http://{host}{path}"

    # --- requests log -----------------------------------------------------------------------------
    def record(self, hit: Hit) -> None:
        with self._lock:
            self.requests.append(hit)

    def fetched(self, host: str | None = None) -> list[str]:
        """URLs requested so far (http://host/path?query), in order."""
        with self._lock:
            return [h.url for h in self.requests if host is None or h.host == host]

    def hits(self, host: str, path: str) -> list[Hit]:
        with self._lock:
            return [h for h in self.requests if h.host == host and h.path == path]

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()

    def route(self, host: str, path: str, handler: Handler) -> None:
        self.routes[(host, path)] = handler


# --- special routes ------------------------------------------------------------------------------


@dataclass
class Flaky:
    """Answers `status` (503) `failures` times with Retry-After, then serves the page from `file`."""

    file: Path
    failures: int = 2
    status: int = 503
    retry_after: str | None = "1"
    calls: int = 0

    def __call__(self, handler: RequestHandler, query: str) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            headers = {"Retry_After": self.retry_after} if self.retry_after is not None else {}
            handler.send_body(b"<html><body>Serwer przeciazony</body></html>", status=self.status, **headers)
        else:
            handler.send_body(self.file.read_bytes(), "text/html; charset=utf-8")


@dataclass
class Encoded:
    """Serves a UTF-8 source file re-encoded (windows-1250, iso-8859-2) as plain `text/html`, no charset."""

    file: Path
    encoding: str

    def __call__(self, handler: RequestHandler, query: str) -> None:
        handler.send_body(self.file.read_text(encoding="utf-8").encode(self.encoding), "text/html")


@dataclass
class HugeVideo:
    """A video (NUL bytes, binary data) served as text/html in chunks; `bytes_sent` left the server."""

    size: int = 50 * 1024 * 1024
    chunk: int = 64 * 1024
    bytes_sent: int = 0
    finished: bool = False

    def __call__(self, handler: RequestHandler, query: str) -> None:
        # No Content-Length (the body ends when the connection closes), as streaming servers do: the client
        # cannot refuse it up front by size (DOWNLOAD_MAXSIZE), only by looking at the first bytes.
        handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", "text/html")
        handler.send_header("Connection", "close")
        handler.end_headers()
        block = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00" + bytes(range(256)) * (self.chunk // 256)
        block = block[: self.chunk]
        try:
            while self.bytes_sent < self.size:
                piece = block[: self.size - self.bytes_sent]
                handler.wfile.write(piece)
                handler.wfile.flush()
                self.bytes_sent += len(piece)
                time.sleep(0.002)  # a real server's pace; lets the client's early stop arrive
            self.finished = True
        except (BrokenPipeError, ConnectionResetError, OSError):
            handler.close_connection = True


_COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": gzip.compress,
    "br": brotli.compress,
    "zstd": zstd.compress,
}


@dataclass
class Compressed:
    """Serves a file with Content-Encoding `encoding` (gzip, br, zstd) when the request's Accept-Encoding
    lists it, as compressing servers do (else uncompressed); `compressed` counts the compressed answers.
    The type has no charset (as nginx sends it), so the page's own meta tag or the charset guess decides."""

    file: Path
    encoding: str
    content_type: str = "text/html"
    compressed: int = 0

    def __call__(self, handler: RequestHandler, query: str) -> None:
        body = self.file.read_bytes()
        header = handler.headers.get("Accept-Encoding", "")
        accepted = {token.split(";")[0].strip().lower() for token in header.split(",")}
        if self.encoding not in accepted:
            handler.send_body(body, self.content_type, Vary="Accept-Encoding")
            return
        self.compressed += 1
        body = _COMPRESSORS[self.encoding](body)
        handler.send_body(body, self.content_type, Content_Encoding=self.encoding, Vary="Accept-Encoding")


def status(code: int, body: bytes = b"<html><body>Blad serwera</body></html>") -> Handler:
    def handle(handler: RequestHandler, query: str) -> None:
        handler.send_body(body, status=code)

    return handle


def redirect(location: str, code: int = 301) -> Handler:
    def handle(handler: RequestHandler, query: str) -> None:
        handler.redirect(location, code)

    return handle


def slow(seconds: float, body: bytes = b"<html><body>Wolna strona</body></html>") -> Handler:
    def handle(handler: RequestHandler, query: str) -> None:
        time.sleep(seconds)
        with contextlib.suppress(OSError):
            handler.send_body(body)

    return handle


def close_connection(handler: RequestHandler, query: str) -> None:
    """Read the request, then drop the connection without a byte of answer."""
    handler.close_connection = True
    with contextlib.suppress(OSError):
        handler.connection.shutdown(socket.SHUT_RDWR)


def calendar(base_path: str) -> Handler:
    """An event calendar: every day links to its neighbours and to 30 other days (an endless date space)."""

    def handle(handler: RequestHandler, query: str) -> None:
        day = (parse_qs(query).get("data") or ["2026-11-30"])[0]
        links = "".join(
            f'<li><a href="{base_path}?data=2026-12-{d:02d}">{d} grudnia</a></li>' for d in range(1, 31)
        )
        body = (
            '<html><head><meta charset="utf-8"><title>Kalendarz parafialny</title></head><body>'
            f"<h1>Wydarzenia {day}</h1><ul>{links}</ul>"
            f'<a href="{base_path}?miesiac=2027-01">Następny miesiąc</a></body></html>'
        )
        handler.send_body(body.encode("utf-8"), "text/html; charset=utf-8")

    return handle


def gallery(base_path: str, photos: int = 12) -> Handler:
    """A photo gallery whose pages differ only by a number in the query (?zdjecie=N)."""

    def handle(handler: RequestHandler, query: str) -> None:
        links = "".join(f'<a href="{base_path}?zdjecie={n}">Zdjęcie {n}</a> ' for n in range(1, photos + 1))
        body = f'<html><head><meta charset="utf-8"></head><body><h1>Galeria</h1>{links}</body></html>'
        handler.send_body(body.encode("utf-8"), "text/html; charset=utf-8")

    return handle
