"""Downloader middlewares: adapters over sniff.py (binary bodies), backoff.py (retry timing), charset.py."""

from __future__ import annotations

from typing import Any

from scrapy.http import Request, Response, TextResponse

from msze.charset import guess_encoding


class CharsetFallbackMiddleware:
    """Pages without a declared charset are decoded as UTF-8, windows-1250 or ISO-8859-2 (charset.py), not
    Scrapy's windows-1252 guess, so Polish letters come out right."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> CharsetFallbackMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if not isinstance(response, TextResponse) or response._declared_encoding():
            return response
        encoding = guess_encoding(response.body)
        self.crawler.stats.inc_value(f"msze/charset/guessed/{encoding}")
        return response.replace(encoding=encoding)


# --- Batch (issue 7) ---
