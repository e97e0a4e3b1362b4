"""JSON Schemas of what msze writes: a page of a pages JSONL file (``page``) and a parish's line of
results.jsonl (``result``). Packaged so a user of the files can validate them with any JSON Schema tool; the
tests validate every crawl's items and results against them."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def schema(name: str) -> dict[str, Any]:
    """The schema ``<name>.schema.json`` ("page" or "result") as a dict."""
    return json.loads(files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8"))
