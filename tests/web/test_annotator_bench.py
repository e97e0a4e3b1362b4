"""The bench command's timing loop runs against fixture candidates and counts every answer."""

from __future__ import annotations

from annotator_pages import pages_jsonl

from msze.annotator.bench import run_bench


def test_bench_times_every_answer(tmp_path):
    figures = run_bench([pages_jsonl(tmp_path / "pages.jsonl")], n_devices=2, n_answers=3)
    assert figures["candidates"] == 12 and figures["answers"] == 6
    assert 0 < figures["median_ms"] <= figures["p95_ms"] <= figures["max_ms"]
