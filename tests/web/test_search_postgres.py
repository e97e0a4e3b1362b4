"""The same search code on PostgreSQL: a throwaway local cluster (initdb in /tmp, 127.0.0.1, a free port).

Skipped with a reason when PostgreSQL's server binaries or the psycopg driver are missing. Covers the loader
(re-load, history, timestamps with time zone), the search filters, the API and a correction report.
"""

from __future__ import annotations

import json
import random
import re
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from postgres_cluster import postgres_cluster, requires_postgres
from search_fixtures import (
    load_database,
    post_reports_at_once,
    results,
    running,
    weekly,
    write_inputs,
    write_results,
)
from sqlalchemy import func, inspect, select

from msze.search import upcoming
from msze.search.app import create_app
from msze.search.cache import NearCache
from msze.search.calendar import WARSAW
from msze.search.db import (
    SEASON_LENGTH,
    corrections,
    create_schema,
    make_engine,
    mass_times,
    metadata,
    parishes,
    time_history,
)
from msze.search.demo.generate import CENTRES, bulk_insert
from msze.search.loader import load
from msze.search.reports import correction_rows, training_labels

pytestmark = requires_postgres


@pytest.fixture(scope="module")
def pg_url():
    with postgres_cluster("search", max_connections=20) as url:
        yield url


def test_load_search_api_and_corrections_on_postgresql(pg_url, tmp_path):
    engine = make_engine(pg_url)
    metadata.drop_all(engine)
    create_schema(engine)
    create_schema(engine)  # idempotent, the column upgrade included
    paths = write_inputs(tmp_path)
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert (report.parishes_inserted, report.results_loaded, report.results_failed) == (4, 2, 1)
    assert load(engine, results_path=paths["results"]).results_stale == 3
    newer = write_results(tmp_path / "newer.jsonl", results("2026-11-27T08:00:00Z", ("08:00", "10:30")))
    assert load(engine, results_path=newer).history_rows == 1  # Józef's Sunday times changed
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(time_history)).scalar_one() == 3

    app = create_app(pg_url, config={"CORRECTIONS_PER_WINDOW": 1})
    client = app.test_client()
    body = client.get("/api/parishes?city=ŁÓDŹ&day=niedziela&from=07:30&to=20:00").get_json()
    assert [(p["name"], [t["time"] for t in p["times"]]) for p in body["parishes"]] == [
        ("Matki Bożej Różańcowej", ["08:00", "19:30"]),
        # Sunday in day order, then the Saturday vigil (it counts for Sunday)
        ("Świętego Józefa", ["08:00", "09:00", "10:30", "20:00", "19:00"]),
    ]
    assert client.get("/api/parishes?q=j_zefa").get_json()["total"] == 0
    assert client.get("/api/parishes?diocese=opolska").get_json()["parishes"][0]["crawl_status"] == "failed"
    assert client.get("/api/parishes?from=99").status_code == 400
    pid = body["parishes"][1]["id"]
    detail = client.get(f"/api/parishes/{pid}").get_json()
    assert detail["crawled_at"] == "2026-11-27T08:00:00Z"
    assert detail["history"][0]["added"] == ["sun 08:00"]
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "application/ld+json" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "kind": "missing", "day": "sunday", "time": "21:00"}
    assert client.post(f"/parafia/{pid}/zgloszenie", data=form).status_code == 303
    assert client.post(f"/parafia/{pid}/zgloszenie", data=form).status_code == 429
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(corrections)).scalar_one() == 1
    # The review export joins each correction to its stored time (one query, a correlated subquery).
    wrong = {**form, "kind": "wrong", "time": "08:00"}
    other_ip = {"REMOTE_ADDR": "10.0.0.2"}
    assert client.post(f"/parafia/{pid}/zgloszenie", data=wrong, environ_base=other_ip).status_code == 303
    with engine.connect() as conn:
        by_time = {label["time"]: label for row in correction_rows(conn) for label in training_labels(row)}
    assert by_time["08:00"]["context"] == "Msze św. w niedziele: 08.00, 10.30"
    assert by_time["21:00"]["context"] is None
    assert "10:30" in client.get("/eksport.csv?city=Łódź").get_data(as_text=True)
    engine.dispose()
    app.extensions["msze_engine"].dispose()


@pytest.fixture
def fresh_db(pg_url, tmp_path):
    """The fixture inputs loaded into an emptied database on the module's cluster."""
    engine = make_engine(pg_url)
    metadata.drop_all(engine)
    engine.dispose()
    return load_database(tmp_path, pg_url)


def test_parallel_reports_store_exactly_the_limit_on_postgresql(fresh_db):
    app = create_app(fresh_db, config={"CORRECTIONS_PER_WINDOW": 5})
    engine = app.extensions["msze_engine"]
    with engine.connect() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
    with running(app, threads=20) as root:
        statuses = post_reports_at_once(root, pid, 20)
    assert sorted(statuses) == [303] * 5 + [429] * 15
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(corrections)).scalar_one() == 5
    engine.dispose()


def test_malformed_lines_do_not_abort_a_load_on_postgresql(pg_url, tmp_path):
    """What PostgreSQL refuses (NUL in text, a name longer than its column, a 20-character `source`) and
    SQLite takes: each is skipped or cleaned before the database sees it, so one line cannot roll back all."""
    engine = make_engine(pg_url)
    metadata.drop_all(engine)
    create_schema(engine)
    paths = write_inputs(tmp_path)
    with paths["parishes"].open("a", encoding="utf-8") as handle:
        handle.write("x" * 301 + "\tŁódź\t\t\t\t\n")
    objects = results()
    del objects[0]["schedule"]  # a first-version result: its masses are read
    objects[0]["masses"].append({"time": "20:00", "day": "sunday", "context": "a\x00b", "source": "s" * 30})
    objects[0]["error"] = "\x00"
    lines = [json.dumps(r) for r in objects] + ['{"start_url": "http://[::1"}']
    paths["results"].write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.results_loaded == 2 and len(report.bad_lines) == 2
    with engine.connect() as conn:
        row = conn.execute(select(mass_times).where(mass_times.c.time == "20:00")).one()
    assert (row.context, row.source) == ("a b", None)
    engine.dispose()


def test_a_season_of_several_stretches_loads_into_a_database_of_the_narrower_schema(pg_url, tmp_path):
    """An older database's season columns were VARCHAR(40): create_schema widens them, so a Mass held in
    May, June, October and December (a season longer than one range) is stored, not refused."""
    engine = make_engine(pg_url)
    metadata.drop_all(engine)
    create_schema(engine)
    with engine.begin() as conn:
        for table in ("mass_times", "monthly_masses", "confession_times"):
            conn.exec_driver_sql(f"ALTER TABLE {table} ALTER COLUMN season TYPE VARCHAR(40)")
    create_schema(engine)
    for table in ("mass_times", "monthly_masses", "confession_times"):
        columns = {c["name"]: c["type"] for c in inspect(engine).get_columns(table)}
        assert columns["season"].length == SEASON_LENGTH, table
    season = "01-01..01-31,03-01..03-31,05-01..05-31,07-01..07-31,09-01..09-30,11-01..11-30"
    objects = results()
    objects[0]["schedule"].append(
        weekly("09:30", ["sun"], "http://jozef-lodz.pl/", "9:30 - I, III", season=season)
    )
    paths = write_inputs(tmp_path, objects)
    assert load(engine, paths["parishes"], paths["places"], paths["results"]).results_loaded == 2
    with engine.connect() as conn:
        assert (
            conn.execute(select(mass_times.c.season).where(mass_times.c.time == "09:30")).scalar_one()
            == season
        )
    engine.dispose()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    route=st.sampled_from(["/", "/api/parishes", "/eksport.csv"]),
    name=st.sampled_from(["q", "city", "diocese", "day"]),
    value=st.text(alphabet=st.characters(codec="utf-8"), max_size=20),
)
def test_text_parameters_never_5xx_on_postgresql(pg_url, route, name, value):
    """NUL and other control characters in a text filter: PostgreSQL refuses a NUL in a text parameter."""
    client = pg_search_client(pg_url)
    assert client.get(route, query_string={name: value}).status_code < 500


_CLIENTS: dict = {}


def pg_search_client(pg_url: str):
    if pg_url not in _CLIENTS:
        _CLIENTS[pg_url] = create_app(pg_url, config={"TESTING": True}).test_client()
    return _CLIENTS[pg_url]


def test_the_next_masses_cache_answers_as_the_query_on_postgresql(pg_url):
    """The cache picks the nearest parishes with the SQL's arithmetic: on PostgreSQL's doubles too."""
    engine = make_engine(pg_url)
    metadata.drop_all(engine)
    create_schema(engine)
    bulk_insert(engine, 600, 6)
    cache = NearCache(engine, seconds=60, areas=64, parishes=2000)
    rng = random.Random(5)
    krakow, listed = CENTRES["Kraków"], 0
    with engine.connect() as conn:
        for _ in range(40):
            point = (krakow[0] + rng.uniform(-0.03, 0.03), krakow[1] + rng.uniform(-0.03, 0.03))
            start = datetime(2026, 12, 5, 17, rng.randint(0, 2), rng.randint(0, 59), tzinfo=WARSAW)
            args = (point, rng.choice([1.0, 2.5, 5.0]), start)
            fresh = upcoming.next_masses(conn, *args)
            assert json.dumps(cache.next_masses(conn, *args)) == json.dumps(fresh)
            listed += len(fresh)
    assert listed > 400 and 0 < len(cache.areas) < 40
    engine.dispose()
