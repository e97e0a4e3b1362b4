"""Re-crawl with conditional requests and change detection, measured over the fake web.

    .venv/bin/python benchmarks/bench_recrawl.py --sites 220

Three one-process crawls (`scrapy crawl parishes`, AutoThrottle off) share one RECRAWL_STATE:
1. first run over benchmarks/fakeweb.py at epoch 0 (every page downloaded, state written);
2. the same web again: servers answer 304 to If-None-Match, the stored pages are re-used;
3. the web at epoch 1: every 10th parish moved its Mass times, the start page of sites n % 25 == 1 became a
   JavaScript shell. Prints per run: responses, 304s, bytes downloaded, seconds, CPU, page and parish change
   counts; then the parishes reported changed against the ones the fake web changed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import fakeweb  # noqa: E402
from procmem import children_cpu_seconds  # noqa: E402


def crawl(urls: Path, state: Path, work: Path, run: int, proxy: str) -> dict:
    out = work / f"run{run}"
    stats_file = out / "stats.json"
    out.mkdir(parents=True)
    cmd = [sys.executable, "-m", "scrapy", "crawl", "parishes", "-a", f"urls={urls}",
           "-s", "AUTOTHROTTLE_ENABLED=False", "-s", f"RECRAWL_STATE={state}",
           "-s", f"PAGES_DIR={out / 'pages'}", "-s", f"STATS_FILE={stats_file}",
           "-s", f"LOG_FILE={out / 'crawl.log'}"]  # fmt: skip
    env = dict(os.environ, http_proxy=proxy, no_proxy="localhost,127.0.0.1")
    before = children_cpu_seconds()
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, env=env)
    wall = time.monotonic() - started
    cpu = children_cpu_seconds() - before
    if done.returncode != 0:
        raise SystemExit(f"crawl {run} failed ({done.returncode}); see {out / 'crawl.log'}")
    stats = json.loads(stats_file.read_text())
    stats["_wall"] = wall
    stats["_cpu"] = cpu
    return stats


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=220)
    parser.add_argument("--work", help="keep outputs here (default: a temp dir, removed)")
    args = parser.parse_args(argv)
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-recrawl-"))
    if args.work and work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    urls, state = work / "urls.txt", work / "recrawl.sqlite"
    rows = []
    for run, epoch in ((1, 0), (2, 0), (3, 1)):
        web, proxy = fakeweb.start(args.sites, urls, epoch)
        try:
            print(f"run {run}: fake web epoch {epoch} ...", flush=True)
            rows.append((run, epoch, crawl(urls, state, work, run, proxy)))
        finally:
            web.terminate()
            web.wait()

    print()
    print(f"{'run':>3} {'epoch':>5} {'responses':>9} {'304':>5} {'MB down':>8} {'seconds':>8} {'CPU s':>6} "
          f"{'pages new/unch/304/chg/shrunk':>30} {'parishes new/unch/chg/suspect':>30}")  # fmt: skip
    for run, epoch, s in rows:
        pages = "/".join(str(s.get(f"msze/recrawl/pages/{k}", 0))
                         for k in ("new", "unchanged", "not_modified", "changed", "shrunk"))  # fmt: skip
        parishes = "/".join(str(s.get(f"msze/recrawl/parishes/{k}", 0))
                            for k in ("new", "unchanged", "changed", "suspect"))  # fmt: skip
        print(f"{run:>3} {epoch:>5} {s.get('response_received_count', 0):>9} "
              f"{s.get('downloader/response_status_count/304', 0):>5} "
              f"{s.get('downloader/response_bytes', 0) / 1e6:>8.1f} {s['elapsed_time_seconds']:>8.1f} "
              f"{s['_cpu']:>6.1f} {pages:>30} {parishes:>30}")  # fmt: skip

    working = [
        n for n in range(args.sites) if not fakeweb.site_spec(n).fails and not fakeweb.site_spec(n).drops
    ]
    moved = {fakeweb.host(n) for n in working if n % 10 == 0}
    shells = {fakeweb.host(n) for n in working if n % 25 == 1}
    db = sqlite3.connect(state)
    sql = (
        "SELECT domain, status, flagged_pages FROM recrawl_changes"
        " WHERE id IN (SELECT MAX(id) FROM recrawl_changes GROUP BY domain)"
    )
    last = {domain: (status, json.loads(flagged)) for domain, status, flagged in db.execute(sql)}
    reported = {d for d, (st, _) in last.items() if st == "changed"}
    flagged = {d for d, (_, pages) in last.items() if pages}
    print(
        f"\nepoch 1 moved the Mass times of {len(moved)} working parishes: reported changed "
        f"{len(moved & reported)}/{len(moved)}, other parishes reported changed {len(reported - moved)}"
    )
    print(
        f"epoch 1 turned {len(shells)} start pages into JavaScript shells: flagged {len(shells & flagged)}/"
        f"{len(shells)}, reported changed {len(shells & reported)}, others flagged {len(flagged - shells)}"
    )
    print(f"outputs: {work}")
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
