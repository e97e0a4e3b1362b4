"""The annotator's schema (SQLAlchemy Core) and write transactions that are safe under concurrent annotators.

SQLite is the embedded default; a PostgreSQL URL works through the same code. Concurrency: on SQLite every
transaction starts with `BEGIN IMMEDIATE` (one writer at a time, others wait on the busy timeout); on
PostgreSQL the serving code locks the device row (`SELECT ... FOR UPDATE`) and skips hour rows locked by other
transactions. Counters are updated with `col = col + 1` in SQL, never read-modify-write in Python.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    inspect,
    make_url,
    select,
    update,
)
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, OperationalError

from msze.utils.database import database_url

T = TypeVar("T")

metadata = MetaData()

# One parish page (crawled URL, or file path given to `msze extract`), with its full text when known.
documents = Table(
    "documents",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("source", Text, nullable=False, unique=True),  # page URL, or file path for extract output
    Column("text", Text),  # full page text (PageItem input); None for extract output (context only)
)

# One hour candidate: the unit volunteers label.
hours = Table(
    "hours",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("key", String(64), nullable=False, unique=True),  # sha256(source, start, end, sha256(context))
    Column("document_id", Integer, ForeignKey("documents.id"), nullable=False),
    Column("hour_text", Text, nullable=False),  # as written, e.g. "7.oo"
    Column("time", String(5), nullable=False),  # "07:00"
    Column("start", Integer, nullable=False),  # span in the page text
    Column("end", Integer, nullable=False),
    Column("context", Text, nullable=False),
    Column("context_start", Integer, nullable=False),
    Column("day", String(16)),
    Column("import_label", String(8)),  # label the pipeline gave ("mass"/"other"), kept for reference
    Column("import_source", String(16)),  # "rules"/"classifier"
    # Known answer for cheater detection: "yes"/"no"; origin "rules" (rule extractor's mass) or "admin".
    Column("gold_label", String(3)),
    Column("gold_origin", String(8)),
    Column("n_served", Integer, nullable=False, default=0),  # devices it was served to (serving order)
    Column("n_answers", Integer, nullable=False, default=0),  # current answers, all devices
    Column("created_at", DateTime, nullable=False),
)
Index("ix_hours_serving", hours.c.gold_label, hours.c.n_answers, hours.c.n_served, hours.c.id)

# One device (browser): random cookie token; fingerprint and address group link identities (cheaters.py).
devices = Table(
    "devices",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token", String(64), nullable=False, unique=True),
    Column("fingerprint", String(64), nullable=False, index=True),
    Column("ip", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False, index=True),
    Column("last_seen", DateTime, nullable=False),
    Column("flagged", Boolean, nullable=False, default=False),  # cheater: labels kept, excluded from exports
    Column("flagged_at", DateTime),
    Column("gold_answers", Integer, nullable=False, default=0),
    Column("gold_agree", Integer, nullable=False, default=0),
    Column("ip_group", String(64)),  # identity.ip_group(ip): IPv4 /24, IPv6 /64
    Column("flag_reason", String(8)),  # "gold" | "same" | "group" | "admin" (vouched, not flagged)
)
Index("ix_devices_ip_created", devices.c.ip, devices.c.created_at)
Index("ix_devices_ip_group_created", devices.c.ip_group, devices.c.created_at)
# Columns added after the first release: a database made before them gets them (ALTER TABLE) on opening.
ADDED_COLUMNS = (devices.c.ip_group, devices.c.flag_reason)

# An hour served to a device, and the device's current answer to it (None = pending or undone).
# The unique constraint is the "never the same hour twice to a device" guarantee.
assignments = Table(
    "assignments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("device_id", Integer, ForeignKey("devices.id"), nullable=False),
    Column("hour_id", Integer, ForeignKey("hours.id"), nullable=False),
    Column("served_at", DateTime, nullable=False),
    Column("answer", String(3)),  # "yes" | "no" | None
    Column("answered_at", DateTime),
    UniqueConstraint("device_id", "hour_id", name="uq_assignment_device_hour"),
)
Index("ix_assignments_hour", assignments.c.hour_id, assignments.c.answer)

# Every click, append-only: an audit trail that is never rewritten (undo is an event too).
events = Table(
    "events",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("device_id", Integer, ForeignKey("devices.id"), nullable=False),
    Column("hour_id", Integer, ForeignKey("hours.id"), nullable=False),
    Column("action", String(8), nullable=False),  # "yes" | "no" | "undo"
    Column("at", DateTime, nullable=False),
)


def utcnow() -> datetime:
    """Naive UTC now (SQLite has no time zones; every timestamp in the database is UTC)."""
    return datetime.now(UTC).replace(tzinfo=None)


class DatabaseProblem(Exception):
    """The database cannot be the annotator's: unreachable, damaged, not a database, or another schema."""


def make_engine(url: str | os.PathLike[str]) -> Engine:
    """An engine with the annotator's schema in place; DatabaseProblem (one line) if it is unusable.

    `url` is a SQLAlchemy URL or a plain file path, which means SQLite (as everywhere in msze).
    A new, empty database gets the schema. An existing one is used only when it is whole: a damaged file, or
    one with some of the annotator's tables or columns missing, is refused rather than "repaired" with empty
    tables, which would hide the loss. Nothing is written to a database that is refused.
    """
    try:
        engine = _create_engine(make_url(database_url(url)))
    except (ArgumentError, ImportError, ValueError) as exc:
        raise DatabaseProblem(f"{os.fspath(url)!r} is not a database URL we can use ({exc})") from exc
    name = engine.url.render_as_string(hide_password=True)
    try:
        _prepare(engine, name)
    except DBAPIError as exc:
        engine.dispose()
        raise DatabaseProblem(f"{name}: {describe(exc)}") from exc
    except DatabaseProblem:
        engine.dispose()
        raise
    return engine


def describe(exc: DBAPIError) -> str:
    """One line for a database error: the driver's message, and whether the file is not a usable database."""
    detail = (str(exc.orig) or type(exc.orig).__name__).strip().splitlines()[0]
    if isinstance(exc, OperationalError):  # unreachable, locked, no such table ...: the message says it
        return detail
    return f"damaged or not a database ({detail})"


def _create_engine(url: URL) -> Engine:
    """The engine, with SQLite writers serialised (BEGIN IMMEDIATE) and foreign keys enforced."""
    if url.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    engine = create_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine, "connect")
    def _sqlite_connect(dbapi_connection, _record):  # noqa: ANN001 - DB-API objects
        dbapi_connection.isolation_level = None  # let SQLAlchemy's "begin" hook emit BEGIN itself
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _sqlite_begin(conn):  # noqa: ANN001
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _prepare(engine: Engine, name: str) -> None:
    """Check the database (SQLite: quick_check), then create the schema if it is new; WAL for SQLite files."""
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as conn:
        if sqlite:
            verdict = conn.exec_driver_sql("PRAGMA quick_check").scalars().all()
            if verdict != ["ok"]:
                raise DatabaseProblem(f"{name}: damaged database (quick_check: {verdict[0]})")
        _check_schema(conn, name)
        metadata.create_all(conn)
        _add_columns(conn)
    if sqlite and engine.url.database not in (None, "", ":memory:"):
        raw = engine.raw_connection()  # journal_mode cannot change inside a transaction; the file keeps it
        try:
            raw.cursor().execute("PRAGMA journal_mode=WAL")
        finally:
            raw.close()


def _check_schema(conn: Connection, name: str) -> None:
    """Refuse a database with some of the annotator's tables but not all of them, or not all their columns."""
    inspector = inspect(conn)
    present = set(inspector.get_table_names()) & set(metadata.tables)
    if not present:
        return  # a new database (perhaps shared with other programs' tables): the schema is created
    refused = f"{name}: not an annotator database, or a damaged one"
    missing = sorted(set(metadata.tables) - present)
    if missing:
        raise DatabaseProblem(f"{refused}: missing tables: {', '.join(missing)}")
    for table in metadata.sorted_tables:
        have = {column["name"] for column in inspector.get_columns(table.name)}
        lacking = [c.name for c in table.columns if c.name not in have and c not in ADDED_COLUMNS]
        if lacking:
            raise DatabaseProblem(f"{refused}: table {table.name} lacks columns: {', '.join(lacking)}")


def _add_columns(conn: Connection) -> None:
    """Give a database made before ADDED_COLUMNS those columns, their index, and the address groups."""
    from msze.annotator.identity import ip_group

    inspector = inspect(conn)
    quote = conn.dialect.identifier_preparer.quote
    for column in ADDED_COLUMNS:
        if column.name not in {c["name"] for c in inspector.get_columns(column.table.name)}:
            kind = column.type.compile(dialect=conn.dialect)
            conn.exec_driver_sql(
                f"ALTER TABLE {quote(column.table.name)} ADD COLUMN {quote(column.name)} {kind}"
            )
    for index in devices.indexes:
        index.create(conn, checkfirst=True)
    missing = conn.execute(select(devices.c.id, devices.c.ip).where(devices.c.ip_group.is_(None))).all()
    if missing:  # one executemany, not a statement per device
        conn.execute(
            update(devices).where(devices.c.id == bindparam("device")).values(ip_group=bindparam("group")),
            [{"device": device_id, "group": ip_group(ip)} for device_id, ip in missing],
        )


# PostgreSQL's deadlock_detected and serialization_failure: the transaction did nothing and may simply rerun.
RETRYABLE_SQLSTATES = frozenset({"40P01", "40001"})


def run_transaction(engine: Engine, work: Callable[[Connection], T], attempts: int = 3) -> T:
    """Run `work` in one transaction, rerunning it when the database aborted it as a deadlock victim.

    Two annotators answering each other's next hours can deadlock on PostgreSQL's row locks; the database
    aborts one transaction, which is then rerun from the start (nothing of it was committed).
    """
    for attempt in range(attempts):
        try:
            with engine.begin() as conn:
                return work(conn)
        except DBAPIError as exc:
            code = getattr(exc.orig, "sqlstate", None) or getattr(exc.orig, "pgcode", None)
            if code not in RETRYABLE_SQLSTATES or attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


@contextmanager
def transaction(engine: Engine) -> Iterator[Connection]:
    """One write transaction: commits on success, rolls back on any exception."""
    with engine.begin() as conn:
        yield conn
