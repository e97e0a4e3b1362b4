"""docs/directory.md's chain, offline, end to end: fake deon → deon spider → fake Places → `msze urls` →
`msze crawl-all` of the parish sites the fake Places names → `msze search load` → `msze search serve`, whose
parish pages must show each crawled parish's Mass times.

    .venv/bin/python scripts/directory_chain.py [--out output/directory] [--sample 10] [--jobs 3]

The parishes are the bundled sample (msze/testing/data/deon-sample.tsv, generated: nothing of the thesis's
data is needed); each parish the fake Places gives a website is served on its own port of 127.0.0.1 with a
two-page site announcing its times (msze.testing.sample.site_pages). Every step runs the installed `msze`
command (`python -m msze`), so the chain works from any folder. Exit status 0 when every served parish's page
shows its times.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # msze, when run from a checkout

from msze.directory.deon_parser import read_tsv  # noqa: E402
from msze.testing.deon_site import FakeDeon  # noqa: E402
from msze.testing.places_server import VALID_KEY, FakePlaces, directory_for  # noqa: E402
from msze.testing.sample import SAMPLE_TSV, ParishSite, schedule_of  # noqa: E402

# Local servers answer at once: no politeness delay, short backoff (everything else as in production).
SHOWN_TIME = re.compile(r"<summary[^>]*>\s*(\d\d:\d\d)\s*</summary>")  # a time on a parish page
FAST = ["-s", "AUTOTHROTTLE_START_DELAY=0", "-s", "BACKOFF_MAX_WAIT=0.5", "-s", "TELNETCONSOLE_ENABLED=False"]


def msze(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """One `msze` step; its stderr is shown, a failure stops the chain."""
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy")}
    env["GOOGLE_MAPS_API_KEY"] = VALID_KEY
    print("$ msze " + " ".join(args), flush=True)
    done = subprocess.run(
        [sys.executable, "-m", "msze", *args], cwd=out, env=env, capture_output=True, text=True, timeout=600
    )
    for line in done.stderr.splitlines()[-3:]:
        print(f"    {line}", flush=True)
    if done.returncode != 0:
        raise SystemExit(f"directory chain: `msze {args[0]}` failed (exit status {done.returncode})")
    return done


@contextlib.contextmanager
def served(rows: list[dict]) -> Iterator[tuple[FakeDeon, FakePlaces, list[ParishSite]]]:
    """The fake deon over `rows`, one parish site per row, the fake Places pointing at those sites."""
    sites = [ParishSite(row).start() for row in rows]
    directory, _ = directory_for(rows, [site.base_url + "/" for site in sites])
    deon = FakeDeon(rows, page_size=10).start()
    places = FakePlaces(directory).start()
    try:
        yield deon, places, sites  # type: ignore[misc]
    finally:
        for server in (deon, places, *sites):
            server.stop()


def run_chain(out: Path, count: int, jobs: int) -> dict[str, list[str]]:
    """Run every step into `out`; returns parish page path -> the times it should show, for the crawled
    parishes."""
    rows = list(read_tsv(SAMPLE_TSV))[:count]
    with served(rows) as (deon, places, sites):
        msze(out, "crawl", "deon", "-a", f"start_url={deon.start_url}", "-O", "parishes.tsv:tsv", *FAST)
        msze(out, "crawl", "places", "-a", "parishes=parishes.tsv", "-s", f"PLACES_NEW_URL={places.new_url}",
             "-o", "places.tsv:tsv", *FAST)  # fmt: skip
        msze(out, "urls", "places.tsv", "-o", "urls.txt")
        msze(out, "crawl-all", "urls.txt", "--jobs", str(jobs), "--out", "batch", *FAST)
        msze(out, "search", "load", "--parishes", "parishes.tsv", "--places", "places.tsv",
             "--results", "batch/results.jsonl", "--db", "search.sqlite")  # fmt: skip
        crawled = {url.strip() for url in (out / "urls.txt").read_text(encoding="utf-8").split()}
        by_site = {site.base_url + "/": schedule_of(site.row) for site in sites}
    with contextlib.closing(sqlite3.connect(out / "search.sqlite")) as db:
        ids = dict(db.execute("SELECT website, id FROM parishes WHERE website != ''"))
    return {f"/parafia/{ids[url]}": announced(by_site[url]) for url in crawled}


def announced(schedule: dict[str, list[str]]) -> list[str]:
    """The distinct times a site announces, as the search page writes them (HH:MM)."""
    return sorted({t.rjust(5, "0") for times in schedule.values() for t in times})


def check_pages(out: Path, expected: dict[str, list[str]]) -> list[str]:
    """Serve the database and fetch each parish page: the pages whose times are not the ones announced."""
    server = subprocess.Popen(
        [sys.executable, "-m", "msze", "search", "serve", "--db", "search.sqlite", "--port", "0"],
        cwd=out, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()  # "msze search: serving … on http://127.0.0.1:PORT/"
        base = line.rsplit(" ", 1)[-1].strip().rstrip("/")
        print(f"$ msze search serve --db search.sqlite --port 0\n    {line.strip()}", flush=True)
        missing = []
        for path, times in sorted(expected.items()):
            with urllib.request.urlopen(base + path, timeout=30) as answer:
                shown = set(SHOWN_TIME.findall(answer.read().decode("utf-8")))
            print(f"{path}: {', '.join(sorted(shown))}", flush=True)
            if shown != set(times):
                missing.append(f"{path} shows {sorted(shown)}, the site announces {times}")
        for problem in missing:
            print(f"    MISMATCH {problem}")
        return missing
    finally:
        server.terminate()
        server.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("output/directory"))
    parser.add_argument("--sample", type=int, default=10, help="parishes of the sample to use (at most 25)")
    parser.add_argument("--jobs", type=int, default=3, help="parish crawls at once (default 3)")
    args = parser.parse_args(argv)
    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    started = time.monotonic()
    expected = run_chain(out, args.sample, args.jobs)
    missing = check_pages(out, expected)
    took = time.monotonic() - started
    print(f"directory chain: {len(expected) - len(missing)} of {len(expected)} parish pages show their times "
          f"({took:.0f} s; files in {out})")  # fmt: skip
    return 1 if missing or not expected else 0


if __name__ == "__main__":
    sys.exit(main())
