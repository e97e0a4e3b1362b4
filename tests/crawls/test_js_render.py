"""Pages built by JavaScript, end to end: a 127.0.0.1 site whose schedule page only a script writes, crawled
with `scrapy crawl parish`; the browser (Debian's chromium) renders that page and no other."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import require_chromium, run_crawl

PAGES = {
    "/": '<html><body><h1>Parafia</h1><p>Witamy na stronie parafii.</p><a href="/msze.html">Msze</a>'
    '<a href="/kontakt.html">Kontakt</a></body></html>',
    "/kontakt.html": "<html><body><p>Kancelaria parafialna: ul. Kościelna 1.</p>"
    '<a href="/">Start</a></body></html>',
    # the schedule is written into the DOM by a script: the plain HTTP body has no text at all
    "/msze.html": '<html><head><title>Msze</title></head><body><div id="root"></div><script>'
    'document.getElementById("root").innerHTML = "<h2>Msze święte</h2>'
    '<p>Niedziele: 8.00, 10.00, 12.00</p><p>Dni powszednie: 18.00</p>";</script></body></html>',
}


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        body = PAGES.get(self.path.split("?")[0])
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        data = (body or "nie ma").encode("utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def js_site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()
    server.server_close()


def test_the_script_written_schedule_is_read_from_the_browser(js_site, tmp_path):
    require_chromium()
    result = run_crawl(js_site, tmp_path, "ROBOTSTXT_OBEY=False", "CLASSIFIER_ENABLED=False")
    assert result.returncode == 0, result.log[-3000:]
    schedule = result.item(js_site + "msze.html")
    assert "Niedziele: 8.00, 10.00" in schedule["text"]
    assert {"08:00", "10:00", "12:00", "18:00"} <= {hour["time"] for hour in schedule["hours"]}
    assert result.urls() == {js_site, js_site + "msze.html", js_site + "kontakt.html"}
    stats = result.stats
    assert stats["msze/js/shells"] == 1 and stats["msze/js/shells/app_root"] == 1
    assert stats["msze/js/rendered"] == 1
    # only the shell went through the browser: one navigation, one browser page
    assert stats["playwright/request_count/navigation"] == 1
    assert stats["playwright/page_count"] == 1
    assert "msze/js/render_failed" not in stats


def test_without_the_browser_the_crawl_goes_on(js_site, tmp_path):
    missing = '{"executable_path": "/nonexistent/chromium", "headless": true}'
    result = run_crawl(js_site, tmp_path, "ROBOTSTXT_OBEY=False", f"PLAYWRIGHT_LAUNCH_OPTIONS={missing}")
    assert result.returncode == 0, result.log[-3000:]
    assert "No browser at /nonexistent/chromium" in result.log
    assert result.stats["msze/js/no_browser"] == 1
    assert result.stats["msze/js/shells"] == 1
    assert "msze/js/rendered" not in result.stats
    assert not any(key.startswith("playwright/") for key in result.stats)
    # the shell is still a page (without text), and the other pages are there
    assert result.urls() == {js_site, js_site + "msze.html", js_site + "kontakt.html"}


def test_the_budget_stops_rendering(js_site, tmp_path):
    result = run_crawl(js_site, tmp_path, "ROBOTSTXT_OBEY=False", "JS_RENDER_MAX_PER_SITE=0")
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["msze/js/shells"] == 1
    assert "msze/js/rendered" not in result.stats and "msze/js/no_browser" not in result.stats
    assert "Niedziele" not in result.item(js_site + "msze.html")["text"]


def test_a_failed_rendering_keeps_the_shell(js_site, tmp_path):
    require_chromium()  # without it nothing is rendered, so nothing can fail
    # 1 ms: the browser cannot load the page in time
    result = run_crawl(js_site, tmp_path, "ROBOTSTXT_OBEY=False", "JS_RENDER_TIMEOUT=0.001")
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["msze/js/render_failed"] == 1
    assert "msze/js/rendered" not in result.stats
    assert "Rendering " + js_site + "msze.html failed" in result.log
    assert result.urls() == {js_site, js_site + "msze.html", js_site + "kontakt.html"}
