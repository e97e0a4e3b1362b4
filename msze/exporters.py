"""Feed exporters for the directory stages: the thesis TSV layout, and JSON lines flushed per item.

Registered in FEED_EXPORTERS as `tsv` (any spider: `-o parishes.tsv:tsv`) and, in the places spider, `jsonl`/
`jsonlines`/`jl` are the flushing variant. Both flush after every item so a crash of a long, paid places run
loses nothing that was already answered; both write a header only into an empty file, so appending (`-o`, not
`-O`) to the previous run's output resumes it.
"""

from __future__ import annotations

from typing import IO, Any

from itemadapter import ItemAdapter
from scrapy.exporters import BaseItemExporter, JsonLinesItemExporter

from msze.directory.deon_parser import PARISH_COLUMNS, columns_for, to_tsv_row, tsv_header
from msze.utils.tsv import format_row


def _is_empty(file: IO[bytes]) -> bool:
    try:
        return file.tell() == 0
    except (OSError, ValueError):
        return True


class TsvItemExporter(BaseItemExporter):
    """Thesis layout: deon.fixed.tsv for ParishItem, extended.tsv (+ a `status` header) for PlaceItem."""

    def __init__(self, file: IO[bytes], **kwargs: Any) -> None:
        super().__init__(dont_fail=True, **kwargs)
        self.file = file
        self.encoding = self.encoding or "utf-8"
        self.columns: list[tuple[str, str]] | None = None
        self._write_header = _is_empty(file)

    def _write(self, text: str) -> None:
        self.file.write(text.encode(self.encoding))

    def _start(self, columns: list[tuple[str, str]]) -> list[tuple[str, str]]:
        self.columns = columns
        if self._write_header:
            self._write(format_row(tsv_header(columns)))
        return columns

    def export_item(self, item: Any) -> None:
        record = ItemAdapter(item).asdict()
        columns = self.columns or self._start(columns_for(record))
        self._write(format_row(to_tsv_row(record, columns)))
        self.file.flush()

    def finish_exporting(self) -> None:
        # No item at all: still leave a readable (header-only) file behind.
        if self.columns is None:
            self._start(PARISH_COLUMNS)
        self.file.flush()


class FlushingJsonLinesItemExporter(JsonLinesItemExporter):
    """Scrapy's JSON lines, flushed after every item."""

    def export_item(self, item: Any) -> None:
        super().export_item(item)
        self.file.flush()
