"""Per-parish batch results (the results.jsonl format, docs/batch.md): one summary object per parish.

A summary is built from the parish's pages JSONL (one PageItem per line), so it can be rebuilt at any time
from stored pages. Summaries are kept in the job database while the batch runs and exported to
`results.jsonl` and `results.csv` with an atomic rename; `append_result` appends one line under an
exclusive lock for callers that stream results from many processes into one file.
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

DAY_ORDER = {"sunday": 0, "holiday": 1, "saturday": 2, "weekday": 3, None: 4}
CSV_DAY_COLUMNS = ("sunday", "holiday", "saturday", "weekday", "unknown_day")
CSV_FIELDS = (
    "start_url",
    "domain",
    "status",
    "error",
    "pages",
    "bytes",
    "crawled_at",
    "mass_count",
    *CSV_DAY_COLUMNS,
)


def _mass_key(mass: dict[str, Any]) -> tuple[Any, ...]:
    return (DAY_ORDER.get(mass["day"], 4), mass["time"])


def summarize(
    pages: Iterable[dict[str, Any]],
    start_url: str,
    domain: str,
    status: str = "finished",
    error: str | None = None,
    crawled_at: str | None = None,
    bytes_: int | None = None,
) -> dict[str, Any]:
    """The results.jsonl object of one parish.

    Every hour labelled "mass" on any page counts. A site repeats its sidebar schedule on many pages, so each
    (time, day) appears once, with the evidence of highest score (rules before classifier on a tie, then the
    first page crawled). `bytes_` defaults to the UTF-8 size of the pages' HTML.
    """
    best: dict[tuple[str, str | None], dict[str, Any]] = {}
    n_pages = 0
    n_bytes = 0
    for page in pages:
        n_pages += 1
        if bytes_ is None:  # only measured when the caller has no byte count of its own
            n_bytes += len((page.get("html") or "").encode("utf-8"))
        for hour in page.get("hours") or ():
            if hour.get("label") != "mass" or not hour.get("time"):
                continue
            mass = {
                "time": hour["time"],
                "day": hour.get("day"),
                "url": page.get("url"),
                "context": hour.get("context", ""),
                "source": hour.get("source"),
                "score": hour.get("score"),
            }
            key = (mass["time"], mass["day"])
            old = best.get(key)
            if old is None or _better(mass, old):
                best[key] = mass
    return {
        "start_url": start_url,
        "domain": domain,
        "status": status,
        "error": error,
        "pages": n_pages,
        "bytes": n_bytes if bytes_ is None else bytes_,
        "crawled_at": crawled_at,
        "masses": sorted(best.values(), key=_mass_key),
    }


def _better(new: dict[str, Any], old: dict[str, Any]) -> bool:
    new_score = new["score"] if new["score"] is not None else 0.0
    old_score = old["score"] if old["score"] is not None else 0.0
    if new_score != old_score:
        return new_score > old_score
    return new["source"] == "rules" and old["source"] != "rules"


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


def csv_row(summary: dict[str, Any]) -> dict[str, Any]:
    """One CSV row per parish: counts plus the Mass times of each day category, space-separated."""
    by_day: dict[str, list[str]] = {c: [] for c in CSV_DAY_COLUMNS}
    for mass in summary.get("masses") or ():
        column = mass.get("day") if mass.get("day") in by_day else "unknown_day"
        if mass["time"] not in by_day[column]:
            by_day[column].append(mass["time"])
    row = {k: summary.get(k) for k in CSV_FIELDS[:7]}
    row["mass_count"] = len(summary.get("masses") or ())
    row.update({c: " ".join(sorted(v)) for c, v in by_day.items()})
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
