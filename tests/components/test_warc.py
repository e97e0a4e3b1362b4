"""WARC writing and reading with warcio."""

from __future__ import annotations

import gzip
import io

import pytest
from scrapy import Request, Spider
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler
from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

from msze.archive.warc import WarcFile, count_records, iter_responses
from msze.extensions import WarcExtension


def test_write_read_back(tmp_path):
    path = tmp_path / "parafia.test.warc.gz"
    w = WarcFile(path, info={"start_url": "http://parafia.test/"})
    html = "<html><body>Msze św.: 7.00, 9.30</body></html>".encode()
    w.write_exchange(
        "http://parafia.test/msze?a=1",
        200,
        [("Content-Type", "text/html; charset=utf-8"), ("Transfer-Encoding", "chunked")],
        html,
        request_headers=[("User-Agent", "msze-test")],
        ip_address="127.0.0.1",
    )
    gz = gzip.compress(b"<p>gzipped</p>")
    w.write_exchange("http://parafia.test/g", 200, [("Content-Encoding", "gzip")], gz)
    w.write_exchange("http://parafia.test/missing", 404, [("Content-Type", "text/html")], b"nope")
    w.close()
    assert count_records(path) == {"warcinfo": 1, "response": 3, "request": 3}
    responses = list(iter_responses(path))
    assert [(r.url, r.status) for r in responses] == [
        ("http://parafia.test/msze?a=1", 200),
        ("http://parafia.test/g", 200),
        ("http://parafia.test/missing", 404),
    ]
    assert responses[0].body == html
    assert responses[1].body == b"<p>gzipped</p>"  # content encoding undone on read
    headers = dict(responses[0].headers)
    assert headers["X-Archive-Orig-Transfer-Encoding"] == "chunked"
    assert "Transfer-Encoding" not in headers
    assert [r.url for r in iter_responses(path, only_status=200)] == [
        "http://parafia.test/msze?a=1",
        "http://parafia.test/g",
    ]
    with open(path, "rb") as f:
        records = list(ArchiveIterator(f))
    # (ArchiveIterator yields lazily; read headers only)
    requests = [r for r in records if r.rec_type == "request"]
    assert requests[0].http_headers.protocol == "GET"
    assert requests[0].http_headers.get_header("Host") == "parafia.test"


def test_request_links_to_response(tmp_path):
    path = tmp_path / "x.warc.gz"
    w = WarcFile(path)
    w.write_exchange("http://x.test/", 200, [], b"ok", request_headers=[("Accept", "text/html")])
    w.close()
    with open(path, "rb") as f:
        recs = [
            (
                r.rec_type,
                r.rec_headers.get_header("WARC-Record-ID"),
                r.rec_headers.get_header("WARC-Concurrent-To"),
            )
            for r in ArchiveIterator(f)
        ]
    (_, _, concurrent), (_, resp_id, _) = recs[1], recs[2]
    assert recs[1][0] == "request" and recs[2][0] == "response"
    assert concurrent == resp_id


def test_truncated_file_keeps_complete_records_and_says_so(tmp_path, caplog):
    path = tmp_path / "t.warc.gz"
    w = WarcFile(path)
    for i in range(3):
        w.write_exchange(f"http://t.test/{i}", 200, [], b"x" * 100)
    w.close()
    assert "truncated" not in count_records(path)
    data = path.read_bytes()
    path.write_bytes(data[:-20])  # a crawl killed mid-record: warcio ends quietly, or raises
    urls = [r.url for r in iter_responses(path)]  # no exception, whatever warcio does
    assert urls[:2] == ["http://t.test/0", "http://t.test/1"]
    assert caplog.messages == [f"{path}: {count_records(path)['truncated']}"]
    assert caplog.messages[0].endswith("in record 7 (http://t.test/2)")  # warcinfo + 3 request/response pairs


def test_reader_tells_a_torn_file_from_a_whole_one(tmp_path):
    path = tmp_path / "t.warc"
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=False)
        for i in range(2):
            writer.write_record(
                writer.create_warc_record(f"http://t.test/{i}", "resource", payload=io.BytesIO(b"x" * 50))
            )
    assert count_records(path) == {"resource": 2}  # whole, its closing blank lines included
    data = path.read_bytes()
    path.write_bytes(data[:-30])  # in the last record's block
    assert (
        count_records(path)["truncated"]
        == f"cut short at byte {len(data) - 30}, in record 2 (http://t.test/1)"
    )
    path.write_bytes(b"\x1f\x8b not really gzip")
    with pytest.raises(Exception):  # noqa: B017 - no record at all: not a torn WARC, not a WARC
        count_records(path)


def _decoded(body: bytes) -> str:
    from msze.crawling.charset import guess_encoding

    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        return body.decode(guess_encoding(body))


def test_crawl_writes_warc_matching_the_jsonl(fixture_web, tmp_path):
    """A real crawl with WARC_ENABLED: the redirect of the old domain, robots.txt, every page as sent."""
    from conftest import run_crawl

    warc_dir = tmp_path / "warc"
    result = run_crawl(
        "http://parafia-debina.test/",
        tmp_path,
        "WARC_ENABLED=1",
        f"WARC_DIR={warc_dir}",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0, result.log
    assert result.items
    path = warc_dir / "parafia-debina.test.warc.gz"  # named after the start URL's domain, like the JSONL
    responses = list(iter_responses(path))
    by_url = {r.url: r for r in responses}
    assert by_url["http://parafia-debina.test/"].status == 301
    assert dict(by_url["http://parafia-debina.test/"].headers)["Location"] == "http://www.mbcz-debina.test/"
    for item in result.items:
        record = by_url[item["url"]]
        assert record.status == 200
        assert _decoded(record.body) == item["html"]
    assert result.stats["msze/warc/records"] == 2 * len(responses)
    assert count_records(path)["request"] == len(responses)


def test_warc_off_by_default(fixture_web, tmp_path):
    from conftest import run_crawl

    result = run_crawl(
        "http://www.mbcz-debina.test/",
        tmp_path,
        f"WARC_DIR={tmp_path / 'warc'}",
        "DEPTH_LIMIT=0",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0
    assert not (tmp_path / "warc").exists()
    assert "msze/warc/records" not in result.stats


def test_extension_archives_a_stopped_download_as_truncated(tmp_path):
    """The extension alone (get_crawler): a video stopped after its first bytes is archived with
    WARC-Truncated, a whole page without; off without WARC_ENABLED."""
    with pytest.raises(NotConfigured):
        WarcExtension.from_crawler(get_crawler(Spider))
    path = tmp_path / "x.warc.gz"
    crawler = get_crawler(Spider, {"WARC_ENABLED": True, "WARC_FILE": str(path)})
    crawler.spider = Spider("parish", start_url="http://x.test/")
    crawler.stats.open_spider()
    ext = WarcExtension.from_crawler(crawler)
    page = Request("http://x.test/", headers={"User-Agent": "msze"})
    ext.response_downloaded(HtmlResponse(page.url, body=b"<p>Msze: 7.00</p>", request=page), page)
    video = Request("http://x.test/film.html")
    head = b"\x00\x00\x00\x20ftypisom" + bytes(100)
    ext.response_downloaded(Response(video.url, body=head, flags=["download_stopped"], request=video), video)
    ext.spider_closed()
    assert crawler.stats.get_value("msze/warc/records") == 4
    assert crawler.stats.get_value("msze/warc/file") == str(path)
    with open(path, "rb") as f:
        records = {
            r.rec_headers.get_header("WARC-Target-URI"): r.rec_headers.get_header("WARC-Truncated")
            for r in ArchiveIterator(f)
            if r.rec_type == "response"
        }
    assert records == {"http://x.test/": None, "http://x.test/film.html": "unspecified"}
