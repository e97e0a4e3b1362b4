"""`scrapy crawl deon` against the fake deon directory: the sample rows come back exactly, with backoff.

The fake (testing.deon_site) is made from the first rows of the thesis's deon.fixed.tsv, read by path
(GPL-3.0 thesis data; the tests are skipped when it is absent), and served on 127.0.0.1:0.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, proxy_env

from msze.directory.deon_parser import parish_key, read_records
from msze.items import ParishItem
from msze.testing.deon_site import DEFAULT_TSV, FakeDeon, listing_path, sample_rows
from msze.testing.sample import SAMPLE_TSV

FIELDS = ("name", "city", "address", "diocese", "decanate", "voivodeship")

# the thesis's rows where ../shared has them, else the bundled sample of invented parishes
ROWS = DEFAULT_TSV if DEFAULT_TSV.is_file() else SAMPLE_TSV


@dataclass
class Run:
    returncode: int
    log: str
    stats: dict[str, Any]
    tsv: list[dict[str, Any]]
    jsonl: list[dict[str, Any]]
    tsv_text: str


def crawl_deon(tmp_path: Path, fake: FakeDeon, *settings: str, args: tuple[str, ...] = ()) -> Run:
    out_tsv, out_jsonl, stats_file = (
        tmp_path / "parishes.tsv",
        tmp_path / "parishes.jsonl",
        tmp_path / "stats.json",
    )
    command = [sys.executable, "-m", "scrapy", "crawl", "deon", "-a", f"start_url={fake.start_url}", *args]
    command += ["-O", f"{out_tsv}:tsv", "-O", f"{out_jsonl}:jsonl"]
    for setting in (
        "TELNETCONSOLE_ENABLED=False",
        "AUTOTHROTTLE_ENABLED=False",
        f"STATS_FILE={stats_file}",
        *settings,
    ):
        command += ["-s", setting]
    done = subprocess.run(command, cwd=REPO, env=proxy_env(None), capture_output=True, text=True, timeout=120)
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.is_file() else {}
    tsv = list(read_records(out_tsv)) if out_tsv.is_file() else []
    jsonl = list(read_records(out_jsonl)) if out_jsonl.is_file() else []
    tsv_text = out_tsv.read_text(encoding="utf-8") if out_tsv.is_file() else ""
    return Run(done.returncode, done.stderr + done.stdout, stats, tsv, jsonl, tsv_text)


def rows_of(records: list[dict[str, Any]]) -> list[tuple]:
    return sorted(tuple(tuple(r[f]) if f == "address" else r[f] for f in FIELDS) for r in records)


@pytest.fixture(scope="module")
def sample() -> list[dict[str, Any]]:
    rows = sample_rows(ROWS, 25)
    assert any(not r["decanate"] for r in rows)  # the missing-cell row is real data
    assert any("\xa0" in r["name"] for r in rows)  # deon's non-breaking spaces must survive
    return rows


def test_crawl_reproduces_sample_rows_with_backoff(tmp_path, sample):
    # Listing page 2 answers 503 twice: backoff waits 2^1 = 2 s, then 2^2 = 4 s capped to BACKOFF_MAX_WAIT=3.
    with FakeDeon(sample, page_size=10, fail_page=2, fail_times=2) as fake:
        run = crawl_deon(tmp_path, fake, "BACKOFF_MAX_WAIT=3", "BACKOFF_REPEAT_LIMIT=5")
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["finish_reason"] == "finished"

    # Every sample row, exactly as in deon.fixed.tsv, in both outputs.
    assert rows_of(run.tsv) == rows_of(sample)
    assert rows_of(run.jsonl) == rows_of(sample)
    assert run.tsv_text.splitlines()[0] == "Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo"
    assert all(r["deon_url"].startswith(fake.base_url + "/parafie-koscioly/parafia,") for r in run.jsonl)
    assert len({parish_key(r) for r in run.jsonl}) == len(sample)
    assert all(set(r) == set(ParishItem.fields) for r in run.jsonl)  # every item has every field

    assert run.stats["msze/deon/parishes"] == len(sample) == run.stats["item_scraped_count"]
    assert run.stats["msze/deon/listing_pages"] == fake.pages == 3
    assert run.stats["msze/deon/missing_cells"] == 1
    assert "msze/deon/no_address" not in run.stats

    # Backoff: measured on the fake's clock between the failing page's requests.
    times = [r["time"] for r in fake.requests if r["path"] == listing_path(2)]
    statuses = [r["status"] for r in fake.requests if r["path"] == listing_path(2)]
    assert statuses == [503, 503, 200]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert gaps[0] == pytest.approx(2.0, abs=0.5)
    assert gaps[1] == pytest.approx(3.0, abs=0.5)
    assert run.stats["msze/backoff/retries"] == 2
    assert run.stats["msze/backoff/wait_seconds"] == pytest.approx(5.0)
    assert "RetryMiddleware" not in run.log.split("Enabled downloader middlewares")[1].split("]")[0]


def test_max_pages_and_a_parish_page_that_never_works(tmp_path, sample):
    # One listing page only (max_pages=1); parish 4's page always answers 503: after the backoff gives up,
    # the parish is still written, with its listing cells and an empty address, and counted.
    with FakeDeon(sample, page_size=10, fail_page=None, broken_parishes={3}) as fake:
        run = crawl_deon(
            tmp_path, fake, "BACKOFF_MAX_WAIT=0.05", "BACKOFF_REPEAT_LIMIT=2", args=("-a", "max_pages=1")
        )
    assert run.returncode == 0, run.log[-3000:]
    want = [dict(r, address=[]) if i == 3 else r for i, r in enumerate(sample[:10])]
    assert rows_of(run.tsv) == rows_of(want)
    assert run.stats["msze/deon/listing_pages"] == 1
    assert run.stats["msze/deon/detail_failed"] == 1
    assert run.stats["msze/backoff/gave_up"] == 1
    assert not [r for r in fake.requests if "strona," in r["path"]]
    assert [r["status"] for r in fake.requests if r["path"].endswith("parafia,4.html")] == [503, 503]


def test_bad_arguments_are_usage_errors():
    for args in (["-a", "start_url=ftp://deon.test/"], ["-a", "max_pages=two"]):
        done = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "deon", *args, "-s", "TELNETCONSOLE_ENABLED=False"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2 and "deon: " in done.stderr and "Traceback" not in done.stderr
