"""Retry timing: exponential backoff (the thesis's deon/Places rule) and the HTTP Retry-After header.

After t failures in a row wait 2^t seconds (2, 4, 8, ...), never more than the max wait; give up after the
repeat limit. ExponentialBackoffMiddleware adapts this to Scrapy.
"""

from __future__ import annotations

import email.utils
from datetime import UTC, datetime


def backoff_delay(failures: int, max_wait: float) -> float:
    """Seconds to wait after `failures` failures in a row: 2^failures, capped by `max_wait` (0 for none)."""
    if failures <= 0:
        return 0.0
    return float(min(2.0 ** min(failures, 64), max_wait))


def should_give_up(failures: int, repeat_limit: int) -> bool:
    """True once `failures` in a row reach the repeat limit."""
    return failures >= repeat_limit


def retry_after(header: str | bytes | None, now: datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks to wait (delta-seconds or an HTTP date); None when absent or invalid.

    A date in the past gives 0.
    """
    if header is None:
        return None
    if isinstance(header, bytes):
        header = header.decode("latin-1")
    value = header.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    now = now or datetime.now(UTC)
    return max(0.0, (when - now).total_seconds())


def retry_delay(failures: int, max_wait: float, retry_after_seconds: float | None = None) -> float:
    """The wait before the next attempt.

    The backoff delay, or longer when the server asked for it (Retry-After); never more than `max_wait`.
    """
    delay = backoff_delay(failures, max_wait)
    if retry_after_seconds is not None:
        delay = max(delay, retry_after_seconds)
    return float(min(delay, max_wait))
