"""Per-parish summaries: built from pages JSONL, deduplicated, exported, appended safely in parallel."""

from __future__ import annotations

import csv
import json
import multiprocessing

from msze.archive.jsonl import read_objects
from msze.batch.results import append_result, csv_row, export_csv, export_jsonl, summarize_file
from msze.extraction.parish import summarize


def _hour(time, label="mass", day="sunday", source="rules", score=1.0, context="Msze św. w niedziele"):
    return {
        "text": time.replace(":", "."),
        "time": time,
        "start": 0,
        "end": 5,
        "context": context,
        "context_start": 0,
        "label": label,
        "score": score,
        "source": source,
        "day": day,
    }


PAGES = [
    {
        "url": "http://parafia.test/",
        "html": "<p>Zapraszamy</p>",
        "hours": [_hour("09:00", source="classifier", score=0.7), _hour("16:00", label="other", day=None)],
    },
    {
        "url": "http://parafia.test/msze",
        "html": "<p>Porządek Mszy św.</p>",
        "hours": [
            _hour("09:00"),
            _hour("07:00", day="weekday", context="w dni powszednie 7.00"),
            _hour("11:00"),
            _hour("18:00", day=None, source="classifier", score=0.9),
        ],
    },
]


def test_summarize_contract():
    s = summarize(PAGES, "http://parafia.test/", "parafia.test", crawled_at="2026-11-30T01:00:00Z")
    assert set(s) == {
        "start_url", "domain", "status", "error", "pages", "bytes", "crawled_at", "masses",
        "schedule", "one_off", "monthly", "confession", "conflicts", "dayless", "churches",
    }  # fmt: skip
    assert (s["status"], s["error"], s["pages"]) == ("finished", None, 2)
    assert s["bytes"] == len(b"<p>Zapraszamy</p>") + len("<p>Porządek Mszy św.</p>".encode())
    assert [(m["day"], m["time"]) for m in s["masses"]] == [
        ("sunday", "09:00"),
        ("sunday", "11:00"),
        ("weekday", "07:00"),
        (None, "18:00"),
    ]
    nine = s["masses"][0]
    # The 09:00 seen twice keeps the higher-scored (rules) evidence from the schedule page.
    assert (nine["url"], nine["source"], nine["score"]) == ("http://parafia.test/msze", "rules", 1.0)
    assert set(nine) == {"time", "day", "url", "context", "source", "score"}


def test_summarize_file_skips_torn_line_and_missing_file(tmp_path):
    path = tmp_path / "parafia.test.jsonl"
    text = "".join(json.dumps(p, ensure_ascii=False) + "\n" for p in PAGES) + '{"url": "http://parafia.te'
    path.write_text(text, encoding="utf-8")
    assert len(list(read_objects(path))) == 2
    s = summarize_file(path, "http://parafia.test/", "parafia.test", bytes_=999)
    assert (s["pages"], s["bytes"]) == (2, 999)
    empty = summarize_file(tmp_path / "none.jsonl", "http://x.test/", "x.test", status="failed", error="boom")
    assert (empty["pages"], empty["masses"], empty["error"]) == (0, [], "boom")


def test_export_jsonl_and_csv(tmp_path):
    s1 = summarize(PAGES, "http://parafia.test/", "parafia.test")
    s2 = summarize([], "http://zla.test/", "zla.test", status="failed", error="Connection refused")
    assert export_jsonl([s1, s2], tmp_path / "results.jsonl") == 2
    lines = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["domain"] for x in lines] == ["parafia.test", "zla.test"]
    assert export_csv([s1, s2], tmp_path / "results.csv") == 2
    with open(tmp_path / "results.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    # these hours have no days: their weekly Masses are of an unknown day, none of the schedule
    assert rows[0]["unknown_day"] == "7:00, 9:00, 11:00, 18:00"
    assert rows[0]["sun"] == ""
    assert rows[0]["mass_count"] == "0"
    assert (rows[1]["status"], rows[1]["error"], rows[1]["mass_count"]) == (
        "failed",
        "Connection refused",
        "0",
    )
    assert not list(tmp_path.glob("*.tmp.*"))


def _appender(path, worker):
    big = "ż" * 20000  # bigger than a pipe buffer: a torn write would show
    for i in range(30):
        append_result(path, {"worker": worker, "i": i, "pad": big})


def test_append_result_from_many_processes(tmp_path):
    path = str(tmp_path / "results.jsonl")
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_appender, args=(path, w)) for w in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    with open(path, encoding="utf-8") as f:
        objs = [json.loads(line) for line in f]
    assert len(objs) == 180
    assert {(o["worker"], o["i"]) for o in objs} == {(w, i) for w in range(6) for i in range(30)}


def test_a_csv_row_gives_each_day_its_masses_with_churches_seasons_and_the_vigil():
    def entry(time, days, church=None, season=None, vigil=False):
        return {"time": time, "days": days, "church": church, "season": season, "vigil": vigil}

    summary = {
        "start_url": "http://parafia.test/",
        "schedule": [
            entry("07:30", ["sun"]),
            entry("09:00", ["sun", "holiday"]),
            entry("10:00", ["sun"], church="kaplica w Zalesiu"),
            entry("19:00", ["sun"], season="summer"),
            entry("18:00", ["sat"], vigil=True),
            entry("13:15", ["sun"], season="09-01..06-30"),
        ],
        "one_off": [{"time": "11:00"}],
    }
    row = csv_row(summary)
    assert row["sun"] == "7:30, 9:00; 01.09–30.06: 13:15; lato: 19:00; kaplica w Zalesiu: 10:00"
    assert (row["sat"], row["holiday"], row["mon"]) == ("18:00 (wigilia)", "9:00", "")
    assert (row["mass_count"], row["one_off_count"]) == (6, 1)
