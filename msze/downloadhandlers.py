"""Download handlers: Scrapy's HTTP/1.1 handler with a second chance for legacy-TLS hosts, and a browser for
the pages built by JavaScript."""

from __future__ import annotations

import asyncio
from typing import Any

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.http import Request, Response

from msze.crawling.tls import LegacyTLSPolicy, legacy_tls_hosts


class BrowserDownloadHandler(HTTP11DownloadHandler):
    """http and https: Scrapy's HTTP/1.1 handler with LegacyTLSPolicy around its context factory; requests
    with meta["playwright"] (JavaScript shells) go to a browser (scrapy-playwright). Playwright is imported
    and started at the first such request, not with the crawl: most crawls meet no shell, and its import
    alone costs each crawl process ~10 MB (tests/hostile.py's MAX_RSS_MB)."""

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self._contextFactory = LegacyTLSPolicy(self._contextFactory, legacy_tls_hosts(crawler))
        self._browser: Any = None  # the ScrapyPlaywrightDownloadHandler, once started
        self._browser_lock = asyncio.Lock()

    async def download_request(self, request: Request) -> Response:
        if request.meta.get("playwright"):
            browser = await self._started_browser()
            return await browser.download_request(request)
        return await super().download_request(request)

    async def _started_browser(self) -> Any:
        async with self._browser_lock:
            if self._browser is None:
                from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

                browser = ScrapyPlaywrightDownloadHandler(self._crawler)  # engine_started is past: no launch
                await browser._launch()
                self._browser = browser
        return self._browser

    async def close(self) -> None:
        await super().close()
        if self._browser is not None:
            await self._browser.close()
