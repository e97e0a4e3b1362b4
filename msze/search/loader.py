"""Load the pipeline's outputs into the results database.

Three inputs, per the team contracts:
- parishes from the deon stage: TSV (Parafia, Miejscowość, Adres with "|" between lines, Diecezja, Dekanat,
  Województwo) or JSONL of ParishItem;
- websites from the places stage: TSV like extended.tsv (…, url, …) or JSONL of PlaceItem;
- Mass times from the batch crawl: `results.jsonl`, one object per parish crawl.

A crawl result is joined to parishes by the host of its start URL, and when no parish website has that host,
by the registered domain (many parish sites are subdomains of one diocesan domain, so the host goes first).
Loading a crawl newer than the one stored replaces that parish's times and writes a `time_history` row when
the set of (day, time) changed; an older or equal crawl is skipped, so re-running a load is harmless.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from urllib.parse import urlsplit

from sqlalchemy import Connection, Engine, delete, insert, select, update

from msze.links import registered_domain as _registered_domain
from msze.search.db import DAYS, UNKNOWN_DAY, fold, mass_times, minute_of, parishes, time_history, town_key

_TIME_RE = re.compile(r"^([01]?\d|2[0-3])[:.]([0-5]\d)$")


def host_of(url: str | None) -> str:
    """Lower-case host of a URL without "www."; "" when there is none. Accepts bare hosts ("parafia.pl")."""
    if not url:
        return ""
    url = url.strip()
    if "://" not in url:
        url = "http://" + url
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    return host.removeprefix("www.")


def registered_domain(url_or_host: str | None) -> str:
    """The domain a registry sold: "sw-jan.parafia.com.pl" -> "parafia.com.pl"; IPs and one-label hosts as is.

    The host is taken first (bare hosts accepted, "www." dropped), then the crawler's own msze.links function
    (public suffix list) names the domain, so the join key is computed exactly as the batch's `domain` field.
    """
    return _registered_domain(host_of(url_or_host))


def normalize_time(value: str | None) -> str | None:
    """ "7.30" / "07:30" -> "07:30"; None for anything that is not a clock time."""
    if not value:
        return None
    match = _TIME_RE.match(value.strip())
    if not match:
        return None
    return f"{int(match.group(1)):02d}:{match.group(2)}"


def parse_timestamp(value: str | None) -> datetime | None:
    """ISO 8601 (with "Z" or an offset; naive is taken as UTC) -> aware UTC datetime; None when unparsable."""
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


@dataclass
class ParishRecord:
    """One parish row as read from the deon or places stage."""

    name: str
    city: str
    address: str = ""  # lines joined with "\n"
    decanate: str = ""
    diocese: str = ""
    voivodeship: str = ""
    website: str = ""

    @property
    def identity(self) -> tuple[str, str, str]:
        return (self.name, self.city, self.address)


@dataclass
class LoadReport:
    """What a load did, printed by the CLI and asserted by tests."""

    parishes_inserted: int = 0
    parishes_updated: int = 0
    websites_set: int = 0
    websites_unmatched: int = 0
    results_loaded: int = 0
    results_failed: int = 0  # crawl status "failed": status stored, times kept
    results_stale: int = 0  # not newer than the stored crawl
    results_unmatched: int = 0  # no parish has that host or domain
    times_loaded: int = 0
    times_skipped: int = 0  # masses without a valid time
    history_rows: int = 0
    bad_lines: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        data = dict(self.__dict__)
        data["bad_lines"] = len(self.bad_lines)
        return data


def _address(value) -> str:
    if isinstance(value, list):
        lines = [str(line).strip() for line in value]
    else:
        lines = [line.strip() for line in str(value or "").split("|")]
    return "\n".join(line for line in lines if line)


def _clean(value) -> str:
    return " ".join(str(value or "").split())


_TSV_COLUMNS = {
    "Parafia": "name",
    "Miejscowość": "city",
    "Adres": "address",
    "Diecezja": "diocese",
    "Dekanat": "decanate",
    "Województwo": "voivodeship",
    "url": "website",
}


def read_parish_file(path: str | Path, report: LoadReport | None = None) -> Iterator[ParishRecord]:
    """Parish records from a deon/places TSV (by header names) or a JSONL of ParishItem/PlaceItem."""
    path = Path(path)
    with path.open(encoding="utf-8", newline="") as handle:
        if path.suffix in (".jsonl", ".json", ".ndjson"):
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    if report is not None:
                        report.bad_lines.append(f"{path}:{number}: {exc}")
                    continue
                record = _record(item)
                if record is not None:
                    yield record
                elif report is not None:
                    report.bad_lines.append(f"{path}:{number}: no parish name or city")
            return
        reader = csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE)
        header = next(reader, None)
        if header is None:
            return
        keys = [_TSV_COLUMNS.get(column.strip()) for column in header]
        if "name" not in keys or "city" not in keys:
            raise ValueError(f"{path}: expected a TSV with columns Parafia and Miejscowość, got {header!r}")
        for number, row in enumerate(reader, 2):
            item = {key: value for key, value in zip(keys, row, strict=False) if key}
            record = _record(item)
            if record is not None:
                yield record
            elif report is not None:
                report.bad_lines.append(f"{path}:{number}: no parish name or city")


def _record(item: dict) -> ParishRecord | None:
    name, city = _clean(item.get("name")), _clean(item.get("city"))
    if not name or not city:
        return None
    return ParishRecord(
        name=name,
        city=city,
        address=_address(item.get("address")),
        decanate=_clean(item.get("decanate")),
        diocese=_clean(item.get("diocese")),
        voivodeship=_clean(item.get("voivodeship")),
        website=(item.get("website") or item.get("url") or "").strip(),
    )


def _row(record: ParishRecord) -> dict:
    return {
        "name": record.name,
        "city": record.city,
        "address": record.address,
        "decanate": record.decanate,
        "diocese": record.diocese,
        "voivodeship": record.voivodeship,
        "name_key": fold(record.name),
        "city_key": fold(record.city),
        "town_key": town_key(fold(record.city)),
        "diocese_key": fold(record.diocese),
    }


def _website_row(website: str) -> dict:
    return {"website": website or None, "domain": registered_domain(website) or None}


def load_parishes(conn: Connection, records: Iterable[ParishRecord], report: LoadReport) -> None:
    """Insert new parishes and update changed ones, matched by (name, city, address)."""
    existing = {
        (row.name, row.city, row.address): row.id
        for row in conn.execute(select(parishes.c.id, parishes.c.name, parishes.c.city, parishes.c.address))
    }
    batch: list[dict] = []
    for record in records:
        row = _row(record)
        if record.website:
            row.update(_website_row(record.website))
        parish_id = existing.get(record.identity)
        if parish_id is None:
            batch.append(row)
            existing[record.identity] = -1  # a duplicate line in the same file is not inserted twice
            report.parishes_inserted += 1
        elif parish_id > 0:
            conn.execute(update(parishes).where(parishes.c.id == parish_id).values(**row))
            report.parishes_updated += 1
        if len(batch) >= 1000:
            conn.execute(insert(parishes), batch)
            batch = []
    if batch:
        conn.execute(insert(parishes), batch)


def load_websites(conn: Connection, records: Iterable[ParishRecord], report: LoadReport) -> None:
    """Set each parish's website from the places stage, matched by (name, city, address) or (name, city)."""
    by_identity: dict[tuple[str, str, str], int] = {}
    by_name_city: dict[tuple[str, str], list[int]] = {}
    for row in conn.execute(select(parishes.c.id, parishes.c.name, parishes.c.city, parishes.c.address)):
        by_identity[(row.name, row.city, row.address)] = row.id
        by_name_city.setdefault((row.name, row.city), []).append(row.id)
    for record in records:
        if not record.website:
            continue
        parish_id = by_identity.get(record.identity)
        if parish_id is None:
            candidates = by_name_city.get((record.name, record.city), [])
            parish_id = candidates[0] if len(candidates) == 1 else None
        if parish_id is None:
            report.websites_unmatched += 1
            continue
        conn.execute(
            update(parishes).where(parishes.c.id == parish_id).values(**_website_row(record.website))
        )
        report.websites_set += 1


def _read_results(path: str | Path, report: LoadReport) -> Iterator[dict]:
    with Path(path).open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            try:
                result = json.loads(line)
            except json.JSONDecodeError as exc:
                report.bad_lines.append(f"{path}:{number}: {exc}")
                continue
            if not isinstance(result, dict) or not (result.get("start_url") or result.get("domain")):
                report.bad_lines.append(f"{path}:{number}: no start_url or domain")
                continue
            yield result


def _mass_rows(result: dict, parish_id: int, crawled_at: datetime | None, report: LoadReport) -> list[dict]:
    rows: dict[tuple[str, str], dict] = {}
    for mass in result.get("masses") or []:
        if not isinstance(mass, dict):
            report.times_skipped += 1
            continue
        time = normalize_time(mass.get("time"))
        if time is None:
            report.times_skipped += 1
            continue
        day = mass.get("day") if mass.get("day") in DAYS else UNKNOWN_DAY
        start_date, end_date = _iso_date(mass.get("start_date")), _iso_date(mass.get("end_date"))
        key = (day, time, start_date, end_date)
        score = mass.get("score")
        if key in rows and (rows[key]["score"] or 0) >= (score or 0):
            continue  # the same Mass found on two pages: keep the surer one
        rows[key] = {
            "parish_id": parish_id,
            "day": day,
            "minute": minute_of(time),
            "time": time,
            "source_url": mass.get("url") or result.get("start_url"),
            "context": " ".join(str(mass.get("context") or "").split()),
            "source": mass.get("source"),
            "score": float(score) if isinstance(score, int | float) else None,
            "crawled_at": crawled_at,
            "start_date": start_date,
            "end_date": end_date,
        }
    return list(rows.values())


def _iso_date(value) -> str | None:
    """ "2026-07-01" stays; anything else is dropped (a season we cannot read is no season)."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        return None


def load_results(conn: Connection, results: Iterable[dict], report: LoadReport, now: datetime) -> None:
    """Replace the times of each matched parish with those of a newer crawl, recording what changed."""
    by_host: dict[str, list[int]] = {}
    by_domain: dict[str, list[int]] = {}
    stored: dict[int, datetime | None] = {}  # latest crawl loaded per parish (finished or failed)
    times_from: dict[int, datetime | None] = {}  # the crawl the stored times came from
    for row in conn.execute(
        select(
            parishes.c.id,
            parishes.c.website,
            parishes.c.domain,
            parishes.c.attempted_at,
            parishes.c.crawled_at,
        ).where(parishes.c.website.is_not(None))
    ):
        by_host.setdefault(host_of(row.website), []).append(row.id)
        if row.domain:
            by_domain.setdefault(row.domain, []).append(row.id)
        stored[row.id] = _aware(row.attempted_at)
        times_from[row.id] = _aware(row.crawled_at)

    for result in results:
        host = host_of(result.get("start_url"))
        domain = registered_domain(result.get("domain") or host)
        parish_ids = by_host.get(host) or by_domain.get(domain) or []
        if not parish_ids:
            report.results_unmatched += 1
            continue
        crawled_at = parse_timestamp(result.get("crawled_at")) or now
        failed = result.get("status") == "failed"
        for parish_id in parish_ids:
            previous = stored.get(parish_id)
            if previous is not None and crawled_at <= previous:
                report.results_stale += 1
                continue
            stored[parish_id] = crawled_at
            if failed:
                # A failed crawl says nothing about the times: keep them, note the failure.
                conn.execute(
                    update(parishes)
                    .where(parishes.c.id == parish_id)
                    .values(
                        attempted_at=crawled_at,
                        crawl_status="failed",
                        crawl_error=str(result.get("error") or "")[:2000],
                    )
                )
                report.results_failed += 1
                continue
            _replace_times(conn, parish_id, result, crawled_at, times_from.get(parish_id), report, now)
            times_from[parish_id] = crawled_at


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # SQLite returns naive datetimes
    return value


def _replace_times(
    conn: Connection,
    parish_id: int,
    result: dict,
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
    rows = _mass_rows(result, parish_id, crawled_at, report)
    new = {f"{row['day']} {row['time']}" for row in rows}
    conn.execute(delete(mass_times).where(mass_times.c.parish_id == parish_id))
    if rows:
        conn.execute(insert(mass_times), rows)
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


def load(
    engine: Engine,
    parishes_path: str | Path | None = None,
    places_path: str | Path | None = None,
    results_path: str | Path | None = None,
    now: datetime | None = None,
) -> LoadReport:
    """Load whichever inputs are given, in one transaction (a bad file leaves the database as it was)."""
    report = LoadReport()
    now = now or datetime.now(UTC)
    with engine.begin() as conn:
        if parishes_path:
            load_parishes(conn, read_parish_file(parishes_path, report), report)
        if places_path:
            records = list(read_parish_file(places_path, report))
            if not parishes_path:
                # The places file carries the deon columns too: it can create the parishes on its own.
                load_parishes(conn, records, report)
            load_websites(conn, records, report)
        if results_path:
            load_results(conn, _read_results(results_path, report), report, now)
    return report
