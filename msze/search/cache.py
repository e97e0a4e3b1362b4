"""The next Masses near a point, kept per process: phones in one town ask about the same area in the same
minute, and all but a few hundred microseconds of the answer is the same for them.

Two bounded LRU maps, neither of which changes an answer (tests/web/test_search_cache.py compares them with
`upcoming.next_masses` point by point):

- **areas**: (cell of CELL_DEGREES, radius) -> the parishes (id, lat, lng) in the union of the search boxes of
  every point of the cell. A request picks its own nearest NEAREST_PARISHES from them with the SQL's own
  arithmetic (`query.near_box`, `query.squared_km`) and order (distance, then id).
- **times**: (service, start's minute, end's minute, parish id) -> that parish's
  `upcoming.timed_masses`, which depends on `start` and `end` only through their days and minutes of the day.

`upcoming.placed_masses` then gives each request its exact distances, radius, `start` and `end`. Both maps are
emptied when the database changes (SQLite: `PRAGMA data_version` on a connection of the cache's own, which
moves whenever another connection, of any process, commits) and every entry expires after `seconds` whatever
the backend (PostgreSQL: a reload shows within that time).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import Connection, Engine, select

from msze.search import query, upcoming
from msze.search.db import parishes, sqlite_path

CELL_DEGREES = 0.01  # about 1.1 km × 0.7 km in Poland: the phones of one neighbourhood share an area
_PAD_DEGREES = 1e-6  # the area's box a little wider than the cell's own boxes: float rounding at its edges


class _LRU:
    """At most `size` entries, each for `seconds`; the least recently used goes first."""

    def __init__(self, size: int, seconds: float) -> None:
        self.size, self.seconds = size, seconds
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()

    def get(self, key: Hashable) -> Any:
        hit = self._entries.get(key)
        if hit is None or time.monotonic() - hit[0] >= self.seconds:
            return None
        self._entries.move_to_end(key)
        return hit[1]

    def put(self, key: Hashable, value: Any) -> None:
        self._entries[key] = (time.monotonic(), value)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


class NearCache:
    """`next_masses` as `upcoming.next_masses` answers it, from what this process already read for the area
    and the minute. `seconds` 0 turns it off (every call is `upcoming.next_masses`)."""

    def __init__(self, engine: Engine, seconds: float, areas: int, parishes: int) -> None:
        self.seconds = seconds
        self.areas = _LRU(areas, seconds)
        self.times = _LRU(parishes, seconds)
        self._lock = threading.Lock()  # the development server answers from threads
        self._version: Any = None
        self._probe = _sqlite_probe(engine)

    def next_masses(
        self,
        conn: Connection,
        near: tuple[float, float],
        radius: float,
        start: datetime,
        end: datetime | None = None,
        service: str = "mass",
    ) -> list[dict]:
        if self.seconds <= 0:
            return upcoming.next_masses(conn, near, radius, start, end, service)
        end = end or upcoming.next_noon(start)
        self._check_version()
        nearest = self._nearest(conn, near, radius)
        timed = self._timed(conn, nearest, start, end, service)
        return upcoming.placed_masses(timed, near, radius, start, end)

    def _check_version(self) -> None:
        """Empty both maps when the database changed since the last call (probed before any query of the
        request, so what a request reads is never older than the version it is kept under)."""
        if self._probe is None:
            return
        version = self._probe()
        with self._lock:
            if version != self._version:
                self.areas.clear()
                self.times.clear()
                self._version = version

    def _nearest(self, conn: Connection, near: tuple[float, float], radius: float) -> list[int]:
        """The ids of the NEAREST_PARISHES parishes within `radius` of `near`, nearest first, as the SQL of
        `upcoming.next_masses` picks them."""
        cell = (math.floor(near[0] / CELL_DEGREES), math.floor(near[1] / CELL_DEGREES))
        key = (cell, radius)
        with self._lock:
            area = self.areas.get(key)
        if area is None:
            area = _area(conn, cell, radius)
            with self._lock:
                self.areas.put(key, area)
        ids, lats, lngs = area
        lat_low, lat_high, lng_low, lng_high = query.near_box(near, radius)
        squared = query.squared_km(near, lats, lngs)
        inside = (
            (lats >= lat_low) & (lats <= lat_high) & (lngs >= lng_low) & (lngs <= lng_high)
            & (squared <= radius**2)
        )  # fmt: skip
        found = np.flatnonzero(inside)
        order = found[np.lexsort((ids[found], squared[found]))]  # by distance, then id (the SQL's ORDER BY)
        return ids[order[: upcoming.NEAREST_PARISHES]].tolist()

    def _timed(self, conn: Connection, ids: list[int], start: datetime, end: datetime, service: str) -> list:
        """`upcoming.timed_masses` of the parishes `ids`, in their order: the kept ones, the others read
        now."""
        minutes = (service, _minute(start), _minute(end))
        with self._lock:
            kept = {pid: self.times.get((*minutes, pid)) for pid in ids}
        missing = [pid for pid, value in kept.items() if value is None]
        if missing:
            rows = conn.execute(select(*upcoming.NEAREST_COLUMNS).where(parishes.c.id.in_(missing))).all()
            fresh = upcoming.timed_masses(conn, rows, start, end, service)
            with self._lock:
                for entry in fresh:
                    kept[entry[0].id] = entry
                    self.times.put((*minutes, entry[0].id), entry)
        return [kept[pid] for pid in ids]


def _minute(moment: datetime) -> str:
    """What `timed_masses` reads of a moment: its local day and minute, and the offset they are in."""
    return moment.replace(second=0, microsecond=0).isoformat()


def _area(conn: Connection, cell: tuple[int, int], radius: float) -> tuple[np.ndarray, ...]:
    """(ids, lats, lngs) of the parishes in the box of any point of `cell`: the boxes of its corners (the box
    is widest in longitude at the cell's edge farthest from the equator), padded against rounding."""
    lat0, lng0 = cell[0] * CELL_DEGREES, cell[1] * CELL_DEGREES
    corners = [(lat, lng) for lat in (lat0, lat0 + CELL_DEGREES) for lng in (lng0, lng0 + CELL_DEGREES)]
    boxes = [query.near_box(corner, radius) for corner in corners]
    p = parishes.c
    rows = conn.execute(
        select(p.id, p.lat, p.lng).where(
            p.lat.between(min(b[0] for b in boxes) - _PAD_DEGREES, max(b[1] for b in boxes) + _PAD_DEGREES),
            p.lng.between(min(b[2] for b in boxes) - _PAD_DEGREES, max(b[3] for b in boxes) + _PAD_DEGREES),
        )
    ).all()
    ids = np.array([r.id for r in rows], dtype=np.int64)
    lats = np.array([r.lat for r in rows], dtype=np.float64)
    lngs = np.array([r.lng for r in rows], dtype=np.float64)
    return ids, lats, lngs


def _sqlite_probe(engine: Engine) -> Callable[[], Any] | None:
    """A function returning the SQLite file's data version (it changes with every commit of any other
    connection), on a connection of its own opened in the process that asks; None for other backends."""
    url = engine.url.render_as_string(hide_password=False)
    if engine.dialect.name != "sqlite" or sqlite_path(url) is None:
        return None
    lock = threading.Lock()
    held: dict[int, Any] = {}  # pid -> connection: a connection never crosses a fork

    def probe() -> Any:
        with lock:
            connection = held.get(os.getpid())
            if connection is None:
                connection = engine.raw_connection()
                connection.detach()  # the cache's own, outside the pool
                held.clear()
                held[os.getpid()] = connection
            cursor = connection.cursor()
            try:
                cursor.execute("PRAGMA data_version")
                return cursor.fetchone()[0]
            finally:
                cursor.close()

    return probe
