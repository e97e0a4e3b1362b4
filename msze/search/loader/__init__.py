"""Load the pipeline's outputs into the results database.

Three inputs, per the team contracts:
- parishes from the deon stage: TSV (Parafia, Miejscowość, Adres with "|" between lines, Diecezja, Dekanat,
  Województwo) or JSONL of ParishItem (parishes.py);
- websites from the places stage: TSV like extended.tsv (…, url, …) or JSONL of PlaceItem (parishes.py);
- Mass times from the batch crawl: `results.jsonl`, one object per parish crawl (results.py), and the other
  churches located by the places stage (churches.py).

A crawl result belongs to exactly the parish whose website is its start URL (sites.py): never to a parish
found by host or registered domain. Loading a crawl newer than the one stored replaces that parish's times and
writes a `time_history` row when the set of (day, time) changed; an older or equal crawl is skipped, so
re-running a load is harmless.

Input comes from the internet, so one malformed line (not UTF-8, not JSON, a number where text belongs, a URL
`urlsplit` refuses, a name too long for its column) is skipped and reported as `file:line: reason`; the rest
loads. Websites and source URLs that are not absolute http(s) URLs are dropped and counted (`urls_dropped`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import Engine

from msze.search.loader.churches import CHURCH_MAX_KM, load_churches
from msze.search.loader.lines import BadLine, LoadReport
from msze.search.loader.parishes import ParishRecord, load_parishes, load_websites, read_parish_file
from msze.search.loader.results import load_results, normalize_time, parse_timestamp, read_results
from msze.search.loader.sites import LegacyDatabase, check_identity

__all__ = [
    "CHURCH_MAX_KM",
    "BadLine",
    "LegacyDatabase",
    "LoadReport",
    "ParishRecord",
    "load",
    "normalize_time",
    "parse_timestamp",
    "read_parish_file",
]


def load(
    engine: Engine,
    parishes_path: str | Path | None = None,
    places_path: str | Path | None = None,
    results_path: str | Path | None = None,
    now: datetime | None = None,
    churches_path: str | Path | None = None,
    repair: bool = False,
) -> LoadReport:
    """Load whichever inputs are given, in one transaction. A malformed line is skipped and listed in
    `bad_lines`; a file that cannot be read or is not what it was said to be (OSError, ValueError), or a
    database loaded by the older host/domain join without `repair` (LegacyDatabase), leaves the database as
    it was."""
    report = LoadReport()
    now = now or datetime.now(UTC)
    with engine.begin() as conn:
        report.parishes_repaired = check_identity(conn, repair)
        if parishes_path:
            records = (r for r in read_parish_file(parishes_path, report) if not r.church)
            load_parishes(conn, records, report)
        if places_path:
            records = [r for r in read_parish_file(places_path, report) if not r.church]
            if not parishes_path:
                # The places file carries the deon columns too: it can create the parishes on its own.
                load_parishes(conn, records, report)
            load_websites(conn, records, report)
        if results_path:
            load_results(conn, read_results(results_path, report), report, now)
        if churches_path:
            load_churches(conn, read_parish_file(churches_path, report), report)
    return report
