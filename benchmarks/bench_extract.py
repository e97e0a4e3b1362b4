"""Extraction speed: find_hours, the rules and extract() on real page texts, and on 0.5 MB vs 5 MB of text.

    .venv/bin/python benchmarks/bench_extract.py [GOLD.jsonl ...]   # default ../shared/data/realpages

Reports pages/s and MB/s of text for each stage over the given pages (texts only are used), the thesis
extractor (find_hours_thesis) for comparison, and the time ratio of a 5 MB text to a 0.5 MB one built from the
same pages (≈ 10 means linear in size).
"""

from __future__ import annotations

import glob
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from msze.extraction import extract  # noqa: E402
from msze.hours import find_hours, find_hours_thesis  # noqa: E402
from msze.rules import decide  # noqa: E402


def load_texts(paths: list[str]) -> list[str]:
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts += [json.loads(line)["text"] for line in f if line.strip()]
    return texts


def rate(name: str, fn: Callable[[str], object], texts: list[str], rounds: int = 5) -> None:
    chars = sum(len(t) for t in texts)
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for t in texts:
            fn(t)
        best = min(best, time.perf_counter() - t0)
    print(f"  {name:<28} {len(texts) / best:9.0f} pages/s {chars / best / 1e6:7.2f} MB/s of text")


def main() -> int:
    paths = sys.argv[1:] or sorted(glob.glob(str(ROOT.parent / "shared/data/realpages/*.jsonl")))
    if not paths:
        print("no gold files given and ../shared/data/realpages not found", file=sys.stderr)
        return 2
    texts = load_texts(paths)
    print(f"{len(texts)} page texts, {sum(map(len, texts)) / 1e3:.0f} kB, from {len(paths)} files")
    rate("find_hours_thesis (thesis)", find_hours_thesis, texts)
    rate("find_hours", find_hours, texts)
    rate("find_hours + rules.decide", lambda t: decide(t, find_hours(t)), texts)
    rate("extract()", extract, texts)

    corpus = "\n\n".join(texts)
    small = (corpus * (500_000 // len(corpus) + 1))[:500_000]
    big = (corpus * (5_000_000 // len(corpus) + 1))[:5_000_000]
    timings = []
    for label, text in (("0.5 MB", small), ("5 MB", big)):
        dt = float("inf")
        for _ in range(2):  # best of two: the machine is shared
            t0 = time.perf_counter()
            ex = extract(text, max_hours=10**9)  # no cap: this measures the growth of the time with size
            dt = min(dt, time.perf_counter() - t0)
        timings.append(dt)
        print(
            f"  extract() on {label} of text: {dt:6.2f} s "
            f"({len(ex.hours)} hours, {len(ex.masses)} distinct masses)"
        )
    print(f"  time ratio 5 MB / 0.5 MB: {timings[1] / timings[0]:.1f} (10 = linear)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
