"""Schedules that are not HTML text, served by a real web server (nginx, tests/nginx.py): a parish whose
schedule is only a text PDF, one whose announcements are only a scanned PDF, one whose schedule is a
photo-like JPEG and one whose schedule a script writes. One `scrapy crawl parishes` process crawls the four
sites and each gives its Masses; nginx sends the files as static files do (Content-Length, ETag, keep-alive).

The script-written site is nginx's `127.0.0.1` server: the browser does not go through the crawl's proxy, so
it reaches that page directly, while Scrapy reaches every site through nginx as a proxy.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CrawlResult, require_chromium, require_tesseract, run_crawl
from nginx import Nginx
from pdfs import Line, text_pdf

from msze.testing.schedule_image import FONTS, Schedule, Style, render_schedule, scanned_pdf

PDF_HOST, SCAN_HOST, IMAGE_HOST, JS_HOST = (
    "parafia-pdf.test",
    "parafia-skan.test",
    "parafia-obraz.test",
    "127.0.0.1",
)
PDF_TIMES = {"07:00", "09:00", "11:00", "18:00"}
SCHEDULE_PDF = text_pdf(
    [
        Line(50, 780, "Porządek Mszy świętych", 14),
        Line(50, 740, "Niedziele i święta: 7:00, 9:00, 11:00, 18:00"),
        Line(50, 720, "Dni powszednie: 7:00"),
    ]
)
IMAGE = Schedule(rows=(("Niedziele i święta:", ("8:00", "10:30", "12:00")), ("Dni powszednie:", ("18:30",))))
SCAN = Schedule(
    title="Ogłoszenia parafialne", rows=(("W niedzielę Msze o godz.:", ("7:30", "9:30", "16:00")),)
)
JS_TIMES = {"08:00", "10:00", "12:00", "18:00"}


def _page(title: str, body: str) -> str:
    return f'<html><head><meta charset="utf-8"><title>{title}</title></head><body>{body}</body></html>'


def _write(root: Path, files: dict[str, str | bytes]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content.encode() if isinstance(content, str) else content)
    return root


def _sites(root: Path) -> dict[str, Path]:
    jpeg = render_schedule(
        IMAGE, Style(font=FONTS[1], label_font=FONTS[2], size=26, rotation=1.0, quality=40)
    )
    scan = render_schedule(SCAN, Style(font=FONTS[0], label_font=FONTS[3], rotation=-0.8, quality=50))
    script = (
        'document.getElementById("root").innerHTML = "<h2>Msze święte</h2>'
        '<p>Niedziele: 8.00, 10.00, 12.00</p><p>Dni powszednie: 18.00</p>";'
    )
    return {
        PDF_HOST: _write(
            root / PDF_HOST,
            {
                "index.html": _page("Parafia", '<a href="/pliki/porzadek-mszy.pdf">Porządek Mszy (PDF)</a>'),
                "pliki/porzadek-mszy.pdf": SCHEDULE_PDF,
            },
        ),
        SCAN_HOST: _write(
            root / SCAN_HOST,
            {
                "index.html": _page("Parafia", '<a href="/pliki/ogloszenia.pdf">Ogłoszenia parafialne</a>'),
                "pliki/ogloszenia.pdf": scanned_pdf(scan),
            },
        ),
        IMAGE_HOST: _write(
            root / IMAGE_HOST,
            {
                "index.html": _page("Parafia", '<a href="/porzadek.html">Porządek Mszy</a>'),
                "porzadek.html": _page(
                    "Porządek Mszy", '<img src="/img/porzadek-mszy.jpg" alt="Porządek Mszy świętych">'
                ),
                "img/porzadek-mszy.jpg": jpeg,
            },
        ),
        JS_HOST: _write(
            root / JS_HOST,
            {
                "index.html": _page(
                    "Parafia", '<p>Witamy na stronie parafii.</p><a href="/msze.html">Msze</a>'
                ),
                "msze.html": _page("Msze", f'<div id="root"></div><script>{script}</script>'),
            },
        ),
    }


@pytest.fixture(scope="module")
def nginx(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    require_tesseract()
    require_chromium()
    with Nginx(_sites(tmp_path_factory.mktemp("media"))) as web:
        yield web


@pytest.fixture(scope="module")
def crawl(nginx: Nginx, tmp_path_factory: pytest.TempPathFactory) -> tuple[CrawlResult, dict[str, str]]:
    tmp = tmp_path_factory.mktemp("crawl")
    start = {host: f"http://{host}/" for host in (PDF_HOST, SCAN_HOST, IMAGE_HOST)}
    start[JS_HOST] = f"http://127.0.0.1:{nginx.port}/"
    urls = tmp / "urls.txt"
    urls.write_text("".join(f"{url}\n" for url in start.values()), encoding="utf-8")
    result = run_crawl(None, tmp, proxy=nginx.proxy, spider="parishes", args=("-a", f"urls={urls}"))
    return result, start


def masses(result: CrawlResult, url: str) -> set[str]:
    return set(result.item(url)["masses"])


def test_each_site_gives_its_schedule_through_nginx(crawl: tuple[CrawlResult, dict[str, str]]) -> None:
    result, start = crawl
    assert result.returncode == 0, result.log[-3000:]
    assert "Traceback" not in result.log
    assert masses(result, start[PDF_HOST] + "pliki/porzadek-mszy.pdf") == PDF_TIMES
    assert masses(result, start[SCAN_HOST] + "pliki/ogloszenia.pdf") == SCAN.times()
    assert masses(result, start[IMAGE_HOST] + "img/porzadek-mszy.jpg") == IMAGE.times()
    assert masses(result, start[JS_HOST] + "msze.html") == JS_TIMES
    stats = result.stats
    assert stats["msze/pdf/read"] == 2 and stats["msze/ocr/pdf_ok"] == 1
    assert stats["msze/ocr/read"] == 1 and stats["msze/js/rendered"] == 1


def test_nginx_sent_the_files_whole_with_their_types(
    crawl: tuple[CrawlResult, dict[str, str]], nginx: Nginx
) -> None:
    sent = {(line.host, line.uri): line for line in nginx.log()}
    for host, uri, kind in (
        (PDF_HOST, "/pliki/porzadek-mszy.pdf", "application/pdf"),
        (SCAN_HOST, "/pliki/ogloszenia.pdf", "application/pdf"),
        (IMAGE_HOST, "/img/porzadek-mszy.jpg", "image/jpeg"),
    ):
        line = sent[(host, uri)]
        assert (line.status, line.content_type, line.content_encoding) == (200, kind, "")
    # the shell came through the proxy, its rendering straight from the browser: both answered by nginx
    assert [line.status for line in nginx.log() if line.uri == "/msze.html"] == [200, 200]
