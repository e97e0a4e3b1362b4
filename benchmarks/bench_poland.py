"""All of Poland overnight on one machine? One `scrapy crawl parishes` process at production settings over
250, 500 and 1 000 realistic fake sites, and the wall time and memory projected to 5 600 sites.

    .venv/bin/python benchmarks/bench_poland.py --sizes 250,500,1000 --work /tmp/poland
    .venv/bin/python benchmarks/bench_poland.py --jobs 2     # two processes over halves of each list
                                                             # (and OCR_CONCURRENCY=cores/2 in each)

The fake web is benchmarks/fakeweb.py's realistic mode (latency, timeouts, dropped connections, robots.txt,
gzip, archive-sized sites; its distributions are in `fakeweb.realistic_spec`), served once for the largest
size; each size crawls the first N of its sites in its own child process. Settings are the project's
(AutoThrottle 5/300/1, robots.txt, backoff retries, every pipeline): only output paths change, plus `-s`
extras for experiments. Per size: wall time, pages, pages/s (and "steady": between 10 % and 90 % of the
pages, from the 60 s LogStats lines, so without the slowest sites' tail), CPU-s per page, peak RSS of the
crawl process (procmem.MemorySampler), CPU-s / wall-s (the rest is waiting), and the share of requests that
timed out or were retried (Scrapy stats). Wall time and peak RSS are fitted against site count by least
squares and projected to --target sites; the target is < 2 h and < 1 GB.

`--media`: 10 % of the sites post their schedule only as a text PDF, 5 % only as a JPEG image (fakeweb's
`media_kind`); the table then also shows PDFs read and images OCR'd, and the script times reading one such PDF
(pdf_to_text) and one such image (ocr_image) in this process, per file and as a ratio to the crawl's CPU
time per page.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import fakeweb  # noqa: E402
from bench_crawl import steady_rate  # noqa: E402
from procmem import MemorySampler, children_cpu_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
TARGET_SECONDS = 2 * 3600
TARGET_MB = 1024


def crawl(sites: int, env: dict[str, str], work: Path, extra: list[str], jobs: int = 1) -> dict:
    """`jobs` `scrapy crawl parishes` children at once over the first `sites` realistic sites, split round
    robin (as `split -n r/2 urls.txt` and GNU parallel would): their figures summed, the wall time to the
    last one's end."""
    out = work / f"sites-{sites}"
    out.mkdir(parents=True)
    urls = out / "urls.txt"
    fakeweb.write_urls(str(urls), sites)
    lines = urls.read_text().splitlines()
    parts = [out / f"part-{j}" for j in range(jobs)] if jobs > 1 else [out]
    started, cpu_before = time.monotonic(), children_cpu_seconds()
    procs, logs = [], []
    for j, part in enumerate(parts):
        part.mkdir(exist_ok=True)
        part_urls = part / "urls.txt"
        if jobs > 1:
            part_urls.write_text("".join(f"{u}\n" for u in lines[j::jobs]))
        cmd = [PY, "-m", "scrapy", "crawl", "parishes", "-a", f"urls={part_urls}",
               "-s", f"PAGES_DIR={part / 'pages'}",
               "-s", f"STATS_FILE={part / 'stats.json'}", *extra]  # fmt: skip
        logs.append(open(part / "crawl.log", "w"))  # noqa: SIM115 - closed below, after the children
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=logs[-1], stderr=subprocess.STDOUT))
    # this process's tree without itself and the fake web: the crawl children and their Tesseract children
    skip = ("fakeweb.py", "bench_poland.py")
    sampler = MemorySampler(os.getpid(), interval=1.0, exclude=lambda cmd: any(n in cmd for n in skip))
    with sampler:
        for proc in procs:
            proc.wait()
    wall = time.monotonic() - started
    cpu = children_cpu_seconds() - cpu_before
    for log in logs:
        log.close()
    stats: dict = {}
    steady = 0.0
    for part, proc in zip(parts, procs, strict=True):
        if proc.returncode != 0:
            print(f"  ! exit status {proc.returncode}; see {part / 'crawl.log'}", file=sys.stderr)
        stats_file = part / "stats.json"
        for key, value in (json.loads(stats_file.read_text()) if stats_file.exists() else {}).items():
            if isinstance(value, int | float):
                stats[key] = stats.get(key, 0) + value
        steady += steady_rate((part / "crawl.log").read_text(errors="replace"))
    row = figures(sites, wall, cpu, sampler.peak.total_kb, stats)
    return row | {"jobs": jobs, "steady_pages_per_s": round(steady, 1)}


def figures(sites: int, wall: float, cpu: float, peak_kb: int, stats: dict) -> dict:
    """The table row of one run, from its measurements and its final Scrapy stats."""
    pages = int(stats.get("response_received_count", 0))
    requests = int(stats.get("downloader/request_count", 0)) or 1
    timeouts = sum(
        v for k, v in stats.items() if k.startswith("downloader/exception_type_count/") and "Timeout" in k
    )
    retries = int(stats.get("msze/backoff/retries", 0))
    return {"sites": sites, "wall_s": round(wall, 1), "pages": pages, "pages_per_s": round(pages / wall, 2),
            "cpu_s": round(cpu, 1), "cpu_s_per_page": round(cpu / max(pages, 1), 4),
            "cpu_share": round(cpu / wall, 2), "peak_rss_mb": round(peak_kb / 1024, 1),
            "wall_s_per_site": round(wall / sites, 3), "requests": requests, "timeouts": timeouts,
            "retries": retries, "timeout_share": round(timeouts / requests, 4),
            "retry_share": round(retries / requests, 4), "items": int(stats.get("item_scraped_count", 0)),
            "robots_forbidden": int(stats.get("robotstxt/forbidden", 0)),
            "pdfs_read": int(stats.get("msze/pdf/read", 0)),
            "images_read": int(stats.get("msze/ocr/read", 0)),
            "ocr_skipped_has_sunday": int(stats.get("msze/ocr/skipped_has_sunday", 0))}  # fmt: skip


def fit(xs: list[float], ys: list[float]) -> tuple[float, float]:
    """Least-squares line y = a + b x: (a, b)."""
    n, mx, my = len(xs), sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx if n > 1 and sxx else my / mx
    return my - b * mx, b


def projection(rows: list[dict], target: int) -> dict:
    """Wall time and peak RSS at `target` sites from lines fitted over the measured sizes, and how far from
    linear the per-site wall time is (max / min over the sizes) and the wall time each added site costs
    between one size and the next (a constant tail of slow sites shows as a falling per-site time, not as a
    falling marginal cost)."""
    xs = [r["sites"] for r in rows]
    wall_a, wall_b = fit(xs, [r["wall_s"] for r in rows])
    rss_a, rss_b = fit(xs, [r["peak_rss_mb"] for r in rows])
    per_site = [r["wall_s_per_site"] for r in rows]
    marginal = [
        round((b["wall_s"] - a["wall_s"]) / (b["sites"] - a["sites"]), 3)
        for a, b in zip(rows, rows[1:], strict=False)
    ]
    wall, rss = wall_a + wall_b * target, rss_a + rss_b * target
    return {"target_sites": target, "wall_s": round(wall), "wall_h": round(wall / 3600, 2),
            "wall_fit": [round(wall_a, 1), round(wall_b, 3)], "rss_mb": round(rss),
            "rss_fit": [round(rss_a, 1), round(rss_b, 4)],
            "per_site_spread": round(max(per_site) / min(per_site), 2), "marginal_s_per_site": marginal,
            "meets_time": wall < TARGET_SECONDS, "meets_memory": rss < TARGET_MB}  # fmt: skip


def file_costs(sites: int, rounds: int = 3) -> dict:
    """Seconds to read one schedule PDF (pdf_to_text) and OCR one schedule image (ocr_image, then
    clean_ocr_times) of the --media sites among the first `sites`: the median over the files, each the best of
    `rounds`."""
    import statistics

    from msze.extraction.ocr import clean_ocr_times, ocr_image
    from msze.extraction.pdf import pdf_to_text

    readers = {"pdf": (fakeweb.SCHEDULE_PDF, pdf_to_text), "image": (fakeweb.SCHEDULE_IMAGE, ocr_image)}
    costs: dict[str, list[float]] = {"pdf": [], "image": []}
    for n in range(sites):
        kind = fakeweb.media_kind(n)
        if kind is None or len(costs[kind]) >= 10:  # ten of a kind are enough for a median
            continue
        path, read = readers[kind]
        body = fakeweb.media_body(n, path)[0]
        best = float("inf")
        for _ in range(rounds):
            started = time.perf_counter()
            result = read(body)
            if kind == "image":
                clean_ocr_times(result.text)
            best = min(best, time.perf_counter() - started)
        costs[kind].append(best)
    return {f"{kind}_s": round(statistics.median(v), 4) if v else None for kind, v in costs.items()} | {
        f"{kind}_files": len(v) for kind, v in costs.items()
    }


def print_table(rows: list[dict], proj: dict) -> None:
    print(f"\n{'sites':>5} {'wall s':>7} {'pages':>6} {'pages/s':>7} {'steady':>6} {'CPU-s/page':>10} "
          f"{'CPU/wall':>8} {'peak MB':>7} {'wall s/site':>11} {'timeouts':>8} {'retries':>7}")  # fmt: skip
    for r in rows:
        print(f"{r['sites']:>5} {r['wall_s']:>7.1f} {r['pages']:>6} {r['pages_per_s']:>7.1f} "
              f"{r.get('steady_pages_per_s', 0):>6.1f} "
              f"{r['cpu_s_per_page']:>10.4f} {r['cpu_share']:>8.2f} {r['peak_rss_mb']:>7.1f} "
              f"{r['wall_s_per_site']:>11.3f} {r['timeout_share']:>8.1%} "
              f"{r['retry_share']:>7.1%}")  # fmt: skip
    p = proj
    linear = "linear" if p["per_site_spread"] <= 1.25 else "NOT linear"
    print(f"\nwall = {p['wall_fit'][0]} s + {p['wall_fit'][1]} s/site; peak RSS = {p['rss_fit'][0]} MB + "
          f"{p['rss_fit'][1]} MB/site; per-site wall time max/min over the sizes = {p['per_site_spread']} "
          f"({linear}); wall s per added site between sizes: {p['marginal_s_per_site']}")  # fmt: skip
    print(
        f"projected for {p['target_sites']} sites: {p['wall_s']} s = {p['wall_h']} h "
        f"({'meets' if p['meets_time'] else 'MISSES'} < 2 h), {p['rss_mb']} MB "
        f"({'meets' if p['meets_memory'] else 'MISSES'} < 1 GB), "
        f"{rows[-1]['jobs']} crawl process(es) on {os.cpu_count()} cores"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--sizes", default="250,500,1000", help="site counts, one crawl each (default 250,500,1000)"
    )
    parser.add_argument(
        "--target", type=int, default=5600, help="sites to project to (default 5600, the thesis)"
    )
    parser.add_argument("--work", help="keep outputs, logs and bench_poland.json here (default: a temp dir)")
    parser.add_argument("-s", dest="settings", action="append", default=[], help="extra Scrapy setting")
    parser.add_argument("--media", action="store_true", help="10 %% of sites a PDF schedule, 5 %% an image")
    parser.add_argument(
        "--jobs", type=int, default=1, help="crawl processes at once over each size's sites (default 1)"
    )
    args = parser.parse_args(argv)
    sizes = sorted(int(x) for x in args.sizes.split(","))
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-poland-"))
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    if args.jobs > 1 and not any(s.startswith("OCR_CONCURRENCY=") for s in args.settings):
        # OCR_CONCURRENCY=0 is one Tesseract child a core in each process: the cores shared out instead
        args.settings.append(f"OCR_CONCURRENCY={max(1, (os.cpu_count() or 1) // args.jobs)}")
    extra = [x for s in args.settings for x in ("-s", s)]
    fakeweb.MEDIA = args.media  # for realistic_stats' shares; the server gets --media
    web_stats = fakeweb.realistic_stats(max(sizes))
    print(
        f"realistic fake web: {web_stats}\nload average {os.getloadavg()}, cores {os.cpu_count()}", flush=True
    )
    web, proxy = fakeweb.start(max(sizes), work / "urls-all.txt", realistic=True, media=args.media)
    env = dict(os.environ, http_proxy=proxy, no_proxy="localhost,127.0.0.1", PYTHONPATH=str(ROOT))
    rows = []
    try:
        for sites in sizes:
            print(f"crawling {sites} sites ... (load average {os.getloadavg()})", flush=True)
            rows.append(crawl(sites, env, work, extra, args.jobs))
            print(f"  {rows[-1]}", flush=True)
    finally:
        web.terminate()
        web.wait()
    proj = projection(rows, args.target)
    print_table(rows, proj)
    result = {"fakeweb": web_stats, "settings": args.settings, "rows": rows, "projection": proj}
    if args.media:
        print("PDFs read, images OCR'd, images spared (site had a Sunday Mass) per size: "
              + "; ".join(f"{r['sites']}: {r['pdfs_read']}, {r['images_read']}, {r['ocr_skipped_has_sunday']}"
                          for r in rows))  # fmt: skip
        costs = file_costs(max(sizes))
        page_s = rows[-1]["cpu_s_per_page"]
        for kind in ("pdf", "image"):
            seconds, files = costs[f"{kind}_s"], costs[f"{kind}_files"]
            if seconds is not None:
                ms, ratio = seconds * 1000, seconds / page_s
                print(f"one schedule {kind}: {ms:.0f} ms (median of {files}), x{ratio:.1f} a page")
        result["file_costs"] = costs
    (work / "bench_poland.json").write_text(json.dumps(result, indent=1))
    print(f"\nlogs and outputs: {work}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
