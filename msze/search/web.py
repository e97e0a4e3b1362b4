"""What the search app's Blueprints share: the request's database connection, the aggregates cached per app,
and public URLs that never come from the Host header.

The engine lives in `app.extensions["msze_engine"]` (one per app, set by `create_app`); a request opens one
connection on first use and `close_connection` (a teardown) returns it to the pool.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import current_app, g, request, url_for
from sqlalchemy import Connection

from msze.search import query
from msze.search.gazetteer import Gazetteer, gazetteer


def now() -> datetime:
    """The app's clock: the time now, or its config `NOW` (an aware datetime) where a test freezes it."""
    return current_app.config.get("NOW") or datetime.now(UTC)


def conn() -> Connection:
    """The connection of this request, opened on first use."""
    if "conn" not in g:
        g.conn = current_app.extensions["msze_engine"].connect()
    return g.conn


def close_connection(_exc: BaseException | None) -> None:
    connection = g.pop("conn", None)
    if connection is not None:
        connection.close()


def cached(name: str, compute: Callable[[Connection], Any]) -> Any:
    """`compute(conn())`, kept for FRESHNESS_CACHE_SECONDS: the aggregates over all parishes change only when
    the database is loaded, and every page shows them."""
    cache = current_app.extensions["msze_cache"]
    hit = cache.get(name)
    if hit and time.monotonic() - hit[0] < current_app.config["FRESHNESS_CACHE_SECONDS"]:
        return hit[1]
    value = compute(conn())
    cache[name] = (time.monotonic(), value)
    return value


def freshness() -> dict:
    return cached("freshness", query.freshness)


def dioceses() -> list[str]:
    return cached("dioceses", query.dioceses)


def places() -> Gazetteer:
    """The place names of the directory (msze/search/gazetteer.py), rebuilt as often as the freshness note."""
    return cached("gazetteer", gazetteer)


def next_masses(
    near: tuple[float, float],
    radius: float,
    start: datetime,
    end: datetime | None = None,
    service: str = "mass",
) -> list[dict]:
    """`upcoming.next_masses` through this process's cache of the areas and minutes (msze/search/cache.py)."""
    cache = current_app.extensions["msze_near_cache"]
    return cache.next_masses(conn(), near, radius, start, end, service)


def public_url(endpoint: str, **values: Any) -> str:
    """A URL for the API and JSON-LD: under BASE_URL when set, else relative; never from the Host."""
    path = url_for(endpoint, **values)
    base = current_app.config["BASE_URL"]
    return base + path.removeprefix(request.script_root) if base else path
