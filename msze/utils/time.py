"""The one timestamp format of msze's files and databases."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> str:
    """ISO 8601 UTC with seconds and a "Z" ("2026-12-01T09:30:00Z"): sorts as text, fromisoformat reads it."""
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
