"""Crawl extensions: StatsFileExtension writes the final crawl stats as JSON (tests, batch jobs read it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scrapy import signals
from scrapy.exceptions import NotConfigured


class StatsFileExtension:
    """Write the crawl's stats to STATS_FILE (a JSON object) when the engine stops; off when it is empty."""

    def __init__(self, crawler: Any, path: str) -> None:
        self.crawler = crawler
        self.path = Path(path)

    @classmethod
    def from_crawler(cls, crawler: Any) -> StatsFileExtension:
        path = crawler.settings.get("STATS_FILE")
        if not path:
            raise NotConfigured("STATS_FILE is not set")
        extension = cls(crawler, path)
        crawler.signals.connect(extension.engine_stopped, signal=signals.engine_stopped)
        return extension

    def engine_stopped(self) -> None:
        stats = self.crawler.stats.get_stats()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(self.path.suffix + ".tmp")
        tmp.write_text(
            json.dumps(stats, default=str, ensure_ascii=False, indent=1, sort_keys=True), encoding="utf-8"
        )
        tmp.replace(self.path)
