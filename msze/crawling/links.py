"""Link-following decisions for a parish crawl: which site a URL belongs to and whether to follow it.

Plain functions (no crawler, no requests): the `parish` spider and the one-process multi-site mode
share them. What Scrapy and w3lib already have is theirs: the non-page extensions start from Scrapy's
IGNORED_EXTENSIONS, the blacklist test is Scrapy's url_is_from_any_domain, URLs are made safe by w3lib's
safe_url_string (as Scrapy's Request does); the session/tracking parameter stripping is ours.
A parish site is its start URL's host without "www." and that host's subdomains (``www.parafia.pl`` and
``parafia.pl`` are one site; parishes on one hosting domain are not), plus the host its start URL redirected
to. Never followed: blacklisted domains (and their subdomains), files that are not pages (.jpg, .mp4, ...;
.pdf too unless the site follows PDFs, `Site.follow_pdfs`), calendar-like URLs (date parameters or
date-shaped path ends), and more than a few query-string variants of one path (a calendar with 10 000 dates
must not become 10 000 requests).
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from urllib.parse import ParseResult, parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.utils.url import url_is_from_any_domain
from w3lib.url import safe_url_string

from msze.utils.urls import DROP_PARAM_RE as _DROP_PARAM_RE
from msze.utils.urls import SESSION_NAMES as _SESSION_NAMES
from msze.utils.urls import domain_of, file_stem, parish_url, url_host

# Extensions of files that are not HTML pages; links to them are never requested: Scrapy's list, plus files
# parish sites link that it lacks (text and data, feeds and calendars, fonts, more audio/video/archives),
# minus server scripts that answer with pages on old parish hosting (/cgi-bin/msze.py, /index.sh).
NON_PAGE_EXTENSIONS = (
    frozenset(IGNORED_EXTENSIONS)
    | frozenset(
        """
        rtf ppsx txt csv xml json atom ics vcf psd heic oga flac midi mkv mpeg ogv gz tgz
        woff woff2 ttf otf eot
        """.split()  # noqa: SIM905 (a word list reads better)
    )
) - {"py", "rb", "sh"}

# Query parameters that hold a date (calendar and event-list widgets: JEvents, The Events Calendar, ...).
_DATE_KEY_RE = re.compile(
    r"^(date|data|day|dzien|month|miesiac|mies|year|rok|week|tydzien|cal|calendar|kalendarz|"
    r"ical|tribe-bar-date|eventdate|event_date)$",
    re.IGNORECASE,
)
_DATE_VALUE_RE = re.compile(r"^\d{4}[-./]\d{1,2}([-./]\d{1,2})?$|^\d{1,2}[-./]\d{1,2}[-./]\d{4}$|^\d{8}$")
# Path ends that are a date: day/month archives (/2026/11/30/) and calendar pages (/kalendarz/2026-11-30).
# Dated pages elsewhere (/ogloszenia/2026-11-22.html: weekly announcements) are followed.
_DATE_DIR_RE = re.compile(r"/\d{4}/\d{1,2}(/\d{1,2})?/?$")
_DATE_END_RE = re.compile(r"/\d{4}[-/.]\d{1,2}([-/.]\d{1,2})?(\.\w+)?/?$")
_CALENDAR_WORD_RE = re.compile(r"kalendar|calendar|wydarzeni|event|terminarz|agenda", re.IGNORECASE)
# Session path parameters (/msze.jsp;jsessionid=A1B2.node1, /index.php;phpsessid=...), value up to the next
# ";", "/" or the query; other path parameters (;type=a) are kept.
_SESSION_PATH_PARAM_RE = re.compile(rf";(?:{_SESSION_NAMES})=[^/;?#]*", re.IGNORECASE)
# ASP.NET cookieless sessions: a path segment /(S(lit3py55t21z5v55vlm25s55))/ or /(X(1)S(...))/.
_ASPNET_SESSION_RE = re.compile(r"/\((?:[A-Za-z]\([^()/]*\))+\)(?=/|$)")

# Words of a PDF link (its text or URL) that speak of Masses, announcements, intentions or services: such a
# PDF is downloaded first (pdf_priority), before the site's other PDFs take its PDF budget.
_PDF_CUE_RE = re.compile(r"og[lł]osze|msz[aey]|porz[aą]d|intencj|nabo[zż]e[nń]", re.IGNORECASE)
PDF_PRIORITY_CUED = 10  # before pages (priority 0): the few PDFs that matter get the budget
PDF_PRIORITY_OTHER = -10  # after pages: the site's pages may still link a PDF that matters more

# Inline-script navigation of old parish menus: location(.href) = '...', location.assign/replace('...'),
# window.open('...'); only string literals (a variable cannot be followed).
_SCRIPT_NAV_RE = re.compile(
    r"""\blocation(?:\.href)?\s*=\s*(?P<q1>['"])(?P<assigned>[^'"]*)(?P=q1)"""
    r"""|\blocation\.(?:assign|replace)\s*\(\s*(?P<q2>['"])(?P<called>[^'"]*)(?P=q2)"""
    r"""|\bopen\s*\(\s*(?P<q3>['"])(?P<opened>[^'"]*)(?P=q3)"""
)


def site_host(url: str) -> str:
    """The host a parish site is rooted at: the URL's host without a leading "www." ("" without a host)."""
    host = url_host(url)
    if host.startswith("www.") and host.count(".") >= 2:
        host = host[4:]
    return host


def pages_filename(start_url: str) -> str:
    """The JSONL file name of a parish's pages, by its start URL: the host (and port) when the parish is its
    site's root ("parafia.pl.jsonl"), else host~<8 hex of its parish_url> ("portal.pl~1f2e3d4c.jsonl").
    Parishes sharing a host (a portal's `?id=N`) or a domain (sibling subdomains) never write one file, so
    two `scrapy crawl parish` runs into one PAGES_DIR cannot truncate each other's pages; characters unsafe
    in file names are replaced."""
    key = parish_url(start_url) or start_url
    netloc = re.match(r"[^/?#]*", key).group()
    safe = file_stem(netloc)
    if len(key) > len(netloc):
        safe += "~" + hashlib.sha1(key.encode("utf-8")).hexdigest()[:8]
    return f"{safe}.jsonl"


def is_valid_start_url(url: str) -> bool:
    """True for an absolute http(s) URL with a host name."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port  # raises ValueError on a bad port
    except (ValueError, AttributeError):
        return False
    del port
    return parts.scheme in ("http", "https") and bool(parts.hostname) and " " not in url.strip()


def load_blacklist(path: str | Path | None = None) -> frozenset[str]:
    """Blacklisted domains, one a line, '#' comments; the packaged list when `path` is None or empty."""
    if path:
        text = Path(path).read_text(encoding="utf-8")
    else:
        text = resources.files("msze.data").joinpath("domain-blacklist.txt").read_text(encoding="utf-8")
    domains = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip().lower().rstrip(".")
        if line:
            domains.add(line)
    return frozenset(domains)


def is_blacklisted(url_or_host: str, blacklist: Iterable[str]) -> bool:
    """True when the host is a blacklisted domain or a subdomain of one (m.facebook.com for facebook.com)."""
    host = url_host(url_or_host) if "/" in url_or_host else url_or_host.lower().rstrip(".")
    return bool(host) and _host_blacklisted(host, frozenset(blacklist))


@lru_cache(maxsize=4096)
def _host_blacklisted(host: str, blacklist: frozenset[str]) -> bool:
    """Scrapy's url_is_from_any_domain on the bare host (its netloc test would keep a port, credentials or a
    trailing dot); cached, as it walks the whole list and a crawl's links share a few hosts."""
    return url_is_from_any_domain(ParseResult("", host, "", "", "", ""), blacklist)


def non_page_extension(url: str) -> str | None:
    """The file extension when the URL's path names a non-page file ("pdf"), else None."""
    try:
        path = urlsplit(url).path
    except ValueError:
        return None
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    ext = name.rsplit(".", 1)[-1].lower()
    return ext if ext in NON_PAGE_EXTENSIONS else None


def pdf_priority(url: str, text: str | None = None) -> int:
    """The request priority of a PDF link: PDF_PRIORITY_CUED when its text or URL (percent-decoded) names
    Masses, announcements, intentions or services ("ogloszenia-2024-11-17.pdf", "Porządek Mszy"), else
    PDF_PRIORITY_OTHER."""
    words = f"{unquote(url)} {text or ''}"
    return PDF_PRIORITY_CUED if _PDF_CUE_RE.search(words) else PDF_PRIORITY_OTHER


def is_calendar_like(url: str) -> bool:
    """True for URLs of calendar days/months: date-like query parameters or a path that ends in a date."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if _DATE_VALUE_RE.match(value.strip()):
            return True
        if _DATE_KEY_RE.match(key) and re.fullmatch(r"-?\d{1,8}", value.strip()):
            return True
    if _DATE_DIR_RE.search(parts.path):
        return True
    return bool(_DATE_END_RE.search(parts.path) and _CALENDAR_WORD_RE.search(parts.path))


def canonical_url(url: str) -> str:
    """The URL made safe (w3lib's safe_url_string: percent-encoded, host lower-cased and IDNA-encoded, as
    Scrapy's Request makes it), without fragment, tracking/session parameters (query and path), default port
    and userinfo. Raises ValueError for a URL w3lib cannot parse (an invalid port or host).

    Session ids in the path (`;jsessionid=`, `;sid=`, `;phpsessid=`, ASP.NET's `/(S(...))/`) make one page a
    new URL per visit. Userinfo (`http://user:pass@host/`) is dropped: credentials found in a page are never
    sent nor stored, the page is fetched as any visitor sees it (a private area answers 401, an error count).
    The query keeps its order (w3lib's canonicalize_url would sort it; Scrapy's request fingerprint already
    does that for duplicates); userinfo is dropped here as Scrapy's strip_url keeps `:@`.
    """
    parts = urlsplit(safe_url_string(url.strip()))
    scheme = parts.scheme
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    netloc = host
    if port and not ((scheme == "http" and port == 80) or (scheme == "https" and port == 443)):
        netloc = f"{host}:{port}"
    path = _ASPNET_SESSION_RE.sub("", _SESSION_PATH_PARAM_RE.sub("", parts.path))
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        kept = [(k, v) for k, v in pairs if not _DROP_PARAM_RE.match(k)]
        if len(kept) != len(pairs):
            query = urlencode(kept)
    return urlunsplit((scheme, netloc, path or "/", query, ""))


def script_targets(code: str) -> list[str]:
    """The URLs an inline script (an onclick attribute, a javascript: link) navigates to, in order.

    Old parish sites build menus from `onclick="location.href='msze.html'"` and `window.open('x.html')`;
    these are links like any other. Targets that are script again (javascript:void(0)) are left out.
    """
    targets = []
    for match in _SCRIPT_NAV_RE.finditer(code):
        target = (match["assigned"] or match["called"] or match["opened"] or "").strip()
        if target and not target.lower().startswith("javascript:"):
            targets.append(target)
    return targets


def query_shape(url: str) -> str:
    """Path plus the query with digit runs masked: ?id=1 and ?id=2 have one shape, ?page=2&x=a another."""
    parts = urlsplit(url)
    return parts.path + "?" + re.sub(r"\d+", "#", parts.query)


@dataclass
class Site:
    """One parish site being crawled: the hosts it lives on and the per-site state of link decisions.

    A site is rooted at its start URL's host without "www." and covers that host's subdomains:
    `www.parafia.pl` covers parafia.pl, www.parafia.pl and kancelaria.parafia.pl, while
    `matulewicz.kielce.opoka.org.pl` does not reach the other parishes hosted on opoka.org.pl. `domain` (the
    registered domain of the start URL) names the parish's output file. Carried in request.meta so one process
    can crawl many sites.
    """

    start_url: str
    blacklist: frozenset[str] = frozenset()
    max_queries_per_path: int | None = None  # None: no cap (the spiders pass LINKS_MAX_QUERIES_PER_PATH)
    follow_pdfs: bool = False  # .pdf links are followed ("pdf") rather than refused ("extension")
    domain: str = ""
    hosts: set[str] = field(default_factory=set)
    _query_shapes: Counter[str] = field(default_factory=Counter, repr=False)  # query variants per path shape
    _queried: set[str] = field(default_factory=set, repr=False)  # canonical URLs with a query, counted once

    def __post_init__(self) -> None:
        self.domain = self.domain or domain_of(self.start_url)
        root = site_host(self.start_url)
        if root:
            self.hosts.add(root)

    def learn_redirect(self, final_url: str) -> str | None:
        """Add the host the start URL redirected to; returns it when new (and not blacklisted)."""
        root = site_host(final_url)
        if not root or self.is_same_site(final_url) or is_blacklisted(root, self.blacklist):
            return None
        self.hosts.add(root)
        return root

    def is_same_site(self, url: str) -> bool:
        host = url_host(url)
        return bool(host) and any(host == root or host.endswith("." + root) for root in self.hosts)

    def decide(self, url: str) -> tuple[str | None, str]:
        """Whether to follow a link: (canonical URL, "follow") or (None, reason).

        Reasons: "invalid", "scheme", "blacklisted", "offsite", "extension", "calendar", "query_cap"; a .pdf
        link the site follows is (canonical URL, "pdf"). Each distinct query string counts once against its
        path's cap.
        """
        try:
            return self._decide(url)
        except ValueError:  # e.g. "http://[broken/": urlsplit's invalid IPv6 host
            return None, "invalid"

    def _decide(self, url: str) -> tuple[str | None, str]:
        if urlsplit(url).scheme.lower() not in ("http", "https"):
            return None, "scheme"
        if is_blacklisted(url, self.blacklist):
            return None, "blacklisted"
        if not self.is_same_site(url):
            return None, "offsite"
        extension = non_page_extension(url)
        if extension and not (extension == "pdf" and self.follow_pdfs):
            return None, "extension"
        canonical = canonical_url(url)
        if is_calendar_like(canonical):
            return None, "calendar"
        cap = self.max_queries_per_path
        if cap is not None and urlsplit(canonical).query and canonical not in self._queried:
            shape = query_shape(canonical)
            if self._query_shapes[shape] >= cap:
                return None, "query_cap"
            self._query_shapes[shape] += 1
            self._queried.add(canonical)
        return canonical, "pdf" if extension else "follow"
