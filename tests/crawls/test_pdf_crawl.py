"""PDF links crawled end to end: a parish whose Mass schedule is only in a PDF gets it, and every PDF that
cannot be read (too big, encrypted, broken, a scan) is a stat and a warning while the crawl finishes.

The PDFs are written by tests/pdfs.py and served from 127.0.0.1 by the fixture web (routes of a host with no
folder: parafia-pdf.test, and parafia-pdfy.test for the per-site PDF budget).
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from typing import Any

import pytest
from conftest import CrawlResult, run_crawl
from pdfs import Line, scanned_pdf, text_pdf
from schema_check import check
from webserver import FixtureWeb, RequestHandler

from msze.cli import main
from msze.extraction.parish import summarize

HOST = "parafia-pdf.test"
SITE = f"http://{HOST}/"
MB = 1024 * 1024

SCHEDULE = text_pdf(
    [
        Line(50, 780, "Parafia św. Marcina w Olszynach", 14),
        Line(50, 750, "Porządek Mszy świętych", 14),
        Line(50, 710, "Niedziele i święta"),
        Line(250, 710, "7:00   9:00   11:00   18:00"),
        Line(50, 690, "Dni powszednie"),
        Line(250, 690, "7:00   18:00"),
    ],
    [Line(50, 780, "Kancelaria parafialna czynna we wtorek 16:00-17:30.")],
)
# Two columns, written row by row across both (as word processors do): each column must come out whole.
ANNOUNCEMENTS = text_pdf(
    [
        Line(40, 780, "Ogłoszenia parafialne 29.11.2026", 14),
        Line(40, 750, "1. Dziś rozpoczynamy Adwent.", 10),
        Line(305, 750, "3. Kancelaria parafialna czynna", 10),
        Line(40, 736, "Roraty od poniedziałku o 6:30.", 10),
        Line(305, 736, "we wtorek i czwartek 16:00-17:30.", 10),
    ]
)
HOME = """<html><head><meta charset="utf-8"><title>Parafia św. Marcina</title></head><body>
<h1>Parafia św. Marcina w Olszynach</h1>
<ul>
<li><a href="/pliki/porzadek-mszy.pdf">Porządek Mszy świętych (PDF)</a></li>
<li><a href="/pliki/ogloszenia-2026-11-29.pdf">Ogłoszenia</a></li>
<li><a href="/pliki/plakat.pdf">Plakat rekolekcji</a></li>
<li><a href="/pliki/album.pdf">Album jubileuszowy</a></li>
<li><a href="/pliki/intencje.pdf">Intencje mszalne</a></li>
<li><a href="/pliki/historia.pdf">Historia parafii</a></li>
<li><a href="/pliki/skan.pdf">Ogłoszenia (skan)</a></li>
</ul></body></html>"""


@dataclass
class Body:
    """Serves fixed bytes with a type."""

    body: bytes
    content_type: str = "application/pdf"

    def __call__(self, handler: RequestHandler, query: str) -> None:
        handler.send_body(self.body, self.content_type)


@dataclass
class HugePdf:
    """A PDF of `size` bytes sent in chunks, with its Content-Length or without one (ended by closing the
    connection); `bytes_sent` left the server."""

    size: int = 40 * MB
    with_length: bool = True
    bytes_sent: int = 0

    def __call__(self, handler: RequestHandler, query: str) -> None:
        handler.close_connection = True
        handler.send_response(200)
        handler.send_header("Content-Type", "application/pdf")
        if self.with_length:
            handler.send_header("Content-Length", str(self.size))
        handler.send_header("Connection", "close")
        handler.end_headers()
        chunk = b"%PDF-1.4\n" + b"0" * (256 * 1024 - 9)
        with contextlib.suppress(OSError):
            while self.bytes_sent < self.size:
                handler.wfile.write(chunk)
                self.bytes_sent += len(chunk)
                time.sleep(0.001)


@pytest.fixture(scope="module")
def web() -> Any:
    web = FixtureWeb(default_host=HOST)
    files = {
        "/pliki/porzadek-mszy.pdf": Body(SCHEDULE),
        "/pliki/ogloszenia-2026-11-29.pdf": Body(ANNOUNCEMENTS, "application/octet-stream"),
        "/pliki/plakat.pdf": HugePdf(with_length=True),
        "/pliki/album.pdf": HugePdf(with_length=False),
        "/pliki/intencje.pdf": Body(text_pdf([Line(50, 780, "Intencje 7:00")], user_password="tajne")),
        "/pliki/historia.pdf": Body(SCHEDULE[:400]),  # cut short: broken
        "/pliki/skan.pdf": Body(scanned_pdf(2)),
        "/": Body(HOME.encode(), "text/html; charset=utf-8"),
    }
    for path, handler in files.items():
        web.route(HOST, path, handler)
    with web:
        yield web


@pytest.fixture(scope="module")
def result(web: Any, tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    return run_crawl(SITE, tmp_path_factory.mktemp("pdf"), "ROBOTSTXT_OBEY=False", proxy=web.proxy)


def test_the_crawl_finishes_with_a_stat_for_every_pdf(result: CrawlResult) -> None:
    assert result.returncode == 0, result.log[-3000:]
    assert result.stats["finish_reason"] == "finished"
    assert "Traceback" not in result.log
    stats = result.stats
    assert stats["msze/pdf/followed"] == 7
    assert stats["msze/pdf/read"] == 2
    assert stats["msze/pdf/too_large"] == 2
    assert stats["msze/pdf/encrypted"] == 1
    assert stats["msze/pdf/broken"] == 1
    assert stats["msze/pdf/no_text"] == 1
    assert stats["msze/pdf/pages"] == 2 + 1 + 2  # schedule, announcements, scan
    assert "msze/pdf/skipped_budget" not in stats
    assert "msze/binary_sniff/dropped" not in stats  # PDFs are not dropped as binary
    for name in ("plakat", "album", "intencje", "historia", "skan"):
        assert f"/pliki/{name}.pdf" in result.log  # each said in a warning


def test_a_40_mb_pdf_is_stopped_not_downloaded(result: CrawlResult, web: Any) -> None:
    with_length = web.routes[(HOST, "/pliki/plakat.pdf")]
    without = web.routes[(HOST, "/pliki/album.pdf")]
    assert with_length.bytes_sent < 12 * MB  # refused by its Content-Length (what the socket took, at most)
    # cut on the way: the server stops being read long before its 40 MB (what left it includes the proxy's
    # and the kernel's buffers, a few MB more under load), and the crawl took no more than PDF_MAX_BYTES
    # (10 MB; DOWNLOAD_MAXSIZE, 16 MB, would let more through)
    assert without.bytes_sent < without.size // 2
    assert result.stats["downloader/response_bytes"] < 12 * MB
    assert result.log.count("is over PDF_MAX_BYTES=10485760: not downloaded") == 2


def test_the_schedule_pdf_is_a_page_with_its_hours_and_their_pdf_page(result: CrawlResult) -> None:
    item = result.item(f"{SITE}pliki/porzadek-mszy.pdf")
    check(item, "page")
    assert item["content_type"] == "application/pdf" and item["html"] == ""
    assert item["previous_url"] == SITE and item["button_text"] == "Porządek Mszy świętych (PDF)"
    assert item["masses"] == ["07:00", "09:00", "11:00", "18:00"]
    pages = {(h["time"], h["label"], h["pdf_page"]) for h in item["hours"]}
    assert ("09:00", "mass", 1) in pages and ("16:00", "other", 2) in pages
    assert item["text"].count("\f") == 1  # two pages, a form feed between them


def test_a_parish_whose_schedule_is_only_in_a_pdf_gets_it(result: CrawlResult) -> None:
    summary = summarize(result.items, SITE, HOST, crawled_at="2026-12-01T10:00:00Z")
    check(summary, "result")
    sunday = {e["time"] for e in summary["schedule"] if "sun" in e["days"]}
    weekday = {e["time"] for e in summary["schedule"] if "wed" in e["days"]}
    assert sunday == {"07:00", "09:00", "11:00", "18:00"}
    assert weekday == {"07:00", "18:00"}
    on_sunday = [e for entry in summary["schedule"] if "sun" in entry["days"] for e in entry["evidence"]]
    assert on_sunday and all(e["url"] == f"{SITE}pliki/porzadek-mszy.pdf" for e in on_sunday)
    assert all(e["pdf_page"] == 1 for entry in summary["schedule"] for e in entry["evidence"])


def test_the_announcements_columns_stay_whole(result: CrawlResult) -> None:
    item = result.item(f"{SITE}pliki/ogloszenia-2026-11-29.pdf")  # served as octet-stream: still a PDF
    assert "Roraty od poniedziałku o 6:30." in item["text"].replace("\n", " ")
    assert "Kancelaria parafialna czynna\nwe wtorek" in item["text"]
    assert {h["time"]: h["label"] for h in item["hours"]}["16:00"] == "other"


def test_msze_process_gives_a_stored_pdf_the_hours_the_crawl_gave_it(
    result: CrawlResult, tmp_path: Any, capsys: Any
) -> None:
    out = tmp_path / "out"
    assert main(["process", str(result.pages_dir), "--out", str(out)]) == 0
    assert "1/1 files done, 0 failed" in capsys.readouterr().out
    lines = (out / f"{HOST}.jsonl").read_text(encoding="utf-8").splitlines()
    processed = {page["url"]: page for page in map(json.loads, lines)}
    for url in (f"{SITE}pliki/porzadek-mszy.pdf", f"{SITE}pliki/ogloszenia-2026-11-29.pdf"):
        crawled, again = result.item(url), processed[url]
        assert again["content_type"] == "application/pdf" and again["text"] == crawled["text"]
        assert again["masses"] == crawled["masses"]
        shape = [(h["time"], h["label"], h["source"], h["pdf_page"]) for h in crawled["hours"]]
        assert [(h["time"], h["label"], h["source"], h["pdf_page"]) for h in again["hours"]] == shape


# --- the per-site PDF budget: the PDFs that name Masses or announcements first ---------------------------

BUDGET_HOST = "parafia-pdfy.test"
CUED = ["/pliki/ogloszenia.pdf", "/pliki/porzadek.pdf"]
# Linked after the cued ones, named after nothing: Scrapy's queue is last in, first out, so without the
# priorities these would be downloaded first.
ARCHIVE = [f"/pliki/dokument-{n}.pdf" for n in range(1, 4)]


@pytest.fixture(scope="module")
def budget_crawl(tmp_path_factory: pytest.TempPathFactory) -> tuple[CrawlResult, list[str]]:
    web = FixtureWeb(default_host=BUDGET_HOST)
    links = "".join(f'<a href="{path}">Plik {n}</a> ' for n, path in enumerate(CUED + ARCHIVE))
    web.route(BUDGET_HOST, "/", Body(f"<html><body>{links}</body></html>".encode(), "text/html"))
    for path in ARCHIVE + CUED:
        web.route(BUDGET_HOST, path, Body(text_pdf([Line(50, 780, f"Msza o 18:00 {path}")])))
    with web:
        result = run_crawl(
            f"http://{BUDGET_HOST}/",
            tmp_path_factory.mktemp("budget"),
            "ROBOTSTXT_OBEY=False",
            "PDF_MAX_PER_SITE=2",
            "CONCURRENT_REQUESTS=1",
            proxy=web.proxy,
        )
        return result, web.fetched(BUDGET_HOST)


def test_the_pdf_budget_goes_to_the_pdfs_that_name_masses_or_announcements(budget_crawl: Any) -> None:
    result, fetched = budget_crawl
    assert result.returncode == 0, result.log[-3000:]
    assert fetched[0] == f"http://{BUDGET_HOST}/"
    assert sorted(fetched[1:]) == [f"http://{BUDGET_HOST}{p}" for p in CUED]  # never the archive's
    assert result.stats["msze/pdf/followed"] == 2
    assert result.stats["msze/pdf/skipped_budget"] == 3
    assert result.stats["msze/links/pdf"] == 5
    assert "reached PDF_MAX_PER_SITE=2" in result.log
