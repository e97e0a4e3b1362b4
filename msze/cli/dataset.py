"""`python -m msze dataset OUT_DIR ...`: the classifier's train/dev/test sets from every labelled source.

Writes OUT_DIR/{train,dev,test}.jsonl (examples with their text window, so `msze train --data OUT_DIR` can try
other feature windows), OUT_DIR/{train,dev,test}.txt (fastText lines at --before/--after) and
OUT_DIR/stats.json, and prints the counts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

from msze.classifier import dataset as ds
from msze.classifier.features import DEFAULT_AFTER, DEFAULT_BEFORE, DEFAULT_NEAR
from msze.labels.sets import (
    DEFAULT_ANNOTATED,
    DEFAULT_ANNOTATED_MAX,
    annotated_rows,
    label_files,
    labelled_pages,
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_source_arguments(parser)
    parser.add_argument("out", type=Path, help="output folder")
    parser.add_argument("--dev", type=float, default=0.1, help="share of examples for dev (default 0.1)")
    parser.add_argument("--test", type=float, default=0.1, help="share of examples for test (default 0.1)")
    parser.add_argument("--before", type=int, default=DEFAULT_BEFORE, help="feature window before the hour")
    parser.add_argument("--after", type=int, default=DEFAULT_AFTER, help="feature window after the hour")
    parser.add_argument("--near", type=int, default=DEFAULT_NEAR, help="same-line tokens repeated (prefixed)")


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """The data-source options, shared with `msze train`."""
    parser.add_argument(
        "--realpages", nargs="*", default=[], type=Path, help="labelled pages (realpages JSONL layout)"
    )
    parser.add_argument(
        "--annotated",
        nargs="*",
        default=[],
        type=Path,
        help="annotated-*.tsv Mass-time texts (extra positives)",
    )
    parser.add_argument(
        "--annotator", nargs="*", default=[], type=Path, help="annotator exports: TSV or fastText lines"
    )
    parser.add_argument(
        "--corrections",
        nargs="*",
        default=[],
        type=Path,
        help="reviewed visitors' reports: `msze search corrections` JSONL (labels as the review decided)",
    )
    parser.add_argument(
        "--pages",
        nargs="*",
        default=[],
        type=Path,
        help="crawled PageItem JSONL files or folders: rule positives + negatives from filter-rejected pages",
    )
    parser.add_argument(
        "--neg-ratio",
        type=float,
        default=1.0,
        help="sample negatives from filter-rejected pages until other ≈ RATIO × mass (default 1.0)",
    )
    parser.add_argument(
        "--annotated-max",
        type=int,
        default=0,
        metavar="N",
        help="use at most N examples from --annotated, drawn at random (default 0: all); they are list-style "
        "texts and nearly all positive, so many of them bias the model towards 'mass'",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed for sampling and splitting")


def _jsonl_files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        out.extend(sorted(p.glob("*.jsonl")) if p.is_dir() else [p])
    return out


def default_sources(args: argparse.Namespace, log=print) -> None:
    """No source named: the repository's labelled pages (data/realpages) and the thesis's annotated texts,
    as the packaged model was trained (msze/models/README.md)."""
    if args.realpages or args.annotated or args.annotator or args.pages or args.corrections:
        return
    args.realpages = [Path(p) for p in label_files("realpages")]
    args.annotated = [Path(p) for p in DEFAULT_ANNOTATED if Path(p).is_file()]
    args.annotated_max = args.annotated_max or DEFAULT_ANNOTATED_MAX
    log(f"sources: data/realpages and {len(args.annotated)} annotated files (at most {args.annotated_max})")


def collect(args: argparse.Namespace, log=print) -> list[ds.Example]:
    """Every example from the sources named in ``args``, negatives sampled, de-duplicated (in input order)."""
    examples: list[ds.Example] = []
    default_sources(args, log)
    for path in args.realpages:
        got = ds.from_realpages(labelled_pages(path, log))
        log(f"{path}: {len(got)} labelled tokens")
        examples += got
    annotated: list[ds.Example] = []
    for path in args.annotated:
        got, counts = ds.from_annotated(annotated_rows(path))
        log(
            f"{path}: {counts['mass']} listed Mass times, "
            f"{counts['other']} rejected (ranges, offices, devotions)"
        )
        annotated += got
    if args.annotated_max and len(annotated) > args.annotated_max:
        annotated = random.Random(args.seed).sample(annotated, args.annotated_max)
        log(f"--annotated-max: kept {len(annotated)} annotated examples at random")
    examples += annotated
    for path in args.annotator:
        if ds.is_fasttext_file(path):
            with open(path, encoding="utf-8") as fh:
                got, skipped = ds.from_fasttext_lines(fh, site=f"fasttext:{path.name}")
        else:
            got, skipped = ds.from_annotator_tsv(ds.read_tsv(path))
        log(f"{path}: {len(got)} annotated hours, {skipped} skipped (no majority or hour not in context)")
        examples += got
    for path in args.corrections:
        got, skipped = ds.from_corrections(ds.read_jsonl(path))
        log(
            f"{path}: {len(got)} reviewed reports, {skipped} skipped (not reviewed, or no sentence with "
            "the time)"
        )
        examples += got
    pool: list[ds.Example] = []
    for path in _jsonl_files(args.pages):
        positives, negatives = ds.from_crawled_pages(ds.read_jsonl(path))
        log(f"{path}: {len(positives)} rule positives, {len(negatives)} hours on filter-rejected pages")
        examples += positives
        pool += negatives
    if pool:
        drawn = ds.sample_negatives(examples, pool, args.neg_ratio, args.seed)
        log(f"sampled {len(drawn)} negatives from {len(pool)} (ratio {args.neg_ratio})")
        examples += drawn
    return examples


def _counts(examples: list[ds.Example]) -> dict[str, object]:
    return {
        "examples": len(examples),
        "sites": len({e.site for e in examples}),
        "labels": dict(Counter(e.label for e in examples)),
        "sources": dict(Counter(e.source for e in examples)),
    }


def run(args: argparse.Namespace) -> int:
    try:
        examples = collect(args)
    except (OSError, ValueError, KeyError) as exc:
        print(f"dataset: {exc}", file=sys.stderr)
        return 2
    if not examples:
        print("dataset: no examples (give --realpages, --annotated, --annotator or --pages)", file=sys.stderr)
        return 2
    unique = ds.dedupe(examples, args.before, args.after, args.near)
    print(f"{len(examples)} examples, {len(unique)} after removing identical lines")
    splits = ds.split_by_site(unique, seed=args.seed, dev=args.dev, test=args.test)
    args.out.mkdir(parents=True, exist_ok=True)
    stats: dict[str, object] = {
        "seed": args.seed,
        "before": args.before,
        "after": args.after,
        "near": args.near,
    }
    for name, part in splits.items():
        with open(args.out / f"{name}.jsonl", "w", encoding="utf-8") as fh:
            ds.write_examples(part, fh)
        with open(args.out / f"{name}.txt", "w", encoding="utf-8") as fh:
            fh.writelines(e.fasttext_line(args.before, args.after, args.near) + "\n" for e in part)
        stats[name] = _counts(part)
        print(f"{name}: {json.dumps(stats[name], ensure_ascii=False)}")
    (args.out / "stats.json").write_text(
        json.dumps(stats, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(f"wrote {args.out}/{{train,dev,test}}.{{jsonl,txt}} and stats.json")
    return 0
