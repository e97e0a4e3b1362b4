"""Pure helpers of the batch driver (no Scrapy, no subprocesses): URL lists, crawl verdicts, progress, paths.

The driver (msze/commands/crawl_all.py) orchestrates GNU parallel and the per-parish wrapper; the decisions it
makes (is this line a URL, did this crawl fail and why, what does the progress line say) live here.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from msze.links import domain_of, is_valid_start_url, pages_filename

EVENT_PREFIX = "MSZE-EVENT "  # per-parish wrapper -> driver lines on stdout (remote --sshlogin jobs)


@dataclass(frozen=True)
class UrlList:
    """Start URLs to crawl, with what was left out and why (nothing is dropped silently)."""

    urls: list[str]
    domains: dict[str, str]
    invalid: list[tuple[int, str]]  # (line number, text)
    same_domain: list[tuple[str, str]]  # (skipped URL, earlier URL of the same domain)


def parse_url_list(lines: Iterable[str], known_domains: dict[str, str] | None = None) -> UrlList:
    """Start URLs of a URL file (one per line; blank lines and `#` comments skipped; a TSV line's first
    http(s) field counts). One crawl per parish domain: a URL of a domain already listed (earlier in the
    file, or in known_domains from the job database) stands for that domain's first URL, because both
    crawls would write the same `<domain>.jsonl`."""
    seen: dict[str, str] = dict(known_domains or {})
    urls: list[str] = []
    domains: dict[str, str] = {}
    invalid: list[tuple[int, str]] = []
    same: list[tuple[str, str]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        candidates = [f.strip() for f in line.split("\t")] if "\t" in line else [line]
        url = next((c for c in candidates if is_valid_start_url(c)), None)
        if url is None:
            invalid.append((number, line[:200]))
            continue
        domain = domain_of(url)
        first = seen.setdefault(domain, url)
        if first != url:
            same.append((url, first))
        if first not in domains:
            urls.append(first)
            domains[first] = domain
    return UrlList(urls, domains, invalid, same)


@dataclass(frozen=True)
class ParishPaths:
    """Where one parish crawl writes (all under the batch's --out directory)."""

    pages: str
    log: str
    stats: str
    warc: str
    lock: str


def parish_paths(out_dir: str, domain: str) -> ParishPaths:
    name = pages_filename(domain).removesuffix(".jsonl")
    return ParishPaths(
        pages=os.path.join(out_dir, "pages", f"{name}.jsonl"),
        log=os.path.join(out_dir, "logs", f"{name}.log"),
        stats=os.path.join(out_dir, "stats", f"{name}.json"),
        warc=os.path.join(out_dir, "warc", f"{name}.warc.gz"),
        lock=os.path.join(out_dir, "stats", f"{name}.lock"),
    )


_EXCEPTION_PREFIX = "downloader/exception_type_count/"
_STATUS_PREFIX = "downloader/response_status_count/"


def crawl_error(stats: dict[str, Any] | None, pages: int, returncode: int) -> str | None:
    """Why a parish crawl failed, or None when it succeeded (it wrote at least one page and ended normally).

    The message names what the server did: "no pages: ConnectionRefusedError x3" or "no pages: HTTP 500 x3".
    """
    if returncode < 0:
        return f"crawl killed by signal {-returncode}"
    if stats is None:
        return f"crawl ended without stats (scrapy exit code {returncode}); see the parish log"
    reason = stats.get("finish_reason")
    if reason == "shutdown":
        return "crawl interrupted (shutdown); re-crawled on the next run"
    if returncode != 0 and pages == 0:
        return f"scrapy exit code {returncode}; see the parish log"
    if pages > 0:
        return None
    parts = []
    for key, value in sorted(stats.items()):
        if key.startswith(_EXCEPTION_PREFIX):
            parts.append(f"{key[len(_EXCEPTION_PREFIX) :].rsplit('.', 1)[-1]} x{value}")
    for key, value in sorted(stats.items()):
        if key.startswith(_STATUS_PREFIX):
            code = key[len(_STATUS_PREFIX) :]
            if not code.startswith("2") and not (code.startswith("3") and stats.get(f"{_STATUS_PREFIX}200")):
                parts.append(f"HTTP {code} x{value}")
    for key, label in (
        ("msze/parish/bad_start_url", "not a start URL"),
        ("msze/parish/start_blacklisted", "start URL on a blacklisted domain"),
        ("msze/parish/dropped/not_text", "start page is not text"),
        ("msze/parish/dropped/offsite_redirect", "redirected off the site"),
    ):
        if stats.get(key):
            parts.append(label)
    if not parts:
        parts.append(f"finish reason {reason or 'unknown'}")
    return "no pages: " + ", ".join(parts)


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h{minutes:02d}m"
    if minutes:
        return f"{minutes}m{secs:02d}s"
    return f"{secs}s"


def progress_line(counts: dict[str, int], done_this_run: int, todo_this_run: int, elapsed: float) -> str:
    """done / failed / running / ETA; the ETA extrapolates this run's completion rate."""
    remaining = max(0, todo_this_run - done_this_run)
    eta = elapsed / done_this_run * remaining if done_this_run else None
    rate = done_this_run / elapsed * 60 if elapsed > 0 else 0.0
    return (
        f"crawl-all: {done_this_run}/{todo_this_run} done | finished {counts['finished']}, "
        f"failed {counts['failed']}, running {counts['running']}, queued {counts['queued']} | "
        f"{rate:.1f} parishes/min | elapsed {format_duration(elapsed)}, ETA {format_duration(eta)}"
    )


def parallel_command(
    job_command: Sequence[str],
    jobs: int,
    joblog: str,
    arg_file: str,
    sshlogins: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> list[str]:
    """The GNU parallel argv: one job per line of arg_file, `{}` in job_command replaced (and shell-quoted
    by parallel) with the URL."""
    cmd = ["parallel", "--will-cite", "--jobs", str(jobs), "--joblog", "+" + joblog, "--line-buffer"]
    # When stopped, give each job 5 s after SIGTERM to record its state before SIGKILL (default: 350 ms).
    cmd += ["--termseq", "TERM,5000,KILL,25"]
    for login in sshlogins:
        cmd += ["--sshlogin", login]
    cmd += list(extra)
    cmd += ["-a", arg_file]
    cmd.append(" ".join("{}" if word == "{}" else shlex.quote(word) for word in job_command))
    return cmd
