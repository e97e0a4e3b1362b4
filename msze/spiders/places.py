"""`scrapy crawl places`: find each parish's website through Google Places, resumably.

    GOOGLE_MAPS_API_KEY=... scrapy crawl places -a parishes=parishes.tsv -o places.tsv:tsv -o places.jsonl

    GOOGLE_MAPS_API_KEY=... scrapy crawl places -a churches=results.jsonl -o churches.tsv:tsv

Input: the deon output (TSV or JSONL). Per parish: Text Search "name street city", then "name city" when
nothing is found; the first result is taken (AMBIGUOUS when there were several). PLACES_API=new (default) asks
Places API (New) `places:searchText` with a field mask holding `websiteUri`: one request per parish;
PLACES_API=legacy runs the thesis's Text Search + Place Details. Everything goes through Scrapy requests (the
`googlemaps` client is blocking `requests`, wrong inside the reactor).

With `-a churches=` the input is a crawl's results.jsonl instead: each other church its site gives an address
for (`churches`) is looked up by "name address", then by the address alone, for its coordinates; `search load
--churches` places it there. At most PLACES_MAX_CHURCHES_PER_PARISH churches of one parish are looked up; a
line that is not a results object (torn, nested too deep, wrong types) is skipped and logged, and the lines
after it are still read.

Resume: parishes already in an existing local output file of FEEDS (use `-o`, which appends, not `-O`) are
skipped; the exporters flush every item, so a crash loses nothing answered. Quota exhausted (429
RESOURCE_EXHAUSTED after backoff, or OVER_QUERY_LIMIT after backoff) closes the spider cleanly
(finish_reason `quota_exhausted`); re-run the same command later. An invalid key stops at the first request
(finish_reason `invalid_api_key`, exit status 2). The key never reaches the log: it is redacted from every
record.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import gzip
import logging
import os
import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import scrapy
from scrapy import signals
from scrapy.exceptions import CloseSpider, NotConfigured
from scrapy.http import Response
from twisted.python.failure import Failure

from msze.crawling.backoff import backoff_delay, should_give_up
from msze.directory.deon_parser import read_records
from msze.directory.places_api import (
    API_LEGACY,
    API_NEW,
    BAD_REQUEST,
    FOUND,
    INVALID_KEY,
    OUTCOMES,
    QUOTA,
    TRANSIENT,
    ZERO,
    Answer,
    ChurchCap,
    Place,
    church_records,
    legacy_details_url,
    legacy_search_url,
    lookup_key,
    new_search_body,
    parse_legacy_details,
    parse_legacy_search,
    parse_new_search,
    place_record,
    queries_for,
    read_results,
    redact,
)
from msze.items import ChurchPlaceItem, PlaceItem
from msze.spiders.deon import BACKOFF_MIDDLEWARES

KEY_ENV = "GOOGLE_MAPS_API_KEY"
# Exit status of `scrapy crawl places` by finish reason (Scrapy itself only knows 0 and 1).
EXIT_STATUS = {"invalid_api_key": 2}
RESUMABLE_FORMATS = {"tsv", "jsonl", "jsonlines", "jl"}


class RedactFilter(logging.Filter):
    """Replaces the API key in every log record that passes the handler (legacy URLs carry it as ?key=)."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.secret:
            return True
        message = record.getMessage()
        if self.secret in message:
            record.msg = redact(message, self.secret)
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text and self.secret in record.exc_text:
            record.exc_text = redact(record.exc_text, self.secret)
        return True


def _exit_with(status: int) -> None:
    """Leave with `status` once Scrapy has finished (its `scrapy crawl` exits 0 after a clean close)."""
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


def output_files(feeds: dict[str, Any]) -> list[tuple[Path, bool]]:
    """Local files among FEEDS in a format this spider can read back: (path, overwrite)."""
    files = []
    for uri, options in feeds.items():
        options = options or {}
        if str(options.get("format", "")).lower() not in RESUMABLE_FORMATS or "%(" in uri:
            continue
        parts = urlsplit(uri)
        if parts.scheme in ("", "file") or len(parts.scheme) == 1:  # a plain path, file://, or C:\
            path = Path(parts.path if parts.scheme == "file" else uri)
            files.append((path, bool(options.get("overwrite", False))))
    return files


class PlacesSpider(scrapy.Spider):
    name = "places"
    custom_settings = {
        "DOWNLOADER_MIDDLEWARES": BACKOFF_MIDDLEWARES,
        "BACKOFF_ENABLED": True,
        # 429 RESOURCE_EXHAUSTED is retried after 2, 4, 8, 16, 32 s before the spider stops for the day.
        "BACKOFF_MAX_WAIT": 64.0,
        "BACKOFF_REPEAT_LIMIT": 6,
        "ITEM_PIPELINES": {},
        "ROBOTSTXT_OBEY": False,  # an API, not a site
        "AUTOTHROTTLE_ENABLED": False,  # Google's API is fast; quota errors are handled by backoff
        "CONCURRENT_REQUESTS": 4,  # a paid API: few in flight, so a quota stop wastes little
        "COOKIES_ENABLED": False,
        "DEPTH_LIMIT": 0,  # fallback, details and backed-off retries are follow-ups, not links to limit
        "FEED_EXPORTERS": {
            "tsv": "msze.exporters.TsvItemExporter",
            "jsonl": "msze.exporters.FlushingJsonLinesItemExporter",
            "jsonlines": "msze.exporters.FlushingJsonLinesItemExporter",
            "jl": "msze.exporters.FlushingJsonLinesItemExporter",
        },
    }

    def __init__(self, parishes: str | None = None, churches: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.parishes_file = parishes
        self.churches_file = churches
        self.stopping = False
        self._first_answer: asyncio.Future[None] | None = None
        self._filter: RedactFilter | None = None

    @classmethod
    def check_arguments(
        cls, parishes: str | None = None, churches: str | None = None, **kwargs: Any
    ) -> str | None:
        """Usage errors before the crawl starts (msze.commands.crawl calls this): exit status 2."""
        if bool(parishes) == bool(churches):
            return (
                "places: give the deon output with -a parishes=FILE (TSV or JSONL), or a crawl's results "
                "with -a churches=results.jsonl"
            )
        name, path = ("parishes", parishes) if parishes else ("churches", churches)
        if not Path(str(path)).is_file():
            return f"places: {name} file not found: {path}"
        if not os.environ.get(KEY_ENV, "").strip():
            return f"places: set the API key in the environment variable {KEY_ENV}"
        return None

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> PlacesSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        error = cls.check_arguments(spider.parishes_file, spider.churches_file)
        if error:
            raise NotConfigured(error)
        spider.key = os.environ.get(KEY_ENV, "").strip()
        spider.api = settings.get("PLACES_API").lower()
        if spider.api not in (API_NEW, API_LEGACY):
            raise NotConfigured(
                f"places: PLACES_API must be {API_NEW!r} or {API_LEGACY!r}, not {spider.api!r}"
            )
        spider.new_url = settings.get("PLACES_NEW_URL")
        spider.field_mask = settings.get("PLACES_FIELD_MASK")
        spider.search_url = settings.get("PLACES_LEGACY_TEXTSEARCH_URL")
        spider.details_url = settings.get("PLACES_LEGACY_DETAILS_URL")
        spider.language = settings.get("PLACES_LANGUAGE")
        spider.region = settings.get("PLACES_REGION")
        spider.max_wait = settings.getfloat("BACKOFF_MAX_WAIT")
        spider.repeat_limit = settings.getint("BACKOFF_REPEAT_LIMIT")
        spider.church_cap = ChurchCap(max(0, settings.getint("PLACES_MAX_CHURCHES_PER_PARISH")))
        spider.outputs = output_files(settings.getdict("FEEDS"))
        spider._filter = RedactFilter(spider.key)
        spider._install_filter()
        crawler.signals.connect(spider._install_filter, signal=signals.spider_opened)
        return spider

    # --- helpers ---------------------------------------------------------------------------------------

    def _install_filter(self) -> None:
        """Attach the redacting filter to every root handler (Scrapy re-installs its handler at start)."""
        assert self._filter is not None
        for handler in logging.getLogger().handlers:
            if self._filter not in handler.filters:
                handler.addFilter(self._filter)

    def _inc(self, key: str, count: int = 1) -> None:
        assert self.crawler.stats is not None
        self.crawler.stats.inc_value(f"msze/places/{key}", count)

    def _answered(self) -> None:
        if self._first_answer is not None and not self._first_answer.done():
            self._first_answer.set_result(None)

    def _stop(self, reason: str, message: str) -> None:
        """Close the spider once, with one clear message (answers still in flight end here silently)."""
        self._answered()
        if not self.stopping:
            self.stopping = True
            self.logger.error(redact(message, self.key))
        raise CloseSpider(reason)

    def done_keys(self) -> set[tuple[str, str, str]]:
        """Parishes already resolved (OK / AMBIGUOUS / NOT_FOUND) in the existing output files."""
        done: set[tuple[str, str, str]] = set()
        for path, overwrite in self.outputs:
            if overwrite:
                self.logger.warning(
                    "Output %s is overwritten (-O): no resume; use -o to append and resume", path
                )
                continue
            if path.is_file() and path.stat().st_size:
                done |= {lookup_key(r) for r in read_records(path) if r.get("status") in OUTCOMES}
        return done

    # --- requests --------------------------------------------------------------------------------------

    async def start(self) -> AsyncIterator[scrapy.Request]:
        done = self.done_keys()
        if done:
            self.logger.info("Resuming: %d parishes already resolved in the output are skipped", len(done))
        first = True
        records = self.church_lookups() if self.churches_file else read_records(self.parishes_file)
        for parish in records:
            if self.stopping:
                return
            key = lookup_key(parish)
            if not key[0]:
                self._inc("skipped_no_name")
                continue
            if not self.within_cap(parish):
                continue
            if key in done:
                self._inc("skipped_done")
                continue
            done.add(key)  # a duplicate input row is looked up once
            queries = queries_for(parish)
            self._inc("parishes")
            yield self.search_request(parish, queries, 0)
            if first:
                # One request alone first: an invalid key stops the crawl after a single call.
                first = False
                self._first_answer = asyncio.get_running_loop().create_future()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self._first_answer), timeout=600)

    def church_lookups(self) -> Iterator[dict[str, Any]]:
        """The church records of the results file (plain or .gz); a bad line or church is skipped, counted
        (msze/places/bad_lines, msze/places/bad_churches) and logged, and the rest is still read."""
        path = str(self.churches_file)
        number = 0

        def bad(kind: str, line: int, why: str) -> None:
            self._inc("bad_lines" if kind == "line" else "bad_churches")
            self.logger.warning("%s line %d: %s skipped: %s", path, line, kind, why)

        opener: Any = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            try:
                for number, result in read_results(f, lambda line, why: bad("line", line, why)):
                    yield from church_records([result], functools.partial(bad, "church", number))
            except (EOFError, zlib.error, gzip.BadGzipFile) as exc:  # a .gz cut short: the lines before count
                bad("line", number + 1, f"gzip stream cut short: {exc}")

    def within_cap(self, record: dict[str, Any]) -> bool:
        """PLACES_MAX_CHURCHES_PER_PARISH: a parish's churches beyond it are not looked up (counted
        msze/places/churches_over_cap; each parish cut is counted and logged once)."""
        if self.church_cap.admits(record):
            return True
        self._inc("churches_over_cap")
        start_url = str(record.get("start_url") or "")
        if self.church_cap.cut[start_url] == 1:
            self._inc("parishes_over_cap")
            self.logger.warning(
                "%s lists more than PLACES_MAX_CHURCHES_PER_PARISH=%d churches: the rest are not looked up",
                start_url,
                self.church_cap.limit,
            )
        return False

    def search_request(
        self, parish: dict[str, Any], queries: list[str], index: int, attempt: int = 0
    ) -> scrapy.Request:
        """The Text Search request for queries[index] in the configured flavour."""
        query = queries[index]
        kwargs = {"parish": parish, "queries": queries, "index": index, "attempt": attempt}
        meta = {"handle_httpstatus_all": True}
        if index:
            self._inc("fallback_queries")
        if self.api == API_NEW:
            return scrapy.Request(
                self.new_url,
                method="POST",
                body=new_search_body(query, self.language, self.region),
                headers={
                    "Content-Type": "application/json",
                    "X-Goog-Api-Key": self.key,
                    "X-Goog-FieldMask": self.field_mask,
                },
                callback=self.parse_new,
                errback=self.on_error,
                cb_kwargs=kwargs,
                meta=meta,
                dont_filter=True,
            )
        return scrapy.Request(
            legacy_search_url(self.search_url, query, self.key, self.language, self.region),
            callback=self.parse_legacy_search,
            errback=self.on_error,
            cb_kwargs=kwargs,
            meta=meta,
            dont_filter=True,
        )

    # --- callbacks -------------------------------------------------------------------------------------

    async def parse_new(self, response: Response, **kwargs: Any) -> AsyncIterator[Any]:
        self._answered()
        answer = parse_new_search(response.status, response.body)
        async for result in self.handle(answer, response, **kwargs):
            yield result

    async def parse_legacy_search(self, response: Response, **kwargs: Any) -> AsyncIterator[Any]:
        self._answered()
        answer = parse_legacy_search(response.status, response.body)
        async for result in self.handle(answer, response, **kwargs):
            yield result

    async def handle(
        self,
        answer: Answer,
        response: Response,
        parish: dict[str, Any],
        queries: list[str],
        index: int,
        attempt: int,
    ) -> AsyncIterator[Any]:
        """One search answer: an item, the fallback query, a details request, a retry, or a stop."""
        self._inc(f"answers/{answer.kind}")
        if answer.kind == FOUND:
            if parish.get("church"):  # its coordinates are asked for; the website is its parish's
                yield self.item(parish, answer.places, "", queries[index])
            elif self.api == API_NEW:
                yield self.item(parish, answer.places, answer.places[0].website or "", queries[index])
            else:
                yield self.details_request(parish, answer.places, queries[index])
        elif answer.kind == ZERO:
            if index + 1 < len(queries):
                yield self.search_request(parish, queries, index + 1)
            else:
                yield self.item(parish, [], "", queries[index])
        elif answer.kind == QUOTA:
            retry = not self.stopping and await self.backoff(response.status, attempt)
            if retry:
                yield self.search_request(parish, queries, index, attempt + 1)
            else:
                self._stop(
                    "quota_exhausted",
                    f"Places quota exhausted ({answer.message}); stopped cleanly. Run the same command again "
                    "later: parishes already in the output are skipped.",
                )
        elif answer.kind == INVALID_KEY:
            self._stop(
                "invalid_api_key",
                f"Places API refused the key in {KEY_ENV} ({answer.message}); nothing more is sent. "
                "Check the key and that the Places API is enabled for it.",
            )
        elif answer.kind == TRANSIENT:
            retry = await self.backoff(response.status, attempt)
            if retry:
                yield self.search_request(parish, queries, index, attempt + 1)
            else:
                self._failed(parish, answer.message)
        else:
            assert answer.kind == BAD_REQUEST
            self._inc("bad_request")
            self.logger.warning(
                "Places refused the query %r: %s", queries[index], redact(answer.message, self.key)
            )

    async def backoff(self, status: int, attempt: int) -> bool:
        """Wait 2^t s (capped) before retrying an API-level error the backoff middleware did not see.

        HTTP 429/5xx were already retried by ExponentialBackoffMiddleware, so they are final here; legacy
        OVER_QUERY_LIMIT / UNKNOWN_ERROR come as HTTP 200 and are retried here, up to BACKOFF_REPEAT_LIMIT.
        """
        failures = attempt + 1
        if status != 200 or should_give_up(failures, self.repeat_limit):
            return False
        delay = backoff_delay(failures, self.max_wait)
        self._inc("backoff_retries")
        await asyncio.sleep(delay)
        return not self.stopping

    def details_request(self, parish: dict[str, Any], places: list[Place], query: str) -> scrapy.Request:
        return scrapy.Request(
            legacy_details_url(self.details_url, places[0].place_id, self.key, self.language),
            callback=self.parse_legacy_details,
            errback=self.on_error,
            cb_kwargs={"parish": parish, "places": places, "query": query, "attempt": 0},
            meta={"handle_httpstatus_all": True},
            dont_filter=True,
        )

    async def parse_legacy_details(
        self, response: Response, parish: dict[str, Any], places: list[Place], query: str, attempt: int
    ) -> AsyncIterator[Any]:
        answer, website = parse_legacy_details(response.status, response.body)
        self._inc(f"details/{answer.kind}")
        if answer.kind in (FOUND, ZERO):
            yield self.item(parish, places, website, query)
        elif answer.kind == INVALID_KEY:
            self._stop("invalid_api_key", f"Place Details refused the key in {KEY_ENV} ({answer.message})")
        elif answer.kind in (QUOTA, TRANSIENT) and await self.backoff(response.status, attempt):
            request = self.details_request(parish, places, query)
            request.cb_kwargs["attempt"] = attempt + 1
            yield request
        elif answer.kind == QUOTA:
            self._stop(
                "quota_exhausted",
                f"Places quota exhausted in Place Details ({answer.message}); run again later",
            )
        else:
            self._failed(parish, answer.message)

    def item(self, parish: dict[str, Any], places: list[Place], website: str, query: str) -> PlaceItem:
        record = place_record(parish, places, website, query)
        self._inc(f"status/{record['status']}")
        return ChurchPlaceItem(**record) if record.get("church") else PlaceItem(**record)

    def _failed(self, parish: dict[str, Any], message: str) -> None:
        """Left out of the output, so the next run asks again."""
        self._inc("failed")
        self.logger.warning(
            "Places lookup failed for %s, %s: %s (will be retried on the next run)",
            parish.get("name"),
            parish.get("city"),
            redact(message, self.key),
        )

    def on_error(self, failure: Failure) -> Iterator[Any]:
        """A download failure after the middleware's backoff (refused, timeout): asked again next run."""
        self._answered()
        request = failure.request  # type: ignore[attr-defined]
        self._failed(request.cb_kwargs.get("parish", {}), f"{failure.type.__name__}: {failure.value}")
        return iter(())

    def closed(self, reason: str) -> None:
        status = EXIT_STATUS.get(reason)
        if status:
            atexit.register(_exit_with, status)
