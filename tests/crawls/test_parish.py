"""`scrapy crawl parish` against the fixture web (tests/sites, README there): what is fetched and stored.

Each crawl runs once per module (subprocess, a few seconds) and the tests assert on its result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CrawlResult, run_crawl

from msze.batch.plan import NOTHING_STORED_EXIT

A = "http://swwojciech.test"
B = "http://www.mbcz-debina.test"
MAX_WAIT = 0.3  # BACKOFF_MAX_WAIT of the main crawl: every retry waits this long (2^t is capped)

# Pages of swwojciech.test the crawl stores (text pages within depth 3, on the site, not traps).
STORED_A = {
    f"{A}/",
    f"{A}/index.html",
    f"{A}/msze.html",
    f"{A}/ogloszenia/",
    f"{A}/aktualnosci/",
    f"{A}/aktualnosci/odpust-2026.html",
    f"{A}/aktualnosci/archiwum.html",
    f"{A}/intencje.html",
    f"{A}/historia.html",
    f"{A}/kontakt.html",
    f"{A}/kalendarz.php",
    f"{A}/galeria.php",
    *(f"{A}/galeria.php?zdjecie={n}" for n in range(1, 6)),  # LINKS_MAX_QUERIES_PER_PATH=5
}
# Fetched but not stored (errors, binary, redirect loop) with the number of requests the server saw.
NOT_STORED_A = {
    f"{A}/robots.txt": 1,
    f"{A}/film/rekolekcje.html": 1,
    f"{A}/stara-strona.html": 1,
    f"{A}/blad.php": 3,  # 500: retried with backoff, gave up at BACKOFF_REPEAT_LIMIT=3
    f"{A}/wolno.html": 3,  # timeouts
    f"{A}/petla.html": 1,
    f"{A}/petla2.html": 1,
    f"{A}/pliki/ogloszenia-2026-11-29.pdf": 1,  # a PDF without pages: msze/pdf/broken
}


@pytest.fixture(scope="module")
def crawl_a(fixture_web: Any, tmp_path_factory: pytest.TempPathFactory) -> tuple[CrawlResult, Any]:
    fixture_web.clear()
    result = run_crawl(
        f"{A}/",
        tmp_path_factory.mktemp("crawl_a"),
        "LINKS_MAX_QUERIES_PER_PATH=5",
        "DOWNLOAD_TIMEOUT=1",
        f"BACKOFF_MAX_WAIT={MAX_WAIT}",
        proxy=fixture_web.proxy,
    )
    return result, list(fixture_web.requests)


@pytest.fixture(scope="module")
def result_a(crawl_a: tuple[CrawlResult, Any]) -> CrawlResult:
    return crawl_a[0]


@pytest.fixture(scope="module")
def hits_a(crawl_a: tuple[CrawlResult, Any]) -> list[Any]:
    return crawl_a[1]


def fetched(hits: list[Any]) -> list[str]:
    return [h.url for h in hits]


def test_crawl_finishes(result_a: CrawlResult) -> None:
    assert result_a.returncode == 0, result_a.log[-3000:]
    assert result_a.stats["finish_reason"] == "finished"
    assert "Traceback" not in result_a.log


def test_exactly_these_pages_are_stored(result_a: CrawlResult) -> None:
    assert result_a.urls() == STORED_A
    assert len(result_a.items) == len(STORED_A)  # each page once
    assert result_a.stats["msze/storage/pages"] == len(STORED_A)
    assert [p.name for p in result_a.pages_dir.iterdir()] == ["swwojciech.test.jsonl"]


def test_exactly_these_urls_are_fetched(result_a: CrawlResult, hits_a: list[Any]) -> None:
    urls = fetched(hits_a)
    zerwane = f"{A}/zerwane.html"  # closed connection: the HTTP client itself may retry once per attempt
    assert set(urls) == STORED_A | set(NOT_STORED_A) | {zerwane}
    for url, times in NOT_STORED_A.items():
        assert urls.count(url) == times, url
    assert urls.count(f"{A}/intencje.html") == 3  # 503, 503, 200
    assert 3 <= urls.count(zerwane) <= 6
    for url in STORED_A - {f"{A}/intencje.html"}:
        assert urls.count(url) == 1, url


def test_depth_limit(result_a: CrawlResult, hits_a: list[Any]) -> None:
    depths = {item["url"]: item["depth"] for item in result_a.items}
    assert depths[f"{A}/"] == 0
    assert depths[f"{A}/aktualnosci/"] == 1
    assert depths[f"{A}/aktualnosci/odpust-2026.html"] == 2
    assert depths[f"{A}/aktualnosci/archiwum.html"] == 3
    assert max(depths.values()) == 3
    assert f"{A}/aktualnosci/archiwum-2019.html" not in fetched(hits_a)  # 4 links deep
    assert result_a.stats["request_depth_max"] == 3


def test_domain_limit_and_blacklist(result_a: CrawlResult, hits_a: list[Any]) -> None:
    assert {h.host for h in hits_a} == {"swwojciech.test"}
    stats = result_a.stats
    assert stats["msze/links/offsite"] >= 1  # the neighbour parish
    assert stats["msze/links/blacklisted"] >= 2  # facebook.com on every page, youtube.com
    assert stats["msze/links/extension"] >= 1  # the JPG
    assert stats["msze/links/pdf"] >= 2  # the PDF, linked from two pages
    assert stats["msze/pdf/followed"] == stats["msze/pdf/broken"] == 1
    assert f"{A}/admin/" not in fetched(hits_a) and stats["robotstxt/forbidden"] == 1


def test_binary_video_dropped_and_stopped_early(result_a: CrawlResult, fixture_web: Any) -> None:
    stats = result_a.stats
    assert stats["msze/binary_sniff/dropped"] == 1
    assert stats["msze/binary_sniff/dropped/sniffed"] == 1
    assert stats["msze/binary_sniff/stopped_early"] == 1
    video = fixture_web.routes[("swwojciech.test", "/film/rekolekcje.html")]
    assert not video.finished
    assert video.bytes_sent < 5 * 1024 * 1024 < video.size  # about one chunk of 50 MB left the server
    assert stats["downloader/response_bytes"] < 2 * 1024 * 1024


def test_windows_1250_page_decoded(result_a: CrawlResult) -> None:
    html = result_a.item(f"{A}/historia.html")["html"]
    assert "Zażółć gęślą jaźń. ZAŻÓŁĆ GĘŚLĄ JAŹŃ." in html
    assert "ks. Józefa Śliwińskiego" in html
    assert result_a.stats["msze/charset/guessed/windows-1250"] == 1


def test_backoff_on_503_then_200(result_a: CrawlResult, hits_a: list[Any]) -> None:
    times = [h.time for h in hits_a if h.path == "/intencje.html"]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert len(gaps) == 2 and all(gap >= MAX_WAIT * 0.9 for gap in gaps), gaps  # waited, capped, not 1 s
    assert "Intencje mszalne" in result_a.item(f"{A}/intencje.html")["html"]
    stats = result_a.stats
    assert stats["msze/backoff/reason/http_503"] == 2
    assert stats["msze/backoff/retry_after"] == 2
    assert stats["msze/backoff/retries"] >= 2 + 2 + 2  # 503 page, 500 page, timeouts
    assert stats["msze/backoff/gave_up"] >= 2  # 500 page and the slow one


def test_calendar_trap_bounded(result_a: CrawlResult, hits_a: list[Any]) -> None:
    urls = fetched(hits_a)
    assert [u for u in urls if "kalendarz" in u] == [f"{A}/kalendarz.php"]
    assert len([u for u in urls if "zdjecie=" in u]) == 5
    assert result_a.stats["msze/links/calendar"] >= 31
    assert result_a.stats["msze/links/query_cap"] >= 7


def test_errors_logged_and_crawl_goes_on(result_a: CrawlResult) -> None:
    stats = result_a.stats
    assert stats["msze/parish/errors/http_404"] == 1
    assert stats["msze/parish/errors/http_500"] == 1
    assert stats["msze/parish/errors/DownloadTimeoutError"] == 1
    assert stats["msze/parish/errors/DownloadFailedError"] == 1  # connection closed
    log = result_a.log
    assert "HTTP 404 at http://swwojciech.test/stara-strona.html" in log
    assert "DownloadTimeoutError at http://swwojciech.test/wolno.html" in log
    assert "http://swwojciech.test/zerwane.html" in log
    assert stats["msze/redirect/loops"] == 1
    assert "Redirect loop: http://swwojciech.test/petla.html -> http://swwojciech.test/petla2.html" in log


def test_item_fields(result_a: CrawlResult) -> None:
    start = result_a.item(f"{A}/")
    assert start["previous_url"] is None and start["button_text"] is None and start["depth"] == 0
    schedule = result_a.item(f"{A}/msze.html")
    assert schedule["previous_url"] == f"{A}/"
    assert schedule["button_text"] == "Porządek Mszy świętych"
    assert schedule["depth"] == 1
    assert "Niedziele i święta:</strong></td><td>7:00, 9:00, 11:00, 18:00" in schedule["html"]
    for item in result_a.items:
        assert item["start_url"] == f"{A}/" and item["domain"] == "swwojciech.test"


def test_requests_carry_browser_user_agents(hits_a: list[Any]) -> None:
    agents = {h.user_agent for h in hits_a}
    assert all(a.startswith("Mozilla/5.0") and "Scrapy" not in a for a in agents)
    assert len(agents) > 1  # random per request


# --- a parish that moved: old domain redirects to the new one -----------------------------------------------
@pytest.fixture(scope="module")
def result_b(fixture_web: Any, tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    tmp = tmp_path_factory.mktemp("crawl_b")
    return run_crawl(
        "http://parafia-debina.test/", tmp, proxy=fixture_web.proxy, args=("-O", str(tmp / "out.jsonl"))
    )


def test_start_redirect_domain_is_followed(result_b: CrawlResult) -> None:
    assert result_b.returncode == 0, result_b.log[-3000:]
    assert result_b.urls() == {
        f"{B}/",
        f"{B}/nabozenstwa.html",
        f"{B}/ogloszenia.html",
        f"{B}/historia.html",
    }
    assert result_b.stats["msze/parish/redirect_domains"] == 1
    assert result_b.stats["msze/links/blacklisted"] >= 1  # pl-pl.facebook.com
    assert result_b.stats["msze/backoff/reason/http_429"] == 1  # /ogloszenia.html: 429 once, then 200
    for item in result_b.items:  # the parish keeps the domain it is known by (the file name)
        assert item["domain"] == "parafia-debina.test" and item["start_url"] == "http://parafia-debina.test/"
    assert (result_b.pages_dir / "parafia-debina.test.jsonl").is_file()


def test_iso_8859_2_page_decoded(result_b: CrawlResult) -> None:
    html = result_b.item(f"{B}/historia.html")["html"]
    assert "ks. Łukaszu Żółkiewskim" in html and "Źródło wody" in html


def test_feed_export_still_works(result_b: CrawlResult, tmp_path_factory: pytest.TempPathFactory) -> None:
    out = result_b.pages_dir.parent / "out.jsonl"
    exported = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert sorted(exported, key=lambda i: i["url"]) == sorted(result_b.items, key=lambda i: i["url"])


# --- bad start URLs -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("url", ["parafia-debina", "ftp://parafia.test/", ""])
def test_bad_start_url_is_a_usage_error(url: str, tmp_path: Path) -> None:
    result = run_crawl(url, tmp_path)
    assert result.returncode == 2
    assert "not a start URL" in result.log
    assert "Traceback" not in result.log
    assert result.items == []


def test_blacklisted_start_url_is_not_crawled(tmp_path: Path, fixture_web: Any) -> None:
    result = run_crawl("https://www.facebook.com/parafia", tmp_path, proxy=fixture_web.proxy)
    # nothing stored: exit status 1 and the reason in one line (msze.commands.crawl)
    assert result.returncode == NOTHING_STORED_EXIT and result.items == []
    assert result.log.endswith("crawl parish: nothing stored (no pages: start URL on a blacklisted domain)\n")
    assert result.stats["msze/parish/start_blacklisted"] == 1
    assert "blacklisted" in result.log


def test_scrapy_shell_uses_project_settings(fixture_web: Any) -> None:
    import subprocess
    import sys

    from conftest import REPO, proxy_env

    command = [
        sys.executable,
        "-m",
        "scrapy",
        "shell",
        f"{A}/historia.html",
        "-s",
        "TELNETCONSOLE_ENABLED=False",
        "-s",
        "AUTOTHROTTLE_START_DELAY=0",
    ]
    command += [
        "-c",
        "(response.status, 'Zażółć gęślą jaźń' in response.text, response.request.headers['User-Agent'])",
    ]
    done = subprocess.run(
        command, cwd=REPO, env=proxy_env(fixture_web.proxy), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("(200, True, b'Mozilla/5.0"), done.stdout


def test_start_url_redirecting_to_a_blacklisted_domain(tmp_path: Path, fixture_web: Any) -> None:
    fixture_web.clear()
    result = run_crawl("http://parafia-debina.test/fb", tmp_path, proxy=fixture_web.proxy)
    assert result.returncode == NOTHING_STORED_EXIT and result.items == []
    assert result.stats["msze/parish/start_blacklisted"] == 1
    assert "redirected to blacklisted" in result.log


def test_schedule_page_mass_times_end_to_end(result_a: CrawlResult) -> None:
    """With the extraction pipelines on, the fixture schedule gives exactly its Mass times."""
    schedule = result_a.item(f"{A}/msze.html")
    assert schedule["masses"] == ["07:00", "09:00", "11:00", "18:00"]
    by_day = {(h["day"], h["time"]) for h in schedule["hours"] if h["label"] == "mass"}
    assert by_day == {("sunday", t) for t in ("07:00", "09:00", "11:00", "18:00")} | {
        ("weekday", "07:00"),
        ("weekday", "18:00"),
    }
    assert result_a.item(f"{A}/kontakt.html")["masses"] == []  # office hours are not Masses


def test_unreadable_blacklist_file_is_a_usage_error(tmp_path: Path) -> None:
    result = run_crawl(f"{A}/", tmp_path, f"DOMAIN_BLACKLIST_FILE={tmp_path / 'missing.txt'}")
    assert result.returncode == 2
    assert "DOMAIN_BLACKLIST_FILE" in result.log and "Traceback" not in result.log
