"""Import hour candidates (crawled PageItem JSONL, or `msze extract` output) into the annotator, idempotently.

A candidate's identity is sha256(page URL or path, start, end, sha256(context)): re-importing the same file
adds nothing, a re-crawl adds only hours whose place or context changed. Hours the rule extractor labelled
"mass" become gold "yes" answers for cheater detection (it is the high-precision component); hours the rules
are certain are not a Mass start (office hours, ranges, ...: gold.py) become gold "no". Re-importing gives
rule gold to hours imported before it existed (never to an hour an admin set or cleared). Bad lines and
hours whose offsets do not match their text are skipped and counted with a message, never half-imported;
an input with nothing usable at all says so (`ImportStats.unusable`): it is the wrong file. Each page's hours
go in with a fixed number of statements (one insert for all its new hours), not one per hour.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, insert, select, update

from msze.annotator import gold
from msze.annotator.db import documents, hours, transaction, utcnow

_TIME_RE = re.compile(r"^(([01]\d|2[0-3]):[0-5]\d|24:00)$")  # 24:00: midnight Mass (Pasterka)


@dataclass(frozen=True)
class Candidate:
    """One hour candidate ready for the database."""

    key: str
    source: str
    hour_text: str
    time: str
    start: int
    end: int
    context: str
    context_start: int
    day: str | None
    import_label: str | None
    import_source: str | None
    certain_no: bool = False  # the rules are sure it is not a Mass start (gold.certain_no)

    @property
    def gold_label(self) -> str | None:
        """Known answers: "yes" for the rule extractor's Mass hours, "no" for the rules' sure non-Masses."""
        if self.import_label == "mass":
            return "yes" if self.import_source == "rules" else None
        return "no" if self.certain_no else None


@dataclass
class ImportStats:
    """What an import did; `messages` says why anything was skipped."""

    lines: int = 0
    bad_lines: int = 0
    candidates: int = 0
    invalid_hours: int = 0
    added: int = 0
    existing: int = 0
    gold_added: int = 0
    messages: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"lines={self.lines} bad_lines={self.bad_lines} candidates={self.candidates} "
            f"invalid_hours={self.invalid_hours} added={self.added} existing={self.existing} "
            f"gold_added={self.gold_added}"
        )

    def unusable(self) -> str | None:
        """Why nothing in the input could be a candidate (a wrong file: /etc/passwd, a TSV), else None.

        Pages without hours are usable (`msze extract` writes them for pages it found no hour on); a file of
        bad lines only, or whose every hour is broken, or with no lines at all, is not.
        """
        if self.candidates:
            return None
        if not self.lines:
            return "the file is empty"
        if self.lines == self.bad_lines:
            return (
                f"none of its {self.lines} lines is a page with hours "
                "(PageItem JSONL from a crawl, or `msze extract` output)"
            )
        if self.invalid_hours:
            return f"none of its {self.invalid_hours} hours is usable"
        return None


def candidate_key(source: str, start: int, end: int, context: str) -> str:
    """The identity of a candidate: its page, its span and its context."""
    context_hash = hashlib.sha256(context.encode("utf-8")).hexdigest()
    return hashlib.sha256(f"{source}\0{start}\0{end}\0{context_hash}".encode()).hexdigest()


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_hour(source: str, page_text: str | None, raw: object) -> Candidate | str:
    """A Candidate from one hour dict, or a string saying why it is unusable."""
    if not isinstance(raw, dict):
        return "hour is not an object"
    start, end, context, cstart = (
        raw.get("start"),
        raw.get("end"),
        raw.get("context"),
        raw.get("context_start"),
    )
    if not (_is_int(start) and _is_int(end) and _is_int(cstart) and isinstance(context, str)):
        return "hour lacks integer start/end/context_start or string context"
    hl_start, hl_end = start - cstart, end - cstart
    if not 0 <= hl_start < hl_end <= len(context):
        return f"hour span {start}-{end} is outside its context"
    written = context[hl_start:hl_end]
    if isinstance(raw.get("text"), str) and raw["text"] != written:
        return f"hour text {raw['text']!r} != context[{hl_start}:{hl_end}] {written!r}"
    if page_text is not None and page_text[start:end] != written:
        return f"hour text {written!r} != page text at {start}-{end}"
    time = raw.get("time")
    if not isinstance(time, str) or not _TIME_RE.match(time):
        return f"hour time {time!r} is not HH:MM"
    day = raw.get("day") if isinstance(raw.get("day"), str) else None
    label = raw.get("label") if isinstance(raw.get("label"), str) else None
    if label == "mass":
        rule_no = False
    elif page_text is not None:
        rule_no = gold.certain_no(page_text, start, end)
    else:  # only the context: its first line is whole only when it starts the page
        rule_no = gold.certain_no(context, hl_start, hl_end, page_start=cstart == 0, page_end=False)
    origin = raw.get("source") if isinstance(raw.get("source"), str) else None
    return Candidate(
        key=candidate_key(source, start, end, context),
        source=source,
        hour_text=written,
        time=time,
        start=start,
        end=end,
        context=context,
        context_start=cstart,
        day=day,
        import_label=label,
        import_source=origin,
        certain_no=rule_no,
    )


def parse_lines(
    lines: Iterable[str], name: str, stats: ImportStats
) -> Iterator[tuple[str, str | None, list]]:
    """(source, page text or None, candidates) per usable JSONL line; problems go to `stats`."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        stats.lines += 1
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            stats.bad_lines += 1
            stats.messages.append(f"{name}:{number}: not JSON ({exc.msg})")
            continue
        source = obj.get("url") or obj.get("path") if isinstance(obj, dict) else None
        raw_hours = obj.get("hours") if isinstance(obj, dict) else None
        if not isinstance(source, str) or not isinstance(raw_hours, list):
            stats.bad_lines += 1
            stats.messages.append(f"{name}:{number}: needs 'url' or 'path' and a 'hours' list")
            continue
        page_text = obj.get("text") if isinstance(obj.get("text"), str) else None
        found = []
        for index, raw in enumerate(raw_hours):
            parsed = parse_hour(source, page_text, raw)
            if isinstance(parsed, str):
                stats.invalid_hours += 1
                stats.messages.append(f"{name}:{number}: hour {index}: {parsed}")
            else:
                found.append(parsed)
        yield source, page_text, found


def _document_id(conn: Connection, source: str, page_text: str | None) -> int:
    row = conn.execute(select(documents.c.id, documents.c.text).where(documents.c.source == source)).first()
    if row is None:
        return int(
            conn.execute(insert(documents).values(source=source, text=page_text)).inserted_primary_key[0]
        )
    if row.text is None and page_text is not None:
        conn.execute(update(documents).where(documents.c.id == row.id).values(text=page_text))
    return int(row.id)


def import_lines(engine: Engine, lines: Iterable[str], name: str = "<input>") -> ImportStats:
    """Import one JSONL stream in one transaction; returns counts."""
    stats = ImportStats()
    now = utcnow()
    with transaction(engine) as conn:
        for source, page_text, found in parse_lines(lines, name, stats):
            stats.candidates += len(found)
            if found:
                _import_page(conn, _document_id(conn, source, page_text), found, now, stats)
    return stats


def _import_page(
    conn: Connection, document_id: int, found: list[Candidate], now: datetime, stats: ImportStats
) -> None:
    """One page's candidates in a fixed number of statements, however many hours it has."""
    keys = {c.key for c in found}
    existing = set(conn.execute(select(hours.c.key).where(hours.c.key.in_(keys))).scalars())
    new: dict[str, Candidate] = {}
    for cand in found:
        if cand.key in existing or cand.key in new:
            stats.existing += 1
        else:
            new[cand.key] = cand
    stats.gold_added += _add_rule_gold(conn, [c for c in found if c.key in existing])
    if new:
        conn.execute(insert(hours), [_hour_row(cand, document_id, now) for cand in new.values()])
    stats.added += len(new)
    stats.gold_added += sum(cand.gold_label is not None for cand in new.values())


def _hour_row(cand: Candidate, document_id: int, now: datetime) -> dict:
    return {
        "key": cand.key,
        "document_id": document_id,
        "hour_text": cand.hour_text,
        "time": cand.time,
        "start": cand.start,
        "end": cand.end,
        "context": cand.context,
        "context_start": cand.context_start,
        "day": cand.day,
        "import_label": cand.import_label,
        "import_source": cand.import_source,
        "gold_label": cand.gold_label,
        "gold_origin": "rules" if cand.gold_label else None,
        "n_served": 0,
        "n_answers": 0,
        "created_at": now,
    }


def _add_rule_gold(conn: Connection, known: list[Candidate]) -> int:
    """Rule gold for hours imported before they had any; never over an admin's answer (or clearing)."""
    added = 0
    for label in ("yes", "no"):
        keys = {c.key for c in known if c.gold_label == label}
        if keys:
            done = conn.execute(
                update(hours)
                .where(hours.c.key.in_(keys), hours.c.gold_label.is_(None), hours.c.gold_origin.is_(None))
                .values(gold_label=label, gold_origin="rules")
            )
            added += done.rowcount
    return added


def import_file(engine: Engine, path: Path) -> ImportStats:
    """Import one JSONL file (PageItem lines or `msze extract` output)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        return import_lines(engine, handle, str(path))
