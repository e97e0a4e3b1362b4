"""`python -m msze crawl-all URLS_FILE`: crawl every parish of a URL list with GNU parallel, resumably.

    python -m msze crawl-all urls.txt --jobs 100 --out output/batch [--warc] [-s NAME=VALUE ...]

Each URL is a row in the job database (<out>/jobs.sqlite3 by default). GNU parallel runs one small wrapper
per parish (`crawl-all --run-one URL`) that marks the row running, runs `scrapy crawl parish` with the
parish's own log, pages file and (optionally) WARC file, builds the parish summary and marks the row finished
or failed. A re-run skips finished parishes and retries failed ones and those a killed batch left running.
An interrupted parish is re-crawled from scratch: each crawl writes into its own work directory, emptied
first, and its pages/WARC files are moved into place only when it has ended, so each page is written once.
With --sshlogin the wrappers run on other machines (same install path, --out on a shared filesystem) and
report over stdout; only the driver writes the SQLite file (keep it on a local disk).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import functools
import glob
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from msze.batch.jobs import JobDB
from msze.batch.plan import (
    EVENT_PREFIX,
    crawl_error,
    job_name,
    parallel_command,
    parish_paths,
    parse_url_list,
    progress_line,
    spread_by_domain,
)
from msze.batch.results import export_csv, export_jsonl, summarize_file
from msze.utils.time import utc_now

PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
PR_SET_PDEATHSIG = 1


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
    for setting in args.settings:
        if "=" not in setting:
            print(f"crawl-all: -s needs NAME=VALUE, got {setting!r}", file=sys.stderr)
            return 2
    args.out = os.path.abspath(args.out)
    if args.db:
        args.db = os.path.abspath(args.db)
    if args.run_one:
        return run_one(args)
    if args.db is None:
        args.db = os.path.join(args.out, "jobs.sqlite3")
    if (args.status or args.export_only) and not os.path.exists(args.db):
        print(f"crawl-all: no job database at {args.db} (give --out or --db of a batch)", file=sys.stderr)
        return 2
    if args.status:
        return status(JobDB(args.db))
    if args.export_only:
        return export(JobDB(args.db), args.out)
    if not args.urls_file:
        print("crawl-all: give a URL file (one parish URL a line)", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print(f"crawl-all: --jobs must be at least 1, got {args.jobs}", file=sys.stderr)
        return 2
    if shutil.which("parallel") is None:
        print("crawl-all: GNU parallel is not installed (apt-get install parallel)", file=sys.stderr)
        return 2
    return drive(args)


# --- the driver ---------------------------------------------------------------------------------------


def export(db: JobDB, out: str) -> int:
    summaries = db.summaries()
    os.makedirs(out, exist_ok=True)
    export_jsonl(summaries, os.path.join(out, "results.jsonl"))
    export_csv(summaries, os.path.join(out, "results.csv"))
    print(
        f"crawl-all: {len(summaries)} parish results in {out}/results.jsonl and results.csv", file=sys.stderr
    )
    return 0


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


def _lock_batch(db_path: str) -> Any:
    """One driver per job database: a second one would re-crawl the first one's running parishes."""
    handle = open(db_path + ".lock", "w")  # noqa: SIM115 (held for the driver's lifetime)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def drive(args: argparse.Namespace) -> int:
    try:
        with open(args.urls_file, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        print(f"crawl-all: cannot read {args.urls_file}: {exc}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    db = JobDB(args.db)
    lock = _lock_batch(args.db)
    if lock is None:
        print(f"crawl-all: another crawl-all is running on {args.db}; not starting", file=sys.stderr)
        return 2
    url_list = parse_url_list(lines, db.names())
    for number, text in url_list.invalid[:10]:
        print(f"crawl-all: {args.urls_file}:{number}: not an http(s) URL, skipped: {text}", file=sys.stderr)
    if len(url_list.invalid) > 10:
        print(f"crawl-all: ... {len(url_list.invalid)} lines without a URL in all", file=sys.stderr)
    if url_list.shared_host:
        print(
            f"crawl-all: {url_list.shared_host} URLs share their host with another URL of the list "
            "(each is crawled on its own, files named host~hash)",
            file=sys.stderr,
        )
    new = db.enqueue(url_list.urls, url_list.domains, url_list.names)
    listed = set(url_list.urls)  # a job database may hold parishes of other lists: those wait for theirs
    if args.recrawl:
        db.reset(url_list.urls)
    max_attempts = args.max_attempts or None
    pending = [u for u in db.pending(args.retry_failed, max_attempts) if u in listed]
    pending = spread_by_domain(pending, url_list.domains)
    counts = db.counts()
    print(
        f"crawl-all: {len(url_list.urls)} URLs ({new} new); {counts['finished']} finished before, "
        f"{len(pending)} to crawl now, {args.jobs} at a time",
        file=sys.stderr,
    )
    if pending:
        _run_parallel(args, db, pending)
    export(db, args.out)
    counts = db.counts()
    brief = db.brief()
    failed = [u for u in pending if brief.get(u, ("",))[0] != "finished"]
    print(
        f"crawl-all: done: {counts['finished']} finished, {counts['failed']} failed, "
        f"{counts['running'] + counts['queued']} not done; this run crawled {len(pending)}, "
        f"{len(failed)} did not finish",
        file=sys.stderr,
    )
    lock.close()
    return 1 if failed else 0


def _project_env() -> dict[str, str]:
    """This environment with the project importable first (GNU parallel and scrapy run from any cwd)."""
    return dict(os.environ, PYTHONPATH=PROJECT_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _job_command(args: argparse.Namespace, remote: bool) -> list[str]:
    # `env PYTHONPATH=...`: an ssh login starts in the home directory with a bare environment.
    cmd = ["env", f"PYTHONPATH={PROJECT_ROOT}", sys.executable, "-m", "msze", "crawl-all"]
    cmd += ["--run-one", "{1}", "--name", "{2}", "--domain", "{3}", "--out", args.out]
    cmd += ["--spider", args.spider]
    if not remote:
        cmd += ["--db", args.db, "--driver-pid", str(os.getpid())]
    if args.warc:
        cmd.append("--warc")
    for setting in args.settings:
        cmd += ["-s", setting]
    return cmd


def _apply_event(db: JobDB, event: dict[str, Any]) -> None:
    """Record a wrapper's start/end event: the local wrapper calls it directly, the driver for remote ones."""
    url = event["url"]
    if event["event"] == "start":
        db.start(url, log_path=event.get("log_path"), host=event.get("host"), pid=event.get("pid"))
    elif event["event"] == "end":
        if event["state"] == "finished":
            db.finish(url, event.get("summary"))
        else:
            db.fail(url, event.get("error") or "unknown error", event.get("summary"))
        if event.get("requeue"):
            db.reset([url])


def _read_output(stream: Any, db_path: str) -> None:
    """Apply wrapper events (remote jobs) and pass any other job output on to stderr."""
    db: JobDB | None = None
    for line in stream:
        if line.startswith(EVENT_PREFIX):
            try:
                event = json.loads(line[len(EVENT_PREFIX) :])
            except json.JSONDecodeError:
                continue
            db = db or JobDB(db_path)
            _apply_event(db, event)
        else:
            sys.stderr.write(line)
    if db is not None:
        db.close()


def _run_parallel(args: argparse.Namespace, db: JobDB, pending: list[str]) -> None:
    arg_file = os.path.join(args.out, "pending.txt")
    names = db.names()
    domains = {row["url"]: row["domain"] for row in db.rows()}
    with open(arg_file, "w", encoding="utf-8") as f:
        f.writelines(f"{u}\t{names.get(u) or job_name(u, set())}\t{domains.get(u) or '-'}\n" for u in pending)
    # Progress counts rows of this run that ended after it started (attempt or end time changed).
    brief = db.brief()
    before = {u: (brief[u][1], brief[u][2]) for u in pending if u in brief}
    remote = bool(args.sshlogin)
    cmd = parallel_command(
        _job_command(args, remote),
        jobs=args.jobs,
        joblog=os.path.join(args.out, "joblog.txt"),
        arg_file=arg_file,
        sshlogins=args.sshlogin,
    )
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=_project_env())
    reader = threading.Thread(target=_read_output, args=(proc.stdout, args.db), daemon=True)
    reader.start()

    stopped: list[int] = []

    def forward(signum: int, _frame: Any) -> None:
        # parallel stops starting jobs on the first TERM and kills running ones on the second.
        stopped.append(signum)
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    started = time.monotonic()
    tty = sys.stderr.isatty()
    last = ""
    try:
        while True:
            try:
                proc.wait(timeout=args.progress_interval)
                break
            except subprocess.TimeoutExpired:
                pass
            brief = db.brief()
            done = sum(1 for url, was in before.items() if _ended_since(brief.get(url), was))
            last = progress_line(db.counts(), done, len(pending), time.monotonic() - started)
            sys.stderr.write(("\r" + last) if tty else (last + "\n"))
            sys.stderr.flush()
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
    reader.join(timeout=10)
    if tty and last:
        sys.stderr.write("\n")
    if stopped or proc.returncode < 0:
        _wait_for_wrappers(db, pending)


def _wait_for_wrappers(db: JobDB, urls: list[str], timeout: float = 30.0) -> None:
    """After Ctrl-C, give the stopped jobs time to record their state before the driver (which they watch)
    exits; a job that records nothing stays "running" and is re-crawled next run anyway."""
    host = socket.gethostname()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = [db.get(url) for url in urls]
        alive = [r for r in rows if r and r["state"] == "running" and r["host"] == host and _alive(r["pid"])]
        if not alive:
            return
        time.sleep(0.2)


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _ended_since(now: tuple[str, str | None, int] | None, before: tuple[str | None, int]) -> bool:
    return now is not None and now[0] in ("finished", "failed") and (now[1], now[2]) != before


# --- the per-parish wrapper ------------------------------------------------------------------------------


def _die_with_parent() -> None:
    """Linux: the scrapy child is killed when the wrapper dies (even by kill -9); no orphan keeps writing."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def _watch_driver(pid: int, child: subprocess.Popen[bytes]) -> None:
    """GNU parallel puts each job in its own process group, so killing the driver's group leaves jobs alive:
    a job whose driver is gone kills its crawl and exits without touching the job database."""
    while child.poll() is None:
        if not _alive(pid):
            child.kill()
            os._exit(3)
        time.sleep(0.5)


def _emit(event: dict[str, Any]) -> None:
    sys.stdout.write(EVENT_PREFIX + json.dumps(event, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def _collect_pages(work: str, pages: str) -> None:
    """Move the crawl's JSONL (one file, `<domain>.jsonl`; more if items named other domains) to `pages`."""
    files = sorted(glob.glob(os.path.join(work, "*.jsonl")))
    if len(files) == 1:
        os.replace(files[0], pages)
    elif files:
        tmp = pages + ".tmp"
        with open(tmp, "wb") as out:
            for file in files:
                with open(file, "rb") as f:
                    shutil.copyfileobj(f, out)
        os.replace(tmp, pages)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def _last_error_line(log_path: str) -> str:
    """The last ERROR/CRITICAL line of a parish log (else its last line), to say why a crawl did not run."""
    try:
        with open(log_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 65536))
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return ""
    for line in reversed(lines):
        if "ERROR" in line or "CRITICAL" in line:
            return line.strip()[:300]
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1][:300] if tail else ""  # e.g. the exception line of a traceback


def run_one(args: argparse.Namespace) -> int:
    """Crawl one parish and record the outcome; exit 0 when it finished, 1 when it failed."""
    url = args.run_one
    domain = args.domain if args.domain and args.domain != "-" else None
    if domain is None:
        from msze.crawling.links import domain_of

        domain = domain_of(url)
    paths = parish_paths(args.out, args.name or job_name(url, set()))
    for path in (paths.pages, paths.log, paths.stats, paths.warc, paths.lock):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    # The lock is inherited by the crawl: a restarted job for this parish waits until the old crawl is dead.
    lock_fd = os.open(paths.lock, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + 120
    while True:
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                print(f"crawl-all: {url}: another crawl of {domain} is still running", file=sys.stderr)
                return 1
            time.sleep(0.2)
    db = JobDB(args.db) if args.db else None
    crawled_at = utc_now()
    record = functools.partial(_apply_event, db) if db else _emit
    record(
        {
            "event": "start",
            "url": url,
            "log_path": paths.log,
            "host": socket.gethostname(),
            "pid": os.getpid(),
        }
    )
    # Re-crawl from scratch: whatever an interrupted attempt left is replaced, never appended to. The crawl
    # writes into its own work directory; pages/ and warc/ only ever receive complete parish files.
    for path in (paths.pages, paths.stats, paths.warc):
        _remove(path)
    shutil.rmtree(paths.work, ignore_errors=True)
    os.makedirs(paths.work)
    work_warc = os.path.join(paths.work, "crawl.warc.gz")
    cmd = [sys.executable, "-m", "scrapy", "crawl", args.spider, "-a", f"url={url}"]
    cmd += ["-s", f"PAGES_DIR={paths.work}", "-s", f"LOG_FILE={paths.log}"]
    cmd += ["-s", f"STATS_FILE={paths.stats}"]
    if args.warc:
        cmd += ["-s", "WARC_ENABLED=1", "-s", f"WARC_FILE={work_warc}"]
    for setting in args.settings:
        cmd += ["-s", setting]
    env = _project_env()
    env.setdefault("SCRAPY_SETTINGS_MODULE", "msze.settings")
    with open(paths.log, "ab") as log:
        log.write(f"--- crawl-all attempt at {crawled_at}: {' '.join(cmd)}\n".encode())
        log.flush()
        child = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            pass_fds=(lock_fd,),
            preexec_fn=_die_with_parent,
        )
    if args.driver_pid:
        threading.Thread(target=_watch_driver, args=(args.driver_pid, child), daemon=True).start()

    interrupted: list[int] = []

    def forward(signum: int, _frame: Any) -> None:
        # A cut-short crawl is re-crawled from scratch anyway: no graceful shutdown to wait for.
        interrupted.append(signum)
        child.kill()

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward)
    returncode = child.wait()
    stats = None
    with contextlib.suppress(OSError, json.JSONDecodeError), open(paths.stats, encoding="utf-8") as f:
        stats = json.load(f)
    response_bytes = (stats or {}).get("downloader/response_bytes")
    staged = os.path.join(paths.work, "pages.collected")
    _collect_pages(paths.work, staged)
    summary = summarize_file(staged, url, domain, crawled_at=crawled_at, bytes_=response_bytes)
    error = crawl_error(stats, summary["pages"], returncode)
    # Only a crawl that ran to its end publishes its files; a cut-short one is re-crawled from scratch.
    complete = (
        not interrupted and returncode >= 0 and stats is not None and stats.get("finish_reason") != "shutdown"
    )
    if complete:
        if os.path.exists(staged):
            os.replace(staged, paths.pages)
        if os.path.exists(work_warc):
            os.replace(work_warc, paths.warc)
    shutil.rmtree(paths.work, ignore_errors=True)
    if interrupted:  # the batch was stopped (Ctrl-C, parallel --timeout): partial, so crawled again next run
        name = signal.Signals(interrupted[0]).name
        error = f"crawl interrupted by {name} (batch stopped); re-crawled on the next run"
    elif error and (returncode != 0 or stats is None):
        last = _last_error_line(paths.log)
        if last:
            error = f"{error}: {last}"
    summary["status"] = "failed" if error else "finished"
    summary["error"] = error
    # An interrupted parish goes back to the queue ("requeue", its error kept): it is not a failure of the
    # site, so it does not count against --max-attempts.
    record(
        {
            "event": "end",
            "url": url,
            "state": summary["status"],
            "error": error,
            "summary": summary,
            "requeue": bool(interrupted),
        }
    )
    if db:
        db.close()
    os.close(lock_fd)
    return 1 if error else 0
