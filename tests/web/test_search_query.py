"""Pure search: parameter validation, filters, day categories, time range, pagination, indexes."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from search_fixtures import write_inputs
from sqlalchemy import inspect, select
from sqlalchemy.dialects import postgresql
from sqlalchemy.schema import CreateIndex, CreateTable

from msze.search.db import create_schema, make_engine, metadata, parishes
from msze.search.loader import load
from msze.search.params import InvalidQuery, parse_params
from msze.search.query import get_parish, parish_conditions, search


@pytest.fixture
def conn(tmp_path):
    engine = make_engine(tmp_path / "q.sqlite")
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    with engine.connect() as connection:
        yield connection


def names(result) -> list[str]:
    return [p["name"] for p in result.parishes]


def test_parse_params_accepts_polish_and_english():
    params = parse_params({"q": "  św.  Józefa ", "day": "niedziela", "from": "17", "to": "20.30"})
    assert params.q == "św. Józefa"
    assert params.days == ("sun",)
    assert (params.time_from, params.time_to) == (17 * 60, 20 * 60 + 30)
    assert parse_params({"day": "dzień powszedni,sobota"}).days == ("weekday", "sat")
    assert parse_params({"day": "Poniedziałek,środa,holiday"}).days == ("mon", "wed", "holiday")
    assert parse_params({"per_page": "1000"}).per_page == 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"from": "25:00"}, "from"),
        ({"from": "17:00'; DROP TABLE parishes;--"}, "from"),
        ({"to": "abc"}, "to"),
        ({"from": "20:00", "to": "17:00"}, "późniejsza"),
        ({"day": "ponidzialek"}, "dzień"),
        ({"page": "0"}, "page"),
        ({"per_page": "-5"}, "per_page"),
        ({"q": "x" * 201}, "za długi"),
    ],
)
def test_parse_params_rejects_bad_input(args, message):
    with pytest.raises(InvalidQuery, match=message):
        parse_params(args)


def test_search_by_city_name_and_diocese_ignores_case_and_diacritics(conn):
    assert names(search(conn, parse_params({"city": "lodz"}))) == [
        "Matki Bożej Różańcowej",
        "Świętego Józefa",
    ]
    assert names(search(conn, parse_params({"q": "JOZEFA"}))) == ["Świętego Józefa"]
    assert names(search(conn, parse_params({"q": "józefa łódź"}))) == ["Świętego Józefa"]
    assert names(search(conn, parse_params({"q": "Parafia pw. św. Józefa, Łódź"}))) == ["Świętego Józefa"]
    assert len(search(conn, parse_params({"diocese": "Łódzka"})).parishes) == 3
    # LIKE wildcards in the input are literal characters, not patterns ("_" would otherwise match "o").
    assert search(conn, parse_params({"q": "j_zefa"})).total == 0
    assert search(conn, parse_params({"q": "%"})).total == 4  # punctuation only: no text filter


def test_city_includes_its_districts_but_not_lookalike_towns(conn, tmp_path):
    extra = tmp_path / "extra.tsv"
    extra.write_text(
        "Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo\n"
        "św. Anny\tŁódź-Wiskitno\tśw. Anny|ul. Polna 1\tłódzka\tWidzew\tłódzkie\n"
        "św. Anny\tŁódź Andrzejów\tśw. Anny|ul. Lipowa 2\tłódzka\tWidzew\tłódzkie\n"
        "św. Anny\tŁódzkie Pole\tśw. Anny|Łódzkie Pole 2\tłódzka\tWieś\tłódzkie\n",
        encoding="utf-8",
    )
    load(conn.engine, parishes_path=extra)
    cities = [p["city"] for p in search(conn, parse_params({"city": "ŁÓDŹ"})).parishes]
    assert sorted(cities) == ["Łódź", "Łódź", "Łódź Andrzejów", "Łódź-Wiskitno"]


def test_day_and_time_filters_return_only_matching_times(conn):
    result = search(conn, parse_params({"city": "Łódź", "day": "sunday", "from": "17:00", "to": "20:00"}))
    assert names(result) == ["Matki Bożej Różańcowej", "Świętego Józefa"]
    assert [t["time"] for t in result.parishes[0]["times"]] == ["19:30"]
    # the Saturday vigil counts for Sunday; the summer 20:00 is a Sunday time too
    assert [(t["day"], t["time"], t["vigil"]) for t in result.parishes[1]["times"]] == [
        ("sun", "18:00", False),
        ("sun", "20:00", False),
        ("sat", "19:00", True),
    ]
    # Saturday morning: only Józef; weekday evening: Józef; holiday: Różańcowa.
    assert names(search(conn, parse_params({"day": "sobota", "to": "08:00"}))) == ["Świętego Józefa"]
    assert names(search(conn, parse_params({"day": "weekday", "from": "17:30"}))) == ["Świętego Józefa"]
    assert names(search(conn, parse_params({"day": "wtorek", "from": "17:30"}))) == ["Świętego Józefa"]
    assert names(search(conn, parse_params({"day": "holiday"}))) == ["Matki Bożej Różańcowej"]
    # Bounds are inclusive.
    assert search(conn, parse_params({"day": "sunday", "from": "10:30", "to": "10:30"})).total == 1


def test_without_time_filter_all_parishes_and_all_times_in_display_order(conn):
    result = search(conn, parse_params({"diocese": "łódzka"}))
    assert result.total == 3
    jozef = next(p for p in result.parishes if p["name"] == "Świętego Józefa")
    assert [(t["day"], t["time"]) for t in jozef["times"]] == [
        ("sun", "07:00"),
        ("sun", "09:00"),
        ("sun", "10:30"),
        ("sun", "18:00"),
        ("sun", "20:00"),
        *((day, "18:00") for day in ("mon", "tue", "wed", "thu", "fri")),
        ("sat", "07:30"),
        ("sat", "19:00"),
    ]
    zgierz = next(p for p in result.parishes if p["city"] == "Zgierz")
    assert zgierz["times"] == [] and zgierz["website"] is None


def test_pagination(conn):
    first = search(conn, parse_params({"per_page": "3"}))
    second = search(conn, parse_params({"per_page": "3", "page": "2"}))
    assert first.total == 4 and first.pages == 2
    assert len(first.parishes) == 3 and len(second.parishes) == 1
    assert not set(names(first)) & set(names(second))
    assert search(conn, parse_params({"page": "9"})).parishes == []


def test_get_parish_groups_schedule_by_day(conn):
    pid = search(conn, parse_params({"q": "józefa"})).parishes[0]["id"]
    parish = get_parish(conn, pid)
    assert [(g["label"], g["church"], g["season"]) for g in parish["schedule"]] == [
        ("Niedziela", "", ""),
        ("Poniedziałek–Piątek", "", ""),
        ("Sobota", "", ""),
        ("Sobota (Msza wigilijna)", "", ""),
        ("Niedziela", "", "summer"),
        ("Niedziela", "Kaplica w Julianowie", ""),
    ]
    assert [t["time"] for t in parish["schedule"][0]["times"]] == ["07:00", "10:30", "18:00"]
    assert parish["schedule"][4]["season_label"] == "latem"
    assert [(o["date"], o["time"]) for o in parish["one_off"]] == [("2026-11-26", "11:00")]
    assert [(c["days"], c["start"], c["end"]) for c in parish["confession"]] == [(["sat"], "17:00", "18:00")]
    assert parish["address"] == ["Świętego Józefa", "ul. Ogrodowa 22", "91-065 Łódź"]
    assert parish["history"][0]["added"][0] == "fri 18:00"
    assert get_parish(conn, 999) is None


def test_schema_has_indexes_for_the_query(tmp_path):
    engine = make_engine(tmp_path / "i.sqlite")
    create_schema(engine)
    inspector = inspect(engine)
    parish_indexes = {tuple(ix["column_names"]) for ix in inspector.get_indexes("parishes")}
    time_indexes = {tuple(ix["column_names"]) for ix in inspector.get_indexes("mass_times")}
    assert ("city_key", "name_key") in parish_indexes
    assert ("diocese_key", "city_key", "name_key") in parish_indexes
    assert ("name_key",) in parish_indexes
    assert ("town_key", "city_key", "name_key") in parish_indexes
    assert ("day", "minute", "parish_id") in time_indexes
    assert ("parish_id", "day", "minute") in time_indexes


def test_schema_and_queries_compile_for_postgresql():
    """The same code must run on PostgreSQL: DDL and every search statement compile for its dialect."""
    dialect = postgresql.dialect()
    for table in metadata.sorted_tables:
        assert "CREATE TABLE" in str(CreateTable(table).compile(dialect=dialect))
        for index in table.indexes:
            assert "CREATE INDEX" in str(CreateIndex(index).compile(dialect=dialect))
    params = parse_params(
        {"q": "józefa 50%", "city": "Łódź", "diocese": "łódzka", "day": "sunday", "from": "17"}
    )
    sql = str(select(parishes.c.id).where(*parish_conditions(params)).compile(dialect=dialect))
    assert "LIKE" in sql and "EXISTS" in sql and "%(" in sql  # bound parameters, pyformat style


def test_create_schema_adds_columns_an_older_database_lacks(tmp_path):
    engine = make_engine(tmp_path / "old.sqlite")
    create_schema(engine)
    with engine.begin() as connection:
        connection.exec_driver_sql("ALTER TABLE mass_times DROP COLUMN start_date")
        connection.exec_driver_sql("DROP INDEX ix_parishes_town_key_city_key_name_key")
        connection.exec_driver_sql("ALTER TABLE parishes DROP COLUMN town_key")
        connection.exec_driver_sql(
            "INSERT INTO parishes (name, city, address, decanate, diocese, voivodeship, name_key, city_key, "
            "diocese_key) VALUES ('a', 'Kraków-Tyniec', '', '', '', '', 'a', 'krakow-tyniec', '')"
        )
    create_schema(engine)
    assert "start_date" in {c["name"] for c in inspect(engine).get_columns("mass_times")}
    with engine.connect() as connection:
        assert search(connection, parse_params({"city": "Kraków"})).total == 1  # town_key filled in


def test_near_lists_parishes_within_the_radius_nearest_first(conn):
    centre = "51.7592,19.4560"  # Łódź, Piotrkowska
    result = search(conn, parse_params({"near": centre, "radius": "10"}))
    assert [(p["name"], p["distance_km"]) for p in result.parishes] == [
        ("Świętego Józefa", 2.3),
        ("Matki Bożej Różańcowej", 2.63),
    ]
    assert search(conn, parse_params({"near": centre, "radius": "2,4"})).total == 1
    assert search(conn, parse_params({"near": "50.67,17.92", "radius": "100"})).parishes[0]["city"] == "Opole"
    assert names(search(conn, parse_params({"near": centre, "day": "holiday"}))) == ["Matki Bożej Różańcowej"]


@pytest.mark.parametrize(
    ("args", "message"),
    [({"near": "52.2"}, "near"), ({"near": "95,20"}, "near"), ({"near": "a,b"}, "near"),
     ({"near": "52,21", "radius": "500"}, "radius"), ({"near": "52,21", "radius": "x"}, "radius")],
)  # fmt: skip
def test_bad_near_and_radius_are_400_messages(args, message):
    with pytest.raises(InvalidQuery, match=message):
        parse_params(args)


def test_the_next_masses_read_only_the_rows_their_window_can_hold():
    from msze.search.calendar import WARSAW
    from msze.search.upcoming import row_windows

    saturday = datetime(2026, 12, 5, 17, 0, tzinfo=WARSAW)
    assert row_windows(saturday, saturday + timedelta(hours=19)) == {"sat": (1020, 1439), "sun": (0, 720)}
    # Christmas Eve to Christmas noon: the holy day's Sunday and holiday rows whole, not cut at noon
    eve = datetime(2026, 12, 24, 16, 0, tzinfo=WARSAW)
    assert row_windows(eve, eve + timedelta(hours=20)) == {
        "thu": (960, 1439),
        "sun": (0, 1439),
        "holiday": (0, 1439),
    }
    week = row_windows(saturday, saturday + timedelta(days=8))
    assert week["sat"] == (0, 1439) and week["sun"] == (0, 1439) and len(week) == 7


def test_a_mass_held_outside_the_holidays_is_in_the_next_masses_and_the_feed_outside_them(conn):
    """ "not-holidays", as the rules emit it for "w wakacje nie ma Mszy o 6.30": a Sunday 6:30 held ten
    months a year shows on an October Sunday, not on a July one, and is a bounded weekly event of the feed."""
    from icalendar import Calendar
    from sqlalchemy import insert

    from msze.search.calendar import WARSAW
    from msze.search.db import mass_times
    from msze.search.ics import parish_calendar
    from msze.search.upcoming import next_masses

    row = conn.execute(select(parishes).where(parishes.c.name == "Świętego Józefa")).one()
    conn.execute(
        insert(mass_times),
        [{"parish_id": row.id, "day": "sun", "time": "06:30", "minute": 390, "season": "not-holidays"}],
    )

    def early_sunday(saturday: datetime) -> list[str]:
        found = next_masses(conn, (row.lat, row.lng), 1.0, saturday)
        return [m["start"] for m in found if m["parish_id"] == row.id and m["time"] == "06:30"]

    assert early_sunday(datetime(2026, 10, 3, 20, tzinfo=WARSAW)) == ["2026-10-04T06:30:00+02:00"]
    assert early_sunday(datetime(2026, 7, 11, 20, tzinfo=WARSAW)) == []
    start = datetime(2026, 6, 1, 12, tzinfo=WARSAW)
    cal = Calendar.from_ical(parish_calendar(get_parish(conn, row.id), start.date(), start))
    early = [e for e in cal.walk("VEVENT") if "rrule" in e and e["dtstart"].dt.strftime("%H:%M") == "06:30"]
    # June (to its last Sunday), then September on: two stretches around the holidays
    assert [e["dtstart"].dt.date().isoformat() for e in early] == ["2026-06-07", "2026-09-06"]
    assert early[0]["rrule"]["UNTIL"][0].date().isoformat() == "2026-06-30"
