"""Job-status database for batch crawls: one row per parish, so a re-run knows what is done.

SQLite in WAL mode: many per-parish wrapper processes write their own row at the same time while the
driver reads progress. Every write is one short transaction with a busy timeout, so concurrent writers queue
up instead of failing with "database is locked". Rows are keyed by (kind, url): kind "crawl" holds parish
crawls; other batch steps (re-processing stored files) use their own kind in the same file.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from msze.utils.sqlite import connect
from msze.utils.time import utc_now
from msze.utils.urls import host_of

STATES = ("queued", "running", "finished", "failed")

SCHEMA = """
CREATE TABLE IF NOT EXISTS jobs (
    kind TEXT NOT NULL DEFAULT 'crawl',
    url TEXT NOT NULL,
    domain TEXT NOT NULL DEFAULT '',
    name TEXT,
    state TEXT NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'running', 'finished', 'failed')),
    queued_at TEXT NOT NULL,
    started_at TEXT,
    ended_at TEXT,
    pages INTEGER,
    bytes INTEGER,
    masses INTEGER,
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    log_path TEXT,
    host TEXT,
    pid INTEGER,
    summary TEXT,
    PRIMARY KEY (kind, url)
);
CREATE INDEX IF NOT EXISTS jobs_state ON jobs (kind, state);
"""


class JobDB:
    """The job table of one SQLite file, restricted to one `kind` of job."""

    def __init__(self, path: str | os.PathLike[str], kind: str = "crawl", timeout: float = 60.0) -> None:
        self.path = os.fspath(path)
        self.kind = kind
        self._conn = self._retry(lambda: connect(self.path, timeout))
        self._conn.row_factory = sqlite3.Row
        self._retry(lambda: self._conn.executescript(SCHEMA))
        columns = {row["name"] for row in self._conn.execute("PRAGMA table_info(jobs)")}
        if "name" not in columns:  # a database from before the name column
            self._retry(lambda: self._conn.execute("ALTER TABLE jobs ADD COLUMN name TEXT"))

    # -- plumbing -----------------------------------------------------------------------------------------

    @staticmethod
    def _retry(fn: Any, attempts: int = 50) -> Any:
        """Run fn, retrying a few times on "database is locked" (schema setup races the busy handler)."""
        for i in range(attempts):
            try:
                return fn()
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or i == attempts - 1:
                    raise
                time.sleep(0.05 * (i + 1))
        return None

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        self._retry(lambda: self._conn.execute("BEGIN IMMEDIATE"))
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> JobDB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writes -------------------------------------------------------------------------------------------

    def enqueue(
        self, urls: Iterable[str], domains: dict[str, str] | None = None, names: dict[str, str] | None = None
    ) -> int:
        """Add URLs as queued; URLs already in the table keep their state. Returns how many were new.
        `names` are the jobs' file-name stems (the batch driver's); `domains` default to the URL's host."""
        now = utc_now()
        domains = domains or {}
        names = names or {}
        rows = [(self.kind, u, domains.get(u) or host_of(u), names.get(u), now) for u in dict.fromkeys(urls)]
        with self._write() as conn:
            before = conn.total_changes
            conn.executemany(
                "INSERT OR IGNORE INTO jobs (kind, url, domain, name, queued_at) VALUES (?, ?, ?, ?, ?)", rows
            )
            return conn.total_changes - before

    def names(self) -> dict[str, str]:
        """url -> name of every job that has one (keeps file names stable across runs)."""
        cur = self._conn.execute(
            "SELECT url, name FROM jobs WHERE kind = ? AND name IS NOT NULL", (self.kind,)
        )
        return {row["url"]: row["name"] for row in cur}

    def start(
        self, url: str, log_path: str | None = None, host: str | None = None, pid: int | None = None
    ) -> None:
        """Mark a job running (adding it if unknown) and count the attempt; host/pid default to the caller's
        (a driver recording a remote job's start passes the job's)."""
        now = utc_now()
        with self._write() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO jobs (kind, url, domain, queued_at) VALUES (?, ?, ?, ?)",
                (self.kind, url, host_of(url), now),
            )
            self._mark_running(conn, now, url, log_path, host, pid)

    def _mark_running(
        self,
        conn: sqlite3.Connection,
        now: str,
        url: str,
        log_path: str | None = None,
        host: str | None = None,
        pid: int | None = None,
    ) -> None:
        """The attempt starts (inside the caller's write transaction, shared by start() and claim())."""
        conn.execute(
            """UPDATE jobs SET state = 'running', started_at = ?, ended_at = NULL, error = NULL,
                   attempts = attempts + 1, log_path = COALESCE(?, log_path), host = ?, pid = ?
               WHERE kind = ? AND url = ?""",
            (now, log_path, host or socket.gethostname(), pid or os.getpid(), self.kind, url),
        )

    def claim(self, url: str | None = None, log_path: str | None = None) -> str | None:
        """Mark `url` running, or, without one, atomically take the oldest queued job (for workers that pull
        from the database instead of being handed URLs). Returns the claimed URL, None when nothing is queued.
        Two workers never claim the same job: the pick and the update are one IMMEDIATE transaction."""
        if url is not None:
            self.start(url, log_path)
            return url
        with self._write() as conn:
            row = conn.execute(
                "SELECT url FROM jobs WHERE kind = ? AND state = 'queued' ORDER BY queued_at, rowid LIMIT 1",
                (self.kind,),
            ).fetchone()
            if row is None:
                return None
            self._mark_running(conn, utc_now(), row["url"], log_path)
            return row["url"]

    def finish(self, url: str, summary: dict[str, Any] | None = None) -> None:
        """Mark a job finished and store its summary (pages, bytes, masses are copied into columns)."""
        self._end(url, "finished", None, summary)

    def fail(self, url: str, error: str, summary: dict[str, Any] | None = None) -> None:
        """Mark a job failed with a readable error (the summary, if any, is kept for the results export)."""
        self._end(url, "failed", error or "unknown error", summary)

    def _end(self, url: str, state: str, error: str | None, summary: dict[str, Any] | None) -> None:
        summary = summary or {}
        masses = summary.get("masses")
        with self._write() as conn:
            conn.execute(
                "INSERT OR IGNORE INTO jobs (kind, url, domain, queued_at) VALUES (?, ?, ?, ?)",
                (self.kind, url, summary.get("domain") or host_of(url), utc_now()),
            )
            conn.execute(
                """UPDATE jobs SET state = ?, ended_at = ?, error = ?, pages = ?, bytes = ?, masses = ?,
                       summary = ?, pid = NULL
                   WHERE kind = ? AND url = ?""",
                (
                    state,
                    utc_now(),
                    error,
                    summary.get("pages"),
                    summary.get("bytes"),
                    len(masses) if isinstance(masses, list) else masses,
                    json.dumps(summary, ensure_ascii=False) if summary else None,
                    self.kind,
                    url,
                ),
            )

    def reset(self, urls: Iterable[str]) -> None:
        """Put jobs back to queued (e.g. to force a re-crawl of finished parishes)."""
        with self._write() as conn:
            conn.executemany(
                "UPDATE jobs SET state = 'queued', pid = NULL WHERE kind = ? AND url = ?",
                [(self.kind, u) for u in urls],
            )

    # -- reads --------------------------------------------------------------------------------------------

    def pending(
        self, retry_failed: bool = True, max_attempts: int | None = None, include_running: bool = True
    ) -> list[str]:
        """URLs still to do, in queue order: queued, left "running" by a killed batch, and (optionally) failed
        ones with fewer than max_attempts attempts."""
        states = ["queued"] + (["running"] if include_running else [])
        clauses = [f"state IN ({','.join('?' * len(states))})"]
        params: list[Any] = [self.kind, *states]
        if retry_failed:
            if max_attempts is None:
                clauses.append("state = 'failed'")
            else:
                clauses.append("(state = 'failed' AND attempts < ?)")
                params.append(max_attempts)
        sql = f"SELECT url FROM jobs WHERE kind = ? AND ({' OR '.join(clauses)}) ORDER BY queued_at, rowid"
        return [r["url"] for r in self._conn.execute(sql, params)]

    def counts(self) -> dict[str, int]:
        """Number of jobs per state (every state present, 0 when none)."""
        out = dict.fromkeys(STATES, 0)
        for row in self._conn.execute(
            "SELECT state, COUNT(*) AS n FROM jobs WHERE kind = ? GROUP BY state", (self.kind,)
        ):
            out[row["state"]] = row["n"]
        return out

    def get(self, url: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT * FROM jobs WHERE kind = ? AND url = ?", (self.kind, url)).fetchone()
        return dict(row) if row else None

    def rows(self, state: str | None = None) -> list[dict[str, Any]]:
        if state is None:
            cur = self._conn.execute("SELECT * FROM jobs WHERE kind = ? ORDER BY rowid", (self.kind,))
        else:
            cur = self._conn.execute(
                "SELECT * FROM jobs WHERE kind = ? AND state = ? ORDER BY rowid", (self.kind, state)
            )
        return [dict(r) for r in cur]

    def brief(self) -> dict[str, tuple[str, str | None, int]]:
        """url -> (state, ended_at, attempts) of every job, without the summaries (cheap to poll)."""
        cur = self._conn.execute(
            "SELECT url, state, ended_at, attempts FROM jobs WHERE kind = ?", (self.kind,)
        )
        return {row["url"]: (row["state"], row["ended_at"], row["attempts"]) for row in cur}

    def summaries(self) -> list[dict[str, Any]]:
        """Stored per-parish summaries of ended jobs (finished and failed), in queue order."""
        out = []
        for row in self.rows():
            if row["state"] in ("finished", "failed") and row["summary"]:
                out.append(json.loads(row["summary"]))
        return out

    def durations(self) -> list[float]:
        """Seconds each finished or failed job took (for the ETA)."""
        out = []
        for row in self._conn.execute(
            "SELECT started_at, ended_at FROM jobs WHERE kind = ? AND ended_at IS NOT NULL "
            "AND started_at IS NOT NULL",
            (self.kind,),
        ):
            start = datetime.fromisoformat(row["started_at"].replace("Z", "+00:00"))
            end = datetime.fromisoformat(row["ended_at"].replace("Z", "+00:00"))
            out.append(max(0.0, (end - start).total_seconds()))
        return out
