"""Parishes from the deon stage and their websites and coordinates from the places stage."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Connection, insert, select, update

from msze.directory.places_api import coordinate
from msze.search.db import clean_text, parishes, town_key
from msze.search.loader.lines import (
    JSON_SUFFIXES,
    BadLine,
    LoadReport,
    accepted,
    json_object,
    numbered_lines,
    short,
    text_field,
)
from msze.search.urls import safe_url
from msze.utils import tsv
from msze.utils.text import fold
from msze.utils.urls import host_of
from msze.utils.urls import registered_domain as _registered_domain


def registered_domain(url_or_host: str | None) -> str:
    """The domain a registry sold: "sw-jan.parafia.com.pl" -> "parafia.com.pl"; IPs and one-label hosts as is.

    The host is taken first (bare hosts accepted, "www." dropped), then the crawler's crawling.links
    (public suffix list) names the domain, so the join key is computed exactly as the batch's `domain` field.
    """
    return _registered_domain(host_of(url_or_host))


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


def read_parish_file(path: str | Path, report: LoadReport | None = None) -> Iterator[ParishRecord]:
    """Parish records from a deon/places TSV (by header names) or a JSONL of ParishItem/PlaceItem; a
    malformed line is listed in `report.bad_lines` and skipped. ValueError for a TSV without the name and
    city columns (the file is not what it was said to be: nothing of it is loaded)."""
    path = Path(path)
    report = report if report is not None else LoadReport()
    lines = numbered_lines(path, report)
    if path.suffix in JSON_SUFFIXES:
        for number, line in lines:
            if line.strip():
                record = accepted(path, number, report, _json_record, line, report)
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
        record = accepted(path, number, report, _record, item, report)
        if record is not None:
            yield record


def _json_record(line: str, report: LoadReport) -> ParishRecord:
    return _record(json_object(line), report)


def _record(item: dict, report: LoadReport) -> ParishRecord:
    name, city = text_field(item, "name", "name"), text_field(item, "city", "city")
    church, start_url = short(text_field(item, "church"), 300) or "", text_field(item, "start_url")
    if church and not start_url:
        raise BadLine("a church without its parish's start_url")
    if not name or not (city or church):
        raise BadLine("no parish name or city")
    return ParishRecord(
        name=name,
        city=city,
        address=_address(item.get("address")),
        decanate=text_field(item, "decanate", "decanate"),
        diocese=text_field(item, "diocese", "diocese"),
        voivodeship=text_field(item, "voivodeship", "voivodeship"),
        website=_website(item, report),
        **_coordinates(item, report),
        church=church,
        start_url=start_url,
    )


def _coordinates(item: dict, report: LoadReport) -> dict[str, float | None]:
    """lat/lng of a places record (numbers in JSONL, text in TSV); None for a missing one. An impossible one
    (NaN, inf, 1e308, 400 digits, "50,07", out of range) is counted and listed in `coordinates_dropped`."""
    out: dict[str, float | None] = {}
    for key, limit in (("lat", 90.0), ("lng", 180.0)):
        value = item.get(key)
        if value is None or value == "":
            out[key] = None
            continue
        try:
            out[key] = coordinate(float(value) if isinstance(value, str) else value, limit)
        except (ValueError, OverflowError):  # "50,07"; an integer too large for a float
            out[key] = None
        if out[key] is None:
            report.coordinates_dropped.append(f"{item.get('name')!r}: {key} {str(value)[:40]!r}")
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
            # One INSERT for the batch takes its columns from the first row: rows with and without a
            # website (a places file) must all name them.
            batch.append({"website": None, "domain": None} | row)
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
