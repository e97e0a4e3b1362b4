"""A URL's host and the domain a registry sold, computed one way everywhere (crawl, batch, search)."""

from __future__ import annotations

import ipaddress
import re
from functools import cache, lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from w3lib.url import safe_url_string

# Session ids (Java, PHP, osCommerce, Zen Cart, ColdFusion): the same page under a new URL per visit.
SESSION_NAMES = r"phpsessid|sid|jsessionid|sessionid|session_id|sessid|s_id|oscsid|zenid|cfid|cftoken"
# Tracking and session query parameters: the same page under another URL.
DROP_PARAM_RE = re.compile(rf"^(utm_\w+|fbclid|gclid|{SESSION_NAMES})$", re.IGNORECASE)


def host_of(url: str | None, *, drop_www: bool = True) -> str:
    """Lower-case host of a URL without a trailing dot (and without "www." unless `drop_www` is False);
    bare hosts ("parafia.pl") are accepted; "" when there is none. Raises ValueError where urlsplit does
    ("http://[::1": an invalid IPv6 host), so a caller can say which line was bad."""
    url = (url or "").strip()
    if not url:
        return ""
    if "//" not in url:
        url = "//" + url
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host.removeprefix("www.") if drop_www else host


def parish_url(url: str | None) -> str:
    """A parish's identity: its start URL normalised, "" when it is not an absolute http(s) URL.

    Parishes share hosts (a diocesan portal's `parafia.php?id=N`, sibling subdomains, sites on ports of one
    machine), so the identity is the whole address, not a host or a domain: the host lower-cased and
    IDNA-encoded without "www." and a trailing dot, a port other than the scheme's default, the path without
    its trailing "/", and the query (the part that tells a portal's parishes apart) without tracking and
    session parameters; no scheme (a site that moved to https is the same parish), no fragment, no userinfo.
    The crawl, the batch, the re-crawl state, `msze process` and `search load` all key a parish by this.
    """
    text = (url or "").strip()
    if not text.lower().startswith(("http://", "https://")) or any(c in text for c in " \t\r\n"):
        return ""
    try:
        parts = urlsplit(safe_url_string(text))
        port = parts.port
    except ValueError:  # an invalid port or IPv6 host
        return ""
    host = (parts.hostname or "").rstrip(".").removeprefix("www.")
    if not host:
        return ""
    if ":" in host:
        host = f"[{host}]"
    default = 80 if parts.scheme == "http" else 443
    netloc = f"{host}:{port}" if port and port != default else host
    query = parts.query
    if query:
        query = urlencode(
            [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if not DROP_PARAM_RE.match(k)]
        )
    return netloc + parts.path.rstrip("/") + (f"?{query}" if query else "")


def url_host(url: str) -> str:
    """The host of an absolute URL, "www." kept ("" for "mailto:", relative or broken ones)."""
    try:
        return host_of(url, drop_www=False) if "//" in url else ""
    except ValueError:  # "http://[broken/": an invalid IPv6 host
        return ""


def file_stem(name: str) -> str:
    """A host or URL as a file-name stem: characters unsafe in file names replaced by "_" ("_" for none);
    the pages file of a parish (crawling.links.pages_filename) and a batch job's files are named by it."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", name) or "_"


def domain_of(url: str) -> str:
    """The registered domain of a URL (PageItem.domain; the batch spreads a diocese's portal by it); "" when
    the URL has no host."""
    return registered_domain(url_host(url))


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


@cache
def _extractor() -> Any:
    """tldextract with its bundled public-suffix snapshot: never fetched, so results do not depend on the
    network. Private suffixes count (parafia.blogspot.com is its own site). Imported on first use: the
    per-parish batch wrappers import this module and stay small."""
    from tldextract import TLDExtract

    return TLDExtract(suffix_list_urls=(), include_psl_private_domains=True, cache_dir=None)


@lru_cache(maxsize=65536)
def registered_domain(host: str) -> str:
    """The registered domain of a host name: "www.parafia.katowice.pl" -> "parafia.katowice.pl".

    IP addresses and single-label hosts stay as they are; hosts under an unknown suffix (".test", ".local")
    keep their last two labels.
    """
    host = host.lower().rstrip(".")
    if not host or is_ip(host) or "." not in host:
        return host
    domain = _extractor()(host).top_domain_under_public_suffix
    return domain or ".".join(host.split(".")[-2:])
