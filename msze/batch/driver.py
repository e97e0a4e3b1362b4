"""The batch driver: GNU parallel runs one small wrapper per parish, each wrapper one `scrapy crawl` process.

No Scrapy in this process: Scrapy runs only in the subprocesses, so the driver and its 100 wrappers stay
small. Each URL is a row in the job database (msze/batch/jobs.py). GNU parallel runs one wrapper per parish
(`python -m msze crawl-all --run-one URL`, i.e. run_one()) that marks the row running, runs `scrapy crawl
parish` with the parish's own log, pages file and (optionally) WARC file, builds the parish summary and marks
the row finished or failed. A re-run skips finished parishes and retries failed ones and those a killed batch
left running. An interrupted parish is re-crawled from scratch: each crawl writes into its own work
directory, emptied first, and its pages/WARC files are moved into place only when it has ended, so each page
is written once. With --sshlogin the wrappers run on other machines (same install path, --out on a shared
filesystem) and report over stdout; only the driver writes the SQLite file (keep it on a local disk).
"""

from __future__ import annotations

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
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from msze.batch.jobs import JobDB
from msze.batch.plan import (
    EVENT_PREFIX,
    NOTHING_STORED_EXIT,
    ParishPaths,
    UrlList,
    crawl_error,
    job_name,
    parallel_command,
    parish_paths,
    progress_line,
    spread_by_domain,
)
from msze.batch.results import export_csv, export_jsonl, summarize_file
from msze.utils.time import utc_now

PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
PR_SET_PDEATHSIG = 1

Event = dict[str, Any]
Brief = tuple[str, str | None, int]  # JobDB.brief(): (state, ended_at, attempts)


class BatchError(Exception):
    """A batch that cannot start; the message is one line for the user."""


@dataclass(frozen=True)
class CrawlOptions:
    """How each parish is crawled: the same for the driver and every wrapper it starts."""

    out: str  # the batch's output directory (absolute)
    spider: str = "parish"
    settings: tuple[str, ...] = ()  # NAME=VALUE Scrapy settings
    warc: bool = False


@dataclass(frozen=True)
class BatchOptions:
    """One crawl-all run: what to crawl again and how many parishes at once."""

    crawl: CrawlOptions
    db: str  # the job database (absolute)
    jobs: int = 100
    sshlogins: tuple[str, ...] = ()
    retry_failed: bool = True
    max_attempts: int | None = 3  # None: never give up on a parish
    recrawl: bool = False
    progress_interval: float = 5.0


@dataclass(frozen=True)
class ParishJob:
    """One wrapper's parish; without a db it reports its events on stdout (a remote job)."""

    crawl: CrawlOptions
    url: str
    name: str | None = None  # file-name stem; None: job_name(url)
    domain: str | None = None  # None: links.domain_of(url)
    db: str | None = None
    driver_pid: int = 0  # the wrapper stops its crawl when this process is gone


def _say(message: str) -> None:
    print(f"crawl-all: {message}", file=sys.stderr)


def project_env() -> dict[str, str]:
    """This environment with the project importable first (GNU parallel and scrapy run from any cwd)."""
    return dict(os.environ, PYTHONPATH=PROJECT_ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def scrapy_env() -> dict[str, str]:
    """project_env() that also finds the project's Scrapy settings from any working directory."""
    env = project_env()
    env.setdefault("SCRAPY_SETTINGS_MODULE", "msze.settings")
    return env


# Run by parish_spiders() in a subprocess: the project's spiders, and whether each takes `-a url=`.
_LIST_SPIDERS = """
import inspect, json, sys
from scrapy.spiderloader import get_spider_loader
from scrapy.utils.project import get_project_settings
settings = get_project_settings()
for setting in sys.argv[1:]:
    name, _, value = setting.partition("=")
    settings.set(name, value, priority="cmdline")
loader = get_spider_loader(settings)
print(json.dumps({n: "url" in inspect.signature(loader.load(n)).parameters for n in loader.list()}))
"""


def parish_spiders(settings: Sequence[str] = ()) -> dict[str, bool]:
    """The project's spiders, name -> whether it crawls one parish given as `-a url=URL` (what each
    wrapper passes). Asked of Scrapy in a subprocess, under the batch's -s settings."""
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _LIST_SPIDERS, *settings],
            capture_output=True,
            text=True,
            env=scrapy_env(),
            timeout=300,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BatchError(f"cannot list the project's spiders: {exc}") from exc
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        raise BatchError(f"cannot list the project's spiders: {last}")
    return json.loads(lines[-1])


# --- the driver ---------------------------------------------------------------------------------------


def export(db: JobDB, out: str) -> int:
    """Write <out>/results.jsonl and results.csv from the job database's summaries."""
    summaries = db.summaries()
    os.makedirs(out, exist_ok=True)
    export_jsonl(summaries, os.path.join(out, "results.jsonl"))
    export_csv(summaries, os.path.join(out, "results.csv"))
    _say(f"{len(summaries)} parish results in {out}/results.jsonl and results.csv")
    return 0


def lock_batch(db_path: str) -> IO[str] | None:
    """One driver per job database: a second one would re-crawl the first one's running parishes."""
    handle = open(db_path + ".lock", "w")  # noqa: SIM115 (held for the driver's lifetime)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        return None
    return handle


def drive(opts: BatchOptions, url_list: UrlList) -> int:
    """Crawl the listed parishes still to do, then export the results; 1 when one of them did not finish.
    Raises BatchError when the batch cannot start (output not writable, another driver on the database)."""
    try:
        os.makedirs(opts.crawl.out, exist_ok=True)
        os.makedirs(os.path.dirname(opts.db), exist_ok=True)
        lock = lock_batch(opts.db)
    except OSError as exc:
        raise BatchError(f"cannot write the batch's files: {exc}") from exc
    if lock is None:
        raise BatchError(f"another crawl-all is running on {opts.db}; not starting")
    with lock, JobDB(opts.db) as db:
        pending = _plan(db, opts, url_list)
        if pending:
            _run_parallel(opts, db, pending)
        export(db, opts.crawl.out)
        return _report_done(db, pending)


def _plan(db: JobDB, opts: BatchOptions, url_list: UrlList) -> list[str]:
    """Enqueue the list and return its parishes to crawl now, spread so no server gets them all at once."""
    new = db.enqueue(url_list.urls, url_list.domains, url_list.names)
    listed = set(url_list.urls)  # a job database may hold parishes of other lists: those wait for theirs
    if opts.recrawl:
        db.reset(url_list.urls)
    pending = [u for u in db.pending(opts.retry_failed, opts.max_attempts) if u in listed]
    pending = spread_by_domain(pending, url_list.domains)
    _say(
        f"{len(url_list.urls)} URLs ({new} new); {db.counts()['finished']} finished before, "
        f"{len(pending)} to crawl now, {opts.jobs} at a time"
    )
    return pending


def _report_done(db: JobDB, pending: list[str]) -> int:
    counts = db.counts()
    brief = db.brief()
    failed = [u for u in pending if brief.get(u, ("",))[0] != "finished"]
    _say(
        f"done: {counts['finished']} finished, {counts['failed']} failed, "
        f"{counts['running'] + counts['queued']} not done; this run crawled {len(pending)}, "
        f"{len(failed)} did not finish"
    )
    return 1 if failed else 0


def job_command(opts: BatchOptions) -> list[str]:
    """The wrapper's argv for GNU parallel ({1} URL, {2} name, {3} domain from the argument file)."""
    crawl = opts.crawl
    # `env PYTHONPATH=...`: an ssh login starts in the home directory with a bare environment.
    cmd = ["env", f"PYTHONPATH={PROJECT_ROOT}", sys.executable, "-m", "msze", "crawl-all"]
    cmd += ["--run-one", "{1}", "--name", "{2}", "--domain", "{3}", "--out", crawl.out]
    cmd += ["--spider", crawl.spider]
    if not opts.sshlogins:
        cmd += ["--db", opts.db, "--driver-pid", str(os.getpid())]
    if crawl.warc:
        cmd.append("--warc")
    for setting in crawl.settings:
        cmd += ["-s", setting]
    return cmd


def apply_event(db: JobDB, event: Event) -> None:
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


def read_output(stream: Iterable[str], db_path: str) -> None:
    """Apply wrapper events (remote jobs) and pass any other job output on to stderr."""
    db: JobDB | None = None
    for line in stream:
        if line.startswith(EVENT_PREFIX):
            try:
                event = json.loads(line[len(EVENT_PREFIX) :])
            except json.JSONDecodeError:
                continue
            db = db or JobDB(db_path)
            apply_event(db, event)
        else:
            sys.stderr.write(line)
    if db is not None:
        db.close()


def _write_arg_file(out: str, db: JobDB, pending: list[str]) -> str:
    """GNU parallel's argument file: URL, file name, domain per line, tab-separated."""
    arg_file = os.path.join(out, "pending.txt")
    names = db.names()
    domains = {row["url"]: row["domain"] for row in db.rows()}
    with open(arg_file, "w", encoding="utf-8") as f:
        f.writelines(f"{u}\t{names.get(u) or job_name(u, set())}\t{domains.get(u) or '-'}\n" for u in pending)
    return arg_file


def _run_parallel(opts: BatchOptions, db: JobDB, pending: list[str]) -> None:
    arg_file = _write_arg_file(opts.crawl.out, db, pending)
    # Progress counts rows of this run that ended after it started (attempt or end time changed).
    brief = db.brief()
    before = {u: (brief[u][1], brief[u][2]) for u in pending if u in brief}
    cmd = parallel_command(
        job_command(opts),
        jobs=opts.jobs,
        joblog=os.path.join(opts.crawl.out, "joblog.txt"),
        arg_file=arg_file,
        sshlogins=opts.sshlogins,
    )
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=project_env())
    reader = threading.Thread(target=read_output, args=(proc.stdout, opts.db), daemon=True)
    reader.start()
    with _stop_parallel_on_signal(proc) as stopped:
        _show_progress(proc, db, before, len(pending), opts.progress_interval)
    reader.join(timeout=10)
    if stopped or proc.returncode < 0:
        _wait_for_wrappers(db, pending)


@contextlib.contextmanager
def _stop_parallel_on_signal(proc: subprocess.Popen[str]) -> Iterator[list[int]]:
    """While inside, Ctrl-C or TERM stops GNU parallel's jobs; yields the signals received."""
    stopped: list[int] = []

    def forward(signum: int, _frame: Any) -> None:
        # parallel stops starting jobs on the first TERM and kills running ones on the second.
        stopped.append(signum)
        proc.send_signal(signal.SIGTERM)
        proc.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stopped
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)


def _show_progress(
    proc: subprocess.Popen[str],
    db: JobDB,
    before: dict[str, tuple[str | None, int]],
    todo: int,
    interval: float,
) -> None:
    """A progress line every `interval` seconds until parallel ends (rewritten in place on a terminal)."""
    started = time.monotonic()
    tty = sys.stderr.isatty()
    last = ""
    while True:
        try:
            proc.wait(timeout=interval)
            break
        except subprocess.TimeoutExpired:
            pass
        brief = db.brief()
        done = sum(1 for url, was in before.items() if _ended_since(brief.get(url), was))
        last = progress_line(db.counts(), done, todo, time.monotonic() - started)
        sys.stderr.write(("\r" + last) if tty else (last + "\n"))
        sys.stderr.flush()
    if tty and last:
        sys.stderr.write("\n")


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


def _ended_since(now: Brief | None, before: tuple[str | None, int]) -> bool:
    return now is not None and now[0] in ("finished", "failed") and (now[1], now[2]) != before


# --- the per-parish wrapper ------------------------------------------------------------------------------


def run_one(job: ParishJob) -> int:
    """Crawl one parish and record the outcome; exit 0 when it finished, 1 when it failed."""
    if job.domain is None:
        from msze.utils.urls import domain_of  # only here: the wrapper stays a small process

        job = replace(job, domain=domain_of(job.url))
    paths = parish_paths(job.crawl.out, job.name or job_name(job.url, set()))
    for path in (paths.pages, paths.log, paths.stats, paths.warc, paths.lock):
        os.makedirs(os.path.dirname(path), exist_ok=True)
    lock_fd = _lock_parish(paths.lock)
    if lock_fd is None:
        _say(f"{job.url}: another crawl of this parish is still running")
        return 1
    db = JobDB(job.db) if job.db else None
    record: Callable[[Event], None] = functools.partial(apply_event, db) if db else _emit
    try:
        summary = _crawl_parish(job, paths, lock_fd, record)
    finally:
        if db:
            db.close()
        os.close(lock_fd)
    return 1 if summary["error"] else 0


def _lock_parish(lock_path: str, wait: float = 120.0) -> int | None:
    """The parish's lock file descriptor, held; None when an older crawl of it still runs after `wait` s.
    The crawl inherits the lock: a restarted job for this parish waits until the old crawl is dead."""
    lock_fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return lock_fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(lock_fd)
                return None
            time.sleep(0.2)


def _crawl_parish(
    job: ParishJob, paths: ParishPaths, lock_fd: int, record: Callable[[Event], None]
) -> dict[str, Any]:
    """Record the start, crawl, record the end; returns the parish summary (with status and error)."""
    crawled_at = utc_now()
    record(
        {
            "event": "start",
            "url": job.url,
            "log_path": paths.log,
            "host": socket.gethostname(),
            "pid": os.getpid(),
        }
    )
    _fresh_work_dir(paths)
    work_warc = os.path.join(paths.work, "crawl.warc.gz")
    child = _start_crawl(scrapy_command(job, paths, work_warc), paths.log, lock_fd, crawled_at)
    if job.driver_pid:
        threading.Thread(target=_watch_driver, args=(job.driver_pid, child), daemon=True).start()
    returncode, interrupted = _wait_for_crawl(child)
    summary = _finish_crawl(job, paths, work_warc, crawled_at, returncode, interrupted)
    # An interrupted parish goes back to the queue ("requeue", its error kept): it is not a failure of the
    # site, so it does not count against --max-attempts.
    record(
        {
            "event": "end",
            "url": job.url,
            "state": summary["status"],
            "error": summary["error"],
            "summary": summary,
            "requeue": interrupted is not None,
        }
    )
    return summary


def _fresh_work_dir(paths: ParishPaths) -> None:
    """Re-crawl from scratch: whatever an interrupted attempt left is replaced, never appended to. The crawl
    writes into its own work directory; pages/ and warc/ only ever receive complete parish files."""
    for path in (paths.pages, paths.stats, paths.warc):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)
    shutil.rmtree(paths.work, ignore_errors=True)
    os.makedirs(paths.work)


def scrapy_command(job: ParishJob, paths: ParishPaths, work_warc: str) -> list[str]:
    """`scrapy crawl SPIDER -a url=URL` writing pages, log and stats to the parish's own files."""
    cmd = [sys.executable, "-m", "scrapy", "crawl", job.crawl.spider, "-a", f"url={job.url}"]
    cmd += ["-s", f"PAGES_DIR={paths.work}", "-s", f"LOG_FILE={paths.log}"]
    cmd += ["-s", f"STATS_FILE={paths.stats}"]
    if job.crawl.warc:
        cmd += ["-s", "WARC_ENABLED=1", "-s", f"WARC_FILE={work_warc}"]
    for setting in job.crawl.settings:
        cmd += ["-s", setting]
    return cmd


def _start_crawl(cmd: list[str], log_path: str, lock_fd: int, crawled_at: str) -> subprocess.Popen[bytes]:
    with open(log_path, "ab") as log:
        log.write(f"--- crawl-all attempt at {crawled_at}: {' '.join(cmd)}\n".encode())
        log.flush()
        return subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=scrapy_env(),
            pass_fds=(lock_fd,),
            preexec_fn=_die_with_parent,
        )


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


def _wait_for_crawl(child: subprocess.Popen[bytes]) -> tuple[int, int | None]:
    """The crawl's exit code, and the signal that stopped the batch meanwhile (None if none did)."""
    interrupted: list[int] = []

    def forward(signum: int, _frame: Any) -> None:
        # A cut-short crawl is re-crawled from scratch anyway: no graceful shutdown to wait for.
        interrupted.append(signum)
        child.kill()

    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, forward)
    returncode = child.wait()
    return returncode, (interrupted[0] if interrupted else None)


def _finish_crawl(
    job: ParishJob,
    paths: ParishPaths,
    work_warc: str,
    crawled_at: str,
    returncode: int,
    interrupted: int | None,
) -> dict[str, Any]:
    """Summarise the ended crawl, publish its files if it ran to its end, and say why it failed, if it did."""
    stats = _read_stats(paths.stats)
    staged = os.path.join(paths.work, "pages.collected")
    collect_pages(paths.work, staged)
    response_bytes = (stats or {}).get("downloader/response_bytes")
    summary = summarize_file(staged, job.url, job.domain or "", crawled_at=crawled_at, bytes_=response_bytes)
    # Only a crawl that ran to its end publishes its files; a cut-short one is re-crawled from scratch.
    complete = (
        interrupted is None
        and returncode >= 0
        and stats is not None
        and stats.get("finish_reason") != "shutdown"
    )
    if complete:
        for done, final in ((staged, paths.pages), (work_warc, paths.warc)):
            if os.path.exists(done):
                os.replace(done, final)
    shutil.rmtree(paths.work, ignore_errors=True)
    error = _verdict(stats, summary["pages"], returncode, interrupted, paths.log)
    summary["status"] = "failed" if error else "finished"
    summary["error"] = error
    return summary


def _read_stats(path: str) -> dict[str, Any] | None:
    with contextlib.suppress(OSError, json.JSONDecodeError), open(path, encoding="utf-8") as f:
        return json.load(f)
    return None


def _verdict(
    stats: dict[str, Any] | None, pages: int, returncode: int, interrupted: int | None, log_path: str
) -> str | None:
    """The parish's error (None: finished); a crawl that did not run says why, from its log."""
    if interrupted is not None:  # the batch was stopped (Ctrl-C, parallel --timeout): crawled again next run
        name = signal.Signals(interrupted).name
        return f"crawl interrupted by {name} (batch stopped); re-crawled on the next run"
    error = crawl_error(stats, pages, returncode)
    if error and (returncode not in (0, NOTHING_STORED_EXIT) or stats is None):
        last = last_error_line(log_path)
        if last:
            error = f"{error}: {last}"
    return error


def _emit(event: Event) -> None:
    sys.stdout.write(EVENT_PREFIX + json.dumps(event, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def collect_pages(work: str, pages: str) -> None:
    """Move the crawl's JSONL (one file, `<parish>.jsonl`; more if items named other start URLs) to
    `pages`."""
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


def last_error_line(log_path: str) -> str:
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
