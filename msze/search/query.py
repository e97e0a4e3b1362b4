"""Every query of the search app: the search itself (validated parameters in, parishes with their matching
Mass times out), one parish, the freshness note, and visitors' corrections (stored, listed, exported).

No web framework here: the HTML pages, the JSON API, the CSV export and the CLI all call these functions, so
no view holds SQL. Every condition is a SQLAlchemy expression with bound parameters (no SQL text is ever
assembled from input).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache

from sqlalchemy import BigInteger, Connection, and_, exists, func, insert, literal, or_, select

from msze.extraction.rules.reading import season_range
from msze.search.db import (
    DAYS,
    UNKNOWN_DAY,
    churches,
    clean_text,
    confession_times,
    corrections,
    mass_times,
    one_off_masses,
    parishes,
    time_history,
    town_key,
)
from msze.search.urls import safe_url
from msze.utils.text import fold

MAX_PER_PAGE = 100
DEFAULT_PER_PAGE = 20
MAX_PAGE = 1_000_000  # (MAX_PAGE - 1) * MAX_PER_PAGE is still an offset every backend takes
MAX_QUERY_LENGTH = 200
DEFAULT_RADIUS_KM = 10.0
MAX_RADIUS_KM = 100.0
KM_PER_DEGREE = 111.32  # of latitude; of longitude times cos(latitude)

DAY_LABELS = {
    "sun": "Niedziela",
    "mon": "Poniedziałek",
    "tue": "Wtorek",
    "wed": "Środa",
    "thu": "Czwartek",
    "fri": "Piątek",
    "sat": "Sobota",
    "holiday": "Święta nakazane",
    UNKNOWN_DAY: "dzień nieokreślony",
}
WEEKDAY = "weekday"  # the `day` filter's Monday–Friday
WORKDAYS = ("mon", "tue", "wed", "thu", "fri")
# Polish and English spellings a visitor or an API client may use for the `day` parameter (folded).
DAY_ALIASES = {
    **{code: code for code in DAYS},
    "niedziela": "sun", "niedziele": "sun", "sunday": "sun",
    "poniedzialek": "mon", "monday": "mon",
    "wtorek": "tue", "tuesday": "tue",
    "sroda": "wed", "wednesday": "wed",
    "czwartek": "thu", "thursday": "thu",
    "piatek": "fri", "friday": "fri",
    "sobota": "sat", "saturday": "sat",
    "swieto": "holiday", "swieta": "holiday",
    WEEKDAY: WEEKDAY, "powszedni": WEEKDAY, "dzien powszedni": WEEKDAY, "dni powszednie": WEEKDAY,
}  # fmt: skip
# how a season reads on the parish page
SEASON_LABELS = {
    "summer": "latem",
    "not-summer": "poza latem",
    "holidays": "w wakacje i ferie",
    "winter": "zimą",
    "school-year": "w roku szkolnym",
    "advent": "w Adwencie",
    "lent": "w Wielkim Poście",
    "may": "w maju",
    "october": "w październiku",
}
_WORD_RE = re.compile(r"\w+")
STOP_WORDS = frozenset(
    {"parafia", "parafii", "parafie", "pw", "p", "w", "wezwaniem", "kosciol", "rzymskokatolicka"}
)
# ASCII digits only: `\d` alone also matches "١" or "٣", which int() would quietly read as 1 and 3.
_TIME_RE = re.compile(r"^([01]?\d|2[0-3])(?:[:.]([0-5]\d))?$", re.ASCII)


class InvalidQuery(ValueError):
    """A query parameter that cannot be understood; the message is shown to the visitor (HTTP 400)."""


@dataclass(frozen=True)
class SearchParams:
    """A validated search: text filters, day categories, minute-of-day range and the page wanted."""

    q: str = ""
    city: str = ""
    diocese: str = ""
    days: tuple[str, ...] = ()
    time_from: int | None = None  # minutes after midnight, inclusive
    time_to: int | None = None  # inclusive
    near: tuple[float, float] | None = None  # (lat, lng): parishes within `radius` km, nearest first
    radius: float = DEFAULT_RADIUS_KM
    page: int = 1
    per_page: int = DEFAULT_PER_PAGE

    @property
    def filters_times(self) -> bool:
        return bool(self.days) or self.time_from is not None or self.time_to is not None

    def as_args(self, **changes) -> dict[str, str]:
        """Query-string arguments that reproduce this search (for links to other pages and the CSV export)."""
        values = {
            "q": self.q,
            "city": self.city,
            "diocese": self.diocese,
            "day": ",".join(self.days),
            "from": format_minute(self.time_from) if self.time_from is not None else "",
            "to": format_minute(self.time_to) if self.time_to is not None else "",
            "near": f"{self.near[0]:.5f},{self.near[1]:.5f}" if self.near else "",
            "radius": f"{self.radius:g}" if self.near and self.radius != DEFAULT_RADIUS_KM else "",
            "page": str(self.page) if self.page != 1 else "",
            "per_page": str(self.per_page) if self.per_page != DEFAULT_PER_PAGE else "",
        }
        values.update({key: str(value) for key, value in changes.items()})
        return {key: value for key, value in values.items() if value}


def format_minute(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def parse_time(value: str, name: str) -> int | None:
    """ "17:00", "17.30" or "17" -> minutes after midnight; "" -> None; anything else -> InvalidQuery."""
    value = value.strip()
    if not value:
        return None
    match = _TIME_RE.match(value)
    if not match:
        raise InvalidQuery(
            f"Parametr „{name}” musi być godziną w formacie GG:MM (np. 17:00), a jest: {value[:20]!r}"
        )
    return int(match.group(1)) * 60 + int(match.group(2) or 0)


def parse_near(value: str) -> tuple[float, float] | None:
    """ "52.2297,21.0122" -> (lat, lng); "" -> None; anything else -> InvalidQuery."""
    value = value.strip()
    if not value:
        return None
    parts = value.split(",")
    try:
        lat, lng = (float(p) for p in parts) if len(parts) == 2 and len(value) <= 40 else (None, None)
    except ValueError:
        lat = lng = None
    if lat is None or lng is None or not (-90 <= lat <= 90 and -180 <= lng <= 180):
        raise InvalidQuery(
            f"Parametr „near” musi mieć postać SZEROKOŚĆ,DŁUGOŚĆ (np. 52.23,21.01), a jest: {value[:20]!r}"
        )
    return lat, lng


def parse_radius(value: str) -> float:
    """Kilometres, 0.1 to MAX_RADIUS_KM ("" -> the default)."""
    value = value.strip()
    if not value:
        return DEFAULT_RADIUS_KM
    try:
        radius = float(value.replace(",", ".")) if len(value) <= 10 else -1.0
    except ValueError:
        radius = -1.0
    if not 0.1 <= radius <= MAX_RADIUS_KM:
        raise InvalidQuery(
            f"Parametr „radius” to kilometry od 0,1 do {MAX_RADIUS_KM:g}, a jest: {value[:20]!r}"
        )
    return radius


def distance_km(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance (haversine, Earth radius 6371 km)."""
    lat1, lng1, lat2, lng2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lng2 - lng1) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def parse_days(value: str) -> tuple[str, ...]:
    days: list[str] = []
    for part in value.split(","):
        part = fold(part)
        if not part or part in ("all", "wszystkie"):
            continue
        day = DAY_ALIASES.get(part)
        if day is None:
            allowed = ", ".join(sorted(set(DAY_ALIASES.values())))
            raise InvalidQuery(f"Nieznany dzień {part[:20]!r}; dozwolone: {allowed}")
        if day not in days:
            days.append(day)
    return tuple(days)


def parse_int(value: str, name: str, default: int, maximum: int, clamp: bool = False) -> int:
    """A whole number 1..`maximum` written in ASCII digits ("" -> `default`); InvalidQuery otherwise.

    `str.isdigit` alone accepts "²" (which int() refuses) and int() of 5 000 digits raises, so only up to
    nine ASCII digits are read at all. Above `maximum`: `maximum` when `clamp`, else InvalidQuery.
    """
    value = value.strip()
    if not value:
        return default
    number = int(value) if value.isascii() and value.isdigit() and len(value) <= 9 else 0
    if number < 1 or (number > maximum and not clamp):
        raise InvalidQuery(
            f"Parametr „{name}” musi być liczbą całkowitą od 1 do {maximum}, a jest: {value[:20]!r}"
        )
    return min(number, maximum)


def parse_params(args: Mapping[str, str]) -> SearchParams:
    """Validate request arguments (a Flask `request.args` or a dict); raise InvalidQuery with a message."""

    def text(name: str) -> str:
        value = clean_text(args.get(name) or "")
        if len(value) > MAX_QUERY_LENGTH:
            raise InvalidQuery(f"Parametr „{name}” jest za długi (najwyżej {MAX_QUERY_LENGTH} znaków)")
        return value

    time_from = parse_time(args.get("from") or "", "from")
    time_to = parse_time(args.get("to") or "", "to")
    if time_from is not None and time_to is not None and time_from > time_to:
        raise InvalidQuery("Godzina „from” jest późniejsza niż „to”")
    page, per_page = parse_paging(args)
    return SearchParams(
        q=text("q"),
        city=text("city"),
        diocese=text("diocese"),
        days=parse_days(args.get("day") or ""),
        near=parse_near(args.get("near") or ""),
        radius=parse_radius(args.get("radius") or ""),
        time_from=time_from,
        time_to=time_to,
        page=page,
        per_page=per_page,
    )


def parse_paging(args: Mapping[str, str]) -> tuple[int, int]:
    """(page, per_page) of a request: a page number from 1, and a page size clamped to MAX_PER_PAGE."""
    return (
        parse_int(args.get("page") or "", "page", 1, MAX_PAGE),
        parse_int(args.get("per_page") or "", "per_page", DEFAULT_PER_PAGE, MAX_PER_PAGE, clamp=True),
    )


@dataclass
class SearchResult:
    params: SearchParams
    total: int
    parishes: list[dict] = field(default_factory=list)

    @property
    def pages(self) -> int:
        return page_count(self.total, self.params.per_page)


def page_count(total: int, per_page: int) -> int:
    """Pages of `per_page` for `total` hits; one page for none."""
    return max(1, -(-total // per_page))


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
    return conditions


def _parish_conditions(params: SearchParams) -> list:
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
        conditions.append(_squared_km(params.near) <= params.radius**2)
    return conditions


def near_box(near: tuple[float, float], radius: float) -> tuple[float, float, float, float]:
    """(lowest lat, highest lat, lowest lng, highest lng) of the box around the `radius` circle of `near`."""
    lat, lng = near
    dlat = radius / KM_PER_DEGREE
    dlng = radius / (KM_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01))
    return lat - dlat, lat + dlat, lng - dlng, lng + dlng


def _squared_km(near: tuple[float, float], lats=parishes.c.lat, lngs=parishes.c.lng):
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
    return item


def season_label(season: str | None) -> str:
    """ "latem", "w roku szkolnym", "od 01.07 do 31.08"; "" for all year."""
    if not season:
        return ""
    bounds = season_range(season)
    if bounds is not None:
        a, b = (f"{day:02d}.{month:02d}" for month, day in bounds)
        return f"od {a} do {b}"
    return SEASON_LABELS.get(season, season)


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


def _aware(value: datetime | None) -> str | None:
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
        "crawled_at": _aware(row.crawled_at),
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
)


def search(conn: Connection, params: SearchParams) -> SearchResult:
    """One page of parishes matching `params`, each with its matching times (all its times when no day/time
    filter is given), ordered by city and name."""
    conditions = _parish_conditions(params)
    total = conn.execute(select(func.count()).select_from(parishes).where(*conditions)).scalar_one()
    order = (parishes.c.city_key, parishes.c.name_key, parishes.c.id)
    if params.near is not None:
        order = (_squared_km(params.near), parishes.c.id)
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


NEAREST_PARISHES = 50  # how many of the nearest parishes `next_masses` expands
MAX_WINDOW_DAYS = 14  # the longest `from`..`to` the next Masses are listed for


def parse_moment(value: str, name: str, now: datetime) -> datetime:
    """ "now", "" (now) or an ISO date-time ("2026-12-24T16:00", Warsaw time unless it says otherwise)."""
    from msze.search.calendar import WARSAW

    value = value.strip()
    if value in ("", "now", "teraz"):
        return now.astimezone(WARSAW)
    try:
        moment = datetime.fromisoformat(value[:32])
    except ValueError:
        raise InvalidQuery(
            f"Parametr „{name}” to data i godzina, np. 2026-12-24T16:00, a jest: {value[:20]!r}"
        ) from None
    return moment.replace(tzinfo=WARSAW) if moment.tzinfo is None else moment.astimezone(WARSAW)


SERVICES = ("mass", "confession")


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
        .where(*_parish_conditions(SearchParams(near=near, radius=radius)))
        .order_by(_squared_km(near), parishes.c.id)
        .limit(NEAREST_PARISHES)
    ).all()
    return placed_masses(timed_masses(conn, nearest, start, end, service), near, radius, start, end)


NEAREST_COLUMNS = (parishes.c.id, parishes.c.name, parishes.c.city, parishes.c.lat, parishes.c.lng)


def next_noon(start: datetime) -> datetime:
    """The next Masses' default end: noon of the day after `start`."""
    next_day = datetime.combine(start.date() + timedelta(days=1), datetime.min.time(), start.tzinfo)
    return next_day + timedelta(hours=12)


def timed_masses(conn: Connection, nearest: list, start: datetime, end: datetime, service: str) -> list:
    """What the next Masses of the parishes `nearest` (rows of NEAREST_COLUMNS) are whatever the point asked
    from: per parish (parish, {church: where it stands}, [(start, item without its distance)]), every time
    from `start`'s day to `end`'s. It depends on `start` and `end` only through their days and minutes of the
    day, so msze/search/cache.py keeps it for the minute."""
    from msze.search.calendar import occurrences

    ids = [p.id for p in nearest]
    windows = row_windows(start, end)
    if service == "confession":
        rows, one_offs = _confession_rows(conn, ids, set(windows)), {}
    else:
        rows, one_offs = _mass_rows(conn, ids, windows), _one_off_rows(conn, ids)
    located = _church_places(conn, ids)
    url_of = cache(safe_url)  # a parish's Masses share a few source pages
    out = []
    for parish in nearest:
        # a church with its own address stands where it stands, else where its parish does
        places = {None: (parish.lat, parish.lng)}
        items = []
        for occ in occurrences(
            rows.get(parish.id, []), start.date(), end.date(), one_offs.get(parish.id, [])
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
    from msze.search.calendar import WEEK, dates_between, holy_days

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


def _confession_rows(conn: Connection, ids: list[int], days: set[str]) -> dict[int, list]:
    """Confession times as schedule rows (one per day they are held on)."""
    rows: dict[int, list] = {}
    for r in conn.execute(select(confession_times).where(confession_times.c.parish_id.in_(ids))).mappings():
        for day in r["days"].split(","):
            if day in days:
                rows.setdefault(r["parish_id"], []).append({**dict(r), "day": day, "time": r["start"]})
    return rows


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
    parish["attempted_at"] = _aware(row.attempted_at)
    time_rows = conn.execute(select(*_TIME_COLUMNS).where(mass_times.c.parish_id == parish_id)).all()
    times = [time_dict(r) for r in sorted(time_rows, key=lambda r: (_day_order(r.day), r.minute))]
    parish["times"] = times
    parish["schedule"] = schedule_rows(times)
    o, c = one_off_masses.c, confession_times.c
    one_offs = select(o.date, o.time, o.church, o.note, o.source_url).where(o.parish_id == parish_id)
    parish["one_off"] = [dict(r._mapping) for r in conn.execute(one_offs.order_by(o.date, o.time))]
    confessions = select(c.days, c.start, c.end, c.church, c.season, c.source_url).where(
        c.parish_id == parish_id
    )
    parish["confession"] = [
        {**dict(r._mapping), "days": [d for d in r.days.split(",") if d]} for r in conn.execute(confessions)
    ]
    history = conn.execute(
        select(time_history.c.crawled_at, time_history.c.added, time_history.c.removed)
        .where(time_history.c.parish_id == parish_id)
        .order_by(time_history.c.crawled_at.desc())
        .limit(20)
    ).all()
    parish["history"] = [
        {"crawled_at": _aware(h.crawled_at), "added": _json_list(h.added), "removed": _json_list(h.removed)}
        for h in history
    ]
    return parish


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
        "oldest": _aware(row.oldest),
        "newest": _aware(row.newest),
        "crawled": row.crawled,
        "parishes": row.parishes,
        "with_times": with_times,
    }


# ---- corrections ----------------------------------------------------------------------------------------


def store_report(connection: Connection, report: dict, limit: int, window_seconds: int) -> bool:
    """Insert a correction unless its client sent `limit` in the last `window_seconds`; False when limited.

    Runs on the request's own connection (not in a transaction yet): a second pooled connection per report
    would let a burst of reports hold every connection while each waits for one more.

    The count and the insert are one `INSERT … SELECT … WHERE (count) < limit`, so parallel posts cannot all
    read the same count: SQLite takes its write lock before the statement reads, and PostgreSQL (which reads
    a snapshot) first takes a transaction-scoped advisory lock on the client, held until the commit.
    """
    since = report["created_at"] - timedelta(seconds=window_seconds)
    recent = (
        select(func.count())
        .select_from(corrections)
        .where(corrections.c.client == report["client"], corrections.c.created_at >= since)
        .scalar_subquery()
    )
    row = select(*(literal(value, corrections.c[key].type).label(key) for key, value in report.items()))
    statement = insert(corrections).from_select(list(report), row.where(recent < limit))
    with connection.begin():
        if connection.dialect.name == "postgresql":
            key = int(report["client"][:15], 16)  # 60 bits of the client hash: a bigint lock id
            connection.execute(select(func.pg_advisory_xact_lock(literal(key, BigInteger))))
        return connection.execute(statement.execution_options(preserve_rowcount=True)).rowcount == 1


def correction_rows(conn: Connection, limit: int | None = None, newest_first: bool = True) -> list[dict]:
    """Corrections with their parish and the stored time they name (its page and sentence), in one query.

    A parish may hold the same day and time more than once (seasonal rows): the join takes the first of them,
    so each correction is one row.
    """
    same = mass_times.alias("same_time")
    first_match = (
        select(func.min(same.c.id))
        .where(
            same.c.parish_id == corrections.c.parish_id,
            same.c.day == corrections.c.day,
            same.c.time == corrections.c.time,
        )
        .correlate(corrections)
        .scalar_subquery()
    )
    newest = (corrections.c.created_at.desc(), corrections.c.id.desc())
    order = newest if newest_first else (corrections.c.id,)
    stmt = (
        select(
            corrections,
            parishes.c.name,
            parishes.c.city,
            parishes.c.website,
            mass_times.c.source_url,
            mass_times.c.context,
        )
        .join(parishes, parishes.c.id == corrections.c.parish_id)
        .outerjoin(mass_times, mass_times.c.id == first_match)
        .order_by(*order)
        .limit(limit)
    )
    return [_correction_dict(row) for row in conn.execute(stmt)]


def _correction_dict(row) -> dict:
    return {
        "id": row.id,
        "parish_id": row.parish_id,
        "name": row.name,
        "city": row.city,
        "website": safe_url(row.website),
        "kind": row.kind,
        "day": row.day,
        "time": row.time,
        "comment": row.comment,
        "status": row.status,
        "created_at": _aware(row.created_at),
        "source_url": safe_url(row.source_url),
        "context": row.context,
    }


def training_label(row: dict) -> dict:
    """A correction as a classifier label: `wrong` -> label other, `missing` -> label mass."""
    return {
        "parish_id": row["parish_id"],
        "website": row["website"],
        "time": row["time"],
        "day": row["day"],
        "label": "other" if row["kind"] == "wrong" else "mass",
        "source_url": row["source_url"],
        "context": row["context"],
        "comment": row["comment"],
        "reported_at": row["created_at"],
        "status": row["status"],
    }
