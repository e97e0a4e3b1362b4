"""Odd data in the database and odd moments in requests never take the search app down.

A database from an older loader (or another one) may hold a parish page's typo "30.02.2026" as the one-off
date "2026-02-30", an "MM-DD" that is no day ("13-01"), or a season "02-30..11-31": every route that reads
them answers 200 without them, on SQLite and on PostgreSQL. Moments far from now (year 1, year 9999) are a
400 with a message, not an overflow.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from icalendar import Calendar
from postgres_cluster import postgres_cluster, requires_postgres
from search_fixtures import load_database
from sqlalchemy import delete, insert, select

from msze.search.app import create_app
from msze.search.db import make_engine, mass_times, metadata, one_off_masses, parishes

NOW = datetime(2026, 12, 5, 16, 0, tzinfo=UTC)  # Saturday 17:00 in Warsaw
NEAR = "51.7592,19.4560"
GOOD = [("2026-12-06", "11:11", "dobra jutro"), ("12-24", "22:22", "dobra wigilia"),
        (None, "13:13", "bez daty")]  # fmt: skip
BAD = [("2026-02-30", "05:51", "zly luty"), ("2026-11-31", "05:52", "zly listopad"),
       ("02-30", "05:53", "zly mm-dd"), ("13-01", "05:54", "zly miesiac"), ("00-10", "05:55", "zly zero"),
       ("2026-W49-7", "05:56", "zly tydzien"), ("2026-12-06", "25:99", "zla godzina")]  # fmt: skip
BAD_SEASON = "02-30..11-31"


def with_odd_rows(db_url: str) -> int:
    """Józef's parish with the GOOD and BAD one-offs and a Sunday 06:06 of an impossible season, inserted
    straight into the database as an older loader could have left them; returns the parish id."""
    engine = make_engine(db_url)
    with engine.begin() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        conn.execute(
            insert(one_off_masses),
            [{"parish_id": pid, "date": d, "time": t, "note": n, "church": None} for d, t, n in GOOD + BAD],
        )
        conn.execute(
            insert(mass_times),
            [{"parish_id": pid, "day": "sun", "minute": 6 * 60 + 6, "time": "06:06", "season": BAD_SEASON}],
        )
    engine.dispose()
    return pid


@pytest.fixture(scope="module")
def pg_url():
    with postgres_cluster("search-odd", max_connections=20) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=requires_postgres)])
def odd(request, tmp_path):
    """(client, parish id) over the fixture database with the odd rows, the clock frozen at NOW."""
    if request.param == "postgresql":
        url = request.getfixturevalue("pg_url")
        engine = make_engine(url)
        metadata.drop_all(engine)
        engine.dispose()
        db_url = load_database(tmp_path, url)
    else:
        db_url = load_database(tmp_path)
    pid = with_odd_rows(db_url)
    app = create_app(db_url, config={"TESTING": True, "NOW": NOW})
    yield app.test_client(), pid
    app.extensions["msze_engine"].dispose()


def assert_no_bad(text: str) -> None:
    for date, time, note in BAD:
        assert note not in text and time not in text, (date, time)
    assert "02-30" not in text and "11-31" not in text and "30.02" not in text


def test_impossible_one_off_dates_are_skipped_by_every_route(odd):
    client, pid = odd
    for when in ("", "&to=2026-12-19T17:00"):  # to the next noon; and the longest window, 14 days
        masses = client.get(f"/api/masses?near={NEAR}&radius=5&from=2026-12-05T17:00{when}")
        assert masses.status_code == 200
        starts = [m["start"] for m in masses.get_json()["masses"]]
        assert "2026-12-06T11:11:00+01:00" in starts
        assert_no_bad(json.dumps(masses.get_json(), ensure_ascii=False))
    page = client.get(f"/?near={NEAR}&radius=5&when=2026-12-05T17:00")
    assert page.status_code == 200 and '<b class="hour">11:11</b>' in page.get_data(as_text=True)
    assert_no_bad(page.get_data(as_text=True))

    ics = client.get(f"/parafia/{pid}.ics")
    assert ics.status_code == 200
    notes = {str(e["description"]).split("\n")[0] for e in Calendar.from_ical(ics.data).walk("VEVENT")}
    one_offs = {note for note in notes if not note.startswith("Źródło:")}  # a weekly one names its page only
    assert one_offs == {"dobra jutro"}  # the only real date from today on
    assert_no_bad(ics.get_data(as_text=True))

    html = client.get(f"/parafia/{pid}")
    assert html.status_code == 200
    text = html.get_data(as_text=True)
    assert "dobra jutro" in text and "dobra wigilia" in text and "bez daty" in text
    assert_no_bad(text)
    assert "w okresie podanym na stronie parafii" in text  # the 06:06 of "02-30..11-31", not as a date
    jsonld = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', text, re.S)[1])

    detail = client.get(f"/api/parishes/{pid}")
    assert detail.status_code == 200
    body = detail.get_json()
    assert {o["note"] for o in body["one_off"]} == {note for _, _, note in GOOD} | {
        "W czwartek o 11.00 Msza św. pogrzebowa"
    }
    for published in (jsonld, body["jsonld"]):
        dated = [e["startDate"] for e in published["event"] if "startDate" in e]
        assert "2026-12-06T11:11" in dated and "2026-11-26T11:00" in dated
        assert_no_bad(json.dumps(published, ensure_ascii=False))
        assert "06:06" not in json.dumps(published)  # the Mass of an impossible season is not weekly


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db_url = load_database(tmp_path_factory.mktemp("moments"))
    return create_app(db_url, config={"TESTING": True, "NOW": NOW}).test_client()


FAR = ["0001-01-01T00:00", "9999-12-31T23:59", "0001-01-01T00:00+01:00", "9999-12-31T23:59-14:00",
       "2031-12-10T17:00", "2021-11-30T00:00"]  # fmt: skip


@pytest.mark.parametrize("moment", FAR)
def test_moments_far_from_now_are_a_400_with_a_message(client, moment):
    """Year 1 and 9999 overflowed the window's arithmetic (a 500): every moment parameter is bounded to
    MOMENT_YEARS around the app's now, 2021-12-01 to 2031-12-09 here."""
    base = f"/api/masses?near={NEAR}&radius=5"
    for url in (f"{base}&from={moment}", f"{base}&from=2026-12-05T17:00&to={moment}", f"{base}&to={moment}"):
        response = client.get(url.replace("+", "%2B"))
        assert response.status_code == 400, url
        assert "najwyżej 5 lat od dziś (od 2021-12-01 do 2031-12-09)" in response.get_json()["error"]
    page = client.get(f"/?near={NEAR}&when={moment.replace('+', '%2B')}")
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert "Pole „Kiedy” może być najwyżej 5 lat od dziś" in text and "„when”" not in text  # the form's field


def test_moments_within_the_bounds_are_answered(client):
    for moment in ("2031-12-08T17:00", "2021-12-02T17:00", "2026-12-05T17:00+01:00"):
        assert client.get(f"/api/masses?near={NEAR}&from={moment.replace('+', '%2B')}").status_code == 200
        assert client.get(f"/?near={NEAR}&when={moment.replace('+', '%2B')}").status_code == 200


moments = st.one_of(
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31, 23, 59)).map(
        lambda moment: moment.isoformat(timespec="minutes")
    ),
    st.datetimes(timezones=st.timezones()).map(lambda moment: moment.isoformat()),
    st.sampled_from(["now", "teraz", "", "0001-01-01T00:00+23:59", "9999-12-31T23:59-23:59", "2026-02-30"]),
    st.text(max_size=30),
)
near_args = st.fixed_dictionaries(
    {},
    optional={
        "near": st.one_of(st.just(NEAR), st.text(max_size=30), st.tuples(st.floats(), st.floats()).map(
            lambda point: f"{point[0]},{point[1]}")),
        "radius": st.one_of(st.text(max_size=12), st.floats().map(str)),
        "when": moments, "from": moments, "to": moments,
        "day": st.text(max_size=20), "service": st.sampled_from(["mass", "confession", "x"]),
        "page": st.one_of(st.text(max_size=12), st.integers().map(str)),
        "per_page": st.one_of(st.text(max_size=12), st.integers().map(str)),
    },
)  # fmt: skip
FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FEW
@given(args=near_args)
@example(args={"near": NEAR, "when": "9999-12-31T23:59"})  # the 500s of before, always tried first
@example(args={"near": NEAR, "from": "0001-01-01T00:00"})
@example(args={"near": NEAR, "from": "9999-12-31T23:59", "to": "9999-12-31T23:59"})
def test_the_near_query_and_the_api_never_answer_500(client, args):
    for route in ("/", "/api/masses"):
        assert client.get(route, query_string=args).status_code < 500, (route, args)


@pytest.fixture(scope="module")
def odd_client(tmp_path_factory):
    db_url = load_database(tmp_path_factory.mktemp("odd-one-offs"))
    app = create_app(db_url, config={"TESTING": True, "NOW": NOW})
    with make_engine(db_url).connect() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
    return app, pid


one_off_rows = st.lists(
    st.fixed_dictionaries(
        {
            "date": st.none() | st.text(max_size=10) | st.dates().map(str) | st.just("2026-12-06"),
            "time": st.text(max_size=5) | st.times().map(lambda t: t.strftime("%H:%M")),
            "church": st.none() | st.text(max_size=10),
            "note": st.text(max_size=10),
        }
    ),
    max_size=4,
)


@FEW
@given(rows=one_off_rows)
def test_any_stored_one_off_never_takes_a_route_down(odd_client, rows):
    """One-offs as any text in the database (dates, times): every route that reads them answers."""
    app, pid = odd_client
    engine = app.extensions["msze_engine"]
    with engine.begin() as conn:
        conn.execute(delete(one_off_masses).where(one_off_masses.c.parish_id == pid))
        if rows:
            conn.execute(insert(one_off_masses), [{"parish_id": pid, **row} for row in rows])
    client = app.test_client()
    for url in (f"/api/masses?near={NEAR}&from=2026-12-05T17:00&to=2026-12-19T17:00",
                f"/?near={NEAR}&when=2026-12-05T17:00", f"/parafia/{pid}.ics", f"/parafia/{pid}",
                f"/api/parishes/{pid}"):  # fmt: skip
        assert client.get(url).status_code == 200, (url, rows)
