"""Dated Masses from a parish's weekly schedule: the holy days of obligation in Poland, the seasons, and the
start datetimes (Europe/Warsaw) of every Mass in a date range.

A schedule row is what results.jsonl's `schedule` (spread over its days) and the search database hold: `day`
(mon … sun, holiday), `time`, `church`, `season`, `vigil`. On a holy day the parish's `holiday` times apply,
its Sunday times when it gives none; weekday times do not. A season is a tag with its usual range (summer
July–August, the school year September–June, Advent and Lent from the liturgical calendar) or the date range
the site gave ("MM-DD..MM-DD"). A monthly row (`week` of the month, 1 … 4 or -1 the last, and `days`) is held
on that day of every month: "the first Friday".

Dates are checked again here, where they are used, not only by the loader: a database from an older loader
(or another one) may hold a parish page's typo "30.02.2026" as the one-off date "2026-02-30", or a season
"02-30..11-31". Such a one-off is no occurrence and such a season holds on no day; neither raises.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo

from msze.utils.vocabulary import SEASONS, WEEK, Span, season_spans

WARSAW = ZoneInfo("Europe/Warsaw")
# fixed holy days of obligation (and 26 December, kept with a holiday schedule by Polish parishes)
_FIXED_HOLY_DAYS = ((1, 1), (1, 6), (8, 15), (11, 1), (12, 25), (12, 26))
_DAYS_IN_MONTH = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)  # 29 February is a day of some years
_FULL_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)  # fromisoformat alone also takes "2026-W01-1"
_MONTH_DAY_RE = re.compile(r"(\d{2})-(\d{2})", re.ASCII)
_HHMM_RE = re.compile(r"(?:[01]\d|2[0-3]):[0-5]\d", re.ASCII)


MONTHS = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
           "października", "listopada", "grudnia"]  # fmt: skip


_WEEKDAYS_SHORT = ["pon.", "wt.", "śr.", "czw.", "pt.", "sob.", "niedz."]


def day_word(start: str, today: dt.date) -> str:
    """An occurrence's day as a phone shows it: "dziś", "jutro", else "sob. 12 grudnia"."""
    day = dt.datetime.fromisoformat(start).date()
    if day == today:
        return "dziś"
    if day == today + dt.timedelta(days=1):
        return "jutro"
    return f"{_WEEKDAYS_SHORT[day.weekday()]} {day.day} {MONTHS[day.month - 1]}"


def full_date(value: object) -> dt.date | None:
    """A "YYYY-MM-DD" as a date; None for anything else: no date, "MM-DD", no real day ("2026-02-30")."""
    if not isinstance(value, str) or not _FULL_DATE_RE.fullmatch(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def possible_day(month: int, day: int) -> bool:
    """Whether (month, day) is a day of some year: not 02-30, 13-01 or 00-10."""
    return 1 <= month <= 12 and 1 <= day <= _DAYS_IN_MONTH[month - 1]


def known_date(value: object) -> bool:
    """Whether a one-off's date may be shown: none given, a real "YYYY-MM-DD", or a possible "MM-DD"."""
    if value is None or full_date(value) is not None:
        return True
    match = _MONTH_DAY_RE.fullmatch(value) if isinstance(value, str) else None
    return match is not None and possible_day(int(match[1]), int(match[2]))


def clock_time(value: object) -> bool:
    """Whether ``value`` is a "HH:MM" the loader writes (anything else in a database is skipped)."""
    return isinstance(value, str) and _HHMM_RE.fullmatch(value) is not None


def one_off_start(one: Mapping[str, Any]) -> dt.datetime | None:
    """When a one-off with a full date starts (Warsaw time); None when its date or time is no real one."""
    day = full_date(one.get("date"))
    return at(day, one["time"]) if day is not None and clock_time(one.get("time")) else None


def split_one_offs(
    one_offs: Iterable[Mapping[str, Any]], today: dt.date
) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """(coming, undated, past): the one-offs dated today or later (soonest first), those without a full date
    (none, or "MM-DD" of no known year), and the ones already held (the latest first), for the parish page:
    a past one-off never reads as upcoming."""
    coming, undated, past = [], [], []
    for one in one_offs:
        day = full_date(one.get("date"))
        (undated if day is None else coming if day >= today else past).append(one)
    coming.sort(key=lambda one: (one["date"], one["time"]))
    past.sort(key=lambda one: (one["date"], one["time"]), reverse=True)
    return coming, undated, past


def season_bounds(season: str | None) -> tuple[Span, ...] | None:
    """The (month, day) bounds of each stretch of a season given as dates ("07-01..08-31",
    "05-01..06-30,10-01..10-31"); None for a tag, for none, and for bounds that are no day of any year
    ("02-30..11-31")."""
    spans = season_spans(season)
    ok = spans is not None and all(possible_day(*md) for span in spans for md in span)
    return spans if ok else None


def easter(year: int) -> dt.date:
    """Easter Sunday of the Gregorian calendar (the anonymous Gregorian algorithm)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    ell = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * ell) // 451
    month, day = divmod(h + ell - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


@cache
def holy_days(year: int) -> dict[dt.date, str]:
    """The holy days of obligation in Poland in ``year`` (and 26 December), with their names."""
    names = (
        "Świętej Bożej Rodzicielki", "Objawienie Pańskie", "Wniebowzięcie NMP", "Wszystkich Świętych",
        "Boże Narodzenie", "drugi dzień Bożego Narodzenia",
    )  # fmt: skip
    days = {dt.date(year, m, d): name for (m, d), name in zip(_FIXED_HOLY_DAYS, names, strict=True)}
    sunday = easter(year)
    days[sunday] = "Zmartwychwstanie Pańskie"
    days[sunday + dt.timedelta(days=49)] = "Zesłanie Ducha Świętego"
    days[sunday + dt.timedelta(days=60)] = "Boże Ciało"
    return days


def advent(year: int) -> tuple[dt.date, dt.date]:
    """The first Sunday of Advent (the fourth Sunday before Christmas) to 24 December of ``year``."""
    christmas = dt.date(year, 12, 25)
    last_sunday = christmas - dt.timedelta(days=christmas.isoweekday() % 7 or 7)
    return last_sunday - dt.timedelta(weeks=3), dt.date(year, 12, 24)


def lent(year: int) -> tuple[dt.date, dt.date]:
    """Ash Wednesday to Holy Thursday of ``year``."""
    sunday = easter(year)
    return sunday - dt.timedelta(days=46), sunday - dt.timedelta(days=3)


# the liturgical seasons' days in a year, from the first to the last
LITURGICAL = {"advent": advent, "lent": lent}


def _within(day: dt.date, start: tuple[int, int], end: tuple[int, int]) -> bool:
    md = (day.month, day.day)
    return start <= md <= end if start <= end else md >= start or md <= end


def in_season(day: dt.date, season: str | None) -> bool:
    """Whether a time of ``season`` is held on ``day`` (None: all year; a tag as msze/utils/vocabulary.py
    dates it; an unknown tag: never, as its dates cannot be known)."""
    if not season:
        return True
    if ".." in season:
        return any(_within(day, *span) for span in season_bounds(season) or ())
    tag = SEASONS.get(season)
    if tag is None:
        return False
    if tag.complement:
        return not any(in_season(day, other) for other in tag.complement)
    if tag.liturgical:
        start, end = LITURGICAL[season](day.year)
        return start <= day <= end
    return any(_within(day, *span) for span in tag.spans)


@dataclass(frozen=True, slots=True)
class Occurrence:
    """One Mass on one day."""

    start: dt.datetime  # aware, Europe/Warsaw
    row: Mapping[str, Any]  # the schedule row or one-off it comes from

    @property
    def church(self) -> str | None:
        return self.row.get("church")


def rows_for(day: dt.date, rows: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The weekly rows held on ``day``: on a holy day its church's holiday rows (its Sunday rows when it has
    none), on other days the rows of that day of the week; each in its season."""
    rows = [r for r in rows if in_season(day, r.get("season"))]
    weekday = WEEK[day.weekday()]
    if day not in holy_days(day.year):
        return [r for r in rows if r.get("day") == weekday]
    by_church: dict[Any, list[Mapping[str, Any]]] = {}
    for r in rows:
        by_church.setdefault(r.get("church"), []).append(r)
    held: list[Mapping[str, Any]] = []
    for church_rows in by_church.values():
        holiday = [r for r in church_rows if r.get("day") == "holiday"]
        sunday = [r for r in church_rows if r.get("day") == "sun" and not r.get("vigil")]
        held += holiday or sunday
        if weekday == "sun" and holiday:
            held += [r for r in sunday if r["time"] not in {h["time"] for h in holiday}]
    return held


def month_weeks(day: dt.date) -> tuple[int, ...]:
    """The weeks of the month ``day`` is in as monthly Masses count them: its own (the first seven days are
    week 1), and -1 too in the last seven days of its month."""
    last = (day + dt.timedelta(days=7)).month != day.month
    return ((day.day - 1) // 7 + 1, -1) if last else ((day.day - 1) // 7 + 1,)


def monthly_on(day: dt.date, row: Mapping[str, Any]) -> bool:
    """Whether a monthly row (`week`, `days` as a list, `season`) is held on ``day``: "the first Friday"
    on the first Friday of every month, in its season."""
    return (
        WEEK[day.weekday()] in row["days"]
        and row["week"] in month_weeks(day)
        and in_season(day, row.get("season"))
    )


def occurrences(
    rows: Iterable[Mapping[str, Any]],
    start: dt.date,
    end: dt.date,
    one_offs: Iterable[Mapping[str, Any]] = (),
    monthly: Iterable[Mapping[str, Any]] = (),
) -> list[Occurrence]:
    """Every Mass from ``start`` to ``end`` (both inclusive), soonest first: the weekly rows day by day, the
    monthly ones on their days of the month, and the one-offs with a real full date and time."""
    rows, monthly = list(rows), list(monthly)
    out = [
        Occurrence(at(day, r["time"]), r) for day in dates_between(start, end) for r in rows_for(day, rows)
    ]
    out += [
        Occurrence(at(day, m["time"]), m)
        for day in dates_between(start, end)
        for m in monthly
        if monthly_on(day, m)
    ]
    for o in one_offs:
        when = one_off_start(o)
        if when is not None and start <= when.date() <= end:
            out.append(Occurrence(when, o))
    out.sort(key=lambda occ: (occ.start, occ.row.get("church") or ""))
    return out


def dates_between(start: dt.date, end: dt.date) -> list[dt.date]:
    """The days from ``start`` to ``end``, both included."""
    return [start + dt.timedelta(days=n) for n in range((end - start).days + 1)]


def at(day: dt.date, hhmm: str) -> dt.datetime:
    """``hhmm`` on ``day`` in Warsaw."""
    hours, minutes = (int(x) for x in hhmm.split(":"))
    return dt.datetime(day.year, day.month, day.day, hours, minutes, tzinfo=WARSAW)
