"""Crawl extensions: StatsFileExtension writes the final crawl stats as JSON (tests, batch jobs read it);
WarcExtension writes every downloaded HTTP exchange to a WARC file (adapter over msze/archive/warc.py);
MemoryTrimExtension gives freed memory back to the system during a long crawl (msze/utils/memory.py).

WarcExtension listens to `response_downloaded`, which the downloader sends before any downloader middleware
sees the response: redirects, errors and robots.txt are archived as the server sent them, and the body is
still Content-Encoded (WARC stores the payload as transferred; readers decode it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scrapy import signals
from twisted.internet import task

from msze.archive.warc import INFO_START_URL, WarcFile
from msze.optional import SwitchedOff
from msze.utils.memory import limit_arenas, trim_heap

if TYPE_CHECKING:
    from scrapy import Request, Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Response


class StatsFileExtension:
    """Write the crawl's stats to STATS_FILE (a JSON object) when the engine stops; off when it is empty."""

    def __init__(self, crawler: Any, path: str) -> None:
        self.crawler = crawler
        self.path = Path(path)

    @classmethod
    def from_crawler(cls, crawler: Any) -> StatsFileExtension:
        path = crawler.settings.get("STATS_FILE")
        if not path:
            raise SwitchedOff(cls, "STATS_FILE is not set")
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


class MemoryTrimExtension:
    """MALLOC_ARENA_MAX arenas from the start, and the heap trimmed every MEMORY_TRIM_INTERVAL seconds.

    Stats: msze/memory/trims, msze/memory/released_mb (what the trims gave back, summed). Created with the
    crawler, before the engine starts its threads, so the arena limit holds for all of them.
    """

    def __init__(self, crawler: Any, interval: float) -> None:
        self.crawler = crawler
        self.interval = interval
        self.loop: task.LoopingCall | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Any) -> MemoryTrimExtension:
        interval = crawler.settings.getfloat("MEMORY_TRIM_INTERVAL")
        if interval <= 0:
            raise SwitchedOff(cls, "MEMORY_TRIM_INTERVAL is 0")
        limit_arenas(crawler.settings.getint("MALLOC_ARENA_MAX"))
        return cls(crawler, interval)

    def spider_opened(self, spider: Spider | None = None) -> None:
        self.loop = task.LoopingCall(self.trim)
        self.loop.start(self.interval, now=False)

    def trim(self) -> None:
        stats = self.crawler.stats
        stats.inc_value("msze/memory/trims")
        stats.inc_value("msze/memory/released_mb", round(trim_heap() / 2**20, 1))

    def spider_closed(self, spider: Spider | None = None) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()


def _headers(headers: object) -> list[tuple[str, str]]:
    out = []
    for name, values in headers.items():  # type: ignore[attr-defined]
        for value in values:
            out.append((name.decode("latin-1"), value.decode("latin-1")))
    return out


def truncation(flags: list[str]) -> str | None:
    """WARC-Truncated for a response Scrapy did not receive whole: stopped on purpose (binary sniffing stops
    videos after their first bytes) or cut by the server."""
    if "download_stopped" in flags:
        return "unspecified"
    if "dataloss" in flags or "partial" in flags:
        return "disconnect"
    return None


class WarcExtension:
    """On when WARC_ENABLED; file WARC_FILE, else <WARC_DIR>/<host>.warc.gz named as the
    parish's pages file (links.pages_filename of the start URL)."""

    def __init__(self, crawler: Crawler) -> None:
        self.crawler = crawler
        settings = crawler.settings
        self.warc_dir = settings.get("WARC_DIR")
        self.warc_file = settings.get("WARC_FILE")
        self.writer: WarcFile | None = None
        crawler.signals.connect(self.response_downloaded, signal=signals.response_downloaded)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> WarcExtension:
        if not crawler.settings.getbool("WARC_ENABLED"):
            raise SwitchedOff(cls, "WARC_ENABLED is off")
        return cls(crawler)

    def _path_for(self, request: Request) -> str:
        if self.warc_file:
            return self.warc_file
        from msze.crawling.links import pages_filename

        spider = self.crawler.spider
        start_url = getattr(spider, "start_url", None) or getattr(spider, "url", None) or request.url
        name = pages_filename(start_url).removesuffix(".jsonl")
        return os.path.join(self.warc_dir, f"{name}.warc.gz")

    def response_downloaded(self, response: Response, request: Request, spider: Spider | None = None) -> None:
        stats = self.crawler.stats
        parish_start = str(getattr(self.crawler.spider, "start_url", "") or "")
        if self.writer is None:
            info = {INFO_START_URL: parish_start} if parish_start else {}
            self.writer = WarcFile(self._path_for(request), info=info)
        site = request.meta.get("msze_site")
        start_url = None if parish_start else getattr(site, "start_url", None)
        ip = getattr(response, "ip_address", None)
        try:
            self.writer.write_exchange(
                response.url,
                response.status,
                _headers(response.headers),
                response.body,
                method=request.method,
                request_headers=_headers(request.headers),
                request_body=request.body,
                protocol=getattr(response, "protocol", None) or "HTTP/1.1",
                ip_address=str(ip) if ip else None,
                truncated=truncation(response.flags),
                start_url=start_url,
            )
        except OSError as exc:  # a full disk must not stop the crawl; the stat tells the batch
            stats.inc_value("msze/warc/write_errors")
            self.crawler.spider.logger.error("WARC write failed for %s: %s", response.url, exc)
            return
        stats.inc_value("msze/warc/records", 2)

    def spider_closed(self, spider: Spider | None = None) -> None:
        if self.writer is not None:
            self.writer.close()
            self.crawler.stats.set_value("msze/warc/file", self.writer.path)
