"""msze.utils: the one host, domain, fold, clock and SQLite helpers every part uses."""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime
from pathlib import Path

import pytest

from msze.utils.sqlite import connect
from msze.utils.text import fold, strip_marks
from msze.utils.time import format_timestamp, parse_timestamp, utc_now
from msze.utils.urls import host_of, registered_domain


@pytest.mark.parametrize(
    ("url", "host", "host_with_www"),
    [
        ("https://www.parafia.pl/msze?x=1", "parafia.pl", "www.parafia.pl"),
        ("http://Parafia-1.TEST:8080/", "parafia-1.test", "parafia-1.test"),
        ("www.parafia.pl", "parafia.pl", "www.parafia.pl"),  # bare hosts, as directory files give them
        ("http://parafia.pl./", "parafia.pl", "parafia.pl"),
        ("/some/file.jsonl", "", ""),
        ("", "", ""),
        (None, "", ""),
    ],
)
def test_host_of(url: str | None, host: str, host_with_www: str) -> None:
    assert host_of(url) == host
    assert host_of(url, drop_www=False) == host_with_www


def test_host_of_says_when_a_url_cannot_be_parsed() -> None:
    with pytest.raises(ValueError, match="IPv6"):
        host_of("http://[::1")


@pytest.mark.parametrize(
    ("host", "domain"),
    [
        ("www.parafia.katowice.pl", "parafia.katowice.pl"),  # katowice.pl is a public suffix
        ("sw-jan.parafia.com.pl", "parafia.com.pl"),
        ("parafia.blogspot.com", "parafia.blogspot.com"),  # a private suffix counts
        ("swwojciech.test", "swwojciech.test"),  # unknown suffix: the last two labels
        ("127.0.0.1", "127.0.0.1"),
        ("localhost", "localhost"),
    ],
)
def test_registered_domain(host: str, domain: str) -> None:
    assert registered_domain(host) == domain


def test_fold_and_strip_marks() -> None:
    assert fold("  Łódź   Bałuty ") == "lodz baluty"
    assert fold(None) == ""
    assert strip_marks("Zażółć gęślą jaźń") == "Zazołc gesla jazn"  # ł has no combining mark


def test_utc_now_is_sortable_iso_with_z() -> None:
    stamp = utc_now()
    assert stamp.endswith("Z") and len(stamp) == len("2026-12-01T09:30:00Z")
    assert datetime.fromisoformat(stamp).utcoffset().total_seconds() == 0


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("2026-12-01T10:30:00+01:00", "2026-12-01T09:30:00Z"),  # an offset is moved to UTC
        ("2026-12-01T09:30:00", "2026-12-01T09:30:00Z"),  # naive is UTC
        ("2026-12-01T09:30:00.123456Z", "2026-12-01T09:30:00Z"),
        ("  2026-12-01T09:30:00Z ", "2026-12-01T09:30:00Z"),
    ],
)
def test_timestamps_read_any_iso_form_and_write_one(value: str, written: str) -> None:
    assert format_timestamp(parse_timestamp(value)) == written


@pytest.mark.parametrize(
    "value", ["", "  ", "yesterday", "2026-13-01T00:00:00Z", "9999-12-31T23:00:00-02:00", 5, None]
)
def test_a_bad_timestamp_is_none_not_an_exception(value: object) -> None:
    assert parse_timestamp(value) is None


def test_connect_uses_wal_and_lets_threads_write_one_file(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "state.sqlite3"  # folders are made
    conn = connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.execute("CREATE TABLE t (n INTEGER)")
    errors: list[Exception] = []

    def write(n: int) -> None:
        try:
            own = connect(path, timeout=30)
            for i in range(50):
                own.execute("BEGIN IMMEDIATE")
                own.execute("INSERT INTO t VALUES (?)", (n * 100 + i,))
                own.execute("COMMIT")
            own.close()
        except sqlite3.Error as error:  # "database is locked" would land here
            errors.append(error)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert conn.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 200
