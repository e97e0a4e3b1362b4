"""Validate what msze writes against its packaged JSON Schemas (msze/schemas)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator, FormatChecker

from msze.schemas import schema


def errors(obj: Any, name: str) -> list[str]:
    """Every way ``obj`` breaks the schema ``name``, as "path: message" lines."""
    validator = Draft202012Validator(schema(name), format_checker=FormatChecker())
    return [f"{'/'.join(map(str, e.absolute_path)) or '.'}: {e.message}" for e in validator.iter_errors(obj)]


def check(obj: Any, name: str) -> None:
    problems = errors(obj, name)
    assert not problems, "\n".join(problems[:10])
