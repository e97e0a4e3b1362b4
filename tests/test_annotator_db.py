"""Transactions: deadlock victims are rerun, everything else propagates; SQLite pragmas are in force."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from msze.annotator.db import make_engine, run_transaction
from msze.annotator.serving import NotServed


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
