"""A parish's Mass times as an iCalendar feed (RFC 5545, written with the `icalendar` library), so that a
person can subscribe to them in a phone calendar.

Each regular Mass (a time at one church in one season) is a weekly event (`RRULE:FREQ=WEEKLY;BYDAY=…`) from
the feed's first day; a seasonal one is an event per stretch of its season in the coming year, bounded by
`UNTIL`; weekly events skip the holy days (`EXDATE`), which are events of their own with the times that hold
on them (msze/search/calendar.py); a monthly Mass is a monthly rule (`RRULE:FREQ=MONTHLY;BYDAY=1FR`, the
first Friday; `-1SU` the last Sunday); a one-off with its date is a single event (one whose date is no real
day, "2026-02-30", is left out). Every event has a UID of its own (a season that falls twice in the feed is
two events), the same in every feed made from the same data (`_Uids`), so a subscribed calendar keeps them all
and updates each in place.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from icalendar import Calendar, Event

from msze.search.calendar import (
    WEEK,
    at,
    dates_between,
    holy_days,
    in_season,
    monthly_on,
    one_off_start,
    rows_for,
)
from msze.utils.vocabulary import BYDAY as _BYDAY
from msze.utils.vocabulary import byday_monthly

HORIZON_DAYS = 366  # how far ahead seasons and holy days are written


def parish_calendar(
    parish: Mapping[str, Any], today: dt.date, stamp: dt.datetime, horizon_days: int = HORIZON_DAYS
) -> bytes:
    """The .ics document of a parish dict from `query.get_parish` (its `times` and `one_off`), from `today`
    to `horizon_days` later."""
    cal = Calendar()
    cal.add("prodid", "-//msze//Msze święte//PL")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", f"Msze święte: parafia {parish['name']}, {parish['city']}")
    end = today + dt.timedelta(days=horizon_days)
    years = range(today.year, end.year + 1)
    holy = sorted(d for year in years for d in holy_days(year) if today <= d <= end)
    times = [t for t in parish.get("times", []) if t.get("day")]
    uids = _Uids(parish["id"])
    for key, days in _weekly_groups(times).items():
        time, church, season, _vigil, source = key
        for first, last in _stretches(season, today, end):
            start = _first_on(first, days)
            if start is None or start > last:
                continue
            # a stretch of a season is named by the day it begins, before the feed's first day clips it
            begins = _season_start(season, first) if season else None
            event = _event(parish, key, at(start, time), stamp, source, uids.of("weekly", *key, days, begins))
            rule: dict[str, Any] = {"freq": "weekly", "byday": [_BYDAY[d] for d in days]}
            if season:
                rule["until"] = at(last, "23:59").astimezone(dt.UTC)  # UTC, as RFC 5545 asks with a TZID
            event.add("rrule", rule)
            skipped = [at(d, time) for d in holy if first <= d <= last and WEEK[d.weekday()] in days]
            if skipped:
                event.add("exdate", skipped)
            cal.add_component(event)
    for m in parish.get("monthly", []):
        _add_monthly(cal, parish, m, today, end, stamp, uids)
    for day in holy:
        for row in rows_for(day, times):
            key = (row["time"], row.get("church"), row.get("season"), False, row.get("source_url"))
            uid = uids.of("holy day", *key, day)
            cal.add_component(_event(parish, key, at(day, row["time"]), stamp, row.get("source_url"), uid))
    for one in parish.get("one_off", []):
        start = one_off_start(one)  # None for an impossible date ("2026-02-30"), "MM-DD" or none
        if start is not None and start.date() >= today:
            key = (one["time"], one.get("church"), None, False, one.get("source_url"))
            uid = uids.of("one-off", *key, start.date(), one.get("note"))
            event = _event(parish, key, start, stamp, one.get("source_url"), uid)
            event.add("description", one.get("note") or "")
            cal.add_component(event)
    cal.add_missing_timezones()
    return cal.to_ical()


def _add_monthly(
    cal: Calendar,
    parish: Mapping[str, Any],
    m: Mapping[str, Any],
    today: dt.date,
    end: dt.date,
    stamp: dt.datetime,
    uids: _Uids,
) -> None:
    """A monthly Mass as a monthly rule ("w pierwszy piątek miesiąca": `RRULE:FREQ=MONTHLY;BYDAY=1FR`) from
    its first day in the feed, an event per stretch of its season as weekly ones are."""
    key = (m["time"], m.get("church"), m.get("season"), False, m.get("source_url"))
    for first, last in _stretches(m.get("season"), today, end):
        start = next((d for d in dates_between(first, last) if monthly_on(d, m)), None)
        if start is None:
            continue
        begins = _season_start(m["season"], first) if m.get("season") else None
        uid = uids.of("monthly", *key, m["week"], tuple(m["days"]), begins)
        event = _event(parish, key, at(start, m["time"]), stamp, m.get("source_url"), uid)
        rule: dict[str, Any] = {"freq": "monthly", "byday": [byday_monthly(m["week"], d) for d in m["days"]]}
        if m.get("season"):
            rule["until"] = at(last, "23:59").astimezone(dt.UTC)
        event.add("rrule", rule)
        event.add("description", m.get("label") or "")
        cal.add_component(event)


def _weekly_groups(times: Sequence[Mapping[str, Any]]) -> dict[tuple, list[str]]:
    """Weekly rows grouped by (time, church, season, vigil, source page) with their days of the week."""
    groups: dict[tuple, list[str]] = {}
    for t in times:
        if t["day"] in _BYDAY:
            key = (t["time"], t.get("church"), t.get("season"), bool(t.get("vigil")), t.get("source_url"))
            groups.setdefault(key, []).append(t["day"])
    return groups


def _stretches(season: str | None, start: dt.date, end: dt.date) -> Iterator[tuple[dt.date, dt.date]]:
    """The runs of days from ``start`` to ``end`` in ``season`` (the whole span when it holds all year)."""
    if not season:
        yield start, end
        return
    run: dt.date | None = None
    for day in dates_between(start, end):
        if in_season(day, season):
            run = run or day
        elif run is not None:
            yield run, day - dt.timedelta(days=1)
            run = None
    if run is not None:
        yield run, end


def _season_start(season: str, day: dt.date) -> dt.date:
    """The first day of the stretch of ``season`` that holds ``day`` (at most a year back)."""
    for _ in range(366):
        before = day - dt.timedelta(days=1)
        if not in_season(before, season):
            break
        day = before
    return day


class _Uids:
    """UIDs of one feed: a hash of what makes an event (its kind, time, church, season, vigil, source page,
    days of the week, and the day its stretch, holy day or one-off begins), so the same data gives the same
    UIDs in every feed; an event that is still the same as another (a row stored twice) gets "-2", "-3"."""

    def __init__(self, parish_id: int) -> None:
        self.parish_id = parish_id
        self.seen: dict[str, int] = {}

    def of(self, *identity: Any) -> str:
        digest = hashlib.sha256(repr((self.parish_id, identity)).encode()).hexdigest()[:24]
        self.seen[digest] = count = self.seen.get(digest, 0) + 1
        return f"{digest}{f'-{count}' if count > 1 else ''}-{self.parish_id}@msze"


def _first_on(start: dt.date, days: Sequence[str]) -> dt.date | None:
    for offset in range(7):
        day = start + dt.timedelta(days=offset)
        if WEEK[day.weekday()] in days:
            return day
    return None


def _event(
    parish: Mapping[str, Any],
    key: tuple,
    start: dt.datetime,
    stamp: dt.datetime,
    source: str | None,
    uid: str,
) -> Event:
    _time, church, _season, vigil, _ = key
    name = "Msza święta wigilijna" if vigil else "Msza święta"
    event = Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", start)
    event.add("duration", dt.timedelta(hours=1))
    event.add("summary", f"{name}{f' ({church})' if church else ''}")
    address = ", ".join(parish.get("address") or [])
    event.add("location", f"{church}, {address}" if church else f"Parafia {parish['name']}, {address}")
    if source:
        event.add("url", source)
    return event
