"""`python -m msze crawl-all URLS_FILE`: crawl every parish of a URL list with GNU parallel, resumably.

    python -m msze crawl-all urls.txt --jobs 100 --out output/batch [--warc] [-s NAME=VALUE ...]

This module reads the arguments and rejects bad ones up front (one line, exit status 2, no job started);
msze/batch/driver.py runs the batch: a job database row per URL, one `scrapy crawl` per parish under GNU
parallel, resumable after a kill. `--status` and `--export-only` read a batch's job database.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys

from msze.batch.driver import (
    BatchError,
    BatchOptions,
    CrawlOptions,
    ParishJob,
    drive,
    export,
    parish_spiders,
    run_one,
)
from msze.batch.jobs import JobDB
from msze.batch.plan import UrlList, parse_url_list, spider_error


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "urls_file", nargs="?", help="file of parish URLs (`python -m msze urls` output, or TSV)"
    )
    parser.add_argument(
        "--jobs", type=int, default=100, help="parish crawls at once per machine (default 100)"
    )
    parser.add_argument(
        "--sshlogin",
        action="append",
        default=[],
        help="passed to GNU parallel (repeatable); e.g. 8/user@host",
    )
    parser.add_argument("--out", default="output/batch", help="output directory (default output/batch)")
    parser.add_argument("--db", help="job database (default <out>/jobs.sqlite3)")
    parser.add_argument(
        "--retry-failed",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="re-crawl parishes that failed before (default on)",
    )
    parser.add_argument(
        "--max-attempts", type=int, default=3, help="give up on a parish after this many attempts (0 = never)"
    )
    parser.add_argument("--warc", action="store_true", help="also write <out>/warc/<name>.warc.gz")
    parser.add_argument(
        "--recrawl",
        action="store_true",
        help="crawl the listed parishes again even if finished (a later batch; add -s RECRAWL_STATE=...)",
    )
    parser.add_argument("--spider", default="parish", help="spider to run per parish (default parish)")
    parser.add_argument(
        "-s", dest="settings", action="append", default=[], metavar="NAME=VALUE", help="Scrapy setting"
    )
    parser.add_argument("--progress-interval", type=float, default=5.0, help="seconds between progress lines")
    parser.add_argument("--export-only", action="store_true", help="only write results.jsonl/csv from the DB")
    parser.add_argument("--status", action="store_true", help="print the job DB's counts and failed parishes")
    parser.add_argument("--run-one", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--name", help=argparse.SUPPRESS)
    parser.add_argument("--domain", help=argparse.SUPPRESS)
    parser.add_argument("--driver-pid", type=int, default=0, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """Run the command; a usage error is one line on stderr and exit status 2."""
    try:
        return _run(args)
    except BatchError as exc:
        print(f"crawl-all: {exc}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    _check_settings(args.settings)
    crawl = CrawlOptions(os.path.abspath(args.out), args.spider, tuple(args.settings), args.warc)
    if args.run_one:
        return run_one(_parish_job(args, crawl))
    db = os.path.abspath(args.db) if args.db else os.path.join(crawl.out, "jobs.sqlite3")
    if args.status or args.export_only:
        return _report(args, db, crawl.out)
    _check_batch_arguments(args)
    url_list = read_url_list(args.urls_file, db)
    check_spider(args.spider, args.settings)
    return drive(_batch_options(args, crawl, db), url_list)


def _check_settings(settings: list[str]) -> None:
    for setting in settings:
        if "=" not in setting:
            raise BatchError(f"-s needs NAME=VALUE, got {setting!r}")


def _check_batch_arguments(args: argparse.Namespace) -> None:
    """Reject what would make every parish fail or the batch never start, before anything is written."""
    if not args.urls_file:
        raise BatchError("give a URL file (one parish URL a line)")
    if args.jobs < 1:
        raise BatchError(f"--jobs must be at least 1, got {args.jobs}")
    if args.max_attempts < 0:
        raise BatchError(f"--max-attempts must be 0 (never give up) or more, got {args.max_attempts}")
    if not args.progress_interval > 0:
        raise BatchError(f"--progress-interval must be more than 0 seconds, got {args.progress_interval}")
    if shutil.which("parallel") is None:
        raise BatchError("GNU parallel is not installed (apt-get install parallel)")


def _parish_job(args: argparse.Namespace, crawl: CrawlOptions) -> ParishJob:
    """The per-parish wrapper's job (`--run-one URL`, as the driver's GNU parallel command passes it)."""
    return ParishJob(
        crawl=crawl,
        url=args.run_one,
        name=args.name or None,
        domain=args.domain if args.domain and args.domain != "-" else None,
        db=os.path.abspath(args.db) if args.db else None,
        driver_pid=args.driver_pid,
    )


def _batch_options(args: argparse.Namespace, crawl: CrawlOptions, db: str) -> BatchOptions:
    return BatchOptions(
        crawl=crawl,
        db=db,
        jobs=args.jobs,
        sshlogins=tuple(args.sshlogin),
        retry_failed=args.retry_failed,
        max_attempts=args.max_attempts or None,
        recrawl=args.recrawl,
        progress_interval=args.progress_interval,
    )


def _report(args: argparse.Namespace, db_path: str, out: str) -> int:
    """--status or --export-only over an existing job database."""
    if not os.path.exists(db_path):
        raise BatchError(f"no job database at {db_path} (give --out or --db of a batch)")
    db = _open_db(db_path)
    return status(db) if args.status else export(db, out)


def _open_db(db_path: str) -> JobDB:
    try:
        return JobDB(db_path)
    except sqlite3.DatabaseError as exc:
        raise BatchError(f"{db_path} is not a job database: {exc}") from exc


def status(db: JobDB, limit: int = 20) -> int:
    """Counts per state, then the running and failed parishes (with their errors) on stdout."""
    counts = db.counts()
    print(" ".join(f"{state} {n}" for state, n in counts.items()))
    for state in ("running", "failed"):
        rows = db.rows(state)
        for row in rows[:limit]:
            detail = row["error"] if state == "failed" else f"since {row['started_at']} on {row['host']}"
            print(f"{state}\t{row['url']}\tattempts {row['attempts']}\t{detail}")
        if len(rows) > limit:
            print(f"{state}\t... {len(rows) - limit} more")
    return 0


def read_url_list(path: str, db_path: str) -> UrlList:
    """The URL file's parishes (names kept from the job database, if there is one); warns of skipped lines.
    A file without any parish URL is a usage error: there would be nothing to crawl."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise BatchError(f"cannot read URL file {path}: {exc.strerror or exc}") from exc
    known = None
    if os.path.exists(db_path):
        with _open_db(db_path) as db:
            known = db.names()
    url_list = parse_url_list(lines, known)
    if not url_list.urls:
        raise BatchError(_no_urls_message(path, url_list.invalid))
    for number, text in url_list.invalid[:10]:
        print(f"crawl-all: {path}:{number}: not an http(s) URL, skipped: {text}", file=sys.stderr)
    if len(url_list.invalid) > 10:
        print(f"crawl-all: ... {len(url_list.invalid)} lines without a URL in all", file=sys.stderr)
    if url_list.shared_host:
        print(
            f"crawl-all: {url_list.shared_host} URLs share their host with another URL of the list "
            "(each is crawled on its own, files named host~hash)",
            file=sys.stderr,
        )
    return url_list


def _no_urls_message(path: str, invalid: list[tuple[int, str]]) -> str:
    if not invalid:
        return f"no parish URL in {path} (one http(s) URL a line)"
    number, text = invalid[0]
    return (
        f"no parish URL in {path}: {len(invalid)} lines are not http(s) URLs (line {number}: {text[:80]!r})"
    )


def check_spider(spider: str, settings: list[str]) -> None:
    """Fail up front when the spider does not exist or does not take one parish URL: else every parish of
    the batch would start a crawl that fails."""
    error = spider_error(spider, parish_spiders(settings))
    if error:
        raise BatchError(error)
