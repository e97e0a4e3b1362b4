"""Per-parish batch results (the results.jsonl format, docs/batch.md): one summary object per parish.

A summary (msze.extraction.parish.summarize) is built from the parish's pages JSONL (one PageItem per
line), so it can be rebuilt at any time from stored pages. Summaries are kept in the job database while the
batch runs and exported to `results.jsonl` and `results.csv` with an atomic rename; `append_result` appends
one line under an exclusive lock for callers that stream results from many processes into one file.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
from collections.abc import Iterable
from typing import Any

from msze.archive.jsonl import read_objects
from msze.extraction.parish import summarize
from msze.utils.vocabulary import SEASONS, season_spans

CSV_DAY_COLUMNS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun", "holiday", "unknown_day")
CSV_FIELDS = (
    "start_url",
    "domain",
    "status",
    "error",
    "pages",
    "bytes",
    "crawled_at",
    "mass_count",
    "one_off_count",
    *CSV_DAY_COLUMNS,
)
# how a season reads in a CSV cell ("lato: 19:00")
SEASON_LABELS = {name: season.short for name, season in SEASONS.items()}


def summarize_file(
    path: str | os.PathLike[str], start_url: str, domain: str, **kwargs: Any
) -> dict[str, Any]:
    """summarize() over a pages JSONL file; a missing file means no pages."""
    pages: Iterable[dict[str, Any]] = read_objects(path) if os.path.exists(path) else ()
    return summarize(pages, start_url, domain, **kwargs)


def append_result(path: str | os.PathLike[str], obj: dict[str, Any]) -> None:
    """Append one JSON line with a single write(2) on an O_APPEND file under flock, so lines from parallel
    writers never interleave."""
    data = (json.dumps(obj, ensure_ascii=False) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def _atomic_write(path: str | os.PathLike[str], text: str) -> None:
    tmp = f"{os.fspath(path)}.tmp.{os.getpid()}"
    with open(tmp, "w", encoding="utf-8", newline="") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def export_jsonl(summaries: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> int:
    """Write summaries as results.jsonl (replaced atomically). Returns the number written."""
    lines = [json.dumps(s, ensure_ascii=False) for s in summaries]
    _atomic_write(path, "".join(line + "\n" for line in lines))
    return len(lines)


def season_label(season: str) -> str:
    """A season as people write it: "lato", "rok szkolny", a range "01.07–31.08"."""
    spans = season_spans(season)
    if spans is not None:
        return ", ".join(f"{d1:02d}.{m1:02d}–{d2:02d}.{m2:02d}" for (m1, d1), (m2, d2) in spans)
    return SEASON_LABELS.get(season, season)


def day_cell(entries: Iterable[dict[str, Any]]) -> str:
    """One day's weekly Masses, readable: "7:30, 9:00; kaplica w Zalesiu: 10:00; lato: 19:00" (the parish
    church all year first, then each church and season; a vigil marked)."""
    groups: dict[tuple[str | None, str | None], list[str]] = {}
    for e in sorted(
        entries, key=lambda e: (e["church"] is not None, e["church"] or "", e["season"] or "", e["time"])
    ):
        time = e["time"].lstrip("0") if not e["time"].startswith("00") else e["time"][1:]
        groups.setdefault((e["church"], e["season"]), []).append(time + (" (wigilia)" if e["vigil"] else ""))
    parts = []
    for (church, season), times in groups.items():
        label = ", ".join(x for x in (church, season_label(season) if season else None) if x)
        parts.append(f"{label}: {', '.join(times)}" if label else ", ".join(times))
    return "; ".join(parts)


def csv_row(summary: dict[str, Any]) -> dict[str, Any]:
    """One CSV row per parish: counts, and each day's weekly Masses (day_cell)."""
    schedule = summary.get("schedule") or ()
    row = {k: summary.get(k) for k in CSV_FIELDS[:7]}
    row["mass_count"] = len(schedule)
    row["one_off_count"] = len(summary.get("one_off") or ())
    for day in CSV_DAY_COLUMNS:
        if day == "unknown_day":  # the weekly-read Masses no page gave a day
            row[day] = day_cell(summary.get("dayless") or ())
        else:
            row[day] = day_cell(e for e in schedule if day in e["days"])
    return row


def export_csv(summaries: Iterable[dict[str, Any]], path: str | os.PathLike[str]) -> int:
    """Write summaries as results.csv (replaced atomically). Returns the number of parish rows."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_FIELDS)
    writer.writeheader()
    n = 0
    for summary in summaries:
        writer.writerow(csv_row(summary))
        n += 1
    _atomic_write(path, buf.getvalue())
    return n
