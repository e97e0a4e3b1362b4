"""The label sets of `data/`, each joined to its texts: pages (realpages format), parishes (realsites format),
and diocesan rows (read from the thesis's annotated-*.tsv by `source`)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from msze.archive.jsonl import read_numbered
from msze.labels.heldout import HeldOut
from msze.labels.texts import DATA_DIR, SHARED_TEXTS, JoinReport, TextStore, sha256

THESIS_DIR = f"{SHARED_TEXTS}/thesis"


def label_files(kind: str, data_dir: str | os.PathLike[str] = DATA_DIR) -> list[str]:
    """The label files of one set of `data/` ("realpages", "realsites", "diocesan"), sorted."""
    return [str(p) for p in sorted(Path(data_dir, kind).glob("*.jsonl"))]


def _records(paths: Iterable[str]) -> Iterable[tuple[str, dict[str, Any]]]:
    for path in paths:

        def broken(n: int, _line: str, path: str = path) -> None:
            raise ValueError(f"{path}:{n}: not a JSON object")

        for n, record in read_numbered(path, broken):
            yield f"{path}:{n}", record


def join_pages(paths: Sequence[str], store: TextStore, report: JoinReport) -> list[dict[str, Any]]:
    """Labelled pages with their text (realpages format); a record that carries its `text` is used as is.
    A page of a held-out host is left out (listed in `report.held_out`)."""
    pages = []
    held = HeldOut.load()
    for where, record in _records(paths):
        report.labels += 1
        if held.host(record.get("url") or ""):
            report.held_out.append(f"{record.get('id', where)} {record.get('url')}")
            continue
        if "text" not in record:
            text = store.get(
                str(record.get("id", where)), record.get("url", ""), record.get("sha256", ""), report
            )
            if text is None:
                continue
            record = {**record, "text": text}
        pages.append(record)
    return pages


def join_sites(paths: Sequence[str], store: TextStore, report: JoinReport) -> list[dict[str, Any]]:
    """Labelled parishes with their pages' texts (realsites format); a parish missing a page, or with a page
    of a held-out host, is left out. A line that is no parish is a ValueError naming the file and line."""
    parishes = []
    held = HeldOut.load()
    for where, record in _records(paths):
        if not isinstance(record.get("pages"), list) or not isinstance(record.get("masses"), list):
            raise ValueError(f"{where}: not a parish of the realsites format: pages and masses must be lists")
        report.labels += 1
        if any(held.host(page.get("url") or "") for page in record["pages"]):
            report.held_out.append(f"{record.get('id', where)} {record.get('host')}")
            continue
        pages = []
        for page in record["pages"]:
            if "text" in page:
                pages.append(page)
                continue
            text = store.get(
                str(record.get("id", where)), page.get("url", ""), page.get("sha256", ""), report
            )
            if text is None:
                break
            pages.append({"url": page["url"], "text": text})
        else:
            parishes.append({**record, "pages": pages})
    return parishes


# What each column of the thesis's annotated-*.tsv holds. The Poznań file writes it in every cell ("Msze św.
# w niedziele: …"); the Warsaw file does not ("8.00, 10.00, 12.00"): there the column is the heading.
COLUMN_HEADINGS = ("Msze św. w niedziele:", "Msze św. w dni powszednie:")
_HEADED_RE = re.compile(r"\s*msz", re.IGNORECASE)


def diocesan_text(sunday: str, weekday: str) -> str:
    """What a diocesan row's label is keyed by (its SHA-256): both cells as written, one a line."""
    return f"{sunday}\n{weekday}"


def diocesan_page(sunday: str, weekday: str) -> str:
    """The page the rules read for a diocesan row: each cell under its column's heading, unless the cell
    begins with one of its own."""
    cells = (sunday, weekday)
    return "\n".join(
        cell if _HEADED_RE.match(cell) or not cell.strip() else f"{heading} {cell}"
        for heading, cell in zip(COLUMN_HEADINGS, cells, strict=True)
    )


def join_diocesan(
    paths: Sequence[str], report: JoinReport, thesis_dir: str | os.PathLike[str] = THESIS_DIR
) -> list[dict[str, Any]]:
    """Labelled diocesan rows as parishes of one page (realsites format): the row's Sunday and weekday texts
    read from the thesis file and line their `source` names, checked against the label's `sha256`. A row
    held out, or of a held-out host, is left out."""
    rows: dict[str, dict[int, list[str]]] = {}
    parishes = []
    held = HeldOut.load(Path(thesis_dir).parent)
    for _where, record in _records(paths):
        report.labels += 1
        source = str(record.get("source", ""))
        name, _, line = source.partition(":")
        if name not in rows:
            rows[name] = _tsv_rows(Path(thesis_dir, name))
        cells = rows[name].get(int(line)) if line.isdigit() else None
        if held.row(source) or (cells is not None and len(cells) > 1 and held.host(cells[1])):
            report.held_out.append(source)
            continue
        if cells is None or len(cells) < 4:
            report.missing.append(source)
            continue
        text = diocesan_text(cells[2], cells[3])
        if sha256(text) != record.get("sha256"):
            report.changed.append(f"{record.get('source')}")
            continue
        report.joined[str(thesis_dir)] = report.joined.get(str(thesis_dir), 0) + 1
        page = {"url": cells[1] or f"{name}:{line}", "text": diocesan_page(cells[2], cells[3])}
        parishes.append({**record, "id": record["source"], "host": "", "pages": [page]})
    return parishes


def _tsv_rows(path: Path) -> dict[int, list[str]]:
    """Line number -> cells of a thesis TSV (QUOTE_NONE: split on tabs); {} when the file is absent."""
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as f:
        return {n: line.rstrip("\r\n").split("\t") for n, line in enumerate(f, 1)}


def labelled_pages(path: str | os.PathLike[str], log: Any = None) -> list[dict[str, Any]]:
    """The pages of one realpages-style file (labels with or without their text), texts joined and held-out
    hosts left out; what could not be used is told to `log`."""
    report = JoinReport()
    pages = join_pages([str(path)], TextStore(), report)
    if log is not None and (report.missing or report.changed or report.held_out):
        log(f"{path}: left out {len(report.missing)} without text, {len(report.changed)} changed, "
            f"{len(report.held_out)} held out")  # fmt: skip
    return pages


def annotated_rows(path: str | os.PathLike[str]) -> list[dict[str, str]]:
    """The rows of a thesis annotated-*.tsv by its header, less the held-out rows and hosts."""
    path = Path(path)
    held = HeldOut.load(path.parent.parent)
    rows = _tsv_rows(path)
    header = rows.pop(1, [])
    out = []
    for number, cells in rows.items():
        row = dict(zip(header, cells, strict=False))
        if not held.row(f"{path.name}:{number}") and not held.host(row.get("url") or ""):
            out.append(row)
    return out


DEFAULT_ANNOTATED = (f"{THESIS_DIR}/annotated-poznan.tsv", f"{THESIS_DIR}/annotated-warszawa.tsv")
DEFAULT_ANNOTATED_MAX = 300  # list-style texts, nearly all positive: msze/models/README.md says why 300
