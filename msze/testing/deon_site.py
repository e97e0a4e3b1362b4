"""A fake of the deon.pl parish directory, generated from rows of the thesis's deon.fixed.tsv.

Serves what the thesis crawl met: listing pages `/parafie-koscioly/` and `/parafie-koscioly/strona,N.html`
(table rows: `td.temat` with the link and name, then city, voivodeship, diocese, decanate; a "następna" link
with rel=next), parish pages with an `adres adres2` element followed by `div.row` holding the address lines.
Two deliberate faults: one listing page answers 503 `fail_times` times before it works, and a row whose
trailing cells are empty is sent without those `<td>`s (a missing cell). Non-breaking spaces go out as
`&nbsp;`.

The rows themselves are read by path at run time (thesis data, GPL-3.0); nothing of them is stored here.
"""

from __future__ import annotations

import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from msze.directory.deon_parser import (
    ADDRESS_SEPARATOR,
    parish_record,
    parse_address,
    parse_listing,
    read_tsv,
)
from msze.testing import FakeServer, QuietHandler

# The thesis data sits in shared/ beside the repository (or where MSZE_SHARED_DATA says); read, never copied.
_BESIDE_REPO = Path(__file__).resolve().parents[3] / "shared" / "data"
SHARED_DATA = Path(os.environ.get("MSZE_SHARED_DATA") or _BESIDE_REPO)
DEFAULT_TSV = SHARED_DATA / "thesis" / "deon.fixed.tsv"
LISTING_PATH = "/parafie-koscioly/"


def sample_rows(
    path: str | Path = DEFAULT_TSV, n: int = 25, with_missing_cell: bool = True
) -> list[dict[str, Any]]:
    """The first `n` parishes of a thesis TSV, plus (if none of them has one) the first row with an empty
    decanate, so the fake has a real row to send with a missing cell."""
    rows: list[dict[str, Any]] = []
    extra = None
    for record in read_tsv(path):
        if len(rows) < n:
            rows.append(record)
            continue
        if not with_missing_cell or any(not r["decanate"] for r in rows):
            break
        if not record["decanate"]:
            extra = record
            break
    if extra is not None:
        rows.append(extra)
    return rows


def _text(value: str) -> str:
    return html.escape(value, quote=False).replace("\xa0", "&nbsp;")


def listing_path(page: int) -> str:
    return LISTING_PATH if page == 1 else f"{LISTING_PATH}strona,{page}.html"


def parish_path(index: int) -> str:
    return f"{LISTING_PATH}parafia,{index + 1}.html"


def render_listing(rows: Sequence[dict[str, Any]], first_index: int, page: int, pages: int) -> str:
    """A listing page in deon's table layout; trailing empty cells are left out (the "missing cell" row)."""
    trs = []
    for offset, row in enumerate(rows):
        cells = [row["city"], row["voivodeship"], row["diocese"], row["decanate"]]
        while cells and not cells[-1]:
            cells.pop()
        tds = "".join(f"<td>{_text(c)}</td>" for c in cells)
        href = parish_path(first_index + offset)
        trs.append(f'<tr><td class="temat"><a href="{href}">{_text(row["name"])}</a></td>{tds}</tr>')
    nav = []
    if page > 1:
        nav.append(f'<a href="{listing_path(page - 1)}">poprzednia</a>')
    nav.append(f"<span>strona {page} z {pages}</span>")
    if page < pages:
        nav.append(f'<a rel="next" href="{listing_path(page + 1)}">następna</a>')
    return (
        '<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><title>Parafie i kościoły</title></head>'
        '<body><h1>Parafie i kościoły</h1><table class="parafie"><thead><tr><th>Parafia</th>'
        "<th>Miejscowość</th><th>Województwo</th><th>Diecezja</th><th>Dekanat</th></tr></thead><tbody>"
        + "\n".join(trs)
        + '</tbody></table><div class="pager">'
        + " ".join(nav)
        + "</div></body></html>"
    )


def render_parish(row: dict[str, Any]) -> str:
    """A parish page: heading, `.adres.adres2` label, then `div.row` with one address line per `<br>`."""
    lines = row["address"] if isinstance(row["address"], list) else row["address"].split(ADDRESS_SEPARATOR)
    body = "<br>\n".join(_text(line) for line in lines)
    return (
        '<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8">'
        f"<title>{_text(row['name'])}</title></head>"
        f'<body><h1>Parafia {_text(row["name"])}</h1><div class="box"><div class="adres adres2">Adres:</div>'
        f'<div class="row">{body}</div><div class="row">Diecezja: {_text(row["diocese"])}</div>'
        "</div></body></html>"
    )


FIELDS = ("name", "city", "address", "diocese", "decanate", "voivodeship")


def roundtrip(
    rows: Sequence[dict[str, Any]], page_size: int = 10
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Render rows as the fake serves them and parse them back as the spider does: the rows that differ.

    Run over the whole thesis file (`scripts/fake_deon.py --check`), it tells how faithful the parsing is
    without a crawl.
    """
    differ = []
    for start in range(0, len(rows), page_size):
        chunk = rows[start : start + page_size]
        page = parse_listing(render_listing(chunk, start, 1, 1), "http://deon.test" + LISTING_PATH)
        for row, listed in zip(chunk, page.rows, strict=True):
            record = parish_record(listed, parse_address(render_parish(row)))
            if any(record[f] != row[f] for f in FIELDS):
                differ.append((row, record))
    return differ


class FakeDeon(FakeServer):
    """The directory over `rows`, `page_size` per listing page; page `fail_page` fails `fail_times`;
    the parish pages of `broken_parishes` (row indexes) always fail."""

    def __init__(
        self,
        rows: Sequence[dict[str, Any]],
        page_size: int = 10,
        fail_page: int | None = 2,
        fail_times: int = 2,
        broken_parishes: set[int] | frozenset[int] = frozenset(),
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(host, port)
        self.rows = list(rows)
        self.page_size = page_size
        self.pages = max(1, -(-len(self.rows) // page_size))
        self.fail_page = fail_page if fail_page and fail_page <= self.pages else None
        self.fail_times = fail_times
        self._failures_left = fail_times
        self.broken_parishes = set(broken_parishes)  # row indexes whose parish page always answers 503

    @property
    def start_url(self) -> str:
        return self.base_url + LISTING_PATH

    def respond(self, path: str) -> tuple[int, str]:
        """(status, HTML) for a path; the 503s of the failing page are counted down here."""
        if path == LISTING_PATH or path.startswith(f"{LISTING_PATH}strona,"):
            try:
                page = (
                    1
                    if path == LISTING_PATH
                    else int(path.removeprefix(f"{LISTING_PATH}strona,").split(".")[0])
                )
            except ValueError:
                return 404, "<h1>404</h1>"
            if not 1 <= page <= self.pages:
                return 404, "<h1>404</h1>"
            if page == self.fail_page and self._failures_left > 0:
                self._failures_left -= 1
                return 503, "<h1>503 Service Unavailable</h1>"
            start = (page - 1) * self.page_size
            return 200, render_listing(self.rows[start : start + self.page_size], start, page, self.pages)
        if path.startswith(f"{LISTING_PATH}parafia,"):
            try:
                index = int(path.removeprefix(f"{LISTING_PATH}parafia,").split(".")[0]) - 1
            except ValueError:
                return 404, "<h1>404</h1>"
            if index in self.broken_parishes:
                return 503, "<h1>503 Service Unavailable</h1>"
            if 0 <= index < len(self.rows):
                return 200, render_parish(self.rows[index])
        return 404, "<h1>404</h1>"

    class handler_class(QuietHandler):  # noqa: N801 - FakeServer's hook
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            fake: FakeDeon = self.server_fake
            path = urlsplit(self.path).path
            with fake._lock:
                status, page = fake.respond(path)
            fake.log("GET", path, status)
            self.send_body(status, page.encode("utf-8"), "text/html; charset=utf-8")
