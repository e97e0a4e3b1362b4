"""Labels out of the annotator: TSV and fastText training lines, and the stats page's figures.

Only answers of devices that are not flagged as cheaters count (flagged devices' answers stay in the
database). The majority label is "mass" when Tak outnumbers Nie, "other" when Nie outnumbers Tak, "" on a tie.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from sqlalchemy import Connection, and_, case, func, select

from msze.annotator.db import assignments, devices, documents, events, hours
from msze.classifier.model import labelled_line

TSV_COLUMNS = ["id", "url", "time", "hour_text", "hour_start", "context", "yes", "no", "label"]
# Characters that split lines somewhere (csv, str.splitlines): each becomes one space, so offsets stay valid.
_LINE_BREAKS = {ord(c): " " for c in "\t\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"}


@dataclass(frozen=True)
class LabelRow:
    """One hour with its counted answers."""

    id: int
    url: str
    time: str
    hour_text: str
    context: str
    start: int
    end: int
    context_start: int
    page_text: str | None
    yes: int
    no: int

    @property
    def label(self) -> str:
        return majority(self.yes, self.no)


def majority(yes: int, no: int) -> str:
    """ "mass", "other" or "" (tie or no answers)."""
    return "mass" if yes > no else "other" if no > yes else ""


def label_rows(conn: Connection, min_votes: int = 1) -> Iterator[LabelRow]:
    """Hours with at least `min_votes` answers from unflagged devices, by id."""
    counted = and_(assignments.c.answer.is_not(None), devices.c.flagged.is_(False))
    yes = func.coalesce(func.sum(case((and_(counted, assignments.c.answer == "yes"), 1), else_=0)), 0)
    no = func.coalesce(func.sum(case((and_(counted, assignments.c.answer == "no"), 1), else_=0)), 0)
    votes = (
        select(assignments.c.hour_id, yes.label("yes"), no.label("no"))
        .select_from(assignments.join(devices, devices.c.id == assignments.c.device_id))
        .group_by(assignments.c.hour_id)
        .subquery()
    )
    query = (
        select(hours, documents.c.source, documents.c.text.label("page_text"), votes.c.yes, votes.c.no)
        .select_from(
            hours.join(votes, votes.c.hour_id == hours.c.id).join(
                documents, documents.c.id == hours.c.document_id
            )
        )
        .where(votes.c.yes + votes.c.no >= max(1, min_votes))
        .order_by(hours.c.id)
    )
    for r in conn.execute(query):
        yield LabelRow(
            id=r.id,
            url=r.source,
            time=r.time,
            hour_text=r.hour_text,
            context=r.context,
            start=r.start,
            end=r.end,
            context_start=r.context_start,
            page_text=r.page_text,
            yes=int(r.yes),
            no=int(r.no),
        )


def _one_line(value: str) -> str:
    return " ".join(value.split())


def tsv_context(context: str) -> str:
    """The context on one line: every tab or line break becomes one space (`hour_start` stays valid)."""
    return context.translate(_LINE_BREAKS)


def write_tsv(rows: Iterator[LabelRow], out: TextIO) -> int:
    """One row per hour; `hour_start` is the hour's offset in `context`. Returns rows written."""
    writer = csv.writer(out, delimiter="\t", lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(TSV_COLUMNS)
    n = 0
    for row in rows:
        writer.writerow(
            [
                row.id,
                row.url,
                row.time,
                row.hour_text,
                row.start - row.context_start,
                tsv_context(row.context),
                row.yes,
                row.no,
                row.label,
            ]
        )
        n += 1
    return n


def _default_features() -> Callable[[str, int, int], str]:
    from msze.classifier.features import hour_features  # imported only when exporting fastText

    return hour_features


def fasttext_line(row: LabelRow, features: Callable[[str, int, int], str]) -> str | None:
    """`__label__mass <features>` / `__label__other <features>`, or None on a tie.

    Features come from the page text when it was imported (what the classifier sees at prediction time), else
    from the hour's context with the span moved into it.
    """
    if not row.label:
        return None
    if row.page_text is not None and row.page_text[row.start : row.end] == row.hour_text:
        feats = features(row.page_text, row.start, row.end)
    else:
        feats = features(row.context, row.start - row.context_start, row.end - row.context_start)
    return labelled_line(row.label, _one_line(feats))


def write_fasttext(
    rows: Iterator[LabelRow], out: TextIO, features: Callable[[str, int, int], str] | None = None
) -> int:
    """fastText supervised-training lines for hours with a majority; returns lines written."""
    features = features or _default_features()
    n = 0
    for row in rows:
        line = fasttext_line(row, features)
        if line is not None:
            out.write(line + "\n")
            n += 1
    return n


def pairwise_agreement(counts: list[tuple[int, int]]) -> float | None:
    """Observed inter-annotator agreement: agreeing answer pairs / all answer pairs on the same hour."""
    agree = total = 0
    for yes, no in counts:
        n = yes + no
        agree += yes * (yes - 1) // 2 + no * (no - 1) // 2
        total += n * (n - 1) // 2
    return agree / total if total else None


def stats(conn: Connection) -> dict:
    """Figures for `annotator stats` and the stats page."""
    rows = list(label_rows(conn))
    n_devices = conn.execute(select(func.count()).select_from(devices)).scalar_one()
    flagged = conn.execute(select(func.count()).where(devices.c.flagged.is_(True))).scalar_one()
    by_group = conn.execute(
        select(func.count()).where(and_(devices.c.flagged.is_(True), devices.c.flag_reason == "group"))
    ).scalar_one()
    active = conn.execute(
        select(func.count(assignments.c.device_id.distinct()))
        .select_from(assignments.join(devices, devices.c.id == assignments.c.device_id))
        .where(and_(assignments.c.answer.is_not(None), devices.c.flagged.is_(False)))
    ).scalar_one()
    gold = conn.execute(
        select(
            func.coalesce(func.sum(devices.c.gold_answers), 0),
            func.coalesce(func.sum(devices.c.gold_agree), 0),
        )
    ).one()
    answers_all = conn.execute(select(func.count()).where(assignments.c.answer.is_not(None))).scalar_one()
    return {
        "hours": conn.execute(select(func.count()).select_from(hours)).scalar_one(),
        "gold_hours": conn.execute(select(func.count()).where(hours.c.gold_label.is_not(None))).scalar_one(),
        "labelled_hours": len(rows),
        "labelled_mass": sum(r.label == "mass" for r in rows),
        "labelled_other": sum(r.label == "other" for r in rows),
        "labelled_tie": sum(r.label == "" for r in rows),
        "answers": sum(r.yes + r.no for r in rows),
        "answers_all_devices": answers_all,
        "devices": n_devices,
        "devices_answering": active,
        "devices_flagged": flagged,
        "devices_flagged_group": by_group,  # only as one of linked identities that fail together
        "gold_answers": int(gold[0]),
        "gold_agreement": (int(gold[1]) / int(gold[0])) if gold[0] else None,
        "pairwise_agreement": pairwise_agreement([(r.yes, r.no) for r in rows]),
        "clicks": conn.execute(select(func.count()).select_from(events)).scalar_one(),
    }
