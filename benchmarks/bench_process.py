"""Re-processing throughput: pages/s per core of `python -m msze process` over a stored crawl, 1 → 2 cores.

    .venv/bin/python benchmarks/bench_process.py --sites 120            # a generated stored crawl (JSONL)
    .venv/bin/python benchmarks/bench_process.py --format warc          # the same pages as WARC files
    .venv/bin/python benchmarks/bench_process.py --input output/pages   # an existing crawl

Without --input, the stored crawl is written from the pages of benchmarks/fakeweb.py (one parish JSONL per
site, as the parish spider writes them, or one .warc.gz per site). Each run is the full command (start-up, the
classifier load, reading, html2text, language, template, rules, classifier, writing); the figure is pages in /
wall seconds, per worker process, and the speed-up of 2 workers over 1 in the same invocation.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from procmem import children_cpu_seconds  # noqa: E402


def write_stored_crawl(folder: Path, sites: int, fmt: str) -> int:
    """One file per working fake site: JSONL PageItems or a WARC of its responses. Returns the page count."""
    import fakeweb

    folder.mkdir(parents=True, exist_ok=True)
    pages = 0
    for n in range(sites):
        spec = fakeweb.site_spec(n)
        if spec.fails or spec.drops:
            continue
        domain = fakeweb.host(n)
        start = f"http://{domain}/"
        if fmt == "jsonl":
            with open(folder / f"{domain}.jsonl", "w", encoding="utf-8") as f:
                for path in spec.pages:
                    html = fakeweb.page_html(n, path).decode("utf-8")
                    item = {"url": f"http://{domain}{path}", "previous_url": None if path == "/" else start,
                            "start_url": start, "domain": domain, "depth": 0 if path == "/" else 1,
                            "button_text": None, "html": html}  # fmt: skip
                    f.write(json.dumps(item, ensure_ascii=False) + "\n")
                    pages += 1
        else:
            from warcio.statusandheaders import StatusAndHeaders
            from warcio.warcwriter import WARCWriter

            with open(folder / f"{domain}.warc.gz", "wb") as f:
                writer = WARCWriter(f, gzip=True)
                for path in spec.pages:
                    body = fakeweb.page_html(n, path)
                    headers = [
                        ("Content-Type", "text/html; charset=utf-8"),
                        ("Content-Length", str(len(body))),
                    ]
                    writer.write_record(
                        writer.create_warc_record(
                            f"http://{domain}{path}",
                            "response",
                            payload=io.BytesIO(body),
                            length=len(body),
                            http_headers=StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1"),
                        )
                    )
                    pages += 1
    return pages


_TOTAL = re.compile(r"(\d+) pages in, (\d+) out in ([0-9.]+) s")


def run_process(inputs: Path, out: Path, workers: int, extra: list[str]) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "msze", "process", str(inputs), "--out", str(out), "--workers", str(workers),
           *extra]  # fmt: skip
    before = children_cpu_seconds()
    started = time.monotonic()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - started
    cpu = children_cpu_seconds() - before
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"process exited with {done.returncode}")
    match = _TOTAL.findall(done.stdout)
    pages_in = int(match[-1][0]) if match else 0
    return {"workers": workers, "pages": pages_in, "wall": wall, "cpu": cpu, "rate": pages_in / wall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", help="a stored crawl (JSONL/WARC files or folder); default: generate one")
    parser.add_argument("--sites", type=int, default=120, help="generated sites (default 120)")
    parser.add_argument("--format", choices=("jsonl", "warc"), default="jsonl", help="generated file format")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--no-classifier", action="store_true", help="rules only")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench-process-"))
    try:
        if args.input:
            inputs = Path(args.input)
            described = str(inputs)
        else:
            inputs = work / "crawl"
            pages = write_stored_crawl(inputs, args.sites, args.format)
            files = len(list(inputs.iterdir()))
            size = sum(p.stat().st_size for p in inputs.iterdir()) / 1024 / 1024
            described = f"{files} generated {args.format} files, {pages} pages, {size:.1f} MB"
        print(f"stored crawl: {described}; cores: {os.cpu_count()}", flush=True)
        extra = ["--no-classifier"] if args.no_classifier else []
        rows = []
        for workers in args.workers:
            row = run_process(inputs, work / f"out{workers}", workers, extra)
            rows.append(row)
            print(f"  --workers {workers}: {row['pages']} pages in {row['wall']:.1f} s"
                  f" = {row['rate']:.1f} pages/s"
                  f" ({row['rate'] / workers:.1f} pages/s per process; CPU {row['cpu']:.1f} s = "
                  f"{row['pages'] / row['cpu']:.1f} pages per CPU-second)", flush=True)  # fmt: skip
        if len(rows) >= 2:
            base = rows[0]
            for row in rows[1:]:
                speedup = row["rate"] / base["rate"]
                ideal = row["workers"] / base["workers"]
                print(f"scaling {base['workers']} -> {row['workers']} processes: {speedup:.2f}x "
                      f"(efficiency {speedup / ideal:.0%})")  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
