"""A parish whose schedule is only a photo-like JPEG, and one whose announcements are only a scanned PDF: the
crawl reads them by OCR, while the logo and gallery photos are skipped with their stats. The images are drawn
by msze/testing/schedule_image.py (two faces, rotated, JPEG noise) and served from 127.0.0.1
(parafia-obraz.test, parafia-skan.test)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from conftest import CrawlResult, run_crawl
from schema_check import check
from webserver import FixtureWeb, RequestHandler

from msze.testing.schedule_image import FONTS, Schedule, Style, plain_image, render_schedule, scanned_pdf

HOST = "parafia-obraz.test"
SITE = f"http://{HOST}/"
SCHEDULE = Schedule()
# Serif times under condensed bold labels, 1° off, JPEG quality 40 with pixel noise: a photographed notice.
JPEG = render_schedule(
    SCHEDULE, Style(font=FONTS[1], label_font=FONTS[2], size=26, rotation=1.0, quality=40, noise=30)
)
SCAN_HOST = "parafia-skan.test"
SCAN_SITE = f"http://{SCAN_HOST}/"
ANNOUNCEMENTS = Schedule(
    title="Ogłoszenia parafialne",
    rows=(
        ("W niedzielę Msze święte o godz.:", ("7:30", "9:30", "11:00", "17:00")),
        ("W dni powszednie:", ("6:30", "18:00")),
    ),
)
SCAN_HOME = """<html><head><meta charset="utf-8"><title>Parafia św. Anny</title></head><body>
<h1>Parafia św. Anny w Lipniku</h1><p>Zapraszamy do kościoła.</p>
<p><a href="/pliki/ogloszenia-skan.pdf">Ogłoszenia parafialne</a></p></body></html>"""
HOME = """<html><head><meta charset="utf-8"><title>Parafia św. Jana</title></head><body>
<img src="/img/logo-parafii.png" alt="Parafia św. Jana" width="300" height="300">
<h1>Parafia św. Jana w Borach</h1>
<p><a href="/porzadek.html">Porządek Mszy</a> <a href="/galeria.html">Galeria</a></p>
</body></html>"""
SCHEDULE_PAGE = """<html><head><meta charset="utf-8"><title>Porządek Mszy świętych</title></head><body>
<h2>Porządek Mszy świętych</h2><img src="/img/porzadek-mszy.jpg" alt="Porządek Mszy świętych">
</body></html>"""
GALLERY = """<html><head><meta charset="utf-8"><title>Galeria</title></head><body><h2>Galeria</h2>
<figure><img src="/img/zdjecie1.jpg" width="800"><figcaption>Galeria: Msza odpustowa</figcaption></figure>
<figure><img src="/galeria/odpust/dsc_0042.jpg"><figcaption>Msza odpustowa</figcaption></figure>
<figure><img src="/galeria/odpust/dsc_0043.jpg"><figcaption>Procesja</figcaption></figure>
</body></html>"""
# The gallery page has 3 images, one more than a page may have judged in this crawl.
IMAGES_PER_PAGE = 2


@dataclass
class Body:
    body: bytes
    content_type: str

    def __call__(self, handler: RequestHandler, query: str) -> None:
        handler.send_body(self.body, self.content_type)


@pytest.fixture(scope="module")
def web(tesseract_module: None) -> Any:
    web = FixtureWeb(default_host=HOST)
    files = {
        "/": Body(HOME.encode(), "text/html; charset=utf-8"),
        "/porzadek.html": Body(SCHEDULE_PAGE.encode(), "text/html; charset=utf-8"),
        "/galeria.html": Body(GALLERY.encode(), "text/html; charset=utf-8"),
        "/img/porzadek-mszy.jpg": Body(JPEG, "image/jpeg"),
        "/img/logo-parafii.png": Body(plain_image(300, 300, "LOGO"), "image/png"),
        "/img/zdjecie1.jpg": Body(plain_image(800, 600, fmt="JPEG"), "image/jpeg"),
    }
    for path, handler in files.items():
        web.route(HOST, path, handler)
    scan_style = Style(font=FONTS[0], label_font=FONTS[3], rotation=-0.8, quality=50)
    scan = render_schedule(ANNOUNCEMENTS, scan_style)
    web.route(SCAN_HOST, "/", Body(SCAN_HOME.encode(), "text/html; charset=utf-8"))
    web.route(SCAN_HOST, "/pliki/ogloszenia-skan.pdf", Body(scanned_pdf(scan), "application/pdf"))
    with web:
        yield web


@pytest.fixture(scope="module")
def result(web: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    settings = ("ROBOTSTXT_OBEY=False", f"OCR_MAX_IMAGES_PER_PAGE={IMAGES_PER_PAGE}")
    return run_crawl(SITE, tmp_path_factory.mktemp("ocr"), *settings, proxy=web.proxy)


@pytest.fixture(scope="module")
def scan_result(web: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    return run_crawl(SCAN_SITE, tmp_path_factory.mktemp("scan"), "ROBOTSTXT_OBEY=False", proxy=web.proxy)


@pytest.fixture(scope="module")
def tesseract_module() -> None:
    from conftest import require_tesseract

    require_tesseract()


def test_the_schedule_only_in_a_jpeg_comes_out(result: CrawlResult) -> None:
    assert result.returncode == 0, result.log[-3000:]
    page = result.item(f"{SITE}img/porzadek-mszy.jpg")
    assert page["content_type"] == "image/jpeg" and 0.5 < page["ocr_confidence"] <= 1
    assert set(page["masses"]) == SCHEDULE.times()
    assert all(h["ocr_confidence"] == page["ocr_confidence"] for h in page["hours"])
    assert any("sun" in h["days"] for h in page["hours"] if h["label"] == "mass")
    check(page, "page")
    assert result.stats["msze/ocr/read"] == 1 and result.stats["msze/ocr/candidates"] == 1


def test_a_logo_and_a_gallery_are_skipped(result: CrawlResult) -> None:
    assert result.stats["msze/ocr/skipped_logo"] == 1
    # a gallery photo by its file name, one by its folder; the page's third image is over the page's cap
    assert result.stats["msze/ocr/skipped_gallery"] == IMAGES_PER_PAGE
    assert result.stats["msze/ocr/skipped_page_budget"] == 1
    assert not any("zdjecie" in url or "/galeria/" in url for url in result.urls())


def test_announcements_only_in_a_scanned_pdf_come_out(scan_result: CrawlResult) -> None:
    assert scan_result.returncode == 0, scan_result.log[-3000:]
    page = scan_result.item(f"{SCAN_SITE}pliki/ogloszenia-skan.pdf")
    check(page, "page")
    assert page["content_type"] == "application/pdf" and 0.5 < page["ocr_confidence"] <= 1
    assert set(page["masses"]) == ANNOUNCEMENTS.times()
    assert all(h["pdf_page"] == 1 for h in page["hours"])
    stats = scan_result.stats
    assert stats["msze/ocr/pdf_ok"] == 1 and stats["msze/pdf/read"] == 1
    assert "msze/pdf/no_text" not in stats and "msze/ocr/read" not in stats  # read as a PDF, not an image
