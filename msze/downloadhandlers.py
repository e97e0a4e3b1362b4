"""Download handlers: Scrapy's HTTP/1.1 handler for https with a second chance for legacy-TLS hosts."""

from __future__ import annotations

from typing import Any

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler

from msze.crawling.tls import LegacyTLSPolicy, legacy_tls_hosts


class LegacyTLSDownloadHandler(HTTP11DownloadHandler):
    """Scrapy's HTTP/1.1 handler for https, with LegacyTLSPolicy around its context factory."""

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self._contextFactory = LegacyTLSPolicy(self._contextFactory, legacy_tls_hosts(crawler))
