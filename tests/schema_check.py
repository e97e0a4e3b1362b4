"""Validate what msze writes against its packaged JSON Schemas (msze/schemas)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

from msze.schemas import schema

# "format" only asserts with a format checker: jsonschema's checks "date" (a day that exists: no
# 2026-02-30) on its own, "date-time" only with the rfc3339-validator package, so that one is checked here.
FORMATS = FormatChecker()
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(?:\.\d+)?(?:[Zz]|[+-]\d\d:\d\d)")


@FORMATS.checks("date-time", raises=ValueError)
def _date_time(instance: object) -> bool:
    if not isinstance(instance, str):
        return True
    return bool(_RFC3339.fullmatch(instance)) and bool(datetime.fromisoformat(instance.upper()))


def errors(obj: Any, name: str) -> list[str]:
    """Every way ``obj`` breaks the schema ``name``, as "path: message" lines."""
    validator = Draft202012Validator(schema(name), format_checker=FORMATS)
    return [f"{'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}" for e in validator.iter_errors(obj)]


def check(obj: Any, name: str) -> None:
    problems = errors(obj, name)
    assert not problems, "\n".join(problems[:10])
