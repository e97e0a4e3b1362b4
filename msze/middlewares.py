"""Downloader middlewares: adapters over sniff.py (binary bodies), backoff.py (retry timing), charset.py."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import accumulate
from typing import Any
from urllib.parse import urljoin
from weakref import WeakKeyDictionary

import fake_useragent
from itemadapter import ItemAdapter, is_item
from scrapy import signals
from scrapy.downloadermiddlewares.retry import RetryMiddleware, get_retry_request
from scrapy.exceptions import IgnoreRequest, NotConfigured, StopDownload
from scrapy.http import Headers, HtmlResponse, Request, Response, TextResponse
from scrapy.responsetypes import responsetypes
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware
from scrapy.utils.httpobj import urlparse_cached
from scrapy.utils.misc import load_object
from scrapy.utils.response import response_status_message

from msze.crawling.backoff import retry_after, retry_delay
from msze.crawling.charset import correct_encoding
from msze.crawling.sniff import HEAD_SIZE, declared_charset, is_binary, is_pdf
from msze.crawling.tls import is_tls_version_failure, legacy_tls_hosts
from msze.optional import SwitchedOff
from msze.recrawl.changes import NOT_MODIFIED
from msze.recrawl.state import SET_ASIDE_WARNING, SharedRecrawl, shared_recrawl

logger = logging.getLogger(__name__)

# Content types that say nothing about the body (misconfigured servers send pages as octet-stream).
_UNTYPED = (b"", b"application/octet-stream", b"application/unknown", b"binary/octet-stream")
PDF_TYPES = (b"application/pdf", b"application/x-pdf")  # what servers send PDFs as (besides _UNTYPED)
PDF_META = "msze_pdf"  # request.meta: the request is for a PDF link (the spider's PDF budget and size cap)


def _load_objects(paths: list[Any]) -> tuple[type[Exception], ...]:
    return tuple(load_object(path) if isinstance(path, str) else path for path in paths)


class CharsetFallbackMiddleware:
    """Pages without a declared charset are decoded as UTF-8, windows-1250 or ISO-8859-2 (charset.py), not
    Scrapy's guess, so Polish letters come out right; so are pages whose declaration is wrong (UTF-8 declared
    over windows-1250 bytes, Latin-1 declared over Polish text). Stats: msze/charset/guessed/<encoding>,
    msze/charset/corrected/<encoding>."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> CharsetFallbackMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if not isinstance(response, TextResponse):
            return response
        declared = response._declared_encoding()
        encoding = correct_encoding(response.body, declared)
        if encoding is None:
            return response
        kind = "corrected" if declared else "guessed"
        self.crawler.stats.inc_value(f"msze/charset/{kind}/{encoding}")
        if declared:
            logger.info("Charset %s declared at %s, decoded as %s", declared, response.url, encoding)
        return response.replace(encoding=encoding)


@dataclass
class _Head:
    """The first bytes of a download being sniffed, and the charset its headers declare."""

    charset: str | None
    data: bytearray = field(default_factory=bytearray)


class BinarySniffMiddleware:
    """Drop binary bodies (videos, images served as text/html) and stop their transfer after the first bytes.

    On top of Scrapy's type detection (Content-Type, Content-Disposition, file name): a response Scrapy
    would not build as a TextResponse is dropped when its headers arrive; a text one is sniffed with
    sniff.is_binary() as soon as its first 1024 bytes arrive (`bytes_received`), and the download is
    stopped (`StopDownload`) when they look binary. Compressed bodies are sniffed after decompression.
    Dropped responses raise IgnoreRequest (the spider logs them at DEBUG). Stats: msze/binary_sniff/dropped,
    msze/binary_sniff/dropped/<reason>, msze/binary_sniff/stopped_early.
    With PDF_ENABLED a PDF passes, for the spider's PDF step: a PDF type (or any type for a PDF link,
    meta["msze_pdf"]) is not stopped at its headers, and a whole body that starts as a PDF passes
    (sniff.is_pdf, judged after decompression like any body) whatever type it came with.
    `request.meta["binary_sniff"] = False` turns it off for one request.
    """

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.pdfs = crawler.settings.getbool("PDF_ENABLED")
        self.stats = crawler.stats
        self._heads: WeakKeyDictionary[Request, _Head] = WeakKeyDictionary()
        crawler.signals.connect(self.headers_received, signal=signals.headers_received)
        crawler.signals.connect(self.bytes_received, signal=signals.bytes_received)

    @classmethod
    def from_crawler(cls, crawler: Any) -> BinarySniffMiddleware:
        if not crawler.settings.getbool("BINARY_SNIFF_ENABLED"):
            raise SwitchedOff(cls, "BINARY_SNIFF_ENABLED is off")
        return cls(crawler)

    def headers_received(self, headers: Any, body_length: Any, request: Request, spider: Any = None) -> None:
        if request.meta.get("binary_sniff") is False:
            return
        content_type = (headers.get(b"Content-Type") or b"").split(b";")[0].strip().lower()
        # responsetypes gives a plain Response whenever Content-Encoding is set: the type of a compressed
        # page is judged from its headers without the encoding (HttpCompressionMiddleware decodes it later).
        encoding = (headers.get(b"Content-Encoding") or b"").strip().lower()
        plain = headers
        if encoding:  # a copy without it (the response keeps its own headers for HttpCompressionMiddleware)
            plain = Headers(headers)
            plain.pop(b"Content-Encoding", None)
        response_class = responsetypes.from_args(headers=plain, url=request.url)
        if self.pdfs and (content_type in PDF_TYPES or request.meta.get(PDF_META)):
            return  # process_response checks that the (decoded) body is one
        # No type or a generic one: Scrapy decides from the body later (process_response sees its verdict).
        if content_type not in _UNTYPED and not issubclass(response_class, TextResponse):
            request.meta["_msze_binary"] = "content_type"
            raise StopDownload(fail=False)
        if encoding in (b"", b"identity"):  # compressed wire bytes: process_response sniffs the decoded body
            self._heads[request] = _Head(charset=declared_charset(plain.get(b"Content-Type")))

    def bytes_received(self, data: bytes, request: Request, spider: Any = None) -> None:
        head = self._heads.get(request)
        if head is None:
            return
        head.data += data[: HEAD_SIZE - len(head.data)]
        if len(head.data) < HEAD_SIZE:
            return
        del self._heads[request]
        if self.pdfs and is_pdf(bytes(head.data)):
            return
        if is_binary(bytes(head.data), head.charset):
            request.meta["_msze_binary"] = "sniffed"
            self.stats.inc_value("msze/binary_sniff/stopped_early")
            raise StopDownload(fail=False)

    def process_response(self, request: Request, response: Response) -> Response:
        self._heads.pop(request, None)
        reason = request.meta.pop("_msze_binary", None)
        if (
            300 <= response.status < 400
            or response.status == 204
            or request.meta.get("binary_sniff") is False
        ):
            return response  # a redirect, 304 or 204: no body that matters
        if not response.body and reason != "content_type":
            return response  # empty: nothing was transferred, nothing to drop
        if self.pdfs and reason is None and is_pdf(response.body[:HEAD_SIZE]):
            return response  # a PDF, whatever its type said: the spider's PDF step reads it
        if reason is None:
            if not isinstance(response, TextResponse):
                reason = "content_type"
            elif is_binary(response.body[:HEAD_SIZE], declared_charset(response.headers.get("Content-Type"))):
                reason = "sniffed"
        if reason is None:
            return response
        self.stats.inc_value("msze/binary_sniff/dropped")
        self.stats.inc_value(f"msze/binary_sniff/dropped/{reason}")
        logger.info("Dropped binary body (%s) at %s", reason, response.url)
        raise IgnoreRequest(f"binary body ({reason}): {response.url}")


class ExponentialBackoffMiddleware(RetryMiddleware):
    """Retry failed requests after 2^t seconds (t = failures in a row), capped by BACKOFF_MAX_WAIT, giving up
    after BACKOFF_REPEAT_LIMIT failures in a row; a Retry-After header on 429/503 is honoured (capped too).

    Retried: connection errors and timeouts (RETRY_EXCEPTIONS) and RETRY_HTTP_CODES (429, 5xx, 408). Takes
    RetryMiddleware's place in DOWNLOADER_MIDDLEWARES; with BACKOFF_ENABLED = False it is Scrapy's fixed
    retry. The retry itself is Scrapy's get_retry_request (the copy, `retry_times` = failures so far,
    RETRY_PRIORITY_ADJUST, retry/* stats, the give-up line at RETRY_GIVE_UP_LOG_LEVEL); only the wait before
    it is ours (crawling/backoff.py).
    The wait is an asyncio sleep: the reactor keeps serving other requests, and the site's transfer slot is
    free meanwhile (the waiting request still counts toward CONCURRENT_REQUESTS). Per-request meta:
    `dont_retry`, `backoff_max_wait`, `backoff_repeat_limit`. Stats: msze/backoff/retries,
    msze/backoff/gave_up, msze/backoff/retry_after, msze/backoff/reason/<reason>, msze/backoff/wait_seconds
    (and Scrapy's retry/count, retry/reason_count/<reason>, retry/max_reached).
    """

    def __init__(self, settings: Any) -> None:
        self.backoff_enabled = settings.getbool("BACKOFF_ENABLED")
        if not self.backoff_enabled:
            super().__init__(settings)  # NotConfigured when RETRY_ENABLED is off too
            return
        self.retry_http_codes = {int(x) for x in settings.getlist("RETRY_HTTP_CODES")}
        self.exceptions_to_retry = _load_objects(settings.getlist("RETRY_EXCEPTIONS"))
        self.max_wait = settings.getfloat("BACKOFF_MAX_WAIT")
        self.repeat_limit = settings.getint("BACKOFF_REPEAT_LIMIT")
        self.sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep  # tests put a fake clock here

    async def process_response(self, request: Request, response: Response) -> Request | Response:  # type: ignore[override]
        if not self.backoff_enabled:
            return super().process_response(request, response)
        if request.meta.get("dont_retry", False) or response.status not in self.retry_http_codes:
            return response
        wait = None
        if response.status in (429, 503):
            wait = retry_after(response.headers.get(b"Retry-After"))
        reason = response_status_message(response.status)
        retry = await self._backoff(request, f"http_{response.status}", reason, wait)
        return retry or response

    async def process_exception(self, request: Request, exception: Exception) -> Request | Response | None:  # type: ignore[override]
        if not self.backoff_enabled:
            return super().process_exception(request, exception)
        if request.meta.get("dont_retry", False) or not isinstance(exception, self.exceptions_to_retry):
            return None
        return await self._backoff(request, type(exception).__name__, exception, None)

    async def _backoff(
        self, request: Request, key: str, reason: str | Exception, server_wait: float | None
    ) -> Request | None:
        """Scrapy's retry request, returned after our wait; None once BACKOFF_REPEAT_LIMIT failures in a row
        are reached (`key` names the msze/backoff/reason stat, `reason` Scrapy's retry stats)."""
        stats = self.crawler.stats
        stats.inc_value(f"msze/backoff/reason/{key}")
        repeat_limit = int(request.meta.get("backoff_repeat_limit", self.repeat_limit))
        max_wait = float(request.meta.get("backoff_max_wait", self.max_wait))
        retry = get_retry_request(
            request,
            spider=self.crawler.spider,
            reason=reason,
            max_retry_times=repeat_limit - 1,  # the repeat_limit-th failure in a row is the last
            logger=logger,
        )
        if retry is None:
            stats.inc_value("msze/backoff/gave_up")
            return None
        failures = retry.meta["retry_times"]
        if server_wait is not None:
            stats.inc_value("msze/backoff/retry_after")
        delay = retry_delay(failures, max_wait, server_wait)
        logger.info("Retrying %s in %.1f s (failure %d in a row: %s)", request.url, delay, failures, key)
        stats.inc_value("msze/backoff/retries")
        stats.inc_value("msze/backoff/wait_seconds", delay)
        await self.sleep(delay)
        return retry


class RedirectLoopMiddleware:
    """Log and drop redirect loops (A -> B -> A) and chains longer than REDIRECT_MAX_TIMES with one clear
    line, before RedirectMiddleware (600) drops them silently (into the dupefilter, or at DEBUG level).
    Stats: msze/redirect/loops, msze/redirect/too_many."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.max_redirects = crawler.settings.getint("REDIRECT_MAX_TIMES")

    @classmethod
    def from_crawler(cls, crawler: Any) -> RedirectLoopMiddleware:
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        location = response.headers.get(b"Location")
        if not (300 <= response.status < 400 and location) or request.meta.get("dont_redirect"):
            return response
        target = urljoin(request.url, location.decode("latin-1").strip())
        chain = [*request.meta.get("redirect_urls", []), request.url]
        if target.split("#")[0] in chain:
            self.crawler.stats.inc_value("msze/redirect/loops")
            logger.warning("Redirect loop: %s -> %s", " -> ".join(chain), target)
            raise IgnoreRequest(f"redirect loop at {request.url}")
        if request.meta.get("redirect_times", 0) >= request.meta.get("redirect_ttl", self.max_redirects):
            self.crawler.stats.inc_value("msze/redirect/too_many")
            logger.warning(
                "Redirect chain longer than %d hops dropped: %s -> ... -> %s",
                len(chain) - 1,
                chain[0],
                request.url,
            )
            raise IgnoreRequest(f"too many redirects at {request.url}")
        return response


class LegacyTLSRetryMiddleware:
    """Retry a host once with legacy TLS (tls.py) when its handshake failed on the protocol version: old
    parish hosting speaks only TLS 1.0, which OpenSSL refuses by default. Runs before the backoff (550), so
    such a failure is not retried in vain. Stats: msze/tls/legacy_retry, msze/tls/legacy_ok,
    msze/tls/legacy_failed. Off with LEGACY_TLS_RETRY = False."""

    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats
        self.hosts = legacy_tls_hosts(crawler)

    @classmethod
    def from_crawler(cls, crawler: Any) -> LegacyTLSRetryMiddleware:
        if not crawler.settings.getbool("LEGACY_TLS_RETRY"):
            raise SwitchedOff(cls, "LEGACY_TLS_RETRY is off")
        return cls(crawler)

    def process_response(self, request: Request, response: Response) -> Response:
        if request.meta.get("msze_legacy_tls"):
            self.stats.inc_value("msze/tls/legacy_ok")
        return response

    def process_exception(self, request: Request, exception: Exception) -> Request | None:
        url = urlparse_cached(request)
        if url.scheme != "https" or not is_tls_version_failure(str(exception)):
            return None
        if request.meta.get("msze_legacy_tls"):  # legacy TLS failed too
            self.stats.inc_value("msze/tls/legacy_failed")
            return None
        host = (url.hostname or "").lower()
        if host not in self.hosts:
            self.hosts.add(host)
            self.stats.inc_value("msze/tls/legacy_retry")
            logger.warning("TLS handshake with %s failed (%s): retrying with legacy TLS", host, exception)
        return request.replace(meta={**request.meta, "msze_legacy_tls": True}, dont_filter=True)


@cache
def browser_agents() -> tuple[tuple[str, ...], tuple[float, ...]]:
    """fake-useragent's browser User-Agents that pass its default filters (its public UserAgent attributes:
    browsers, os, platforms, min_version, min_percentage), with cumulative usage shares for random.choices.

    Built once per process: fake-useragent's own `.random` re-filters its ~7 000 entries on every call
    (~7 ms CPU a request, a quarter of a one-process crawl's CPU; benchmarks/bench_useragent.py).
    """
    ua = fake_useragent.UserAgent()
    chosen = [
        entry
        for entry in ua.data_browsers
        if entry.get("useragent")
        and entry["browser"] in ua.browsers
        and entry["os"] in ua.os
        and entry["type"] in ua.platforms
        and entry["browser_version_major_minor"] >= ua.min_version
        and entry["percent"] >= ua.min_percentage
    ]
    if not chosen:
        raise ValueError("fake-useragent: no browser passes its filters")
    shares = accumulate(float(entry["percent"] or 0.0) or 1e-6 for entry in chosen)
    return tuple(user_agent_of(entry) for entry in chosen), tuple(shares)


def user_agent_of(entry: dict[str, Any]) -> str:
    """The header value of a fake-useragent entry: one entry of its 2.2 data is wrapped in quotes."""
    return entry["useragent"].strip().strip('"')


class BrowserUserAgentMiddleware:
    """A real browser's User-Agent per request, drawn by usage share from browser_agents() (a request that
    has one keeps it). When fake-useragent's data cannot be loaded, every request gets USER_AGENT (a
    browser's): one warning, stat `msze/useragent/fixed`. scrapy-fake-useragent did this through its provider
    list, and pulled Faker into every install for a fallback that was never reached."""

    def __init__(self, agents: Sequence[str], cum_shares: Sequence[float], fixed: str) -> None:
        self.agents = tuple(agents)
        self.cum_shares = tuple(cum_shares)
        self.fixed = fixed

    @classmethod
    def from_crawler(cls, crawler: Any) -> BrowserUserAgentMiddleware:
        try:
            agents, shares = browser_agents()
        except Exception as exc:  # noqa: BLE001 - fake-useragent's data failing in any way: the fixed one
            logger.warning("fake-useragent's browsers did not load (%s): every request gets USER_AGENT", exc)
            crawler.stats.set_value("msze/useragent/fixed", 1)
            agents, shares = (), ()
        return cls(agents, shares, crawler.settings.get("USER_AGENT"))

    def random_user_agent(self) -> str:
        if not self.agents:
            return self.fixed
        return random.choices(self.agents, cum_weights=self.cum_shares)[0]

    def process_request(self, request: Request) -> None:
        request.headers.setdefault("User-Agent", self.random_user_agent())


# --- Many sites in one process ---


# --- Crawl budget and traps ---
class UserinfoMiddleware:
    """Requests never carry credentials: `http://user:pass@host/` becomes `http://host/` before robots.txt
    and the download (Twisted takes "user:pass@host" for the host name: a traceback, no page). Links lose
    their userinfo in links.canonical_url already; this catches start URLs and redirects (Location with
    credentials). The stripped request is scheduled again (so the duplicate filter sees it). Stat:
    msze/userinfo/dropped."""

    def __init__(self, crawler: Any) -> None:
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> UserinfoMiddleware:
        return cls(crawler)

    def process_request(self, request: Request) -> Request | None:
        parts = urlparse_cached(request)
        if "@" not in parts.netloc:
            return None
        url = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        self.stats.inc_value("msze/userinfo/dropped")
        logger.info("Credentials dropped from %s: requesting %s", request.url, url)
        return request.replace(url=url)


@dataclass
class _SiteBudget:
    started: float | None = None  # when the site's first request was downloaded (the middleware's clock)
    requested: set[bytes] = field(default_factory=set)  # fingerprints of the site's requests let through
    pdfs: set[bytes] = field(default_factory=set)  # fingerprints of the site's PDF downloads let through
    capped: set[str] = field(default_factory=set)  # caps reached (logged once each)


_BUDGETS: WeakKeyDictionary[Any, CrawlBudgetMiddleware] = WeakKeyDictionary()  # one per crawler


class CrawlBudgetMiddleware(BaseSpiderMiddleware):
    """A per-site budget, so a fan-out site, a trap or a slow server cannot hold a crawl for hours: at most
    PARISH_MAX_PAGES requests and PARISH_MAX_SECONDS of wall time (from the site's first download) per
    parish site, i.e. per request.meta["msze_site"] (a links.Site): per crawl in `parish`, per site in the
    one-process `parishes` spider. 0 turns a cap off; requests without a site (robots.txt) are not counted.

    One instance per crawler is both a spider middleware and a downloader middleware. On the spider's output
    it counts each site's new requests (duplicates are the scheduler's) and drops those beyond a cap before
    they are queued: a site with 300 new links a page never queues more than PARISH_MAX_PAGES (Scrapy takes
    ~1.6 ms to drop a queued request: 10 000 of them took 17 s). In the downloader it drops what is still
    queued, retried or redirected after the time cap (IgnoreRequest, logged by the spider at DEBUG). Each
    site's first drop per cap is logged as a warning. Stats: msze/budget/dropped/<max_pages|max_seconds>
    (requests), msze/budget/sites/<max_pages|max_seconds> (sites that reached the cap).
    """

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self.stats = crawler.stats
        self.fingerprint = crawler.request_fingerprinter.fingerprint
        self.max_pages = crawler.settings.getint("PARISH_MAX_PAGES")
        self.max_seconds = crawler.settings.getfloat("PARISH_MAX_SECONDS")
        self.max_pdfs = crawler.settings.getint("PDF_MAX_PER_SITE")
        self.clock: Callable[[], float] = time.monotonic  # tests put a fake clock here
        self.sites: dict[str, _SiteBudget] = {}  # by the site's start URL

    @classmethod
    def from_crawler(cls, crawler: Any) -> CrawlBudgetMiddleware:
        """The crawler's one instance (the spider and the downloader middleware share the budgets)."""
        settings = crawler.settings
        caps = ("PARISH_MAX_PAGES", "PARISH_MAX_SECONDS", "PDF_MAX_PER_SITE")
        if not any(settings.getfloat(name) for name in caps):
            raise NotConfigured(f"{', '.join(caps)} are 0")
        if crawler not in _BUDGETS:
            _BUDGETS[crawler] = cls(crawler)
        return _BUDGETS[crawler]

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        """Spider output and start requests: a site's new request beyond a cap is not queued."""
        site = request.meta.get("msze_site")
        if site is None:
            return request
        budget = self.sites.setdefault(site.start_url, _SiteBudget())
        if self._out_of_time(budget):
            self._drop(site.start_url, budget, "max_seconds")
            return None
        fingerprint = self.fingerprint(request)
        if fingerprint in budget.requested:
            return request  # a duplicate: the scheduler drops it, it is no page of the budget
        if self.max_pages and len(budget.requested) >= self.max_pages:
            self._drop(site.start_url, budget, "max_pages")
            return None
        budget.requested.add(fingerprint)
        return request

    def process_request(self, request: Request) -> None:
        """Downloader: a site's clock starts at its first download; past the time cap nothing goes out."""
        site = request.meta.get("msze_site")
        if site is None:
            return
        budget = self.sites.setdefault(site.start_url, _SiteBudget())
        if budget.started is None:
            budget.started = self.clock()
        if self._out_of_time(budget):
            self._drop(site.start_url, budget, "max_seconds")
            raise IgnoreRequest(f"crawl budget (PARISH_MAX_SECONDS) of {site.start_url}: {request.url}")
        if request.meta.get(PDF_META):
            self._take_pdf(site.start_url, budget, request)

    def _take_pdf(self, start_url: str, budget: _SiteBudget, request: Request) -> None:
        """A PDF download of the site's PDF budget (a retry of one already let through is free)."""
        fingerprint = self.fingerprint(request)
        if fingerprint in budget.pdfs:
            return
        if self.max_pdfs and len(budget.pdfs) >= self.max_pdfs:
            self.stats.inc_value("msze/pdf/skipped_budget")
            if "pdf" not in budget.capped:
                budget.capped.add("pdf")
                logger.warning(
                    "Site %s reached PDF_MAX_PER_SITE=%d: its further PDFs are skipped",
                    start_url,
                    self.max_pdfs,
                )
            raise IgnoreRequest(f"PDF budget (PDF_MAX_PER_SITE) of {start_url}: {request.url}")
        budget.pdfs.add(fingerprint)
        self.stats.inc_value("msze/pdf/followed")

    def _out_of_time(self, budget: _SiteBudget) -> bool:
        started = budget.started
        return bool(self.max_seconds) and started is not None and self.clock() - started > self.max_seconds

    def _drop(self, start_url: str, budget: _SiteBudget, cap: str) -> None:
        self.stats.inc_value(f"msze/budget/dropped/{cap}")
        if cap not in budget.capped:
            budget.capped.add(cap)
            self.stats.inc_value(f"msze/budget/sites/{cap}")
            limit = self.max_pages if cap == "max_pages" else self.max_seconds
            logger.warning(
                "Site %s reached PARISH_%s=%g: its further requests are dropped",
                start_url,
                cap.upper(),
                limit,
            )


# --- Re-crawl (msze/recrawl): conditional requests; a 304 becomes the stored page, so links are still
# followed and nothing is re-downloaded ---
NOT_MODIFIED_FLAG = "recrawl_not_modified"  # Response.flags of a 304 answered from the stored page
META_KEY = "msze_recrawl"  # request.meta: "conditional" (validators sent), "not_modified" (304 re-used)
DISABLE_META_KEY = "msze_recrawl_disabled"  # request.meta: never send validators for this request
PAGE_META_KEY = "msze_recrawl_page"  # request.meta of a 304: the stored page item (for the spider middleware)


def recrawl_state_path(crawler: Any, component: type) -> str:
    """RECRAWL_STATE; every re-crawl component is off (SwitchedOff: said at INFO) without it."""
    path = crawler.settings.get("RECRAWL_STATE")
    if not path:
        raise SwitchedOff(component, "RECRAWL_STATE is empty: no previous run to compare with")
    return path


def recrawl_shared(crawler: Any, component: type) -> SharedRecrawl:
    """The re-crawl state this crawler's middleware and pipeline share (msze/recrawl/state.py)."""
    shared = shared_recrawl(crawler, recrawl_state_path(crawler, component))
    if shared.state.set_aside_by_domain:
        logger.warning(SET_ASIDE_WARNING, shared.state.path)
        shared.state.set_aside_by_domain = False  # said once
    return shared


class ConditionalRequestMiddleware:
    """If-None-Match / If-Modified-Since from the previous run; a 304 becomes the stored page."""

    def __init__(self, crawler: Any, shared: SharedRecrawl) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.shared = shared

    @classmethod
    def from_crawler(cls, crawler: Any) -> ConditionalRequestMiddleware:
        if not crawler.settings.getbool("RECRAWL_CONDITIONAL"):
            raise SwitchedOff(cls, "RECRAWL_CONDITIONAL is off")
        return cls(crawler, recrawl_shared(crawler, cls))

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
        recrawl_state_path(crawler, cls)
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
