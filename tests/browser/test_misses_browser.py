"""`msze evaluate --report misses.html` in Debian's chromium: a miss of the committed figures is on the page,
with its sentence, and text from the pages is shown as text."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from msze.cli.misses import DAY_NAMES

REPO = Path(__file__).resolve().parents[2]


def test_the_misses_page_shows_a_known_miss_with_its_sentence(browser, tmp_path, artifacts):
    figures = json.loads((REPO / "data" / "figures.json").read_text(encoding="utf-8"))
    page_id, known = next((k, v) for k, v in figures["diocesan"]["items"].items() if v["missed"])
    day, time = known["missed"][0].split()
    report = tmp_path / "misses.html"
    done = subprocess.run(
        [sys.executable, "-m", "msze", "evaluate", "--report", str(report)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(report.as_uri())
    cells = page.locator("tr.missed").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.innerText))"
    )
    mine = [row for row in cells if row[0].split()[0] == page_id]
    assert mine and all(row[1] == "missed" for row in mine)
    assert any(row[2] == f"{DAY_NAMES[day]} {time}" for row in mine), mine
    assert page.locator("script").count() == 0  # nothing of a page's text became markup
    page.screenshot(path=str(artifacts / "misses.png"))
