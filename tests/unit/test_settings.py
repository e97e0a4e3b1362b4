"""Each msze setting has its default written once, in msze/settings.py: no component reads one with a
fallback of its own (`settings.getfloat("BACKOFF_MAX_WAIT", 64.0)` or `settings.get("WARC_DIR") or "x"`),
which would repeat the default or, worse, contradict it."""

from __future__ import annotations

import ast
from pathlib import Path

MSZE = Path(__file__).resolve().parents[2] / "msze"
GETTERS = {"get", "getbool", "getint", "getfloat", "getlist", "getdict", "getdictorlist"}
# (file, setting) still read with a fallback, until the reason is gone.
ALLOWED: set[tuple[str, str]] = set()  # (file, setting) pairs that may keep a fallback: none


def setting_names() -> set[str]:
    """The upper-case names msze/settings.py assigns."""
    tree = ast.parse((MSZE / "settings.py").read_text(encoding="utf-8"))
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.isupper()
    }


def _setting_read(node: ast.AST, names: set[str]) -> str | None:
    """The setting a `<x>.get*("NAME", ...)` call reads, when NAME is a msze setting."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    if node.func.attr not in GETTERS or not node.args:
        return None
    first = node.args[0]
    if isinstance(first, ast.Constant) and first.value in names:
        return str(first.value)
    return None


def fallbacks(source: str, names: set[str]) -> list[tuple[int, str]]:
    """(line, setting) of every read of a msze setting with a fallback: a second argument or `default=`, or
    `get("NAME") or <literal>`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        name = _setting_read(node, names)
        if name and (len(node.args) > 1 or any(k.arg == "default" for k in node.keywords)):  # type: ignore[attr-defined]
            found.append((node.lineno, name))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            name = _setting_read(node.values[0], names)
            if name and any(_is_literal(value) for value in node.values[1:]):
                found.append((node.lineno, name))
    return sorted(found)


def _is_literal(node: ast.AST) -> bool:
    """A constant other than None (`or None` makes "" None, repeating no default) or a literal display."""
    if isinstance(node, ast.Constant):
        return node.value is not None
    return isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set))


def offenders(paths: list[Path]) -> set[tuple[str, str, int]]:
    names = setting_names()
    found = set()
    for path in paths:
        for line, name in fallbacks(path.read_text(encoding="utf-8"), names):
            found.add((path.relative_to(MSZE).as_posix(), name, line))
    return found


def test_fallbacks_are_found() -> None:
    names = {"BACKOFF_MAX_WAIT", "WARC_DIR", "PAGES_DIR"}
    source = """
a = settings.getfloat("BACKOFF_MAX_WAIT", 64.0)
b = crawler.settings.get("WARC_DIR") or "output/warc"
c = settings.get("PAGES_DIR", default="x")
d = settings.getfloat("BACKOFF_MAX_WAIT")
e = settings.get("PAGES_DIR") or None
f = os.environ.get("HOME", "/")
g = settings.getint("NOT_OURS", 3)
"""
    assert fallbacks(source, names) == [(2, "BACKOFF_MAX_WAIT"), (3, "WARC_DIR"), (4, "PAGES_DIR")]


def test_settings_are_read_without_fallbacks() -> None:
    """Every component under msze/; an ALLOWED entry whose fallback is gone fails too (remove the entry)."""
    paths = [path for path in sorted(MSZE.rglob("*.py")) if path.name != "settings.py"]
    found = {(path, name) for path, name, _ in offenders(paths)}
    assert found == ALLOWED, sorted(offenders(paths))


def test_the_offline_commands_default_classifier_role_is_the_crawls():
    from msze import settings
    from msze.extraction.page import CLASSIFIER_ROLES, DEFAULT_CLASSIFIER_ROLE

    assert settings.CLASSIFIER_ROLE == DEFAULT_CLASSIFIER_ROLE in CLASSIFIER_ROLES
