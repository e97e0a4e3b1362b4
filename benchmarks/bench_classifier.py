"""Hour-classifier speed: 100 000 hour candidates scored on one core, against baselines in the same run.

    .venv/bin/python benchmarks/bench_classifier.py       # the committed model, realpages texts
    .venv/bin/python benchmarks/bench_classifier.py --hours 100000 --model msze/models/hours.ftz \\
        --realpages ../shared/data/realpages

Candidates are the hours msze.extraction.hours.find_hours finds in the page texts (the labelled pages of
../shared/data/realpages when present, else template pages made here), the texts cycled until there are
--hours of them. Printed, each as hours/s and as a ratio to the hour extractor:
- baseline 1: a trivial regex pass (`\\d{1,2}[:.]\\d{2}`) over the same texts;
- baseline 2: find_hours (the extractor whose candidates the classifier scores);
- features: msze.classifier.features.page_features (each text tokenised once) for every candidate;
- classifier: HourClassifier.score_hours (features + one batched fastText predict per page).
The process is pinned to one CPU (sched_setaffinity) and fastText predicts on one thread.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from msze.classifier.features import page_features  # noqa: E402
from msze.classifier.model import DEFAULT_MODEL_PATH, HourClassifier  # noqa: E402
from msze.extraction.hours import find_hours  # noqa: E402

TRIVIAL_RE = re.compile(r"\d{1,2}[:.]\d{2}")


def template_texts(n: int = 200, seed: int = 0) -> list[str]:
    """Parish-page-like texts when no real pages are at hand."""
    rng = random.Random(seed)
    times = ["6:30", "7.00", "8:00", "9.30", "11:00", "12.15", "16:00", "17.30", "18:00", "19.00"]
    lines = [
        "Msze święte w niedziele: godz. {}, {}, {}",
        "W dni powszednie: {} i {}",
        "Kancelaria parafialna czynna od {} do {}",
        "Spowiedź św. od godz. {} do {}",
        "Różaniec o godz. {} w kaplicy, Msza św. o {}",
        "Ogłoszenia duszpasterskie z dnia 12.03.2020 r.",
    ]
    out = []
    for _ in range(n):
        parts = []
        for _ in range(12):
            line = rng.choice(lines)
            parts.append(line.format(*(rng.choice(times) for _ in range(line.count("{}")))))
        out.append("\n\n".join(parts))
    return out


def load_texts(realpages: Path | None) -> tuple[list[str], str]:
    if realpages and realpages.is_dir():
        texts = []
        for file in sorted(realpages.glob("*.jsonl")):
            lines = file.read_text(encoding="utf-8").splitlines()
            texts += [json.loads(line)["text"] for line in lines if line.strip()]
        if texts:
            return texts, f"{len(texts)} pages of {realpages}"
    return template_texts(), "200 template pages"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hours", type=int, default=100_000, help="candidates to classify (default 100 000)")
    parser.add_argument("--model", type=Path, default=DEFAULT_MODEL_PATH, help="model (default: committed)")
    parser.add_argument(
        "--realpages", type=Path, default=ROOT.parent / "shared" / "data" / "realpages", help="page texts"
    )
    args = parser.parse_args(argv)

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    clf = HourClassifier.load(args.model)
    texts, origin = load_texts(args.realpages)

    # The workload: (text, hours) pairs, texts cycled until --hours candidates.
    per_text = [(t, find_hours(t)) for t in texts]
    per_text = [(t, hs) for t, hs in per_text if hs]
    if not per_text:
        print("no hour candidates in the texts", file=sys.stderr)
        return 2
    work: list[tuple[str, list]] = []
    total = 0
    i = 0
    while total < args.hours:
        text, hours = per_text[i % len(per_text)]
        take = hours[: args.hours - total]
        work.append((text, take))
        total += len(take)
        i += 1
    texts_run = [t for t, _ in work]
    print(f"{total} candidates from {origin} ({len(work)} page texts), model {args.model}, 1 CPU")

    def timed(fn) -> float:
        started = time.perf_counter()
        fn()
        return time.perf_counter() - started

    t_regex = timed(lambda: [TRIVIAL_RE.findall(t) for t in texts_run])
    t_find = timed(lambda: [find_hours(t) for t in texts_run])
    t_feat = timed(
        lambda: [
            page_features(
                t, [(h.start, h.end) for h in hs], before=clf.before, after=clf.after, near=clf.near
            )
            for t, hs in work
        ]
    )
    scores: list[float] = []
    t_clf = timed(lambda: [scores.extend(clf.score_hours(t, hs)) for t, hs in work])
    assert len(scores) == total

    rows = [
        ("baseline: trivial regex pass", t_regex),
        ("baseline: find_hours", t_find),
        ("features only", t_feat),
        ("classifier (features + predict)", t_clf),
    ]
    print(f"{'stage':<34}{'seconds':>9}{'hours/s':>12}{'× find_hours time':>20}")
    for name, secs in rows:
        print(f"{name:<34}{secs:>9.2f}{total / secs:>12,.0f}{secs / t_find:>20.2f}")
    verdict = "OK" if t_clf < 10 else "SLOW"
    print(f"classifying {total} candidates took {t_clf:.2f} s (target < 10 s): {verdict}")
    return 0 if t_clf < 10 else 1


if __name__ == "__main__":
    sys.exit(main())
