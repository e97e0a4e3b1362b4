"""Shared fixtures: the fixture web (tests/sites on 127.0.0.1:0) and `run_crawl`, a `scrapy crawl` subprocess.

    from conftest import run_crawl

    def test_x(fixture_web, tmp_path):
        result = run_crawl("http://swwojciech.test/", tmp_path, "DEPTH_LIMIT=1", proxy=fixture_web.proxy)
        assert result.returncode == 0 and result.stats["msze/parish/pages"] == ...

Crawls run as subprocesses because Twisted's reactor cannot restart inside one pytest process.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # `pytest` (not only `python -m pytest`) can import msze
    sys.path.insert(0, str(REPO))
from webserver import (  # noqa: E402 (after the sys.path line above)
    WEB_ROOT,
    Encoded,
    FixtureWeb,
    Flaky,
    HugeVideo,
    calendar,
    close_connection,
    gallery,
    redirect,
    slow,
    status,
)

from msze.settings import PLAYWRIGHT_LAUNCH_OPTIONS  # noqa: E402 (after the sys.path line above)

# Settings that make a fixture crawl fast: no politeness delay on localhost, short timeouts, quick retries.
FAST_SETTINGS = (
    "AUTOTHROTTLE_START_DELAY=0",
    "AUTOTHROTTLE_MAX_DELAY=1",
    "DOWNLOAD_TIMEOUT=5",
    "TELNETCONSOLE_ENABLED=False",
    "LOG_LEVEL=INFO",
    "BACKOFF_MAX_WAIT=0.2",
    "RETRY_TIMES=1",
)


def install_special_routes(web: FixtureWeb) -> FixtureWeb:
    """The special routes of the fixture sites (tests/sites/README.md lists them)."""
    a, b = "swwojciech.test", "mbcz-debina.test"
    a_root, b_root = WEB_ROOT / a, WEB_ROOT / b
    for host in (a, f"www.{a}"):
        web.route(host, "/historia.html", Encoded(a_root / "historia.src.html", "windows-1250"))
        web.route(host, "/intencje.html", Flaky(a_root / "intencje.html", failures=2, retry_after="1"))
        web.route(host, "/film/rekolekcje.html", HugeVideo())
        web.route(host, "/kalendarz.php", calendar("/kalendarz.php"))
        web.route(host, "/galeria.php", gallery("/galeria.php", photos=12))
        web.route(host, "/blad.php", status(500))
        web.route(host, "/wolno.html", slow(3.0))
        web.route(host, "/zerwane.html", close_connection)
        web.route(host, "/petla.html", redirect("/petla2.html", 302))
        web.route(host, "/petla2.html", redirect("/petla.html", 302))
    for host in (b, f"www.{b}"):
        web.route(host, "/historia.html", Encoded(b_root / "historia.src.html", "iso-8859-2"))
        web.route(host, "/ogloszenia.html", Flaky(b_root / "ogloszenia.html", failures=1, status=429))
    web.route("parafia-debina.test", "/", redirect(f"http://www.{b}/"))
    # A parish "website" that is a Facebook page: the start URL redirects to a blacklisted domain.
    web.route("parafia-debina.test", "/fb", redirect("http://www.facebook.com/parafia.debina"))
    web.route("www.facebook.com", "/parafia.debina", status(200, b"<html><body>Facebook</body></html>"))
    return web


def make_fixture_web() -> FixtureWeb:
    """A started fixture web with the special routes; stop() it when done."""
    return install_special_routes(FixtureWeb(default_host="swwojciech.test")).start()


@pytest.fixture(scope="module")
def fixture_web() -> Iterator[FixtureWeb]:
    web = make_fixture_web()
    yield web
    web.stop()


@dataclass
class CrawlResult:
    items: list[dict[str, Any]]
    stats: dict[str, Any]
    returncode: int
    log: str
    pages_dir: Path = field(default_factory=Path)

    def urls(self) -> set[str]:
        return {item["url"] for item in self.items}

    def item(self, url: str) -> dict[str, Any]:
        matches = [item for item in self.items if item["url"] == url]
        assert len(matches) == 1, f"{url}: {len(matches)} items"
        return matches[0]


def project_crawler(spider: type[Any] | None = None, **settings: Any) -> Any:
    """A crawler (scrapy.utils.test.get_crawler) with msze/settings.py plus `settings`, its stats open: the
    components read their defaults from the project settings only, as in a real crawl."""
    from scrapy.utils.test import get_crawler

    from msze import settings as project

    values = {name: getattr(project, name) for name in dir(project) if name.isupper()}
    values.pop("TWISTED_REACTOR")  # unit tests run without a reactor
    crawler = get_crawler(spider, {**values, **settings})
    crawler.stats.open_spider()
    return crawler


def proxy_env(proxy: str | None) -> dict[str, str]:
    """os.environ without the proxy variables, plus http_proxy=`proxy` when given (the fixture web)."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "no_proxy")}
    if proxy:
        env["http_proxy"] = proxy
    return env


def run_crawl(
    url: str | None,
    tmp_path: Path,
    *settings: str,
    proxy: str | None = None,
    spider: str = "parish",
    args: tuple[str, ...] = (),
    timeout: float = 120,
) -> CrawlResult:
    """Run `scrapy crawl <spider> -a url=URL` (no `-a url` when url is None: spiders with other arguments
    take them in `args`) with FAST_SETTINGS + `settings` ("NAME=VALUE"); collect the JSONL pages written
    under tmp_path/pages, the stats (STATS_FILE) and the log (stderr)."""
    pages_dir = tmp_path / "pages"
    stats_file = tmp_path / "stats.json"
    command = [sys.executable, "-m", "scrapy", "crawl", spider]
    if url is not None:
        command += ["-a", f"url={url}"]
    for setting in (*FAST_SETTINGS, f"PAGES_DIR={pages_dir}", f"STATS_FILE={stats_file}", *settings):
        command += ["-s", setting]
    command += list(args)
    done = subprocess.run(
        command, cwd=REPO, env=proxy_env(proxy), capture_output=True, text=True, timeout=timeout
    )
    items = []
    for file in sorted(pages_dir.glob("*.jsonl")) if pages_dir.is_dir() else []:
        items += [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.is_file() else {}
    return CrawlResult(items, stats, done.returncode, done.stderr + done.stdout, pages_dir)


# --- OCR tests: Debian's Tesseract with its Polish data ---


@pytest.fixture
def tesseract() -> None:
    require_tesseract()


def require_tesseract() -> None:
    """Fails (never skips) with what to install when Tesseract, its Polish data or poppler's pdftoppm (scanned
    PDFs) is missing."""
    import pytesseract

    install = "apt-get install tesseract-ocr tesseract-ocr-pol poppler-utils (scripts/setup.sh does as root)"
    try:
        langs = pytesseract.get_languages()
    except pytesseract.TesseractNotFoundError:
        pytest.fail(f"tesseract is missing: {install}", pytrace=False)
    if "pol" not in langs:
        pytest.fail(f"Tesseract's Polish data is missing: {install}", pytrace=False)
    if shutil.which("pdftoppm") is None:
        pytest.fail(f"pdftoppm is missing: {install}", pytrace=False)


# --- Real-browser tests (tests/browser): Debian's chromium driven by Playwright, never downloaded ---

# The crawl's own launch options (msze.settings): one path and one set of flags for the crawl and the tests.
CHROMIUM = PLAYWRIGHT_LAUNCH_OPTIONS["executable_path"]
CHROMIUM_ARGS = PLAYWRIGHT_LAUNCH_OPTIONS["args"]
ARTIFACTS = REPO / "test-artifacts"  # screenshots, kept after the run


def require_chromium(path: str = CHROMIUM) -> None:
    """Fails (never skips) with what to install when Debian's chromium is missing."""
    if not os.access(path, os.X_OK):
        install = "apt-get install chromium (scripts/setup.sh does as root)"
        pytest.fail(f"{path} is missing: {install}", pytrace=False)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/browser is marked `browser` (`-m "not browser"` runs without chromium)."""
    browser_dir = Path(__file__).parent / "browser"
    for item in items:
        if browser_dir in Path(item.fspath).parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
def browser():
    """A headless chromium (Debian's, never a downloaded one); fails with the reason when it is missing."""
    require_chromium()
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
