"""A real web server for the crawl tests: Debian's nginx on 127.0.0.1, compressing as parish hosting does.

    with Nginx({"swwojciech.test": docroot}) as web:   # gzip; Nginx(..., brotli=True) answers br
        result = run_crawl("http://swwojciech.test/", tmp_path, proxy=web.proxy)
        web.log()  # what nginx sent: status, Content-Encoding, Transfer-Encoding, ETag, ... per request

The config is generated in a temp dir (pid, logs and temp files there too): gzip (and the brotli filter module
when asked) for text types, ETag and Last-Modified, keep-alive, chunked bodies, one `server` per site with its
`www.` alias. Crawls reach it as an HTTP proxy like the fixture web: nginx takes the absolute-form request
line (`GET http://swwojciech.test/ HTTP/1.1`) and picks the server by that host.

Real parish URLs have no `.html`: `write_pretty_site` copies a fixture site (tests/sites) to WordPress- and
Joomla-style URLs (`/msze-swiete/`, `/?page_id=12`, `/index.php/ogloszenia`), rewriting its links, and the
generated `location` rules serve them as those CMSs' permalinks look. Missing nginx fails the test (not a
skip): scripts/setup.sh installs it.
"""

from __future__ import annotations

import html
import http.client
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urljoin, urlsplit, urlunsplit

import pytest

NGINX = Path("/usr/sbin/nginx")
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_filter_module.so")
INSTALL_HINT = "scripts/setup.sh installs it (Debian: apt-get install nginx libnginx-mod-http-brotli-filter)"
TEXT_TYPES = "text/plain text/css text/xml application/javascript application/json"  # text/html is implied
LOG_FIELDS = (
    "host",
    "uri",
    "status",
    "content_type",
    "content_encoding",
    "transfer_encoding",
    "etag",
    "last_modified",
    "connection",
    "connection_requests",
)
_LOG_VARIABLES = (
    "$host $request_uri $status $sent_http_content_type $sent_http_content_encoding "
    "$sent_http_transfer_encoding $sent_http_etag $sent_http_last_modified $connection $connection_requests"
)


def require_nginx(binary: Path = NGINX, module: Path = BROTLI_MODULE) -> None:
    """Fail (never skip) with one clear line when nginx or its brotli module is missing."""
    for path in (binary, module):
        if not path.exists():
            pytest.fail(f"{path} is missing: the nginx test tier needs it; {INSTALL_HINT}", pytrace=False)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass(frozen=True)
class LogLine:
    """One request as nginx's access log saw it ("" for a header nginx did not send)."""

    host: str
    uri: str
    status: int
    content_type: str
    content_encoding: str
    transfer_encoding: str
    etag: str
    last_modified: str
    connection: str
    connection_requests: int

    @property
    def url(self) -> str:
        return f"http://{self.host}{self.uri}"


@dataclass
class Nginx:
    """nginx serving `sites` (host -> document root); start()/stop() or a `with` block."""

    sites: dict[str, Path]
    brotli: bool = False  # True: the brotli filter answers clients that accept br (gzip stays for the others)
    binary: Path = NGINX
    dir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="msze-nginx-")))
    port: int = 0
    _process: subprocess.Popen[bytes] | None = None

    def config(self) -> str:
        """The nginx.conf for `sites` on 127.0.0.1:`port`, everything it writes under `dir`."""
        d = self.dir
        brotli = f"brotli on; brotli_min_length 1; brotli_types {TEXT_TYPES};" if self.brotli else ""
        servers = "\n".join(_server_block(host, root, self.port) for host, root in self.sites.items())
        user = "user root;" if os.geteuid() == 0 else ""  # workers must read pytest's root-only temp dirs
        return f"""
{user}
load_module {BROTLI_MODULE};
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log info;
events {{ worker_connections 64; }}
http {{
    types {{ text/html html htm; text/plain txt; application/pdf pdf; image/jpeg jpg; }}
    default_type application/octet-stream;
    log_format msze escape=none '{_LOG_VARIABLES.replace(" ", chr(9))}';
    access_log {d}/access.log msze;
    client_body_temp_path {d}/body; proxy_temp_path {d}/proxy; fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi; scgi_temp_path {d}/scgi;
    sendfile on;
    keepalive_timeout 30s; keepalive_requests 1000;
    chunked_transfer_encoding on;
    etag on;
    absolute_redirect off;
    gzip on; gzip_min_length 1; gzip_proxied any; gzip_vary on; gzip_types {TEXT_TYPES};
    {brotli}
    # WordPress ?page_id=N and Joomla ?option=com_content&view=article&id=N (digits only, else the front page)
    map $arg_page_id $wp_page {{ ~^[0-9]+$ /wp-pages/page_id-$arg_page_id.html; default /index.html; }}
    map $arg_id $joomla_article {{ ~^[0-9]+$ /joomla/article-$arg_id.html; default /joomla/404; }}
    server {{
        listen 127.0.0.1:{self.port} default_server;
        default_type text/plain;
        return 502 "unknown host\\n";
    }}
{servers}
}}
"""

    # --- lifecycle --------------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> Nginx:
        """Write the config and start nginx on a free port; returns once it answers HTTP."""
        require_nginx(self.binary)
        errors = ""
        for _attempt in range(3):  # another process may take the free port before nginx binds it
            self.port = _free_port()
            conf = self.dir / "nginx.conf"
            conf.write_text(self.config(), encoding="utf-8")
            command = [str(self.binary), "-p", f"{self.dir}/", "-e", str(self.dir / "error.log")]
            with open(self.dir / "stderr.log", "wb") as stderr:
                self._process = subprocess.Popen(
                    [*command, "-c", str(conf), "-g", "daemon off;"], stdout=subprocess.DEVNULL, stderr=stderr
                )
            if self._wait_until_answering(timeout):
                return self
            errors = self.errors()
            self._terminate()
            if "Address already in use" not in errors:
                break
        self.stop()
        raise RuntimeError(f"nginx did not start: {errors[-2000:]}")

    def _wait_until_answering(self, timeout: float) -> bool:
        assert self._process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._process.poll() is None:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
                connection.request("GET", "/")
                connection.getresponse().read()
                connection.close()
                return True
            except OSError:
                time.sleep(0.05)
        return False

    def _terminate(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

    def stop(self) -> None:
        """Stop nginx and remove its temp dir (config, logs, pid)."""
        self._terminate()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Nginx:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- what it did --------------------------------------------------------------------------------
    @property
    def proxy(self) -> str:
        """The value for http_proxy: crawls reach every site through it."""
        return f"http://127.0.0.1:{self.port}"

    def errors(self) -> str:
        return "".join(
            (self.dir / name).read_text(errors="replace")
            for name in ("stderr.log", "error.log")
            if (self.dir / name).is_file()
        )

    def log(self, host: str | None = None) -> list[LogLine]:
        """The access log so far, optionally for one host (with or without its www.)."""
        file = self.dir / "access.log"
        lines = file.read_text(encoding="utf-8").splitlines() if file.is_file() else []
        entries = [_log_line(line) for line in lines if line.strip()]
        if host is None:
            return entries
        return [e for e in entries if e.host.removeprefix("www.") == host.removeprefix("www.")]


def _log_line(line: str) -> LogLine:
    values = dict(zip(LOG_FIELDS, (v if v != "-" else "" for v in line.split("\t")), strict=True))
    numbers = {name: int(values[name]) for name in ("status", "connection_requests")}
    return LogLine(**{**values, **numbers})


def _server_block(host: str, root: Path, port: int) -> str:
    """One site: static files, WordPress permalinks (/slug/ directories, ?page_id=N) and Joomla SEF URLs."""
    return f"""
    server {{
        listen 127.0.0.1:{port};
        server_name {host} www.{host};
        root {root};
        index index.html;
        location = / {{ try_files $wp_page /index.html; }}
        location = /index.php {{ try_files $joomla_article =404; }}
        location ^~ /index.php/ {{ rewrite ^/index\\.php/([a-z0-9-]+)$ /joomla/$1.html break; }}
        location ^~ /wp-pages/ {{ internal; }}
        location ^~ /joomla/ {{ internal; }}
        location / {{ try_files $uri $uri/ =404; }}
    }}"""


# --- the pretty-URL copy of the fixture sites ----------------------------------------------------------


@dataclass(frozen=True)
class PrettyPage:
    """A fixture page (`plain` path, as tests/web serves it) under a CMS-style URL (`pretty`)."""

    plain: str
    pretty: str
    source: str = ""  # file under tests/sites/<host>/ when not the plain path's own ("historia.src.html")
    encoding: str = "utf-8"  # bytes as served (the fixture web's special routes re-encode some sources)


# swwojciech.test as WordPress (permalinks, one page by ?page_id=), mbcz-debina.test as Joomla. Only the
# plain static pages: the fixture web's special routes (flaky, slow, traps) have no copy, their links 404.
PRETTY_SITES: dict[str, tuple[PrettyPage, ...]] = {
    "swwojciech.test": (
        PrettyPage("/", "/", "index.html"),
        PrettyPage("/index.html", "/index.html"),
        PrettyPage("/msze.html", "/msze-swiete/"),
        PrettyPage("/ogloszenia/", "/ogloszenia-duszpasterskie/", "ogloszenia/index.html"),
        PrettyPage("/aktualnosci/", "/aktualnosci/", "aktualnosci/index.html"),
        PrettyPage("/aktualnosci/odpust-2026.html", "/aktualnosci/odpust-2026/"),
        PrettyPage("/aktualnosci/archiwum.html", "/aktualnosci/archiwum/"),
        PrettyPage("/aktualnosci/archiwum-2019.html", "/aktualnosci/archiwum-2019/"),
        PrettyPage("/intencje.html", "/intencje-mszalne/"),
        PrettyPage("/historia.html", "/historia-parafii/", "historia.src.html", "windows-1250"),
        PrettyPage("/kontakt.html", "/?page_id=12"),
        PrettyPage("/robots.txt", "/robots.txt"),
    ),
    "mbcz-debina.test": (
        PrettyPage("/", "/", "index.html"),
        PrettyPage("/nabozenstwa.html", "/index.php/nabozenstwa"),
        PrettyPage("/ogloszenia.html", "/index.php/ogloszenia"),
        PrettyPage(
            "/historia.html",
            "/index.php?option=com_content&view=article&id=7&Itemid=3",
            "historia.src.html",
            "iso-8859-2",
        ),
    ),
}


def docroot_file(pretty: str) -> str:
    """Where the nginx rules of `_server_block` find the page of a pretty URL (relative to the root)."""
    parts = urlsplit(pretty)
    page_id = re.fullmatch(r"page_id=(\d+)", parts.query)
    article = re.search(r"(?:^|&)id=(\d+)(?:&|$)", parts.query)
    if parts.path == "/" and page_id:
        return f"wp-pages/page_id-{page_id.group(1)}.html"
    if parts.path == "/index.php" and article:
        return f"joomla/article-{article.group(1)}.html"
    if parts.path.startswith("/index.php/"):
        return f"joomla/{parts.path.removeprefix('/index.php/')}.html"
    assert not parts.query, f"no rule serves {pretty}"
    return parts.path.lstrip("/") + ("index.html" if parts.path.endswith("/") else "")


def pretty_url(url: str, pages: tuple[PrettyPage, ...] = ()) -> str:
    """The pretty URL of a plain fixture URL (query and fragment kept); other URLs as they are."""
    parts = urlsplit(url)
    site = (parts.hostname or "").removeprefix("www.")
    mapping = {page.plain: page.pretty for page in pages or PRETTY_SITES.get(site, ())}
    if parts.path not in mapping:
        return url
    target = urlsplit(mapping[parts.path])
    query = "&".join(q for q in (target.query, parts.query) if q)
    return urlunsplit((parts.scheme, parts.netloc, target.path, query, parts.fragment))


_LINK_RE = re.compile(r'\b(href|src)="([^"]*)"')


def rewrite_links(page_html: str, page_url: str, pages: tuple[PrettyPage, ...]) -> str:
    """The page with its same-site links pointing at the pretty URLs (relative links resolved first)."""
    site = (urlsplit(page_url).hostname or "").removeprefix("www.")

    def replace(match: re.Match[str]) -> str:
        target = urljoin(page_url, html.unescape(match.group(2)))
        parts = urlsplit(target)
        if (parts.hostname or "").removeprefix("www.") != site or pretty_url(target, pages) == target:
            return match.group(0)
        new = urlsplit(pretty_url(target, pages))
        relative = urlunsplit(("", "", new.path, new.query, new.fragment))
        absolute = bool(urlsplit(match.group(2)).scheme)
        return f'{match.group(1)}="{html.escape(new.geturl() if absolute else relative)}"'

    return _LINK_RE.sub(replace, page_html)


def write_pretty_site(source: Path, dest: Path, pages: tuple[PrettyPage, ...]) -> Path:
    """Copy the fixture site `source` (tests/sites/<host>) to the docroot `dest` under its pretty URLs."""
    host = source.name
    for page in pages:
        file = source / (page.source or page.plain.lstrip("/"))
        text = rewrite_links(file.read_text(encoding="utf-8"), f"http://{host}{page.plain}", pages)
        out = dest / docroot_file(page.pretty)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(text.encode(page.encoding))
    return dest
