"""Re-crawl against the previous run: conditional requests and per-page / per-parish change records.

`ConditionalRequestMiddleware` (downloader) sends If-None-Match / If-Modified-Since with the validators the
previous run stored in RECRAWL_STATE; on a 304 it hands the spider the stored page as a 200 response, so links
are still followed and nothing is re-downloaded. `RecrawlPipeline` (after extraction, before storage) compares
each page's normalised text with the previous run (msze/changes.py): an unchanged or 304 page keeps its stored
hours, a page whose text shrank under half is flagged and keeps the previous hours; when the spider closes it
records per parish whether the Mass times changed. Both are off (NotConfigured) while RECRAWL_STATE is empty.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

from itemadapter import ItemAdapter, is_item
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse, Request, Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from msze.changes import (
    NEW,
    NOT_MODIFIED,
    SHRUNK,
    UNCHANGED,
    compare_page,
    masses_of,
    page_state,
    trusted_hours,
)
from msze.recrawl_state import RecrawlState
from msze.results import summarize

NOT_MODIFIED_FLAG = "recrawl_not_modified"  # Response.flags of a 304 answered from the stored page
META_KEY = "msze_recrawl"  # request.meta: "conditional" (validators sent), "not_modified" (304 re-used)
DISABLE_META_KEY = "msze_recrawl_disabled"  # request.meta: never send validators for this request
PAGE_META_KEY = "msze_recrawl_page"  # request.meta of a 304: the stored page item (for the spider middleware)


@dataclass
class _Shared:
    """What the middleware and the pipeline of one crawler share: the state and the fresh validators."""

    state: RecrawlState
    validators: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    not_modified: set[str] = field(default_factory=set)  # URLs answered 304 whose item is still to come


_SHARED: weakref.WeakKeyDictionary[Any, _Shared] = weakref.WeakKeyDictionary()


def _state_path(crawler: Any) -> str:
    """RECRAWL_STATE; every re-crawl component is off (NotConfigured) without it."""
    path = crawler.settings.get("RECRAWL_STATE")
    if not path:
        raise NotConfigured("RECRAWL_STATE is empty: no previous run to compare with")
    return path


def _shared(crawler: Any) -> _Shared:
    path = _state_path(crawler)
    shared = _SHARED.get(crawler)
    if shared is None:
        shared = _SHARED[crawler] = _Shared(RecrawlState(path))
    return shared


class ConditionalRequestMiddleware:
    """If-None-Match / If-Modified-Since from the previous run; a 304 becomes the stored page."""

    def __init__(self, crawler: Any, shared: _Shared) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.shared = shared

    @classmethod
    def from_crawler(cls, crawler: Any) -> ConditionalRequestMiddleware:
        if not crawler.settings.getbool("RECRAWL_CONDITIONAL", True):
            raise NotConfigured("RECRAWL_CONDITIONAL is off")
        return cls(crawler, _shared(crawler))

    def process_request(self, request: Request) -> None:
        if request.method != "GET" or request.meta.get(DISABLE_META_KEY):
            return None
        stored = self.shared.state.get_validators(request.url)
        if stored is None:
            return None
        etag, last_modified = stored
        if not etag and not last_modified:
            return None
        if etag:
            request.headers.setdefault("If-None-Match", etag)
        if last_modified:
            request.headers.setdefault("If-Modified-Since", last_modified)
        request.meta[META_KEY] = "conditional"
        self.stats.inc_value("msze/recrawl/conditional")
        return None

    def process_response(self, request: Request, response: Response) -> Request | Response:
        etag = _header(response, "ETag")
        last_modified = _header(response, "Last-Modified")
        if response.status == 304 and request.meta.get(META_KEY) == "conditional":
            stored = self.shared.state.get_page(request.url)
            html = (stored.page or {}).get("html") if stored else None
            if not html:
                # Validators without a stored page (a crawl killed between the two): fetch it for real.
                self.stats.inc_value("msze/recrawl/not_modified_unstored")
                retry = request.replace(dont_filter=True)
                retry.headers.pop("If-None-Match", None)
                retry.headers.pop("If-Modified-Since", None)
                retry.meta[DISABLE_META_KEY] = True
                retry.meta.pop(META_KEY, None)
                return retry
            self.stats.inc_value("msze/recrawl/not_modified")
            request.meta[META_KEY] = NOT_MODIFIED
            request.meta[PAGE_META_KEY] = stored.page
            self.shared.not_modified.add(response.url)
            # The body is the stored page, known to be text: the binary sniffer (which saw a 304 without a
            # Content-Type) has nothing to check.
            request.meta["binary_sniff"] = False
            self.shared.validators[request.url] = (etag or stored.etag, last_modified or stored.last_modified)
            return HtmlResponse(
                url=response.url,
                status=200,
                headers={"Content-Type": "text/html; charset=utf-8"},
                body=html.encode("utf-8"),
                encoding="utf-8",
                request=request,
                flags=[*response.flags, NOT_MODIFIED_FLAG],
            )
        if 200 <= response.status < 300 and (etag or last_modified):
            self.shared.validators[response.url] = (etag, last_modified)
            self.stats.inc_value("msze/recrawl/validators_seen")
        return response


class RecrawlSpiderMiddleware(BaseSpiderMiddleware):
    """Items of pages answered 304 get `change: "not_modified"` and the stored hours and masses, so the
    extraction pipelines skip them (they leave alone a not_modified item that already has its hours)."""

    @classmethod
    def from_crawler(cls, crawler: Any) -> RecrawlSpiderMiddleware:
        _state_path(crawler)
        return cls(crawler)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if response is None or response.meta.get(META_KEY) != NOT_MODIFIED or not is_item(item):
            return item
        stored = response.meta.get(PAGE_META_KEY) or {}
        adapter = ItemAdapter(item)
        if adapter.get("url") != stored.get("url", response.url) or stored.get("hours") is None:
            return item
        adapter["change"] = NOT_MODIFIED
        for key in ("hours", "masses", "language"):
            if key in stored and key in adapter.field_names():
                adapter[key] = stored[key]
        self.crawler.stats.inc_value("msze/recrawl/reused_hours")
        return item


def _header(response: Response, name: str) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1") if value else None


class RecrawlPipeline:
    """Change status per page, stored-hours re-use, state update; per-parish change records at the end."""

    def __init__(self, crawler: Any, shared: _Shared) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.shared = shared
        self.parishes: dict[str, dict[str, Any]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> RecrawlPipeline:
        return cls(crawler, _shared(crawler))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        url = adapter.get("url")
        if not url:
            return item
        text = adapter.get("text")
        if text is None and adapter.get("html"):
            from msze.text import html_to_text

            text = html_to_text(adapter["html"])
        current = page_state(text)
        stored = self.shared.state.get_page(url)
        stored_page = stored.page or {} if stored else {}
        change = compare_page(stored.state if stored else None, current)
        etag, last_modified = self.shared.validators.pop(url, (None, None))
        was_304 = url in self.shared.not_modified or adapter.get("change") == NOT_MODIFIED
        self.shared.not_modified.discard(url)
        hours = adapter.get("hours") or []
        previous_hours = stored_page.get("hours")
        if change in (UNCHANGED, SHRUNK) and previous_hours is not None:
            hours = trusted_hours(SHRUNK, hours, previous_hours)  # the stored hours, as extracted last time
        status = NOT_MODIFIED if was_304 and change == UNCHANGED else change
        adapter["change"] = status
        adapter["hours"] = hours
        adapter["masses"] = masses_of(hours)
        self.stats.inc_value(f"msze/recrawl/pages/{status}")
        if change != SHRUNK:  # a broken page must not become the reference for the next run
            page = {k: v for k, v in adapter.asdict().items() if k != "text"}
            self.shared.state.put_page(
                url,
                current,
                page,
                domain=adapter.get("domain"),
                etag=etag or (stored.etag if stored and status == NOT_MODIFIED else None),
                last_modified=last_modified
                or (stored.last_modified if stored and status == NOT_MODIFIED else None),
            )
        domain = adapter.get("domain") or ""
        parish = self.parishes.setdefault(
            domain, {"start_url": adapter.get("start_url") or url, "pages": [], "changes": {}}
        )
        parish["pages"].append({"url": url, "hours": hours})
        parish["changes"][url] = status
        return item

    def close_spider(self) -> None:
        for domain, parish in self.parishes.items():
            summary = summarize(parish["pages"], parish["start_url"], domain)
            page_changes = {u: (UNCHANGED if s == NOT_MODIFIED else s) for u, s in parish["changes"].items()}
            change = self.shared.state.record_parish(domain, summary["masses"], page_changes)
            self.stats.inc_value(f"msze/recrawl/parishes/{change.status}")
            if change.status != NEW:
                self.crawler.spider.logger.info(
                    "Recrawl %s: Mass times %s (added %s, removed %s, %d flagged pages)",
                    domain,
                    change.status,
                    change.added,
                    change.removed,
                    len(change.flagged_pages),
                )
        self.parishes.clear()
        self.shared.state.close()
