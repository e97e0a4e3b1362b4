"""Transactions (deadlock victims rerun), SQLite pragmas, and corrupt or foreign databases refused clearly."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from annotator_pages import Device, pages_jsonl
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from msze.annotator.app import create_app
from msze.annotator.db import make_engine, run_transaction
from msze.annotator.importer import import_file
from msze.annotator.serving import NotServed
from msze.cli import main


class _Orig(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def _failing(sqlstate: str, times: int):
    calls = []

    def work(conn):
        calls.append(1)
        if len(calls) <= times:
            raise DBAPIError("UPDATE hours ...", {}, _Orig(sqlstate))
        return conn.execute(text("select 42")).scalar_one()

    return work, calls


def test_deadlock_victim_is_rerun(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    work, calls = _failing("40P01", times=2)
    assert run_transaction(engine, work) == 42 and len(calls) == 3
    work, calls = _failing("40P01", times=3)
    with pytest.raises(DBAPIError):
        run_transaction(engine, work)  # gives up after three attempts
    assert len(calls) == 3


def test_other_errors_are_not_retried(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    work, calls = _failing("23505", times=1)  # unique violation: a bug, not contention
    with pytest.raises(DBAPIError):
        run_transaction(engine, work)
    assert len(calls) == 1

    def refuse(conn):
        raise NotServed("no")

    with pytest.raises(NotServed):
        run_transaction(engine, refuse)


def test_sqlite_engine_settings(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar_one() == "wal"
        assert conn.execute(text("PRAGMA foreign_keys")).scalar_one() == 1
        names = set(conn.execute(text("select name from sqlite_master where type = 'table'")).scalars())
    assert {"documents", "hours", "devices", "assignments", "events"} <= names


# --- Corrupt and foreign databases: one clear line, non-zero exit, the file left as it was -----------------


def _annotator_db(path: Path) -> Path:
    """A real annotator database with data (12 hours, one device's answers), closed."""
    app = create_app({"ANNOTATOR_DATABASE_URL": f"sqlite:///{path}", "SECRET_KEY": "t"})
    engine = app.extensions["msze_annotator_engine"]
    import_file(engine, pages_jsonl(path.with_suffix(".jsonl")))
    device = Device(app)
    state = device.current()
    for _ in range(5):
        state = device.answer(state["item"]["id"], "yes")
    engine.dispose()  # the last connection checkpoints the WAL into the file
    return path


def _random_bytes(path: Path) -> str:
    path.write_bytes(random.Random(7).randbytes(8192))
    return "file is not a database"


def _missing_table(path: Path) -> str:
    with closing(sqlite3.connect(_annotator_db(path))) as conn:
        conn.execute("DROP TABLE events")
    return "missing tables: events"


def _missing_column(path: Path) -> str:
    with closing(sqlite3.connect(_annotator_db(path))) as conn:
        conn.execute("ALTER TABLE devices DROP COLUMN flagged")
    return "table devices lacks columns: flagged"


def _another_programs_tables(path: Path) -> str:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE hours (id INTEGER PRIMARY KEY, opened TEXT)")
        conn.execute("INSERT INTO hours (opened) VALUES ('9:00-11:00')")
        conn.commit()
    return "missing tables: assignments, devices, documents, events"


def _damaged_pages(path: Path) -> str:
    _annotator_db(path)
    size = path.stat().st_size
    with path.open("r+b") as handle:  # keep the header (page 1), scribble over the b-tree pages after it
        handle.seek(4096)
        handle.write(random.Random(3).randbytes(size - 4096))
    return "damaged"


CORRUPTIONS = [_random_bytes, _missing_table, _missing_column, _another_programs_tables, _damaged_pages]
COMMANDS = [
    ["import", "PAGES"],
    ["export", "--tsv", "OUT"],
    ["stats"],
    ["stats", "--json"],
    ["gold", "1", "no"],
    ["unflag", "1"],
    ["serve", "--port", "1"],
]


@pytest.mark.parametrize("corrupt", CORRUPTIONS, ids=lambda f: f.__name__.strip("_"))
def test_admin_commands_on_a_corrupt_database_say_so_in_one_line(tmp_path, corrupt, capsys, monkeypatch):
    db = tmp_path / "annotator.sqlite3"
    reason = corrupt(db)
    before = db.read_bytes()
    pages = pages_jsonl(tmp_path / "more.jsonl")
    served = []
    monkeypatch.setattr("msze.annotator.cli.make_server", lambda *a: served.append(a))  # never this far
    for command in COMMANDS:
        argv = [{"PAGES": str(pages), "OUT": str(tmp_path / "out.tsv")}.get(a, a) for a in command]
        capsys.readouterr()
        status = main(["annotator", *argv, "--db", f"sqlite:///{db}"])
        err = capsys.readouterr().err
        assert status == 1, (command, err)
        assert err.count("\n") == 1 and err.startswith(f"annotator: sqlite:///{db}: "), (command, err)
        assert reason in err and "Traceback" not in err, (command, err)
        assert db.read_bytes() == before  # nothing written, nothing lost
    assert not served and not (tmp_path / "out.tsv").exists()


def test_a_good_database_still_opens(tmp_path, capsys):
    db = _annotator_db(tmp_path / "annotator.sqlite3")
    assert main(["annotator", "stats", "--db", f"sqlite:///{db}"]) == 0
    assert "hours\t12" in capsys.readouterr().out


def test_unusable_database_urls_say_so_in_one_line(tmp_path, capsys):
    for url, reason in [
        ("nosuchdriver://host/db", "not a database URL"),
        ("", "no database given"),
        (f"sqlite:///{tmp_path}/no/such/dir/a.sqlite3", "unable to open database file"),
    ]:
        assert main(["annotator", "stats", "--db", url]) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("annotator: ") and reason in err, err


def test_database_broken_while_serving_is_a_503_not_a_500(tmp_path):
    db = _annotator_db(tmp_path / "annotator.sqlite3")
    app = create_app({"ANNOTATOR_DATABASE_URL": f"sqlite:///{db}", "SECRET_KEY": "t"})
    device = Device(app)
    assert device.client.get("/statystyki").status_code == 200
    _random_bytes(db)  # the file is overwritten under the running app
    page = device.client.get("/statystyki")
    assert page.status_code == 503 and "Baza danych jest niedostępna" in page.get_data(as_text=True)
    api = device.post("/api/current")
    assert api.status_code == 503 and api.get_json() == {"error": "database unavailable, try again later"}


def test_database_from_before_the_cheater_groups_gets_the_new_columns(tmp_path):
    """ip_group and flag_reason came later: an older database gets them, address groups filled in."""
    db = _annotator_db(tmp_path / "annotator.sqlite3")
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("DROP INDEX ix_devices_ip_group_created")
        conn.execute("ALTER TABLE devices DROP COLUMN ip_group")
        conn.execute("ALTER TABLE devices DROP COLUMN flag_reason")
        conn.execute("UPDATE devices SET ip = '192.0.2.77'")
        conn.commit()
    engine = make_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT ip_group, flag_reason, flagged FROM devices")).all()
        indexes = {row[1] for row in conn.execute(text("PRAGMA index_list(devices)"))}
    assert rows == [("192.0.2.0/24", None, 0)]
    assert "ix_devices_ip_group_created" in indexes
    engine.dispose()
    assert make_engine(f"sqlite:///{db}").url.database == str(db)  # opening it again changes nothing
