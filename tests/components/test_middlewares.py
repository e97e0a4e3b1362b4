"""Downloader middlewares built with the project settings (conftest.project_crawler): binary sniffing,
exponential backoff (fake clock), the charset fallback and the random browser User-Agent."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any

import pytest
from conftest import project_crawler
from scrapy import Spider
from scrapy.exceptions import IgnoreRequest, NotConfigured, StopDownload
from scrapy.http import Headers, HtmlResponse, Request, Response
from twisted.internet.error import TCPTimedOutError

from msze import middlewares
from msze.middlewares import (
    BinarySniffMiddleware,
    BrowserUserAgentMiddleware,
    CharsetFallbackMiddleware,
    ExponentialBackoffMiddleware,
    browser_agents,
    user_agent_of,
)
from msze.spiders.deon import DeonSpider
from msze.spiders.places import PlacesSpider

URL = "http://parafia.test/msze.html"
VIDEO = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00" + bytes(range(256)) * 8
PAGE = "<html><body>Porządek Mszy świętych: niedziele 7:00, 9:00</body></html>"


def crawler_with(spidercls: type[Spider] = Spider, **settings: Any) -> Any:
    crawler = project_crawler(spidercls, **settings)
    crawler.spider = spidercls.from_crawler(crawler, "t")
    return crawler


def stat(crawler: Any, key: str) -> Any:
    return crawler.stats.get_value(key)


# --- BinarySniffMiddleware ----------------------------------------------------------------------------------
def sniffer() -> tuple[Any, BinarySniffMiddleware]:
    crawler = crawler_with()
    return crawler, BinarySniffMiddleware.from_crawler(crawler)


def test_binary_body_under_text_html_is_dropped() -> None:
    crawler, mw = sniffer()
    request = Request(URL)
    response = HtmlResponse(URL, body=VIDEO, headers={"Content-Type": "text/html"}, request=request)
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, response)
    assert stat(crawler, "msze/binary_sniff/dropped") == 1
    assert stat(crawler, "msze/binary_sniff/dropped/sniffed") == 1


def test_text_page_passes() -> None:
    crawler, mw = sniffer()
    request = Request(URL)
    response = HtmlResponse(URL, body=PAGE.encode(), encoding="utf-8", request=request)
    assert mw.process_response(request, response) is response
    assert stat(crawler, "msze/binary_sniff/dropped") is None


def test_non_text_response_is_dropped_by_content_type() -> None:
    crawler, mw = sniffer()
    request = Request("http://parafia.test/plakat")
    response = Response(
        request.url, body=b"GIF89a...", headers={"Content-Type": "image/gif"}, request=request
    )
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, response)
    assert stat(crawler, "msze/binary_sniff/dropped/content_type") == 1


def test_redirects_and_opt_out_pass() -> None:
    _, mw = sniffer()
    request = Request(URL)
    redirect = Response(URL, status=302, headers={"Location": "/x"}, body=VIDEO, request=request)
    assert mw.process_response(request, redirect) is redirect
    for status in (204, 304):
        empty = Response(URL, status=status, request=request)
        assert mw.process_response(request, empty) is empty
    opted_out = Request(URL, meta={"binary_sniff": False})
    response = HtmlResponse(URL, body=VIDEO, request=opted_out)
    assert mw.process_response(opted_out, response) is response


def test_headers_of_non_text_stop_the_download_at_once() -> None:
    _, mw = sniffer()
    request = Request("http://parafia.test/film")
    with pytest.raises(StopDownload) as stopped:
        mw.headers_received(Headers({"Content-Type": "video/mp4"}), 10**9, request)
    assert stopped.value.fail is False
    mw.headers_received(Headers({"Content-Type": "text/html"}), 10**9, Request(URL))  # no stop
    untyped = Request("http://parafia.test/index.php")
    mw.headers_received(Headers({"Content-Type": "application/octet-stream"}), 10**9, untyped)  # body decides
    mw.bytes_received(PAGE.encode() * 40, untyped)  # text: no stop


def test_first_bytes_stop_a_binary_download_early() -> None:
    crawler, mw = sniffer()
    request = Request(URL)
    mw.headers_received(Headers({"Content-Type": "text/html"}), None, request)
    mw.bytes_received(VIDEO[:600], request)  # fewer than 1024 bytes: no verdict yet
    with pytest.raises(StopDownload):
        mw.bytes_received(VIDEO[600:], request)
    assert stat(crawler, "msze/binary_sniff/stopped_early") == 1
    partial = HtmlResponse(URL, body=VIDEO, request=request)
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, partial)
    assert stat(crawler, "msze/binary_sniff/dropped/sniffed") == 1


def test_text_download_is_not_stopped() -> None:
    _, mw = sniffer()
    request = Request(URL)
    mw.headers_received(Headers({"Content-Type": "text/html"}), None, request)
    body = PAGE.encode() * 40
    mw.bytes_received(body[:700], request)
    mw.bytes_received(body[700:], request)  # crosses 1024 bytes: text, so no StopDownload


def test_compressed_body_is_sniffed_after_decompression_only() -> None:
    _, mw = sniffer()
    request = Request(URL)
    mw.headers_received(Headers({"Content-Type": "text/html", "Content-Encoding": "gzip"}), None, request)
    mw.bytes_received(VIDEO, request)  # gzip bytes look binary: must not stop


@pytest.mark.parametrize("encoding", ["gzip", "br", "zstd", "deflate"])
@pytest.mark.parametrize("path", ["/", "/index.php", "/?p=12", "/msze-swiete/", "/index.php/ogloszenia"])
def test_compressed_page_without_html_extension_is_not_dropped(path: str, encoding: str) -> None:
    """Scrapy's responsetypes gives a plain Response whenever Content-Encoding is set: the type must be judged
    from the headers without the encoding (most parish hosting compresses HTML)."""
    crawler, mw = sniffer()
    request = Request("http://parafia.test" + path)
    headers = Headers({"Content-Type": "text/html; charset=utf-8", "Content-Encoding": encoding})
    mw.headers_received(headers, None, request)  # no StopDownload
    mw.bytes_received(VIDEO, request)  # compressed bytes are not sniffed
    decoded = HtmlResponse(request.url, body=PAGE.encode(), encoding="utf-8", request=request)
    assert mw.process_response(request, decoded) is decoded
    assert stat(crawler, "msze/binary_sniff/dropped") is None


def test_compressed_video_is_dropped_after_decompression() -> None:
    crawler, mw = sniffer()
    request = Request("http://parafia.test/film")
    mw.headers_received(Headers({"Content-Type": "text/html", "Content-Encoding": "gzip"}), None, request)
    decoded = HtmlResponse(request.url, body=VIDEO, request=request)
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, decoded)
    assert stat(crawler, "msze/binary_sniff/dropped/sniffed") == 1


def test_compressed_non_text_type_still_stops_at_once() -> None:
    _, mw = sniffer()
    request = Request("http://parafia.test/film")
    with pytest.raises(StopDownload):
        mw.headers_received(Headers({"Content-Type": "video/mp4", "Content-Encoding": "gzip"}), None, request)


PDF = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n" + bytes(range(256)) * 8  # binary after its header, as PDFs are


@pytest.mark.parametrize("content_type", ["application/pdf", "application/x-pdf"])
def test_a_pdf_type_is_not_stopped_and_its_body_passes(content_type: str) -> None:
    crawler, mw = sniffer()
    request = Request("http://parafia.test/pliki/ogloszenia.pdf")
    mw.headers_received(Headers({"Content-Type": content_type}), None, request)  # no StopDownload
    response = Response(request.url, body=PDF, headers={"Content-Type": content_type}, request=request)
    assert mw.process_response(request, response) is response
    assert stat(crawler, "msze/binary_sniff/dropped") is None


def test_a_pdf_body_passes_whatever_its_type_after_decompression() -> None:
    _, mw = sniffer()
    for content_type in ("application/octet-stream", "text/html"):  # misconfigured servers
        request = Request("http://parafia.test/pobierz.php?id=3")
        mw.headers_received(Headers({"Content-Type": content_type}), None, request)
        mw.bytes_received(PDF, request)  # no StopDownload: its first bytes are a PDF's
        response = Response(request.url, body=PDF, request=request)
        assert mw.process_response(request, response) is response
    gzipped = Request("http://parafia.test/pliki/porzadek.pdf")
    mw.headers_received(
        Headers({"Content-Type": "application/pdf", "Content-Encoding": "gzip"}), None, gzipped
    )
    decoded = Response(gzipped.url, body=PDF, request=gzipped)
    assert mw.process_response(gzipped, decoded) is decoded


def test_a_pdf_link_is_not_stopped_by_its_type_but_a_body_that_is_no_pdf_is_dropped() -> None:
    crawler, mw = sniffer()
    request = Request("http://parafia.test/plik.pdf", meta={"msze_pdf": True})
    mw.headers_received(Headers({"Content-Type": "application/force-download"}), None, request)
    video = Response(
        request.url, body=VIDEO, headers={"Content-Type": "application/force-download"}, request=request
    )
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, video)
    assert stat(crawler, "msze/binary_sniff/dropped/content_type") == 1


def test_a_pdf_cut_at_its_headers_is_not_let_through() -> None:
    """A non-text type stops at the headers: the partial body that arrives is dropped, PDF or not."""
    _, mw = sniffer()
    request = Request("http://parafia.test/plik")
    with pytest.raises(StopDownload):
        mw.headers_received(Headers({"Content-Type": "application/zip"}), None, request)
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, Response(request.url, body=PDF, request=request))


def test_pdfs_are_dropped_as_binary_when_pdf_is_off() -> None:
    crawler = crawler_with(PDF_ENABLED=False)
    mw = BinarySniffMiddleware.from_crawler(crawler)
    request = Request("http://parafia.test/pliki/ogloszenia.pdf")
    with pytest.raises(StopDownload):
        mw.headers_received(Headers({"Content-Type": "application/pdf"}), None, request)


def test_sniffing_can_be_turned_off() -> None:
    with pytest.raises(NotConfigured):
        BinarySniffMiddleware.from_crawler(crawler_with(BINARY_SNIFF_ENABLED=False))


# --- ExponentialBackoffMiddleware ---------------------------------------------------------------------------
class FakeClock:
    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def backoff(**settings: Any) -> tuple[Any, ExponentialBackoffMiddleware, FakeClock]:
    crawler = crawler_with(**settings)
    mw = ExponentialBackoffMiddleware.from_crawler(crawler)
    clock = FakeClock()
    mw.sleep = clock
    return crawler, mw, clock


def fail_until_given_up(mw: ExponentialBackoffMiddleware, request: Request, status: int = 500) -> list[Any]:
    results = []
    while True:
        response = Response(request.url, status=status, request=request)
        result = asyncio.run(mw.process_response(request, response))
        results.append(result)
        if not isinstance(result, Request):
            return results
        request = result


def test_backoff_waits_two_to_the_t_and_gives_up_at_the_limit() -> None:
    crawler, mw, clock = backoff(BACKOFF_MAX_WAIT=300, BACKOFF_REPEAT_LIMIT=5)
    results = fail_until_given_up(mw, Request(URL))
    assert clock.waits == [2.0, 4.0, 8.0, 16.0]
    assert [r.meta["retry_times"] for r in results[:-1]] == [1, 2, 3, 4]
    assert all(r.dont_filter for r in results[:-1])
    assert [r.priority for r in results[:-1]] == [-1, -2, -3, -4]  # RETRY_PRIORITY_ADJUST
    assert isinstance(results[-1], Response) and results[-1].status == 500  # the last answer goes on
    assert stat(crawler, "msze/backoff/retries") == 4
    assert stat(crawler, "msze/backoff/gave_up") == 1
    assert stat(crawler, "msze/backoff/reason/http_500") == 5
    # Scrapy's get_retry_request built the retries: its stats come along
    assert stat(crawler, "retry/count") == 4 and stat(crawler, "retry/max_reached") == 1
    assert stat(crawler, "retry/reason_count/500 Internal Server Error") == 4


def test_give_up_is_logged_at_retry_give_up_log_level(caplog: pytest.LogCaptureFixture) -> None:
    _, mw, _ = backoff(BACKOFF_REPEAT_LIMIT=2, RETRY_GIVE_UP_LOG_LEVEL="WARNING")
    with caplog.at_level(logging.INFO, logger="msze.middlewares"):
        fail_until_given_up(mw, Request(URL), status=503)
    gave_up = [r for r in caplog.records if r.getMessage().startswith("Gave up retrying")]
    assert [r.levelno for r in gave_up] == [logging.WARNING]
    assert "failed 2 times" in gave_up[0].getMessage() and URL in gave_up[0].getMessage()


def test_backoff_is_capped_by_max_wait() -> None:
    _, mw, clock = backoff(BACKOFF_MAX_WAIT=5, BACKOFF_REPEAT_LIMIT=5)
    fail_until_given_up(mw, Request(URL))
    assert clock.waits == [2.0, 4.0, 5.0, 5.0]


def test_retry_after_is_honoured_on_503_and_429_capped() -> None:
    crawler, mw, clock = backoff(BACKOFF_MAX_WAIT=60, BACKOFF_REPEAT_LIMIT=3)
    request = Request(URL)
    for status, header in ((503, "30"), (429, "3600"), (500, "30")):
        response = Response(URL, status=status, headers={"Retry-After": header}, request=request)
        asyncio.run(mw.process_response(request, response))
    assert clock.waits == [30.0, 60.0, 2.0]  # Retry-After only counts on 429/503
    assert stat(crawler, "msze/backoff/retry_after") == 2


def test_exceptions_are_retried_with_backoff() -> None:
    crawler, mw, clock = backoff(BACKOFF_MAX_WAIT=300, BACKOFF_REPEAT_LIMIT=3)
    request = Request(URL)
    retry = asyncio.run(mw.process_exception(request, TCPTimedOutError()))
    assert isinstance(retry, Request) and clock.waits == [2.0]
    again = asyncio.run(mw.process_exception(retry, TCPTimedOutError()))
    assert isinstance(again, Request) and clock.waits == [2.0, 4.0]
    assert asyncio.run(mw.process_exception(again, TCPTimedOutError())) is None  # gave up
    assert asyncio.run(mw.process_exception(request, ValueError("not a network error"))) is None
    assert stat(crawler, "msze/backoff/gave_up") == 1
    assert stat(crawler, "msze/backoff/reason/TCPTimedOutError") == 3
    assert stat(crawler, "retry/reason_count/twisted.internet.error.TCPTimedOutError") == 2


def test_meta_overrides_and_dont_retry() -> None:
    _, mw, clock = backoff(BACKOFF_MAX_WAIT=300, BACKOFF_REPEAT_LIMIT=3)
    results = fail_until_given_up(mw, Request(URL, meta={"backoff_repeat_limit": 2, "backoff_max_wait": 1.5}))
    assert clock.waits == [1.5] and len(results) == 2
    request = Request(URL, meta={"dont_retry": True})
    response = Response(URL, status=503, request=request)
    assert asyncio.run(mw.process_response(request, response)) is response


def test_success_and_404_are_not_retried() -> None:
    _, mw, clock = backoff()
    request = Request(URL)
    for status in (200, 404):
        response = Response(URL, status=status, request=request)
        assert asyncio.run(mw.process_response(request, response)) is response
    assert clock.waits == []


def test_backoff_disabled_is_scrapys_retry() -> None:
    crawler, mw, clock = backoff(BACKOFF_ENABLED=False, RETRY_TIMES=1)
    request = Request(URL)
    response = Response(URL, status=503, request=request)
    retry = asyncio.run(mw.process_response(request, response))
    assert isinstance(retry, Request) and retry.meta["retry_times"] == 1
    assert clock.waits == [] and stat(crawler, "retry/count") == 1
    with pytest.raises(NotConfigured):
        ExponentialBackoffMiddleware.from_crawler(crawler_with(BACKOFF_ENABLED=False, RETRY_ENABLED=False))


def test_backoff_defaults_are_small_for_parish_sites() -> None:
    _, mw, clock = backoff()
    assert (mw.max_wait, mw.repeat_limit) == (8.0, 3)
    fail_until_given_up(mw, Request(URL))
    assert clock.waits == [2.0, 4.0]  # the third failure in a row is the last


@pytest.mark.parametrize(
    ("spidercls", "waits"), [(DeonSpider, [2, 4, 8, 16, 32, 64, 64]), (PlacesSpider, [2, 4, 8, 16, 32])]
)
def test_directory_spiders_wait_longer(spidercls: type[Spider], waits: list[float]) -> None:
    """deon and Places raise the backoff in their custom_settings (one site, one API: every answer counts)."""
    crawler = project_crawler(spidercls)
    crawler.spider = Spider.from_crawler(crawler, "t")  # the spider's own from_crawler wants its arguments
    mw = ExponentialBackoffMiddleware.from_crawler(crawler)
    mw.sleep = clock = FakeClock()
    fail_until_given_up(mw, Request(URL), status=503)
    assert clock.waits == waits


# --- CharsetFallbackMiddleware ------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["windows-1250", "iso-8859-2"])
def test_undeclared_central_european_charset(encoding: str) -> None:
    crawler = crawler_with()
    mw = CharsetFallbackMiddleware.from_crawler(crawler)
    request = Request(URL)
    body = f"<html><body>{PAGE} Zażółć gęślą jaźń</body></html>".encode(encoding)
    response = HtmlResponse(URL, body=body, headers={"Content-Type": "text/html"}, request=request)
    if encoding == "iso-8859-2":
        assert "świętych" not in response.text  # Scrapy alone guesses another code page
    fixed = mw.process_response(request, response)
    assert "Porządek Mszy świętych" in fixed.text and "Zażółć gęślą jaźń" in fixed.text
    assert stat(crawler, f"msze/charset/guessed/{encoding}") == 1


def test_declared_charset_is_kept() -> None:
    mw = CharsetFallbackMiddleware.from_crawler(crawler_with())
    request = Request(URL)
    response = HtmlResponse(
        URL, body=PAGE.encode("utf-8"), headers={"Content-Type": "text/html; charset=utf-8"}
    )
    assert mw.process_response(request, response) is response


# --- User-Agent ---------------------------------------------------------------------------------------------
def test_requests_carry_random_browser_user_agents() -> None:
    settings = project_crawler().settings
    enabled = settings.getdict("DOWNLOADER_MIDDLEWARES")
    assert enabled["scrapy.downloadermiddlewares.useragent.UserAgentMiddleware"] is None
    mw = BrowserUserAgentMiddleware.from_crawler(project_crawler())
    assert mw.agents == browser_agents()[0]  # fake-useragent 2.x loads offline
    agents = Counter()
    for _ in range(300):
        request = Request(URL)
        mw.process_request(request)
        agents[request.headers["User-Agent"].decode()] += 1
    assert len(agents) > 10
    for agent in agents:
        assert agent.startswith("Mozilla/5.0") and "Scrapy" not in agent
    preset = Request(URL, headers={"User-Agent": "Mozilla/5.0 own"})
    mw.process_request(preset)
    assert preset.headers["User-Agent"] == b"Mozilla/5.0 own"


def test_browser_agents_are_fake_useragents_list_with_its_usage_shares() -> None:
    import fake_useragent

    agents, cum_shares = browser_agents()
    assert len(agents) > 1000  # fake-useragent's list, filtered once
    assert [agent for agent in agents if not agent.startswith("Mozilla/5.0")] == []  # header values
    assert browser_agents() is browser_agents()  # once per process
    percents: dict[str, list[float]] = {}
    for entry in fake_useragent.UserAgent().data_browsers:
        percents.setdefault(user_agent_of(entry), []).append(entry["percent"])
    shares = [b - a for a, b in zip((0.0, *cum_shares), cum_shares, strict=False)]
    for agent, share in zip(agents, shares, strict=True):
        assert min(abs(share - p) for p in percents[agent]) < 1e-9  # drawn by its usage share
    mw = BrowserUserAgentMiddleware.from_crawler(project_crawler())
    assert len({mw.random_user_agent() for _ in range(100)}) > 10


def test_user_agent_falls_back_to_the_setting(monkeypatch, caplog) -> None:
    def broken() -> None:
        raise ValueError("fake-useragent: no browser passes its filters")

    monkeypatch.setattr(middlewares, "browser_agents", broken)
    crawler = project_crawler(USER_AGENT="Mozilla/5.0 x")
    mw = BrowserUserAgentMiddleware.from_crawler(crawler)
    request = Request(URL)
    mw.process_request(request)
    assert request.headers["User-Agent"] == b"Mozilla/5.0 x"
    assert crawler.stats.get_value("msze/useragent/fixed") == 1
    assert [r.levelname for r in caplog.records if "did not load" in r.message] == ["WARNING"]


# --- RedirectLoopMiddleware ---------------------------------------------------------------------------------
def test_redirect_loop_is_logged_and_dropped(caplog: pytest.LogCaptureFixture) -> None:
    from msze.middlewares import RedirectLoopMiddleware

    crawler = crawler_with()
    mw = RedirectLoopMiddleware.from_crawler(crawler)
    first = Request("http://p.test/petla.html")
    ok = Response(first.url, status=302, headers={"Location": "/petla2.html"}, request=first)
    assert mw.process_response(first, ok) is ok
    second = Request("http://p.test/petla2.html", meta={"redirect_urls": [first.url]})
    loop = Response(second.url, status=302, headers={"Location": "/petla.html"}, request=second)
    with pytest.raises(IgnoreRequest):
        mw.process_response(second, loop)
    assert stat(crawler, "msze/redirect/loops") == 1
    assert (
        "Redirect loop: http://p.test/petla.html -> http://p.test/petla2.html -> http://p.test/petla.html"
        in (caplog.text)
    )


def test_redirect_chain_beyond_the_limit_is_logged_and_dropped(caplog: pytest.LogCaptureFixture) -> None:
    from msze.middlewares import RedirectLoopMiddleware

    crawler = crawler_with(REDIRECT_MAX_TIMES=3)
    mw = RedirectLoopMiddleware.from_crawler(crawler)
    urls = [f"http://p.test/hop{n}" for n in range(5)]
    for hops in range(4):  # RedirectMiddleware sets redirect_times / redirect_urls on each hop
        request = Request(urls[hops], meta={"redirect_times": hops, "redirect_urls": urls[:hops]})
        response = Response(request.url, status=301, headers={"Location": urls[hops + 1]}, request=request)
        if hops < 3:
            assert mw.process_response(request, response) is response
    with pytest.raises(IgnoreRequest):
        mw.process_response(request, response)
    assert stat(crawler, "msze/redirect/too_many") == 1
    assert "Redirect chain longer than 3 hops dropped: http://p.test/hop0 -> ... -> http://p.test/hop3" in (
        caplog.text
    )


@pytest.mark.parametrize("declared", ["utf-8", "iso-8859-1"])
def test_wrong_declared_charset_is_corrected(declared: str) -> None:
    crawler = crawler_with()
    mw = CharsetFallbackMiddleware.from_crawler(crawler)
    request = Request(URL)
    body = f"<html><body>{PAGE} Zażółć gęślą jaźń</body></html>".encode("windows-1250")
    headers = {"Content-Type": f"text/html; charset={declared}"}
    response = HtmlResponse(URL, body=body, headers=headers, request=request)
    assert "Zażółć gęślą jaźń" not in response.text
    fixed = mw.process_response(request, response)
    assert "Porządek Mszy świętych" in fixed.text and "Zażółć gęślą jaźń" in fixed.text
    assert stat(crawler, "msze/charset/corrected/windows-1250") == 1
