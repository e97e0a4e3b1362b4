"""Kill a real batch with kill -9 half-way, resume it, and check the outcome; prints the figures.

    .venv/bin/python scripts/crawl_all_resume_check.py --sites 60 --jobs 8 --out /tmp/resume-check

Serves the generated fake web (benchmarks/fakeweb.py) on 127.0.0.1, runs `python -m msze crawl-all` over
its start URLs, kills the driver's process group with SIGKILL once half the parishes have ended, runs the same
command again, then checks: every parish ended (finished or failed), no page appears twice in any
`<parish>.jsonl`, the DB's page counts match the files, and no parish finished before the kill was re-crawled.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import fakeweb  # noqa: E402

from msze.batch.jobs import JobDB  # noqa: E402

FAST = ["-s", "AUTOTHROTTLE_ENABLED=0", "-s", "BACKOFF_MAX_WAIT=1", "-s", "DOWNLOAD_TIMEOUT=10"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=8)
    parser.add_argument("--out", default="/tmp/msze-resume-check")
    parser.add_argument(
        "--kill-at", type=float, default=0.5, help="fraction of parishes ended before kill -9"
    )
    args = parser.parse_args()
    out = Path(args.out)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    urls = out / "urls.txt"
    web, proxy = fakeweb.start(args.sites, urls)
    try:
        env = dict(os.environ, http_proxy=proxy, no_proxy="127.0.0.1,localhost", PYTHONPATH=str(ROOT))
        batch = out / "batch"
        cmd = [
            sys.executable,
            "-m",
            "msze",
            "crawl-all",
            str(urls),
            "--out",
            str(batch),
            "--jobs",
            str(args.jobs),
        ]
        cmd += ["--progress-interval", "10", *FAST]
        t0 = time.monotonic()
        first = subprocess.Popen(cmd, env=env, cwd=ROOT, start_new_session=True, stderr=subprocess.DEVNULL)
        db_path = batch / "jobs.sqlite3"
        while True:
            time.sleep(0.2)
            if db_path.exists():
                counts = JobDB(db_path).counts()
                if counts["finished"] + counts["failed"] >= args.sites * args.kill_at:
                    break
            if first.poll() is not None:
                print("the first run ended before the kill point", file=sys.stderr)
                return 1
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
        killed_after = time.monotonic() - t0
        db = JobDB(db_path)
        at_kill = db.counts()
        finished_before = {r["url"]: r["ended_at"] for r in db.rows("finished")}
        t1 = time.monotonic()
        second = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True)
        resumed = time.monotonic() - t1
        final = db.counts()
        duplicates = 0
        mismatched = 0
        pages_total = 0
        for row in db.rows():
            path = batch / "pages" / f"{row['name']}.jsonl"
            page_urls = []
            if path.exists():
                page_urls = [json.loads(x)["url"] for x in path.read_text(encoding="utf-8").splitlines() if x]
            duplicates += len(page_urls) - len(set(page_urls))
            mismatched += int((row["pages"] or 0) != len(page_urls))
            pages_total += len(page_urls)
        redone = sum(1 for u, ended in finished_before.items() if db.get(u)["ended_at"] != ended)
        figures = {
            "sites": args.sites,
            "jobs": args.jobs,
            "killed_after_s": round(killed_after, 1),
            "at_kill": at_kill,
            "resume_run_s": round(resumed, 1),
            "resume_exit": second.returncode,
            "final": final,
            "pages": pages_total,
            "duplicate_pages": duplicates,
            "db_page_count_mismatches": mismatched,
            "finished_parishes_recrawled": redone,
        }
        print(json.dumps(figures))
        ok = (
            final["queued"] == final["running"] == 0
            and final["finished"] + final["failed"] == args.sites
            and duplicates == mismatched == redone == 0
        )
        print("OK" if ok else "FAILED")
        return 0 if ok else 1
    finally:
        web.terminate()
        web.wait()


if __name__ == "__main__":
    sys.exit(main())
