"""Benchmark the search app: 10 000 generated parishes and 100 000 Mass times in a temporary SQLite file,
served by `python -m msze search serve` (waitress) in its own process, loaded from this process over
127.0.0.1 with typical queries. Reports p50/p95 latency and requests/s per query kind, and the same for the
trivial `/healthz` endpoint in the same run (the baseline: what the server and an HTTP round trip cost).

    .venv/bin/python benchmarks/bench_search.py                    # defaults below
    .venv/bin/python benchmarks/bench_search.py --requests 400 --concurrency 4 --json out.json

The load is bounded both by count (--requests per query kind) and by time (--max-seconds per kind).

`--phones`: instead, near-me under load, 50 phones in one town (--clients) asking for the next Masses near
them (`/api/masses?near=…&radius=5`, now) for 20 s (--seconds), each from its own spot within about a
kilometre of Kraków's centre with a few metres of GPS jitter per request, on one keep-alive connection, with
no pause.
Three servers one after the other on the same database: the old single process (`search serve`, waitress, the
cache off: the baseline), the same with the next-Masses cache, and gunicorn with --workers processes
(`search serve --workers W`). Prints requests/s, p50, p95 and errors of each, the ratios to the baseline and
the load average before and after each run (the machine may be shared; the run itself adds about 3).

    .venv/bin/python benchmarks/bench_search.py --phones --clients 50 --seconds 20 --workers 2
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
        # the phone's first action with a town typed: the place geocoded from the directory, then as above
        "html place+now": [f"/?place={c}&radius=5&when=now" for c in cities],
        "api parish detail": [f"/api/parishes/{rng.randint(1, parishes)}" for _ in range(50)],
    }


def start_server(
    db: Path, threads: int, extra: tuple[str, ...] = (), env: dict | None = None
) -> tuple[subprocess.Popen, str]:
    """`search serve` on 127.0.0.1 and a free port, with `extra` arguments and `env` variables."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    serve = ["search", "serve", "--db", str(db), "--port", "0", "--threads", str(threads), *extra]
    process = subprocess.Popen(
        [sys.executable, "-m", "msze", *serve],
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


def phone_paths(rng: random.Random, count: int) -> list[str]:
    """`count` requests of one phone: a spot within about 1 km of Kraków's centre, a few metres of jitter."""
    lat, lng = CENTRES["Kraków"]
    lat, lng = lat + rng.uniform(-0.009, 0.009), lng + rng.uniform(-0.014, 0.014)
    return [
        f"/api/masses?near={lat + rng.gauss(0, 0.00005):.6f},{lng + rng.gauss(0, 0.00008):.6f}&radius=5"
        for _ in range(count)
    ]


def run_phones(base: str, clients: int, seconds: float, max_requests: int = 200_000) -> dict:
    """`clients` threads, each a phone asking again as soon as it is answered, for `seconds` (and at most
    `max_requests` in all); a failed request (not 200, or a broken connection) is an error, and the phone
    opens a new connection."""
    host = urlsplit(base)
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    budget = iter(range(max_requests))
    start_together = threading.Barrier(clients + 1)

    def phone(seed: int) -> None:
        paths = phone_paths(random.Random(seed), 500)
        conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
        mine: list[float] = []
        start_together.wait()
        deadline = time.monotonic() + seconds
        try:
            for n in budget:
                if time.monotonic() >= deadline:
                    break
                path = paths[n % len(paths)]  # one of its own spot's requests
                started = time.perf_counter()
                try:
                    conn.request("GET", path)
                    response = conn.getresponse()
                    response.read()
                except (OSError, http.client.HTTPException) as exc:
                    conn.close()
                    with lock:
                        errors.append(f"{type(exc).__name__} {path}")
                    continue
                mine.append(time.perf_counter() - started)
                if response.status != 200:
                    with lock:
                        errors.append(f"{response.status} {path}")
        finally:
            conn.close()
            with lock:
                latencies.extend(mine)

    threads = [threading.Thread(target=phone, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    start_together.wait()
    started = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return {
        "requests": len(latencies),
        "errors": len(errors),
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(latencies) * 1000, 1) if latencies else None,
        "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))] * 1000, 1) if latencies else None,
        "first_errors": errors[:3],
    }


def phones(args: argparse.Namespace, db: Path) -> dict:
    """The three servers of `--phones` in turn under the same load; their figures and ratios."""
    servers = {
        "one process, no cache (baseline)": ((), {"MSZE_SEARCH_NEAR_CACHE_SECONDS": "0"}),
        "one process, cache": ((), {}),
        f"gunicorn {args.workers} workers, cache": (("--workers", str(args.workers)), {}),
    }
    report: dict = {"clients": args.clients, "seconds": args.seconds, "runs": {}}
    print(f"{args.clients} phones for {args.seconds:g} s each, /api/masses near + now (radius 5 km, Kraków)")
    print(f"{'server':36} {'requests':>8} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7} {'errors':>6} "
          f"{'req/s ×':>7} {'p95 ×':>6} {'load avg':>11}")  # fmt: skip
    baseline = None
    for name, (extra, env) in servers.items():
        load_before = os.getloadavg()[0]  # the other work on the machine (a 1-minute average)
        process, base = start_server(db, args.server_threads, extra, env)
        try:
            run_load(base, phone_paths(random.Random(0), 40), 40, 2, 10)  # warm up: imports, first queries
            figures = run_phones(base, args.clients, args.seconds)
        finally:
            process.terminate()
            process.wait(timeout=30)
        figures["load_average_1min"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
        baseline = baseline or figures
        figures["rps_ratio"] = round(figures["rps"] / baseline["rps"], 2)
        figures["p95_ratio"] = round(figures["p95_ms"] / baseline["p95_ms"], 2)
        report["runs"][name] = figures
        print(f"{name:36} {figures['requests']:8} {figures['rps']:7} {figures['p50_ms']:7} "
              f"{figures['p95_ms']:7} {figures['errors']:6} {figures['rps_ratio']:7} "
              f"{figures['p95_ratio']:6} {'{} → {}'.format(*figures['load_average_1min']):>11}"
              + (f"  {figures['first_errors']}" if figures["errors"] else ""))  # fmt: skip
    best = report["runs"][list(servers)[-1]]
    target = best["errors"] == 0 and best["p95_ms"] <= 250 and best["rps"] >= 300
    print(f"gunicorn: {'meets' if target else 'MISSES'} the target (0 errors, p95 <= 250 ms, >= 300 req/s)")
    report["meets_target"] = target
    return report


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
    parser.add_argument("--phones", action="store_true", help="near-me under load (see the module's docs)")
    parser.add_argument("--clients", type=int, default=50, help="--phones: phones at once (default 50)")
    parser.add_argument("--seconds", type=float, default=20.0, help="--phones: seconds a server (default 20)")
    parser.add_argument("--workers", type=int, default=2, help="--phones: gunicorn processes (default 2)")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="msze-bench-search-") as tmp:
        db = Path(tmp) / "bench.sqlite"
        started = time.perf_counter()
        times = build_db(db, args.parishes, args.times_per_parish)
        print(
            f"database: {args.parishes} parishes, {times} times, "
            f"built in {time.perf_counter() - started:.1f} s"
        )
        if args.phones:
            report = phones(args, db)
            if args.json:
                Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
            return 0 if all(run["errors"] == 0 for run in report["runs"].values()) else 1
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
