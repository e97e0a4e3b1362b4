"""docs/directory.md's chain runs offline from a fresh clone (no ../shared): scripts/directory_chain.py takes
the bundled sample through fake deon → deon spider → fake Places → `msze urls` → `msze crawl-all` of the
served sites → `msze search load` → `msze search serve`, whose parish pages show the times the sites announce.
And the bundled sample is what its generator writes."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO

from msze.directory.deon_parser import read_tsv
from msze.search.demo.generate import CENTRES
from msze.testing.sample import SAMPLE_TSV, sample_text


def test_the_bundled_sample_is_what_the_generator_writes() -> None:
    assert SAMPLE_TSV.read_text(encoding="utf-8") == sample_text()
    rows = list(read_tsv(SAMPLE_TSV))
    assert len(rows) == 25 and len({(r["name"], r["city"]) for r in rows}) == 25
    assert [i for i, r in enumerate(rows) if not r["decanate"]] == [7]  # the row sent without its cell


def test_directory_chain_offline_without_shared_data(tmp_path: Path) -> None:
    empty = tmp_path / "no-shared-data"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    env["MSZE_SHARED_DATA"] = str(empty)
    out = tmp_path / "chain"
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "directory_chain.py"), "--out", str(out), "--sample", "5"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "urls: 3 URLs from 5 rows (0 repeated, 2 without URL, 0 invalid)" in done.stdout
    assert "directory chain: 3 of 3 parish pages show their times" in done.stdout

    # the deon spider read back the sample's rows; the fake Places put each parish in its own town
    def key(row: dict) -> tuple[str, str]:
        return row["name"], row["city"]

    crawled = sorted(read_tsv(out / "parishes.tsv"), key=key)  # parish pages come in any order
    assert crawled == sorted(list(read_tsv(SAMPLE_TSV))[:5], key=key)
    with (out / "places.tsv").open(encoding="utf-8") as places:
        located = [row for row in csv.DictReader(places, dialect="excel-tab") if row["lat"]]
    assert len(located) == 4  # every found place, with or without a website
    for row in located:
        lat, lng = CENTRES[row["Miejscowość"]]
        assert abs(float(row["lat"]) - lat) < 0.03 and abs(float(row["lng"]) - lng) < 0.05, row
