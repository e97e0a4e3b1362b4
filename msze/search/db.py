"""The results database: parishes, their Mass times, the history of changes and visitors' corrections.

SQLAlchemy 2 Core tables, so the same code runs on SQLite (the default, one file) and PostgreSQL.
Searchable text is stored twice: as written, for display, and folded (lower case, no Polish diacritics)
in `*_key` columns, so a search for "lodz" finds "Łódź" with a plain indexed comparison on every backend.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    inspect,
    make_url,
    select,
    update,
)
from sqlalchemy import (
    text as sql_text,
)
from sqlalchemy.exc import IntegrityError

log = logging.getLogger(__name__)
T = TypeVar("T")

DAYS = ("sun", "mon", "tue", "wed", "thu", "fri", "sat", "holiday")
"""Days of a Mass time (results.jsonl's `schedule`), in the order a schedule is shown; "unknown" for none."""
UNKNOWN_DAY = "unknown"
# a season's longest name: six stretches of months ("01-01..01-31,03-01..03-31,...") fit
SEASON_LENGTH = 100
# the first version's day categories, as a database or results file written by it has them
LEGACY_DAYS = {
    "sunday": ("sun",),
    "saturday": ("sat",),
    "holiday": ("holiday",),
    "weekday": ("mon", "tue", "wed", "thu", "fri"),
}
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")
# The tags of a Mass's language or rite that the search shows and filters by (the extractor reads more).
LANG_TAGS = {
    "en": "po angielsku", "uk": "po ukraińsku", "latin": "po łacinie", "tridentine": "forma nadzwyczajna",
    "de": "po niemiecku", "it": "po włosku", "fr": "po francusku", "es": "po hiszpańsku", "lt": "po litewsku",
    "be": "po białorusku", "vi": "po wietnamsku", "sign": "w języku migowym",
}  # fmt: skip


def tags_column(tags: object) -> str | None:
    """The language and rite tags of a results entry as stored: ",en," (None when it has none)."""
    known = [t for t in LANG_TAGS if isinstance(tags, list) and t in tags]
    return f",{','.join(known)}," if known else None


def tags_of(column: str | None) -> list[str]:
    return [t for t in (column or "").split(",") if t]


metadata = MetaData()

parishes = Table(
    "parishes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", String(300), nullable=False),
    Column("city", String(200), nullable=False),
    Column("address", Text, nullable=False, default=""),  # lines joined with "\n"
    Column("decanate", String(200), nullable=False, default=""),
    Column("diocese", String(200), nullable=False, default=""),
    Column("voivodeship", String(100), nullable=False, default=""),
    Column("website", Text),  # the parish site found by the places stage
    Column("domain", String(253)),  # registered domain of `website` (results join on the website itself)
    Column("name_key", String(300), nullable=False),
    Column("city_key", String(200), nullable=False),
    # First word of city_key ("krakow" for "Kraków-Bieńczyce"): an equality the city filter can use an index
    # for on every backend, before it picks the city and its districts out of that word's towns.
    Column("town_key", String(200)),
    Column("diocese_key", String(200), nullable=False),
    Column("crawled_at", DateTime(timezone=True)),  # when the times shown were crawled
    Column("attempted_at", DateTime(timezone=True)),  # the latest crawl loaded, finished or failed
    Column("crawl_status", String(20)),  # finished | failed | None (never crawled)
    Column("crawl_error", Text),
    Column("lat", Float),  # the place's coordinates from the places stage (WGS 84), None when unknown
    Column("lng", Float),
    UniqueConstraint("name", "city", "address", name="uq_parish_identity"),
)
Index("ix_parishes_city_key_name_key", parishes.c.city_key, parishes.c.name_key)
Index("ix_parishes_town_key_city_key_name_key", parishes.c.town_key, parishes.c.city_key, parishes.c.name_key)
Index("ix_parishes_name_key", parishes.c.name_key)
Index(
    "ix_parishes_diocese_key_city_key_name_key",
    parishes.c.diocese_key,
    parishes.c.city_key,
    parishes.c.name_key,
)
Index("ix_parishes_domain", parishes.c.domain)
Index("ix_parishes_lat_lng", parishes.c.lat, parishes.c.lng)

mass_times = Table(
    "mass_times",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False),
    Column("day", String(10), nullable=False),  # one of DAYS or UNKNOWN_DAY
    Column("minute", Integer, nullable=False),  # minutes after midnight: range filters compare integers
    Column("time", String(5), nullable=False),  # "HH:MM"
    Column("source_url", Text),
    Column("context", Text),
    Column("source", String(20)),  # rules | classifier
    Column("score", Float),
    Column("crawled_at", DateTime(timezone=True)),
    # Seasonal times ("w okresie wakacji"): ISO dates when a result carries them (optional in results.jsonl).
    Column("start_date", String(10)),
    Column("end_date", String(10)),
    Column("church", Text),  # None: the parish church; else the church or chapel the site names
    Column("season", String(SEASON_LENGTH)),  # None: all year; a tag; "MM-DD..MM-DD[,...]"
    Column("vigil", Boolean),  # a Saturday-evening Mass the site counts as Sunday's
    # the extractor's language and rite tags (",en,", ",latin,tridentine,"; None: none), comma-bounded: one
    # tag is a plain LIKE on every backend
    Column("tags", String(120)),
)
Index("ix_mass_times_day_minute_parish", mass_times.c.day, mass_times.c.minute, mass_times.c.parish_id)
Index("ix_mass_times_parish_day_minute", mass_times.c.parish_id, mass_times.c.day, mass_times.c.minute)

time_history = Table(
    "time_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("crawled_at", DateTime(timezone=True)),  # the crawl that brought the new times
    Column("loaded_at", DateTime(timezone=True), nullable=False),
    Column("previous_crawled_at", DateTime(timezone=True)),
    Column("added", Text, nullable=False),  # JSON list of "day HH:MM"
    Column("removed", Text, nullable=False),  # JSON list of "day HH:MM"
)

corrections = Table(
    "corrections",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("client", String(64), nullable=False),  # salted hash of the reporter's IP, for rate limiting
    Column("kind", String(10), nullable=False),  # wrong (not a Mass) | changed (held at new_time) | missing
    Column("day", String(10), nullable=False),
    Column("time", String(5), nullable=False),  # the time shown (wrong, changed) or the one missing
    Column("new_time", String(5)),  # a changed time: the correct one
    Column("comment", Text, nullable=False, default=""),
    Column("status", String(10), nullable=False, default="new"),  # new | accepted | rejected
    # the crawl's page and sentence of the time, kept when the report is settled (an accepted wrong time then
    # leaves the published rows, and the label still needs its sentence)
    Column("crawl_source_url", Text),
    Column("crawl_context", Text),
)
Index("ix_corrections_client_created", corrections.c.client, corrections.c.created_at)

one_off_masses = Table(
    "one_off_masses",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("date", String(10)),  # "YYYY-MM-DD", "MM-DD" without a year, None when the page gives none
    Column("time", String(5), nullable=False),
    Column("church", Text),
    Column("note", Text, nullable=False, default=""),
    Column("source_url", Text),
)

# "w pierwszy piątek miesiąca o 16:30": week 1, days "fri"; -1 is the last week of the month
monthly_masses = Table(
    "monthly_masses",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("week", Integer, nullable=False),  # msze/utils/vocabulary.py MONTH_WEEKS
    Column("days", String(60), nullable=False),  # WEEK codes, comma-separated
    Column("time", String(5), nullable=False),
    Column("church", Text),
    Column("season", String(SEASON_LENGTH)),
    Column("note", Text, nullable=False, default=""),
    Column("source_url", Text),
)

confession_times = Table(
    "confession_times",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("days", String(60), nullable=False, default=""),  # DAYS codes, comma-separated
    Column("start", String(5), nullable=False),
    Column("end", String(5)),
    Column("church", Text),
    Column("season", String(SEASON_LENGTH)),
    Column("source_url", Text),
)

churches = Table(
    "churches",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", Text, nullable=False),  # as the parish's times name it (mass_times.church)
    Column("address", Text, nullable=False, default=""),
    Column("lat", Float, nullable=False),
    Column("lng", Float, nullable=False),
    UniqueConstraint("parish_id", "name"),
)

# Accounts of the people who verify schedules (msze/search/accounts.py): a moderator (every parish) or a
# parish editor (its `parish_id` only). Only the argon2 hash of a password is ever stored.
users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String(100), nullable=False, unique=True),
    Column("password_hash", String(200)),  # None until an invited editor sets a password
    Column("role", String(12), nullable=False),  # moderator | editor
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("locked_until", DateTime(timezone=True)),
)

# Failed logins, per account name and per client (salted IP hash), for the lockout; old rows are pruned.
login_failures = Table(
    "login_failures",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("username", String(100), nullable=False, index=True),
    Column("client", String(64), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
)

# One row per logged-in session: the session cookie carries the random id, the table its SHA-256; a new one at
# every login, deleted at logout, so a session can be ended on the server.
login_sessions = Table(
    "login_sessions",
    metadata,
    Column("id_hash", String(64), primary_key=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

# A parish's invite: the link's token is shown once, only its SHA-256 is kept; single use, expiring.
invites = Table(
    "invites",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_by", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("used_at", DateTime(timezone=True)),
)

# The schedule a parish office or a moderator confirmed (JSON, msze/search/verified.py); where one exists
# it is what mass_times, one_off_masses and confession_times hold, and a load never replaces it.
verified_schedules = Table(
    "verified_schedules",
    metadata,
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), primary_key=True),
    Column("schedule", Text, nullable=False),
    Column("role", String(12), nullable=False),  # moderator | editor: the label on the parish page
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("verified_at", DateTime(timezone=True), nullable=False),
)

# The latest crawl's reading of a verified parish (the same JSON), kept apart from what is published.
crawl_readings = Table(
    "crawl_readings",
    metadata,
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), primary_key=True),
    Column("schedule", Text, nullable=False),
    Column("crawled_at", DateTime(timezone=True)),
)

# A crawl that disagrees with a verified schedule: the difference waits for a moderator or the editor.
review_items = Table(
    "review_items",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("crawled_at", DateTime(timezone=True)),
    Column("diff", Text, nullable=False),  # JSON {"added": [...], "removed": [...], "changed": [...]}
    Column("status", String(10), nullable=False, default="open"),  # open | accepted | kept
)

# Every change of a verified schedule: who, when, the schedule before and after (JSON; null: the crawl's).
audit_log = Table(
    "audit_log",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("parish_id", Integer, ForeignKey("parishes.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("user_id", Integer, ForeignKey("users.id", ondelete="SET NULL")),
    Column("username", String(100), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("action", String(40), nullable=False),
    Column("before", Text),
    Column("after", Text),
)

# Facts about how the database was filled: ("identity", "start_url") once results are joined to parishes by
# their start URL (msze.search.loader.sites), the only rule a load accepts.
loader_meta = Table(
    "loader_meta",
    metadata,
    Column("key", String(40), primary_key=True),
    Column("value", Text, nullable=False),
)


def _upgrade_days(conn) -> None:
    """Times a database of the first version stored by day category ("weekday") become days of the week."""
    renamed = [day for day in LEGACY_DAYS if day not in DAYS]  # "holiday" is a day of both versions
    old = conn.execute(select(mass_times).where(mass_times.c.day.in_(renamed))).mappings().all()
    for row in old:
        conn.execute(mass_times.delete().where(mass_times.c.id == row["id"]))
        fields = {k: v for k, v in row.items() if k != "id"}
        for day in LEGACY_DAYS[row["day"]]:
            conn.execute(mass_times.insert().values({**fields, "day": day}))
    for legacy in renamed:
        conn.execute(
            update(corrections).where(corrections.c.day == legacy).values(day=LEGACY_DAYS[legacy][0])
        )


def clean_text(value: str) -> str:
    """Whitespace collapsed, control characters taken as spaces: PostgreSQL refuses a NUL in text, and no
    name, sentence or query needs a control character."""
    return " ".join(_CONTROL_RE.sub(" ", value).split())


def town_key(city_key: str) -> str:
    """The first word of a folded city name: "krakow-bienczyce" -> "krakow", "zielona gora" -> "zielona"."""
    return re.split(r"[\s-]", city_key, maxsplit=1)[0]


def minute_of(hhmm: str) -> int:
    """Minutes after midnight of a normalised "HH:MM"."""
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def database_url(path_or_url: str | Path) -> str:
    """Accept a SQLAlchemy URL or a plain file path (taken as SQLite)."""
    text = str(path_or_url)
    return text if "://" in text else f"sqlite:///{text}"


def sqlite_path(url: str | Path) -> Path | None:
    """The file behind a SQLite URL or path; None for other backends and in-memory databases.
    ArgumentError for a URL SQLAlchemy cannot parse."""
    parsed = make_url(database_url(url))
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    if parsed.query.get("uri") or parsed.database.startswith("file:"):
        return None  # a SQLite URI ("file:x?mode=ro"): SQLite itself decides
    return Path(parsed.database)


def make_engine(url: str | Path) -> Engine:
    """An engine with foreign keys enforced on SQLite too (so deleting a parish deletes its times)."""
    url = database_url(url)
    kwargs: dict = {}
    if url.startswith("sqlite"):
        # Flask serves from threads; SQLite connections may be used by the pool across them.
        kwargs["connect_args"] = {"check_same_thread": False}
    engine = create_engine(url, **kwargs)
    if engine.dialect.name == "sqlite":

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:  # pragma: no cover - trivial
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

    return engine


def run_transaction(connection: Connection, work: Callable[..., T], *args: object) -> T:
    """`work(connection, *args)` in one transaction. When another connection committed the same unique key
    meanwhile (two first saves of one parish's schedule, two accepts of one invite), the work is rolled back
    and run once more on what that one committed, as if it came second."""
    connection.commit()  # end any read of this request: the change is a transaction of its own
    try:
        with connection.begin():
            return work(connection, *args)
    except IntegrityError as error:
        log.info("%s met a concurrent write (%s): run again", work.__name__, type(error.orig).__name__)
    with connection.begin():
        return work(connection, *args)


def _widen(conn: Connection, table: Table, column: Column, present: Any) -> None:
    """A string column an older version made narrower (a season of several stretches is longer than one
    range) is widened; SQLite does not enforce a length, PostgreSQL does."""
    length = getattr(column.type, "length", None)
    had = getattr(present, "length", None)
    if conn.dialect.name != "postgresql" or length is None or had is None or had >= length:
        return
    preparer = conn.dialect.identifier_preparer
    conn.execute(
        sql_text(
            f"ALTER TABLE {preparer.format_table(table)} ALTER COLUMN {preparer.format_column(column)} "
            f"TYPE {column.type.compile(conn.dialect)}"
        )
    )


def create_schema(engine: Engine) -> None:
    """Create every table and index that does not exist yet, and add nullable columns that a database made by
    an older version lacks (the only kind of schema change so far; identifiers come from the schema, never
    from input)."""
    metadata.create_all(engine)
    inspector = inspect(engine)
    preparer = engine.dialect.identifier_preparer
    with engine.begin() as conn:
        for table in metadata.sorted_tables:
            present = {column["name"]: column["type"] for column in inspector.get_columns(table.name)}
            for column in table.columns:
                if column.name in present:
                    _widen(conn, table, column, present[column.name])
                    continue
                if not column.nullable:
                    continue
                conn.execute(
                    sql_text(
                        f"ALTER TABLE {preparer.format_table(table)} ADD COLUMN "
                        f"{preparer.format_column(column)} {column.type.compile(engine.dialect)}"
                    )
                )
        _upgrade_days(conn)
        missing = conn.execute(
            select(parishes.c.id, parishes.c.city_key).where(parishes.c.town_key.is_(None))
        )
        for row in missing.all():
            conn.execute(
                update(parishes).where(parishes.c.id == row.id).values(town_key=town_key(row.city_key))
            )
    metadata.create_all(engine)  # indexes on columns added just now
