"""Reading JSONL files that a crawl may have been killed in the middle of writing."""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Callable, Iterator
from typing import Any


def read_numbered(
    path: str | os.PathLike[str], on_bad: Callable[[int, str], None] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for the JSON objects of a JSONL file (plain or .gz), in order.

    Blank lines are skipped; so is a torn line (a crawl killed mid-write), a line that is not an object, or
    the torn end of a .gz cut short, after `on_bad(line_number, line)` is told of it: what was written
    before is never lost to one bad line.
    """
    opener = gzip.open if os.fspath(path).endswith(".gz") else open
    number = 0
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        try:
            for number, raw in enumerate(f, 1):
                line = raw.strip()
                if not line:
                    continue
                try:
                    obj = json.loads(line)
                except (json.JSONDecodeError, RecursionError):  # not JSON; nested past the parser's depth
                    obj = None
                if isinstance(obj, dict):
                    yield number, obj
                elif on_bad is not None:
                    on_bad(number, line)
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:  # a .gz cut short or corrupt at its end
            if on_bad is not None:
                on_bad(number + 1, f"<gzip stream cut short: {exc}>")


def read_objects(
    path: str | os.PathLike[str], on_bad: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL file (plain or .gz), in order; bad lines go to `on_bad(line)` (see
    read_numbered)."""
    report = (lambda _number, line: on_bad(line)) if on_bad is not None else None
    for _number, obj in read_numbered(path, report):
        yield obj
