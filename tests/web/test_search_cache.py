"""The per-process cache of the next Masses (msze/search/cache.py): every answer is upcoming.next_masses's
own, for points all over an area, both services and any second of the minute; a reload empties it at once."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_fixtures import load_database, results, write_results
from sqlalchemy import event

from msze.search import cache as cache_module
from msze.search import upcoming
from msze.search.app import create_app
from msze.search.cache import NearCache
from msze.search.calendar import WARSAW
from msze.search.db import create_schema, make_engine
from msze.search.demo.generate import CENTRES, bulk_insert
from msze.search.loader import load
from msze.search.params import SERVICES

KRAKOW = CENTRES["Kraków"]
SATURDAY = datetime(2026, 12, 5, 16, 0, tzinfo=UTC)  # 17:00 in Warsaw


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """1 200 generated parishes (about 100 within 4 km of each of 12 city centres) with 6 times each."""
    engine = make_engine(tmp_path_factory.mktemp("cache") / "generated.sqlite")
    create_schema(engine)
    bulk_insert(engine, 1200, 6)
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def shared(generated) -> NearCache:
    """One cache for all the examples of the property below: most are answered from what earlier ones read."""
    return NearCache(generated, seconds=3600, areas=64, parishes=5000)


def same(cache: NearCache, conn, *args) -> list[dict]:
    """The cache's answer, checked to be the fresh computation's, byte for byte as JSON."""
    cached = cache.next_masses(conn, *args)
    assert json.dumps(cached) == json.dumps(upcoming.next_masses(conn, *args))
    return cached


@settings(max_examples=60, deadline=None)
@given(
    dlat=st.floats(-0.04, 0.04),
    dlng=st.floats(-0.04, 0.04),
    radius=st.sampled_from([0.5, 1.0, 2.5, 5.0]),
    second=st.integers(0, 59),
    minute=st.sampled_from([0, 1, 30]),
    service=st.sampled_from(SERVICES),
)
def test_a_cached_answer_is_the_fresh_one_anywhere_in_the_area(
    generated, shared, dlat, dlng, radius, second, minute, service
):
    start = (SATURDAY + timedelta(minutes=minute, seconds=second)).astimezone(WARSAW)
    with generated.connect() as conn:
        same(shared, conn, (KRAKOW[0] + dlat, KRAKOW[1] + dlng), radius, start, None, service)


def statements(engine) -> list[str]:
    """The SQL statements run on `engine` from now on (a list that grows)."""
    seen: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    return seen


def test_phones_in_one_neighbourhood_share_what_was_read(generated):
    cache = NearCache(generated, seconds=60, areas=16, parishes=1000)
    start = SATURDAY.astimezone(WARSAW)
    points = [(KRAKOW[0] + 0.0003 * i, KRAKOW[1] - 0.0002 * i) for i in range(8)]  # within one cell
    with generated.connect() as conn:
        assert same(cache, conn, points[0], 5.0, start)
        seen = statements(generated)
        for point in points:
            same(cache, conn, point, 5.0, start + timedelta(seconds=20))  # same minute
        fresh = len(seen)
        for point in points:
            cache.next_masses(conn, point, 5.0, start + timedelta(seconds=40))
        assert len(seen) == fresh  # the same area in the same minute: no query at all
        cache.next_masses(conn, points[0], 5.0, start + timedelta(minutes=1))
        assert len(seen) > fresh  # the next minute reads the times again (not the area)
    assert len(cache.areas) == 1


def test_the_cache_stays_within_its_bounds(generated):
    cache = NearCache(generated, seconds=60, areas=3, parishes=40)
    start = SATURDAY.astimezone(WARSAW)
    with generated.connect() as conn:
        for i in range(6):
            same(cache, conn, (KRAKOW[0] + 0.02 * i, KRAKOW[1]), 3.0, start)
    assert len(cache.areas) == 3 and len(cache.times) == 40


def test_an_entry_expires_after_its_seconds(generated, monkeypatch):
    clock = [1000.0]
    monkeypatch.setattr(cache_module.time, "monotonic", lambda: clock[0])
    cache = NearCache(generated, seconds=30, areas=8, parishes=500)
    cache._probe = None  # as on PostgreSQL: only the time tells a reload
    start = SATURDAY.astimezone(WARSAW)
    with generated.connect() as conn:
        cache.next_masses(conn, KRAKOW, 2.0, start)
        seen = statements(generated)
        clock[0] += 29
        cache.next_masses(conn, KRAKOW, 2.0, start)
        assert not seen
        clock[0] += 1
        same(cache, conn, KRAKOW, 2.0, start)
        assert seen


def test_a_reload_empties_it_at_once(tmp_path):
    """The fixture parishes (a chapel, a vigil, confession times): cached, then `search load` of a newer
    crawl from another connection; the next answer has the new times, through the cache and the app."""
    db = load_database(tmp_path)
    engine = make_engine(db)
    cache = NearCache(engine, seconds=3600, areas=8, parishes=100)
    near, start = (51.7592, 19.4560), datetime(2026, 12, 5, 17, 0, tzinfo=WARSAW)
    app = create_app(db, config={"TESTING": True})
    url = "/api/masses?near=51.7592,19.4560&radius=5&from=2026-12-05T17:00&per_page=100"
    client = app.test_client()
    with engine.connect() as conn:
        before = same(cache, conn, near, 5.0, start)
        confession = same(cache, conn, near, 5.0, start, None, "confession")
        assert [(m["time"], m["end"]) for m in confession] == [("17:00", "18:00")]
    assert served(client, url) == before
    assert ("2026-12-06T10:30:00+01:00", "Świętego Józefa") in {(m["start"], m["parish"]) for m in before}

    newer = results(crawled_at="2026-11-27T08:00:00Z", jozef_times=("08:15", "11:45"))
    load(make_engine(db), None, None, write_results(tmp_path / "newer.jsonl", newer))

    with engine.connect() as conn:
        after = same(cache, conn, near, 5.0, start)
    jozef = {m["time"] for m in after if m["parish"] == "Świętego Józefa" and m["start"] > "2026-12-06"}
    assert {"08:15", "11:45"} <= jozef and "10:30" not in jozef
    assert served(client, url) == after
    engine.dispose()


def served(client, url: str) -> list[dict]:
    """The API's next Masses without the link it adds to each."""
    return [{k: v for k, v in m.items() if k != "html_url"} for m in client.get(url).get_json()["masses"]]


def test_seconds_0_turns_it_off(generated):
    cache = NearCache(generated, seconds=0, areas=8, parishes=100)
    with generated.connect() as conn:
        same(cache, conn, KRAKOW, 5.0, SATURDAY.astimezone(WARSAW))
    assert len(cache.areas) == len(cache.times) == 0
