"""The parish search (validated parameters in, parishes with their matching Mass times out), one parish with
its schedule as the page shows it, the freshness note and the diocese list.

No web framework here: the HTML pages, the JSON API, the CSV export and the CLI all call these functions, so
no view holds SQL. Every condition is a SQLAlchemy expression with bound parameters (no SQL text is ever
assembled from input). The parameters are read by params.py, the next Masses near a point are upcoming.py's,
the visitors' corrections reports.py's.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, and_, exists, func, or_, select

from msze.search.calendar import clock_time, known_date, season_bounds
from msze.search.db import (
    DAYS,
    UNKNOWN_DAY,
    churches,
    confession_times,
    mass_times,
    monthly_masses,
    one_off_masses,
    parishes,
    tags_of,
    time_history,
    town_key,
    verified_schedules,
)
from msze.search.params import WEEKDAY, WORKDAYS, SearchParams, page_count
from msze.search.urls import safe_url
from msze.utils import vocabulary
from msze.utils.text import fold

KM_PER_DEGREE = 111.32  # of latitude; of longitude times cos(latitude)

DAY_LABELS = {**vocabulary.DAY_LABELS, UNKNOWN_DAY: "dzień nieokreślony"}
# how a season reads on the parish page
SEASON_LABELS = {name: season.label for name, season in vocabulary.SEASONS.items()}
_WORD_RE = re.compile(r"\w+")
STOP_WORDS = frozenset(
    {"parafia", "parafii", "parafie", "pw", "p", "w", "wezwaniem", "kosciol", "rzymskokatolicka"}
)


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine, Earth radius 6371 km)."""
    lat1, lng1, lat2, lng2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


@dataclass
class SearchResult:
    params: SearchParams
    total: int
    parishes: list[dict] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return page_count(self.total, self.params.per_page)


def query_words(q: str) -> list[str]:
    """Words of a free-text query, folded, punctuation dropped ("św." -> "sw", which is inside "swietego"),
    without words that name no parish in particular ("parafia", "pw.")."""
    return [word for word in _WORD_RE.findall(fold(q)) if word not in STOP_WORDS]


def _time_conditions(params: SearchParams) -> list:
    """The `day` filter per day of the week; the Saturday vigil counts for Sunday."""
    conditions = []
    if params.days:
        days = {d for code in params.days for d in (WORKDAYS if code == WEEKDAY else (code,))}
        wanted = [mass_times.c.day.in_(sorted(days))]
        if "sun" in days:
            wanted.append(and_(mass_times.c.day == "sat", mass_times.c.vigil.is_(True)))
        conditions.append(or_(*wanted))
    if params.time_from is not None:
        conditions.append(mass_times.c.minute >= params.time_from)
    if params.time_to is not None:
        conditions.append(mass_times.c.minute <= params.time_to)
    if params.lang:  # any of the languages or rites asked for
        conditions.append(or_(*(mass_times.c.tags.contains(f",{tag},") for tag in params.lang)))
    return conditions


def parish_conditions(params: SearchParams) -> list:
    conditions = []
    for word in query_words(params.q):
        conditions.append(
            or_(
                parishes.c.name_key.contains(word, autoescape=True),
                parishes.c.city_key.contains(word, autoescape=True),
            )
        )
    if params.city:
        # The directory writes districts into the city ("Kraków-Bieńczyce", "Kraków Podgórze"): a city
        # matches itself and its districts, not other towns that merely start alike ("Krakowiany").
        city = fold(params.city)
        conditions.append(parishes.c.town_key == town_key(city))
        conditions.append(
            or_(
                parishes.c.city_key == city,
                parishes.c.city_key.startswith(city + "-", autoescape=True),
                parishes.c.city_key.startswith(city + " ", autoescape=True),
            )
        )
    if params.diocese:
        conditions.append(parishes.c.diocese_key == fold(params.diocese))
    if params.filters_times:
        conditions.append(
            exists().where(and_(mass_times.c.parish_id == parishes.c.id, *_time_conditions(params)))
        )
    if params.near is not None:
        lat_low, lat_high, lng_low, lng_high = near_box(params.near, params.radius)
        # the box first (the (lat, lng) index narrows it), the circle within it
        conditions += [
            parishes.c.lat.between(lat_low, lat_high),
            parishes.c.lng.between(lng_low, lng_high),
        ]
        conditions.append(squared_km(params.near) <= params.radius**2)
    return conditions


def near_box(near: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    """(lowest lat, highest lat, lowest lng, highest lng) of the box around the `radius` circle of `near`."""
    lat, lng = near
    dlat = radius / KM_PER_DEGREE
    dlng = radius / (KM_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01))
    return lat - dlat, lat + dlat, lng - dlng, lng + dlng


def squared_km(near: tuple[float, float], lats=parishes.c.lat, lngs=parishes.c.lng):
    """The squared distance in km from `near` as SQL arithmetic (equirectangular: within a 100 km radius it is
    the great-circle distance to a few metres), for filtering and ordering in any backend; given arrays of
    `lats` and `lngs` instead of the columns, the same arithmetic in the same order (msze/search/cache.py)."""
    lat, lng = near
    dy = (lats - lat) * KM_PER_DEGREE
    dx = (lngs - lng) * (KM_PER_DEGREE * math.cos(math.radians(lat)))
    return dy * dy + dx * dx


def _day_order(day: str) -> int:
    return DAYS.index(day) if day in DAYS else len(DAYS)


def time_dict(row) -> dict:
    item = {
        "time": row.time,
        "day": None if row.day == UNKNOWN_DAY else row.day,
        "source_url": safe_url(row.source_url),
        "context": row.context,
        "source": row.source,
        "score": row.score,
    }
    if row.start_date:
        item["start_date"] = row.start_date
    if row.end_date:
        item["end_date"] = row.end_date
    item["church"] = row.church
    item["season"] = row.season
    item["vigil"] = bool(row.vigil)
    item["tags"] = tags_of(row.tags)
    return item


def season_label(season: str | None) -> str:
    """ "latem", "w roku szkolnym", "od 01.07 do 31.08", "od 01.05 do 30.06, od 01.10 do 31.10"; "" for all
    year."""
    if not season:
        return ""
    spans = season_bounds(season)
    if spans is not None:
        return ", ".join(f"od {d1:02d}.{m1:02d} do {d2:02d}.{m2:02d}" for (m1, d1), (m2, d2) in spans)
    if ".." in season:  # "02-30..11-31": a typo of the parish page, not shown as a date
        return "w okresie podanym na stronie parafii"
    return SEASON_LABELS.get(season, season)


def monthly_of(conn: Connection, parish_id: int) -> list[dict]:
    """The parish's monthly Masses (monthly_dict), the first week of the month first, the last week last."""
    m = monthly_masses.c
    found = conn.execute(select(monthly_masses).where(m.parish_id == parish_id).order_by(m.week, m.time))
    out = [d for d in map(monthly_dict, found.mappings()) if d is not None]
    out.sort(key=lambda x: (x["week"] < 0, x["week"], x["time"]))
    return out


def monthly_dict(row: Mapping[str, Any]) -> dict | None:
    """A monthly_masses row with its days as a list and its label ("w pierwszy piątek miesiąca", with the
    season's when it has one); None for a row an older or foreign loader left unreadable (no known week,
    day or "HH:MM")."""
    days = [d for d in (row["days"] or "").split(",") if d in vocabulary.WEEK]
    if not days or row["week"] not in vocabulary.MONTH_WEEKS or not clock_time(row["time"]):
        return None
    label, season = vocabulary.monthly_label(row["week"], days), season_label(row["season"])
    return {
        **dict(row),
        "days": days,
        "source_url": safe_url(row["source_url"]),
        "label": f"{label}, {season}" if season else label,
    }


def schedule_rows(times: list[dict]) -> list[dict]:
    """The parish page's schedule: one row per day (or run of days with the same times: "Poniedziałek–
    Piątek"), church and season, the vigil under "Sobota (Msza wigilijna)"."""
    cells: dict[tuple, list[dict]] = {}
    for t in times:
        day = t["day"] or UNKNOWN_DAY
        part = "vigil" if t.get("vigil") and day == "sat" else ""
        cells.setdefault((t.get("church") or "", t.get("season") or "", day, part), []).append(t)
    order = {d: i for i, d in enumerate((*DAYS, UNKNOWN_DAY))}
    rows: list[dict] = []
    for key in sorted(cells, key=lambda k: (k[0] != "", k[0], k[1] != "", k[1], order[k[2]], k[3])):
        church, season, day, part = key
        times_here = sorted(cells[key], key=lambda t: t["time"])
        last = rows[-1] if rows else None
        if last is not None and _continues(last, (church, season, part), day, times_here):
            last["days"].append(day)
            continue
        rows.append({"church": church, "season": season, "part": part, "days": [day], "times": times_here})
    for row in rows:
        first, end = DAY_LABELS[row["days"][0]], DAY_LABELS[row["days"][-1]]
        label = first if len(row["days"]) == 1 else f"{first}–{end}"
        row["label"] = label + (" (Msza wigilijna)" if row["part"] else "")
        row["season_label"] = season_label(row["season"])
    return rows


def _continues(row: dict, where: tuple[str, str, str], day: str, times: list[dict]) -> bool:
    """Whether ``day`` extends the row's run of weekdays: the next one, with the same times."""
    previous = row["days"][-1]
    return (
        (row["church"], row["season"], row["part"]) == where
        and day in WORKDAYS
        and previous in WORKDAYS
        and WORKDAYS.index(day) == WORKDAYS.index(previous) + 1
        and [t["time"] for t in row["times"]] == [t["time"] for t in times]
    )


def utc_iso(value: datetime | None) -> str | None:
    """A stored timestamp as ISO 8601 in UTC ("…Z"); a naive one (SQLite) is UTC already."""
    if value is None:
        return None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def parish_dict(row) -> dict:
    return {
        "id": row.id,
        "name": row.name,
        "city": row.city,
        "address": [line for line in (row.address or "").split("\n") if line],
        "decanate": row.decanate,
        "diocese": row.diocese,
        "voivodeship": row.voivodeship,
        "website": safe_url(row.website),
        "crawled_at": utc_iso(row.crawled_at),
        "crawl_status": row.crawl_status,
        "lat": row.lat,
        "lng": row.lng,
    }


_PARISH_COLUMNS = (
    parishes.c.id,
    parishes.c.name,
    parishes.c.city,
    parishes.c.address,
    parishes.c.decanate,
    parishes.c.diocese,
    parishes.c.voivodeship,
    parishes.c.website,
    parishes.c.crawled_at,
    parishes.c.crawl_status,
    parishes.c.lat,
    parishes.c.lng,
)
_TIME_COLUMNS = (
    mass_times.c.parish_id,
    mass_times.c.day,
    mass_times.c.time,
    mass_times.c.minute,
    mass_times.c.source_url,
    mass_times.c.context,
    mass_times.c.source,
    mass_times.c.score,
    mass_times.c.start_date,
    mass_times.c.end_date,
    mass_times.c.church,
    mass_times.c.season,
    mass_times.c.vigil,
    mass_times.c.tags,
)


def search(conn: Connection, params: SearchParams) -> SearchResult:
    """One page of parishes matching `params`, each with its matching times (all its times when no day/time
    filter is given), ordered by city and name."""
    conditions = parish_conditions(params)
    total = conn.execute(select(func.count()).select_from(parishes).where(*conditions)).scalar_one()
    order = (parishes.c.city_key, parishes.c.name_key, parishes.c.id)
    if params.near is not None:
        order = (squared_km(params.near), parishes.c.id)
    rows = conn.execute(
        select(*_PARISH_COLUMNS)
        .where(*conditions)
        .order_by(*order)
        .limit(params.per_page)
        .offset((params.page - 1) * params.per_page)
    ).all()
    result = SearchResult(params=params, total=total, parishes=[parish_dict(row) for row in rows])
    if params.near is not None:
        for item in result.parishes:
            item["distance_km"] = round(distance_km(params.near, (item["lat"], item["lng"])), 2)
    if not rows:
        return result
    by_id = {item["id"]: item for item in result.parishes}
    for item in result.parishes:
        item["times"] = []
    time_rows = conn.execute(
        select(*_TIME_COLUMNS).where(mass_times.c.parish_id.in_(list(by_id)), *_time_conditions(params))
    ).all()
    for row in sorted(time_rows, key=lambda r: (_day_order(r.day), r.minute)):
        by_id[row.parish_id]["times"].append(time_dict(row))
    return result


def parish_exists(conn: Connection, parish_id: int) -> bool:
    """Whether a parish with this id exists (a report for any other is a 404)."""
    return conn.execute(select(parishes.c.id).where(parishes.c.id == parish_id)).first() is not None


def get_parish(conn: Connection, parish_id: int) -> dict | None:
    """One parish with its whole schedule (grouped by day, in display order), its history of changes and when
    its site was last tried (`attempted_at`: the page says when a failed crawl was)."""
    row = conn.execute(
        select(*_PARISH_COLUMNS, parishes.c.attempted_at).where(parishes.c.id == parish_id)
    ).first()
    if row is None:
        return None
    parish = parish_dict(row)
    parish["attempted_at"] = utc_iso(row.attempted_at)
    time_rows = conn.execute(select(*_TIME_COLUMNS).where(mass_times.c.parish_id == parish_id)).all()
    times = [time_dict(r) for r in sorted(time_rows, key=lambda r: (_day_order(r.day), r.minute))]
    parish["times"] = times
    parish["schedule"] = schedule_rows(times)
    parish["verified"] = verified_label(conn, parish_id)
    o, c = one_off_masses.c, confession_times.c
    one_offs = select(o.date, o.time, o.church, o.note, o.source_url).where(o.parish_id == parish_id)
    parish["one_off"] = [
        dict(r._mapping)
        for r in conn.execute(one_offs.order_by(o.date, o.time))
        if known_date(r.date) and clock_time(r.time)  # never "2026-02-30" or "13-01", stored by older loaders
    ]
    parish["monthly"] = monthly_of(conn, parish_id)
    confessions = select(c.days, c.start, c.end, c.church, c.season, c.source_url).where(
        c.parish_id == parish_id
    )
    parish["confession"] = [
        {**dict(r._mapping), "days": [d for d in r.days.split(",") if d]} for r in conn.execute(confessions)
    ]
    ch = churches.c
    parish["churches"] = [  # the churches and chapels the directory locates apart (their own addresses)
        dict(r._mapping)
        for r in conn.execute(
            select(ch.name, ch.address, ch.lat, ch.lng).where(ch.parish_id == parish_id).order_by(ch.name)
        )
    ]
    history = conn.execute(
        select(time_history.c.crawled_at, time_history.c.added, time_history.c.removed)
        .where(time_history.c.parish_id == parish_id)
        .order_by(time_history.c.crawled_at.desc())
        .limit(20)
    ).all()
    parish["history"] = [
        {"crawled_at": utc_iso(h.crawled_at), "added": _json_list(h.added), "removed": _json_list(h.removed)}
        for h in history
    ]
    return parish


def verified_label(conn: Connection, parish_id: int) -> dict | None:
    """Who confirmed the published schedule and when ({"by": "editor"|"moderator", "label", "verified_at"}),
    None when it is the crawl's reading (msze/search/verified.py)."""
    row = conn.execute(
        select(verified_schedules.c.role, verified_schedules.c.verified_at).where(
            verified_schedules.c.parish_id == parish_id
        )
    ).first()
    if row is None:
        return None
    label = "potwierdzone przez parafię" if row.role == "editor" else "potwierdzone przez moderatora"
    return {"by": row.role, "label": label, "verified_at": utc_iso(row.verified_at)}


def _json_list(value: str) -> list[str]:
    import json

    try:
        data = json.loads(value or "[]")
    except ValueError:
        return []
    return [str(item) for item in data] if isinstance(data, list) else []


def dioceses(conn: Connection) -> list[str]:
    """Distinct diocese names, for the search form's list."""
    rows = conn.execute(
        select(parishes.c.diocese)
        .where(parishes.c.diocese != "")
        .group_by(parishes.c.diocese)
        .order_by(parishes.c.diocese)
    )
    return [row.diocese for row in rows]


def freshness(conn: Connection) -> dict:
    """How fresh the data is: oldest and newest crawl behind the times shown; how many parishes have times."""
    row = conn.execute(
        select(
            func.min(parishes.c.crawled_at).label("oldest"),
            func.max(parishes.c.crawled_at).label("newest"),
            func.count(parishes.c.crawled_at).label("crawled"),
            func.count().label("parishes"),
        )
    ).one()
    with_times = conn.execute(select(func.count(func.distinct(mass_times.c.parish_id)))).scalar_one()
    return {
        "oldest": utc_iso(row.oldest),
        "newest": utc_iso(row.newest),
        "crawled": row.crawled,
        "parishes": row.parishes,
        "with_times": with_times,
    }
