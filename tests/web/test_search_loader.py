"""The results loader: parishes + websites + batch results, each result joined to the parish whose website is
its start URL, with history."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from search_fixtures import DEON_TSV, results, write_inputs, write_results
from sqlalchemy import func, select

from msze.search.db import create_schema, make_engine, mass_times, parishes, time_history
from msze.search.loader import load, normalize_time, parse_timestamp, read_parish_file
from msze.utils.text import fold
from msze.utils.urls import host_of


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(tmp_path / "results.sqlite")
    create_schema(engine)
    return engine


def parish_id(engine, name: str) -> int:
    with engine.connect() as conn:
        return conn.execute(select(parishes.c.id).where(parishes.c.name == name)).scalar_one()


def times_of(engine, pid: int) -> set[tuple[str, str]]:
    with engine.connect() as conn:
        return {
            (r.day, r.time) for r in conn.execute(select(mass_times).where(mass_times.c.parish_id == pid))
        }


def test_fold_and_helpers():
    assert fold("  Łódź  Bałuty ") == "lodz baluty"
    assert fold("ŚWIĘTEJ Trójcy") == "swietej trojcy"
    assert host_of("https://WWW.Parafia.pl:8080/x") == "parafia.pl"
    assert host_of("parafia.pl") == "parafia.pl"
    assert normalize_time("7.30") == "07:30"
    assert normalize_time("25:00") is None
    assert parse_timestamp("2026-11-20T08:00:00Z") == datetime(2026, 11, 20, 8, tzinfo=UTC)
    assert parse_timestamp("not a date") is None


def test_read_parish_file_tsv_and_jsonl(tmp_path):
    paths = write_inputs(tmp_path)
    records = list(read_parish_file(paths["places"]))
    assert len(records) == 4
    assert records[0].address == "Świętego Józefa\nul. Ogrodowa 22\n91-065 Łódź"
    assert records[0].website == "http://www.jozef-lodz.pl/"
    jsonl = tmp_path / "parishes.jsonl"
    jsonl.write_text(
        json.dumps({"name": "Świętego Józefa", "city": "Łódź", "address": ["a", "b"], "diocese": "łódzka"})
        + "\n{broken\n"
        + json.dumps({"name": "", "city": "X"})
        + "\n",
        encoding="utf-8",
    )
    from msze.search.loader import LoadReport

    report = LoadReport()
    records = list(read_parish_file(jsonl, report))
    assert [r.address for r in records] == ["a\nb"]
    assert len(report.bad_lines) == 2


def test_bad_tsv_header_is_a_clear_error(tmp_path, engine):
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\n1\t2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Parafia"):
        load(engine, parishes_path=bad)


def test_load_joins_each_result_to_the_parish_whose_website_is_its_start_url(tmp_path, engine):
    paths = write_inputs(tmp_path)
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.parishes_inserted == 4
    assert report.websites_set == 3
    assert report.results_loaded == 2
    assert report.results_failed == 1
    assert report.results_unmatched == 1
    assert report.unmatched_results == ["http://unknown-parish.example/"]
    assert report.times_skipped == 1  # "25:99"
    jozef = parish_id(engine, "Świętego Józefa")
    assert times_of(engine, jozef) == {
        *(("sun", t) for t in ("07:00", "09:00", "10:30", "18:00", "20:00")),
        *((day, "18:00") for day in ("mon", "tue", "wed", "thu", "fri")),
        ("sat", "07:30"),
        ("sat", "19:00"),
    }
    rozaniec = parish_id(engine, "Matki Bożej Różańcowej")  # https://rozaniec.parafie.com.pl/start
    assert ("unknown", "06:30") in times_of(engine, rozaniec)
    with engine.connect() as conn:
        row = conn.execute(select(parishes).where(parishes.c.name == "Świętej Trójcy")).one()
        assert row.crawl_status == "failed" and row.crawl_error == "DNS lookup failed"
        assert row.domain == "opole.example"
        assert conn.execute(select(func.count()).select_from(time_history)).scalar_one() == 2


def test_reload_newer_crawl_replaces_times_and_keeps_history(tmp_path, engine):
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    jozef = parish_id(engine, "Świętego Józefa")

    # The same crawl again: nothing changes, no history row.
    again = load(engine, results_path=paths["results"])
    assert again.results_stale == 3 and again.results_loaded == 0

    newer = write_results(
        tmp_path / "newer.jsonl", results("2026-11-27T08:00:00Z", jozef_times=("08:00", "10:30", "19:00"))
    )
    report = load(engine, results_path=newer, now=datetime(2026, 11, 28, tzinfo=UTC))
    assert report.results_loaded == 2
    assert ("sun", "08:00") in times_of(engine, jozef)
    assert ("sun", "07:00") not in times_of(engine, jozef)
    with engine.connect() as conn:
        history = conn.execute(
            select(time_history).where(time_history.c.parish_id == jozef).order_by(time_history.c.id)
        ).all()
        crawled = conn.execute(select(parishes.c.crawled_at).where(parishes.c.id == jozef)).scalar_one()
    assert len(history) == 2  # the first load and the change
    assert json.loads(history[-1].added) == ["sun 08:00", "sun 19:00"]
    assert json.loads(history[-1].removed) == ["sun 07:00", "sun 18:00"]
    assert history[-1].previous_crawled_at.replace(tzinfo=UTC) == datetime(2026, 11, 20, 8, tzinfo=UTC)
    assert crawled.replace(tzinfo=UTC) == datetime(2026, 11, 27, 8, tzinfo=UTC)

    # An older crawl arriving late does not overwrite the newer times.
    older = write_results(tmp_path / "older.jsonl", results("2026-11-01T08:00:00Z"))
    assert load(engine, results_path=older).results_stale == 3
    assert ("sun", "08:00") in times_of(engine, jozef)


def test_failed_crawl_keeps_previous_times(tmp_path, engine):
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    jozef = parish_id(engine, "Świętego Józefa")
    failed = results("2026-11-29T08:00:00Z")[0] | {"status": "failed", "error": "timeout", "masses": []}
    load(engine, results_path=write_results(tmp_path / "failed.jsonl", [failed]))
    assert len(times_of(engine, jozef)) == 12
    with engine.connect() as conn:
        assert (
            conn.execute(select(parishes.c.crawl_status).where(parishes.c.id == jozef)).scalar_one()
            == "failed"
        )


def test_reloading_parishes_updates_in_place(tmp_path, engine):
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    report = load(engine, parishes_path=paths["parishes"])
    assert report.parishes_inserted == 0 and report.parishes_updated == 4
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(parishes)).scalar_one() == 4
        # The deon file has no websites: the places stage's website is kept.
        assert conn.execute(select(func.count()).where(parishes.c.website.is_not(None))).scalar_one() == 3


def test_bad_results_lines_are_reported_not_fatal(tmp_path, engine):
    paths = write_inputs(tmp_path)
    with paths["results"].open("a", encoding="utf-8") as handle:
        handle.write("{not json\n[1, 2]\n\n")
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.results_loaded == 2
    assert len(report.bad_lines) == 2


def test_seasonal_dates_are_kept_when_a_result_has_them(tmp_path, engine):
    paths = write_inputs(tmp_path)
    objects = results()
    del objects[0]["schedule"]  # a first-version result: its masses are read
    objects[0]["masses"].append(
        {"time": "20:00", "day": "sunday", "url": "http://jozef-lodz.pl/lato",
         "context": "W wakacje także 20.00", "start_date": "2026-07-01", "end_date": "2026-08-31"}
    )  # fmt: skip
    objects[0]["masses"].append({"time": "21:00", "day": "sunday", "start_date": "lipiec", "end_date": None})
    write_results(paths["results"], objects)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    from msze.search.query import get_parish

    with engine.connect() as conn:
        parish = get_parish(conn, parish_id(engine, "Świętego Józefa"))
    summer = next(t for t in parish["times"] if t["time"] == "20:00")
    assert (summer["start_date"], summer["end_date"]) == ("2026-07-01", "2026-08-31")
    unreadable = next(t for t in parish["times"] if t["time"] == "21:00")
    assert "start_date" not in unreadable


def malformed_results(tmp_path):
    """results.jsonl: the fixture's four crawls with malformed lines between them (numbers in comments)."""
    good = [json.dumps(r, ensure_ascii=False) for r in results()]
    jozef = results()[0]
    bad = [
        json.dumps({**jozef, "start_url": "http://[::1"}),  # 2: urlsplit raises "Invalid IPv6 URL"
        json.dumps({**jozef, "start_url": 42}),  # 3: a number where the URL belongs
        json.dumps({**jozef, "masses": "07:00"}),  # 4
        json.dumps({**jozef, "crawled_at": 20261120}),  # 5
        '{"start_url": "http://jozef-lodz.pl/", "error": "\\ud800"}',  # 6: lone surrogate, not UTF-8-able
        "[" * 100_000,  # 7: nested past the parser's recursion limit
        '{"start_url": "http://jozef-lodz.pl/", "pages": ' + "9" * 5000 + "}",  # 8: int() of 5 000 digits
    ]
    lines = [good[0], *bad, good[1], good[2], good[3]]
    path = tmp_path / "results.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode() + b'{"start_url": "http://a.pl/\xff"}\n')  # 12
    return path


def test_malformed_lines_are_skipped_reported_and_the_rest_loads(tmp_path, engine):
    paths = write_inputs(tmp_path)
    path = malformed_results(tmp_path)
    report = load(engine, paths["parishes"], paths["places"], path)
    assert (report.results_loaded, report.results_failed, report.results_unmatched) == (2, 1, 1)
    reasons = {int(line.split(":")[1]): line.split(": ", 1)[1] for line in report.bad_lines}
    assert sorted(reasons) == [2, 3, 4, 5, 6, 7, 8, 12]
    assert reasons[2].startswith("start_url is not an http(s) URL")
    assert reasons[3] == "'start_url' is int, not text"
    assert reasons[4] == "'masses' is str, not a list"
    assert reasons[5] == "'crawled_at' is int, not text"
    assert "not valid Unicode" in reasons[6]
    assert reasons[7] == "JSON nested too deeply"
    assert "not JSON" in reasons[8]
    assert "not UTF-8" in reasons[12]
    assert all(line.startswith(f"{path}:") for line in report.bad_lines)
    assert report.lines_ok == 4 + 4 + 4  # deon, places, the four good results
    assert len(times_of(engine, parish_id(engine, "Świętego Józefa"))) == 12


def test_malformed_masses_are_skipped_not_their_crawl(tmp_path, engine):
    paths = write_inputs(tmp_path)
    objects = results()
    del objects[0]["schedule"]  # a first-version result: its masses are read
    objects[0]["masses"] += [
        {"time": 730, "day": "sunday"},  # a number, not a time: skipped
        {"time": "07:00", "day": "sunday", "score": "high"},  # the same Mass again, with a score not a number
        {"time": "20:00", "day": "sunday", "score": float("nan"), "source": "x" * 50, "context": "a\x00b"},
        {"time": "21:00", "day": "sunday", "score": 10**400, "url": "javascript:alert(1)"},
    ]
    write_results(paths["results"], objects)
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.bad_lines == [] and report.results_loaded == 2
    assert report.times_skipped == 2  # "25:99" of the fixture and 730
    with engine.connect() as conn:
        rows = {
            r.time: r
            for r in conn.execute(
                select(mass_times).where(mass_times.c.parish_id == parish_id(engine, "Świętego Józefa"))
            )
        }
    assert rows["07:00"].score == 1.0  # the scored duplicate kept
    assert (rows["20:00"].score, rows["20:00"].source, rows["20:00"].context) == (None, None, "a b")
    assert rows["21:00"].score is None and rows["21:00"].source_url is None


def test_non_http_urls_are_dropped_and_counted(tmp_path, engine):
    paths = write_inputs(tmp_path)
    places = paths["places"].read_text(encoding="utf-8")
    places = places.replace("http://www.jozef-lodz.pl/", "javascript:alert(1)")
    places = places.replace("http://trojca.opole.example/", "http://[::1")
    paths["places"].write_text(places, encoding="utf-8")
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    # Two websites; 19:30's javascript: source; the mass-less failed crawl has no source to drop.
    assert report.urls_dropped == 3
    assert report.bad_lines == [] and report.websites_set == 1
    with engine.connect() as conn:
        websites = dict(conn.execute(select(parishes.c.name, parishes.c.website)).all())
        sources = set(conn.execute(select(mass_times.c.source_url)).scalars())
    assert websites["Świętego Józefa"] is None and websites["Świętej Trójcy"] is None
    assert sources == {"https://rozaniec.parafie.com.pl/msze", None}


def test_parish_lines_with_wrong_types_or_lengths_are_skipped(tmp_path, engine):
    jsonl = tmp_path / "parishes.jsonl"
    lines = [
        {"name": "Świętego Józefa", "city": "Łódź", "website": "https://jozef.example/"},
        {"name": 5, "city": "Łódź"},
        {"name": "Długa", "city": "Łódź", "address": ["ul. Polna 1", 7]},
        {"name": "x" * 301, "city": "Łódź"},
        {"name": "Świętej Anny", "city": "Łódź", "website": ["https://anna.example/"]},
    ]
    jsonl.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    report = load(engine, parishes_path=jsonl)
    assert report.parishes_inserted == 1 and report.lines_ok == 1
    assert [line.split(": ", 1)[1] for line in report.bad_lines] == [
        "'name' is int, not text",
        "'address' is neither text nor a list of text",
        "'name' is longer than 300 characters",
        "'website' is list, not text",
    ]


def test_tsv_with_a_bom_and_stray_control_characters_loads(tmp_path, engine):
    tsv = tmp_path / "deon.tsv"
    body = "\ufeff" + DEON_TSV.replace("ul. Ogrodowa 22", "ul. Ogrodowa\r22\x00")
    tsv.write_text(body, encoding="utf-8")
    report = load(engine, parishes_path=tsv)
    assert report.parishes_inserted == 4 and report.bad_lines == []
    with engine.connect() as conn:
        jozef = parishes.c.name == "Świętego Józefa"
        address = conn.execute(select(parishes.c.address).where(jozef)).scalar_one()
    assert address.split("\n")[1] == "ul. Ogrodowa 22"


def test_a_first_version_result_spreads_its_day_categories_over_the_days_of_the_week(tmp_path, engine):
    paths = write_inputs(tmp_path)
    objects = results()
    del objects[0]["schedule"]
    objects[0]["masses"].append({"time": "18:00", "day": "weekday", "url": "http://www.jozef-lodz.pl/"})
    write_results(paths["results"], objects)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    got = times_of(engine, parish_id(engine, "Świętego Józefa"))
    assert got == {("sun", "07:00"), ("sun", "10:30"), ("sun", "18:00")} | {
        (day, "18:00") for day in ("mon", "tue", "wed", "thu", "fri")
    }


def test_a_database_of_the_first_version_is_upgraded_to_days_of_the_week(tmp_path):
    engine = make_engine(tmp_path / "old.sqlite")
    create_schema(engine)
    with engine.begin() as conn:
        conn.execute(
            parishes.insert().values(id=1, name="x", city="y", name_key="x", city_key="y", diocese_key="z")
        )
        conn.execute(
            mass_times.insert(),
            [{"parish_id": 1, "day": "weekday", "minute": 1080, "time": "18:00"},
             {"parish_id": 1, "day": "sunday", "minute": 600, "time": "10:00"}],
        )  # fmt: skip
    create_schema(engine)  # the next start of a newer version
    assert times_of(engine, 1) == {("sun", "10:00")} | {
        (d, "18:00") for d in ("mon", "tue", "wed", "thu", "fri")
    }


def test_a_weekly_entry_on_no_day_is_never_published_and_is_counted(tmp_path, engine):
    objects = results()
    objects[0]["schedule"].append(
        {**objects[0]["schedule"][0], "time": "16:45", "days": []}  # a results file before "dayless"
    )
    paths = write_inputs(tmp_path, objects)
    report = load(engine, paths["parishes"], paths["places"], paths["results"])
    assert report.times_dayless == 1
    assert not [t for t in times_of(engine, parish_id(engine, "Świętego Józefa")) if t[1] == "16:45"]
