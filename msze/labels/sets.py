"""The label sets of `data/`, each joined to its texts: pages (realpages format), parishes (realsites format),
and diocesan rows (read from the thesis's annotated-*.tsv by `source`)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from msze.archive.jsonl import read_numbered
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
    """Labelled pages with their text (realpages format); a record that carries its `text` is used as is."""
    pages = []
    for where, record in _records(paths):
        report.labels += 1
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
    """Labelled parishes with their pages' texts (realsites format); a parish missing a page is left out."""
    parishes = []
    for where, record in _records(paths):
        report.labels += 1
        pages = []
        for page in record.get("pages") or ():
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


def diocesan_text(sunday: str, weekday: str) -> str:
    """What a diocesan row's label is keyed by, and the page the rules read: both cells, one a line."""
    return f"{sunday}\n{weekday}"


def join_diocesan(
    paths: Sequence[str], report: JoinReport, thesis_dir: str | os.PathLike[str] = THESIS_DIR
) -> list[dict[str, Any]]:
    """Labelled diocesan rows as parishes of one page (realsites format): the row's Sunday and weekday texts
    read from the thesis file and line their `source` names, checked against the label's `sha256`."""
    rows: dict[str, dict[int, list[str]]] = {}
    parishes = []
    for _where, record in _records(paths):
        report.labels += 1
        name, _, line = str(record.get("source", "")).partition(":")
        if name not in rows:
            rows[name] = _tsv_rows(Path(thesis_dir, name))
        cells = rows[name].get(int(line)) if line.isdigit() else None
        if cells is None or len(cells) < 4:
            report.missing.append(f"{record.get('source')}")
            continue
        text = diocesan_text(cells[2], cells[3])
        if sha256(text) != record.get("sha256"):
            report.changed.append(f"{record.get('source')}")
            continue
        report.joined[str(thesis_dir)] = report.joined.get(str(thesis_dir), 0) + 1
        page = {"url": cells[1] or f"{name}:{line}", "text": text}
        parishes.append({**record, "id": record["source"], "host": "", "pages": [page]})
    return parishes


def _tsv_rows(path: Path) -> dict[int, list[str]]:
    """Line number -> cells of a thesis TSV (QUOTE_NONE: split on tabs); {} when the file is absent."""
    if not path.is_file():
        return {}
    with path.open(encoding="utf-8") as f:
        return {n: line.rstrip("\r\n").split("\t") for n, line in enumerate(f, 1)}
