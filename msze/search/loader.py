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

Input comes from the internet, so one malformed line (not UTF-8, not JSON, a number where text belongs, a URL
`urlsplit` refuses, a name too long for its column) is skipped and reported as `file:line: reason`; the rest
loads. Websites and source URLs that are not absolute http(s) URLs are dropped and counted (`urls_dropped`).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, delete, insert, select, update

from msze.directory.places_api import coordinate
from msze.search.db import (
    DAYS,
    LEGACY_DAYS,
    UNKNOWN_DAY,
    churches,
    clean_text,
    confession_times,
    mass_times,
    minute_of,
    one_off_masses,
    parishes,
    time_history,
    town_key,
)
from msze.search.query import distance_km
from msze.search.urls import safe_url
from msze.utils import tsv
from msze.utils.text import fold
from msze.utils.urls import host_of
from msze.utils.urls import registered_domain as _registered_domain

_TIME_RE = re.compile(r"^([01]?\d|2[0-3])[:.]([0-5]\d)$", re.ASCII)
SOURCES = ("rules", "classifier")
JSON_SUFFIXES = (".jsonl", ".json", ".ndjson")


class BadLine(ValueError):
    """Why one input line is skipped; reported as `file:line: reason` and the load goes on."""


def registered_domain(url_or_host: str | None) -> str:
    """The domain a registry sold: "sw-jan.parafia.com.pl" -> "parafia.com.pl"; IPs and one-label hosts as is.

    The host is taken first (bare hosts accepted, "www." dropped), then the crawler's crawling.links
    (public suffix list) names the domain, so the join key is computed exactly as the batch's `domain` field.
    """
    return _registered_domain(host_of(url_or_host))


def normalize_time(value: object) -> str | None:
    """ "7.30" / "07:30" -> "07:30"; None for anything that is not a clock time (a number included)."""
    if not isinstance(value, str):
        return None
    match = _TIME_RE.match(value.strip())
    if not match:
        return None
    return f"{int(match.group(1)):02d}:{match.group(2)}"


def parse_timestamp(value: object) -> datetime | None:
    """ISO 8601 (with "Z" or an offset; naive is taken as UTC) -> aware UTC datetime; None when unparsable."""
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError):  # OverflowError: "9999-12-31T23:00:00-02:00" is past year 9999 in UTC
        return None


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
    lat: float | None = None
    lng: float | None = None
    church: str = ""  # another church of the parish at `start_url` (scrapy crawl places -a churches=)
    start_url: str = ""

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
    churches_located: int = 0  # other churches given their own coordinates
    churches_unmatched: int = 0  # located churches of a start URL no parish has
    churches_far: int = 0  # located farther than CHURCH_MAX_KM from their parish: another town's street
    urls_dropped: int = 0  # websites and source URLs that are not absolute http(s) URLs: never published
    lines_ok: int = 0  # input lines read and accepted (bad ones are listed in bad_lines)
    bad_lines: list[str] = field(default_factory=list)  # "file:line: reason", one per skipped line

    def as_dict(self) -> dict:
        data = dict(self.__dict__)
        data["bad_lines"] = len(self.bad_lines)
        return data


def _text(item: dict, key: str, column: str | None = None) -> str:
    """The text field `key` cleaned ("" when absent); BadLine for a number, list… or text too long for its
    `parishes` column (PostgreSQL would refuse it and with it the whole load)."""
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadLine(f"{key!r} is {type(value).__name__}, not text")
    value = clean_text(value)
    limit = parishes.c[column].type.length if column else None
    if limit and len(value) > limit:
        raise BadLine(f"{key!r} is longer than {limit} characters")
    return value


def _address(value: object) -> str:
    lines = value if isinstance(value, list) else [] if value is None else [value]
    if not all(isinstance(line, str) for line in lines):
        raise BadLine("'address' is neither text nor a list of text")
    if not isinstance(value, list):
        lines = lines[0].split("|") if lines else []
    return "\n".join(line for line in (clean_text(line) for line in lines) if line)


def _website(item: dict, report: LoadReport) -> str:
    """The website when it is an absolute http(s) URL whose domain fits its column; else "" (counted)."""
    value = item.get("website") or item.get("url")
    if value is None or value == "":
        return ""
    if not isinstance(value, str):
        raise BadLine(f"'website' is {type(value).__name__}, not text")
    url = safe_url(value)
    if url is None or len(registered_domain(url)) > (parishes.c.domain.type.length or 0):
        report.urls_dropped += 1
        return ""
    return url


_TSV_COLUMNS = {
    "Parafia": "name",
    "Miejscowość": "city",
    "Adres": "address",
    "Diecezja": "diocese",
    "Dekanat": "decanate",
    "Województwo": "voivodeship",
    "url": "website",
    "lat": "lat",
    "lng": "lng",
    "start_url": "start_url",
    "church": "church",
}


def _numbered_lines(path: Path, report: LoadReport) -> Iterator[tuple[int, str]]:
    """(number, text) of each line of a UTF-8 file (a BOM is dropped); a line that is not UTF-8 is reported
    and skipped. OSError (no such file, no permission, a read error) names the file and ends the load."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    reason = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                    report.bad_lines.append(f"{path}:{number}: {reason}")
                    continue
                yield number, text.rstrip("\r\n")
    except OSError as exc:  # a read error names no file: say which one
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _accepted(path: Path, number: int, report: LoadReport, parse: Callable, *args):
    """`parse(*args)`, counted in lines_ok; None (and the line listed in bad_lines) when it raises BadLine."""
    try:
        value = parse(*args)
    except BadLine as exc:
        report.bad_lines.append(f"{path}:{number}: {exc}")
        return None
    report.lines_ok += 1
    return value


def _json_object(line: str) -> dict:
    """One JSONL line as a dict; BadLine for anything else (not JSON, an array, a lone surrogate escape)."""
    try:
        item = json.loads(line)
    except RecursionError:
        raise BadLine("JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and int() of a number with thousands of digits
        raise BadLine(f"not JSON: {exc}") from None
    if not isinstance(item, dict):
        raise BadLine(f"a JSON {type(item).__name__}, not an object")
    if "\\u" in line:
        try:
            json.dumps(item, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BadLine("text with a lone surrogate (\\ud800…), not valid Unicode") from None
    return item


def read_parish_file(path: str | Path, report: LoadReport | None = None) -> Iterator[ParishRecord]:
    """Parish records from a deon/places TSV (by header names) or a JSONL of ParishItem/PlaceItem; a
    malformed line is listed in `report.bad_lines` and skipped. ValueError for a TSV without the name and
    city columns (the file is not what it was said to be: nothing of it is loaded)."""
    path = Path(path)
    report = report if report is not None else LoadReport()
    lines = _numbered_lines(path, report)
    if path.suffix in JSON_SUFFIXES:
        for number, line in lines:
            if line.strip():
                record = _accepted(path, number, report, _json_record, line, report)
                if record is not None:
                    yield record
        return
    # The exporter's TSV dialect (msze.utils.tsv): a quoted cell may hold tabs, newlines and quotes.
    bad_row = lambda n, why: report.bad_lines.append(f"{path}:{n}: {why}")  # noqa: E731
    rows = tsv.read_rows(((n, line + "\n") for n, line in lines), bad_row)
    _, header = next(rows, (0, None))
    if header is None:
        return
    keys = [_TSV_COLUMNS.get(column.strip()) for column in header]
    if "name" not in keys or "city" not in keys:
        raise ValueError(f"{path}: expected a TSV with columns Parafia and Miejscowość, got {header[:10]}")
    for number, cells in rows:
        item = {key: value for key, value in zip(keys, cells, strict=False) if key}
        record = _accepted(path, number, report, _record, item, report)
        if record is not None:
            yield record


def _json_record(line: str, report: LoadReport) -> ParishRecord:
    return _record(_json_object(line), report)


def _record(item: dict, report: LoadReport) -> ParishRecord:
    name, city = _text(item, "name", "name"), _text(item, "city", "city")
    church, start_url = _short(_text(item, "church"), 300) or "", _text(item, "start_url")
    if church and not start_url:
        raise BadLine("a church without its parish's start_url")
    if not name or not (city or church):
        raise BadLine("no parish name or city")
    return ParishRecord(
        name=name,
        city=city,
        address=_address(item.get("address")),
        decanate=_text(item, "decanate", "decanate"),
        diocese=_text(item, "diocese", "diocese"),
        voivodeship=_text(item, "voivodeship", "voivodeship"),
        website=_website(item, report),
        **_coordinates(item),
        church=church,
        start_url=start_url,
    )


def _coordinates(item: dict) -> dict[str, float | None]:
    """lat/lng of a places record (numbers in JSONL, text in TSV); None for a missing or impossible one."""
    out: dict[str, float | None] = {}
    for key, limit in (("lat", 90.0), ("lng", 180.0)):
        value = item.get(key)
        if isinstance(value, str):  # a TSV cell
            try:
                value = float(value)
            except ValueError:
                value = None
        out[key] = coordinate(value, limit)
    if out["lat"] is None or out["lng"] is None:
        return {"lat": None, "lng": None}
    return out


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
        if not record.website and record.lat is None:
            continue
        parish_id = by_identity.get(record.identity)
        if parish_id is None:
            candidates = by_name_city.get((record.name, record.city), [])
            parish_id = candidates[0] if len(candidates) == 1 else None
        if parish_id is None:
            report.websites_unmatched += 1
            continue
        values = _website_row(record.website) if record.website else {}
        if record.lat is not None:
            values |= {"lat": record.lat, "lng": record.lng}
        conn.execute(update(parishes).where(parishes.c.id == parish_id).values(**values))
        report.websites_set += bool(record.website)


@dataclass
class CrawlResult:
    """One checked line of results.jsonl: its join keys computed; its masses are checked one by one later."""

    host: str
    domain: str
    start_url: str  # as written; the source of a mass that names no page, when it is an http(s) URL
    crawled_at: datetime | None
    failed: bool
    error: str
    masses: list = field(default_factory=list)
    schedule: list | None = None  # the consolidated weekly schedule; None in a first-version results file
    one_off: list = field(default_factory=list)
    confession: list = field(default_factory=list)


def _crawl_result(line: str) -> CrawlResult:
    item = _json_object(line)
    start_url, domain = _text(item, "start_url"), _text(item, "domain")
    if not (start_url or domain):
        raise BadLine("no start_url or domain")
    try:
        host = host_of(start_url)
        domain = registered_domain(domain or host)
    except ValueError as exc:  # urlsplit: "http://[::1" -> "Invalid IPv6 URL"
        raise BadLine(f"start_url/domain is not a URL ({exc}): {(start_url or domain)[:80]!r}") from None
    crawled_at, masses = _text(item, "crawled_at"), item.get("masses")
    for key in ("masses", "schedule", "one_off", "confession"):
        if item.get(key) is not None and not isinstance(item[key], list):
            raise BadLine(f"'{key}' is {type(item[key]).__name__}, not a list")
    error = item.get("error")
    return CrawlResult(
        host=host,
        domain=domain,
        start_url=start_url,
        crawled_at=parse_timestamp(crawled_at),
        failed=_text(item, "status") == "failed",
        error=clean_text(str(error))[:2000] if error else "",
        masses=masses or [],
        schedule=item.get("schedule"),
        one_off=item.get("one_off") or [],
        confession=item.get("confession") or [],
    )


def _read_results(path: str | Path, report: LoadReport) -> Iterator[CrawlResult]:
    path = Path(path)
    for number, line in _numbered_lines(path, report):
        if line.strip():
            result = _accepted(path, number, report, _crawl_result, line)
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


def _entries(result: CrawlResult) -> Iterator[tuple[dict, str | None, dict]]:
    """(entry, day, evidence) for every day of every weekly entry: the consolidated `schedule`, else (a
    first-version file) `masses` with their day category spread over its days."""
    if result.schedule is not None:
        for entry in result.schedule:
            if not isinstance(entry, dict):
                yield entry, None, {}
                continue
            first = _first_evidence(entry)
            days = [d for d in entry.get("days") or () if d in DAYS] or [UNKNOWN_DAY]
            for day in days:
                yield entry, day, first
        return
    for mass in result.masses:
        days = LEGACY_DAYS.get(mass.get("day"), (UNKNOWN_DAY,)) if isinstance(mass, dict) else (None,)
        for day in days:
            yield mass, day, mass if isinstance(mass, dict) else {}


def _mass_rows(
    result: CrawlResult, parish_id: int, crawled_at: datetime | None, report: LoadReport
) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for mass, day, evidence in _entries(result):
        if not isinstance(mass, dict):
            report.times_skipped += 1
            continue
        time = normalize_time(mass.get("time"))
        if time is None:
            report.times_skipped += 1
            continue
        start_date, end_date = _iso_date(mass.get("start_date")), _iso_date(mass.get("end_date"))
        church, season = _short(mass.get("church"), 300), _short(mass.get("season"), 40)
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
        }
    return list(rows.values())


def _short(value: object, limit: int) -> str | None:
    """A cleaned text field of a result, None when absent or not text."""
    return clean_text(value)[:limit] or None if isinstance(value, str) else None


def _first_evidence(entry: dict) -> dict:
    """The first evidence of a schedule, one-off or confession entry ({} when it has none)."""
    evidence = entry.get("evidence")
    return evidence[0] if isinstance(evidence, list) and evidence and isinstance(evidence[0], dict) else {}


def _one_off_rows(result: CrawlResult, parish_id: int) -> list[dict]:
    rows = []
    for o in result.one_off:
        time = normalize_time(o.get("time")) if isinstance(o, dict) else None
        if time is None:
            continue
        date = o.get("date") if isinstance(o.get("date"), str) and len(o["date"]) in (5, 10) else None
        rows.append(
            {
                "parish_id": parish_id,
                "date": date,
                "time": time,
                "church": _short(o.get("church"), 300),
                "note": _short(o.get("note"), 500) or "",
                "source_url": safe_url(_first_evidence(o).get("url")),
            }
        )
    return rows


def _confession_rows(result: CrawlResult, parish_id: int) -> list[dict]:
    rows = []
    for c in result.confession:
        start = normalize_time(c.get("start")) if isinstance(c, dict) else None
        if start is None:
            continue
        days = [d for d in c.get("days") or () if d in DAYS]
        rows.append(
            {
                "parish_id": parish_id,
                "days": ",".join(days),
                "start": start,
                "end": normalize_time(c.get("end")),
                "church": _short(c.get("church"), 300),
                "season": _short(c.get("season"), 40),
                "source_url": safe_url(_first_evidence(c).get("url")),
            }
        )
    return rows


def _iso_date(value) -> str | None:
    """ "2026-07-01" stays; anything else is dropped (a season we cannot read is no season)."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10]).isoformat()
    except ValueError:
        return None


def load_results(conn: Connection, results: Iterable[CrawlResult], report: LoadReport, now: datetime) -> None:
    """Replace the times of each matched parish with those of a newer crawl, recording what changed."""
    sites = _Sites(conn)
    stored: dict[int, datetime | None] = {}  # latest crawl loaded per parish (finished or failed)
    times_from: dict[int, datetime | None] = {}  # the crawl the stored times came from
    for row in sites.rows:
        stored[row.id] = _aware(row.attempted_at)
        times_from[row.id] = _aware(row.crawled_at)

    for result in results:
        parish_ids = sites.parish_ids(result.host, result.domain)
        if not parish_ids:
            report.results_unmatched += 1
            continue
        crawled_at = result.crawled_at or now
        for parish_id in parish_ids:
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
                    .values(
                        attempted_at=crawled_at,
                        crawl_status="failed",
                        crawl_error=result.error,
                    )
                )
                report.results_failed += 1
                continue
            _replace_times(conn, parish_id, result, crawled_at, times_from.get(parish_id), report, now)
            times_from[parish_id] = crawled_at


class _Sites:
    """The parishes with a website, found by a crawl's host, else its registered domain."""

    def __init__(self, conn: Connection) -> None:
        p = parishes.c
        self.rows = conn.execute(
            select(p.id, p.website, p.domain, p.attempted_at, p.crawled_at, p.lat, p.lng).where(
                p.website.is_not(None)
            )
        ).all()
        self.by_host: dict[str, list[int]] = {}
        self.by_domain: dict[str, list[int]] = {}
        self.coordinates = {
            r.id: (r.lat, r.lng) for r in self.rows if r.lat is not None and r.lng is not None
        }
        for row in self.rows:
            self.by_host.setdefault(_stored_host(row.website), []).append(row.id)
            if row.domain:
                self.by_domain.setdefault(row.domain, []).append(row.id)

    def parish_ids(self, host: str, domain: str) -> list[int]:
        return (host and self.by_host.get(host)) or self.by_domain.get(domain) or []


CHURCH_MAX_KM = 25.0  # a chapel farther than this from its parish was found by a street name elsewhere


def load_churches(conn: Connection, records: Iterable[ParishRecord], report: LoadReport) -> None:
    """The located churches of `scrapy crawl places -a churches=` beside their parish (the one crawled from
    their `start_url`): a parish's churches in the file replace those stored for it. A place farther than
    CHURCH_MAX_KM from a parish with coordinates is another town's street of the same name: not stored."""
    sites = _Sites(conn)
    replaced: set[int] = set()
    for record in records:
        if not record.church or record.lat is None:
            continue
        try:
            host = host_of(record.start_url)
            parish_ids = sites.parish_ids(host, registered_domain(host))
        except ValueError:
            parish_ids = []
        if not parish_ids:
            report.churches_unmatched += 1
        for parish_id in parish_ids:
            if parish_id not in replaced:
                conn.execute(delete(churches).where(churches.c.parish_id == parish_id))
                replaced.add(parish_id)
            home = sites.coordinates.get(parish_id)
            if home and distance_km(home, (record.lat, record.lng)) > CHURCH_MAX_KM:
                report.churches_far += 1
                continue
            same = (churches.c.parish_id == parish_id) & (churches.c.name == record.church)
            conn.execute(delete(churches).where(same))  # a name twice in the file: the last place stands
            values = {"name": record.church, "address": record.address, "lat": record.lat, "lng": record.lng}
            conn.execute(insert(churches).values(parish_id=parish_id, **values))
            report.churches_located += 1


def _stored_host(website: str) -> str:
    """host_of a website already in the database; "" for one an older loader stored unparsable."""
    try:
        return host_of(website)
    except ValueError:
        return ""


def _aware(value: datetime | None) -> datetime | None:
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)  # SQLite returns naive datetimes
    return value


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
    rows = _mass_rows(result, parish_id, crawled_at, report)
    new = {f"{row['day']} {row['time']}" for row in rows}
    conn.execute(delete(mass_times).where(mass_times.c.parish_id == parish_id))
    if rows:
        conn.execute(insert(mass_times), rows)
    for table, extra in (
        (one_off_masses, _one_off_rows(result, parish_id)),
        (confession_times, _confession_rows(result, parish_id)),
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


def load(
    engine: Engine,
    parishes_path: str | Path | None = None,
    places_path: str | Path | None = None,
    results_path: str | Path | None = None,
    now: datetime | None = None,
    churches_path: str | Path | None = None,
) -> LoadReport:
    """Load whichever inputs are given, in one transaction. A malformed line is skipped and listed in
    `bad_lines`; a file that cannot be read or is not what it was said to be (OSError, ValueError) leaves the
    database as it was."""
    report = LoadReport()
    now = now or datetime.now(UTC)
    with engine.begin() as conn:
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
            load_results(conn, _read_results(results_path, report), report, now)
        if churches_path:
            load_churches(conn, read_parish_file(churches_path, report), report)
    return report
