"""What a device sees next, its answers and its undo: the annotator's core, on a SQLAlchemy connection.

A device works through its own queue of assignments (hours served to it, in serving order). The current item
is its earliest pending assignment; when there is none, the next hour is chosen in one query: the
least-annotated hour the device has never been served (ties: fewest devices it is served to, so parallel
devices spread; then id), from the gold pool with probability `gold_fraction`, else from the unlabelled pool.
Gold comes as "yes" and "no" in turn (the label this device was served less of first), so that every device
meets both and one answer given to everything fails half of its gold.
Cofnij (undo) clears the answer of the latest answered assignment before the current one, so pressing it many
times walks back through the history and the device then re-answers forward.

Every function runs inside the caller's transaction and first locks the device row, so two requests of one
device are serialised (SQLite: the whole transaction is already exclusive) and counters move by exactly one
per answer. Devices themselves are found by their cookie token and created here too (`find_device`,
`add_device`), so that the web layer holds no SQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, Connection, Row, and_, exists, func, insert, select, update

from msze.annotator import cheaters, identity
from msze.annotator.db import assignments, devices, documents, events, hours, utcnow
from msze.search.urls import safe_url  # the same rule as the search app: absolute http(s) URLs only

ANSWERS = ("yes", "no")


class ServingError(Exception):
    """A request the annotator refuses; `status` is the HTTP status the web layer answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownItem(ServingError):
    status = 404


class NotServed(ServingError):
    status = 403


class AlreadyAnswered(ServingError):
    status = 409


class NothingToUndo(ServingError):
    status = 409


class TooManyIdentities(ServingError):
    status = 429


@dataclass(frozen=True)
class ServingConfig:
    """The knobs serving needs (the app fills them from its config)."""

    gold_fraction: float = 0.1
    min_gold: int = 5
    min_agreement: float = 0.7
    same_min_answers: int = 50
    same_max_share: float = 0.98
    clear_min_gold: int = 10
    clear_agreement: float = 0.85
    window_chars: int = 300
    group_window: int = 86400  # seconds: identities created this close are judged together

    @property
    def cheater_rules(self) -> cheaters.Rules:
        return cheaters.Rules(
            min_gold=self.min_gold,
            min_agreement=self.min_agreement,
            same_min_answers=self.same_min_answers,
            same_max_share=self.same_max_share,
            clear_min_gold=self.clear_min_gold,
            clear_agreement=self.clear_agreement,
            group_window=timedelta(seconds=self.group_window),
        )


def find_device(conn: Connection, token: str, now: datetime) -> int | None:
    """The device holding this cookie token (its last_seen moved to `now`), or None for an unknown token."""
    device_id = conn.execute(select(devices.c.id).where(devices.c.token == token)).scalar()
    if device_id is None:
        return None
    conn.execute(update(devices).where(devices.c.id == device_id).values(last_seen=now))
    return int(device_id)


def add_device(
    conn: Connection, fingerprint: str, ip: str, now: datetime, per_group: int, window: timedelta
) -> tuple[int, str]:
    """A new identity with a fresh token: (id, token); TooManyIdentities when the client's address group
    created `per_group` (0 = no limit) identities within `window` (cookie-clearing loops mint nothing)."""
    group = identity.ip_group(ip)
    recent = conn.execute(
        select(func.count()).where(and_(devices.c.ip_group == group, devices.c.created_at >= now - window))
    ).scalar_one()
    if not identity.may_create_identity(recent, per_group):
        raise TooManyIdentities("too many new devices from this address; try again later")
    token = identity.new_token()
    values = {"token": token, "fingerprint": fingerprint, "ip": ip, "ip_group": group, "created_at": now}
    device_id = conn.execute(
        insert(devices).values(**values, last_seen=now, flagged=False, gold_answers=0, gold_agree=0)
    ).inserted_primary_key[0]
    return int(device_id), token


def text_window(text: str, start: int, end: int, chars: int) -> tuple[str, int, int, bool, bool]:
    """A fragment of `text` around [start, end) cut at whitespace, with the span's offsets inside it.

    Returns (fragment, hl_start, hl_end, cut_before, cut_after). The annotator needs the day headings above an
    hour to judge it, so it shows more than the hour's own short context when the page text is known.
    """
    lo = max(0, start - chars)
    hi = min(len(text), end + chars)
    if lo > 0:  # do not start mid-word
        space = text.find(" ", lo, start)
        newline = text.find("\n", lo, start)
        cuts = [c for c in (space, newline) if c != -1]
        if cuts:
            lo = min(cuts) + 1
    if hi < len(text):
        cut = max(text.rfind(" ", end, hi), text.rfind("\n", end, hi))
        if cut != -1:
            hi = cut
    return text[lo:hi], start - lo, end - lo, lo > 0, hi < len(text)


def lock_device(conn: Connection, device_id: int) -> None:
    """Serialise this device's requests (row lock on PostgreSQL; SQLite transactions are exclusive)."""
    conn.execute(select(devices.c.id).where(devices.c.id == device_id).with_for_update()).first()


def _pending(conn: Connection, device_id: int) -> Row | None:
    return conn.execute(
        select(assignments)
        .where(and_(assignments.c.device_id == device_id, assignments.c.answer.is_(None)))
        .order_by(assignments.c.id)
        .limit(1)
    ).first()


def _previous_answered(conn: Connection, device_id: int, before_id: int | None) -> Row | None:
    cond = and_(assignments.c.device_id == device_id, assignments.c.answer.is_not(None))
    if before_id is not None:
        cond = and_(cond, assignments.c.id < before_id)
    return conn.execute(select(assignments).where(cond).order_by(assignments.c.id.desc()).limit(1)).first()


def _gold_order(conn: Connection, device_id: int) -> list[str]:
    """The gold labels, the one this device was served less of first (ties: "yes")."""
    served = dict(
        conn.execute(
            select(hours.c.gold_label, func.count())
            .select_from(assignments.join(hours, hours.c.id == assignments.c.hour_id))
            .where(and_(assignments.c.device_id == device_id, hours.c.gold_label.is_not(None)))
            .group_by(hours.c.gold_label)
        ).all()
    )
    return sorted(ANSWERS, key=lambda label: served.get(label, 0))


def _pools(conn: Connection, device_id: int, prefer_gold: bool) -> Iterator[ColumnElement[bool]]:
    """Where to look for the next hour, in order; the gold order is only asked for when it is reached."""
    unlabelled = hours.c.gold_label.is_(None)
    if not prefer_gold:
        yield unlabelled
    for label in _gold_order(conn, device_id):
        yield hours.c.gold_label == label
    if prefer_gold:
        yield unlabelled


def assign_next(conn: Connection, device_id: int, prefer_gold: bool) -> int | None:
    """Serve the device a new hour: least-annotated, never served to it; the hour id, or None when done."""
    seen = exists().where(and_(assignments.c.hour_id == hours.c.id, assignments.c.device_id == device_id))
    for pool in _pools(conn, device_id, prefer_gold):
        query = (
            select(hours.c.id)
            .where(and_(pool, ~seen))
            .order_by(hours.c.n_answers, hours.c.n_served, hours.c.id)
            .limit(1)
        )
        # SKIP LOCKED spreads parallel devices over different hours; when every eligible hour is locked by
        # someone else's transaction, wait for one instead of wrongly answering "nothing left".
        hour_id = conn.execute(query.with_for_update(skip_locked=True)).scalar()
        if hour_id is None:
            hour_id = conn.execute(query.with_for_update()).scalar()
        if hour_id is not None:
            conn.execute(insert(assignments).values(device_id=device_id, hour_id=hour_id, served_at=utcnow()))
            conn.execute(update(hours).where(hours.c.id == hour_id).values(n_served=hours.c.n_served + 1))
            return int(hour_id)
    return None


def item_view(conn: Connection, device_id: int, hour_id: int, window_chars: int) -> dict:
    """The JSON the page renders: the text before, the highlighted hour, the text after (never HTML)."""
    row = conn.execute(
        select(hours, documents.c.source, documents.c.text.label("doc_text"))
        .select_from(hours.join(documents, documents.c.id == hours.c.document_id))
        .where(hours.c.id == hour_id)
    ).one()
    doc_text = row.doc_text
    if doc_text and doc_text[row.start : row.end] == row.hour_text:
        fragment, hl_start, hl_end, cut_before, cut_after = text_window(
            doc_text, row.start, row.end, window_chars
        )
    else:
        fragment = row.context
        hl_start, hl_end = row.start - row.context_start, row.end - row.context_start
        cut_before, cut_after = row.context_start > 0, True
    previous = conn.execute(
        select(events.c.action)
        .where(and_(events.c.device_id == device_id, events.c.hour_id == hour_id, events.c.action != "undo"))
        .order_by(events.c.id.desc())
        .limit(1)
    ).scalar()
    # Pieces, not offsets: Python counts code points, JavaScript UTF-16 units; the page makes text nodes.
    return {
        "id": row.id,
        "before": fragment[:hl_start],
        "hour": fragment[hl_start:hl_end],
        "after": fragment[hl_end:],
        "cut_before": cut_before,
        "cut_after": cut_after,
        # The page's address, never a local path (`msze extract` input is a file on the server: no address).
        "source": safe_url(row.source),
        "previous_answer": previous,
    }


def state(conn: Connection, device_id: int, hour_id: int | None, window_chars: int) -> dict:
    """The whole API answer: current item (or None when nothing is left), progress, whether Cofnij can act."""
    answered = conn.execute(
        select(func.count()).where(
            and_(assignments.c.device_id == device_id, assignments.c.answer.is_not(None))
        )
    ).scalar_one()
    if hour_id is None:
        can_undo = answered > 0
        item = None
    else:
        current_id = conn.execute(
            select(assignments.c.id).where(
                and_(assignments.c.device_id == device_id, assignments.c.hour_id == hour_id)
            )
        ).scalar_one()
        can_undo = _previous_answered(conn, device_id, current_id) is not None
        item = item_view(conn, device_id, hour_id, window_chars)
    return {"item": item, "answered": int(answered), "can_undo": can_undo}


def current(conn: Connection, device_id: int, prefer_gold: bool, cfg: ServingConfig) -> dict:
    """The device's current item, serving a new one when it has none pending."""
    lock_device(conn, device_id)
    pending = _pending(conn, device_id)
    hour_id = pending.hour_id if pending is not None else assign_next(conn, device_id, prefer_gold)
    return state(conn, device_id, hour_id, cfg.window_chars)


def answer(
    conn: Connection, device_id: int, hour_id: object, label: object, prefer_gold: bool, cfg: ServingConfig
) -> dict:
    """Record Tak ("yes") / Nie ("no") for an hour served to this device; returns the next state."""
    if label not in ANSWERS:
        raise ServingError("answer must be 'yes' or 'no'")
    if not isinstance(hour_id, int) or isinstance(hour_id, bool) or not 0 < hour_id < 2**62:
        raise ServingError("item must be a positive integer")
    lock_device(conn, device_id)
    row = conn.execute(
        select(assignments.c.id, assignments.c.answer).where(
            and_(assignments.c.device_id == device_id, assignments.c.hour_id == hour_id)
        )
    ).first()
    if row is None:
        if conn.execute(select(hours.c.id).where(hours.c.id == hour_id)).first() is None:
            raise UnknownItem("no such item")
        raise NotServed("this item was not served to this device")
    if row.answer is not None:
        raise AlreadyAnswered("this item is already answered; press Cofnij to change it")
    now = utcnow()
    done = conn.execute(
        update(assignments)
        .where(and_(assignments.c.id == row.id, assignments.c.answer.is_(None)))
        .values(answer=label, answered_at=now)
    )
    if done.rowcount != 1:  # pragma: no cover - the device lock makes this unreachable
        raise AlreadyAnswered("this item is already answered")
    conn.execute(update(hours).where(hours.c.id == hour_id).values(n_answers=hours.c.n_answers + 1))
    conn.execute(insert(events).values(device_id=device_id, hour_id=hour_id, action=label, at=now))
    _recheck(conn, device_id, cfg)
    return current(conn, device_id, prefer_gold, cfg)


def _recheck(conn: Connection, device_id: int, cfg: ServingConfig) -> None:
    """Every answer and undo re-judges the device (the answer mix changes even when no gold is involved)."""
    cheaters.recheck_device(conn, device_id, cfg.cheater_rules)


def undo(conn: Connection, device_id: int, cfg: ServingConfig) -> dict:
    """Cofnij: clear the latest answer before the current item and show that item again."""
    lock_device(conn, device_id)
    pending = _pending(conn, device_id)
    target = _previous_answered(conn, device_id, pending.id if pending is not None else None)
    if target is None:
        raise NothingToUndo("nothing to undo")
    now = utcnow()
    conn.execute(
        update(assignments).where(assignments.c.id == target.id).values(answer=None, answered_at=None)
    )
    conn.execute(update(hours).where(hours.c.id == target.hour_id).values(n_answers=hours.c.n_answers - 1))
    conn.execute(insert(events).values(device_id=device_id, hour_id=target.hour_id, action="undo", at=now))
    _recheck(conn, device_id, cfg)
    return state(conn, device_id, target.hour_id, cfg.window_chars)
