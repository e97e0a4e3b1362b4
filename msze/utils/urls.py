"""A URL's host and the domain a registry sold, computed one way everywhere (crawl, batch, search)."""

from __future__ import annotations

import ipaddress
from functools import cache, lru_cache
from typing import Any
from urllib.parse import urlsplit


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


def url_host(url: str) -> str:
    """The host of an absolute URL, "www." kept ("" for "mailto:", relative or broken ones)."""
    try:
        return host_of(url, drop_www=False) if "//" in url else ""
    except ValueError:  # "http://[broken/": an invalid IPv6 host
        return ""


def domain_of(url: str) -> str:
    """The parish domain of a URL, as used for `<PAGES_DIR>/<domain>.jsonl`; "" when the URL has no host."""
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
