"""The holy days, seasons and dated Masses of a parish schedule (msze/search/calendar.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from msze.search.calendar import (
    advent,
    easter,
    holy_days,
    in_season,
    lent,
    occurrences,
    rows_for,
    split_one_offs,
)

D = dt.date


@pytest.mark.parametrize(
    ("year", "sunday"),
    [(2000, D(2000, 4, 23)), (2019, D(2019, 4, 21)), (2024, D(2024, 3, 31)), (2025, D(2025, 4, 20)),
     (2026, D(2026, 4, 5)), (2027, D(2027, 3, 28)), (2038, D(2038, 4, 25))],
)  # fmt: skip
def test_easter_against_known_dates(year, sunday):
    assert easter(year) == sunday


def test_the_holy_days_of_obligation():
    days = holy_days(2025)
    assert days[D(2025, 6, 8)] == "Zesłanie Ducha Świętego"
    assert days[D(2025, 6, 19)] == "Boże Ciało"
    assert holy_days(2026)[D(2026, 6, 4)] == "Boże Ciało"
    assert {
        D(2025, 1, 1),
        D(2025, 1, 6),
        D(2025, 8, 15),
        D(2025, 11, 1),
        D(2025, 12, 25),
        D(2025, 12, 26),
    } <= set(days)
    assert D(2025, 4, 21) not in days  # Easter Monday is no holy day of obligation
    assert len(days) == 9


def test_advent_and_lent():
    assert advent(2025) == (D(2025, 11, 30), D(2025, 12, 24))
    assert advent(2022) == (D(2022, 11, 27), D(2022, 12, 24))  # Christmas on a Sunday
    assert advent(2023) == (D(2023, 12, 3), D(2023, 12, 24))  # Christmas on a Monday
    assert lent(2026) == (D(2026, 2, 18), D(2026, 4, 2))


@pytest.mark.parametrize(
    ("day", "season", "held"),
    [
        (D(2026, 7, 12), "summer", True),
        (D(2026, 9, 1), "summer", False),
        (D(2026, 7, 12), "not-summer", False),
        (D(2026, 1, 20), "school-year", True),
        (D(2026, 7, 20), "school-year", False),
        (D(2026, 12, 1), "advent", True),
        (D(2026, 12, 27), "advent", False),
        (D(2026, 1, 10), "12-20..01-15", True),  # over New Year
        (D(2026, 2, 1), "12-20..01-15", False),
        (D(2026, 3, 1), "pandemic", False),  # no dates to know it by
    ],
)
def test_seasons(day, season, held):
    assert in_season(day, season) is held


ROWS = [
    {"day": "sun", "time": "08:00"},
    {"day": "sun", "time": "11:00"},
    {"day": "sat", "time": "18:00", "vigil": True},
    {"day": "sat", "time": "07:00"},
    *({"day": d, "time": "18:00"} for d in ("mon", "tue", "wed", "thu", "fri")),
    {"day": "sun", "time": "20:00", "season": "summer"},
    {"day": "sun", "time": "09:30", "church": "Kaplica w Borkach"},
    {"day": "holiday", "time": "09:30", "church": "Kaplica w Borkach"},
    {"day": "holiday", "time": "10:00"},
]


def times(day: dt.date) -> list[tuple[str, str | None]]:
    return sorted((r["time"], r.get("church")) for r in rows_for(day, ROWS))


def test_a_holy_day_takes_the_holiday_times_not_the_weekday_ones():
    assert times(D(2026, 12, 1)) == [("18:00", None)]  # a Tuesday
    assert times(D(2026, 12, 25)) == [("09:30", "Kaplica w Borkach"), ("10:00", None)]  # Christmas, a Friday
    assert times(D(2026, 12, 5)) == [
        ("07:00", None),
        ("18:00", None),
    ]  # a Saturday: its morning and the vigil


def test_a_holy_day_without_holiday_times_takes_sunday_ones():
    rows = [r for r in ROWS if r["day"] != "holiday"]
    assert sorted(r["time"] for r in rows_for(D(2026, 8, 15), rows)) == ["08:00", "09:30", "11:00", "20:00"]


def test_occurrences_are_dated_soonest_first_with_one_offs():
    got = occurrences(
        ROWS, D(2026, 7, 11), D(2026, 7, 12), [{"date": "2026-07-12", "time": "15:00", "note": "x"}]
    )
    assert [(o.start.isoformat(), o.church) for o in got] == [
        ("2026-07-11T07:00:00+02:00", None),
        ("2026-07-11T18:00:00+02:00", None),
        ("2026-07-12T08:00:00+02:00", None),
        ("2026-07-12T09:30:00+02:00", "Kaplica w Borkach"),
        ("2026-07-12T11:00:00+02:00", None),
        ("2026-07-12T15:00:00+02:00", None),
        ("2026-07-12T20:00:00+02:00", None),  # the summer time, in July
    ]
    winter = occurrences(ROWS, D(2026, 12, 13), D(2026, 12, 13))
    assert [o.start.isoformat() for o in winter][0] == "2026-12-13T08:00:00+01:00"
    assert "20:00" not in {o.row["time"] for o in winter}


def test_one_offs_split_into_coming_undated_and_past():
    ones = [
        {"date": "2026-12-24", "time": "22:00"},
        {"date": "2026-10-18", "time": "13:00"},
        {"date": "2026-12-05", "time": "08:00"},  # today is still coming
        {"date": "12-25", "time": "00:00"},  # no year: not known to be past
        {"date": None, "time": "16:30"},
        {"date": "2026-10-16", "time": "17:00"},
    ]
    coming, undated, past = split_one_offs(ones, dt.date(2026, 12, 5))
    assert [o["date"] for o in coming] == ["2026-12-05", "2026-12-24"]
    assert [o["date"] for o in undated] == ["12-25", None]
    assert [o["date"] for o in past] == ["2026-10-18", "2026-10-16"]  # the latest first
