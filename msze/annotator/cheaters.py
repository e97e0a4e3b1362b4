"""Cheater detection: agreement with known answers (gold), and devices that always give the same answer.

Gold answers come from the rule extractor's high-precision Mass hours ("yes") and from admin labels
("yes"/"no"). A device is flagged once it has at least `min_gold` gold answers and agrees with fewer than
`min_agreement` of them, or once it has `same_min_answers` answers of which at least `same_max_share` are the
same: rule gold is all "yes", so an always-Tak device would agree with it perfectly, while honest answers on
the mostly-"Nie" unlabelled pool are mixed. Flagging is sticky (an admin can clear it) and never deletes
anything: exports just skip flagged devices.
"""

from __future__ import annotations

from sqlalchemy import Connection, and_, case, func, select, update

from msze.annotator.db import assignments, devices, hours, utcnow


def is_cheater(gold_answers: int, gold_agree: int, min_gold: int, min_agreement: float) -> bool:
    """Enough gold answers, and agreement with them below the threshold."""
    return gold_answers >= min_gold and gold_answers > 0 and gold_agree / gold_answers < min_agreement


def is_constant_clicker(n_answers: int, n_yes: int, min_answers: int, max_share: float) -> bool:
    """Enough answers (`min_answers` > 0), and nearly all of them the same."""
    if min_answers <= 0 or n_answers < min_answers:
        return False
    return max(n_yes, n_answers - n_yes) / n_answers >= max_share


def gold_counts(conn: Connection, device_id: int) -> tuple[int, int]:
    """(gold answers, agreeing gold answers) of one device, from its current (not undone) answers."""
    agree = case((assignments.c.answer == hours.c.gold_label, 1), else_=0)
    row = conn.execute(
        select(func.count(), func.coalesce(func.sum(agree), 0))
        .select_from(assignments.join(hours, hours.c.id == assignments.c.hour_id))
        .where(
            and_(
                assignments.c.device_id == device_id,
                assignments.c.answer.is_not(None),
                hours.c.gold_label.is_not(None),
            )
        )
    ).one()
    return int(row[0]), int(row[1])


def answer_counts(conn: Connection, device_id: int) -> tuple[int, int]:
    """(current answers, of which Tak) of one device."""
    yes = func.coalesce(func.sum(case((assignments.c.answer == "yes", 1), else_=0)), 0)
    row = conn.execute(
        select(func.count(), yes).where(
            and_(assignments.c.device_id == device_id, assignments.c.answer.is_not(None))
        )
    ).one()
    return int(row[0]), int(row[1])


def recheck_device(
    conn: Connection,
    device_id: int,
    min_gold: int,
    min_agreement: float,
    same_min_answers: int = 0,
    same_max_share: float = 1.0,
) -> bool:
    """Recount a device's gold agreement and answer mix, flag it when either fails; returns flagged."""
    n_gold, n_agree = gold_counts(conn, device_id)
    conn.execute(
        update(devices).where(devices.c.id == device_id).values(gold_answers=n_gold, gold_agree=n_agree)
    )
    constant = same_min_answers > 0 and is_constant_clicker(
        *answer_counts(conn, device_id), same_min_answers, same_max_share
    )
    if constant or is_cheater(n_gold, n_agree, min_gold, min_agreement):
        conn.execute(
            update(devices)
            .where(and_(devices.c.id == device_id, devices.c.flagged.is_(False)))
            .values(flagged=True, flagged_at=utcnow())
        )
    return bool(conn.execute(select(devices.c.flagged).where(devices.c.id == device_id)).scalar_one())


def recheck_all(
    conn: Connection,
    min_gold: int,
    min_agreement: float,
    same_min_answers: int = 0,
    same_max_share: float = 1.0,
) -> int:
    """Recheck every device that answered something (after an admin changes gold labels); returns flagged."""
    ids = conn.execute(select(assignments.c.device_id).where(assignments.c.answer.is_not(None)).distinct())
    for (device_id,) in ids.all():
        recheck_device(conn, device_id, min_gold, min_agreement, same_min_answers, same_max_share)
    return int(conn.execute(select(func.count()).where(devices.c.flagged.is_(True))).scalar_one())
