"""Item pipelines, in the order of ITEM_PIPELINES: convert → template → filter → hours → rules → classify → store.

Each class is a thin adapter over a pure module (text.py, template.py, filters.py, hours.py, rules.py,
classifier.py); the decisions live there.
"""

from __future__ import annotations

import json  # Storage
from pathlib import Path  # Storage
from typing import IO, Any  # Storage

from itemadapter import ItemAdapter  # Storage

from msze.links import pages_filename  # Storage

# --- Extraction (text, template, filter, hours, rules) ---------------------------------------------

# --- Classification --------------------------------------------------------------------------------

# --- Storage ---------------------------------------------------------------------------------------


class ParishJsonlWriterPipeline:
    """One JSONL file per parish, `<PAGES_DIR>/<domain>.jsonl`, one page a line, flushed per item.

    A crawl killed halfway keeps every page written so far. Files are truncated when first opened by a crawl
    (a re-crawl replaces the parish's pages); PAGES_DIR empty turns the writer off.
    """

    def __init__(self, crawler: Any, pages_dir: str) -> None:
        self.crawler = crawler
        self.pages_dir = Path(pages_dir)
        self.files: dict[str, IO[str]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> ParishJsonlWriterPipeline:
        from scrapy.exceptions import NotConfigured

        pages_dir = crawler.settings.get("PAGES_DIR")
        if not pages_dir:
            raise NotConfigured("PAGES_DIR is empty")
        return cls(crawler, pages_dir)

    def path_for(self, domain: str) -> Path:
        return self.pages_dir / pages_filename(domain)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        domain = adapter.get("domain")
        if not domain:
            return item
        out = self.files.get(domain)
        if out is None:
            self.pages_dir.mkdir(parents=True, exist_ok=True)
            out = self.files[domain] = self.path_for(domain).open("w", encoding="utf-8")
        out.write(json.dumps(adapter.asdict(), ensure_ascii=False, default=str) + "\n")
        out.flush()
        self.crawler.stats.inc_value("msze/storage/pages")
        return item

    def close_spider(self) -> None:
        for out in self.files.values():
            out.close()
        self.files.clear()
