"""SQLite as msze's embedded database: WAL, so many crawl processes can read and write one file at once."""

from __future__ import annotations

import os
import sqlite3

# WAL: readers never block the writer; NORMAL is durable across process kills in WAL mode (only an OS crash
# can lose the last commits).
PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL")


def connect(path: str | os.PathLike[str], timeout: float = 60.0) -> sqlite3.Connection:
    """A connection in autocommit mode (callers say BEGIN IMMEDIATE themselves, so a writer takes the lock up
    front and waits instead of failing half-way through a read-then-write), with a busy timeout and WAL."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    for pragma in PRAGMAS:
        conn.execute(pragma)
    return conn
