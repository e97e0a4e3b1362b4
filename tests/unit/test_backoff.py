"""Retry timing: 2^t backoff capped by the max wait, the repeat limit, Retry-After parsing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msze.crawling.backoff import MAX_RETRY_AFTER, backoff_delay, retry_after, retry_delay, should_give_up


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
        ("²", None),  # str.isdigit() says yes, float() raises: a superscript two is no number of seconds
        ("٣", None),  # an Arabic-Indic three: not ASCII
        ("1e999", None),
        ("3.5", None),
        ("Mon, ٣0 Nov 2026 12:01:30 GMT", None),  # a date with an Arabic digit
        ("Mon, 30 Nov 99999 12:01:30 GMT", None),  # a year datetime cannot hold
        ("1" + "0" * 400, MAX_RETRY_AFTER),  # 10**400 s
        ("Fri, 31 Dec 9999 23:59:59 GMT", MAX_RETRY_AFTER),
        ("Mon, 01 Jan 0001 00:00:00 +2359", 0.0),  # before datetime's first UTC instant
        ("Sunday, 06-Nov-94 08:49:37 GMT", 0.0),  # RFC 850, long past
        ("Mon Nov 30 12:00:10 2026", 10.0),  # asctime
    ],
)
def test_retry_after(header: str | bytes | None, expected: float | None) -> None:
    assert retry_after(header, now=NOW) == expected


def test_retry_delay_honours_server_but_keeps_the_cap() -> None:
    assert retry_delay(1, max_wait=300) == 2.0
    assert retry_delay(1, max_wait=300, retry_after_seconds=30) == 30.0
    assert retry_delay(3, max_wait=300, retry_after_seconds=1) == 8.0  # never less than the backoff
    assert retry_delay(1, max_wait=10, retry_after_seconds=3600) == 10.0


_HEADER_VALUES = st.one_of(
    st.text(),
    st.binary(),
    st.integers(min_value=-(10**500), max_value=10**500).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.datetimes().map(lambda d: d.strftime("%a, %d %b %Y %H:%M:%S GMT")),
    st.builds(
        "{}{}".format,
        st.sampled_from(["", " ", "+", "-", "0x"]),
        st.text(alphabet="0123456789²³٣۳߃", min_size=1),
    ),
)


@given(_HEADER_VALUES)
def test_retry_after_never_raises_and_is_a_bounded_wait_or_none(header: str | bytes) -> None:
    seconds = retry_after(header, now=NOW)
    assert seconds is None or 0.0 <= seconds <= MAX_RETRY_AFTER
    text = (header.decode("latin-1") if isinstance(header, bytes) else header).strip(" \t")
    if text.isascii() and text.isdigit():  # delta-seconds (9 digits and more are over a year)
        assert seconds == (MAX_RETRY_AFTER if len(text) > 8 else min(float(text), MAX_RETRY_AFTER))
    elif seconds is not None:  # otherwise only an HTTP date is read
        assert text.isascii() and not text.lstrip("+-").isdigit()
    assert retry_delay(1, max_wait=8, retry_after_seconds=seconds) <= 8
