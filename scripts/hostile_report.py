"""Run the hostile-server scenarios (tests/hostile.py) and print a table of what each crawl cost and did.

    .venv/bin/python scripts/hostile_report.py                  # all scenarios, one after another
    .venv/bin/python scripts/hostile_report.py fan_out utf16    # some of them

Columns: wall seconds of the `scrapy crawl` child, its peak RSS (getrusage of a fresh child process), pages
stored, the scenario's key stats, and "ok" or what went wrong (tests/crawls/test_hostile.py asserts the same).
Exit status 1 when any scenario misbehaved.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import hostile  # noqa: E402 (after the sys.path line above)


def row(outcome: hostile.Outcome) -> list[str]:
    """One table row: scenario, wall s, peak RSS MB, pages stored, key stats, verdict."""
    result = outcome.result
    stats = result.stats if result else {}
    keys = outcome.scenario.key_stats or tuple(outcome.scenario.stats)[:2]
    shown = ", ".join(f"{key.removeprefix('msze/')}={stats.get(key, 0)}" for key in keys)
    found = hostile.problems(outcome)
    return [
        outcome.scenario.name,
        f"{outcome.seconds:.1f}",
        f"{outcome.peak_rss_mb:.0f}",
        str(len(result.items)) if result else "-",
        shown,
        "ok" if not found else "; ".join(found),
    ]


def main(names: list[str]) -> int:
    unknown = set(names) - {s.name for s in hostile.SCENARIOS}
    if unknown:
        print(f"unknown scenario(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    header = ["scenario", "wall s", "peak RSS MB", "pages stored", "key stats", "verdict"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    failed = 0
    for scenario in hostile.SCENARIOS:
        if names and scenario.name not in names:
            continue
        with tempfile.TemporaryDirectory(prefix=f"hostile-{scenario.name}-") as tmp:
            cells = row(hostile.run_scenario(scenario, Path(tmp)))
        failed += cells[-1] != "ok"
        print("| " + " | ".join(cells) + " |", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
