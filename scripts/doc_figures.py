"""The measured figures in docs/extraction.md, written from their sources so that the docs cannot drift:

- `guarded`: the figures CI guards, from data/figures.json (`msze evaluate --figures` writes it, `--check`
  compares the code with it);
- `realpages`: `msze evaluate` on ../shared/data/realpages (dev-C, dev-D), run here (needs ../shared).

Each sits between `<!-- figures:NAME -->` and `<!-- /figures:NAME -->`. `.venv/bin/python
scripts/doc_figures.py` rewrites the blocks (a block whose source is missing is left alone);
tests/unit/test_doc_figures.py checks they are current.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "extraction.md"
FIGURES = REPO / "data" / "figures.json"
SHARED_PAGES = REPO.parent / "shared" / "data" / "realpages"
REALPAGES = ("dev-C.jsonl", "dev-D.jsonl")


def block_re(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- figures:{name} -->\n)(.*?)(<!-- /figures:{name} -->)", re.S)


def guarded_table(baseline: dict[str, Any]) -> str:
    """The table of data/figures.json's figures, one row per label set."""
    pages, sites, rows = (baseline[name]["figures"] for name in ("realpages", "realsites", "diocesan"))

    def parishes(f: dict[str, Any]) -> str:
        return (
            f"weekly P {f['weekly_precision']:.3f} R {f['weekly_recall']:.3f} F1 {f['weekly_f1']:.3f}; "
            f"Sunday exact {f['sunday_exact']:.3f}; seasons {f['seasons']:.3f}; "
            f"other churches {f['churches']:.3f}"
            + (f"; confession {f['confession']:.3f}" if f.get("confession") is not None else "")
        )

    return (
        "| set | figures |\n| --- | --- |\n"
        f"| data/realpages, {pages['pages']} pages | Mass times per page P {pages['precision']:.3f} "
        f"R {pages['recall']:.3f} F1 {pages['f1']:.3f}; schedule pairs found {pages['pair_recall']:.3f}, "
        f"right day {pages['day_precision']:.3f} |\n"
        f"| data/realsites, {sites['parishes']} web parishes | {parishes(sites)} |\n"
        f"| data/diocesan, {rows['parishes']} diocesan rows | {parishes(rows)} |\n"
    )


def realpages_table(result: dict[str, Any]) -> str:
    """`msze evaluate --json` on the ../shared pages as the doc's table and its day sentence."""
    rules = result["systems"]["rules"]
    tokens, pages = rules["tokens"], rules["pages"]
    day, right = result["schedule_day_recall"], result["schedule_day_precision"]

    def share(m: dict[str, Any], key: str, of: str) -> str:
        return f"{m[key]:.3f} ({m['tp']}/{m['tp'] + m[of]})"

    return (
        "| | precision | recall | F1 | accuracy | MCC |\n| --- | --- | --- | --- | --- | --- |\n"
        f"| hour extractor, recall of gold tokens | | {result['extractor_recall']:.4f} "
        f"({result['gold_tokens_found']}/{result['gold_tokens']}; thesis regex alone "
        f"{result['thesis_extractor_recall']:.4f}) | | | |\n"
        f"| rules, Mass start per token | {share(tokens, 'precision', 'fp')} | "
        f"{share(tokens, 'recall', 'fn')} | {tokens['f1']:.3f} | {tokens['accuracy']:.3f} | "
        f"{tokens['mcc']:.3f} |\n"
        f"| rules, Mass times per page (distinct HH:MM) | {share(pages, 'precision', 'fp')} | "
        f"{share(pages, 'recall', 'fn')} | {pages['f1']:.3f} | | |\n"
        f"\nThe rules also give {100 * day['recall']:.1f} % ({day['found']}/{day['total']}) of the gold "
        f"schedules' (day, time) pairs the right day, and {100 * right['precision']:.1f} % "
        f"({right['right']}/{right['reported']}) of the pairs they report at a schedule's time are the "
        "schedule's.\n"
    )


def evaluate_shared() -> dict[str, Any] | None:
    """`msze evaluate --json` on the ../shared pages, or None when they are not there."""
    files = [SHARED_PAGES / name for name in REALPAGES]
    if not all(file.is_file() for file in files):
        return None
    command = [sys.executable, "-m", "msze", "evaluate", *map(str, files), "--mistakes", "0", "--json"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=True, timeout=300)
    return json.loads(done.stdout)


def sources() -> dict[str, Callable[[], str | None]]:
    """Block name -> its current text (None: its source is not available here)."""

    def guarded() -> str:
        return guarded_table(json.loads(FIGURES.read_text(encoding="utf-8")))

    def realpages() -> str | None:
        result = evaluate_shared()
        return realpages_table(result) if result is not None else None

    return {"guarded": guarded, "realpages": realpages}


def current_block(text: str, name: str) -> str:
    match = block_re(name).search(text)
    assert match, f"docs/extraction.md has no figures:{name} block"
    return match.group(2)


def main() -> int:
    text = DOC.read_text(encoding="utf-8")
    for name, source in sources().items():
        fresh = source()
        if fresh is None:
            print(f"figures:{name}: source not available, left as it is", file=sys.stderr)
            continue
        current_block(text, name)
        text = block_re(name).sub(lambda m, fresh=fresh: m.group(1) + fresh + m.group(3), text)
    DOC.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
