"""The admin commands' writes: an admin's gold answer for an hour, and a device vouched for (`annotator gold`,
`annotator unflag`); here so that the command line holds no SQL."""

from __future__ import annotations

from sqlalchemy import Connection, update

from msze.annotator import cheaters
from msze.annotator.db import devices, hours


def set_gold(conn: Connection, hour_id: int, label: str | None, rules: cheaters.Rules) -> int | None:
    """Make `label` ("yes"/"no", None = no gold) the hour's known answer and re-judge every device on it.

    Returns the number of flagged devices afterwards, or None when there is no such hour. An admin's choice,
    clearing included, is never overwritten by rule gold on re-import (gold_origin "admin").
    """
    done = conn.execute(
        update(hours).where(hours.c.id == hour_id).values(gold_label=label, gold_origin="admin")
    )
    if done.rowcount != 1:
        return None
    return cheaters.recheck_all(conn, rules)


def unflag(conn: Connection, device_id: int) -> bool:
    """Clear a device's cheater flag and vouch for it (no group flag again); False for an unknown device."""
    done = conn.execute(
        update(devices)
        .where(devices.c.id == device_id)
        .values(flagged=False, flagged_at=None, flag_reason=cheaters.ADMIN)
    )
    return done.rowcount == 1
