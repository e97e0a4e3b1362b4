"""Crawl results (results.jsonl, one object per parish crawl) into the parish whose website is their start
URL: weekly times, one-offs and confession, with the history of what changed."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from sqlalchemy import Connection, delete, insert, select, update

from msze.search import verified
from msze.search.db import (
    DAYS,
    LEGACY_DAYS,
    SEASON_LENGTH,
    UNKNOWN_DAY,
    clean_text,
    confession_times,
    mass_times,
    minute_of,
    monthly_masses,
    one_off_masses,
    parishes,
    tags_column,
    time_history,
)
from msze.search.loader.lines import (
    BadLine,
    LoadReport,
    accepted,
    json_object,
    numbered_lines,
    short,
    text_field,
)
from msze.search.loader.sites import Sites
from msze.search.urls import safe_url
from msze.utils.time import parse_timestamp
from msze.utils.urls import parish_url
from msze.utils.vocabulary import MONTH_WEEKS, WEEK

_TIME_RE = re.compile(r"^([01]?\d|2[0-3])[:.]([0-5]\d)$", re.ASCII)

SOURCES = ("rules", "classifier")
# Rows of one kind (weekly times, one-offs, confession) kept per parish. A large parish with ten chapels has
# about 300 weekly times; a site that lists every Mass of a year as "weekly" (10 880 rows seen) would make
# each of its pages and .ics feeds take seconds. The rest is counted in `times_capped`.
MAX_ROWS_PER_PARISH = 600


def normalize_time(value: object) -> str | None:
    """ "7.30" / "07:30" -> "07:30"; None for anything that is not a clock time (a number included)."""
    if not isinstance(value, str):
        return None
    match = _TIME_RE.match(value.strip())
    if not match:
        return None
    return f"{int(match.group(1)):02d}:{match.group(2)}"


@dataclass
class CrawlResult:
    """One checked line of results.jsonl; its masses are checked one by one later."""

    start_url: str  # as written: the parish's identity, and the source of a mass that names no page
    crawled_at: datetime | None
    failed: bool
    error: str
    masses: list = field(default_factory=list)
    schedule: list | None = None  # the consolidated weekly schedule; None in a first-version results file
    one_off: list = field(default_factory=list)
    monthly: list = field(default_factory=list)  # absent from results before monthly Masses had their own
    confession: list = field(default_factory=list)


def _crawl_result(line: str) -> CrawlResult:
    item = json_object(line)
    start_url = text_field(item, "start_url")
    if not parish_url(start_url):  # a result is joined by its start URL alone: without one it joins nothing
        raise BadLine(f"start_url is not an http(s) URL: {start_url[:80]!r}")
    crawled_at, masses = text_field(item, "crawled_at"), item.get("masses")
    for key in ("masses", "schedule", "one_off", "monthly", "confession"):
        if item.get(key) is not None and not isinstance(item[key], list):
            raise BadLine(f"'{key}' is {type(item[key]).__name__}, not a list")
    error = item.get("error")
    return CrawlResult(
        start_url=start_url,
        crawled_at=parse_timestamp(crawled_at),
        failed=text_field(item, "status") == "failed",
        error=clean_text(str(error))[:2000] if error else "",
        masses=masses or [],
        schedule=item.get("schedule"),
        one_off=item.get("one_off") or [],
        monthly=item.get("monthly") or [],
        confession=item.get("confession") or [],
    )


def read_results(path: str | Path, report: LoadReport) -> Iterator[CrawlResult]:
    path = Path(path)
    for number, line in numbered_lines(path, report):
        if line.strip():
            result = accepted(path, number, report, _crawl_result, line)
            if result is not None:
                yield result


def _score(value: object) -> float | None:
    """A finite number, else None (JSON allows NaN and Infinity; the API's JSON does not)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer with hundreds of digits
        return None
    return number if math.isfinite(number) else None


_NO_DAY = ""  # a weekly entry's day when it has none


def _entries(result: CrawlResult) -> Iterator[tuple[dict, str | None, dict]]:
    """(entry, day, evidence) for every day of every weekly entry: the consolidated `schedule`, else (a
    first-version file) `masses` with their day category spread over its days."""
    if result.schedule is not None:
        for entry in result.schedule:
            if not isinstance(entry, dict):
                yield entry, None, {}
                continue
            days = day_list(entry.get("days"))
            if days is None:  # "days": 5, true, a list of lists: the entry is wrong, not its crawl
                yield entry, None, {}
                continue
            if not days:  # a weekly Mass on no day (a results file before "dayless"): never published
                yield entry, _NO_DAY, {}
                continue
            first = _first_evidence(entry)
            for day in days:
                yield entry, day, first
        return
    for mass in result.masses:
        day = mass.get("day") if isinstance(mass, dict) else None
        days = LEGACY_DAYS.get(day, (UNKNOWN_DAY,)) if isinstance(day, str | None) else (None,)
        if not isinstance(mass, dict):
            days = (None,)
        for day in days:
            yield mass, day, mass if isinstance(mass, dict) else {}


def _mass_rows(
    result: CrawlResult, parish_id: int, crawled_at: datetime | None, report: LoadReport
) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for mass, day, evidence in _entries(result):
        if day == _NO_DAY:
            report.times_dayless += 1
            continue
        if not isinstance(mass, dict) or day is None:
            report.times_skipped += 1
            continue
        time = normalize_time(mass.get("time"))
        if time is None:
            report.times_skipped += 1
            continue
        start_date, end_date = _iso_date(mass.get("start_date")), _iso_date(mass.get("end_date"))
        church, season = short(mass.get("church"), 300), short(mass.get("season"), SEASON_LENGTH)
        key = (day, time, start_date, end_date, church, season)
        score = _score(evidence.get("score"))
        if key in rows and (rows[key]["score"] or 0) >= (score or 0):
            continue  # the same Mass found on two pages: keep the surer one
        written = evidence.get("url") or result.start_url
        source_url = safe_url(written)
        if written and source_url is None:
            report.urls_dropped += 1
        context = evidence.get("context")
        rows[key] = {
            "parish_id": parish_id,
            "day": day,
            "minute": minute_of(time),
            "time": time,
            "source_url": source_url,
            "context": clean_text(context if isinstance(context, str) else str(context or "")),
            "source": evidence.get("source") if evidence.get("source") in SOURCES else None,
            "score": score,
            "crawled_at": crawled_at,
            "start_date": start_date,
            "end_date": end_date,
            "church": church,
            "season": season,
            "vigil": mass.get("vigil") is True,
            "tags": tags_column(mass.get("tags")),
        }
    return list(rows.values())


def _first_evidence(entry: dict) -> dict:
    """The first evidence of a schedule, one-off or confession entry ({} when it has none)."""
    evidence = entry.get("evidence")
    return evidence[0] if isinstance(evidence, list) and evidence and isinstance(evidence[0], dict) else {}


def _one_off_rows(result: CrawlResult, parish_id: int, report: LoadReport) -> list[dict]:
    rows = []
    for o in result.one_off:
        time = normalize_time(o.get("time")) if isinstance(o, dict) else None
        if time is None:
            continue
        date = one_off_date(o.get("date"))
        if date is None and o.get("date") is not None:  # "2026-02-30", "13-01", 5: no day to hold it
            report.times_skipped += 1
            continue
        rows.append(
            {
                "parish_id": parish_id,
                "date": date,
                "time": time,
                "church": short(o.get("church"), 300),
                "note": short(o.get("note"), 500) or "",
                "source_url": safe_url(_first_evidence(o).get("url")),
            }
        )
    return rows


def _monthly_rows(result: CrawlResult, parish_id: int, report: LoadReport) -> list[dict]:
    """A monthly Mass with a known week of the month, days of the week and time; any other is skipped and
    counted (a week 5, a day "funday": no day of a month to hold it on)."""
    rows = []
    for m in result.monthly:
        m = m if isinstance(m, dict) else {}
        time, week = normalize_time(m.get("time")), m.get("week")
        days = [d for d in day_list(m.get("days")) or () if d in WEEK]
        if time is None or not days or type(week) is not int or week not in MONTH_WEEKS:
            report.times_skipped += 1
            continue
        rows.append(
            {
                "parish_id": parish_id,
                "week": week,
                "days": ",".join(days),
                "time": time,
                "church": short(m.get("church"), 300),
                "season": short(m.get("season"), SEASON_LENGTH),
                "note": short(m.get("note"), 500) or "",
                "source_url": safe_url(_first_evidence(m).get("url")),
            }
        )
    return rows


def _confession_rows(result: CrawlResult, parish_id: int) -> list[dict]:
    rows = []
    for c in result.confession:
        start = normalize_time(c.get("start")) if isinstance(c, dict) else None
        if start is None:
            continue
        days = day_list(c.get("days"))
        if days is None:
            continue
        rows.append(
            {
                "parish_id": parish_id,
                "days": ",".join(days),
                "start": start,
                "end": normalize_time(c.get("end")),
                "church": short(c.get("church"), 300),
                "season": short(c.get("season"), SEASON_LENGTH),
                "source_url": safe_url(_first_evidence(c).get("url")),
            }
        )
    return rows


def _capped(rows: list[dict], report: LoadReport) -> list[dict]:
    """At most MAX_ROWS_PER_PARISH rows, the rest counted."""
    report.times_capped += max(0, len(rows) - MAX_ROWS_PER_PARISH)
    return rows[:MAX_ROWS_PER_PARISH]


def day_list(value: object) -> list[str] | None:
    """The known day codes of an entry's `days` ([] when absent); None when it is not a list of text."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(day, str) for day in value):
        return None
    return [day for day in value if day in DAYS]


def one_off_date(value: object) -> str | None:
    """A one-off's date as stored: a real "YYYY-MM-DD", or a real "MM-DD" of no year (29 February kept);
    None for anything else ("2026-02-30" from a typo on a page, "13-01", a number)."""
    if not isinstance(value, str):
        return None
    try:
        if len(value) == 10:
            return date.fromisoformat(value).isoformat()
        if len(value) == 5 and value[2] == "-":
            return date(2000, int(value[:2]), int(value[3:])).isoformat()[5:]
    except ValueError:
        return None
    return None


def _iso_date(value) -> str | None:
    """ "2026-07-01" stays; anything else is dropped (a season we cannot read is no season)."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        return None


def load_results(conn: Connection, results: Iterable[CrawlResult], report: LoadReport, now: datetime) -> None:
    """Replace the times of the parish whose website is each result's start URL with those of a newer crawl,
    recording what changed. A result of no parish, or of several, is listed and loaded onto none."""
    sites = Sites(conn)
    stored: dict[int, datetime | None] = {}  # latest crawl loaded per parish (finished or failed)
    times_from: dict[int, datetime | None] = {}  # the crawl the stored times came from
    for site in sites.all():
        stored[site.id] = _aware(site.attempted_at)
        times_from[site.id] = _aware(site.crawled_at)
    verified_ids = verified.parish_ids(conn)  # their crawls are compared, never published (verified.py)

    for result in results:
        matched = sites.match(result.start_url)
        if len(matched) != 1:
            report.unmatched(result.start_url, matched)
            continue
        parish_id = matched[0].id
        crawled_at = _crawl_time(result, report, now)
        previous = stored.get(parish_id)
        if previous is not None and crawled_at <= previous:
            report.results_stale += 1
            continue
        stored[parish_id] = crawled_at
        if result.failed:
            # A failed crawl says nothing about the times: keep them, note the failure.
            conn.execute(
                update(parishes)
                .where(parishes.c.id == parish_id)
                .values(attempted_at=crawled_at, crawl_status="failed", crawl_error=result.error)
            )
            report.results_failed += 1
            continue
        if parish_id in verified_ids:
            _compare_verified(conn, parish_id, result, crawled_at, report, now)
            continue
        _replace_times(conn, parish_id, result, crawled_at, times_from.get(parish_id), report, now)
        times_from[parish_id] = crawled_at


def _crawl_time(result: CrawlResult, report: LoadReport, now: datetime) -> datetime:
    """When the result's pages were fetched. A time after `now` (a crawl machine with a wrong clock) would
    make every later real crawl look older: it is taken as now, and counted; a result without one, too."""
    if result.crawled_at is None:
        report.results_undated += 1
        return now
    if result.crawled_at > now:
        report.results_future += 1
        return now
    return result.crawled_at


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # SQLite returns naive datetimes
    return value


def _compare_verified(
    conn: Connection,
    parish_id: int,
    result: CrawlResult,
    crawled_at: datetime,
    report: LoadReport,
    now: datetime,
) -> None:
    """A verified parish: the new crawl's reading is kept apart and compared; what is published stays."""
    reading = {
        "masses": [
            verified.reading_mass(row)
            for row in _capped(_mass_rows(result, parish_id, crawled_at, report), report)
        ],
        "one_off": [
            {k: v for k, v in row.items() if k != "parish_id"}
            for row in _one_off_rows(result, parish_id, report)
        ],
        "monthly": [
            {
                **{k: v for k, v in row.items() if k != "parish_id"},
                "days": row["days"].split(","),
            }
            for row in _monthly_rows(result, parish_id, report)
        ],
        "confession": [
            {
                **{k: v for k, v in row.items() if k != "parish_id"},
                "days": [d for d in row["days"].split(",") if d],
            }
            for row in _confession_rows(result, parish_id)
        ],
    }
    if verified.on_crawl(conn, parish_id, reading, crawled_at, now):
        report.verified_queued += 1
    else:
        report.verified_confirmed += 1
    conn.execute(
        update(parishes)
        .where(parishes.c.id == parish_id)
        .values(attempted_at=crawled_at, crawl_status="finished", crawl_error=None)
    )
    report.results_loaded += 1


def _replace_times(
    conn: Connection,
    parish_id: int,
    result: CrawlResult,
    crawled_at: datetime,
    previous: datetime | None,
    report: LoadReport,
    now: datetime,
) -> None:
    old = {
        f"{row.day} {row.time}"
        for row in conn.execute(
            select(mass_times.c.day, mass_times.c.time).where(mass_times.c.parish_id == parish_id)
        )
    }
    rows = _capped(_mass_rows(result, parish_id, crawled_at, report), report)
    new = {f"{row['day']} {row['time']}" for row in rows}
    conn.execute(delete(mass_times).where(mass_times.c.parish_id == parish_id))
    if rows:
        conn.execute(insert(mass_times), rows)
    for table, extra in (
        (one_off_masses, _capped(_one_off_rows(result, parish_id, report), report)),
        (monthly_masses, _capped(_monthly_rows(result, parish_id, report), report)),
        (confession_times, _capped(_confession_rows(result, parish_id), report)),
    ):
        conn.execute(delete(table).where(table.c.parish_id == parish_id))
        if extra:
            conn.execute(insert(table), extra)
    conn.execute(
        update(parishes)
        .where(parishes.c.id == parish_id)
        .values(crawled_at=crawled_at, attempted_at=crawled_at, crawl_status="finished", crawl_error=None)
    )
    report.results_loaded += 1
    report.times_loaded += len(rows)
    if old != new:
        conn.execute(
            insert(time_history).values(
                parish_id=parish_id,
                crawled_at=crawled_at,
                loaded_at=now,
                previous_crawled_at=previous,
                added=json.dumps(sorted(new - old)),
                removed=json.dumps(sorted(old - new)),
            )
        )
        report.history_rows += 1
