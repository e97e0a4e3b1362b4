"""The deon.pl parish directory: parse its listing and parish pages, and read/write the thesis TSV layout.

Pure functions over HTML strings (parsel selectors, no Scrapy), so the spider stays a thin adapter and the
parsing is tested on snippets. The TSV layout is the thesis's `deon.fixed.tsv` (`Parafia, Miejscowość, Adres,
Diecezja, Dekanat, Województwo`, address lines joined with `|`) and, for the places stage, `extended.tsv`
(`Parafia, Miejscowość, url, Adres, Diecezja, Dekanat, Województwo, place_id, status`; the thesis header
leaves the 9th column, status, unlabelled).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from parsel import Selector

from msze.archive.jsonl import read_objects
from msze.utils import tsv

# Thesis column names -> item field names, in file order.
PARISH_COLUMNS: list[tuple[str, str]] = [
    ("Parafia", "name"),
    ("Miejscowość", "city"),
    ("Adres", "address"),
    ("Diecezja", "diocese"),
    ("Dekanat", "decanate"),
    ("Województwo", "voivodeship"),
]
PLACE_COLUMNS: list[tuple[str, str]] = [
    ("Parafia", "name"),
    ("Miejscowość", "city"),
    ("url", "url"),
    ("Adres", "address"),
    ("Diecezja", "diocese"),
    ("Dekanat", "decanate"),
    ("Województwo", "voivodeship"),
    ("place_id", "place_id"),
    ("status", "status"),
    ("lat", "lat"),
    ("lng", "lng"),
]
CHURCH_COLUMNS: list[tuple[str, str]] = [*PLACE_COLUMNS, ("start_url", "start_url"), ("church", "church")]
ADDRESS_SEPARATOR = "|"
# Listing cells after `td.temat`, in page order.
LISTING_CELLS = ("city", "voivodeship", "diocese", "decanate")

# Only ASCII whitespace is squeezed: deon's names keep their non-breaking spaces, and the thesis TSV has them.
_SPACES = re.compile(r"[ \t\r\n]+")
_NEXT_TEXT = re.compile(r"^\s*(następn[aey]|dalej|next|›|»|>)\s*", re.IGNORECASE)


def clean(text: str | None) -> str:
    """Squeeze and trim ASCII whitespace; non-breaking spaces stay, as deon has them."""
    if not text:
        return ""
    return _SPACES.sub(" ", text).strip(" ")


@dataclass(frozen=True)
class ListingRow:
    """One row of a deon listing page: the parish link and the cells that follow it."""

    url: str
    name: str
    city: str = ""
    voivodeship: str = ""
    diocese: str = ""
    decanate: str = ""
    missing_cells: int = 0  # how many of the four cells after td.temat were absent


@dataclass(frozen=True)
class ListingPage:
    """What a listing page yields: its parish rows and the URL of the next page (None on the last one)."""

    rows: list[ListingRow] = field(default_factory=list)
    next_url: str | None = None


def parse_listing(html: str, base_url: str) -> ListingPage:
    """Parse a listing page: each table row whose `td.temat` holds a link; the page's own "next" link.

    A row with fewer than four cells after `td.temat` is kept with empty values (counted in `missing_cells`);
    a row without a link is skipped.
    """
    sel = Selector(text=html, base_url=base_url)
    rows: list[ListingRow] = []
    for tr in sel.xpath("//tr[td[contains(concat(' ', normalize-space(@class), ' '), ' temat ')]]"):
        temat = tr.xpath("td[contains(concat(' ', normalize-space(@class), ' '), ' temat ')][1]")
        href = temat.xpath(".//a/@href").get()
        if not href:
            continue
        name = clean("".join(temat.xpath(".//a[1]//text()").getall()))
        cells = [
            clean("".join(td.xpath(".//text()").getall()))
            for td in temat.xpath("following-sibling::td")[: len(LISTING_CELLS)]
        ]
        values = dict(zip(LISTING_CELLS, cells, strict=False))
        rows.append(
            ListingRow(
                url=urljoin(base_url, href.strip()),
                name=name,
                missing_cells=len(LISTING_CELLS) - len(cells),
                **values,
            )
        )
    return ListingPage(rows=rows, next_url=find_next_url(sel, base_url))


def find_next_url(sel: Selector, base_url: str) -> str | None:
    """The page's own link to the next listing page: `rel=next`, a `next` class, or a "następna"/"»" link."""
    for xpath in (
        "//link[@rel='next']/@href",
        "//a[@rel='next']/@href",
        "//a[contains(concat(' ', normalize-space(@class), ' '), ' next ')]/@href",
        "//*[contains(concat(' ', normalize-space(@class), ' '), ' next ')]//a/@href",
    ):
        href = sel.xpath(xpath).get()
        if href:
            return urljoin(base_url, href.strip())
    for a in sel.xpath("//a[@href]"):
        if _NEXT_TEXT.match(clean("".join(a.xpath(".//text()").getall())) or "x"):
            return urljoin(base_url, a.attrib["href"].strip())
    return None


def parse_address(html: str) -> list[str]:
    """The address lines of a parish page: the text lines of the `div.row` right after `.adres.adres2`.

    Lines are split on `<br>`/block boundaries (each text node is one line); empty lines are dropped.
    """
    sel = Selector(text=html)
    row = sel.xpath(
        "//*[contains(concat(' ', normalize-space(@class), ' '), ' adres ')"
        " and contains(concat(' ', normalize-space(@class), ' '), ' adres2 ')]"
        "/following-sibling::div[contains(concat(' ', normalize-space(@class), ' '), ' row ')][1]"
    )
    if not row:
        return []
    lines = (clean(text) for text in row[0].xpath(".//text()").getall())
    return [line for line in lines if line]


def parish_record(row: ListingRow, address: list[str], deon_url: str | None = None) -> dict[str, Any]:
    """The ParishItem fields for one parish: listing cells plus the parish page's address lines."""
    return {
        "name": row.name,
        "city": row.city,
        "address": list(address),
        "diocese": row.diocese,
        "decanate": row.decanate,
        "voivodeship": row.voivodeship,
        "deon_url": deon_url or row.url,
    }


# --- TSV and JSONL ------------------------------------------------------------------------------------


def columns_for(record: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The thesis layout for a record: extended.tsv when it has places fields, else deon.fixed.tsv; a
    church's places record adds its parish's start_url and its name."""
    if record.get("church"):
        return CHURCH_COLUMNS
    return PLACE_COLUMNS if any(k in record for k in ("url", "place_id", "status")) else PARISH_COLUMNS


def to_tsv_row(record: Mapping[str, Any], columns: list[tuple[str, str]]) -> list[str]:
    """A record as TSV cells: address lines joined with `|`, missing values as empty cells."""
    cells = []
    for _, key in columns:
        value = record.get(key)
        if key == "address" and isinstance(value, list | tuple):
            value = ADDRESS_SEPARATOR.join(value)
        cells.append("" if value is None else str(value))
    return cells


def tsv_header(columns: list[tuple[str, str]]) -> list[str]:
    return [title for title, _ in columns]


def write_tsv(path: str | Path, records: Iterable[Mapping[str, Any]], columns: list[tuple[str, str]]) -> int:
    """Write records with a header line in the given layout; return the number of rows."""
    with open(path, "w", encoding="utf-8", newline="") as f:
        tsv.write_rows(f, [tsv_header(columns)])
        return tsv.write_rows(f, (to_tsv_row(record, columns) for record in records))


def _record_from_cells(header: list[str], cells: list[str]) -> dict[str, Any]:
    titles = {title: key for title, key in CHURCH_COLUMNS}
    record: dict[str, Any] = {}
    for i, title in enumerate(header):
        key = titles.get(title)
        if key is None or i >= len(cells):
            continue
        record[key] = cells[i]
    # extended.tsv's header has 8 names but its rows 9 cells: the unlabelled last one is the status.
    if "status" not in record and len(cells) == len(header) + 1 and header and header[-1] == "place_id":
        record["status"] = cells[-1]
    if "address" in record:
        record["address"] = record["address"].split(ADDRESS_SEPARATOR) if record["address"] else []
    for _, key in PARISH_COLUMNS:
        record.setdefault(key, [] if key == "address" else "")
    return record


def read_tsv(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records of a thesis-layout TSV (deon.fixed.tsv or extended.tsv, or this project's output of either).

    Columns are found by their header names; rows with the wrong number of cells are skipped (extended.tsv
    has a few hundred garbled NOT_FOUND rows with 11 cells).
    """
    rows = tsv.open_rows(str(path))
    _, header = next(rows, (0, None))
    if header is None:
        return
    for _, cells in rows:
        if cells and len(cells) in (len(header), len(header) + 1):
            yield _record_from_cells(header, cells)


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records of a TSV or JSONL file, chosen by the file's first non-blank character (`{` means JSONL)."""
    with open(path, encoding="utf-8-sig") as f:
        head = f.read(4096).lstrip()
    if head.startswith("{"):
        return read_objects(path)
    return read_tsv(path)


def parish_key(record: Mapping[str, Any]) -> tuple[str, str, str]:
    """Identity of a parish across stages: names repeat (several "Bł. Czesława"), name+city+address do not."""
    address = record.get("address") or []
    if isinstance(address, str):
        address = address.split(ADDRESS_SEPARATOR)
    return (
        clean(str(record.get("name") or "")),
        clean(str(record.get("city") or "")),
        ADDRESS_SEPARATOR.join(clean(line) for line in address),
    )
