"""Re-processing stored crawls: pages from parish JSONL or WARC files through text → extraction again.

A new model or rule is applied to a finished crawl in minutes instead of a re-crawl, and a web archive made
by another crawler (`wget --warc-file`, Heritrix, Browsertrix) can be mined the same way. No Scrapy imports:
`python -m msze process` (msze/cli/process.py) runs `process_file` in a process pool, one file each.
Nothing is lost to one bad part of a file: a torn line, a record of the wrong type, a page that fails and a
WARC cut short are each counted and warned about (FileReport.warnings), and the rest of the file is kept.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from w3lib.encoding import html_to_unicode
from warcio.archiveiterator import ArchiveIterator

from msze.archive.jsonl import read_numbered
from msze.archive.warc import INFO_START_URL, START_URL_FIELD, WarcReader
from msze.extraction.boilerplate import SiteTemplates
from msze.extraction.language import language_selected
from msze.extraction.page import DEFAULT_CLASSIFIER_ROLE, PageSteps, masses_of
from msze.extraction.parish import ParishStage
from msze.recrawl.changes import (
    SHRUNK,
    UNCHANGED,
    compare_page,
    page_state,
    trusted_hours,
)
from msze.recrawl.state import RecrawlState
from msze.utils.urls import domain_of as url_domain

HTML_TYPES = ("text/html", "application/xhtml+xml")
JSONL_SUFFIXES = (".jsonl", ".jsonl.gz", ".json", ".jl")
WARC_SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz")
_GZIP_MAGIC = b"\x1f\x8b"
RESERVED_OUTPUTS = frozenset({"results.jsonl"})  # written by the command beside the pages
# Fields a stored page must have as strings (or null): a record with `"html": 5` is skipped, not the file.
STRING_FIELDS = (
    "url", "previous_url", "start_url", "domain", "button_text", "html", "text", "crawled_at", "etag",
    "last_modified",
)  # fmt: skip
MAX_WARNINGS = 20  # per file; the rest are counted (warnings_not_shown)
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]+")
Warn = Callable[[str], None]


def _ignore(_message: str) -> None:
    """The default `warn`: callers that only want the counts."""


class InputError(ValueError):
    """A file that is neither pages JSONL nor WARC; reported, never half-processed."""


# --- reading inputs ---------------------------------------------------------------------------------------


def input_kind(path: str | os.PathLike[str]) -> str:
    """ "jsonl" or "warc", from the name, else from the first bytes (a WARC starts "WARC/", maybe gzipped)."""
    name = os.fspath(path).lower()
    if name.endswith(JSONL_SUFFIXES):
        return "jsonl"
    if name.endswith(WARC_SUFFIXES):
        return "warc"
    with open(path, "rb") as f:
        head = f.read(64)
    if head.startswith(_GZIP_MAGIC):
        with gzip.open(path, "rb") as g:
            head = g.read(64)
    if head.startswith((b"WARC/", b"filedesc://")):
        return "warc"
    if head.lstrip().startswith(b"{"):
        return "jsonl"
    raise InputError(f"{os.fspath(path)}: neither pages JSONL nor WARC (first bytes {head[:16]!r})")


def output_name(path: str | os.PathLike[str]) -> str:
    """`parafia.pl.jsonl` → `parafia.pl.jsonl`; `crawl-00001.warc.gz` → `crawl-00001.jsonl`."""
    name = os.path.basename(os.fspath(path))
    for suffix in sorted(JSONL_SUFFIXES + WARC_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] + ".jsonl"
    return name + ".jsonl"


def output_names(paths: Iterable[str | os.PathLike[str]]) -> dict[str, str]:
    """The output file name of each input, never one name for two inputs (nor results.jsonl).

    output_name(path) where that is unique; inputs that would share one are named by their path from their
    common folder (`crawlA/pages/parafia.jsonl` → `crawlA__pages__parafia.jsonl`, `x.warc.gz` →
    `x.warc.gz.jsonl`), and a hash of the absolute path settles what still collides. Deterministic: the same
    inputs get the same names on every run.
    """
    groups: dict[str, list[str]] = {}
    for path in map(os.fspath, paths):
        groups.setdefault(output_name(path).casefold(), []).append(path)
    names: dict[str, str] = {}
    for key, group in groups.items():
        if len(group) == 1 and key not in RESERVED_OUTPUTS:
            names[group[0]] = output_name(group[0])
            continue
        root = os.path.commonpath([os.path.dirname(os.path.abspath(p)) for p in group])
        for path in group:
            name = "__".join(Path(os.path.relpath(os.path.abspath(path), root)).parts)
            names[path] = name if name.lower().endswith(".jsonl") else name + ".jsonl"
    taken = Counter(name.casefold() for name in names.values())
    for path, name in names.items():
        if taken[name.casefold()] > 1 or name.casefold() in RESERVED_OUTPUTS:
            digest = hashlib.sha1(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:8]
            names[path] = f"{name[: -len('.jsonl')]}-{digest}.jsonl"
    return names


def _record_problem(page: dict[str, Any]) -> str | None:
    """Why a stored page cannot be processed (no URL, a field of the wrong type), or None."""
    if not page.get("url"):
        return "no url"
    for name in STRING_FIELDS:
        value = page.get(name)
        if value is not None and not isinstance(value, str):
            return f'"{name}" is {type(value).__name__}, not a string'
    return None


def iter_jsonl_pages(
    path: str | os.PathLike[str], counts: Counter[str], warn: Warn = _ignore
) -> Iterator[dict[str, Any]]:
    """PageItems of a pages JSONL file (plain or .gz); a bad line (a torn last line) or record (`"html": 5`)
    is counted, skipped and warned about as `file:line: ...`, and the rest of the file is read."""
    name = os.fspath(path)

    def bad(number: int, _line: str) -> None:
        counts["skipped/bad_line"] += 1
        warn(f"{name}:{number}: not a JSON object (a torn line?); skipped")

    for number, page in read_numbered(path, on_bad=bad):
        problem = _record_problem(page)
        if problem is None:
            yield page
        else:
            counts["skipped/bad_record"] += 1
            warn(f"{name}:{number}: {problem}; record skipped")


def _is_html(content_type: str | None, body: bytes) -> bool:
    if content_type:
        return content_type.split(";", 1)[0].strip().lower() in HTML_TYPES
    head = body[:1024].lstrip().lower()  # no Content-Type: trust only what looks like markup
    return head.startswith(b"<!doctype html") or b"<html" in head


def _decode(content_type: str | None, body: bytes) -> str:
    """Body → str: BOM, then the HTTP charset, then <meta charset>, then UTF-8 (w3lib, as Scrapy decodes)."""
    return html_to_unicode(content_type or "", body)[1]


def _read_record_at(f: BinaryIO, offset: int) -> tuple[str | None, bytes]:
    """(Content-Type, decoded payload) of the response record at `offset` of an open WARC file."""
    f.seek(offset)
    record = next(iter(ArchiveIterator(f)))
    content_type = record.http_headers.get_header("Content-Type") if record.http_headers else None
    return content_type, record.content_stream().read()


def iter_warc_pages(
    path: str | os.PathLike[str], counts: Counter[str], warn: Warn = _ignore
) -> Iterator[dict[str, Any]]:
    """HTML pages of a WARC file as PageItem dicts (url, start_url, domain, html, crawled_at, …).

    Each page's parish is the start URL msze wrote for it (a response's START_URL_FIELD, else the warcinfo
    record's `start_url`); a WARC by another crawler names none, and its first page's URL is taken: one WARC
    file is one crawl. Never a URL rebuilt from a host, which would merge the parishes of a shared host.

    `response` records with a 2xx status and an HTML Content-Type are read; chunked transfer coding and
    gzip/deflate/br content coding are undone by warcio. `revisit` records (deduplicated by payload digest, or
    a 304 "server-not-modified") take the payload of the earlier response they point to in the same file.
    Requests, warcinfo, metadata, resources, redirects and non-HTML responses are counted and skipped.
    A file cut short (archive.warc.WarcReader) gives the pages before the cut, counted `truncated`, warned.
    """
    payloads = _Payloads()
    with open(path, "rb") as f, open(path, "rb") as lookup:
        payloads.lookup = lookup
        records = WarcReader(f, arc2warc=True)
        file_start: str | None = None
        for record in records:
            url = record.rec_headers.get_header("WARC-Target-URI") or ""
            if record.rec_type == "warcinfo":
                file_start = file_start or _info_start_url(record)
            skipped = _skip_reason(record, url)
            payload = None if skipped else payloads.of(record, url, records.get_record_offset)
            if skipped or isinstance(payload, str):
                counts[f"skipped/{skipped or payload}"] += 1
                continue
            if record.rec_type == "revisit":
                counts["revisits_resolved"] += 1
            file_start = file_start or url
            yield _warc_page(
                record, url, *payload, record.rec_headers.get_header(START_URL_FIELD) or file_start
            )
    if records.truncated:
        counts["truncated"] += 1
        warn(f"{os.fspath(path)}: {records.truncated}")


def _info_start_url(record: Any) -> str | None:
    """The `start_url` field of a warcinfo record's payload ("name: value" lines), None without one."""
    try:
        payload = record.content_stream().read(65536).decode("utf-8", "replace")
    except Exception:  # noqa: BLE001 - a broken warcinfo only loses the name it would have given
        return None
    for line in payload.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == INFO_START_URL and value.strip():
            return value.strip()
    return None


def _skip_reason(record: Any, url: str) -> str | None:
    """Why a record is no page: not a response/revisit, not http(s), a response without a 2xx status."""
    if record.rec_type not in ("response", "revisit"):
        return f"{record.rec_type or 'unknown'}_record"
    if not url.startswith(("http://", "https://")):
        return "not_http"
    status = record.http_headers.get_statuscode() if record.http_headers else None
    if record.rec_type == "response" and not (status and status.startswith("2")):
        return "status"
    return None


@dataclass
class _Payloads:
    """Where a file's HTML responses are, so a revisit record can take the payload it points to."""

    lookup: BinaryIO | None = None
    by_digest: dict[str, int] = field(default_factory=dict)
    by_url: dict[str, int] = field(default_factory=dict)

    def of(self, record: Any, url: str, offset: Callable[[], int]) -> tuple[str | None, bytes] | str:
        """(Content-Type, body) of a response or the response a revisit refers to, else why not. `offset`
        gives the record's place in the file once its body is read (warcio reads to the end to know it)."""
        digest = record.rec_headers.get_header("WARC-Payload-Digest")
        if record.rec_type == "response":
            content_type = record.http_headers.get_header("Content-Type")
            body = record.content_stream().read()
            if not _is_html(content_type, body):
                return "non_html"
            where = offset()
            if digest:
                self.by_digest[digest] = where
            self.by_url[url] = where
            return content_type, body
        refers = record.rec_headers.get_header("WARC-Refers-To-Target-URI") or url
        found = self.by_digest.get(digest) if digest else None
        if found is None:
            found = self.by_url.get(refers)
        if found is None or self.lookup is None:
            return "revisit_unresolved"
        return _read_record_at(self.lookup, found)


def _warc_page(
    record: Any, url: str, content_type: str | None, body: bytes, start_url: str
) -> dict[str, Any]:
    http = record.http_headers
    return {
        "url": url,
        "previous_url": None,
        "start_url": start_url,
        "domain": url_domain(url),
        "depth": None,
        "button_text": None,
        "html": _decode(content_type, body),
        "crawled_at": record.rec_headers.get_header("WARC-Date"),
        "http_date": http.get_header("Date") if http else None,
        "etag": http.get_header("ETag") if http else None,
        "last_modified": http.get_header("Last-Modified") if http else None,
    }


def iter_pages(
    path: str | os.PathLike[str], counts: Counter[str], warn: Warn = _ignore
) -> Iterator[dict[str, Any]]:
    """Pages of a JSONL or WARC file (see input_kind)."""
    read = iter_jsonl_pages if input_kind(path) == "jsonl" else iter_warc_pages
    return read(path, counts, warn)


# --- processing pages -------------------------------------------------------------------------------------

NO_CLASSIFIER = "none"  # classifier_path value: the rules alone


def load_classifier(classifier_path: str | None = None) -> Any:
    """The hour classifier the crawl uses: None = the packaged default model (as ClassifierPipeline), a path =
    that model, "none" = no classifier (the rules alone). Raises ClassifierLoadError."""
    if classifier_path == NO_CLASSIFIER:
        return None
    from msze.classifier.model import HourClassifier

    return HourClassifier.load(classifier_path or None)


def page_steps(
    classifier: Any = None, template: bool = True, classifier_role: str = DEFAULT_CLASSIFIER_ROLE
) -> PageSteps:
    """The crawl's PageSteps with its default settings: a page processed here gets the crawl's hours."""
    templates = SiteTemplates(max_sites=1000) if template else None
    return PageSteps(
        classifier=classifier, classifier_role=classifier_role, templates=templates, language=True
    )


@dataclass
class PageProcessor:
    """The crawl's page steps (msze.extraction.page) plus language selection and change detection.

    With a `state` (msze/recrawl/state.py) each page is compared with the previous run: with `only_changed`
    an unchanged page keeps its stored hours (no extraction), and a shrunk page (text under half its previous
    size) keeps the previous hours and is flagged `change: "shrunk"`; its stored state is not overwritten, so
    it stays flagged until the site recovers. Steps' outcomes go to `counts`, their warnings to `warn`.
    """

    steps: PageSteps = field(default_factory=page_steps)
    languages: frozenset[str] = frozenset()
    state: RecrawlState | None = None
    only_changed: bool = False
    keep_html: bool = True
    counts: Counter[str] = field(default_factory=Counter)
    warn: Warn = _ignore

    def __post_init__(self) -> None:
        self.steps.count = lambda key, n: self.counts.update({key: n})

    def process(self, page: dict[str, Any]) -> dict[str, Any] | None:
        """The updated page, or None when its language is not selected."""
        page = dict(page)
        self.steps.warn = lambda message: self.warn(f"{page['url']}: {message}")
        self.steps.text(page)
        self.steps.detect_language(page)
        if not language_selected(page["language"], self.languages):
            self.counts["skipped/language"] += 1
            return None
        current = page_state(page["text"])
        stored = self.state.get_page(page["url"]) if self.state else None
        previous_hours = stored.page.get("hours") if stored and stored.page else None
        change = compare_page(stored.state if stored else None, current) if self.state else None
        self.steps.template(page)
        self.steps.hint(page)
        if self.only_changed and change == UNCHANGED and previous_hours is not None:
            page["hours"] = previous_hours
            self.counts["reused"] += 1
        else:
            self.steps.hours(page)
            self.steps.classify(page)
            self.counts["extracted"] += 1
        if change is not None:
            page["hours"] = trusted_hours(change, page["hours"], previous_hours)
            page["change"] = change
            self.counts[f"change/{change}"] += 1
        page["masses"] = masses_of(page["hours"])
        if self.state is not None and change != SHRUNK:
            self._remember(page, current)
        if not self.keep_html:
            page.pop("html", None)
        self.counts["pages_out"] += 1
        return page

    def _remember(self, page: dict[str, Any], current: Any) -> None:
        """The page as this run left it: what the next run compares with."""
        assert self.state is not None
        self.state.put_page(
            page["url"],
            current,
            {k: v for k, v in page.items() if k != "text"},
            domain=page.get("domain"),
            etag=page.get("etag"),
            last_modified=page.get("last_modified"),
        )


# --- processing files -------------------------------------------------------------------------------------


@dataclass
class ProcessOptions:
    """What `python -m msze process` asks of every file."""

    out_dir: str
    languages: frozenset[str] = frozenset()
    classifier_path: str | None = None
    classifier_role: str = DEFAULT_CLASSIFIER_ROLE  # one of msze.extraction.page.CLASSIFIER_ROLES
    state_path: str | None = None
    only_changed: bool = False
    keep_html: bool = True


@dataclass
class FileReport:
    """The outcome of one input file: where its pages went, counts, per-parish summaries, or the error."""

    input: str
    output: str | None = None
    pages_in: int = 0
    pages_out: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)  # one line each, at most MAX_WARNINGS

    def warn(self, message: str) -> None:
        """Keep a one-line warning for the command to print (control characters of a stored URL or error
        become spaces); past MAX_WARNINGS only count it."""
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(_CONTROL_RE.sub(" ", message))
        else:
            self.counts["warnings_not_shown"] = self.counts.get("warnings_not_shown", 0) + 1

    def to_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def make_processor(options: ProcessOptions) -> PageProcessor:
    """A PageProcessor for these options: extractor, classifier and language model loaded once."""
    return PageProcessor(
        steps=page_steps(load_classifier(options.classifier_path), classifier_role=options.classifier_role),
        languages=options.languages,
        state=RecrawlState(options.state_path) if options.state_path else None,
        only_changed=options.only_changed,
        keep_html=options.keep_html,
    )


def _atomic_jsonl_writer(path: Path) -> tuple[Path, Any]:
    tmp = path.with_name(f"{path.name}.tmp.{os.getpid()}")
    return tmp, open(tmp, "w", encoding="utf-8")  # noqa: SIM115 (closed by process_file)


def process_file(
    path: str | os.PathLike[str],
    options: ProcessOptions,
    processor: PageProcessor | None = None,
    out_name: str | None = None,
) -> FileReport:
    """Re-process one JSONL/WARC file into `<out_dir>/<out_name>` (default output_name(path); written to a
    temp file, then renamed, so a killed run never leaves a half file), with one results.jsonl-style summary
    per parish (its start URL: extraction.parish.ParishStage). A page that fails is counted `failed/page`,
    warned about and skipped: the file's other pages are kept."""
    started = time.monotonic()
    report = FileReport(input=os.fspath(path))
    counts: Counter[str] = Counter()
    state = None
    if processor is None:
        processor = make_processor(options)
        state = processor.state  # ours to close
    processor.counts = counts
    processor.warn = lambda message: report.warn(f"{report.input}: {message}")
    out_path = Path(options.out_dir) / (out_name or output_name(path))
    out_path.parent.mkdir(parents=True, exist_ok=True)
    parishes = ParishStage(processor.state)
    tmp = None
    try:
        tmp, out = _atomic_jsonl_writer(out_path)
        with out:
            for page in iter_pages(path, counts, report.warn):
                report.pages_in += 1
                done = _process_page(processor, page, report)
                if done is not None:
                    _write_line(out, done)
                    report.pages_out += 1
                    parishes.add(done, len((page.get("html") or "").encode("utf-8", "surrogatepass")))
        os.replace(tmp, out_path)
        report.output = os.fspath(out_path)
    except Exception as exc:  # noqa: BLE001 - a broken file is reported, its half output removed
        report.error = f"{type(exc).__name__}: {exc}"
        if tmp is not None:
            tmp.unlink(missing_ok=True)
    finally:
        report.counts = dict(counts) | report.counts
        if report.error is None:
            report.summaries = list(parishes.summaries())
        if state is not None:
            state.close()
        report.seconds = round(time.monotonic() - started, 3)
    return report


def _process_page(
    processor: PageProcessor, page: dict[str, Any], report: FileReport
) -> dict[str, Any] | None:
    """processor.process(page), or None (counted, warned) when the page fails."""
    try:
        return processor.process(page)
    except Exception as exc:  # noqa: BLE001 - one bad page must not cost the file its other pages
        processor.counts["failed/page"] += 1
        message = " ".join(str(exc).split())[:200]
        report.warn(f"{report.input}: {page.get('url')}: {type(exc).__name__}: {message}; page skipped")
        return None


def _write_line(out: Any, page: dict[str, Any]) -> None:
    try:
        out.write(json.dumps(page, ensure_ascii=False) + "\n")
    except UnicodeEncodeError:  # a lone surrogate (a JSON escape) in the stored HTML: ASCII escapes, lossless
        out.write(json.dumps(page) + "\n")
