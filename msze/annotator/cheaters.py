"""Cheater detection: agreement with known answers (gold) on the hours a device labelled.

Gold answers come from the rule extractor's high-precision Mass hours ("yes") and from admin labels
("yes"/"no"). A device is flagged once it has at least `min_gold` gold answers and agrees with fewer than
`min_agreement` of them. Flagging is sticky (an admin can clear it) and never deletes anything: exports just
skip flagged devices.
"""

from __future__ import annotations

from sqlalchemy import Connection, and_, case, func, select, update

from msze.annotator.db import assignments, devices, hours, utcnow


def is_cheater(gold_answers: int, gold_agree: int, min_gold: int, min_agreement: float) -> bool:
    """Enough gold answers, and agreement with them below the threshold."""
    return gold_answers >= min_gold and gold_answers > 0 and gold_agree / gold_answers < min_agreement


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


def recheck_device(conn: Connection, device_id: int, min_gold: int, min_agreement: float) -> bool:
    """Recount a device's gold agreement, flag it when it falls below the threshold; returns flagged."""
    n_gold, n_agree = gold_counts(conn, device_id)
    conn.execute(
        update(devices).where(devices.c.id == device_id).values(gold_answers=n_gold, gold_agree=n_agree)
    )
    if is_cheater(n_gold, n_agree, min_gold, min_agreement):
        conn.execute(
            update(devices)
            .where(and_(devices.c.id == device_id, devices.c.flagged.is_(False)))
            .values(flagged=True, flagged_at=utcnow())
        )
    return bool(conn.execute(select(devices.c.flagged).where(devices.c.id == device_id)).scalar_one())


def recheck_all(conn: Connection, min_gold: int, min_agreement: float) -> int:
    """Recheck every device that answered something (after an admin changes gold labels); returns flagged."""
    ids = conn.execute(select(assignments.c.device_id).where(assignments.c.answer.is_not(None)).distinct())
    for (device_id,) in ids.all():
        recheck_device(conn, device_id, min_gold, min_agreement)
    return int(conn.execute(select(func.count()).where(devices.c.flagged.is_(True))).scalar_one())
