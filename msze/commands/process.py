"""`python -m msze process PATH...`: re-run text conversion, extraction and classification over stored crawls.

Inputs are parish pages JSONL (the parish spider's output) or WARC files (msze's own, `wget --warc-file`,
Heritrix, Browsertrix); directories are searched for both. Files are processed in parallel (`--workers`), one
output `<out>/<name>.jsonl` per input plus one summary line per parish in `<out>/results.jsonl`.
`--folder DIR` processes only files unchanged for `--min-age` seconds and records each in the job database,
so a re-run (or `--watch`) skips files already done, as seed 003's preprocessing did.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from msze.jsonl import read_objects
from msze.lang import parse_languages
from msze.processing import (
    JSONL_SUFFIXES,
    NO_CLASSIFIER,
    WARC_SUFFIXES,
    FileReport,
    ProcessOptions,
    default_extractor,
    make_processor,
    process_file,
)
from msze.recrawl_state import RecrawlState
from msze.results import append_result, export_csv

DEFAULT_OUT = "output/processed"
JOB_KIND = "process"  # rows of this command in 7a's job table (kind, url=absolute file path)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", help="pages JSONL / WARC files, or directories holding them")
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"output directory (default {DEFAULT_OUT})")
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes, one file each (default: cores)"
    )
    parser.add_argument(
        "--lang",
        action="append",
        metavar="CODE",
        help="keep only pages in these languages (ISO 639-1, repeatable or comma-separated, e.g. pl)",
    )
    parser.add_argument(
        "--classifier", metavar="MODEL", help="fastText hour model (default: the committed models/hours.ftz)"
    )
    parser.add_argument("--no-classifier", action="store_true", help="label hours with the rules alone")
    parser.add_argument(
        "--state", metavar="SQLITE", help="previous-run state (RECRAWL_STATE): record page/parish changes"
    )
    parser.add_argument(
        "--only-changed",
        action="store_true",
        help="with --state: keep the stored hours of pages whose text did not change (no re-extraction)",
    )
    parser.add_argument("--no-html", action="store_true", help="drop the HTML from the output pages")
    parser.add_argument("--folder", metavar="DIR", help="process the complete files of DIR, each once")
    parser.add_argument(
        "--min-age",
        type=float,
        default=60.0,
        help="--folder: a file is complete when unchanged for this many seconds (default 60)",
    )
    parser.add_argument("--watch", action="store_true", help="--folder: keep polling for new files")
    parser.add_argument("--interval", type=float, default=30.0, help="--watch: seconds between scans")
    parser.add_argument(
        "--db",
        help="--folder: job database (default <out>/jobs.sqlite3; crawl-all's DB works, kind 'process')",
    )
    parser.add_argument(
        "--show-changes",
        action="store_true",
        help="with --state: print each parish's latest change record (JSON lines) and exit",
    )


def find_inputs(paths: Iterable[str]) -> tuple[list[Path], list[str]]:
    """Input files (directories expanded, sorted), and the paths that do not exist."""
    files: list[Path] = []
    missing: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.is_file() and _is_input_name(p.name)))
        elif path.is_file():
            files.append(path)
        else:
            missing.append(raw)
    return list(dict.fromkeys(files)), missing


def _is_input_name(name: str) -> bool:
    return name.lower().endswith(JSONL_SUFFIXES + WARC_SUFFIXES) and ".tmp." not in name


# --- the worker pool ------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(options: ProcessOptions) -> None:
    """Load the extractor and classifier once per worker process, not once per file."""
    _WORKER["options"] = options
    _WORKER["processor"] = make_processor(options)


def _run_one(path: str) -> FileReport:
    try:
        return process_file(path, _WORKER["options"], _WORKER["processor"])
    except Exception as exc:  # noqa: BLE001 - one broken file must not stop the batch
        return FileReport(input=path, error=f"{type(exc).__name__}: {exc}")


def process_files(paths: list[str], options: ProcessOptions, workers: int) -> Iterator[FileReport]:
    """Reports in completion order; with one worker (or one file) everything runs in this process."""
    if workers <= 1 or len(paths) <= 1:
        _init_worker(options)
        for path in paths:
            yield _run_one(path)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(min(workers, len(paths)), initializer=_init_worker, initargs=(options,)) as pool:
        yield from pool.imap_unordered(_run_one, paths)


# --- folder mode ------------------------------------------------------------------------------------


def complete_files(folder: Path, min_age: float, now: float | None = None) -> list[Path]:
    """Input files of the folder unchanged for `min_age` seconds (a crawler may still write the rest)."""
    now = time.time() if now is None else now
    files, _ = find_inputs([str(folder)])
    return [p for p in files if now - p.stat().st_mtime >= min_age]


def _file_key(path: Path) -> str:
    return str(path.resolve())


def _already_done(row: dict[str, Any] | None, path: Path) -> bool:
    """Finished before, and the file is the same (size and mtime) as then."""
    if not row or row["state"] != "finished" or not row.get("summary"):
        return False
    summary = json.loads(row["summary"])
    stat = path.stat()
    return summary.get("size") == stat.st_size and summary.get("mtime_ns") == stat.st_mtime_ns


# --- the command ------------------------------------------------------------------------------------


def run(args: argparse.Namespace) -> int:
    if args.show_changes:
        if not args.state or not Path(args.state).is_file():
            print("process: --show-changes needs --state FILE (an existing re-crawl state)", file=sys.stderr)
            return 2
        with RecrawlState(args.state) as state:
            try:
                for change in state.last_changes():
                    print(json.dumps(change, ensure_ascii=False))
                sys.stdout.flush()
            except BrokenPipeError:  # `| head`: the reader has all it wanted
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    if args.only_changed and not args.state:
        print("process: --only-changed needs --state (the previous run to compare with)", file=sys.stderr)
        return 2
    if args.watch and not args.folder:
        print("process: --watch needs --folder DIR", file=sys.stderr)
        return 2
    if not args.paths and not args.folder:
        print("process: give PATH... (JSONL/WARC files or directories) or --folder DIR", file=sys.stderr)
        return 2
    options = ProcessOptions(
        out_dir=args.out,
        languages=parse_languages(args.lang),
        classifier_path=NO_CLASSIFIER if args.no_classifier else args.classifier,
        state_path=args.state,
        only_changed=args.only_changed,
        keep_html=not args.no_html,
    )
    Path(args.out).mkdir(parents=True, exist_ok=True)
    try:  # load the model once here, so a bad one is one clear message instead of one per worker
        default_extractor(options.classifier_path)
    except Exception as exc:  # noqa: BLE001 - ClassifierLoadError, or fastText's own errors
        print(f"process: cannot load the hour classifier: {exc}", file=sys.stderr)
        return 2
    failed = 0
    if args.paths:
        files, missing = find_inputs(args.paths)
        for raw in missing:
            print(f"process: {raw}: no such file or directory", file=sys.stderr)
        if not files:
            print("process: no JSONL or WARC input found", file=sys.stderr)
            return 2
        failed += _process_batch([str(p) for p in files], options, args.workers, None)
        failed += len(missing)
    if args.folder:
        failed += _process_folder(args, options)
    _export_csv(Path(args.out))
    return 1 if failed else 0


def _process_folder(args: argparse.Namespace, options: ProcessOptions) -> int:
    from msze.jobs import JobDB

    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"process: --folder {folder}: not a directory", file=sys.stderr)
        return 1
    failed = 0
    with JobDB(args.db or Path(args.out) / "jobs.sqlite3", kind=JOB_KIND) as db:
        while True:
            todo = [
                p for p in complete_files(folder, args.min_age) if not _already_done(db.get(_file_key(p)), p)
            ]
            if todo:
                failed += _process_batch([str(p) for p in todo], options, args.workers, db)
            else:
                counts = db.counts()
                print(f"process: {folder}: nothing new ({counts['finished']} files done)", flush=True)
            if not args.watch:
                return failed
            time.sleep(args.interval)


def _process_batch(paths: list[str], options: ProcessOptions, workers: int, db: Any) -> int:
    """Process files, print a line per file and a total; record them in the job DB when given."""
    started = time.monotonic()
    stats = {path: Path(path).stat() for path in paths}
    if db is not None:
        db.enqueue([_file_key(Path(p)) for p in paths])
        for path in paths:
            db.start(_file_key(Path(path)))
    pages_in = pages_out = failed = 0
    results_path = Path(options.out_dir) / "results.jsonl"
    for n, report in enumerate(process_files(paths, options, workers), 1):
        pages_in += report.pages_in
        pages_out += report.pages_out
        if report.error:
            failed += 1
            print(f"[{n}/{len(paths)}] FAILED {report.input}: {report.error}", flush=True)
            if db is not None:
                db.fail(_file_key(Path(report.input)), report.error)
            continue
        for summary in report.summaries:
            append_result(results_path, summary)
        skipped = {k.split("/", 1)[1]: v for k, v in report.counts.items() if k.startswith("skipped/")}
        print(
            f"[{n}/{len(paths)}] {report.input} -> {report.output}: {report.pages_in} pages in, "
            f"{report.pages_out} out, {len(report.summaries)} parishes, {report.seconds:.2f} s"
            + (f", skipped {skipped}" if skipped else ""),
            flush=True,
        )
        if db is not None:
            stat = stats[report.input]
            db.finish(
                _file_key(Path(report.input)),
                {
                    "pages": report.pages_out,
                    "bytes": stat.st_size,
                    "masses": sum(len(s["masses"]) for s in report.summaries),
                    "size": stat.st_size,
                    "mtime_ns": stat.st_mtime_ns,
                    "output": report.output,
                },
            )
    seconds = time.monotonic() - started
    rate = pages_in / seconds if seconds > 0 else 0.0
    print(
        f"process: {len(paths) - failed}/{len(paths)} files done, {failed} failed; {pages_in} pages in, "
        f"{pages_out} out in {seconds:.1f} s ({rate:.1f} pages/s, {workers} workers)",
        flush=True,
    )
    return failed


def _export_csv(out_dir: Path) -> None:
    """results.csv beside results.jsonl: the latest line of each parish wins."""
    results = out_dir / "results.jsonl"
    if not results.exists():
        return
    latest: dict[str, dict[str, Any]] = {}
    for summary in read_objects(results):
        latest[summary.get("domain") or summary.get("start_url") or ""] = summary
    export_csv(latest.values(), out_dir / "results.csv")
