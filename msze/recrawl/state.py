"""The previous-run state a re-crawl compares against (SQLite; setting RECRAWL_STATE, `process --state`).

Per page: its validators (ETag, Last-Modified) for conditional requests, its text fingerprint and length
for change detection, and the stored page (HTML, text, hours) to re-use on a 304 or an unchanged text.
Per parish (keyed by its start URL, utils.urls.parish_url): the Mass times of the last run, and one row per
run saying whether they changed.
No Scrapy imports: the middleware and pipeline in msze/recrawl.py and `python -m msze process` share it.
"""

from __future__ import annotations

import json
import weakref
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msze.recrawl.changes import PageState, ParishChange, compare_parish
from msze.utils.sqlite import connect
from msze.utils.time import utc_now
from msze.utils.urls import parish_url

# A state written before parishes were keyed by start URL kept one row per registered domain: parishes of
# one host overwrote each other's. Its parish tables are set aside (renamed) and the next run starts anew.
_BY_DOMAIN = ("recrawl_parishes", "recrawl_changes")
SET_ASIDE_WARNING = (
    "re-crawl state %s kept parishes by domain (an older msze): its parish tables are set aside as "
    "*_by_domain, and every parish of this run is new"
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS recrawl_pages (
    url TEXT PRIMARY KEY,
    domain TEXT,
    etag TEXT,
    last_modified TEXT,
    fingerprint TEXT NOT NULL,
    text_length INTEGER NOT NULL,
    page BLOB,
    updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS recrawl_pages_domain ON recrawl_pages (domain);
CREATE TABLE IF NOT EXISTS recrawl_parishes (
    parish TEXT PRIMARY KEY,
    start_url TEXT NOT NULL,
    masses TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS recrawl_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_at TEXT NOT NULL,
    parish TEXT NOT NULL,
    start_url TEXT NOT NULL,
    status TEXT NOT NULL,
    masses_changed INTEGER NOT NULL,
    added TEXT NOT NULL,
    removed TEXT NOT NULL,
    pages TEXT NOT NULL,
    flagged_pages TEXT NOT NULL
);
"""


@dataclass(frozen=True)
class StoredPage:
    """One page as the previous run left it."""

    url: str
    domain: str | None
    etag: str | None
    last_modified: str | None
    state: PageState
    page: dict[str, Any] | None  # the page item (html, text, hours, masses ...), when stored


class RecrawlState:
    """SQLite store of the previous run; safe for several processes (WAL, busy timeout)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = connect(self.path)
        self.set_aside_by_domain = self._set_aside_by_domain()
        self.db.executescript(_SCHEMA)

    def _set_aside_by_domain(self) -> bool:
        """Rename the parish tables of a state keyed by domain (True when there were any)."""
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(recrawl_parishes)")}
        if "domain" not in columns:
            return False
        with self.db:
            for table in _BY_DOMAIN:
                self.db.execute(f"ALTER TABLE {table} RENAME TO {table}_by_domain")
        return True

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> RecrawlState:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- pages ---------------------------------------------------------------------------------------
    def get_page(self, url: str) -> StoredPage | None:
        row = self.db.execute(
            "SELECT url, domain, etag, last_modified, fingerprint, text_length, page "
            "FROM recrawl_pages WHERE url = ?",
            (url,),
        ).fetchone()
        if row is None:
            return None
        page = json.loads(zlib.decompress(row[6])) if row[6] else None
        return StoredPage(row[0], row[1], row[2], row[3], PageState(row[4], row[5]), page)

    def get_validators(self, url: str) -> tuple[str | None, str | None] | None:
        """(ETag, Last-Modified) stored for a URL, without loading the page; None when never stored."""
        row = self.db.execute(
            "SELECT etag, last_modified FROM recrawl_pages WHERE url = ?", (url,)
        ).fetchone()
        return (row[0], row[1]) if row else None

    def put_page(
        self,
        url: str,
        state: PageState,
        page: dict[str, Any] | None = None,
        *,
        domain: str | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> None:
        blob = zlib.compress(json.dumps(page, ensure_ascii=False).encode("utf-8")) if page else None
        self.db.execute(
            "INSERT OR REPLACE INTO recrawl_pages "
            "(url, domain, etag, last_modified, fingerprint, text_length, page, updated_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (url, domain, etag, last_modified, state.fingerprint, state.text_length, blob, utc_now()),
        )

    # --- parishes ------------------------------------------------------------------------------------
    def get_masses(self, start_url: str) -> list[dict[str, Any]] | None:
        """The Mass times the previous run found for this parish; None when it was never seen."""
        row = self.db.execute(
            "SELECT masses FROM recrawl_parishes WHERE parish = ?", (parish_url(start_url) or start_url,)
        ).fetchone()
        return json.loads(row[0]) if row else None

    def record_parish(
        self, start_url: str, masses: list[dict[str, Any]], page_changes: Mapping[str, str]
    ) -> ParishChange:
        """Compare this run's Mass times of the parish crawled from `start_url` with the stored ones
        (changes.compare_parish; page_changes maps URL -> page change status), then store them and the change
        in one transaction. Returns the change."""
        change = compare_parish(start_url, self.get_masses(start_url), masses, page_changes)
        parish, now = parish_url(start_url) or start_url, utc_now()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT OR REPLACE INTO recrawl_parishes (parish, start_url, masses, updated_at)"
                " VALUES (?, ?, ?, ?)",
                (parish, start_url, json.dumps(masses, ensure_ascii=False), now),
            )
            self.db.execute(
                "INSERT INTO recrawl_changes (run_at, parish, start_url, status, masses_changed, added,"
                " removed, pages, flagged_pages) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    now,
                    parish,
                    start_url,
                    change.status,
                    int(change.masses_changed),
                    json.dumps(change.added),
                    json.dumps(change.removed),
                    json.dumps(change.pages),
                    json.dumps(change.flagged_pages),
                ),
            )
        return change

    def last_changes(self) -> list[dict[str, Any]]:
        """The latest change row of every parish (what "changed since last run" means for a report)."""
        rows = self.db.execute(
            "SELECT start_url, status, masses_changed, added, removed, pages, flagged_pages, run_at "
            "FROM recrawl_changes WHERE id IN (SELECT MAX(id) FROM recrawl_changes GROUP BY parish) "
            "ORDER BY parish"
        ).fetchall()
        return [
            {
                "start_url": r[0],
                "status": r[1],
                "masses_changed": bool(r[2]),
                "added": json.loads(r[3]),
                "removed": json.loads(r[4]),
                "pages": json.loads(r[5]),
                "flagged_pages": json.loads(r[6]),
                "run_at": r[7],
            }
            for r in rows
        ]


@dataclass
class SharedRecrawl:
    """What a crawl's re-crawl middleware and pipeline share: the state and the fresh validators."""

    state: RecrawlState
    validators: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)
    not_modified: set[str] = field(default_factory=set)  # URLs answered 304 whose item is still to come


_SHARED: weakref.WeakKeyDictionary[Any, SharedRecrawl] = weakref.WeakKeyDictionary()


def shared_recrawl(owner: Any, path: str) -> SharedRecrawl:
    """The one SharedRecrawl of `owner` (a crawler), opened on `path` the first time it is asked for."""
    shared = _SHARED.get(owner)
    if shared is None:
        shared = _SHARED[owner] = SharedRecrawl(RecrawlState(path))
    return shared
