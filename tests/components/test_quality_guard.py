"""The guard over data/'s label sets: no figure of the committed baseline (data/figures.json) falls."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from msze.classifier.model import DEFAULT_MODEL_PATH, HourClassifier
from msze.cli import quality
from msze.extraction.rules import cues

REPO = Path(__file__).resolve().parents[2]
BASELINE = REPO / "data" / "figures.json"


@pytest.fixture(scope="module")
def classifier() -> HourClassifier:
    return HourClassifier.load(DEFAULT_MODEL_PATH)


def baseline() -> dict:
    return json.loads(BASELINE.read_text(encoding="utf-8"))


def test_no_figure_of_the_label_sets_fell_below_the_baseline() -> None:
    """CI's guard: `msze evaluate --check data/figures.json` over the label sets ../shared has texts for."""
    done = subprocess.run(
        [sys.executable, "-m", "msze", "evaluate", "--check", str(BASELINE)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "no figure fell below" in done.stdout


def test_every_label_with_a_shared_text_met_it_unchanged() -> None:
    # labels of texts only in a local folder are missing here: the guard counts the shared ones alone
    for name in ("realpages", "realsites", "diocesan"):
        texts = baseline()[name]["texts"]
        assert texts["changed"] == 0 and sum(texts["joined"].values()) > 0, name


def test_a_broken_cue_trips_the_guard_and_names_what_got_worse(classifier, monkeypatch) -> None:
    # "niedziel" taken for a devotion word: Sunday lists stop being Masses
    broken = re.compile(cues._OTHER_CUE_LOWER_RE.pattern + "|niedziel")
    monkeypatch.setattr(cues, "_OTHER_CUE_LOWER_RE", broken)
    monkeypatch.setattr(cues, "OTHER_CUE_RE", re.compile(broken.pattern, re.IGNORECASE))
    fallen = quality.regressions(baseline(), quality.compute(classifier, data_dir=str(REPO / "data")))
    figures = [line for line in fallen if not line.startswith(" ")]
    assert any(line.startswith("diocesan sunday_exact") for line in figures), fallen[:20]
    assert any("Sunday no longer exact" in line for line in fallen)
    assert any(line.startswith("  diocesan annotated-") and "now missed sun " in line for line in fallen)


def test_the_guard_tolerates_a_fall_within_its_tolerance() -> None:
    old = baseline()
    new = json.loads(json.dumps(old))
    new["realsites"]["figures"]["weekly_f1"] -= old["tolerance"] / 2
    assert quality.regressions(old, new) == []
    new["realsites"]["figures"]["weekly_f1"] -= old["tolerance"]
    assert quality.regressions(old, new)[0].startswith("realsites weekly_f1: ")


def test_a_diocesan_row_is_read_under_its_columns_headings() -> None:
    from msze.labels.sets import diocesan_page

    # the Warsaw file's cells are bare lists: the column says Sunday or weekday
    assert diocesan_page("8.00, 10.00", "7.00, 18.00") == (
        "Msze św. w niedziele: 8.00, 10.00\nMsze św. w dni powszednie: 7.00, 18.00"
    )
    # the Poznań file's cells say it themselves
    headed = ("Msze św. w niedziele: godz. 9.00", "Msze św. w dni powszednie: godz. 18.00")
    assert diocesan_page(*headed) == "\n".join(headed)
    assert diocesan_page("9.00", "") == "Msze św. w niedziele: 9.00\n"


def test_a_fallen_confession_figure_names_the_rows_now_missed() -> None:
    def sites(share: float, missed: list[str]) -> dict:
        figures = dict.fromkeys(quality.SITE_FIGURES, 1.0) | {"confession": share}
        return {"figures": figures, "items": {"P1": {"missed": [], "false": [], "confession_missed": missed}}}

    old = {"tolerance": 0.005, "realsites": sites(1.0, [])}
    assert quality.regressions(old, {"realsites": sites(1.0, [])}) == []
    assert quality.regressions(old, {"realsites": sites(0.5, ["sat 17:00"])}) == [
        "realsites confession: 1.0 -> 0.5",
        "  realsites P1: confession now missed sat 17:00",
    ]
    # a baseline written before the figure existed holds nothing against it
    before = {
        "tolerance": 0.005,
        "realsites": {"figures": {"weekly_f1": 1.0}, "items": {"P1": {"missed": [], "false": []}}},
    }
    assert quality.regressions(before, {"realsites": sites(0.5, ["sat 17:00"])}) == []
