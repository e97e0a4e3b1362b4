"""The `parishes` spider: many parish websites in one Scrapy process.

    scrapy crawl parishes -a urls=parishes.txt [-a depth=3] [-a max_pages=0]

For machines where 100 Python processes do not fit: one process, a high global CONCURRENT_REQUESTS, one or
two requests at a time per site (AutoThrottle keeps a delay per download slot, i.e. per site), and a
downloader-aware queue so one big site cannot starve the others. Everything per site comes from the
`parish` spider: the link decisions of crawling/links.py travel in request.meta["msze_site"], and each parish
(start URL) gets its own `<PAGES_DIR>/<parish>.jsonl` (crawling.links.pages_filename). This class only reads
the URL list and adds per-site limits.

The URL file has one start URL per line, optionally followed by whitespace and that site's depth limit
(`https://parafia.pl/ 2`); blank lines and `#` comments are skipped.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapy.http import HtmlResponse, Request

from msze.crawling.links import Site, is_valid_start_url
from msze.spiders.parish import ParishSpider
from msze.utils.urls import parish_url


@dataclass(frozen=True)
class SiteLimits:
    depth: int  # links followed from the start page at most (0 = start page only)
    max_pages: int  # pages requested for the site at most (0 = no limit)


@dataclass(frozen=True)
class StartLine:
    url: str
    depth: int | None  # None: the spider's default
    line: int


def parse_url_file(text: str) -> tuple[list[StartLine], list[str]]:
    """Start lines of a URL file, and one message per line that is not a start URL."""
    starts: list[StartLine] = []
    errors: list[str] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        url, depth = parts[0], None
        if len(parts) > 2 or (len(parts) == 2 and not parts[1].isdigit()):
            errors.append(f"line {number}: expected 'URL [DEPTH]', got {raw.strip()!r}")
            continue
        if len(parts) == 2:
            depth = int(parts[1])
        if not is_valid_start_url(url):
            errors.append(f"line {number}: not a start URL: {url!r}")
            continue
        starts.append(StartLine(url, depth, number))
    return starts, errors


class ParishesSpider(ParishSpider):
    name = "parishes"
    custom_settings = {
        # Many sites at once, few requests per site: the per-site (per-slot) limit is the politeness.
        "CONCURRENT_REQUESTS": 128,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 2,
        # Schedule by how busy each site's slot is, so one large site does not fill the queue (broad crawls).
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        # Per-site depth is enforced here (SiteLimits); DepthMiddleware still records each request's depth.
        "DEPTH_LIMIT": 0,
        "REACTOR_THREADPOOL_MAXSIZE": 20,  # DNS lookups for thousands of hosts
        "LANGUAGE_ENABLED": True,  # one copy of the language model serves every site here
        "LOG_LEVEL": "INFO",
    }

    def __init__(
        self,
        urls: str | None = None,
        depth: str | int | None = None,
        max_pages: str | int | None = 0,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        super().__init__(None, *args, **kwargs)
        self.urls_file = urls
        self.default_depth = int(depth) if depth not in (None, "") else None
        self.max_pages = int(max_pages or 0)
        self.limits: dict[str, SiteLimits] = {}  # start URL -> its limits
        self.requested: dict[str, set[str]] = {}  # start URL -> URLs requested so far (for max_pages)

    @classmethod
    def check_arguments(cls, urls: str | None = None, **kwargs: Any) -> str | None:
        """The error message for bad spider arguments (checked by `scrapy crawl` first), else None."""
        if not urls:
            return "parishes spider: give the URL list, -a urls=FILE (one start URL per line)"
        path = Path(urls)
        if not path.is_file():
            return f"parishes spider: URL file {urls!r} not found"
        starts, _ = parse_url_file(path.read_text(encoding="utf-8", errors="replace"))
        if not starts:
            return f"parishes spider: no start URL in {urls!r} (one http(s) URL per line)"
        for name in ("depth", "max_pages"):
            value = kwargs.get(name)
            if value not in (None, "") and not str(value).isdigit():
                return f"parishes spider: -a {name}= must be a whole number, got {value!r}"
        return None

    def _inc(self, key: str) -> None:
        self.crawler.stats.inc_value(f"msze/parishes/{key}")

    async def start(self) -> AsyncIterator[Request]:
        self.check_browser()
        if not self.urls_file or not Path(self.urls_file).is_file():
            self.logger.error("No URL file: give -a urls=FILE (one parish start URL per line)")
            self._inc("bad_url_file")
            return
        starts, errors = parse_url_file(Path(self.urls_file).read_text(encoding="utf-8", errors="replace"))
        for message in errors:
            self.logger.error("%s: %s (skipped)", self.urls_file, message)
            self._inc("bad_start_url")
        default_depth = (
            self.default_depth if self.default_depth is not None else self.settings.getint("PARISHES_DEPTH")
        )
        max_pages = self.max_pages or self.settings.getint("PARISHES_MAX_PAGES_PER_SITE")
        roots: set[str] = set()
        for start in starts:
            site = self.start_site(start.url)
            if site is None:
                continue
            root = parish_url(start.url) or start.url
            if root in roots:
                # The same parish twice (www. or not, a tracking parameter) would be crawled and stored twice.
                # Parishes sharing a host (a portal's ?id=N) or a domain (*.opoka.org.pl) are different
                # parishes, each with its own <PAGES_DIR>/<parish>.jsonl.
                self.logger.warning("Start URL %s: parish %s is listed already; skipped", start.url, root)
                self._inc("duplicate_site")
                continue
            roots.add(root)
            self.limits[site.start_url] = SiteLimits(
                start.depth if start.depth is not None else default_depth, max_pages
            )
            self.requested[site.start_url] = {start.url}
            self._inc("sites")
            yield self.site_request(site, start.url)

    def follow_links(self, site: Site, response: HtmlResponse) -> Iterator[Request]:
        limits = self.limits.get(site.start_url)
        if limits is None:
            yield from super().follow_links(site, response)
            return
        if response.meta.get("depth", 0) >= limits.depth:
            self._inc("depth_limited")
            return
        requested = self.requested[site.start_url]
        for request in super().follow_links(site, response):
            if request.url in requested:
                continue  # the scheduler would drop it anyway; not a page against the limit
            if limits.max_pages and len(requested) >= limits.max_pages:
                self._inc("page_limited")
                continue
            requested.add(request.url)
            yield request
