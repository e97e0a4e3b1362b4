"""The hostile-server suite: one `scrapy crawl` per scenario of tests/hostile.py (compression bombs, endless
and dripping bodies, fan-out, session-id traps, redirect chains, odd encodings, closed connections, 429 with
Retry-After: 86400 or odd values, compressed extensionless pages, credentials in links, a fan-out site in the
one-process `parishes` spider).

Each crawl must end within hostile.CRAWL_TIMEOUT (else it is killed), stay under hostile.MAX_RSS_MB peak RSS
(safety bounds, not benchmarks), store exactly the scenario's pages decoded right, show its stats, and log no
traceback. `scripts/hostile_report.py` runs the same scenarios and prints wall time, peak RSS and pages.
"""

from __future__ import annotations

from pathlib import Path

import hostile
import pytest


@pytest.mark.parametrize("scenario", hostile.SCENARIOS, ids=lambda scenario: scenario.name)
def test_hostile_server(scenario: hostile.Scenario, tmp_path: Path) -> None:
    outcome = hostile.run_scenario(scenario, tmp_path)
    assert hostile.problems(outcome) == [], scenario.what
