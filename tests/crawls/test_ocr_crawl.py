"""A parish whose schedule is only a JPEG (and a scanned PDF): the crawl reads them by OCR, while its logo
and gallery photos are skipped with their stats. The images are drawn by msze/testing/schedule_image.py and
served from 127.0.0.1 (parafia-obraz.test)."""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from typing import Any

import pytest
from conftest import CrawlResult, run_crawl
from schema_check import check
from webserver import FixtureWeb, RequestHandler

from msze.testing.schedule_image import FONTS, Schedule, Style, plain_image, render_schedule

HOST = "parafia-obraz.test"
SITE = f"http://{HOST}/"
SCHEDULE = Schedule()
JPEG = render_schedule(SCHEDULE, Style(font=FONTS[1], size=26, rotation=1.0, quality=40, noise=30))
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
</body></html>"""


@dataclass
class Body:
    body: bytes
    content_type: str

    def __call__(self, handler: RequestHandler, query: str) -> None:
        handler.send_body(self.body, self.content_type)


def _scanned_pdf() -> bytes:
    """The schedule as a PDF with no text layer: the JPEG as its page (Pillow writes it)."""
    from PIL import Image

    out = BytesIO()
    Image.open(BytesIO(JPEG)).save(out, "PDF", resolution=100)
    return out.getvalue()


@pytest.fixture(scope="module")
def result(tesseract_module: None, tmp_path_factory: pytest.TempPathFactory) -> Any:
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
    with web:
        yield run_crawl(SITE, tmp_path_factory.mktemp("ocr"), "ROBOTSTXT_OBEY=False", proxy=web.proxy)


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
    assert result.stats["msze/ocr/skipped_gallery"] == 1
    assert f"{SITE}img/zdjecie1.jpg" not in result.urls()
