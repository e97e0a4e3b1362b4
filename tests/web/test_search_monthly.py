"""Monthly Masses ("w pierwszy piątek miesiąca") through the search: loaded from results.jsonl (an older
line without them still loads), on the parish page, in the next Masses on the right days and in the iCal
feed as a monthly rule."""

from __future__ import annotations

import datetime as dt

import pytest
from icalendar import Calendar
from search_fixtures import results, write_inputs
from sqlalchemy import insert, select

from msze.search.app import create_app
from msze.search.calendar import WARSAW, month_weeks, monthly_on
from msze.search.db import create_schema, make_engine, monthly_masses, parishes
from msze.search.ics import parish_calendar
from msze.search.loader import load
from msze.search.query import get_parish
from msze.search.upcoming import next_masses

JOZEF = "http://www.jozef-lodz.pl/porzadek-mszy"


def monthly(week, days, time, note="", church=None, season=None) -> dict:
    return {"week": week, "days": days, "time": time, "church": church, "season": season, "note": note,
            "evidence": [{"url": JOZEF, "context": note, "source": "rules", "score": 1.0}]}  # fmt: skip


@pytest.fixture
def db(tmp_path):
    lines = results()
    lines[0]["monthly"] = [
        monthly(1, ["fri"], "16:30", "W pierwsze piątki miesiąca o 16.30"),
        monthly(-1, ["sun"], "15:00", "W ostatnią niedzielę miesiąca o 15.00", church="Kaplica w Julianowie"),
        monthly(5, ["fri"], "17:00"),  # no fifth week to hold it in: skipped
        monthly(1, ["funday"], "17:00"),
        monthly(1, ["fri"], "25:99"),
    ]
    assert "monthly" not in lines[1]  # a line of an older results file
    engine = make_engine(tmp_path / "m.sqlite")
    create_schema(engine)
    paths = write_inputs(tmp_path, lines)
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.results_loaded == 2 and report.times_skipped >= 3
    yield engine
    engine.dispose()


def test_the_loader_keeps_the_monthly_masses_it_can_date(db):
    with db.connect() as conn:
        got = conn.execute(select(monthly_masses.c.week, monthly_masses.c.days, monthly_masses.c.time)).all()
    assert sorted(got) == [(-1, "sun", "15:00"), (1, "fri", "16:30")]


def test_the_parish_page_says_the_week_of_the_month(db):
    with db.connect() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        parish = get_parish(conn, pid)
    assert [m["label"] for m in parish["monthly"]] == [
        "w pierwszy piątek miesiąca",
        "w ostatnią niedzielę miesiąca",
    ]
    client = create_app(str(db.url), config={"TESTING": True}).test_client()
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "w pierwszy piątek miesiąca: <b>16:30</b>" in page
    assert "w ostatnią niedzielę miesiąca: <b>15:00</b> (Kaplica w Julianowie)" in page


@pytest.mark.parametrize(
    ("day", "weeks"),
    [(dt.date(2026, 12, 4), (1,)), (dt.date(2026, 12, 11), (2,)), (dt.date(2026, 12, 27), (4, -1)),
     (dt.date(2026, 12, 31), (5, -1)), (dt.date(2027, 2, 22), (4, -1)), (dt.date(2027, 2, 21), (3,))],
)  # fmt: skip
def test_the_week_of_the_month(day, weeks):
    assert month_weeks(day) == weeks


def test_the_next_masses_hold_a_monthly_mass_on_its_day_of_the_month_only(db):
    with db.connect() as conn:
        row = conn.execute(select(parishes).where(parishes.c.name == "Świętego Józefa")).one()

        def monthly_times(start: dt.datetime) -> list[str]:
            found = next_masses(conn, (row.lat, row.lng), 5.0, start, start + dt.timedelta(days=1))
            return [m["start"] for m in found if m["parish_id"] == row.id and m["time"] in ("16:30", "15:00")]

        # 4 December 2026 is the first Friday, the 11th the second; 27 December the last Sunday
        assert monthly_times(dt.datetime(2026, 12, 4, 8, tzinfo=WARSAW)) == ["2026-12-04T16:30:00+01:00"]
        assert monthly_times(dt.datetime(2026, 12, 11, 8, tzinfo=WARSAW)) == []
        assert monthly_times(dt.datetime(2026, 12, 27, 8, tzinfo=WARSAW)) == ["2026-12-27T15:00:00+01:00"]
        assert monthly_times(dt.datetime(2026, 12, 20, 8, tzinfo=WARSAW)) == []
        # rows another loader wrote unreadably are no Masses, and never an error
        conn.execute(
            insert(monthly_masses),
            [{"parish_id": row.id, "week": 1, "days": "fri", "time": "25:99", "note": ""},
             {"parish_id": row.id, "week": 7, "days": "fri,xyz", "time": "16:45", "note": ""}],
        )  # fmt: skip
        assert monthly_times(dt.datetime(2026, 12, 4, 8, tzinfo=WARSAW)) == ["2026-12-04T16:30:00+01:00"]
        assert [m["time"] for m in get_parish(conn, row.id)["monthly"]] == ["16:30", "15:00"]


def test_the_feed_has_a_monthly_rule_from_the_first_day_it_holds(db):
    with db.connect() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        parish = get_parish(conn, pid)
    now = dt.datetime(2026, 12, 5, 12, tzinfo=dt.UTC)  # after the first Friday of December
    cal = Calendar.from_ical(parish_calendar(parish, now.date(), now))
    rules = {
        tuple(e["rrule"]["BYDAY"]): e
        for e in cal.walk("VEVENT")
        if "rrule" in e and e["rrule"]["FREQ"] == ["MONTHLY"]
    }
    assert set(rules) == {("1FR",), ("-1SU",)}
    assert rules[("1FR",)]["dtstart"].dt.isoformat() == "2027-01-01T16:30:00+01:00"
    assert rules[("-1SU",)]["dtstart"].dt.isoformat() == "2026-12-27T15:00:00+01:00"
    assert "Kaplica w Julianowie" in str(rules[("-1SU",)]["summary"])
    assert b"RRULE:FREQ=MONTHLY;BYDAY=1FR" in parish_calendar(parish, now.date(), now)


def test_a_seasonal_monthly_mass_is_held_in_its_season_only():
    row = {"week": 1, "days": ["fri"], "time": "20:00", "season": "summer"}
    assert monthly_on(dt.date(2026, 7, 3), row) and not monthly_on(dt.date(2026, 10, 2), row)
    assert not monthly_on(dt.date(2026, 7, 10), row)  # the second Friday of July
