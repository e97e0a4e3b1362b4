"""`scrapy crawl deon`: the deon.pl parish directory, one ParishItem per parish.

Thin adapter over directory/deon.py: listing pages give name, city, voivodeship, diocese and decanate and the
link to the parish page, whose `.adres.adres2` + `div.row` gives the address lines. Pagination follows each
page's own "next" link. Requests go through ExponentialBackoffMiddleware (the thesis algorithm) instead of
Scrapy's RetryMiddleware.

    scrapy crawl deon -o parishes.tsv:tsv -o parishes.jsonl
    scrapy crawl deon -a start_url=http://127.0.0.1:8001/parafie-koscioly/ -a max_pages=3 -o sample.tsv:tsv
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy.http import Response
from twisted.python.failure import Failure

from msze.directory.deon_parser import ListingRow, parish_record, parse_address, parse_listing
from msze.items import ParishItem

# Exponential backoff replaces Scrapy's fixed-count retries (the thesis crawl did the same). The dict replaces
# the project's: the parish-site middlewares (random User-Agent, charset guess, binary sniff) are not needed.
BACKOFF_MIDDLEWARES: dict[str, int | None] = {
    "scrapy.downloadermiddlewares.retry.RetryMiddleware": None,
    "msze.middlewares.ExponentialBackoffMiddleware": 550,
}


class DeonSpider(scrapy.Spider):
    name = "deon"
    custom_settings = {
        "DOWNLOADER_MIDDLEWARES": BACKOFF_MIDDLEWARES,
        "BACKOFF_ENABLED": True,
        # deon is one site we need every page of: wait up to a minute between tries, give up after 8 in a row.
        "BACKOFF_MAX_WAIT": 64.0,
        "BACKOFF_REPEAT_LIMIT": 8,
        "ITEM_PIPELINES": {},  # the parish-page pipelines do not apply to directory items
        "DEPTH_LIMIT": 0,  # listing pages chain one after another: ~1 013 of them
    }

    def __init__(
        self, start_url: str | None = None, max_pages: str | int | None = None, **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._start_url_arg = start_url
        self._max_pages_arg = max_pages

    @classmethod
    def check_arguments(
        cls, start_url: str | None = None, max_pages: str | None = None, **kwargs: Any
    ) -> str | None:
        """Usage errors before the crawl starts (msze.commands.crawl calls this): exit status 2."""
        if start_url is not None and urlsplit(start_url).scheme not in ("http", "https"):
            return f"deon: start_url must be an http(s) URL, not {start_url!r}"
        if max_pages is not None and not str(max_pages).isdigit():
            return f"deon: max_pages must be a whole number >= 0, not {max_pages!r}"
        return None

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> DeonSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.start_url = spider._start_url_arg or settings.get("DEON_START_URL")
        spider.max_pages = (
            int(spider._max_pages_arg)
            if spider._max_pages_arg is not None
            else settings.getint("DEON_MAX_PAGES")
        )
        return spider

    def _inc(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"msze/deon/{key}", count)

    async def start(self) -> AsyncIterator[scrapy.Request]:
        yield scrapy.Request(self.start_url, callback=self.parse_listing, cb_kwargs={"page": 1})

    def parse_listing(self, response: Response, page: int) -> Iterator[scrapy.Request]:
        listing = parse_listing(response.text, response.url)
        self._inc("listing_pages")
        if not listing.rows:
            self._inc("empty_listing_pages")
            self.logger.warning("Listing page %s has no parish rows", response.url)
        for row in listing.rows:
            if row.missing_cells:
                self._inc("missing_cells", row.missing_cells)
                self.logger.info("Row %r on %s lacks %d cell(s)", row.name, response.url, row.missing_cells)
            yield scrapy.Request(
                row.url,
                callback=self.parse_parish,
                errback=self.parish_failed,
                cb_kwargs={"row": row},
            )
        if listing.next_url and (self.max_pages <= 0 or page < self.max_pages):
            yield response.follow(listing.next_url, callback=self.parse_listing, cb_kwargs={"page": page + 1})

    def parse_parish(self, response: Response, row: ListingRow) -> Iterator[ParishItem]:
        address = parse_address(response.text)
        if not address:
            self._inc("no_address")
            self.logger.warning("No address block on %s (%s)", response.url, row.name)
        self._inc("parishes")
        yield ParishItem(**parish_record(row, address, response.url))

    def parish_failed(self, failure: Failure) -> Iterator[ParishItem]:
        """The parish page failed even with backoff: keep the listing data, without the address."""
        request = failure.request  # type: ignore[attr-defined]
        row: ListingRow = request.cb_kwargs["row"]
        self._inc("detail_failed")
        self._inc("parishes")
        self.logger.warning(
            "Parish page %s failed (%s); kept the listing row without address", request.url, failure.value
        )
        yield ParishItem(**parish_record(row, [], request.url))
