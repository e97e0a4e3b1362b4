"""Retry timing: 2^t backoff capped by the max wait, the repeat limit, Retry-After parsing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from msze.crawling.backoff import backoff_delay, retry_after, retry_delay, should_give_up


@pytest.mark.parametrize(
    ("failures", "expected"), [(0, 0.0), (1, 2.0), (2, 4.0), (3, 8.0), (8, 256.0), (9, 300.0)]
)
def test_backoff_is_two_to_the_failures_capped(failures: int, expected: float) -> None:
    assert backoff_delay(failures, max_wait=300) == expected


def test_backoff_huge_failure_counts_stay_capped() -> None:
    assert backoff_delay(10_000, max_wait=60) == 60.0


def test_repeat_limit() -> None:
    assert [should_give_up(t, 3) for t in (1, 2, 3, 4)] == [False, False, True, True]


NOW = datetime(2026, 11, 30, 12, 0, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("120", 120.0),
        (b"7", 7.0),
        (" 3 ", 3.0),
        ("Mon, 30 Nov 2026 12:01:30 GMT", 90.0),
        ("Mon, 30 Nov 2026 11:00:00 GMT", 0.0),  # in the past
        ("", None),
        (None, None),
        ("soon", None),
        ("-5", None),
    ],
)
def test_retry_after(header: str | bytes | None, expected: float | None) -> None:
    assert retry_after(header, now=NOW) == expected


def test_retry_delay_honours_server_but_keeps_the_cap() -> None:
    assert retry_delay(1, max_wait=300) == 2.0
    assert retry_delay(1, max_wait=300, retry_after_seconds=30) == 30.0
    assert retry_delay(3, max_wait=300, retry_after_seconds=1) == 8.0  # never less than the backoff
    assert retry_delay(1, max_wait=10, retry_after_seconds=3600) == 10.0
