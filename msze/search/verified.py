"""Verified schedules: what a parish office or a moderator confirmed, published instead of the crawl's.

The one place every reader takes a schedule from is the set of tables mass_times, one_off_masses and
confession_times: search, the API, CSV, JSON-LD, iCal and the next Masses all read them. So the choice of what
is published is made here, when it is written: a verified schedule is written into those tables (with the
crawl's evidence beside the times the crawl read too), and the crawl's own reading of a verified parish is
kept in crawl_readings. A load of a newer crawl of a verified parish (`on_crawl`) changes only that reading,
and queues the parish for review when it differs.

A schedule is a dict {"masses": [...], "one_off": [...], "monthly": [...], "confession": [...]} (JSON in the
database; a monthly Mass is a monthly_masses row: a week of the month, days and a time); every
change of a verified schedule writes an audit_log row with the schedule before and after (null: the crawl's).
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import Connection, delete, insert, select, update

from msze.search.db import (
    audit_log,
    confession_times,
    corrections,
    crawl_readings,
    mass_times,
    minute_of,
    monthly_masses,
    one_off_masses,
    parishes,
    review_items,
    verified_schedules,
)
from msze.search.query import DAY_LABELS, monthly_of, utc_iso
from msze.utils.vocabulary import monthly_label

MASS_FIELDS = ("day", "time", "church", "season", "start_date", "end_date", "vigil")
ONE_OFF_FIELDS = ("date", "time", "church", "note")
MONTHLY_FIELDS = ("week", "days", "time", "church", "season", "note")
CONFESSION_FIELDS = ("days", "start", "end", "church", "season")
EVIDENCE_FIELDS = ("source_url", "context", "source", "score")


def reading_mass(data: dict) -> dict:
    """A mass_times row (or the loader's row for one) as a reading's Mass: its terms and its evidence."""
    item = {key: data.get(key) for key in MASS_FIELDS}
    item["vigil"] = bool(item["vigil"])
    item.update({key: data.get(key) for key in EVIDENCE_FIELDS})
    return item


def published(conn: Connection, parish_id: int) -> dict:
    """The schedule as the tables hold it now (what every page shows), the evidence beside each time."""
    masses = conn.execute(
        select(mass_times)
        .where(mass_times.c.parish_id == parish_id)
        .order_by(mass_times.c.day, mass_times.c.minute)
    ).all()
    one_off = conn.execute(select(one_off_masses).where(one_off_masses.c.parish_id == parish_id)).all()
    confession = conn.execute(select(confession_times).where(confession_times.c.parish_id == parish_id)).all()
    return {
        "masses": [reading_mass(dict(row._mapping)) for row in masses],
        "one_off": [{k: getattr(row, k) for k in (*ONE_OFF_FIELDS, "source_url")} for row in one_off],
        "monthly": [{k: m[k] for k in (*MONTHLY_FIELDS, "source_url")} for m in monthly_of(conn, parish_id)],
        "confession": [
            {**{k: getattr(row, k) for k in CONFESSION_FIELDS}, "days": [d for d in row.days.split(",") if d]}
            for row in confession
        ],
    }


def verified_row(conn: Connection, parish_id: int) -> dict | None:
    row = conn.execute(select(verified_schedules).where(verified_schedules.c.parish_id == parish_id)).first()
    if row is None:
        return None
    return {**row._mapping, "schedule": json.loads(row.schedule)}


def parish_ids(conn: Connection) -> set[int]:
    """The parishes that have a verified schedule."""
    return set(conn.execute(select(verified_schedules.c.parish_id)).scalars())


def crawl_reading(conn: Connection, parish_id: int) -> dict:
    """What the latest crawl read: kept apart for a verified parish, else what is published."""
    row = conn.execute(
        select(crawl_readings.c.schedule).where(crawl_readings.c.parish_id == parish_id)
    ).first()
    return json.loads(row.schedule) if row is not None else published(conn, parish_id)


def _write(conn: Connection, parish_id: int, schedule: dict, evidence_from: dict) -> None:
    """Publish `schedule` in the parish's rows; a time the crawl read keeps its page and sentence."""
    evidence = {(m["day"], m["time"]): m for m in evidence_from.get("masses", [])}
    for table in (mass_times, one_off_masses, monthly_masses, confession_times):
        conn.execute(delete(table).where(table.c.parish_id == parish_id))
    masses = []
    for mass in schedule["masses"]:
        found = evidence.get((mass["day"], mass["time"]), {})
        row = {key: mass.get(key) for key in MASS_FIELDS}
        row.update({key: found.get(key) for key in EVIDENCE_FIELDS})
        masses.append({**row, "parish_id": parish_id, "minute": minute_of(mass["time"])})
    if masses:
        conn.execute(insert(mass_times), masses)
    one_off = [
        {
            **{k: o.get(k) for k in ONE_OFF_FIELDS},
            "note": o.get("note") or "",
            "source_url": o.get("source_url"),
            "parish_id": parish_id,
        }
        for o in schedule["one_off"]
    ]
    if one_off:
        conn.execute(insert(one_off_masses), one_off)
    monthly = _monthly_rows(parish_id, schedule.get("monthly", []), evidence_from.get("monthly", []))
    if monthly:
        conn.execute(insert(monthly_masses), monthly)
    confession = [
        {
            **{k: c.get(k) for k in CONFESSION_FIELDS},
            "days": ",".join(c.get("days") or []),
            "parish_id": parish_id,
        }
        for c in schedule["confession"]
    ]
    if confession:
        conn.execute(insert(confession_times), confession)


def _monthly_rows(parish_id: int, monthly: list[dict], evidence_from: list[dict]) -> list[dict]:
    """monthly_masses rows, as the loader writes the crawl's; one the crawl read keeps its page."""
    pages = {(m["week"], day, m["time"]): m.get("source_url") for m in evidence_from for day in m["days"]}
    return [
        {
            **{k: m.get(k) for k in MONTHLY_FIELDS},
            "days": ",".join(m["days"]),
            "note": m.get("note") or "",
            "source_url": pages.get((m["week"], m["days"][0], m["time"])),
            "parish_id": parish_id,
        }
        for m in monthly
    ]


def monthly_units(monthly: list[dict]) -> list[dict]:
    """One monthly Mass per day ("w pierwszy czwartek i piątek" is two): a row of the form, a unit of the
    difference."""
    return [{**m, "days": [day]} for m in monthly for day in m["days"]]


def strip_evidence(schedule: dict) -> dict:
    """The schedule's own terms only (what a person confirms): no page, sentence or score."""
    return {
        "masses": [{k: m.get(k) for k in MASS_FIELDS} for m in schedule.get("masses", [])],
        "one_off": [{k: o.get(k) for k in ONE_OFF_FIELDS} for o in schedule.get("one_off", [])],
        "monthly": [{k: m.get(k) for k in MONTHLY_FIELDS} for m in schedule.get("monthly", [])],
        "confession": [{k: c.get(k) for k in CONFESSION_FIELDS} for c in schedule.get("confession", [])],
    }


def _audit(conn, parish_id, who, now, action, before, after) -> None:
    conn.execute(
        insert(audit_log).values(
            parish_id=parish_id,
            user_id=who.id,
            username=who.username,
            at=now,
            action=action,
            before=None if before is None else json.dumps(before, ensure_ascii=False),
            after=None if after is None else json.dumps(after, ensure_ascii=False),
        )
    )


def save(conn: Connection, parish_id: int, schedule: dict, who, now: datetime, action: str = "edit") -> None:
    """Publish `schedule` as the parish's verified schedule, labelled by `who`'s role, and audit it.
    The first time, the crawl's reading (the published rows until now) is kept in crawl_readings."""
    current = verified_row(conn, parish_id)
    reading = crawl_reading(conn, parish_id)
    if current is None:
        row = conn.execute(select(mass_times.c.crawled_at).where(mass_times.c.parish_id == parish_id)).first()
        conn.execute(
            insert(crawl_readings).values(
                parish_id=parish_id,
                schedule=json.dumps(reading, ensure_ascii=False, default=str),
                crawled_at=row.crawled_at if row else None,
            )
        )
    schedule = strip_evidence(schedule)
    values = {
        "schedule": json.dumps(schedule, ensure_ascii=False),
        "role": who.role,
        "user_id": who.id,
        "verified_at": now,
    }
    if current is None:
        conn.execute(insert(verified_schedules).values(parish_id=parish_id, **values))
    else:
        conn.execute(
            update(verified_schedules).where(verified_schedules.c.parish_id == parish_id).values(**values)
        )
    _write(conn, parish_id, schedule, reading)
    _audit(conn, parish_id, who, now, action, current["schedule"] if current else None, schedule)


def withdraw(conn: Connection, parish_id: int, who, now: datetime, action: str = "withdraw") -> None:
    """No verified schedule any more: the crawl's reading is published again."""
    current = verified_row(conn, parish_id)
    if current is None:
        return
    reading = crawl_reading(conn, parish_id)
    kept = conn.execute(
        select(crawl_readings.c.crawled_at).where(crawl_readings.c.parish_id == parish_id)
    ).first()
    if kept is not None and kept.crawled_at is not None:  # the reading published again is of that crawl
        conn.execute(update(parishes).where(parishes.c.id == parish_id).values(crawled_at=kept.crawled_at))
    conn.execute(delete(verified_schedules).where(verified_schedules.c.parish_id == parish_id))
    conn.execute(delete(crawl_readings).where(crawl_readings.c.parish_id == parish_id))
    _write(conn, parish_id, reading, reading)
    _audit(conn, parish_id, who, now, action, current["schedule"], None)


def audit_entries(conn: Connection, parish_id: int | None = None) -> list[dict]:
    """The audit log, newest first (one parish's, or all): who, when, what, the schedule before and after."""
    stmt = select(audit_log).order_by(audit_log.c.at.desc(), audit_log.c.id.desc())
    if parish_id is not None:
        stmt = stmt.where(audit_log.c.parish_id == parish_id)
    return [
        {
            "id": row.id,
            "parish_id": row.parish_id,
            "username": row.username,
            "at": utc_iso(row.at),
            "action": row.action,
            "before": json.loads(row.before) if row.before else None,
            "after": json.loads(row.after) if row.after else None,
        }
        for row in conn.execute(stmt)
    ]


def undo(conn: Connection, entry_id: int, who, now: datetime) -> int | None:
    """The schedule of before the audit entry published again (itself an audited change); its parish, or
    None when there is no such entry."""
    row = conn.execute(select(audit_log).where(audit_log.c.id == entry_id)).first()
    if row is None:
        return None
    if row.before is None:
        withdraw(conn, row.parish_id, who, now, action=f"undo #{entry_id}")
    else:
        save(conn, row.parish_id, json.loads(row.before), who, now, action=f"undo #{entry_id}")
    return row.parish_id


def _identity(mass: dict) -> tuple:
    if "week" in mass:  # a monthly unit (monthly_units): its week of the month before its day
        return ("monthly", mass["week"], mass["days"][0], mass["time"], mass.get("church") or "")
    return (mass["day"], mass["time"], mass.get("church") or "")


def _label(mass: dict) -> str:
    church = f" ({mass['church']})" if mass.get("church") else ""
    if "week" in mass:
        return f"{monthly_label(mass['week'], mass['days'])} {mass['time']}{church}"
    return f"{DAY_LABELS.get(mass['day'], mass['day'])} {mass['time']}{church}"


def _terms(mass: dict) -> tuple:
    """What may change of a Mass of the same identity: its season and dates, a vigil."""
    return (mass.get("season"), mass.get("start_date"), mass.get("end_date"), bool(mass.get("vigil")))


def difference(verified: dict, crawl: dict) -> dict:
    """What the crawl reads otherwise than the verified schedule: masses (weekly, or monthly by the week of
    the month and day) added and removed (with the crawl's sentence for the added), changed (same day, time
    and church; other season, dates, vigil), and whether the one-offs or confession differ."""

    def units(schedule: dict) -> dict:
        every = [*schedule["masses"], *monthly_units(schedule.get("monthly", []))]
        return {_identity(m): m for m in every}

    def evidence(m: dict) -> dict:
        return {"label": _label(m), "context": m.get("context"), "source_url": m.get("source_url")}

    mine, theirs = units(verified), units(crawl)
    plain = strip_evidence(crawl)
    return {
        "added": [evidence(theirs[k]) for k in sorted(theirs.keys() - mine.keys())],
        "removed": [{"label": _label(mine[k])} for k in sorted(mine.keys() - theirs.keys())],
        "changed": [
            evidence(theirs[k])
            for k in sorted(mine.keys() & theirs.keys())
            if _terms(mine[k]) != _terms(theirs[k])
        ],
        "one_off": _rows(verified["one_off"]) != _rows(plain["one_off"]),
        "confession": _rows(verified["confession"]) != _rows(plain["confession"]),
    }


def _rows(items: list[dict]) -> list[str]:
    return sorted(json.dumps(item, sort_keys=True, default=str) for item in items)


def differs(diff: dict) -> bool:
    return bool(diff["added"] or diff["removed"] or diff["changed"] or diff["one_off"] or diff["confession"])


def on_crawl(
    conn: Connection, parish_id: int, reading: dict, crawled_at: datetime | None, now: datetime
) -> bool:
    """A newer crawl of a verified parish: its reading kept apart, nothing published changed; the parish
    queued for review (with the difference) when the reading differs, unless the last decision on the
    parish kept the verified schedule against this very difference. True when queued."""
    current = verified_row(conn, parish_id)
    if current is None:
        raise ValueError(f"parish {parish_id} has no verified schedule")
    conn.execute(delete(crawl_readings).where(crawl_readings.c.parish_id == parish_id))
    data = json.dumps(reading, ensure_ascii=False, default=str)
    conn.execute(insert(crawl_readings).values(parish_id=parish_id, schedule=data, crawled_at=crawled_at))
    diff = difference(current["schedule"], reading)
    open_items = review_items.c.parish_id == parish_id, review_items.c.status == "open"
    conn.execute(update(review_items).where(*open_items).values(status="superseded"))
    written = json.dumps(diff, ensure_ascii=False)
    last = conn.execute(
        select(review_items.c.status, review_items.c.diff)
        .where(review_items.c.parish_id == parish_id, review_items.c.status.in_(("accepted", "kept")))
        .order_by(review_items.c.id.desc())
        .limit(1)
    ).first()
    if not differs(diff) or (last is not None and last.status == "kept" and last.diff == written):
        return False
    conn.execute(
        insert(review_items).values(
            parish_id=parish_id,
            created_at=now,
            crawled_at=crawled_at,
            diff=written,
            status="open",
        )
    )
    return True


def review_item(conn: Connection, item_id: int) -> dict | None:
    row = conn.execute(select(review_items).where(review_items.c.id == item_id)).first()
    return None if row is None else {**row._mapping, "diff": json.loads(row.diff)}


def open_review_items(conn: Connection, parish_ids: list[int] | None = None) -> list[dict]:
    stmt = select(review_items).where(review_items.c.status == "open").order_by(review_items.c.id)
    if parish_ids is not None:
        stmt = stmt.where(review_items.c.parish_id.in_(parish_ids))
    return [{**row._mapping, "diff": json.loads(row.diff)} for row in conn.execute(stmt)]


def settle_crawl(conn: Connection, item: dict, accept: bool, who, now: datetime) -> bool:
    """Accept: the crawl's reading becomes the verified schedule; keep: the verified schedule stays. False
    when the item is no longer open (two people deciding at once: the first decides)."""
    status = "accepted" if accept else "kept"
    still_open = (review_items.c.id == item["id"], review_items.c.status == "open")
    taken = conn.execute(
        update(review_items)
        .where(*still_open)
        .values(status=status)
        .execution_options(preserve_rowcount=True)
    )
    if taken.rowcount != 1:
        return False
    if accept:
        save(conn, item["parish_id"], crawl_reading(conn, item["parish_id"]), who, now, action="accept crawl")
    else:
        _audit(conn, item["parish_id"], who, now, "keep verified", None, None)
    return True


def _apply_report(schedule: dict, day: str, time: str, kind: str, new_time: str | None) -> None:
    """An accepted report on the schedule: a wrong time goes, a changed one keeps its church, season and
    vigil at its new time, a missing one is added (once)."""
    masses = schedule["masses"]
    if kind in ("wrong", "changed"):
        moved = [m for m in masses if (m["day"], m["time"]) == (day, time)]
        masses[:] = [m for m in masses if (m["day"], m["time"]) != (day, time)]
        if kind == "wrong":
            return
        masses.extend({**m, "time": new_time} for m in moved)
        if moved:
            return
        time = new_time
    if not any((m["day"], m["time"]) == (day, time) for m in masses):
        new = dict.fromkeys(MASS_FIELDS)
        masses.append({**new, "day": day, "time": time, "vigil": False})


def settle_reports(
    conn: Connection,
    parish_id: int,
    day: str,
    time: str,
    kind: str,
    new_time: str | None,
    accept: bool,
    who,
    now,
) -> int:
    """The open reports of one parish, day, time and kind (and a changed time's new one), accepted (the
    verified schedule loses a wrong time, has a changed one moved, gains a missing one) or rejected (closed);
    how many were settled."""
    same = (
        corrections.c.parish_id == parish_id,
        corrections.c.day == day,
        corrections.c.time == time,
        corrections.c.kind == kind,
        corrections.c.new_time.is_(None) if new_time is None else corrections.c.new_time == new_time,
        corrections.c.status == "new",
    )
    count = len(conn.execute(select(corrections.c.id).where(*same)).all())
    if not count:
        return 0
    read = next(
        (m for m in crawl_reading(conn, parish_id)["masses"] if (m["day"], m["time"]) == (day, time)), {}
    )
    evidence = {"crawl_source_url": read.get("source_url"), "crawl_context": read.get("context")}
    if accept:
        current = verified_row(conn, parish_id)
        schedule = strip_evidence(current["schedule"] if current else crawl_reading(conn, parish_id))
        _apply_report(schedule, day, time, kind, new_time)
        save(conn, parish_id, schedule, who, now, action=f"accept report {kind} {day} {time}")
    else:
        _audit(conn, parish_id, who, now, f"reject report {kind} {day} {time}", None, None)
    status = "accepted" if accept else "rejected"
    conn.execute(update(corrections).where(*same).values(status=status, **evidence))
    return count
