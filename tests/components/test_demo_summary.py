"""scripts/demo_summary.py: the per-page summary the demo prints, from the pipelines' fields or computed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import REPO

SCHEDULE = "<html><body><h2>Porządek Mszy świętych</h2><p>Niedziele i święta: 8:00, 10:00</p></body></html>"


def summarize(tmp_path: Path, items: list[dict]) -> subprocess.CompletedProcess[str]:
    file = tmp_path / "p.jsonl"
    file.write_text("".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items), encoding="utf-8")
    command = [sys.executable, str(REPO / "scripts" / "demo_summary.py"), str(file)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def page(url: str, depth: int, **fields: object) -> dict:
    return {"url": url, "depth": depth, "button_text": "Msze" if depth else None, "html": SCHEDULE, **fields}


def test_summary_from_pipeline_fields(tmp_path: Path) -> None:
    hours = [
        {"time": "08:00", "label": "mass", "day": "sunday", "days": ["sun"], "kind": "regular"},
        {"time": "16:00", "label": "other", "day": None},
    ]
    done = summarize(tmp_path, [page("http://p.test/msze", 1, masses=["08:00"], hours=hours)])
    assert done.returncode == 0, done.stderr
    assert '[depth 1] http://p.test/msze via "Msze"' in done.stdout
    assert "Mass times: 08:00" in done.stdout and "other hours (not Masses): 16:00" in done.stdout
    assert "The parish's schedule:\n    niedziela      8:00" in done.stdout


def test_summary_computes_when_pipelines_were_off(tmp_path: Path) -> None:
    done = summarize(tmp_path, [page("http://p.test/", 0)])
    assert done.returncode == 0, done.stderr
    assert "computed here with extraction.page" in done.stdout
    assert "Mass times: 08:00, 10:00" in done.stdout


def test_summary_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "demo_summary.py"), str(tmp_path / "missing.jsonl")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2 and "usage" in done.stderr
