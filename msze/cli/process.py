"""`python -m msze process PATH...`: re-run text conversion, extraction and classification over stored crawls.

Inputs are parish pages JSONL (the parish spider's output) or WARC files (msze's own, `wget --warc-file`,
Heritrix, Browsertrix); directories are searched for both. Files are processed in parallel (`--workers`), one
output `<out>/<name>.jsonl` per input plus one summary line per parish in `<out>/results.jsonl`; inputs that
would share a name get names from their paths (reprocess.output_names), never one file for two. What cannot
be read (a directory, a torn WARC, a bad record, a failing page) is a one-line warning on stderr, and the last
line of a batch counts it.
`--folder DIR` processes only files unchanged for `--min-age` seconds and records each in the job database,
so a re-run (or `--watch`) skips files already done, as a batch preprocessing should.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msze.archive.jsonl import read_objects
from msze.archive.reprocess import (
    JSONL_SUFFIXES,
    NO_CLASSIFIER,
    WARC_SUFFIXES,
    FileReport,
    ProcessOptions,
    load_classifier,
    make_processor,
    output_names,
    process_file,
)
from msze.batch.results import append_result, export_csv
from msze.extraction.language import parse_languages
from msze.extraction.page import CLASSIFIER_ROLES, DEFAULT_CLASSIFIER_ROLE
from msze.recrawl.state import SET_ASIDE_WARNING, RecrawlState
from msze.utils.urls import parish_url

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
        "--classifier",
        metavar="MODEL",
        help="fastText hour model (default: msze/models/hours.ftz)",
    )
    parser.add_argument("--no-classifier", action="store_true", help="label hours with the rules alone")
    parser.add_argument(
        "--classifier-role",
        choices=CLASSIFIER_ROLES,
        default=DEFAULT_CLASSIFIER_ROLE,
        help="what the classifier does with the hours the rules did not confirm "
        "(CLASSIFIER_ROLE; default: %(default)s)",
    )
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


@dataclass
class Inputs:
    """What PATH... names: the input files, the paths that do not exist, and one-line warnings for what a
    directory walk could not read (a subdirectory it cannot list, a dangling link)."""

    files: list[Path] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


def find_inputs(paths: Iterable[str]) -> Inputs:
    """Input files (directories expanded, sorted); nothing a walk cannot read is skipped silently."""
    found = Inputs()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.files.extend(_walk(path, found.unreadable))
        elif path.is_file():
            found.files.append(path)
        else:
            found.missing.append(raw)
    found.files = list(dict.fromkeys(found.files))
    return found


def _walk(folder: Path, unreadable: list[str]) -> list[Path]:
    """The input-named files under `folder` (symbolic links to directories are not followed, as before)."""

    def cannot_list(exc: OSError) -> None:
        unreadable.append(f"{exc.filename}: cannot list ({exc.strerror or exc}); skipped")

    files = []
    for top, _dirs, names in os.walk(folder, onerror=cannot_list):
        for name in filter(_is_input_name, names):
            path = Path(top, name)
            if path.is_file():
                files.append(path)
            else:
                unreadable.append(f"{path}: not a readable file (a dangling link?); skipped")
    return sorted(files)


def _is_input_name(name: str) -> bool:
    return name.lower().endswith(JSONL_SUFFIXES + WARC_SUFFIXES) and ".tmp." not in name


# --- the worker pool ------------------------------------------------------------------------------------

_WORKER: dict[str, Any] = {}


def _init_worker(options: ProcessOptions) -> None:
    """Load the extractor and classifier once per worker process, not once per file."""
    _WORKER["options"] = options
    _WORKER["processor"] = make_processor(options)


def _run_one(job: tuple[str, str]) -> FileReport:
    path, out_name = job
    try:
        return process_file(path, _WORKER["options"], _WORKER["processor"], out_name)
    except Exception as exc:  # noqa: BLE001 - one broken file must not stop the batch
        return FileReport(input=path, error=f"{type(exc).__name__}: {exc}")


def process_files(
    paths: list[str], options: ProcessOptions, workers: int, names: dict[str, str] | None = None
) -> Iterator[FileReport]:
    """Reports in completion order; with one worker (or one file) everything runs in this process.
    `names` are the output names (default output_names(paths): two inputs never write one file)."""
    names = names or output_names(paths)
    jobs = [(path, names[path]) for path in paths]
    if workers <= 1 or len(paths) <= 1:
        _init_worker(options)
        for job in jobs:
            yield _run_one(job)
        return
    ctx = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with ctx.Pool(min(workers, len(paths)), initializer=_init_worker, initargs=(options,)) as pool:
        yield from pool.imap_unordered(_run_one, jobs)


# --- folder mode ------------------------------------------------------------------------------------


def complete_files(files: list[Path], min_age: float, now: float | None = None) -> list[Path]:
    """The files unchanged for `min_age` seconds (a crawler may still write the rest); gone ones left out."""
    now = time.time() if now is None else now
    complete = []
    for path in files:
        try:
            if now - path.stat().st_mtime >= min_age:
                complete.append(path)
        except OSError:  # removed since the walk: nothing to do
            continue
    return complete


def _file_key(path: Path) -> str:
    return str(path.resolve())


def _already_done(row: dict[str, Any] | None, path: Path) -> bool:
    """Finished before, and the file is the same (size and mtime) as then."""
    if not row or row["state"] != "finished" or not row.get("summary"):
        return False
    summary = json.loads(row["summary"])
    stat = _stat(str(path))
    return (
        stat is not None
        and summary.get("size") == stat.st_size
        and summary.get("mtime_ns") == stat.st_mtime_ns
    )


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
    if args.state:
        with RecrawlState(args.state) as state:  # set aside a state keyed by domain once, and say so
            if state.set_aside_by_domain:
                print("process: warning: " + SET_ASIDE_WARNING % state.path, file=sys.stderr)
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
        classifier_role=args.classifier_role,
        state_path=args.state,
        only_changed=args.only_changed,
        keep_html=not args.no_html,
    )
    Path(args.out).mkdir(parents=True, exist_ok=True)
    try:  # load the model once here, so a bad one is one clear message instead of one per worker
        load_classifier(options.classifier_path)
    except Exception as exc:  # noqa: BLE001 - ClassifierLoadError, or fastText's own errors
        print(f"process: cannot load the hour classifier: {exc}", file=sys.stderr)
        return 2
    failed = 0
    if args.paths:
        inputs = find_inputs(args.paths)
        for raw in inputs.missing:
            print(f"process: {raw}: no such file or directory", file=sys.stderr)
        _warn_unreadable(inputs)
        if not inputs.files:
            print("process: no JSONL or WARC input found", file=sys.stderr)
            return 2
        paths = [str(p) for p in inputs.files]
        failed += _process_batch(paths, options, args.workers, None, output_names(paths), inputs)
        failed += len(inputs.missing)
    if args.folder:
        failed += _process_folder(args, options)
    _export_csv(Path(args.out))
    return 1 if failed else 0


def _process_folder(args: argparse.Namespace, options: ProcessOptions) -> int:
    from msze.batch.jobs import JobDB

    folder = Path(args.folder)
    if not folder.is_dir():
        print(f"process: --folder {folder}: not a directory", file=sys.stderr)
        return 1
    failed = 0
    with JobDB(args.db or Path(args.out) / "jobs.sqlite3", kind=JOB_KIND) as db:
        while True:
            inputs = find_inputs([str(folder)])
            _warn_unreadable(inputs)
            complete = complete_files(inputs.files, args.min_age)
            # Names over every complete file, not just the new ones: a new file never takes an old one's.
            names = output_names(str(p) for p in complete)
            todo = [str(p) for p in complete if not _already_done(db.get(_file_key(p)), p)]
            if todo:
                failed += _process_batch(todo, options, args.workers, db, names, inputs)
            else:
                counts = db.counts()
                print(f"process: {folder}: nothing new ({counts['finished']} files done)", flush=True)
            if not args.watch:
                return failed
            time.sleep(args.interval)


# What the final line of a batch reports, when it happened: (count key, what one of them is).
PROBLEMS = (
    ("truncated", "truncated file"),
    ("skipped/bad_record", "bad record"),
    ("skipped/bad_line", "torn line"),
    ("failed/page", "failed page"),
    ("text/fallback", "text fallback"),
)


def _warn_unreadable(inputs: Inputs) -> None:
    for message in inputs.unreadable:
        print(f"process: warning: {message}", file=sys.stderr)


def _stat(path: str) -> os.stat_result | None:
    try:
        return Path(path).stat()
    except OSError:  # gone since the walk: process_file reports it
        return None


def _process_batch(
    paths: list[str],
    options: ProcessOptions,
    workers: int,
    db: Any,
    names: dict[str, str],
    inputs: Inputs | None = None,
) -> int:
    """Process files, print a line per file (and its warnings) and a total with the problems counted;
    record them in the job DB when given."""
    started = time.monotonic()
    stats = {path: _stat(path) for path in paths}  # as the file was when taken, for _already_done
    if db is not None:
        db.enqueue([_file_key(Path(p)) for p in paths])
        for path in paths:
            db.start(_file_key(Path(path)))
    pages_in = pages_out = failed = 0
    problems: Counter[str] = Counter()
    results_path = Path(options.out_dir) / "results.jsonl"
    for n, report in enumerate(process_files(paths, options, workers, names), 1):
        pages_in += report.pages_in
        pages_out += report.pages_out
        problems.update({key: report.counts.get(key, 0) for key, _ in PROBLEMS})
        _print_report(f"[{n}/{len(paths)}]", report)
        if report.error:
            failed += 1
            if db is not None:
                db.fail(_file_key(Path(report.input)), report.error)
            continue
        for summary in report.summaries:
            append_result(results_path, summary)
        if db is not None:
            _record_done(db, report, stats[report.input])
    seconds = time.monotonic() - started
    rate = pages_in / seconds if seconds > 0 else 0.0
    print(
        f"process: {len(paths) - failed}/{len(paths)} files done, {failed} failed; {pages_in} pages in, "
        f"{pages_out} out in {seconds:.1f} s ({rate:.1f} pages/s, {workers} workers)"
        + _problems_text(problems, len(inputs.unreadable) if inputs else 0),
        flush=True,
    )
    return failed


def _print_report(position: str, report: FileReport) -> None:
    for message in report.warnings:
        print(f"process: warning: {message}", file=sys.stderr)
    if report.counts.get("warnings_not_shown"):
        print(
            f"process: warning: {report.input}: {report.counts['warnings_not_shown']} more warnings",
            file=sys.stderr,
        )
    if report.error:
        print(f"{position} FAILED {report.input}: {report.error}", flush=True)
        return
    skipped = {k.split("/", 1)[1]: v for k, v in report.counts.items() if k.startswith("skipped/")}
    print(
        f"{position} {report.input} -> {report.output}: {report.pages_in} pages in, "
        f"{report.pages_out} out, {len(report.summaries)} parishes, {report.seconds:.2f} s"
        + (f", skipped {skipped}" if skipped else ""),
        flush=True,
    )


def _problems_text(problems: Counter[str], unreadable: int) -> str:
    """ "; 1 truncated file, 2 bad records" for the batch's last line ("" when nothing went wrong)."""
    counted = [(problems[key], label) for key, label in PROBLEMS] + [(unreadable, "unreadable path")]
    parts = [f"{n} {label}{'' if n == 1 else 's'}" for n, label in counted if n]
    return "; " + ", ".join(parts) if parts else ""


def _record_done(db: Any, report: FileReport, stat: os.stat_result | None) -> None:
    size = stat.st_size if stat else None
    db.finish(
        _file_key(Path(report.input)),
        {
            "pages": report.pages_out,
            "bytes": size,
            "masses": sum(len(s["masses"]) for s in report.summaries),
            "size": size,
            "mtime_ns": stat.st_mtime_ns if stat else None,
            "output": report.output,
        },
    )


def _export_csv(out_dir: Path) -> None:
    """results.csv beside results.jsonl: the latest line of each parish (its start URL) wins."""
    results = out_dir / "results.jsonl"
    if not results.exists():
        return
    latest: dict[str, dict[str, Any]] = {}
    for summary in read_objects(results):
        start_url = summary.get("start_url") or ""
        latest[parish_url(start_url) or start_url] = summary
    export_csv(latest.values(), out_dir / "results.csv")
