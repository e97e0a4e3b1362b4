"""One way to process a page: a crawl's pages, re-processed offline by `msze process`, get the same hours,
Mass times, template spans and page-filter hints as the crawl's item pipelines gave them, and the same
results."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, run_crawl

SITES = ["http://swwojciech.test/", "http://www.mbcz-debina.test/", "http://nmp-zagorze.test/"]
COMPARED = ("hours", "masses", "template", "has_schedule_hint")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.mark.parametrize("start", SITES)
def test_reprocessed_crawl_gets_the_crawls_hours_and_results(
    start: str, fixture_web: Any, tmp_path: Path
) -> None:
    crawl = run_crawl(start, tmp_path / "crawl", proxy=fixture_web.proxy)
    assert crawl.returncode == 0, crawl.log[-2000:]
    assert crawl.items and any(item["masses"] for item in crawl.items)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "msze", "process", str(crawl.pages_dir), "--out", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    [pages_file] = sorted(crawl.pages_dir.glob("*.jsonl"))
    again = {page["url"]: page for page in read_jsonl(out / pages_file.name)}
    assert set(again) == crawl.urls()
    for item in crawl.items:
        for name in COMPARED:
            assert again[item["url"]][name] == item[name], (item["url"], name)

    from msze.extraction.parish import summarize

    [result] = read_jsonl(out / "results.jsonl")
    expected = summarize(crawl.items, start, crawl.items[0]["domain"])
    assert result["masses"] == expected["masses"]
