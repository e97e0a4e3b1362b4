"""Re-processing throughput: pages/s per core of `python -m msze process` over a stored crawl, 1 → 2 cores.

    .venv/bin/python benchmarks/bench_process.py --sites 120            # a generated stored crawl (JSONL)
    .venv/bin/python benchmarks/bench_process.py --format warc          # the same pages as WARC files
    .venv/bin/python benchmarks/bench_process.py --input output/pages   # an existing crawl
    .venv/bin/python benchmarks/bench_process.py --workers 1 --against 0d0e780   # this tree vs a revision

Without --input, the stored crawl is written from the pages of benchmarks/fakeweb.py (one parish JSONL per
site, as the parish spider writes them, or one .warc.gz per site). Each run is the full command (start-up, the
classifier load, reading, html2text, language, template, rules, classifier, writing); the figure is pages in /
wall seconds, per worker process, and the speed-up of 2 workers over 1 in the same invocation. With --against
REV, each run is made again right after by REV's code (exported by benchmarks/revision.py), and this tree's
pages per CPU-second are given as a ratio to REV's.
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
from revision import exported_tree  # noqa: E402


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


def run_process(inputs: Path, out: Path, workers: int, extra: list[str], tree: Path = ROOT) -> dict:
    """`python -m msze process` with ``tree``'s code: pages, wall and CPU seconds."""
    shutil.rmtree(out, ignore_errors=True)
    cmd = [sys.executable, "-m", "msze", "process", str(inputs), "--out", str(out), "--workers", str(workers),
           *extra]  # fmt: skip
    before = children_cpu_seconds()
    started = time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    cpu = children_cpu_seconds() - before
    if done.returncode != 0:
        print(done.stdout[-2000:], done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"process exited with {done.returncode}")
    match = _TOTAL.findall(done.stdout)
    pages_in = int(match[-1][0]) if match else 0
    return {"workers": workers, "pages": pages_in, "wall": wall, "cpu": cpu, "rate": pages_in / wall}


def best_run(inputs: Path, out: Path, workers: int, extra: list[str], tree: Path, repeat: int) -> dict:
    """The run with the most pages per CPU-second of ``repeat``."""
    runs = [run_process(inputs, out, workers, extra, tree) for _ in range(repeat)]
    return max(runs, key=lambda r: r["pages"] / r["cpu"])


def compare_with(rev: str, inputs: Path, work: Path, row: dict, extra: list[str], repeat: int) -> None:
    """The same run by ``rev``'s code, right after this tree's, and this tree's pages per CPU-second as a
    ratio to it."""
    with exported_tree(rev) as old:
        then = best_run(inputs, work / "out-rev", row["workers"], extra, old, repeat)
    now_rate, then_rate = row["pages"] / row["cpu"], then["pages"] / then["cpu"]
    print(f"    {rev}: {then['pages']} pages, CPU {then['cpu']:.1f} s = {then_rate:.1f} pages per CPU-second;"
          f" this tree {now_rate / then_rate:.2f}x {rev}'s", flush=True)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--input", help="a stored crawl (JSONL/WARC files or folder); default: generate one")
    parser.add_argument("--sites", type=int, default=120, help="generated sites (default 120)")
    parser.add_argument("--format", choices=("jsonl", "warc"), default="jsonl", help="generated file format")
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2], help="worker counts (default 1 2)")
    parser.add_argument("--no-classifier", action="store_true", help="rules only")
    parser.add_argument(
        "--against", metavar="REV", help="also run REV's code and compare pages per CPU-second"
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per figure; the best counts")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="bench-process-"))
    try:
        if args.input:
            inputs = Path(args.input).resolve()
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
            row = best_run(inputs, work / f"out{workers}", workers, extra, ROOT, args.repeat)
            rows.append(row)
            print(f"  --workers {workers}: {row['pages']} pages in {row['wall']:.1f} s"
                  f" = {row['rate']:.1f} pages/s"
                  f" ({row['rate'] / workers:.1f} pages/s per process; CPU {row['cpu']:.1f} s = "
                  f"{row['pages'] / row['cpu']:.1f} pages per CPU-second)", flush=True)  # fmt: skip
            if args.against:
                compare_with(args.against, inputs, work, row, extra, args.repeat)
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
