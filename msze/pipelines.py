"""Item pipelines in ITEM_PIPELINES order: convert → template → filter → hours → rules → classify → store.

Each class is a thin adapter over a pure module (text.py, template.py, filters.py, hours.py, rules.py,
classifier.py); the decisions live there.
"""

from __future__ import annotations

import json  # Storage
from collections import OrderedDict  # Storage
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
    (a re-crawl replaces the parish's pages); PAGES_DIR empty turns the writer off. At most
    PAGES_MAX_OPEN_FILES files stay open (least recently written closed first, re-opened for appending).
    """

    def __init__(self, crawler: Any, pages_dir: str, max_open_files: int = 256) -> None:
        self.crawler = crawler
        self.pages_dir = Path(pages_dir)
        self.max_open_files = max(1, max_open_files)
        self.files: OrderedDict[str, IO[str]] = OrderedDict()  # least recently written first
        self.started: set[str] = set()  # domains whose file this crawl has truncated already

    @classmethod
    def from_crawler(cls, crawler: Any) -> ParishJsonlWriterPipeline:
        from scrapy.exceptions import NotConfigured

        pages_dir = crawler.settings.get("PAGES_DIR")
        if not pages_dir:
            raise NotConfigured("PAGES_DIR is empty")
        return cls(crawler, pages_dir, crawler.settings.getint("PAGES_MAX_OPEN_FILES", 256))

    def path_for(self, domain: str) -> Path:
        return self.pages_dir / pages_filename(domain)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        domain = adapter.get("domain")
        if not domain:
            return item
        out = self.files.get(domain)
        if out is None:
            if len(self.files) >= self.max_open_files:  # many sites in one process (issue 7)
                self.files.popitem(last=False)[1].close()
            self.pages_dir.mkdir(parents=True, exist_ok=True)
            mode = "a" if domain in self.started else "w"
            out = self.files[domain] = self.path_for(domain).open(mode, encoding="utf-8")
            self.started.add(domain)
        else:
            self.files.move_to_end(domain)
        out.write(json.dumps(adapter.asdict(), ensure_ascii=False, default=str) + "\n")
        out.flush()
        self.crawler.stats.inc_value("msze/storage/pages")
        return item

    def close_spider(self) -> None:
        for out in self.files.values():
            out.close()
        self.files.clear()
