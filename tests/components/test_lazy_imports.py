"""A crawl that meets no JavaScript shell, image or scanned PDF pays nothing for the browser or OCR: loading
every component the settings name (the crawl process's start) imports neither Playwright nor Pillow nor
pytesseract nor pdfminer. Their imports alone cost each crawl process ~10-15 MB (tests/hostile.py's
MAX_RSS_MB), and ~100 crawls run at once in crawl-all."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("playwright", "scrapy_playwright", "PIL", "pytesseract", "pdfminer")
LOAD_ALL = """
import json, sys
from scrapy.utils.misc import load_object
from scrapy.utils.project import get_project_settings
settings = get_project_settings()
names = [*settings.getdict("DOWNLOADER_MIDDLEWARES"), *settings.getdict("SPIDER_MIDDLEWARES"),
         *settings.getdict("ITEM_PIPELINES"), *settings.getdict("EXTENSIONS"),
         *settings.getdict("DOWNLOAD_HANDLERS").values(), "msze.spiders.parish.ParishSpider",
         "msze.spiders.parishes.ParishesSpider"]
for name in names:
    load_object(name)
print(json.dumps({"loaded": len(names), "modules": sorted(sys.modules)}))
"""


def test_loading_the_crawl_imports_no_browser_nor_ocr():
    done = subprocess.run(
        [sys.executable, "-c", LOAD_ALL], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
    )
    report = json.loads(done.stdout)
    assert report["loaded"] > 10
    assert "msze.downloadhandlers" in report["modules"] and "msze.spiders.parish" in report["modules"]
    heavy = [name for name in report["modules"] if name.split(".")[0] in HEAVY]
    assert heavy == []
