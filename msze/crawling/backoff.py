"""Retry timing: exponential backoff (the thesis's deon/Places rule) and the HTTP Retry-After header.

After t failures in a row wait 2^t seconds (2, 4, 8, ...), never more than the max wait; give up after the
repeat limit. ExponentialBackoffMiddleware adapts this to Scrapy.
"""

from __future__ import annotations

import email.utils
import re
from datetime import UTC, datetime


def backoff_delay(failures: int, max_wait: float) -> float:
    """Seconds to wait after `failures` failures in a row: 2^failures, capped by `max_wait` (0 for none)."""
    if failures <= 0:
        return 0.0
    return float(min(2.0 ** min(failures, 64), max_wait))


def should_give_up(failures: int, repeat_limit: int) -> bool:
    """True once `failures` in a row reach the repeat limit."""
    return failures >= repeat_limit


# The longest wait a Retry-After header is read as: a value beyond it (86400000, 10**400 seconds, a date in
# the year 9999) means "not today", and every caller caps the wait far lower anyway (BACKOFF_MAX_WAIT).
MAX_RETRY_AFTER = 365 * 86400.0
_DELTA_SECONDS = re.compile(r"[0-9]+")  # RFC 9110 delta-seconds: ASCII digits only ("²", "٣" are not)


def retry_after(header: str | bytes | None, now: datetime | None = None) -> float | None:
    """Seconds a Retry-After header asks to wait (delta-seconds or an HTTP date); None when absent or invalid.

    Whatever the server sends, this never raises: only ASCII digits are seconds, only an ASCII HTTP date is a
    date (a date in the past gives 0); "", "-5", "1e999", "²" or garbage are no Retry-After (the caller's
    normal backoff applies). The result is at most MAX_RETRY_AFTER.
    """
    if header is None:
        return None
    if isinstance(header, bytes):
        header = header.decode("latin-1")
    value = header.strip(" \t")
    if _DELTA_SECONDS.fullmatch(value):
        return min(float(value), MAX_RETRY_AFTER)  # float() of digits never raises (10**400 is inf)
    if not value.isascii():  # email.utils reads Unicode digits as numbers too
        return None
    try:
        when = email.utils.parsedate_to_datetime(value)
        now = now or datetime.now(UTC)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - now).total_seconds()
    except (TypeError, ValueError, IndexError, OverflowError):  # no date, or one datetime cannot hold
        return None
    return min(max(0.0, seconds), MAX_RETRY_AFTER)


def retry_delay(failures: int, max_wait: float, retry_after_seconds: float | None = None) -> float:
    """The wait before the next attempt.

    The backoff delay, or longer when the server asked for it (Retry-After); never more than `max_wait`.
    """
    delay = backoff_delay(failures, max_wait)
    if retry_after_seconds is not None:
        delay = max(delay, retry_after_seconds)
    return float(min(delay, max_wait))
