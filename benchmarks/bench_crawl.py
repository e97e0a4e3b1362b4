"""Crawl throughput and peak memory: GNU parallel driver vs one-process `parishes` spider vs `scrapy bench`.

    .venv/bin/python benchmarks/bench_crawl.py --sites 220 --jobs 20

All three run in this one invocation on this machine, one after the other, against local servers:
- `scrapy bench` (Scrapy's own benchmark spider and server, Scrapy's default settings, run outside the
  project) for the reference pages/s;
- `scrapy crawl parishes -a urls=FILE` (one process, every msze pipeline and middleware that settings.py
  enables) over the fake web of benchmarks/fakeweb.py;
- `python -m msze crawl-all URLS --jobs N` (GNU parallel, one `scrapy crawl parish` process per parish) over
  the same fake web.
AutoThrottle is off for the measurement (`-s AUTOTHROTTLE_ENABLED=False`); everything else is as configured.
pages/s = responses received / crawl time (Scrapy's own stats); peak memory = the highest sampled sum of RSS
over every process of the mode (the fake web server and scrapy bench's server excluded). With --jobs below 100
the 100-process memory is extrapolated from the measured per-parish-process RSS, and labelled so.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from procmem import MemorySampler, children_cpu_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def run_measured(
    cmd: list[str], cwd: Path, env: dict[str, str], log: Path, **sampler_kw
) -> tuple[float, MemorySampler, str]:
    """Run a command to the end, sampling its process tree's memory: (seconds, sampler, log text)."""
    started = time.monotonic()
    cpu_before = children_cpu_seconds()
    with open(log, "w") as out:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        with MemorySampler(proc.pid, **sampler_kw) as sampler:
            proc.wait()
    seconds = time.monotonic() - started
    sampler.cpu_seconds = children_cpu_seconds() - cpu_before
    text = log.read_text(errors="replace")
    if proc.returncode != 0:
        print(f"  ! exit status {proc.returncode}; log {log}:\n{text[-2000:]}", file=sys.stderr)
    return seconds, sampler, text


def stat_value(text: str, name: str) -> float:
    match = re.findall(rf"'{re.escape(name)}': ([0-9.]+)", text)
    return float(match[-1]) if match else 0.0


_LOGSTATS = re.compile(r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) .*Crawled (\d+) pages", re.MULTILINE)


def steady_rate(text: str) -> float:
    """pages/s between the moments 10 % and 90 % of the pages had arrived (LogStats lines, 1 s apart):
    the rate of a long batch, without start-up and the tail of the slowest sites."""
    from datetime import datetime

    points = [(datetime.fromisoformat(t).timestamp(), int(n)) for t, n in _LOGSTATS.findall(text)]
    if len(points) < 3 or points[-1][1] == 0:
        return 0.0
    total = points[-1][1]
    lo = next(p for p in points if p[1] >= 0.1 * total)
    hi = next(p for p in points if p[1] >= 0.9 * total)
    return (hi[1] - lo[1]) / (hi[0] - lo[0]) if hi[0] > lo[0] else 0.0


def mb(kb: float) -> float:
    return round(kb / 1024, 1)


def bench_scrapy(seconds: int, work: Path) -> dict:
    cwd = Path(tempfile.mkdtemp(prefix="scrapy-bench-"))  # no scrapy.cfg: Scrapy's defaults, not msze's
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy")}
    cmd = [PY, "-m", "scrapy", "bench", "-s", f"CLOSESPIDER_TIMEOUT={seconds}", "-s", "LOG_LEVEL=INFO"]
    wall, sampler, text = run_measured(
        cmd, cwd, env, work / "scrapy-bench.log", exclude=lambda c: "benchserver" in c
    )
    shutil.rmtree(cwd, ignore_errors=True)
    pages = stat_value(text, "response_received_count")
    elapsed = stat_value(text, "elapsed_time_seconds") or wall
    return {"mode": "scrapy bench", "pages": int(pages), "seconds": elapsed, "peak_kb": sampler.peak.total_kb,
            "processes": sampler.peak.processes, "cpu": sampler.cpu_seconds,
            "steady": steady_rate(text)}  # fmt: skip


def bench_one_process(urls: Path, env: dict[str, str], work: Path, extra: list[str]) -> dict:
    out = work / "one"
    stats = out / "stats.json"
    cmd = [PY, "-m", "scrapy", "crawl", "parishes", "-a", f"urls={urls}",
           "-s", "AUTOTHROTTLE_ENABLED=False", "-s", f"PAGES_DIR={out / 'pages'}",
           "-s", f"STATS_FILE={stats}",
           "-s", "LOG_LEVEL=INFO", "-s", "LOGSTATS_INTERVAL=1", *extra]  # fmt: skip
    out.mkdir(parents=True)
    wall, sampler, text = run_measured(cmd, ROOT, env, work / "one-process.log")
    data = json.loads(stats.read_text()) if stats.exists() else {}
    return {"mode": "one process (parishes spider)", "pages": int(data.get("response_received_count", 0)),
            "items": int(data.get("item_scraped_count", 0)),
            "seconds": float(data.get("elapsed_time_seconds", wall)), "peak_kb": sampler.peak.total_kb,
            "processes": sampler.peak.processes, "cpu": sampler.cpu_seconds,
            "steady": steady_rate(text)}  # fmt: skip


def _group(cmd: str) -> str:
    if "scrapy crawl" in cmd or "scrapy.cmdline" in cmd or " -m scrapy " in cmd:
        return "crawl"
    if "--run-one" in cmd:
        return "wrapper"
    return "driver"


def bench_parallel(urls: Path, env: dict[str, str], work: Path, jobs: int, extra: list[str]) -> dict:
    out = work / "parallel"
    settings = ["-s", "AUTOTHROTTLE_ENABLED=False"]
    for item in extra:
        if item != "-s":
            settings += ["-s", item]
    cmd = [PY, "-m", "msze", "crawl-all", str(urls), "--jobs", str(jobs), "--out", str(out),
           "--progress-interval", "30", *settings]  # fmt: skip
    wall, sampler, _ = run_measured(cmd, ROOT, env, work / "parallel.log", group=_group)
    pages = items = 0
    for path in glob.glob(str(out / "stats" / "*.json")):
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, json.JSONDecodeError):
            continue
        pages += int(data.get("response_received_count", 0))
        items += int(data.get("item_scraped_count", 0))
    # Per parish = its wrapper + its scrapy process: the peak sample's RSS beyond the driver, per wrapper.
    peak = sampler.peak
    running = max((s.groups.get("wrapper", (0, 0))[0] for s in sampler.samples), default=0)
    per_job_kb = driver_kb = 0.0
    if peak.groups.get("wrapper"):
        driver_kb = peak.groups.get("driver", (0, 0))[1]
        per_job_kb = (peak.total_kb - driver_kb) / peak.groups["wrapper"][0]
    return {"mode": f"GNU parallel, --jobs {jobs}", "pages": pages, "items": items, "seconds": wall,
            "peak_kb": sampler.peak.total_kb, "processes": sampler.peak.processes, "per_job_kb": per_job_kb,
            "driver_kb": driver_kb, "max_running": running, "cpu": sampler.cpu_seconds,
            "steady": 0.0}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sites", type=int, default=220, help="fake parish sites (default 220)")
    parser.add_argument("--jobs", type=int, default=20, help="GNU parallel jobs (default 20; 100 = thesis)")
    parser.add_argument("--bench-seconds", type=int, default=20, help="scrapy bench duration (default 20)")
    parser.add_argument("--skip", action="append", default=[], choices=("bench", "one", "parallel"))
    parser.add_argument("--work", help="keep outputs and logs here (default: a temp dir, removed)")
    parser.add_argument("-s", dest="settings", action="append", default=[], help="extra Scrapy setting")
    args = parser.parse_args(argv)

    work = Path(args.work or tempfile.mkdtemp(prefix="bench-crawl-"))
    if work.exists() and args.work:
        shutil.rmtree(work)
    work.mkdir(parents=True, exist_ok=True)
    extra = [x for s in args.settings for x in ("-s", s)]
    urls = work / "urls.txt"
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import fakeweb

    web_stats = fakeweb.stats(args.sites)
    print(f"fake web: {web_stats}  (cores: {os.cpu_count()})", flush=True)
    web, proxy = fakeweb.start(args.sites, urls)
    env = dict(os.environ, http_proxy=proxy, no_proxy="localhost,127.0.0.1")
    rows = []
    try:
        if "bench" not in args.skip:
            print("running scrapy bench ...", flush=True)
            rows.append(bench_scrapy(args.bench_seconds, work))
        if "one" not in args.skip:
            print("running the one-process parishes spider ...", flush=True)
            rows.append(bench_one_process(urls, env, work, extra))
        if "parallel" not in args.skip:
            print(f"running the GNU parallel driver with --jobs {args.jobs} ...", flush=True)
            rows.append(bench_parallel(urls, env, work, args.jobs, args.settings))
    finally:
        web.terminate()
        web.wait()

    print()
    print(
        f"{'mode':30} {'pages':>6} {'items':>6} {'seconds':>8} {'pages/s':>8} {'steady':>7} {'CPU s':>7}"
        f" {'pages/CPU-s':>11} {'peak RSS MB':>11} {'procs':>5}"
    )
    by_mode = {}
    for row in rows:
        rate = row["pages"] / row["seconds"] if row["seconds"] else 0.0
        row["rate"] = rate
        by_mode[row["mode"].split()[0]] = row
        per_cpu = row["pages"] / row["cpu"] if row.get("cpu") else 0.0
        row["per_cpu"] = per_cpu
        steady = f"{row['steady']:.1f}" if row.get("steady") else "-"
        print(f"{row['mode']:30} {row['pages']:>6} {row.get('items', '-'):>6} {row['seconds']:>8.1f} "
              f"{rate:>8.1f} {steady:>7} {row.get('cpu', 0):>7.1f} {per_cpu:>11.1f} {mb(row['peak_kb']):>11} "
              f"{row['processes']:>5}")  # fmt: skip
    print()
    bench, one, par = by_mode.get("scrapy"), by_mode.get("one"), by_mode.get("GNU")
    if bench and one and bench["rate"]:
        ratio = one["rate"] / bench["rate"]
        print(f"one-process pages/s / scrapy bench pages/s = {ratio:.2f}  (target >= 0.50: "
              f"{'met' if ratio >= 0.5 else 'NOT met'})")  # fmt: skip
        if one.get("steady") and bench.get("steady"):
            print(f"  steady state (10-90 % of pages): {one['steady'] / bench['steady']:.2f}; per CPU-s: "
                  f"{one['per_cpu'] / bench['per_cpu']:.2f}")  # fmt: skip
    if par:
        print(f"GNU parallel: {par['max_running']} crawls at once at most; per parish (scrapy + wrapper) "
              f"{mb(par['per_job_kb'])} MB; driver {mb(par['driver_kb'])} MB")  # fmt: skip
        hundred = par["driver_kb"] + 100 * par["per_job_kb"]
        label = "measured" if args.jobs >= 100 else f"EXTRAPOLATED from --jobs {args.jobs}"
        peak100 = par["peak_kb"] if args.jobs >= 100 else hundred
        print(f"100 parallel processes: {mb(peak100)} MB ({label}: driver + 100 x per-process RSS)")
        if one and one["peak_kb"]:
            ratio = peak100 / one["peak_kb"]
            print(f"memory: 100 parallel processes / one process = {ratio:.1f}x  (target >= 5x: "
                  f"{'met' if ratio >= 5 else 'NOT met'})")  # fmt: skip
        if one and par["rate"]:
            print(f"pages/s: one process / GNU parallel --jobs {args.jobs} = {one['rate'] / par['rate']:.2f}")
    (work / "bench_crawl.json").write_text(json.dumps({"fakeweb": web_stats, "rows": rows}, indent=1))
    print(f"\nlogs and outputs: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
