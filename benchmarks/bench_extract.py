"""Extraction speed: find_hours, the rules, the classifier and extract() per page, and 0.5 MB vs 5 MB of text.

    .venv/bin/python benchmarks/bench_extract.py [GOLD.jsonl ...]   # default ../shared/data/realpages
    .venv/bin/python benchmarks/bench_extract.py --html-pages 0 --no-model      # the text stages only

Three parts, each best of --rounds passes (the machine is shared):

1. the given pages' texts (realpages: short texts, 1.7 kB on average): pages/s and MB/s of find_hours (and the
   thesis extractor for comparison), rules.decide, page_features of every hour, extract() without and with
   the classifier;
2. --html-pages generated parish pages (benchmarks/fakeweb.py: menu, sidebar and 15-90 kB of HTML, ~30 kB
   of text, like crawled pages) from their HTML, as `process` and the pipelines see them: the baseline
   html_to_text + find_hours, then html_to_text + extract() without and with the classifier, in pages/s and
   as a time ratio to the baseline of the same run; and each stage alone in ms/page;
3. the time ratio of extract() on a 5 MB text to a 0.5 MB one built from the part-1 texts (≈ 10: linear),
   as lines and as one line;
4. with --against REV (a git revision, e.g. the commit before a change to the rules): extract() without a
   classifier on the part-1 texts, on the part-2 pages' texts and on part 3's 0.5 MB text, by this tree and
   by REV's (exported with `git archive` to a temporary folder, benchmarks/revision.py), each in a child
   process, alternately; the time ratio per page.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from fakeweb import generated_pages  # noqa: E402
from revision import exported_tree  # noqa: E402

from msze.classifier.features import page_features  # noqa: E402
from msze.extraction.hours import find_hours, find_hours_thesis  # noqa: E402
from msze.extraction.page import extract  # noqa: E402
from msze.extraction.rules import decide  # noqa: E402
from msze.extraction.text import html_to_text  # noqa: E402


def load_texts(paths: list[str]) -> list[str]:
    texts = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            texts += [json.loads(line)["text"] for line in f if line.strip()]
    return texts


def best_time(fn: Callable[[Any], object], items: Sequence[Any], rounds: int) -> float:
    """Seconds for one pass of ``fn`` over ``items``, the best of ``rounds``."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - t0)
    return best


def rate(name: str, fn: Callable[[Any], object], items: Sequence[Any], rounds: int, chars: int) -> float:
    seconds = best_time(fn, items, rounds)
    print(
        f"  {name:<34} {len(items) / seconds:9.0f} pages/s {seconds / len(items) * 1e3:8.2f} ms/page"
        f" {chars / seconds / 1e6:7.2f} MB/s"
    )
    return seconds


def spans_of(text: str) -> list[tuple[int, int]]:
    return [(h.start, h.end) for h in find_hours(text)]


def text_stages(texts: list[str], classifier: Any, rounds: int) -> None:
    chars = sum(len(t) for t in texts)
    print(f"{len(texts)} page texts, {chars / 1e3:.0f} kB ({chars / len(texts) / 1e3:.1f} kB a page)")
    rate("find_hours_thesis (thesis)", find_hours_thesis, texts, rounds, chars)
    rate("find_hours", find_hours, texts, rounds, chars)
    with_hours = [(t, find_hours(t)) for t in texts]
    rate("rules.decide (hours given)", lambda th: decide(*th), with_hours, rounds, chars)
    with_spans = [(t, spans_of(t)) for t in texts]
    rate("page_features, all hours (given)", lambda ts: page_features(*ts), with_spans, rounds, chars)
    rate("extract()", extract, texts, rounds, chars)
    if classifier is not None:
        rate("extract(classifier)", lambda t: extract(t, classifier), texts, rounds, chars)


def html_stages(pages: list[str], classifier: Any, rounds: int) -> None:
    html_chars = sum(len(p) for p in pages)
    texts = [html_to_text(p) for p in pages]
    chars = sum(len(t) for t in texts)
    print(
        f"{len(pages)} generated pages (benchmarks/fakeweb.py): {html_chars / len(pages) / 1e3:.0f} kB of "
        f"HTML, {chars / len(pages) / 1e3:.0f} kB of text a page; MB/s of HTML"
    )

    def baseline(html: str) -> object:
        return find_hours(html_to_text(html))

    base = rate("html_to_text + find_hours (baseline)", baseline, pages, rounds, html_chars)
    rules = rate("html_to_text + extract()", lambda h: extract(html_to_text(h)), pages, rounds, html_chars)
    print(f"  {'':<34} {rules / base:9.2f} × the baseline's time")
    if classifier is not None:
        full = rate(
            "html_to_text + extract(classifier)",
            lambda h: extract(html_to_text(h), classifier),
            pages,
            rounds,
            html_chars,
        )
        print(f"  {'':<34} {full / base:9.2f} × the baseline's time")
    print("  each stage alone (MB/s of text):")
    rate("html_to_text", html_to_text, pages, rounds, chars)
    rate("find_hours", find_hours, texts, rounds, chars)
    with_hours = [(t, find_hours(t)) for t in texts]
    rate("rules.decide", lambda th: decide(*th), with_hours, rounds, chars)
    if classifier is not None:
        # what extract() hands the classifier: the hours the rules do not confirm
        rest = [
            (t, [h for h, d in zip(hs, decide(t, hs), strict=True) if not d.is_mass]) for t, hs in with_hours
        ]
        n_rest = sum(len(hs) for _, hs in rest)
        n_all = sum(len(hs) for _, hs in with_hours)
        rate(
            "page_features (rules' leftovers)",
            lambda th: page_features(th[0], [(h.start, h.end) for h in th[1]]),
            rest,
            rounds,
            chars,
        )
        rate("classifier.score_hours (same)", lambda th: classifier.score_hours(*th), rest, rounds, chars)
        print(f"  ({n_all / len(texts):.1f} hours a page, {n_rest / len(texts):.1f} left to the classifier)")


def big_text(texts: list[str], size: int, one_line: bool = False) -> str:
    """``size`` characters of the part-1 texts repeated; ``one_line``: with no line breaks, as a page whose
    HTML puts everything in one paragraph."""
    corpus = "\n\n".join(texts)
    if one_line:
        corpus = " ".join(corpus.split("\n"))
    return (corpus * (size // len(corpus) + 1))[:size]


def linearity(texts: list[str]) -> None:
    for shape, one_line in (("lines", False), ("one line", True)):
        timings = []
        for label, size in (("0.5 MB", 500_000), ("5 MB", 5_000_000)):
            text = big_text(texts, size, one_line)
            dt = float("inf")
            for _ in range(2):  # best of two: the machine is shared
                t0 = time.perf_counter()
                ex = extract(text, max_hours=10**9)  # no cap: this measures the growth of the time with size
                dt = min(dt, time.perf_counter() - t0)
            timings.append(dt)
            print(
                f"  extract() on {label} of text in {shape}: {dt:6.2f} s "
                f"({len(ex.hours)} hours, {len(ex.masses)} distinct masses)"
            )
        print(f"  time ratio 5 MB / 0.5 MB in {shape}: {timings[1] / timings[0]:.1f} (10 = linear)")


# what a child process runs: extract() over the texts of a JSON file, best of N passes, in seconds
_CHILD = """
import json, sys, time
from msze.extraction.page import extract
texts = json.load(open(sys.argv[1], encoding="utf-8"))
best = float("inf")
for _ in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    for t in texts:
        extract(t)
    best = min(best, time.perf_counter() - t0)
print(best)
"""


def _child_seconds(tree: Path, texts_file: str, rounds: int) -> float:
    """The child's seconds with ``tree``'s msze: run in ``tree``, as `python -c` puts the working folder
    before PYTHONPATH on sys.path (from the repository root both children would import this tree)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, texts_file, str(rounds)],
        env=env,
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip())


def against(rev: str, sets: dict[str, list[str]], rounds: int) -> None:
    """extract() per page, this tree vs ``rev``'s (see the module docstring, part 4)."""
    with exported_tree(rev) as old, tempfile.TemporaryDirectory() as tmp:
        print(f"extract() without a classifier, this tree vs {rev} (child processes, best of {rounds} x 3):")
        for name, texts in sets.items():
            path = Path(tmp) / f"{name}.json"
            path.write_text(json.dumps(texts), encoding="utf-8")
            now = then = float("inf")
            for _ in range(3):  # alternate, so that a busy moment of the shared machine hits both
                now = min(now, _child_seconds(ROOT, str(path), rounds))
                then = min(then, _child_seconds(old, str(path), rounds))
            per_page = f"{now / len(texts) * 1e3:8.2f} ms/page now, {then / len(texts) * 1e3:8.2f} then"
            print(f"  {name:<34} {per_page}: {now / then:5.2f} × {rev}'s time")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", nargs="*", help="realpages-style JSONL (default ../shared/data/realpages)")
    parser.add_argument(
        "--html-pages", type=int, default=100, help="generated HTML pages for part 2 (0: skip)"
    )
    parser.add_argument("--model", help="hour classifier model (default: the packaged msze/models/hours.ftz)")
    parser.add_argument("--no-model", action="store_true", help="rules only: no classifier figures")
    parser.add_argument("--rounds", type=int, default=5, help="passes per figure; the best counts")
    parser.add_argument("--no-linearity", action="store_true", help="skip part 3 (0.5 vs 5 MB)")
    parser.add_argument("--against", metavar="REV", help="part 4: compare extract() with this git revision's")
    args = parser.parse_args(argv)

    paths = args.gold or sorted(glob.glob(str(ROOT.parent / "shared/data/realpages/*.jsonl")))
    if not paths:
        print("no gold files given and ../shared/data/realpages not found", file=sys.stderr)
        return 2
    classifier = None
    if not args.no_model:
        from msze.classifier.model import HourClassifier

        classifier = HourClassifier.load(args.model)
    texts = load_texts(paths)
    print(f"from {len(paths)} files; classifier: {classifier.path if classifier else 'none'}")
    text_stages(texts, classifier, args.rounds)
    if args.html_pages > 0:
        html_stages(generated_pages(args.html_pages), classifier, args.rounds)
    if not args.no_linearity:
        linearity(texts)
    if args.against:
        sets = {"part-1 texts": texts, "one 0.5 MB text (part 3)": [big_text(texts, 500_000)]}
        if args.html_pages > 0:
            sets["part-2 pages' texts"] = [html_to_text(p) for p in generated_pages(args.html_pages)]
        against(args.against, sets, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
