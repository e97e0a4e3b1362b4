"""`python -m msze urls PLACES_FILE`: distinct parish URLs, one a line, from places TSV or JSONL."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from msze.cli.urls import collect_urls, url_key
from msze.directory.deon_parser import PLACE_COLUMNS, write_tsv

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


def test_url_key_ignores_case_of_host_trailing_slash_and_fragment():
    assert url_key("HTTP://WWW.A.example/x/#top") == url_key("http://www.a.example/x")
    assert url_key("http://a.example/?p=2") != url_key("http://a.example/?p=3")
    assert url_key("mailto:x@y.pl") is None and url_key("www.a.example") is None
    assert url_key("http://a.example:abc/") is None  # a bad port is an invalid URL, not a crash
    assert url_key("http://a.example:8080/x/") == "http://a.example:8080/x"


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
