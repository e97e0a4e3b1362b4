"""Benchmark the search app: 10 000 generated parishes and 100 000 Mass times in a temporary SQLite file,
served by `python -m msze search serve` (waitress) in its own process, loaded from this process over
127.0.0.1 with typical queries. Reports p50/p95 latency and requests/s per query kind, and the same for the
trivial `/healthz` endpoint in the same run (the baseline: what the server and an HTTP round trip cost).

    .venv/bin/python benchmarks/bench_search.py                    # defaults below
    .venv/bin/python benchmarks/bench_search.py --requests 400 --concurrency 4 --json out.json

The load is bounded both by count (--requests per query kind) and by time (--max-seconds per kind).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import quote, urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from msze.search.db import create_schema, make_engine  # noqa: E402
from msze.search.demo.generate import CENTRES, CITIES, bulk_insert  # noqa: E402


def build_db(path: Path, parishes: int, times_per_parish: int) -> int:
    engine = make_engine(path)
    create_schema(engine)
    total = bulk_insert(engine, parishes, times_per_parish)
    with engine.begin() as conn:
        conn.exec_driver_sql("ANALYZE")  # SQLite's planner statistics, as a real deployment would have
    engine.dispose()
    return total


def query_kinds(parishes: int, rng: random.Random) -> dict[str, list[str]]:
    """Typical visitor queries, several variants each."""
    cities = [quote(city) for city, *_ in CITIES]
    dioceses = [quote(diocese) for _, diocese, *_ in CITIES]
    evenings = [("17:00", "20:00"), ("18:00", "21:00"), ("16:00", "19:30")]
    return {
        "api city+sunday+evening": [
            f"/api/parishes?city={c}&day=sunday&from={f}&to={t}" for c in cities for f, t in evenings
        ],
        "api name words": [
            f"/api/parishes?q={quote(w)}" for w in ("józefa", "trójcy kraków", "serca", "michała")
        ],
        "api diocese+weekday morning": [f"/api/parishes?diocese={d}&day=weekday&to=08:00" for d in dioceses],
        "api day+time only, page 3": ["/api/parishes?day=saturday&from=17:00&to=19:00&page=3"],
        "html city+sunday+evening": [
            f"/?city={c}&day=sunday&from={f}&to={t}" for c in cities for f, t in evenings
        ],
        "html parish page": [f"/parafia/{rng.randint(1, parishes)}" for _ in range(50)],
        # near a city's centre, now (the next Masses, dated by msze/search/calendar.py) and at a set moment
        "api masses near+now": [f"/api/masses?near={lat},{lng}&radius=5" for lat, lng in CENTRES.values()],
        "api masses near+when": [
            f"/api/masses?near={lat},{lng}&radius=5&from=2026-12-24T16:00" for lat, lng in CENTRES.values()
        ],
        "html near+now": [f"/?near={lat},{lng}&radius=5&when=now" for lat, lng in CENTRES.values()],
        "api parish detail": [f"/api/parishes/{rng.randint(1, parishes)}" for _ in range(50)],
    }


def start_server(db: Path, threads: int) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "msze",
            "search",
            "serve",
            "--db",
            str(db),
            "--port",
            "0",
            "--threads",
            str(threads),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=ROOT,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+)/", line or "")
        if match:
            threading.Thread(target=process.stdout.read, daemon=True).start()  # drain the log
            return process, match.group(1)
        if process.poll() is not None:
            break
    process.kill()
    raise RuntimeError("the search server did not start")


def run_load(base: str, paths: list[str], requests: int, concurrency: int, max_seconds: float) -> dict:
    """`requests` GETs spread over `concurrency` keep-alive connections; stops early after `max_seconds`."""
    host = urlsplit(base)
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    counter = iter(range(requests))
    deadline = time.monotonic() + max_seconds

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        mine: list[float] = []
        try:
            while time.monotonic() < deadline:
                with lock:
                    if next(counter, None) is None:
                        break
                path = rng.choice(paths)
                started = time.perf_counter()
                conn.request("GET", path)
                response = conn.getresponse()
                response.read()
                mine.append(time.perf_counter() - started)
                if response.status != 200:
                    errors.append(f"{response.status} {path}")
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)

    started = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "p50_ms": round(statistics.median(latencies) * 1000, 2) if latencies else None,
        "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))] * 1000, 2) if latencies else None,
        "rps": round(len(latencies) / elapsed, 1) if elapsed else None,
        "first_errors": errors[:3],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parishes", type=int, default=10_000)
    parser.add_argument("--times-per-parish", type=int, default=10)
    parser.add_argument("--requests", type=int, default=300, help="requests per query kind (default 300)")
    parser.add_argument("--concurrency", type=int, default=1, help="client connections (default 1: latency)")
    parser.add_argument("--throughput-concurrency", type=int, default=4, help="connections for the req/s run")
    parser.add_argument("--max-seconds", type=float, default=30.0, help="time bound per query kind")
    parser.add_argument("--server-threads", type=int, default=8)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="msze-bench-search-") as tmp:
        db = Path(tmp) / "bench.sqlite"
        started = time.perf_counter()
        times = build_db(db, args.parishes, args.times_per_parish)
        print(
            f"database: {args.parishes} parishes, {times} times, "
            f"built in {time.perf_counter() - started:.1f} s"
        )
        process, base = start_server(db, args.server_threads)
        try:
            kinds = query_kinds(args.parishes, random.Random(8))
            for (
                paths
            ) in kinds.values():  # warm up: the first request of each kind pays for imports and caches
                run_load(base, paths, 20, 1, 10)
            report: dict = {"parishes": args.parishes, "times": times, "server": "waitress", "kinds": {}}
            baseline = run_load(base, ["/healthz"], args.requests, args.concurrency, args.max_seconds)
            report["baseline_healthz"] = baseline
            all_search: list[str] = []
            print(f"{'query':32} {'n':>5} {'p50 ms':>8} {'p95 ms':>8} {'req/s':>7} {'p50/healthz':>11}")
            print(f"{'/healthz (baseline)':32} {baseline['requests']:5} {baseline['p50_ms']:8} "
                  f"{baseline['p95_ms']:8} {baseline['rps']:7} {1.0:11.1f}")  # fmt: skip
            for name, paths in kinds.items():
                figures = run_load(base, paths, args.requests, args.concurrency, args.max_seconds)
                figures["p50_vs_healthz"] = round(figures["p50_ms"] / baseline["p50_ms"], 1)
                report["kinds"][name] = figures
                all_search.extend(paths)
                print(f"{name:32} {figures['requests']:5} {figures['p50_ms']:8} {figures['p95_ms']:8} "
                      f"{figures['rps']:7} {figures['p50_vs_healthz']:11.1f}"
                      + (f"  ERRORS {figures['errors']}: {figures['first_errors']}"
                         if figures["errors"] else ""))  # fmt: skip
            mixed = run_load(base, all_search, args.requests * 2, args.concurrency, args.max_seconds)
            report["mixed"] = mixed
            print(f"{'all kinds mixed':32} {mixed['requests']:5} {mixed['p50_ms']:8} {mixed['p95_ms']:8} "
                  f"{mixed['rps']:7} {mixed['p50_ms'] / baseline['p50_ms']:11.1f}")  # fmt: skip
            c = args.throughput_concurrency
            throughput = run_load(base, all_search, args.requests * 2, c, args.max_seconds)
            base_throughput = run_load(base, ["/healthz"], args.requests * 2, c, args.max_seconds)
            report["throughput"] = {"concurrency": c, "mixed": throughput, "healthz": base_throughput}
            print(f"throughput with {c} connections: mixed search {throughput['rps']} req/s "
                  f"(p50 {throughput['p50_ms']} ms, p95 {throughput['p95_ms']} ms); "
                  f"/healthz {base_throughput['rps']} req/s")  # fmt: skip
            target = mixed["p50_ms"] < 50
            print(
                f"median of mixed search {mixed['p50_ms']} ms: "
                f"{'meets' if target else 'MISSES'} the < 50 ms target"
            )
            report["meets_target"] = target
        finally:
            process.terminate()
            process.wait(timeout=10)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    errors = sum(k["errors"] for k in report["kinds"].values()) + report["mixed"]["errors"]
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
