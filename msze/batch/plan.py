"""Pure helpers of the batch driver (no Scrapy, no subprocesses): URL lists, crawl verdicts, progress, paths.

The driver (msze/batch/driver.py) orchestrates GNU parallel and the per-parish wrapper; the decisions it
makes (is this line a URL, can this spider crawl one parish, did this crawl fail and why, what does the
progress line say) live here.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from msze.utils.urls import file_stem, host_of

# crawling.links (tldextract) is imported where needed: the per-parish wrapper imports this module, and
# 100 wrappers at once should each stay small (a bare interpreter, not 25 MB of URL libraries).

EVENT_PREFIX = "MSZE-EVENT "  # per-parish wrapper -> driver lines on stdout (remote --sshlogin jobs)


@dataclass(frozen=True)
class UrlList:
    """Start URLs to crawl, each with its parish domain and file name; what was left out, and why."""

    urls: list[str]
    domains: dict[str, str]  # url -> links.domain_of(url) (PageItem.domain)
    names: dict[str, str]  # url -> file name stem of its pages/log/WARC, unique in the batch
    invalid: list[tuple[int, str]]  # (line number, text)
    shared_host: int  # URLs whose host another listed URL has too (they get a hashed name)


def job_name(url: str, taken: set[str] | dict[str, str]) -> str:
    """The file-name stem of one parish crawl: its host without "www." (`parafia.opoka.org.pl`), or, when
    another start URL of the batch has that host (parish pages of a diocesan portal), host~<8 hex of URL>."""
    host = host_of(url)
    name = file_stem(host)
    if name in taken:
        name = f"{name}~{hashlib.sha1(url.encode('utf-8')).hexdigest()[:8]}"
    return name


def parse_url_list(lines: Iterable[str], known_names: dict[str, str] | None = None) -> UrlList:
    """Start URLs of a URL file (one per line; blank lines and `#` comments skipped; a TSV line's first
    http(s) field counts); repeats dropped. known_names (url -> name, from the job database) keeps every
    parish's file name stable across runs, whatever the order of the list."""
    from msze.crawling.links import domain_of, is_valid_start_url

    known = dict(known_names or {})
    taken = set(known.values())
    urls: list[str] = []
    domains: dict[str, str] = {}
    names: dict[str, str] = {}
    invalid: list[tuple[int, str]] = []
    hosts: dict[str, int] = {}
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        candidates = [f.strip() for f in line.split("\t")] if "\t" in line else [line]
        url = next((c for c in candidates if is_valid_start_url(c)), None)
        if url is None:
            invalid.append((number, line[:200]))
            continue
        if url in names:
            continue
        name = known.get(url) or job_name(url, taken)
        taken.add(name)
        urls.append(url)
        domains[url] = domain_of(url)
        names[url] = name
        host = (urlsplit(url).hostname or "").removeprefix("www.")
        hosts[host] = hosts.get(host, 0) + 1
    shared = sum(n for n in hosts.values() if n > 1)
    return UrlList(urls, domains, names, invalid, shared)


def spider_error(spider: str, spiders: dict[str, bool]) -> str | None:
    """Why `spider` cannot crawl a batch's parishes, or None. spiders: the project's spiders, name -> whether
    it takes one parish as `-a url=URL` (what each per-parish crawl passes)."""
    usable = ", ".join(sorted(name for name, takes_url in spiders.items() if takes_url)) or "none"
    if spider not in spiders:
        return f"no spider {spider!r}; parish spiders: {usable}"
    if not spiders[spider]:
        return f"spider {spider!r} does not crawl one parish URL (-a url=URL); parish spiders: {usable}"
    return None


def spread_by_domain(urls: Sequence[str], domains: dict[str, str]) -> list[str]:
    """Reorder URLs so each domain's URLs are evenly spaced over the whole run. Lists come grouped by diocese,
    and a diocese often hosts all its parishes (216 on *.opoka.org.pl): in list order, 100 parallel crawls
    would hit one server at once; spread out, about 100 * 216 / 5457 = 4 do."""
    groups: dict[str, list[str]] = {}
    for url in urls:
        groups.setdefault(domains.get(url, ""), []).append(url)
    keyed = []
    for rank, members in enumerate(groups.values()):
        # Domain `rank` takes positions (j + phase) / k in [0, 1); distinct phases spread single URLs too.
        phase = (rank + 0.5) / len(groups)
        keyed += [((j + phase) / len(members), rank, url) for j, url in enumerate(members)]
    return [url for _, _, url in sorted(keyed)]


@dataclass(frozen=True)
class ParishPaths:
    """Where one parish crawl writes (all under the batch's --out directory, named by job_name())."""

    pages: str  # the finished parish's pages, moved here when the crawl has ended
    log: str
    stats: str
    warc: str
    lock: str
    work: str  # the crawl's own PAGES_DIR (and WARC while it runs); emptied before each attempt


def parish_paths(out_dir: str, name: str) -> ParishPaths:
    return ParishPaths(
        pages=os.path.join(out_dir, "pages", f"{name}.jsonl"),
        log=os.path.join(out_dir, "logs", f"{name}.log"),
        stats=os.path.join(out_dir, "stats", f"{name}.json"),
        warc=os.path.join(out_dir, "warc", f"{name}.warc.gz"),
        lock=os.path.join(out_dir, "work", f"{name}.lock"),
        work=os.path.join(out_dir, "work", name),
    )


_EXCEPTION_PREFIX = "downloader/exception_type_count/"
# exit status of a `scrapy crawl` that ran to its end and stored nothing (msze.commands.crawl)
NOTHING_STORED_EXIT = 1
_STATUS_PREFIX = "downloader/response_status_count/"


def crawl_error(stats: dict[str, Any] | None, pages: int, returncode: int) -> str | None:
    """Why a parish crawl failed, or None when it succeeded (it wrote at least one page and ended normally);
    also the one line `scrapy crawl` prints for a crawl that stored nothing (pages: its items).

    The message names what the server did: "no pages: ConnectionRefusedError x3" or "no pages: HTTP 500 x3".
    """
    if returncode < 0:
        return f"crawl killed by signal {-returncode}"
    if stats is None:
        return f"crawl ended without stats (scrapy exit code {returncode}); see the parish log"
    reason = stats.get("finish_reason")
    if reason == "shutdown":
        return "crawl interrupted (shutdown); re-crawled on the next run"
    if returncode not in (0, NOTHING_STORED_EXIT) and pages == 0:
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


_REPLACEMENT = re.compile(r"\{\d*\}")


def parallel_command(
    job_command: Sequence[str],
    jobs: int,
    joblog: str,
    arg_file: str,
    sshlogins: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> list[str]:
    """The GNU parallel argv: one job per line of arg_file (tab-separated columns), `{1}`, `{2}` ... in
    job_command replaced (and shell-quoted by parallel) with the columns."""
    cmd = ["parallel", "--will-cite", "--jobs", str(jobs), "--joblog", "+" + joblog, "--line-buffer"]
    # When stopped, give each job 5 s after SIGTERM to record its state before SIGKILL (default: 350 ms).
    cmd += ["--termseq", "TERM,5000,KILL,25"]
    for login in sshlogins:
        cmd += ["--sshlogin", login]
    cmd += list(extra)
    cmd += ["--colsep", "\t", "-a", arg_file]
    cmd.append(" ".join(word if _REPLACEMENT.fullmatch(word) else shlex.quote(word) for word in job_command))
    return cmd
