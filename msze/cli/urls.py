"""`python -m msze urls PLACES_FILE`: the parish website list for the batch crawl, one URL a line.

Reads the places output (TSV like the thesis's extended.tsv, or JSONL of PlaceItem; the thesis file itself
works too), keeps http(s) URLs, drops repeats (the same parish URL, utils.urls.parish_url: up to case,
"www.", a trailing slash, a #fragment or tracking parameters; several parishes often share one website) and
prints them in input order. A summary goes to stderr.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from msze.directory.deon_parser import read_records
from msze.directory.places_api import OUTCOMES
from msze.utils.urls import parish_url


@dataclass
class UrlList:
    urls: list[str] = field(default_factory=list)
    rows: int = 0
    without_url: int = 0
    duplicates: int = 0
    invalid: list[str] = field(default_factory=list)


def collect_urls(records: Iterable[dict], statuses: set[str] | None = None) -> UrlList:
    """Distinct website URLs of the records (optionally only those with one of `statuses`), in input order."""
    result = UrlList()
    seen: set[str] = set()
    for record in records:
        result.rows += 1
        if statuses is not None and str(record.get("status") or "") not in statuses:
            continue
        url = str(record.get("url") or "").strip()
        if not url:
            result.without_url += 1
            continue
        key = parish_url(url)
        if not key:
            result.invalid.append(url)
            continue
        if key in seen:
            result.duplicates += 1
            continue
        seen.add(key)
        result.urls.append(url)
    return result


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("places_file", help="places output: TSV (extended.tsv layout) or JSONL")
    parser.add_argument(
        "--status",
        default="",
        help=f"comma-separated outcomes to keep, e.g. OK (default: all of {', '.join(OUTCOMES)})",
    )
    parser.add_argument("-o", "--output", help="write the list here instead of stdout")


def run(args: argparse.Namespace) -> int:
    statuses = {s.strip().upper() for s in args.status.split(",") if s.strip()} or None
    if statuses and not statuses <= set(OUTCOMES):
        print(
            f"urls: unknown status in --status: {', '.join(sorted(statuses - set(OUTCOMES)))}",
            file=sys.stderr,
        )
        return 2
    try:
        result = collect_urls(read_records(args.places_file), statuses)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"urls: cannot read {args.places_file}: {exc}", file=sys.stderr)
        return 1
    text = "".join(url + "\n" for url in result.urls)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    for url in result.invalid[:10]:
        print(f"urls: not an http(s) URL, skipped: {url}", file=sys.stderr)
    print(
        f"urls: {len(result.urls)} URLs from {result.rows} rows "
        f"({result.duplicates} repeated, {result.without_url} without URL, {len(result.invalid)} invalid)",
        file=sys.stderr,
    )
    return 0
