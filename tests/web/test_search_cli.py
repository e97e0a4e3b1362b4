"""`python -m msze search load` and `search corrections` as a user runs them."""

from __future__ import annotations

import json
import re
import socket
import sqlite3
import subprocess
import sys
import urllib.request
from contextlib import contextmanager
from datetime import UTC, datetime

from search_fixtures import write_inputs

from msze.directory.deon_parser import CHURCH_COLUMNS, write_tsv


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "msze", "search", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


def test_load_prints_a_report_and_is_repeatable(tmp_path):
    paths = write_inputs(tmp_path / "in")
    db = tmp_path / "out" / "results.sqlite"
    args = ["load", "--parishes", str(paths["parishes"]), "--places", str(paths["places"])]
    args += ["--results", str(paths["results"]), "--db", str(db)]
    first = run(*args)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["parishes_inserted"] == 4 and report["results_loaded"] == 2 and report["times_loaded"] == 16
    second = json.loads(run(*args).stdout)
    assert second["parishes_inserted"] == 0 and second["results_stale"] == 3

    labels = run("corrections", "--db", str(db))
    assert labels.returncode == 0 and labels.stdout == ""


def test_load_takes_the_churches_the_places_spider_located_as_tsv(tmp_path):
    paths = write_inputs(tmp_path / "in")
    db = tmp_path / "results.sqlite"
    chapel = {"name": "Kaplica w Julianowie", "city": "", "address": ["ul. Julianowska 3"], "url": "",
              "place_id": "J", "status": "OK", "lat": 51.8, "lng": 19.45, "church": "Kaplica w Julianowie",
              "start_url": "http://jozef-lodz.pl/"}  # fmt: skip
    located = tmp_path / "churches.tsv"
    write_tsv(
        located, [chapel, {**chapel, "lat": None, "place_id": "", "status": "NOT_FOUND"}], CHURCH_COLUMNS
    )
    args = ["load", "--parishes", str(paths["parishes"]), "--places", str(paths["places"])]
    done = run(*args, "--results", str(paths["results"]), "--churches", str(located), "--db", str(db))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["churches_located"], report["churches_unmatched"], report["parishes_inserted"]) == (
        1,
        0,
        4,
    )
    with sqlite3.connect(db) as conn:
        rows = conn.execute("select name, address, lat, lng from churches").fetchall()
    assert rows == [("Kaplica w Julianowie", "ul. Julianowska 3", 51.8, 19.45)]


def test_load_reports_missing_files_and_bad_headers(tmp_path):
    missing = run("load", "--results", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "x.sqlite"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    nothing = run("load", "--db", str(tmp_path / "x.sqlite"))
    assert nothing.returncode == 2
    bad = tmp_path / "bad.tsv"
    bad.write_text("kolumna\n1\n", encoding="utf-8")
    result = run("load", "--parishes", str(bad), "--db", str(tmp_path / "x.sqlite"))
    assert result.returncode == 1 and "Parafia" in result.stderr and "Traceback" not in result.stderr


def test_serve_without_db_serves_the_demo_data():
    process = subprocess.Popen(
        [sys.executable, "-m", "msze", "search", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"serving demo data on (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        with urllib.request.urlopen(
            match.group(1) + "api/parishes?city=Krak%C3%B3w&day=niedziela", timeout=10
        ) as r:
            body = json.load(r)
        assert body["total"] == 10
        times = [t for p in body["parishes"] for t in p["times"]]
        assert all(t["day"] == "sun" or (t["day"] == "sat" and t["vigil"]) for t in times)  # vigils count
        with urllib.request.urlopen(
            match.group(1) + "api/parishes?near=50.0614,19.9366&radius=10", timeout=10
        ) as r:
            near = json.load(r)  # the demo's parishes stand in their towns: Kraków's ten, no other
        assert near["total"] == 10 and {p["city"] for p in near["parishes"]} == {"Kraków"}
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_load_skips_malformed_lines_reports_each_and_exits_0(tmp_path):
    paths = write_inputs(tmp_path / "in")
    good = paths["results"].read_text(encoding="utf-8")
    paths["results"].write_text(
        good + '{"start_url": "http://[::1", "masses": []}\n{"start_url": 7}\n', encoding="utf-8"
    )
    args = ["load", "--parishes", str(paths["parishes"]), "--places", str(paths["places"])]
    result = run(*args, "--results", str(paths["results"]), "--db", str(tmp_path / "db.sqlite"))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["results_loaded"] == 2 and report["bad_lines"] == 2 and report["urls_dropped"] == 1
    lines = result.stderr.splitlines()
    ipv6 = "start_url is not an http(s) URL"
    assert lines[0] == f"skipped {paths['results']}:5: {ipv6}: 'http://[::1'"
    assert lines[1] == f"skipped {paths['results']}:6: 'start_url' is int, not text"
    assert lines[2] == "unmatched result http://unknown-parish.example/: no parish has this website"
    assert lines[3] == "search load: skipped 2 malformed line(s), loaded 12"
    assert len(lines) == 4 and "Traceback" not in result.stderr


def test_load_fails_only_when_no_line_could_be_loaded(tmp_path):
    bad = tmp_path / "results.jsonl"
    bad.write_text("{broken\n[1]\n", encoding="utf-8")
    result = run("load", "--results", str(bad), "--db", str(tmp_path / "db.sqlite"))
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == "search load: no line could be loaded"
    assert json.loads(result.stdout)["bad_lines"] == 2


def test_load_names_a_file_it_cannot_read(tmp_path):
    # A regular file whose read fails (EIO), even for root; chmod 000 would not stop root.
    result = run("load", "--results", "/proc/self/mem", "--db", str(tmp_path / "db.sqlite"))
    assert result.returncode == 1
    assert result.stderr.startswith("search load: cannot read /proc/self/mem: ")
    assert len(result.stderr.splitlines()) == 1


@contextmanager
def serve(*args: str):
    process = subprocess.Popen(
        [sys.executable, "-m", "msze", "search", "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"serving demo data on http://(127\.0\.0\.1):(\d+)/", line)
        assert match, line
        yield match.group(1), int(match.group(2))
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_answers_a_big_body_413_before_reading_it():
    with serve() as (host, port), socket.create_connection((host, port), timeout=30) as sock:
        # Only the headers: a server that waited for the 50 MB would never answer.
        sock.sendall(
            b"POST /parafia/1/zgloszenie HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 52428800\r\n\r\n"
        )
        assert sock.recv(100).startswith(b"HTTP/1.1 413 ")


def test_serve_refuses_a_base_url_that_is_not_http():
    result = run("serve", "--port", "0", "--base-url", "javascript:alert(1)")
    assert result.returncode == 2
    assert result.stderr.startswith("search serve: BASE_URL must be an absolute http(s) URL")
    assert "Traceback" not in result.stderr


def test_serve_refuses_a_db_in_a_folder_that_does_not_exist(tmp_path):
    result = run("serve", "--port", "0", "--db", "nodir/x.sqlite", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "search serve: --db nodir/x.sqlite: no such folder nodir/\n"
    assert not (tmp_path / "nodir").exists()


def test_serve_refuses_a_db_file_that_does_not_exist_instead_of_serving_an_empty_one(tmp_path):
    result = run("serve", "--port", "0", "--db", "typo.sqlite", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (
        "search serve: --db typo.sqlite: no such database; create it with "
        "`python -m msze search load --db typo.sqlite ...` (or leave out --db to serve the demo data)\n"
    )
    assert not (tmp_path / "typo.sqlite").exists()


def test_serve_and_corrections_refuse_a_file_that_is_not_a_database(tmp_path):
    (tmp_path / "notes.sqlite").write_text("not a database\n" * 200, encoding="utf-8")
    for action in ("serve", "corrections"):
        args = ["--port", "0"] if action == "serve" else []
        result = run(action, *args, "--db", "notes.sqlite", cwd=tmp_path)
        assert result.returncode == 2, action
        assert (
            result.stderr
            == f"search {action}: cannot open the database notes.sqlite: file is not a database\n"
        )


def test_corrections_refuses_a_db_file_that_does_not_exist(tmp_path):
    result = run("corrections", "--db", "typo.sqlite", cwd=tmp_path)
    assert result.returncode == 2 and "no such database" in result.stderr and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and not (tmp_path / "typo.sqlite").exists()


def test_serve_on_a_port_in_use_says_so_in_one_line(tmp_path):
    db = tmp_path / "search.sqlite"
    paths = write_inputs(tmp_path / "in")
    assert run("load", "--parishes", str(paths["parishes"]), "--db", str(db)).returncode == 0
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run("serve", "--db", str(db), "--port", str(port))
    assert result.returncode == 2
    assert result.stderr == f"search serve: port {port} is in use: pick another with --port\n"


def test_serve_refuses_a_port_out_of_range():
    result = run("serve", "--port", "70000")
    assert result.returncode == 2 and "expected a port number 0-65535" in result.stderr
    assert "Traceback" not in result.stderr


def test_corrections_print_one_label_per_correction(tmp_path):
    """A time stored twice (two seasons) is joined once: each correction is one label line."""
    from sqlalchemy import insert, select

    from msze.search.db import corrections, make_engine, mass_times, parishes

    paths = write_inputs(tmp_path / "in")
    db = tmp_path / "search.sqlite"
    args = ["--parishes", str(paths["parishes"]), "--places", str(paths["places"])]
    assert run("load", *args, "--results", str(paths["results"]), "--db", str(db)).returncode == 0
    engine = make_engine(db)
    with engine.begin() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        conn.execute(
            insert(mass_times).values(
                parish_id=pid,
                day="sunday",
                minute=420,
                time="07:00",
                context="Latem 7.00",
                start_date="2026-07-01",
            )  # fmt: skip
        )
        conn.execute(
            insert(corrections).values(
                parish_id=pid,
                created_at=datetime(2026, 11, 21, tzinfo=UTC),
                client="c",
                kind="wrong",
                day="sunday",
                time="07:00",
            )  # fmt: skip
        )
    engine.dispose()
    result = run("corrections", "--db", str(db))
    assert result.returncode == 0, result.stderr
    labels = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(labels) == 1
    assert (
        labels[0]["label"] == "other" and labels[0]["context"] == "Msze św. w niedziele: 07.00, 10.30, 18.00"
    )
    assert labels[0]["reported_at"] == "2026-11-21T00:00:00Z"


def test_load_with_only_results_into_an_empty_database_says_what_is_missing(tmp_path):
    paths = write_inputs(tmp_path / "in")
    db = tmp_path / "results.sqlite"
    alone = run("load", "--results", str(paths["results"]), "--db", str(db))
    assert alone.returncode == 1
    assert json.loads(alone.stdout)["results_loaded"] == 0
    assert "matched a parish in the database (load --parishes and --places too" in alone.stderr
    run("load", "--parishes", str(paths["parishes"]), "--places", str(paths["places"]), "--db", str(db))
    again = run("load", "--results", str(paths["results"]), "--db", str(db))
    assert again.returncode == 0 and json.loads(again.stdout)["results_loaded"] == 2, again.stderr
