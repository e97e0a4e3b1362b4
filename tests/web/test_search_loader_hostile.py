"""The loader against odd and hostile values: one bad field skips that entry (counted), never the load; a
database loaded by the old host/domain join is refused until repaired."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert, select, update

from msze.search.db import (
    create_schema,
    loader_meta,
    make_engine,
    mass_times,
    one_off_masses,
    parishes,
)
from msze.search.loader import LegacyDatabase, load
from msze.search.loader.results import MAX_ROWS_PER_PARISH

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
SITE = "http://parafia.test/"


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(tmp_path / "db.sqlite")
    create_schema(engine)
    return engine


def places(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "places.tsv"
    path.write_text("Parafia\tMiejscowość\turl\tlat\tlng\n" + text, encoding="utf-8")
    return path


def results(tmp_path: Path, *objects: dict) -> Path:
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return path


def result(**fields) -> dict:
    return {"start_url": SITE, "status": "finished", "crawled_at": "2026-11-30T10:00:00Z"} | fields


def weekly(time: str, **fields) -> dict:
    return {"days": ["sun"], "time": time, "church": None, "season": None} | fields


def times(engine) -> set[str]:
    with engine.connect() as conn:
        return {row.time for row in conn.execute(select(mass_times.c.time))}


def test_a_places_file_mixing_rows_with_and_without_a_website_loads_alone(tmp_path, engine):
    # The shape of the thesis's extended.tsv: some parishes have no website and no place.
    path = places(tmp_path, "A\tX\thttp://a.test/\t50.1\t19.9\nB\tX\t\t\t\nC\tY\thttp://c.test/\t\t\n")
    report = load(engine, places_path=path)
    assert (report.parishes_inserted, report.websites_set) == (3, 2)
    with engine.connect() as conn:
        rows = {r.name: r.website for r in conn.execute(select(parishes.c.name, parishes.c.website))}
    assert rows == {"A": "http://a.test/", "B": None, "C": "http://c.test/"}


def test_impossible_coordinates_are_dropped_counted_and_listed(tmp_path, engine):
    path = places(
        tmp_path,
        "A\tX\thttp://a.test/\tnan\t19\nB\tX\thttp://b.test/\tinf\t19\nC\tX\thttp://c.test/\t1e308\t19\n"
        "D\tX\thttp://d.test/\t50,07\t19\nE\tX\thttp://e.test/\t50.07\t19.9\n",
    )
    report = load(engine, places_path=path)
    assert report.coordinates_dropped == [
        "'A': lat 'nan'", "'B': lat 'inf'", "'C': lat '1e308'", "'D': lat '50,07'"
    ]  # fmt: skip
    assert report.as_dict()["coordinates_dropped"] == 4
    jsonl = tmp_path / "places.jsonl"
    jsonl.write_text(json.dumps({"name": "F", "city": "X", "url": "http://f.test/", "lat": 10**400, "lng": 1})
                     + "\n", encoding="utf-8")  # fmt: skip
    assert load(engine, places_path=jsonl).coordinates_dropped == [f"'F': lat '{str(10**400)[:40]}'"]


@pytest.mark.parametrize(
    "entry",
    [
        weekly("07:00", days=5),
        weekly("07:00", days=True),
        weekly("07:00", days=[["sun"]]),
        weekly("07:00", church=["x"], season=5, evidence=[{"score": "x", "url": 5}]),
        "07:00",
    ],
)
def test_a_wrong_type_skips_that_entry_not_the_load(tmp_path, engine, entry):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    odd = result(schedule=[entry, weekly("09:00")], confession=[{"days": 7, "start": "17:00"}])
    report = load(engine, results_path=results(tmp_path, odd), now=NOW)
    assert report.results_loaded == 1 and not report.bad_lines
    assert "09:00" in times(engine)


def test_a_first_version_day_as_a_list_skips_that_mass(tmp_path, engine):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    masses = [{"time": "07:00", "day": ["sunday"]}, {"time": "08:00", "day": "sunday"}]
    report = load(engine, results_path=results(tmp_path, result(masses=masses)), now=NOW)
    assert report.results_loaded == 1 and times(engine) == {"08:00"}


def test_a_date_typo_on_a_page_is_no_one_off(tmp_path, engine):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    one_off = [
        {"date": d, "time": "18:00"} for d in ("2026-02-30", "2026-11-31", "13-01", "12-24", "2028-02-29")
    ]
    report = load(engine, results_path=results(tmp_path, result(schedule=[], one_off=one_off)), now=NOW)
    with engine.connect() as conn:
        dates = sorted(r.date for r in conn.execute(select(one_off_masses.c.date)))
    assert dates == ["12-24", "2028-02-29"] and report.times_skipped == 3


def test_a_crawl_time_in_the_future_is_taken_as_now_and_does_not_freeze_the_parish(tmp_path, engine):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    wrong_clock = result(crawled_at="2099-01-01T00:00:00Z", schedule=[weekly("07:00")])
    report = load(engine, results_path=results(tmp_path, wrong_clock), now=NOW)
    assert report.results_future == 1
    later = datetime(2026, 12, 8, tzinfo=UTC)
    real = result(crawled_at="2026-12-07T10:00:00Z", schedule=[weekly("08:00")])
    report = load(engine, results_path=results(tmp_path, real), now=later)
    assert report.results_loaded == 1 and times(engine) == {"08:00"}  # the next real crawl is not "stale"


def test_the_rows_of_one_parish_are_capped(tmp_path, engine):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    many = [
        weekly(f"{h:02d}:{m:02d}", days=[d])
        for d in ("mon", "tue", "wed")
        for h in range(24)
        for m in range(60)
    ]
    report = load(engine, results_path=results(tmp_path, result(schedule=many)), now=NOW)
    assert report.times_loaded == MAX_ROWS_PER_PARISH
    assert report.times_capped == len(many) - MAX_ROWS_PER_PARISH


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=12,
)
KEYS = ("days", "time", "church", "season", "vigil", "evidence", "start_date", "date", "start", "end", "day")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    entries=st.lists(st.dictionaries(st.sampled_from(KEYS), JSON, max_size=5) | JSON, max_size=4),
    crawled_at=JSON | st.datetimes().map(lambda d: d.isoformat()),
)
def test_any_json_values_never_abort_a_load(tmp_path, engine, entries, crawled_at):
    load(engine, places_path=places(tmp_path, f"A\tX\t{SITE}\t\t\n"))
    line = result(
        crawled_at=crawled_at, schedule=entries, one_off=entries, confession=entries, masses=entries
    )
    path = tmp_path / "results.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(result(schedule=[weekly("07:00")])) + "\n")
    report = load(engine, results_path=path, now=NOW)
    assert report.lines_ok + len(report.bad_lines) == 2


def _old_database(engine) -> None:
    """A database as an older msze left it: results joined by host, so four portal parishes share one's."""
    with engine.begin() as conn:
        for n in range(1, 5):
            conn.execute(insert(parishes).values(
                name=f"P{n}", city="X", address="", website=f"http://diecezja.test/parafia.php?id={n}",
                domain="diecezja.test", name_key=f"p{n}", city_key="x", diocese_key="",
                attempted_at=NOW, crawled_at=NOW, crawl_status="finished",
            ))  # fmt: skip
            first = "http://diecezja.test/parafia.php?id=1"  # parish 1's times, copied onto 2, 3 and 4
            conn.execute(insert(mass_times).values(parish_id=n, day="sun", minute=420, time="07:00",
                                                   source_url=first))  # fmt: skip
        conn.execute(insert(parishes).values(
            name="Own", city="Y", address="", website="http://own.test/", domain="own.test", name_key="own",
            city_key="y", diocese_key="", attempted_at=NOW, crawled_at=NOW, crawl_status="finished",
        ))  # fmt: skip
        conn.execute(insert(mass_times).values(parish_id=5, day="sun", minute=600, time="10:00",
                                               source_url="http://own.test/msze"))  # fmt: skip
        conn.execute(update(parishes).values(town_key="x"))


def test_a_database_of_the_old_join_is_refused_then_repaired(tmp_path, engine):
    _old_database(engine)
    path = results(tmp_path, result(start_url="http://diecezja.test/parafia.php?id=2",
                                    schedule=[weekly("08:00")]))  # fmt: skip
    with pytest.raises(LegacyDatabase, match="--repair"):
        load(engine, results_path=path, now=NOW)
    assert len(times(engine)) == 2  # refused: nothing changed
    report = load(engine, results_path=path, now=NOW, repair=True)
    assert report.parishes_repaired == 4 and report.results_loaded == 1
    with engine.connect() as conn:
        by_parish = {r.parish_id: r.time for r in conn.execute(select(mass_times))}
        assert conn.execute(select(loader_meta.c.value)).scalar_one() == "start_url"
    assert by_parish == {2: "08:00", 5: "10:00"}  # the portal's copies cleared; a parish of its own kept
    assert load(engine, results_path=path, now=NOW).results_stale == 1  # marked: no refusal again
