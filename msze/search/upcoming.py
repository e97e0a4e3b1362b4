"""The next Masses (or confession times) near a point: the nearest parishes' schedule rows that a window of
time can hold, expanded into dated occurrences by msze/search/calendar.py, soonest first."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import Connection, and_, or_, select

from msze.search.calendar import WEEK, dates_between, holy_days, occurrences
from msze.search.db import churches, confession_times, mass_times, monthly_masses, one_off_masses, parishes
from msze.search.params import SearchParams
from msze.search.query import distance_km, monthly_dict, parish_conditions, squared_km
from msze.search.urls import safe_url

NEAREST_PARISHES = 50  # how many of the nearest parishes `next_masses` expands
NEAREST_COLUMNS = (parishes.c.id, parishes.c.name, parishes.c.city, parishes.c.lat, parishes.c.lng)


def next_masses(
    conn: Connection,
    near: tuple[float, float],
    radius: float,
    start: datetime,
    end: datetime | None = None,
    service: str = "mass",
) -> list[dict]:
    """The Masses (or, with service "confession", the confession times) of the parishes within `radius` km of
    `near` from `start` on, soonest first: by default for the rest of that day and the next morning (to
    noon)."""
    end = end or next_noon(start)
    nearest = conn.execute(
        select(*NEAREST_COLUMNS)
        .where(*parish_conditions(SearchParams(near=near, radius=radius)))
        .order_by(squared_km(near), parishes.c.id)
        .limit(NEAREST_PARISHES)
    ).all()
    return placed_masses(timed_masses(conn, nearest, start, end, service), near, radius, start, end)


def next_noon(start: datetime) -> datetime:
    """The next Masses' default end: noon of the day after `start`."""
    next_day = datetime.combine(start.date() + timedelta(days=1), datetime.min.time(), start.tzinfo)
    return next_day + timedelta(hours=12)


def timed_masses(conn: Connection, nearest: list, start: datetime, end: datetime, service: str) -> list:
    """What the next Masses of the parishes `nearest` (rows of NEAREST_COLUMNS) are whatever the point asked
    from: per parish (parish, {church: where it stands}, [(start, item without its distance)]), every time
    from `start`'s day to `end`'s (a one-off with no real date or time is none: calendar.occurrences). It
    depends on `start` and `end` only through their days and minutes of the day, so msze/search/cache.py
    keeps it for the minute."""
    ids = [p.id for p in nearest]
    windows = row_windows(start, end)
    if service == "confession":
        rows, one_offs, monthly = _confession_rows(conn, ids, set(windows)), {}, {}
    else:
        rows, one_offs, monthly = (
            _mass_rows(conn, ids, windows),
            _one_off_rows(conn, ids),
            _monthly_rows(conn, ids),
        )
    located = _church_places(conn, ids)
    url_of = cache(safe_url)  # a parish's Masses share a few source pages
    out = []
    for parish in nearest:
        # a church with its own address stands where it stands, else where its parish does
        places = {None: (parish.lat, parish.lng)}
        items = []
        for occ in occurrences(
            rows.get(parish.id, []),
            start.date(),
            end.date(),
            one_offs.get(parish.id, []),
            monthly.get(parish.id, []),
        ):
            church = occ.row.get("church")
            if church not in places:
                places[church] = located.get((parish.id, church), (parish.lat, parish.lng))
            item = {
                "start": occ.start.isoformat(),
                "time": occ.start.strftime("%H:%M"),
                "end": occ.row.get("end"),
                "service": service,
                "parish_id": parish.id,
                "parish": parish.name,
                "city": parish.city,
                "church": church,
                "distance_km": None,
                "source_url": url_of(occ.row.get("source_url")),
                "context": occ.row.get("context") or occ.row.get("note"),
            }
            items.append((occ.start, item))
        out.append((parish, places, items))
    return out


def placed_masses(
    timed: list, near: tuple[float, float], radius: float, start: datetime, end: datetime
) -> list[dict]:
    """The items of `timed_masses` from `start` to `end` at churches within `radius` km of `near`, each with
    its distance, soonest first (the nearer first at the same minute)."""
    out = []
    for _parish, places, items in timed:
        distances = {church: round(distance_km(near, where), 2) for church, where in places.items()}
        for moment, item in items:
            distance = distances[item["church"]]
            if start <= moment <= end and distance <= radius:
                out.append({**item, "distance_km": distance})  # the key keeps its place
    out.sort(key=lambda m: (m["start"], m["distance_km"]))
    return out


def _church_places(conn: Connection, ids: list[int]) -> dict[tuple[int, str], tuple[float, float]]:
    """(parish id, church name) -> the church's own coordinates, for the churches located apart."""
    c = churches.c
    found = conn.execute(select(c.parish_id, c.name, c.lat, c.lng).where(c.parish_id.in_(ids)))
    return {(r.parish_id, r.name): (r.lat, r.lng) for r in found}


def row_windows(start: datetime, end: datetime) -> dict[str, tuple[int, int]]:
    """Per day of a schedule row (mon … sun, holiday), the minutes of the day its rows can be held at from
    `start` to `end` (Warsaw time): the rest of the first day, the whole days between, the last day up to
    `end`. A holy day reads its Sunday and holiday rows whole: a church's Sunday rows stand in for holiday
    rows it lacks, which a cut-off window would make look missing."""
    windows: dict[str, tuple[int, int]] = {}
    for day in dates_between(start.date(), end.date()):
        low = start.hour * 60 + start.minute if day == start.date() else 0
        high = end.hour * 60 + end.minute if day == end.date() else 24 * 60 - 1
        if day in holy_days(day.year):
            spans = {"sun": (0, 24 * 60 - 1), "holiday": (0, 24 * 60 - 1)}
        else:
            spans = {WEEK[day.weekday()]: (low, high)}
        for code, (a, b) in spans.items():
            old = windows.get(code, (a, b))
            windows[code] = (min(old[0], a), max(old[1], b))
    return windows


def _mass_rows(conn: Connection, ids: list[int], windows: dict[str, tuple[int, int]]) -> dict[int, list]:
    m = mass_times.c
    columns = (m.parish_id, m.day, m.time, m.church, m.season, m.vigil, m.source_url, m.context)
    names = [column.name for column in columns]
    held = or_(*(and_(m.day == day, m.minute.between(low, high)) for day, (low, high) in windows.items()))
    rows: dict[int, list] = {}
    for r in conn.execute(select(*columns).where(m.parish_id.in_(ids), held)):
        rows.setdefault(r.parish_id, []).append(dict(zip(names, r, strict=True)))  # plain dicts: read often
    return rows


def _one_off_rows(conn: Connection, ids: list[int]) -> dict[int, list]:
    rows: dict[int, list] = {}
    for r in conn.execute(select(one_off_masses).where(one_off_masses.c.parish_id.in_(ids))).mappings():
        rows.setdefault(r["parish_id"], []).append(dict(r))
    return rows


def _monthly_rows(conn: Connection, ids: list[int]) -> dict[int, list]:
    """Monthly Masses as calendar.monthly_on reads them (query.monthly_dict: unreadable rows are none)."""
    rows: dict[int, list] = {}
    for r in conn.execute(select(monthly_masses).where(monthly_masses.c.parish_id.in_(ids))).mappings():
        row = monthly_dict(r)
        if row is not None:
            rows.setdefault(r["parish_id"], []).append(row)
    return rows


def _confession_rows(conn: Connection, ids: list[int], days: set[str]) -> dict[int, list]:
    """Confession times as schedule rows (one per day they are held on)."""
    rows: dict[int, list] = {}
    for r in conn.execute(select(confession_times).where(confession_times.c.parish_id.in_(ids))).mappings():
        for day in r["days"].split(","):
            if day in days:
                rows.setdefault(r["parish_id"], []).append({**dict(r), "day": day, "time": r["start"]})
    return rows
