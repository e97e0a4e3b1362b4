"""The project's TSV, written and read with one dialect, the csv module's: the thesis files' layout.

A cell is quoted only when it must be (a tab, a quote, "\\r" or "\\n" in it; quotes inside doubled), so the
thesis's deon.fixed.tsv and extended.tsv, which quote two names that way (a split on tabs kept their quotes)
and nothing else, read right. What `write_rows` writes `read_rows` gives back cell for cell: a name keeps no
extra quotes, a tab or newline inside a cell no longer splits its row. Lines end "\\n".

A line the csv module cannot read (a stray "\\r" outside quotes, as a hand-edited QUOTE_NONE file may have)
is taken as its plain tab-separated cells, as such files mean. A leading "=" is data: the files are for
loading, not spreadsheets, and escaping it would change the name a parish is matched by.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Iterator
from typing import TextIO


class Dialect(csv.excel_tab):
    """Tabs, minimal quoting with doubled quotes (excel-tab), lenient about a quote inside an unquoted cell.

    The writer quotes a cell for the characters of its lineterminator only: "\\r\\n" makes it quote both "\\r"
    and "\\n" ("\\n" alone would leave a bare "\\r" that splits the row when read); `format_row` then ends the
    line with "\\n" alone.
    """

    lineterminator = "\r\n"
    quoting = csv.QUOTE_MINIMAL


BadRow = Callable[[int, str], None]  # (line number, reason) of a row that could not be read


def format_row(cells: Iterable[object]) -> str:
    """One row as a line of TSV ending "\\n"."""
    buffer = io.StringIO()
    csv.writer(buffer, Dialect).writerow(cells)
    return buffer.getvalue().removesuffix(Dialect.lineterminator) + "\n"


def write_rows(handle: TextIO, rows: Iterable[Iterable[object]]) -> int:
    """Write `rows` to a text file (opened with newline=""); return how many."""
    count = 0
    for cells in rows:
        handle.write(format_row(cells))
        count += 1
    return count


def read_rows(
    lines: Iterable[tuple[int, str]], bad_row: BadRow | None = None
) -> Iterator[tuple[int, list[str]]]:
    """(line number, cells) of each row of numbered lines that keep their ends (a file opened with
    newline="\\n", so that only "\\n" ends a line, enumerated from 1). A quoted cell may span lines: the
    number is the row's first. A row csv cannot read is one line's tab-separated cells, or, spanning lines,
    passed to `bad_row` and skipped."""
    fed: list[tuple[int, str]] = []  # the lines the current row was read from

    def feed() -> Iterator[str]:
        for number, line in lines:
            fed.append((number, line))
            yield line

    reader = csv.reader(feed(), Dialect)
    while True:
        fed.clear()
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            if len(fed) == 1:
                yield fed[0][0], fed[0][1].rstrip("\r\n").split("\t")
            elif bad_row is not None:
                bad_row(fed[0][0] if fed else 0, f"not a TSV row: {exc}")
            continue
        yield fed[0][0], cells


def open_rows(path: str, bad_row: BadRow | None = None) -> Iterator[tuple[int, list[str]]]:
    """`read_rows` of a UTF-8 file (a BOM is dropped)."""
    with open(path, encoding="utf-8-sig", newline="\n") as handle:
        yield from read_rows(enumerate(handle, 1), bad_row)
