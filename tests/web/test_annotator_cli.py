"""`python -m msze annotator ...` as a new user meets it: --db as a file path, a busy port, the wrong file."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from annotator_pages import SCHEDULE_HOURS, SCHEDULE_TEXT, SCHEDULE_URL, page_item, pages_jsonl, write_jsonl
from sqlalchemy import func, select

from msze.annotator.app import create_app
from msze.annotator.db import hours, transaction
from msze.annotator.web import ENGINE
from msze.cli import main

ROOT = Path(__file__).resolve().parents[2]
PASSWD = "".join(f"user{k}:x:{1000 + k}:{1000 + k}::/home/user{k}:/bin/sh\n" for k in range(24))
IN_USE = "the port is in use by another program (stop it, or choose another with --port)"


# --- --db: a plain path means SQLite, as `search` takes it --------------------------------------------------


def test_db_as_a_relative_path_is_that_sqlite_file(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    pages = pages_jsonl(tmp_path / "pages.jsonl")
    assert main(["annotator", "import", "--db", "a.sqlite", str(pages)]) == 0
    assert main(["annotator", "stats", "--db", "a.sqlite"]) == 0
    assert main(["annotator", "gold", "1", "no", "--db", "a.sqlite"]) == 0
    assert main(["annotator", "export", "--tsv", "out.tsv", "--db", "a.sqlite"]) == 0
    out, err = capsys.readouterr()
    assert "added=12" in out and "hours\t12" in out and "hour 1: gold=no" in out and err == ""
    assert sorted(p.name for p in tmp_path.glob("a.sqlite*"))[0] == "a.sqlite"


def test_db_path_with_url_characters_in_its_name(tmp_path, capsys):
    db = tmp_path / "labels?v=2#x 100%.sqlite3"
    assert main(["annotator", "import", "--db", str(db), str(pages_jsonl(tmp_path / "p.jsonl"))]) == 0
    assert db.is_file() and not (tmp_path / "labels").exists()
    assert "added=12" in capsys.readouterr().out


def test_app_takes_a_path_from_config_and_environment(tmp_path, monkeypatch):
    db = tmp_path / "served.sqlite3"
    monkeypatch.setenv("ANNOTATOR_DATABASE_URL", str(db))
    app = create_app({"SECRET_KEY": "t"})
    engine = app.extensions[ENGINE]
    assert engine.url.database == str(db) and db.is_file()
    engine.dispose()
    other = tmp_path / "other.sqlite3"
    app = create_app({"ANNOTATOR_DATABASE_URL": str(other), "SECRET_KEY": "t"})
    assert app.extensions[ENGINE].url.database == str(other)
    app.extensions[ENGINE].dispose()


# --- serve: a port in use is one line and exit status 2 -----------------------------------------------------


@pytest.mark.parametrize("debug", [[], ["--debug"]], ids=["waitress", "werkzeug"])
def test_serve_on_a_busy_port_says_so_in_one_line(tmp_path, capsys, debug):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        argv = ["annotator", "serve", "--db", str(tmp_path / "a.sqlite3"), "--port", str(port), *debug]
        status = main([*argv, "--instance", str(tmp_path / "instance")])
    assert status == 2
    assert capsys.readouterr().err == f"annotator: cannot listen on 127.0.0.1:{port}: {IN_USE}\n"


def test_serve_command_on_a_busy_port_exits_2_without_a_traceback(tmp_path):
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        command = [sys.executable, "-m", "msze", "annotator", "serve", "--db", str(tmp_path / "a.sqlite3")]
        command += ["--port", str(port), "--instance", str(tmp_path / "instance")]
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == f"annotator: cannot listen on 127.0.0.1:{port}: {IN_USE}\n"


def test_serve_refuses_a_port_out_of_range(tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["annotator", "serve", "--db", str(tmp_path / "a.sqlite3"), "--port", "70000"])
    assert exited.value.code == 2 and "port 70000 is not in 0-65535" in capsys.readouterr().err
    assert not (tmp_path / "a.sqlite3").exists()


# --- import: the wrong file fails clearly; some bad lines among good ones do not ----------------------------


def _import(tmp_path: Path, path: Path, capsys) -> tuple[int, str, str]:
    status = main(["annotator", "import", "--db", str(tmp_path / "a.sqlite3"), str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def _hours(tmp_path: Path) -> int:
    app_db = create_app({"ANNOTATOR_DATABASE_URL": str(tmp_path / "a.sqlite3"), "SECRET_KEY": "t"})
    with transaction(app_db.extensions[ENGINE]) as conn:
        n = conn.execute(select(func.count()).select_from(hours)).scalar_one()
    app_db.extensions[ENGINE].dispose()
    return n


def test_import_of_a_file_that_is_not_pages_fails_in_one_clear_line(tmp_path, capsys):
    passwd = tmp_path / "passwd"
    passwd.write_text(PASSWD, encoding="utf-8")
    status, out, err = _import(tmp_path, passwd, capsys)
    assert status == 1 and out == ""
    lines = err.splitlines()
    assert lines[:3] == [f"{passwd}:{n}: not JSON (Expecting value)" for n in (1, 2, 3)]  # a few examples
    assert lines[3:] == [
        "... and 21 more problems",
        f"{passwd}: nothing imported: none of its 24 lines is a page with hours "
        "(PageItem JSONL from a crawl, or `msze extract` output)",
    ]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "the file is empty"),
        ("\n\n", "the file is empty"),
        ('{"a": 1}\n[1, 2]\n', "none of its 2 lines is a page with hours"),
        (json.dumps({"url": "https://x.pl/", "hours": [{"start": 1}, "7:00"]}), "none of its 2 hours"),
    ],
    ids=["empty", "blank-lines", "other-json", "broken-hours"],
)
def test_import_with_nothing_usable_exits_1(tmp_path, capsys, content, reason):
    path = tmp_path / "input.jsonl"
    path.write_text(content, encoding="utf-8")
    status, out, err = _import(tmp_path, path, capsys)
    assert status == 1 and out == ""
    assert err.splitlines()[-1].startswith(f"{path}: nothing imported: {reason}")


def test_import_keeps_the_good_lines_of_a_file_with_bad_ones(tmp_path, capsys):
    good = page_item(SCHEDULE_URL, SCHEDULE_TEXT, SCHEDULE_HOURS)
    path = tmp_path / "mixed.jsonl"
    lines = [PASSWD.splitlines()[0], json.dumps(good, ensure_ascii=False), "[1]"]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status, out, err = _import(tmp_path, path, capsys)
    assert status == 0
    assert err.splitlines() == [
        f"{path}:1: not JSON (Expecting value)",
        f"{path}:3: needs 'url' or 'path' and a 'hours' list",
    ]
    summary = "lines=3 bad_lines=2 candidates=8 invalid_hours=0 added=8 existing=0 gold_added=6"
    assert out == f"{path}: {summary}\n"
    assert _hours(tmp_path) == 8


def test_import_of_pages_without_hours_is_not_a_failure(tmp_path, capsys):
    """`msze extract` writes a line for every file, also for those it found no hour on."""
    path = write_jsonl(tmp_path / "extract.jsonl", [{"path": "strony/a.html", "masses": [], "hours": []}])
    status, out, err = _import(tmp_path, path, capsys)
    assert status == 0 and err == "" and "candidates=0 invalid_hours=0 added=0" in out


def test_one_wrong_file_among_good_ones(tmp_path, capsys):
    passwd = tmp_path / "passwd"
    passwd.write_text(PASSWD, encoding="utf-8")
    pages = pages_jsonl(tmp_path / "pages.jsonl")
    status = main(["annotator", "import", "--db", str(tmp_path / "a.sqlite3"), str(passwd), str(pages)])
    out, err = capsys.readouterr()
    assert status == 1  # the run says something was wrong ...
    summary = "lines=2 bad_lines=0 candidates=12 invalid_hours=0 added=12 existing=0 gold_added=7"
    assert out == f"{pages}: {summary}\n"
    assert err.splitlines()[-1].startswith(f"{passwd}: nothing imported:")  # ... and what
    assert _hours(tmp_path) == 12  # the good file was imported all the same


def test_import_of_a_directory_says_not_a_file(tmp_path, capsys):
    status, _, err = _import(tmp_path, tmp_path, capsys)
    assert status == 1 and err == f"{tmp_path}: not a file\n"
