"""The layout keeps its promise: the pure packages (the decisions) never use Scrapy's machinery (crawler,
requests, responses, signals, settings); only the adapters at the top of msze/ (spiders, middlewares,
pipelines, extensions, download handlers, commands, items) do. They may take Scrapy's plain URL helpers and
constants rather than keep copies of them (crawling/links.py: IGNORED_EXTENSIONS, url_is_from_any_domain)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

MSZE = Path(__file__).resolve().parents[2] / "msze"
# Scrapy modules of plain functions and constants, no machinery: reused, not copied.
SCRAPY_HELPERS = {"scrapy.linkextractors", "scrapy.utils.url"}
PURE = [
    "crawling",
    "directory",
    "extraction",
    "classifier",
    "recrawl",
    "archive",
    "batch",
    "utils",
    "cli",
    "schemas",
    "labels",
]
ADAPTERS = {"spiders", "commands", "middlewares.py", "pipelines.py", "extensions.py", "downloadhandlers.py",
            "exporters.py", "items.py", "optional.py", "settings.py",
            "__init__.py", "__main__.py"}  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside functions."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_every_package_of_msze_is_pure_or_an_adapter() -> None:
    """A new top-level package must say which it is (and so be checked)."""
    tops = {
        p.name for p in MSZE.iterdir() if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"
    }
    assert tops - ADAPTERS - set(PURE) == {"annotator", "search", "testing", "data", "models"} & tops


@pytest.mark.parametrize("package", PURE)
def test_pure_package_never_imports_scrapy(package: str) -> None:
    offenders = {
        str(path.relative_to(MSZE)): sorted(
            m for m in imported_modules(path) if m.split(".")[0] == "scrapy" and m not in SCRAPY_HELPERS
        )
        for path in sorted((MSZE / package).rglob("*.py"))
    }
    assert {name: mods for name, mods in offenders.items() if mods} == {}


def test_pure_packages_do_not_import_the_adapters() -> None:
    adapters = {f"msze.{name.removesuffix('.py')}" for name in ADAPTERS - {"__init__.py", "__main__.py"}}
    offenders = {}
    for package in PURE:
        for path in sorted((MSZE / package).rglob("*.py")):
            bad = sorted(
                m for m in imported_modules(path) if any(m == a or m.startswith(a + ".") for a in adapters)
            )
            if bad:
                offenders[str(path.relative_to(MSZE))] = bad
    assert offenders == {}
