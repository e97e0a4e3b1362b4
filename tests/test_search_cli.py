"""`python -m msze search load` and `search corrections` as a user runs them."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

from search_fixtures import write_inputs


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "msze", "search", *args], capture_output=True, text=True, timeout=60, cwd=cwd
    )


def test_load_prints_a_report_and_is_repeatable(tmp_path):
    paths = write_inputs(tmp_path / "in")
    db = tmp_path / "out" / "results.sqlite"
    args = ["load", "--parishes", str(paths["parishes"]), "--places", str(paths["places"])]
    args += ["--results", str(paths["results"]), "--db", str(db)]
    first = run(*args)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["parishes_inserted"] == 4 and report["results_loaded"] == 2 and report["times_loaded"] == 9
    second = json.loads(run(*args).stdout)
    assert second["parishes_inserted"] == 0 and second["results_stale"] == 3

    labels = run("corrections", "--db", str(db))
    assert labels.returncode == 0 and labels.stdout == ""


def test_load_reports_missing_files_and_bad_headers(tmp_path):
    missing = run("load", "--results", str(tmp_path / "nope.jsonl"), "--db", str(tmp_path / "x.sqlite"))
    assert missing.returncode == 2 and "no such file" in missing.stderr
    nothing = run("load", "--db", str(tmp_path / "x.sqlite"))
    assert nothing.returncode == 2
    bad = tmp_path / "bad.tsv"
    bad.write_text("kolumna\n1\n", encoding="utf-8")
    result = run("load", "--parishes", str(bad), "--db", str(tmp_path / "x.sqlite"))
    assert result.returncode == 1 and "Parafia" in result.stderr and "Traceback" not in result.stderr


def test_serve_without_db_serves_the_demo_data():
    process = subprocess.Popen(
        [sys.executable, "-m", "msze", "search", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = process.stdout.readline()
        match = re.search(r"serving demo data on (http://127\.0\.0\.1:\d+/)", line)
        assert match, line
        with urllib.request.urlopen(
            match.group(1) + "api/parishes?city=Krak%C3%B3w&day=niedziela", timeout=10
        ) as r:
            body = json.load(r)
        assert body["total"] == 10
        assert all(t["day"] == "sunday" for p in body["parishes"] for t in p["times"])
    finally:
        process.terminate()
        process.wait(timeout=10)
