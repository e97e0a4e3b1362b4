"""What a load did (LoadReport), and how one input line is read: a malformed line is a BadLine, reported as
`file:line: reason`, and the load goes on."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from msze.search.db import clean_text, parishes

JSON_SUFFIXES = (".jsonl", ".json", ".ndjson")


class BadLine(ValueError):
    """Why one input line is skipped; reported as `file:line: reason` and the load goes on."""


@dataclass
class LoadReport:
    """What a load did, printed by the CLI and asserted by tests."""

    parishes_inserted: int = 0
    parishes_updated: int = 0
    websites_set: int = 0
    websites_unmatched: int = 0
    results_loaded: int = 0
    results_failed: int = 0  # crawl status "failed": status stored, times kept
    results_stale: int = 0  # not newer than the stored crawl
    results_unmatched: int = 0  # no parish has that start URL as its website (listed in `unmatched_results`)
    results_ambiguous: int = 0  # several parishes give it as their website (listed in `ambiguous_results`)
    results_undated: int = 0  # without a crawl time: loaded as crawled now
    results_future: int = 0  # crawled after the load (a wrong clock): taken as crawled now
    times_loaded: int = 0
    times_capped: int = 0  # rows past MAX_ROWS_PER_PARISH of one parish: not loaded
    times_skipped: int = 0  # masses without a valid time
    times_dayless: int = 0  # weekly entries on no day (results before their "dayless" list): not published
    history_rows: int = 0
    verified_queued: int = 0  # crawls of a verified parish that read otherwise: queued for review
    verified_confirmed: int = 0  # the others: they read the same, or a difference a reviewer kept
    churches_located: int = 0  # other churches given their own coordinates
    churches_unmatched: int = 0  # located churches of a start URL no parish has, or several have
    parishes_repaired: int = 0  # crawled times cleared by `--repair` (an older load joined by host or domain)
    churches_far: int = 0  # located farther than CHURCH_MAX_KM from their parish: another town's street
    urls_dropped: int = 0  # websites and source URLs that are not absolute http(s) URLs: never published
    lines_ok: int = 0  # input lines read and accepted (bad ones are listed in bad_lines)
    bad_lines: list[str] = field(default_factory=list)  # "file:line: reason", one per skipped line
    unmatched_results: list[str] = field(default_factory=list)  # start URLs of no parish
    ambiguous_results: list[str] = field(default_factory=list)  # "start URL: parish (city), parish (city)"
    coordinates_dropped: list[str] = field(default_factory=list)  # "'name': lat 'nan'": impossible ones

    def unmatched(self, start_url: str, matched: list) -> None:
        """Count and list a result (or church) that joins no parish, or several: loaded onto none."""
        if matched:
            self.results_ambiguous += 1
            self.ambiguous_results.append(f"{start_url}: {', '.join(site.label for site in matched)}")
        else:
            self.results_unmatched += 1
            self.unmatched_results.append(start_url)

    def as_dict(self) -> dict:
        data = dict(self.__dict__)
        for key in ("bad_lines", "unmatched_results", "ambiguous_results", "coordinates_dropped"):
            data[key] = len(data[key])
        return data


def text_field(item: dict, key: str, column: str | None = None) -> str:
    """The text field `key` cleaned ("" when absent); BadLine for a number, list… or text too long for its
    `parishes` column (PostgreSQL would refuse it and with it the whole load)."""
    value = item.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadLine(f"{key!r} is {type(value).__name__}, not text")
    value = clean_text(value)
    limit = parishes.c[column].type.length if column else None
    if limit and len(value) > limit:
        raise BadLine(f"{key!r} is longer than {limit} characters")
    return value


def short(value: object, limit: int) -> str | None:
    """A cleaned text field of a result, None when absent or not text."""
    return clean_text(value)[:limit] or None if isinstance(value, str) else None


def numbered_lines(path: Path, report: LoadReport) -> Iterator[tuple[int, str]]:
    """(number, text) of each line of a UTF-8 file (a BOM is dropped); a line that is not UTF-8 is reported
    and skipped. OSError (no such file, no permission, a read error) names the file and ends the load."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    reason = f"not UTF-8 text ({exc.reason} at byte {exc.start})"
                    report.bad_lines.append(f"{path}:{number}: {reason}")
                    continue
                yield number, text.rstrip("\r\n")
    except OSError as exc:  # a read error names no file: say which one
        raise OSError(f"cannot read {path}: {exc.strerror or exc}") from exc


def accepted(path: Path, number: int, report: LoadReport, parse: Callable, *args):
    """`parse(*args)`, counted in lines_ok; None (and the line listed in bad_lines) when it raises BadLine."""
    try:
        value = parse(*args)
    except BadLine as exc:
        report.bad_lines.append(f"{path}:{number}: {exc}")
        return None
    report.lines_ok += 1
    return value


def json_object(line: str) -> dict:
    """One JSONL line as a dict; BadLine for anything else (not JSON, an array, a lone surrogate escape)."""
    try:
        item = json.loads(line)
    except RecursionError:
        raise BadLine("JSON nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, and int() of a number with thousands of digits
        raise BadLine(f"not JSON: {exc}") from None
    if not isinstance(item, dict):
        raise BadLine(f"a JSON {type(item).__name__}, not an object")
    if "\\u" in line:
        try:
            json.dumps(item, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise BadLine("text with a lone surrogate (\\ud800…), not valid Unicode") from None
    return item
