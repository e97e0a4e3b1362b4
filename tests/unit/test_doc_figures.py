"""The measured figures in docs/extraction.md are what their sources say now (scripts/doc_figures.py writes
them): the CI-guarded table from data/figures.json, and the ../shared realpages table from `msze evaluate`."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SPEC = importlib.util.spec_from_file_location("doc_figures", REPO / "scripts" / "doc_figures.py")
assert SPEC and SPEC.loader
doc_figures = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(doc_figures)

FIX = "run `.venv/bin/python scripts/doc_figures.py` and commit docs/extraction.md"


def doc() -> str:
    return doc_figures.DOC.read_text(encoding="utf-8")


def test_the_guarded_figures_table_is_data_figures_json() -> None:
    baseline = json.loads(doc_figures.FIGURES.read_text(encoding="utf-8"))
    assert doc_figures.current_block(doc(), "guarded") == doc_figures.guarded_table(baseline), FIX


@pytest.mark.skipif(
    not all((doc_figures.SHARED_PAGES / name).is_file() for name in doc_figures.REALPAGES),
    reason="../shared/data/realpages not available",
)
def test_the_realpages_table_is_what_msze_evaluate_prints() -> None:
    result = doc_figures.evaluate_shared()
    assert doc_figures.current_block(doc(), "realpages") == doc_figures.realpages_table(result), FIX


def test_a_changed_figure_shows_in_the_table() -> None:
    baseline = json.loads(doc_figures.FIGURES.read_text(encoding="utf-8"))
    baseline["realsites"]["figures"]["sunday_exact"] = 0.5
    table = doc_figures.guarded_table(baseline)
    assert "Sunday exact 0.500" in table and table != doc_figures.current_block(doc(), "guarded")
