"""Visitors' corrections in the database: stored under a per-client rate limit, listed with the time they
name, and turned into classifier labels. The Blueprint that takes and shows them is corrections.py."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import BigInteger, Connection, func, insert, literal, select

from msze.search.db import corrections, mass_times, parishes
from msze.search.query import utc_iso
from msze.search.urls import safe_url


def store_report(connection: Connection, report: dict, limit: int, window_seconds: int) -> bool:
    """Insert a correction unless its client sent `limit` in the last `window_seconds`; False when limited.

    Runs on the request's own connection (not in a transaction yet): a second pooled connection per report
    would let a burst of reports hold every connection while each waits for one more.

    The count and the insert are one `INSERT … SELECT … WHERE (count) < limit`, so parallel posts cannot all
    read the same count: SQLite takes its write lock before the statement reads, and PostgreSQL (which reads
    a snapshot) first takes a transaction-scoped advisory lock on the client, held until the commit.
    """
    since = report["created_at"] - timedelta(seconds=window_seconds)
    recent = (
        select(func.count())
        .select_from(corrections)
        .where(corrections.c.client == report["client"], corrections.c.created_at >= since)
        .scalar_subquery()
    )
    row = select(*(literal(value, corrections.c[key].type).label(key) for key, value in report.items()))
    statement = insert(corrections).from_select(list(report), row.where(recent < limit))
    with connection.begin():
        if connection.dialect.name == "postgresql":
            key = int(report["client"][:15], 16)  # 60 bits of the client hash: a bigint lock id
            connection.execute(select(func.pg_advisory_xact_lock(literal(key, BigInteger))))
        return connection.execute(statement.execution_options(preserve_rowcount=True)).rowcount == 1


def correction_rows(conn: Connection, limit: int | None = None, newest_first: bool = True) -> list[dict]:
    """Corrections with their parish and the stored time they name (its page and sentence), in one query.

    A parish may hold the same day and time more than once (seasonal rows): the join takes the first of them,
    so each correction is one row.
    """
    same = mass_times.alias("same_time")
    first_match = (
        select(func.min(same.c.id))
        .where(
            same.c.parish_id == corrections.c.parish_id,
            same.c.day == corrections.c.day,
            same.c.time == corrections.c.time,
        )
        .correlate(corrections)
        .scalar_subquery()
    )
    newest = (corrections.c.created_at.desc(), corrections.c.id.desc())
    order = newest if newest_first else (corrections.c.id,)
    stmt = (
        select(
            corrections,
            parishes.c.name,
            parishes.c.city,
            parishes.c.website,
            func.coalesce(corrections.c.crawl_source_url, mass_times.c.source_url).label("source_url"),
            func.coalesce(corrections.c.crawl_context, mass_times.c.context).label("context"),
        )
        .join(parishes, parishes.c.id == corrections.c.parish_id)
        .outerjoin(mass_times, mass_times.c.id == first_match)
        .order_by(*order)
        .limit(limit)
    )
    return [_correction_dict(row) for row in conn.execute(stmt)]


def _correction_dict(row) -> dict:
    return {
        "id": row.id,
        "parish_id": row.parish_id,
        "name": row.name,
        "city": row.city,
        "website": safe_url(row.website),
        "kind": row.kind,
        "day": row.day,
        "time": row.time,
        "new_time": row.new_time,
        "comment": row.comment,
        "status": row.status,
        "created_at": utc_iso(row.created_at),
        "source_url": safe_url(row.source_url),
        "context": row.context,
    }


def label_of(reported: str, status: str) -> str:
    """What a report teaches the classifier about one time: reported "other" (not a Mass) or "mass" by the
    visitor, as they said unless a reviewer rejected the report (then the time was right as published)."""
    if status != "rejected":
        return reported
    return "mass" if reported == "other" else "other"


def training_labels(row: dict) -> list[dict]:
    """A correction as classifier labels (label_of): not a Mass (`wrong`) -> the time is "other"; a Mass
    `missing` -> the time is "mass"; a `changed` time -> "other" for the time shown and "mass" for the correct
    one (both with the sentence the shown time was read from)."""
    status = row["status"]
    if row["kind"] == "changed" and row.get("new_time"):
        return [
            _label(row, row["time"], label_of("other", status)),
            _label(row, row["new_time"], label_of("mass", status)),
        ]
    reported = "other" if row["kind"] in ("wrong", "changed") else "mass"
    return [_label(row, row["time"], label_of(reported, status))]


def _label(row: dict, time: str, label: str) -> dict:
    return {
        "parish_id": row["parish_id"],
        "website": row["website"],
        "time": time,
        "day": row["day"],
        "label": label,
        "kind": row["kind"],
        "source_url": row["source_url"],
        "context": row["context"],
        "comment": row["comment"],
        "reported_at": row["created_at"],
        "status": row["status"],
    }
