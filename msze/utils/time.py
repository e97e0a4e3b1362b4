"""The one timestamp format of msze's files and databases, written and read in one place."""

from __future__ import annotations

from datetime import UTC, datetime


def format_timestamp(moment: datetime) -> str:
    """ISO 8601 UTC with seconds and a "Z" ("2026-12-01T09:30:00Z"): sorts as text, fromisoformat reads it."""
    return moment.astimezone(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def utc_now() -> str:
    """Now, in the one timestamp format."""
    return format_timestamp(datetime.now(UTC))


def parse_timestamp(value: object) -> datetime | None:
    """ISO 8601 ("Z", an offset, naive as UTC; WARC-Date's form too) -> aware UTC; None when unparsable.

    Timestamps come from files anyone may have edited, so a bad one is None, never an exception.
    """
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: "9999-12-31T23:00:00-02:00" is past year 9999 in UTC
        return None
