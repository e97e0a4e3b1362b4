import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import project_crawler, run_crawl
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response

from msze.middlewares import NOT_MODIFIED_FLAG, ConditionalRequestMiddleware
from msze.recrawl.changes import page_state
from msze.recrawl.state import RecrawlState

START = (
    "<html><body><h1>Parafia pw. Świętej Rodziny</h1><p>Witamy na stronie naszej parafii.</p>"
    "<a href='/msze.html'>Msze święte</a></body></html>"
)
SCHEDULE = (
    "<html><body><h2>Porządek Mszy Świętych</h2><p>Niedziele i święta: 7.00, 9.00, 11.00, 18.00</p>"
    "<p>Dni powszednie: 7.00, 18.00</p><p>Kancelaria parafialna czynna we wtorki i czwartki po Mszy "
    "wieczornej. Serdecznie zapraszamy wszystkich parafian oraz gości.</p></body></html>"
)


def crawler_with(tmp_path, **settings):
    return project_crawler(**{"RECRAWL_STATE": str(tmp_path / "state.sqlite"), **settings})


def test_off_without_state():
    with pytest.raises(NotConfigured, match="RECRAWL_STATE"):
        ConditionalRequestMiddleware.from_crawler(project_crawler())


def test_validators_sent_and_304_answered_from_store(tmp_path):
    crawler = crawler_with(tmp_path)
    url = "http://parafia.test/msze.html"
    with RecrawlState(tmp_path / "state.sqlite") as state:
        state.put_page(
            url,
            page_state("x"),
            {"url": url, "html": SCHEDULE},
            etag='"v1"',
            last_modified="Mon, 01 Jan 2026 00:00:00 GMT",
        )
    mw = ConditionalRequestMiddleware.from_crawler(crawler)

    fresh = Request("http://parafia.test/nowa.html")
    assert mw.process_request(fresh) is None and b"If-None-Match" not in fresh.headers

    request = Request(url)
    mw.process_request(request)
    assert request.headers["If-None-Match"] == b'"v1"'
    assert request.headers["If-Modified-Since"] == b"Mon, 01 Jan 2026 00:00:00 GMT"

    answer = mw.process_response(request, Response(url, status=304, request=request))
    assert isinstance(answer, HtmlResponse) and answer.status == 200
    assert answer.text == SCHEDULE and NOT_MODIFIED_FLAG in answer.flags
    assert crawler.stats.get_value("msze/recrawl/conditional") == 1
    assert crawler.stats.get_value("msze/recrawl/not_modified") == 1

    # A 200 passes through; its new validators are kept for the pipeline.
    ok = HtmlResponse(url, body=b"<p>nowe</p>", headers={"ETag": '"v2"'}, request=request)
    assert mw.process_response(request, ok) is ok
    assert mw.shared.validators[url] == ('"v2"', None)


def test_304_without_stored_page_is_fetched_again(tmp_path):
    crawler = crawler_with(tmp_path)
    url = "http://parafia.test/"
    with RecrawlState(tmp_path / "state.sqlite") as state:
        state.put_page(url, page_state("x"), None, etag='"v1"')
    mw = ConditionalRequestMiddleware.from_crawler(crawler)
    request = Request(url)
    mw.process_request(request)
    retry = mw.process_response(request, Response(url, status=304, request=request))
    assert isinstance(retry, Request) and b"If-None-Match" not in retry.headers and retry.dont_filter
    assert mw.process_request(retry) is None and b"If-None-Match" not in retry.headers
    assert crawler.stats.get_value("msze/recrawl/not_modified_unstored") == 1


class EtagSite:
    """A parish site on 127.0.0.1 that honours If-None-Match, recording what it answered."""

    def __init__(self):
        self.pages = {"/": START, "/msze.html": SCHEDULE}
        self.answers = []
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                html = site.pages.get(self.path)
                if html is None:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    site.answers.append((self.path, 404))
                    return
                etag = f'"{hash(html) & 0xFFFFFFFF:x}"'
                if self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    site.answers.append((self.path, 304))
                    return
                body = html.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("ETag", etag)
                self.end_headers()
                self.wfile.write(body)
                site.answers.append((self.path, 200))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def crawl(site, tmp_path, run):
    """Crawl the site again against the one state file; (stats, pages by path)."""
    result = run_crawl(
        site.url,
        tmp_path / f"run{run}",
        f"RECRAWL_STATE={tmp_path / 'state.sqlite'}",
        "ROBOTSTXT_OBEY=False",
        "AUTOTHROTTLE_ENABLED=False",
    )
    assert result.returncode == 0, result.log[-3000:]
    pages = {page["url"].removeprefix(site.url.rstrip("/")): page for page in result.items}
    return result.stats, pages


def test_recrawl_end_to_end(tmp_path):
    site = EtagSite()
    try:
        stats, pages = crawl(site, tmp_path, 1)
        assert sorted(site.answers) == [("/", 200), ("/msze.html", 200)]
        assert {p["change"] for p in pages.values()} == {"new"}
        assert stats["msze/recrawl/parishes/new"] == 1

        site.answers.clear()
        stats, pages = crawl(site, tmp_path, 2)
        assert sorted(site.answers) == [("/", 304), ("/msze.html", 304)]
        assert stats["msze/recrawl/not_modified"] == 2
        assert {p["change"] for p in pages.values()} == {"not_modified"}
        assert stats["msze/recrawl/reused_hours"] == 2 and stats["msze/hours/not_modified"] == 2
        assert {"07:00", "18:00"} <= set(pages["/msze.html"]["masses"])
        assert "Porządek Mszy" in pages["/msze.html"]["html"]  # the stored page was re-used and stored again
        assert stats["msze/recrawl/parishes/unchanged"] == 1

        # The parish moves its evening Mass.
        site.pages["/msze.html"] = SCHEDULE.replace("18.00", "19.00")
        site.answers.clear()
        stats, pages = crawl(site, tmp_path, 3)
        assert sorted(site.answers) == [("/", 304), ("/msze.html", 200)]
        assert pages["/msze.html"]["change"] == "changed" and pages["/"]["change"] == "not_modified"
        with RecrawlState(tmp_path / "state.sqlite") as state:
            [change] = state.last_changes()
        assert change["status"] == "changed" and change["masses_changed"]
        assert "sunday 19:00" in change["added"] and "sunday 18:00" in change["removed"]
        assert stats["msze/recrawl/parishes/changed"] == 1

        # Its start page becomes a JavaScript shell: flagged, not trusted, the Mass times stand.
        site.pages["/"] = "<html><body><div id='app'></div><a href='/msze.html'>x</a></body></html>"
        site.answers.clear()
        stats, pages = crawl(site, tmp_path, 4)
        assert pages["/"]["change"] == "shrunk" and pages["/msze.html"]["change"] == "not_modified"
        with RecrawlState(tmp_path / "state.sqlite") as state:
            [change] = state.last_changes()
            assert state.get_page(site.url).state.text_length > 50  # the shell did not replace the reference
        assert change["status"] == "unchanged" and change["flagged_pages"] == [site.url]
        assert stats["msze/recrawl/pages/shrunk"] == 1
    finally:
        site.server.shutdown()
