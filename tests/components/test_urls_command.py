"""`python -m msze urls PLACES_FILE`: distinct parish URLs, one a line, from places TSV or JSONL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from msze.cli.urls import collect_urls
from msze.directory.deon_parser import PLACE_COLUMNS, write_tsv
from msze.utils.urls import parish_url

REPO = Path(__file__).resolve().parents[2]

RECORDS = [
    {"name": "Św. Jakuba", "city": "Lipno", "url": "http://www.jakub-lipno.example/", "status": "OK"},
    {
        "name": "Kościół św. Jakuba",
        "city": "Lipno",
        "url": "HTTP://WWW.Jakub-Lipno.example",
        "status": "AMBIGUOUS",
    },
    {"name": "NMP Różańcowej", "city": "Zalesie", "url": "", "status": "NOT_FOUND"},
    {"name": "Św. Rocha", "city": "Wola", "url": "https://roch.example/parafia#msze", "status": "OK"},
    {"name": "Św. Rocha II", "city": "Wola", "url": "https://roch.example/parafia/", "status": "AMBIGUOUS"},
    {"name": "Św. Anny", "city": "Brzozów", "url": "mailto:anna@example.com", "status": "OK"},
    {"name": "Św. Marka", "city": "Brzozów", "url": " http://marek.example/ ", "status": "AMBIGUOUS"},
]


def run_urls(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msze", "urls", *args], cwd=REPO, capture_output=True, text=True, timeout=60
    )


def test_parish_url_ignores_case_www_trailing_slash_fragment_and_tracking():
    assert parish_url("HTTP://WWW.A.example/x/#top") == parish_url("http://a.example/x") == "a.example/x"
    assert parish_url("https://a.example/x?utm_source=fb") == "a.example/x"
    assert parish_url("http://a.example/?p=2") != parish_url("http://a.example/?p=3")
    assert parish_url("mailto:x@y.pl") == "" and parish_url("www.a.example") == ""
    assert parish_url("http://a.example:abc/") == ""  # a bad port is an invalid URL, not a crash
    assert parish_url("http://a.example:8080/x/") == "a.example:8080/x"
    assert parish_url("http://127.0.0.1:8001/") != parish_url("http://127.0.0.1:8002/")
    assert parish_url("http://a.example:80/") == parish_url("https://a.example:443/") == "a.example"


def test_collect_urls_counts():
    result = collect_urls(RECORDS)
    assert result.urls == [
        "http://www.jakub-lipno.example/",
        "https://roch.example/parafia#msze",
        "http://marek.example/",
    ]
    assert (result.rows, result.duplicates, result.without_url, result.invalid) == (
        7,
        2,
        1,
        ["mailto:anna@example.com"],
    )
    assert collect_urls(RECORDS, {"AMBIGUOUS"}).urls == [
        "HTTP://WWW.Jakub-Lipno.example",
        "https://roch.example/parafia/",
        "http://marek.example/",
    ]


def test_command_on_tsv_prints_one_url_a_line(tmp_path):
    path = tmp_path / "places.tsv"
    write_tsv(path, [dict(r, address=[r["name"], r["city"]]) for r in RECORDS], PLACE_COLUMNS)
    done = run_urls(str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "http://www.jakub-lipno.example/",
        "https://roch.example/parafia#msze",
        "http://marek.example/",
    ]
    assert "urls: 3 URLs from 7 rows (2 repeated, 1 without URL, 1 invalid)" in done.stderr
    assert "not an http(s) URL, skipped: mailto:anna@example.com" in done.stderr


def test_command_on_jsonl_with_status_filter_and_output_file(tmp_path):
    path = tmp_path / "places.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS), encoding="utf-8")
    out = tmp_path / "urls.txt"
    done = run_urls(str(path), "--status", "ok", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert (
        out.read_text(encoding="utf-8")
        == "http://www.jakub-lipno.example/\nhttps://roch.example/parafia#msze\n"
    )


def test_command_errors(tmp_path):
    assert run_urls(str(tmp_path / "missing.tsv")).returncode == 1
    done = run_urls(str(tmp_path / "x.tsv"), "--status", "FOUND")
    assert done.returncode == 2 and "unknown status" in done.stderr
