"""The `parish` spider: crawl one parish website, one PageItem per text page (and per readable PDF).

    scrapy crawl parish -a url=https://parafia.example.pl/

Link decisions (same site, blacklist, calendars, non-page files) live in crawling/links.py; this class turns
responses into items and requests. Per-site state travels in request.meta["msze_site"] (a links.Site), so a
subclass can crawl many sites in one process by yielding `site_request(...)` for several start URLs.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, DownloadCancelledError, IgnoreRequest
from scrapy.http import HtmlResponse, Request, Response, TextResponse, XmlResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.defer import CancelledError
from twisted.python.failure import Failure

from msze.crawling.images import (
    CANDIDATE,
    SCHEDULE_CUE,
    is_schedule_page,
    judge_image,
    judged_first,
    pixels,
)
from msze.crawling.links import (
    Site,
    is_blacklisted,
    is_valid_start_url,
    load_blacklist,
    pdf_priority,
    script_targets,
)
from msze.crawling.sniff import HEAD_SIZE, is_pdf
from msze.extraction.jsshell import is_js_shell
from msze.extraction.ocr import clean_ocr_times, ocr_image, ocr_pdf_pages, ocr_workers
from msze.extraction.pdf import NO_TEXT, OK, PDF_CONTENT_TYPE, PdfText, pdf_to_text
from msze.items import PageItem
from msze.middlewares import DISABLE_META_KEY, PDF_META
from msze.utils.time import utc_now

SITE_META = "msze_site"
SHELL_META = "msze_js_shell"  # a rendering request: the shell response it renders


def _clean_text(text: str | None) -> str | None:
    text = re.sub(r"\s+", " ", text or "").strip()
    return text or None


def _fallback_link_texts(response: HtmlResponse) -> dict[str, str]:
    """Text for links without text: an image's alt/title or the link's title (old parish menus are images),
    and a frame's or iframe's title or name (a frame is a page of the site, named rather than labelled)."""
    texts: dict[str, str] = {}
    for anchor in response.xpath("//a[@href][not(normalize-space(string()))]"):
        parts = anchor.xpath(".//img/@alt | .//img/@title | @title").getall()
        text = _clean_text(" ".join(parts))
        if text:
            texts.setdefault(response.urljoin(anchor.attrib["href"].strip()), text)
    for frame in response.xpath("//frame[@src] | //iframe[@src]"):
        text = _clean_text(frame.attrib.get("title") or frame.attrib.get("name"))
        if text:
            texts.setdefault(response.urljoin(frame.attrib["src"].strip()), text)
    return texts


def _script_links(response: HtmlResponse) -> Iterator[tuple[str, str | None]]:
    """(URL, link text) for menu items that navigate by script: onclick handlers and javascript: links."""
    for element in response.xpath("//*[@onclick] | //a[starts-with(normalize-space(@href), 'javascript:')]"):
        code = " ".join(element.xpath("@onclick | @href").getall())
        text = _clean_text(" ".join(element.xpath(".//text()").getall())) or _clean_text(
            element.attrib.get("title")
        )
        for target in script_targets(code):
            yield response.urljoin(target), text


class ParishSpider(scrapy.Spider):
    name = "parish"

    def __init__(self, url: str | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.start_url = (url or "").strip()
        # All links and frames, the decision is links.Site.decide's (deny_extensions=() so .pdf links get
        # counted there). Framesets and iframes hold whole pages on old parish sites.
        self.link_extractor = LinkExtractor(
            deny_extensions=(), unique=True, tags=("a", "area", "frame", "iframe"), attrs=("href", "src")
        )

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> ParishSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        spider.blacklist = load_blacklist(settings.get("DOMAIN_BLACKLIST_FILE") or None)
        spider.max_queries_per_path = settings.getint("LINKS_MAX_QUERIES_PER_PATH")
        spider.follow_pdfs = settings.getbool("PDF_ENABLED")
        spider.pdf_max_bytes = settings.getint("PDF_MAX_BYTES")
        spider.pdf_max_pages = settings.getint("PDF_MAX_PAGES")
        spider.ocr_enabled = settings.getbool("OCR_ENABLED")
        spider.ocr_max_per_site = settings.getint("OCR_MAX_PER_SITE")
        spider.ocr_max_images_per_page = settings.getint("OCR_MAX_IMAGES_PER_PAGE")
        # OCR_CONCURRENCY Tesseract children at once (settings.py says why)
        spider.ocr_slots = asyncio.Semaphore(ocr_workers(settings.getint("OCR_CONCURRENCY")))
        # site start URL -> {image URL: (site, page URL, words)}; sites whose pages gave a Sunday Mass
        spider.ocr_candidates: dict[str, dict[str, tuple[Site, str, str]]] = {}
        spider.sunday_sites: set[str] = set()
        if spider.ocr_enabled:
            crawler.signals.connect(spider.note_sunday, signal=signals.item_scraped)
            crawler.signals.connect(spider.request_images, signal=signals.spider_idle)
        spider.js_max_per_site = settings.getint("JS_RENDER_MAX_PER_SITE")
        spider.js_timeout = settings.getfloat("JS_RENDER_TIMEOUT")
        spider.js_browser = settings.getdict("PLAYWRIGHT_LAUNCH_OPTIONS").get("executable_path")
        spider.js_rendered = {}  # start URL -> renderings requested
        return spider

    @classmethod
    def check_arguments(cls, url: str | None = None, **kwargs: Any) -> str | None:
        """The error message for bad spider arguments (used by `scrapy crawl` before the crawl), else None."""
        if not is_valid_start_url(url or ""):
            return f"parish spider: not a start URL: {url!r}; give -a url=http(s)://... e.g. -a url=https://parafia.example.pl/"
        return None

    @classmethod
    def check_settings(cls, settings: Any) -> str | None:
        """The error message for unusable settings (a blacklist file that cannot be read), else None."""
        path = settings.get("DOMAIN_BLACKLIST_FILE")
        if path:
            try:
                load_blacklist(path)
            except (OSError, UnicodeDecodeError) as error:
                return f"DOMAIN_BLACKLIST_FILE {path!r} cannot be read: {error}"
        return None

    # --- building requests ------------------------------------------------------------------------------
    def make_site(self, start_url: str) -> Site:
        return Site(
            start_url,
            blacklist=self.blacklist,
            max_queries_per_path=self.max_queries_per_path,
            follow_pdfs=self.follow_pdfs,
        )

    def site_request(
        self,
        site: Site,
        url: str,
        previous_url: str | None = None,
        button_text: str | None = None,
        **meta: Any,
    ) -> Request:
        """A request for a page of `site`; start requests have no previous_url."""
        return Request(
            url,
            callback=self.parse,
            errback=self.on_error,
            meta={
                SITE_META: site,
                "msze_previous_url": previous_url,
                "msze_button_text": button_text,
                "msze_start": previous_url is None,
                **meta,
            },
        )

    def pdf_request(self, site: Site, url: str, previous_url: str, button_text: str | None) -> Request:
        """A request for a PDF link: cut at PDF_MAX_BYTES (Scrapy's download_maxsize), counted against the
        site's PDF budget (CrawlBudgetMiddleware), links that name Masses or announcements first."""
        request = self.site_request(site, url, previous_url, button_text, **{PDF_META: True})
        if self.pdf_max_bytes:
            request.meta["download_maxsize"] = self.pdf_max_bytes
        return request.replace(priority=pdf_priority(url, button_text))

    def _inc(self, key: str) -> None:
        self.crawler.stats.inc_value(f"msze/parish/{key}")

    async def start(self) -> AsyncIterator[Request]:
        self.check_browser()
        if not is_valid_start_url(self.start_url):
            self.logger.error(
                "Not a start URL: %r. Give an http(s) URL: scrapy crawl parish -a url=https://parafia.example.pl/",
                self.start_url,
            )
            self.crawler.stats.set_value("msze/parish/bad_start_url", 1)
            return
        site = self.start_site(self.start_url)
        if site is not None:
            yield self.site_request(site, self.start_url)

    def start_site(self, url: str) -> Site | None:
        """The Site of a start URL, or None (logged and counted) when the URL is on a blacklisted domain."""
        if is_blacklisted(url, self.blacklist):
            self.logger.error("Start URL %s is on a blacklisted domain; not crawled", url)
            self._inc("start_blacklisted")
            return None
        return self.make_site(url)

    # --- responses ------------------------------------------------------------------------------------------
    def parse(self, response: Response) -> Iterable[PageItem | Request] | AsyncIterator[PageItem]:
        """A page of the site, by what it is. A PDF is read by an async generator (its text and a scan's
        OCR in a thread), which Scrapy iterates as it does a plain one; HTML keeps the synchronous path."""
        site: Site = response.meta[SITE_META]
        if not self.admit(site, response):
            return ()
        if self.follow_pdfs and is_pdf(response.body[:HEAD_SIZE]):
            return self.parse_pdf(site, response)
        if not isinstance(response, TextResponse) or isinstance(response, XmlResponse):
            self._inc("dropped/not_text")
            return ()
        if isinstance(response, HtmlResponse) and self.render_shell(site, response):
            return ()
        return self.parse_page(site, response)

    def admit(self, site: Site, response: Response) -> bool:
        """Whether a response is the site's: a start URL redirected to a blacklisted host, or a page
        redirected off the site, is not (logged and counted)."""
        if response.meta.get("msze_start"):
            learnt = site.learn_redirect(response.url)
            if learnt:
                self.logger.info(
                    "Start URL %s redirected to %s: following %s too", site.start_url, response.url, learnt
                )
                self._inc("redirect_domains")
            if is_blacklisted(response.url, self.blacklist):
                self.logger.error(
                    "Start URL %s redirected to blacklisted %s; not crawled", site.start_url, response.url
                )
                self._inc("start_blacklisted")
                return False
        elif not site.is_same_site(response.url):
            # A page of the site redirected elsewhere (a Facebook page, a hosting provider's notice).
            self.logger.info(
                "Dropped %s: redirected off the site from %s", response.url, response.request.url
            )
            self._inc("dropped/offsite_redirect")
            return False
        return True

    def parse_page(self, site: Site, response: TextResponse) -> Iterator[PageItem | Request]:
        self._inc("pages")
        yield self.page_item(site, response, html=response.text)
        if isinstance(response, HtmlResponse):
            yield from self.follow_links(site, response)
            if self.ocr_enabled:
                self.collect_images(site, response)

    # --- pages built by JavaScript (docs/crawling.md) -------------------------------------------------------
    def check_browser(self) -> None:
        """A missing browser is a warning, and the crawl goes on reading shells as they are."""
        if self.js_max_per_site and self.js_browser and not os.access(self.js_browser, os.X_OK):
            self.logger.warning(
                "No browser at %s (PLAYWRIGHT_LAUNCH_OPTIONS executable_path): pages built by JavaScript are "
                "read without their text; scripts/setup.sh installs chromium",
                self.js_browser,
            )
            self.js_max_per_site = 0
            self.crawler.stats.set_value("msze/js/no_browser", 1)

    def render_shell(self, site: Site, response: HtmlResponse) -> bool:
        """Whether a JavaScript shell was sent to the browser (then its rendering is the page, or the shell
        itself when the rendering fails): msze/js/shells, rendered, skipped_budget."""
        if response.meta.get(SHELL_META) is not None:
            self.crawler.stats.inc_value("msze/js/rendered")
            return False
        reason = is_js_shell(response.text)
        if reason is None:
            return False
        self.crawler.stats.inc_value("msze/js/shells")
        self.crawler.stats.inc_value(f"msze/js/shells/{reason}")
        if not self.js_max_per_site:
            return False
        if self.js_rendered.get(site.start_url, 0) >= self.js_max_per_site:
            self.crawler.stats.inc_value("msze/js/skipped_budget")
            return False
        self.js_rendered[site.start_url] = self.js_rendered.get(site.start_url, 0) + 1
        self.logger.info("JavaScript shell (%s) at %s: rendering it in the browser", reason, response.url)
        # engine.crawl, not a yield: the rendering is the same page, at its depth, not a new link of the site
        self.crawler.engine.crawl(self.render_request(response))
        return True

    def render_request(self, shell: HtmlResponse) -> Request:
        timeout_ms = self.js_timeout * 1000
        return shell.request.replace(
            url=shell.url,
            dont_filter=True,
            errback=self.on_render_error,
            meta={
                **shell.meta,
                SHELL_META: shell,
                DISABLE_META_KEY: True,  # the browser is to load the page, not a 304
                "playwright": True,
                "playwright_page_goto_kwargs": {"wait_until": "networkidle", "timeout": timeout_ms},
                "download_timeout": self.js_timeout,
            },
        )

    def on_render_error(self, failure: Failure) -> Iterator[PageItem | Request]:
        """A rendering that failed (timeout, browser crash): the shell is the page, as without a browser."""
        shell: HtmlResponse = failure.request.meta[SHELL_META]
        self.logger.warning("Rendering %s failed: %s", shell.url, failure.getErrorMessage())
        self.crawler.stats.inc_value("msze/js/render_failed")
        yield from self.parse_page(shell.meta[SITE_META], shell)

    def page_item(self, site: Site, response: Response, **fields: Any) -> PageItem:
        return PageItem(
            url=response.url,
            previous_url=response.meta.get("msze_previous_url"),
            start_url=site.start_url,
            domain=site.domain,
            depth=response.meta.get("depth", 0),
            button_text=response.meta.get("msze_button_text"),
            **fields,
            crawled_at=utc_now(),
            http_date=_header(response, b"Date"),
            last_modified=_header(response, b"Last-Modified"),
        )

    async def parse_pdf(self, site: Site, response: Response) -> AsyncIterator[PageItem]:
        """A PDF's text as a page (no HTML, content_type application/pdf) for the same page steps; an
        encrypted, broken or text-less PDF is a warning and msze/pdf/<encrypted|broken|no_text>. pdfminer
        (pure Python, up to seconds for a long file) runs in a thread, so the reactor keeps downloading."""
        pdf = await asyncio.to_thread(pdf_to_text, response.body, self.pdf_max_pages)
        confidence = None
        if pdf.status == NO_TEXT:
            pdf, confidence = await self.ocr_pdf(response.body, pdf)
        if pdf.pages:  # stats list outcomes, not zeros
            self.crawler.stats.inc_value("msze/pdf/pages", pdf.pages)
        if pdf.status != OK:
            self.logger.warning(
                "PDF %s (linked from %s) gives no text: %s, %s",
                response.url,
                response.meta.get("msze_previous_url"),
                pdf.status,
                pdf.error,
            )
            self.crawler.stats.inc_value(f"msze/pdf/{pdf.status}")
            return
        self.crawler.stats.inc_value("msze/pdf/read")
        ocr = {} if confidence is None else {"ocr_confidence": confidence}
        yield self.page_item(site, response, html="", text=pdf.text, content_type=PDF_CONTENT_TYPE, **ocr)

    async def ocr_pdf(self, body: bytes, pdf: PdfText) -> tuple[PdfText, float | None]:
        """A PDF without a text layer (a scan) read by OCR (pdftoppm, then Tesseract, seconds a page, in a
        thread as images are): OK with its text, else it stays NO_TEXT (msze/pdf/no_text); with the OCR
        confidence. msze/ocr/pdf_<status>."""
        if not self.ocr_enabled:
            return pdf, None
        async with self.ocr_slots:
            ocr = await asyncio.to_thread(ocr_pdf_pages, body, self.pdf_max_pages)
        self.crawler.stats.inc_value(f"msze/ocr/pdf_{ocr.status}")
        if ocr.status != OK:
            return pdf, None
        return PdfText(clean_ocr_times(ocr.text), pdf.pages, OK), ocr.confidence

    # --- images (OCR): collected per site, read at spider_idle for sites with no Sunday Mass ---------------
    def collect_images(self, site: Site, response: HtmlResponse) -> None:
        """The page's images that may be its schedule (crawling/images.py); others are counted by reason
        (msze/ocr/skipped_<logo|icon|gallery|small|no_cue>), and those over OCR_MAX_IMAGES_PER_PAGE as
        msze/ocr/skipped_page_budget."""
        images = response.xpath("//img[@src]")
        if not images:  # most pages: nothing to judge, and their text is not gathered again for it
            return
        names = [f"{img.attrib['src']} {img.attrib.get('alt', '')}" for img in images]
        judged = judged_first(names, self.ocr_max_images_per_page)
        if len(judged) < len(images):
            self.crawler.stats.inc_value("msze/ocr/skipped_page_budget", len(images) - len(judged))
            images = [images[i] for i in judged]
        title = " ".join(response.xpath("//title//text() | (//h1)[1]//text()").getall())
        # the whole text only for a page titled as the schedule: gathering it costs a big page ~50 MB and
        # seconds (tests/hostile.py's big_page)
        text = ""
        if SCHEDULE_CUE.search(title):
            texts = response.xpath("//body//text()[not(ancestor::script or ancestor::style)]").getall()
            text = " ".join(texts)
        schedule_page = is_schedule_page(title, text)
        candidates = self.ocr_candidates.setdefault(site.start_url, {})
        for img in images:
            url = response.urljoin(img.attrib["src"].strip())
            if url in candidates or not url.startswith(("http://", "https://")):
                continue
            words = _clean_text(
                " ".join(
                    img.xpath(
                        "@alt | @title | ancestor::figure[1]//figcaption//text()"
                        " | (preceding::*[self::h1 or self::h2 or self::h3 or self::h4])[last()]//text()"
                    ).getall()
                )
            )
            width, height = pixels(img.attrib.get("width")), pixels(img.attrib.get("height"))
            reason = judge_image(url, words or "", width, height, schedule_page)
            if reason != CANDIDATE:
                self.crawler.stats.inc_value(f"msze/ocr/skipped_{reason}")
                continue
            self.crawler.stats.inc_value("msze/ocr/candidates")
            candidates[url] = (site, response.url, words or "")

    def note_sunday(self, item: Any, **_: Any) -> None:
        """item_scraped: a page (after the pipelines) with a Sunday Mass spares its site the OCR."""
        for hour in item.get("hours") or []:
            sunday = "sun" in (hour.get("days") or []) or hour.get("day") == "sunday"
            if hour.get("label") == "mass" and sunday:
                self.sunday_sites.add(item.get("start_url"))
                return

    def request_images(self) -> None:
        """spider_idle: every page is done; the candidate images of each site whose pages gave no Sunday
        Mass are requested (OCR_MAX_PER_SITE at most, msze/ocr/skipped_budget beyond); a site with one is
        counted msze/ocr/skipped_has_sunday."""
        scheduled = 0
        for start_url, candidates in self.ocr_candidates.items():
            if not candidates:
                continue
            if start_url in self.sunday_sites:
                self.crawler.stats.inc_value("msze/ocr/skipped_has_sunday", len(candidates))
            else:
                todo = list(candidates.items())
                keep = todo[: self.ocr_max_per_site] if self.ocr_max_per_site else todo
                if len(todo) > len(keep):
                    self.crawler.stats.inc_value("msze/ocr/skipped_budget", len(todo) - len(keep))
                for url, (site, page_url, words) in keep:
                    request = self.site_request(site, url, page_url, words or None, binary_sniff=False)
                    self.crawler.engine.crawl(request.replace(callback=self.parse_image))
                    scheduled += 1
            candidates.clear()
        if scheduled:
            raise DontCloseSpider

    async def parse_image(self, response: Response) -> AsyncIterator[PageItem]:
        """An image's OCR text as a page (content_type image/..., ocr_confidence): msze/ocr/read, or
        msze/ocr/<no_text|broken|no_tesseract> with a warning. Tesseract runs in a thread (a second or more
        an image): the crawl goes on meanwhile, and OCR_CONCURRENCY images are read at once."""
        site: Site = response.meta[SITE_META]
        async with self.ocr_slots:
            ocr = await asyncio.to_thread(ocr_image, response.body)
        if ocr.status != OK:
            self.logger.warning("Image %s gives no text: %s, %s", response.url, ocr.status, ocr.error)
            self.crawler.stats.inc_value(f"msze/ocr/{ocr.status}")
            return
        self.crawler.stats.inc_value("msze/ocr/read")
        kind = _header(response, b"Content-Type") or ""
        content_type = kind.split(";")[0].strip().lower() if kind.startswith("image/") else "image/unknown"
        text = clean_ocr_times(ocr.text)
        yield self.page_item(
            site, response, html="", text=text, content_type=content_type, ocr_confidence=ocr.confidence
        )

    def follow_links(self, site: Site, response: HtmlResponse) -> Iterator[Request]:
        fallback_texts = _fallback_link_texts(response)
        links = [
            (link.url, _clean_text(link.text) or fallback_texts.get(link.url))
            for link in self.link_extractor.extract_links(response)
        ]
        seen = {url for url, _ in links}
        for url, text in _script_links(response):
            if url not in seen:
                seen.add(url)
                self.crawler.stats.inc_value("msze/links/script")
                links.append((url, text))
        for link_url, text in links:
            url, reason = site.decide(link_url)
            self.crawler.stats.inc_value(f"msze/links/{reason}")
            if reason == "pdf":
                yield self.pdf_request(site, url, response.url, text)
            elif url is not None:
                yield self.site_request(site, url, previous_url=response.url, button_text=text)

    def on_error(self, failure: Failure) -> None:
        """A page that failed (HTTP error, timeout, closed connection, dropped binary): log it, go on."""
        request = failure.request
        if failure.check(HttpError):
            status = failure.value.response.status
            self.logger.warning(
                "HTTP %s at %s (linked from %s)", status, request.url, request.meta.get("msze_previous_url")
            )
            self._inc(f"errors/http_{status}")
            return
        if request.meta.get(PDF_META) and failure.check(DownloadCancelledError, CancelledError):
            # Scrapy cancels a download over download_maxsize (PDF_MAX_BYTES): by Content-Length or on the way
            self.logger.warning(
                "PDF %s (linked from %s) is over PDF_MAX_BYTES=%d: not downloaded",
                request.url,
                request.meta.get("msze_previous_url"),
                request.meta.get("download_maxsize", 0),
            )
            self.crawler.stats.inc_value("msze/pdf/too_large")
            return
        if failure.check(IgnoreRequest):  # HttpError is one too, hence checked after it
            self.logger.debug("Ignored %s: %s", request.url, failure.value)
            return
        name = failure.type.__name__ if failure.type else "Error"
        self.logger.warning("%s at %s: %s", name, request.url, failure.getErrorMessage())
        self._inc(f"errors/{name}")


def _header(response: Response, name: bytes) -> str | None:
    """A response header as text (latin-1, as HTTP sends it), None when absent or empty."""
    value = response.headers.get(name)
    return value.decode("latin-1").strip() or None if value else None
