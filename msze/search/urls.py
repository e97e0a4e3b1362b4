"""Which URLs from the data the search app may publish: absolute http(s) URLs only.

Websites and source pages come from the internet (Google Places, crawled links). A `javascript:`, `data:` or
relative URL must never become an href, a JSON-LD `url`/`sameAs` or an API field: the loader drops them (and
counts them), and every output goes through `safe_url` again for rows that an older loader stored.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_SPACE_OR_CONTROL = re.compile(r"[\s\x00-\x1f\x7f]")


def safe_url(value: object) -> str | None:
    """`value` (stripped) when it is an absolute http(s) URL with a host; None for anything else."""
    if not isinstance(value, str):
        return None
    value = value.strip()
    if not value or _SPACE_OR_CONTROL.search(value):
        return None  # urlsplit would quietly drop tabs and newlines; a URL has neither
    try:
        parts = urlsplit(value)
        host, _port = parts.hostname, parts.port  # .port raises ValueError for "http://a.pl:x/"
    except ValueError:  # "http://[::1" and the like
        return None
    return value if parts.scheme.lower() in ("http", "https") and host else None
