"""Random User-Agent per request: msze's BrowserUserAgentMiddleware against fake-useragent's own `.random`.

    .venv/bin/python benchmarks/bench_useragent.py [--draws 2000]

fake-useragent 2.x filters its ~7 000 browsers again on every `.random`; msze's middleware filters them
once per process (msze.middlewares.browser_agents) and draws by usage share. Prints µs per User-Agent for
both, measured in the same run, and the ratio (the thesis-scale crawl asks for one per request).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fake_useragent  # noqa: E402

from msze.middlewares import BrowserUserAgentMiddleware, browser_agents  # noqa: E402


def per_call(draw: Callable[[], str], draws: int) -> float:
    """Seconds per call of `draw`, best of three rounds (the least disturbed by other processes)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(draws):
            draw()
        best = min(best, (time.perf_counter() - started) / draws)
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=2000, help="User-Agents drawn per round (default 2000)")
    args = parser.parse_args(argv)
    if args.draws < 1:
        parser.error("--draws must be at least 1")
    started = time.perf_counter()
    provider = BrowserUserAgentMiddleware(*browser_agents(), fixed="")
    setup = time.perf_counter() - started
    ua = fake_useragent.UserAgent()
    ours = per_call(provider.random_user_agent, args.draws)
    theirs = per_call(lambda: ua.random, max(1, args.draws // 20))  # ~7 ms each: fewer draws suffice
    print(f"agents: {len(provider.agents)}, filtered once per process in {setup * 1000:.0f} ms")
    print(f"BrowserUserAgentMiddleware:          {ours * 1e6:10.1f} µs per User-Agent")
    print(f"fake_useragent.UserAgent().random:   {theirs * 1e6:10.1f} µs per User-Agent")
    print(f"ratio (fake-useragent / msze): {theirs / ours:.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
