"""Reading JSONL files that a crawl may have been killed in the middle of writing."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Callable, Iterator
from typing import Any


def read_objects(
    path: str | os.PathLike[str], on_bad: Callable[[str], None] | None = None
) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSONL file (plain or .gz), in order.

    Blank lines are skipped; so is a torn line (a crawl killed mid-write) or a line that is not an object,
    after `on_bad(line)` is told of it: what was written before is never lost to one bad line.
    """
    opener = gzip.open if os.fspath(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError:
                obj = None
            if isinstance(obj, dict):
                yield obj
            elif on_bad is not None:
                on_bad(line)
