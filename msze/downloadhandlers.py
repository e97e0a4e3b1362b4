"""Download handlers: Scrapy's HTTP/1.1 handler for https with a second chance for legacy-TLS hosts, and the
same with a browser for the pages built by JavaScript."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy import Spider
from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.http import Request, Response
from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

from msze.crawling.tls import LegacyTLSPolicy, legacy_tls_hosts


class LegacyTLSDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 handler for https, with LegacyTLSPolicy around its context factory."""

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self._contextFactory = LegacyTLSPolicy(self._contextFactory, legacy_tls_hosts(crawler))


class BrowserDownloadHandler(ScrapyPlaywrightDownloadHandler):
    """http and https: Scrapy's HTTP/1.1 handler (legacy TLS as above), and a browser (scrapy-playwright) for
    requests with meta["playwright"] only. Playwright starts at the first such request, not with the crawl:
    most crawls meet no JavaScript shell and never start it."""

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self._contextFactory = LegacyTLSPolicy(self._contextFactory, legacy_tls_hosts(crawler))
        self._started = False
        self._start_lock = asyncio.Lock()

    async def _maybe_launch_in_thread(self) -> None:
        """Connected to engine_started by scrapy-playwright: the start waits for the first browser request."""

    async def _download_request(self, request: Request, spider: Spider | None = None) -> Response:
        async with self._start_lock:
            if not self._started:
                await self._launch()
                self._started = True
        return await super()._download_request(request, spider)
