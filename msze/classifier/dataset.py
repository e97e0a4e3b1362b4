"""The classifier's data: labelled hours from every source, de-duplicated, split train/dev/test by site.

Sources (each becomes a list of :class:`Example`, an hour span inside a stretch of text, with its site):

* annotator exports: the TSV of `python -m msze annotator export --tsv` (id, url, time, hour_text, context,
  yes, no, label) or fastText lines (`__label__mass ...`, features already computed);
* crawled pages (PageItem JSONL): hours the rule extractor labelled ``mass`` are positives; hours on pages
  the page filter rejected (``has_schedule_hint`` false) are the pool of negatives, sampled at random to
  balance the classes as the thesis did;
* labelled pages in the ../shared/data/realpages layout (text + tokens with spans and labels);
* the diocesan Mass-time texts of ../shared/data/thesis/annotated-*.tsv (columns ``niedzielne`` and
  ``powszednie``): every hour found there is a Mass start except the ones :func:`listed_hour_is_mass` rejects.

Examples keep up to ``KEEP_CHARS`` characters of text on each side of the hour, so features can be recomputed
with any window (``python -m msze train --before/--after``) without the whole page.
"""

from __future__ import annotations

import csv
import json
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

from msze.classifier.features import DEFAULT_AFTER, DEFAULT_BEFORE, DEFAULT_NEAR, hour_features
from msze.classifier.model import labelled_line

KEEP_CHARS = 600
LABELS = ("mass", "other")
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class Example:
    """One labelled hour: ``text[start:end]`` is the hour; ``site`` groups examples for splitting."""

    label: str  # "mass" | "other"
    text: str
    start: int
    end: int
    site: str
    source: str  # annotator | fasttext | rules | negatives | realpages | annotated | corrections
    features: str = ""  # set only for sources that come as fastText lines (no text to recompute from)

    def feature_line(
        self, before: int = DEFAULT_BEFORE, after: int = DEFAULT_AFTER, near: int = DEFAULT_NEAR
    ) -> str:
        """The fastText input for this hour with the given window."""
        if self.features:
            return self.features
        return hour_features(self.text, self.start, self.end, before=before, after=after, near=near)

    def fasttext_line(
        self, before: int = DEFAULT_BEFORE, after: int = DEFAULT_AFTER, near: int = DEFAULT_NEAR
    ) -> str:
        return labelled_line(self.label, self.feature_line(before, after, near))


def site_of(url: str) -> str:
    """The site an URL belongs to (registered domain, so subdomains of one parish host stay together)."""
    from msze.utils.urls import domain_of  # tldextract, loaded only by the commands that group by site

    domain = domain_of(url)
    if not domain:
        host = urlsplit(url if "//" in url else f"//{url}").hostname or ""
        domain = host.removeprefix("www.")
    return domain.lower()


def make_example(text: str, start: int, end: int, label: str, site: str, source: str) -> Example:
    """An Example holding only ``KEEP_CHARS`` of text around the hour."""
    if label not in LABELS:
        raise ValueError(f"label must be one of {LABELS}, not {label!r}")
    lo = max(0, start - KEEP_CHARS)
    hi = min(len(text), end + KEEP_CHARS)
    return Example(label, text[lo:hi], start - lo, end - lo, site, source)


# --- Sources ----------------------------------------------------------------------------------------------


def from_realpages(pages: Iterable[dict[str, Any]], candidates: bool = True) -> list[Example]:
    """Every labelled token of pages in the realpages layout.

    With ``candidates``, also every hour candidate :func:`extraction.hours.find_hours` finds that overlaps no
    labelled token, as ``other`` (source "candidates"): the pages label *every* clock time, so such a
    candidate is a date, a number or a price, exactly the noise the classifier meets in production.
    """
    out = []
    for page in pages:
        site = site_of(page.get("url", "")) or f"page:{page.get('id', '')}"
        text = page["text"]
        tokens = page.get("tokens", [])
        for tok in tokens:
            out.append(make_example(text, tok["start"], tok["end"], tok["label"], site, "realpages"))
        if candidates:
            from msze.extraction.hours import find_hours

            for hour in find_hours(text):
                if not any(hour.start < tok["end"] and tok["start"] < hour.end for tok in tokens):
                    out.append(make_example(text, hour.start, hour.end, "other", site, "candidates"))
    return out


# Words that start a non-Mass item in a diocesan schedule text ("Biuro parafialne: wtorek 9.00-11.00").
_NOT_MASS_WORDS_RE = re.compile(
    r"biur|kancelari|proboszcz|adoracj|spowied|nieszpor|godzink|różańc|rozanc|nabożeń|nabozen|koronk|apel",
    re.IGNORECASE,
)
# A clause ends at ";", a line break, a closing parenthesis, or a word about Mass ("Msza św. dla dzieci").
_CLAUSE_END_RE = re.compile(r"[;\n)]|\bmsz", re.IGNORECASE)
_RANGE_END_RE = re.compile(r"\d\s*[-–—]\s*$")
_RANGE_START_RE = re.compile(r"^\s*[-–—]\s*\d")
_TIME_RE = re.compile(r"\d{1,2}[:.]\d{2}")
_AGE_AFTER_RE = re.compile(r"^\s*(?:roku?|lat|r\.)(?![^\W\d_])", re.IGNORECASE)
_UNTIL_BEFORE_RE = re.compile(r"\bdo\s+(?:godz\.?\s*|g\.\s*)?$", re.IGNORECASE)


def listed_hour_is_mass(text: str, start: int, end: int) -> bool:
    """Whether an hour in a diocesan Mass-time text is a Mass start.

    These texts list Masses ("Msze św. w niedziele: 7.30, 9.00 (suma), 11.00"), but some also carry office
    hours, devotions and ranges. An hour is *not* a Mass when it ends a range ("9.00-11.00"), starts one,
    is an age ("dzieci do 7 roku życia") or an end ("do 19.15"), or when its clause (text since the last
    ";", line break, ")" or mention of Mass) names an office, confession, adoration, vespers, rosary or
    other devotion before it (and after any earlier time of the clause: in "7.30 – Godzinki, 8.00" the
    8.00 is a Mass).
    """
    head = text[max(0, start - 80) : start]
    if _RANGE_END_RE.search(head) or _RANGE_START_RE.match(text[end : end + 6]):
        return False
    if _AGE_AFTER_RE.match(text[end : end + 8]) or _UNTIL_BEFORE_RE.search(head):
        return False
    cuts = [m.end() for m in _CLAUSE_END_RE.finditer(head)]
    clause = head[cuts[-1] :] if cuts else head
    word = _NOT_MASS_WORDS_RE.search(clause)
    # "7.30 – Godzinki, 8.00": a devotion named after an earlier time belongs to that time, not to this one.
    return word is None or bool(_TIME_RE.search(clause[: word.start()]))


def from_annotated(rows: Iterable[dict[str, str]]) -> tuple[list[Example], Counter[str]]:
    """Examples from annotated-*.tsv rows (Parafia, url, niedzielne, powszednie, ...).

    Hours :func:`listed_hour_is_mass` accepts are positives; the rejected ones are negatives (they are
    office hours and range ends, which is what the classifier must learn to refuse). Returns the examples and
    counts of what was kept and rejected.
    """
    from msze.extraction.hours import find_hours

    out = []
    counts: Counter[str] = Counter()
    for row in rows:
        url = (row.get("url") or "").strip()
        site = site_of(url) if url else f"parish:{row.get('Parafia', '')}|{row.get('debug_url', '')}"
        for column in ("niedzielne", "powszednie"):
            text = row.get(column) or ""
            for hour in find_hours(text):
                label = "mass" if listed_hour_is_mass(text, hour.start, hour.end) else "other"
                counts[label] += 1
                out.append(make_example(text, hour.start, hour.end, label, site, "annotated"))
    return out, counts


def _locate(context: str, hour_text: str) -> int:
    """Offset of the hour in an exported context: the occurrence nearest the middle (contexts are centred)."""
    hits = [m.start() for m in re.finditer(re.escape(hour_text), context)] if hour_text else []
    if not hits:
        return -1
    middle = len(context) / 2
    return min(hits, key=lambda i: abs(i + len(hour_text) / 2 - middle))


def from_annotator_tsv(rows: Iterable[dict[str, str]]) -> tuple[list[Example], int]:
    """Examples from the annotator's TSV export; rows without a majority label or a findable hour are skipped.

    Returns the examples and the number of rows skipped.
    """
    out = []
    skipped = 0
    for row in rows:
        label = (row.get("label") or "").strip()
        context = row.get("context") or ""
        hour_text = (row.get("hour_text") or row.get("time") or "").strip()
        if "hour_start" in row and (row.get("hour_start") or "").strip().isdigit():
            start = int(row["hour_start"])
        else:
            start = _locate(context, hour_text)
        if label not in LABELS or start < 0 or context[start : start + len(hour_text)] != hour_text:
            skipped += 1
            continue
        site = site_of(row.get("url") or "") or f"annotator:{row.get('id', '')}"
        out.append(make_example(context, start, start + len(hour_text), label, site, "annotator"))
    return out, skipped


def _clock_in(context: str, time: str) -> tuple[int, int] | None:
    """Where "HH:MM" is written in a sentence ("7.00", "07:00", "7⁰⁰" is not read): the occurrence nearest the
    middle; None when the sentence does not write it."""
    hours, minutes = time.split(":")
    pattern = rf"(?<![\d.:])0?{int(hours)}[.:]{minutes}(?![\d])"
    hits = [(m.start(), m.end()) for m in re.finditer(pattern, context)]
    if not hits:
        return None
    return min(hits, key=lambda span: abs(sum(span) / 2 - len(context) / 2))


def from_corrections(rows: Iterable[dict[str, Any]]) -> tuple[list[Example], int]:
    """Examples from reviewed visitors' reports (`msze search corrections`): the hour in the crawl's sentence,
    labelled as the review decided. Reports not yet reviewed, and those whose sentence does not write the
    time (a missing Mass has none), are skipped and counted."""
    out, skipped = [], 0
    for row in rows:
        context, time, label = row.get("context") or "", row.get("time") or "", row.get("label")
        span = _clock_in(context, time) if re.fullmatch(r"\d\d:\d\d", time) else None
        if row.get("status") not in ("accepted", "rejected") or label not in LABELS or span is None:
            skipped += 1
            continue
        site = site_of(row.get("source_url") or row.get("website") or "") or f"parish:{row.get('parish_id')}"
        out.append(make_example(context, span[0], span[1], label, site, "corrections"))
    return out, skipped


def from_fasttext_lines(lines: Iterable[str], site: str = "fasttext") -> tuple[list[Example], int]:
    """Examples from fastText training lines (``__label__mass <features>``); they carry no site, so all of
    them share ``site`` (and so land in one split). Returns the examples and the number of lines skipped."""
    out = []
    skipped = 0
    for line in lines:
        line = line.strip()
        head, _, feats = line.partition(" ")
        label = head.removeprefix("__label__")
        if not head.startswith("__label__") or label not in LABELS or not feats:
            skipped += int(bool(line))
            continue
        out.append(Example(label, "", 0, 0, site, "fasttext", features=feats))
    return out, skipped


def from_crawled_pages(items: Iterable[dict[str, Any]]) -> tuple[list[Example], list[Example]]:
    """(rule positives, pool of negatives) from PageItem dicts of a crawl.

    Positives: hours labelled ``mass`` by the rules (source "rules"). Negatives pool: every hour on pages the
    page filter rejected (hours from the item, or found again in its text when the pipeline skipped them).
    """
    from msze.extraction.hours import find_hours

    positives: list[Example] = []
    pool: list[Example] = []
    for item in items:
        text = item.get("text") or ""
        if not text:
            continue
        site = site_of(item.get("url") or item.get("start_url") or "") or item.get("domain") or "unknown"
        hours = item.get("hours")
        if item.get("has_schedule_hint"):
            for h in hours or []:
                if h.get("source") == "rules" and h.get("label") == "mass":
                    positives.append(make_example(text, h["start"], h["end"], "mass", site, "rules"))
        else:
            spans = (
                [(h["start"], h["end"]) for h in hours]
                if hours
                else [(h.start, h.end) for h in find_hours(text)]
            )
            for start, end in spans:
                pool.append(make_example(text, start, end, "other", site, "negatives"))
    return positives, pool


def sample_negatives(examples: list[Example], pool: list[Example], ratio: float, seed: int) -> list[Example]:
    """Negatives drawn at random from ``pool`` so that other ≈ ratio × mass over ``examples`` + the draw."""
    labels = Counter(e.label for e in examples)
    wanted = max(0, round(ratio * labels["mass"]) - labels["other"])
    if wanted >= len(pool):
        return list(pool)
    return random.Random(seed).sample(pool, wanted)


# --- De-duplication and splitting -------------------------------------------------------------------------


def dedupe(
    examples: Iterable[Example],
    before: int = DEFAULT_BEFORE,
    after: int = DEFAULT_AFTER,
    near: int = DEFAULT_NEAR,
) -> list[Example]:
    """Keep the first of examples with identical fastText lines (label + features), in order."""
    seen: set[str] = set()
    out = []
    for ex in examples:
        key = ex.fasttext_line(before, after, near)
        if key not in seen:
            seen.add(key)
            out.append(ex)
    return out


def split_by_site(
    examples: list[Example], seed: int = 0, dev: float = 0.1, test: float = 0.1
) -> dict[str, list[Example]]:
    """train/dev/test with every site in exactly one split; sites shuffled by ``seed``, then filled in order
    (test, dev, train) until each reaches its share of the examples."""
    by_site: dict[str, list[Example]] = defaultdict(list)
    for ex in examples:
        by_site[ex.site].append(ex)
    sites = sorted(by_site)
    random.Random(seed).shuffle(sites)
    total = len(examples)
    targets = {"test": test * total, "dev": dev * total}
    splits: dict[str, list[Example]] = {name: [] for name in SPLITS}
    for site in sites:
        group = by_site[site]
        for name in ("test", "dev"):
            if len(splits[name]) < targets[name] and len(splits[name]) + len(group) <= max(
                targets[name] * 1.5, 1
            ):
                splits[name].extend(group)
                break
        else:
            splits["train"].extend(group)
    return splits


def site_folds(sites: Iterable[str], k: int, seed: int = 0) -> list[set[str]]:
    """``k`` disjoint groups of sites (shuffled by ``seed``, dealt round-robin) for cross-validation."""
    ordered = sorted(set(sites))
    random.Random(seed).shuffle(ordered)
    folds: list[set[str]] = [set() for _ in range(k)]
    for i, site in enumerate(ordered):
        folds[i % k].add(site)
    return folds


# --- Files ------------------------------------------------------------------------------------------------


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Objects of a JSONL file; blank lines skipped, a bad line is an error naming the file and line."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not JSON: {exc}") from exc


def read_tsv(path: str | Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh, delimiter="\t"))


def is_fasttext_file(path: str | Path) -> bool:
    """Whether a file holds fastText lines (first non-blank line starts with ``__label__``)."""
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                return line.startswith("__label__")
    return False


def write_examples(examples: Iterable[Example], out: TextIO) -> int:
    n = 0
    for ex in examples:
        out.write(json.dumps(asdict(ex), ensure_ascii=False) + "\n")
        n += 1
    return n


def read_examples(path: str | Path) -> list[Example]:
    return [Example(**obj) for obj in read_jsonl(path)]
