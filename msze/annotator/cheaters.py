"""Cheater detection: agreement with known answers (gold), one answer given to everything, linked identities.

Gold answers come from the rule extractor's Mass hours ("yes"), the rules' certain non-Masses ("no", gold.py)
and admin labels. Answers fail once there are at least `min_gold` gold answers agreeing less than
`min_agreement` with them — overall, or on the "yes" gold or the "no" gold alone (a device answering Tak 95 %
of the time agrees with most "yes" gold and almost no "no" gold) — or once `same_min_answers` answers are at
least `same_max_share` the same.

Identities are cheap (clear the cookie and the next request gets a new one), so a device is also judged with
the identities linked to it: created within `group_window` of it with the same fingerprint, or from the same
address group (IPv4 /24, IPv6 /64). When the linked identities that are not cleared fail together, all of
them are flagged (reason "group"): a cheater rotating identities every 40 answers is caught as a whole, and a
new identity of a flagged device inherits the flag with its first answer. A device is cleared when its own
gold shows it honest (`clear_min_gold` answers of each label, `clear_agreement` of them right); a group flag
is then lifted, so an honest volunteer behind the cheater's router loses nothing in the end (while under a
group flag it is served more gold, to clear itself sooner). A flag for a device's own answers is sticky
(undo does not clear it); `unflag` clears any flag and vouches for the device (no group flag again).
Flagging deletes nothing: exports skip flagged devices.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import astuple, dataclass
from datetime import timedelta

from sqlalchemy import Connection, and_, bindparam, case, func, or_, select, update

from msze.annotator.db import assignments, devices, hours, utcnow

GOLD, SAME, GROUP, ADMIN = "gold", "same", "group", "admin"  # devices.flag_reason; ADMIN: vouched, unflagged


@dataclass(frozen=True)
class Rules:
    """The thresholds (the app's ANNOTATOR_CHEATER_* and ANNOTATOR_GROUP_WINDOW settings)."""

    min_gold: int = 5
    min_agreement: float = 0.7
    same_min_answers: int = 50
    same_max_share: float = 0.98
    group_window: timedelta = timedelta(days=1)
    # Cleared (out of group judgement) with this many gold answers of each label and this agreement on each:
    # well above the flagging bar, so that a random clicker is not cleared by a lucky run (9 of 10 by chance:
    # 1 in 93 per label), while an honest one, right 19 times in 20, is cleared after a few tens.
    clear_min_gold: int = 10
    clear_agreement: float = 0.85


@dataclass(frozen=True)
class Tally:
    """Current answers of a device, or of a group: gold answers and agreements per gold label, answer mix."""

    gold_yes: int = 0
    agree_yes: int = 0
    gold_no: int = 0
    agree_no: int = 0
    answers: int = 0
    yes: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))

    @property
    def gold(self) -> int:
        return self.gold_yes + self.gold_no

    @property
    def agree(self) -> int:
        return self.agree_yes + self.agree_no


def is_cheater(gold_answers: int, gold_agree: int, min_gold: int, min_agreement: float) -> bool:
    """Enough gold answers, and agreement with them below the threshold."""
    return gold_answers >= min_gold and gold_answers > 0 and gold_agree / gold_answers < min_agreement


def is_constant_clicker(n_answers: int, n_yes: int, min_answers: int, max_share: float) -> bool:
    """Enough answers (`min_answers` > 0), and nearly all of them the same."""
    if min_answers <= 0 or n_answers < min_answers:
        return False
    return max(n_yes, n_answers - n_yes) / n_answers >= max_share


def failure(t: Tally, rules: Rules) -> str | None:
    """Why these answers fail: GOLD (overall, or on one gold label), SAME (one answer to all), else None."""
    for n, agree in ((t.gold, t.agree), (t.gold_yes, t.agree_yes), (t.gold_no, t.agree_no)):
        if is_cheater(n, agree, rules.min_gold, rules.min_agreement):
            return GOLD
    if is_constant_clicker(t.answers, t.yes, rules.same_min_answers, rules.same_max_share):
        return SAME
    return None


def cleared(t: Tally, rules: Rules) -> bool:
    """Enough gold of both labels, nearly all agreeing: the device's own answers show it honest."""
    for n, agree in ((t.gold_yes, t.agree_yes), (t.gold_no, t.agree_no)):
        if n < rules.clear_min_gold or n == 0 or agree / n < rules.clear_agreement:
            return False
    return failure(t, rules) is None


_AGREE = func.coalesce(func.sum(case((assignments.c.answer == hours.c.gold_label, 1), else_=0)), 0)
_YES = func.coalesce(func.sum(case((assignments.c.answer == "yes", 1), else_=0)), 0)
# Built once: the query runs on every answer.
_TALLY_QUERY = (
    select(assignments.c.device_id, hours.c.gold_label, func.count(), _AGREE, _YES)
    .select_from(assignments.join(hours, hours.c.id == assignments.c.hour_id))
    .where(
        and_(
            assignments.c.device_id.in_(bindparam("ids", expanding=True)),
            assignments.c.answer.is_not(None),
        )
    )
    .group_by(assignments.c.device_id, hours.c.gold_label)
)


def tallies(conn: Connection, device_ids: Iterable[int]) -> dict[int, Tally]:
    """The Tally of each device, from its current (not undone) answers, in one query."""
    out = dict.fromkeys(device_ids, Tally())
    for device_id, label, n, n_agree, n_yes in conn.execute(_TALLY_QUERY, {"ids": list(out)}):
        gold = {"yes": Tally(gold_yes=n, agree_yes=n_agree), "no": Tally(gold_no=n, agree_no=n_agree)}
        out[device_id] += gold.get(label, Tally()) + Tally(answers=n, yes=n_yes)
    return out


@dataclass(frozen=True)
class Links:
    """Identities linked to a device: groups (each with the device in it), each one's (flagged, reason)."""

    groups: list[list[int]]
    flags: dict[int, tuple[bool, str | None]]


def linked(conn: Connection, device_id: int, window: timedelta) -> Links:
    """Identities created within `window` of the device with its fingerprint, or from its address group."""
    me = conn.execute(
        select(devices.c.fingerprint, devices.c.ip_group, devices.c.created_at).where(
            devices.c.id == device_id
        )
    ).one()
    same = devices.c.fingerprint == me.fingerprint
    if me.ip_group is not None:
        same = or_(same, devices.c.ip_group == me.ip_group)
    near = devices.c.created_at.between(me.created_at - window, me.created_at + window)
    rows = conn.execute(
        select(
            devices.c.id, devices.c.fingerprint, devices.c.ip_group, devices.c.flagged, devices.c.flag_reason
        ).where(and_(same, near))
    ).all()
    by_fp = [r.id for r in rows if r.fingerprint == me.fingerprint]
    by_ip = [r.id for r in rows if me.ip_group is not None and r.ip_group == me.ip_group]
    groups = [group for group in (by_fp, by_ip) if len(group) > 1]
    return Links(groups, {r.id: (bool(r.flagged), r.flag_reason) for r in rows})


def _free(conn: Connection, device_ids: list[int]) -> list[int]:
    """Those devices whose rows no other transaction holds, now locked by this one.

    Every request locks its own device's row first; waiting here for another device's row (which that
    request holds while it waits for ours) would deadlock on PostgreSQL. A device skipped now is judged
    with its group at its own next answer. (SQLite serialises transactions: nothing is ever skipped.)
    """
    if not device_ids:
        return []
    query = select(devices.c.id).where(devices.c.id.in_(device_ids)).with_for_update(skip_locked=True)
    return list(conn.execute(query).scalars())


def _flag(conn: Connection, device_ids: list[int], reason: str) -> None:
    """Flag devices; a device's own failure replaces a group flag, a group never flags a vouched device."""
    device_ids = _free(conn, device_ids)
    if not device_ids:
        return
    if reason == GROUP:
        which = and_(
            devices.c.flagged.is_(False), or_(devices.c.flag_reason.is_(None), devices.c.flag_reason != ADMIN)
        )
    else:
        which = or_(devices.c.flagged.is_(False), devices.c.flag_reason == GROUP)
    conn.execute(
        update(devices)
        .where(and_(devices.c.id.in_(device_ids), which))
        .values(flagged=True, flagged_at=utcnow(), flag_reason=reason)
    )


def _lift_group_flags(conn: Connection, device_ids: list[int]) -> None:
    device_ids = _free(conn, device_ids)
    if device_ids:
        conn.execute(
            update(devices)
            .where(
                and_(
                    devices.c.id.in_(device_ids), devices.c.flagged.is_(True), devices.c.flag_reason == GROUP
                )
            )
            .values(flagged=False, flagged_at=None, flag_reason=None)
        )


def on_probation(conn: Connection, device_id: int) -> bool:
    """Whether the device is flagged only as one of a failing group (its own gold may still clear it)."""
    row = conn.execute(
        select(devices.c.flagged, devices.c.flag_reason).where(devices.c.id == device_id)
    ).one()
    return bool(row.flagged) and row.flag_reason == GROUP


def recheck_device(conn: Connection, device_id: int, rules: Rules) -> bool:
    """Re-judge a device on its own answers and with its linked identities; returns whether it is flagged."""
    links = linked(conn, device_id, rules.group_window)
    counts = tallies(conn, {device_id, *(m for group in links.groups for m in group)})
    own = counts[device_id]
    conn.execute(
        update(devices).where(devices.c.id == device_id).values(gold_answers=own.gold, gold_agree=own.agree)
    )
    reason = failure(own, rules)
    if reason is not None:
        _flag(conn, [device_id], reason)
    _lift_group_flags(
        conn, [m for m, t in counts.items() if cleared(t, rules) and links.flags[m][1] == GROUP]
    )
    for group in links.groups:
        # Suspects: neither cleared by their own gold nor vouched for by an admin.
        suspects = [m for m in group if links.flags[m][1] != ADMIN and not cleared(counts[m], rules)]
        if len(suspects) > 1 and failure(sum((counts[m] for m in suspects), Tally()), rules) is not None:
            _flag(conn, [m for m in suspects if not links.flags[m][0]], GROUP)
    return bool(conn.execute(select(devices.c.flagged).where(devices.c.id == device_id)).scalar_one())


def recheck_all(conn: Connection, rules: Rules) -> int:
    """Recheck every device that answered something (after an admin changes gold labels); returns flagged."""
    ids = conn.execute(select(assignments.c.device_id).where(assignments.c.answer.is_not(None)).distinct())
    for (device_id,) in ids.all():
        recheck_device(conn, device_id, rules)
    return int(conn.execute(select(func.count()).where(devices.c.flagged.is_(True))).scalar_one())
