"""Item pipelines in ITEM_PIPELINES order: convert → template → filter → hours → rules → classify → store.

Each class is a thin adapter over a pure module (text.py, template.py, filters.py, hours.py, rules.py,
classifier.py); the decisions live there.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlparse

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from msze.batch.results import summarize
from msze.crawling.links import pages_filename
from msze.extraction.boilerplate import SiteTemplates, TemplateSplit
from msze.extraction.hours import find_hours
from msze.extraction.language import detect_language
from msze.extraction.page import MAX_HOURS, MAX_TEXT_CHARS, hour_dict, masses_of
from msze.extraction.page_filter import has_schedule_hint
from msze.extraction.rules import decide
from msze.extraction.text import Conversion, convert_html
from msze.middlewares import recrawl_shared
from msze.recrawl import changes
from msze.recrawl.changes import NEW, NOT_MODIFIED, SHRUNK, UNCHANGED, compare_page, page_state, trusted_hours
from msze.recrawl.state import SharedRecrawl

logger = logging.getLogger(__name__)  # Extraction, Classification

# --- Extraction (text, template, filter, hours, rules) ---------------------------------------------


class _ExtractionStage:
    """Shared adapter plumbing: the crawler, its stats, and the settings every stage reads."""

    stage = ""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> Any:
        return cls(crawler)

    def inc(self, key: str, count: int = 1) -> None:
        self.stats.inc_value(f"msze/{self.stage}/{key}", count)

    def page(self, item: Any) -> ItemAdapter | None:
        """The adapter of a page item (one with the fields these stages fill); None for other items."""
        fields = getattr(item, "fields", None)  # scrapy.Item: only declared fields can be set
        if fields is not None and not {"text", "hours", "masses"} <= set(fields):
            self.inc("not_a_page")
            return None
        return ItemAdapter(item)


class TextConversionPipeline(_ExtractionStage):
    """item["html"] → item["text"] (msze.extraction.text.convert_html, the thesis's html2text set-up).

    A page html2text cannot convert as it is gets its text from convert_html's fallback, counted as
    `msze/text/fallback`, instead of being kept without text (and without Mass times)."""

    stage = "text"

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self.max_chars = crawler.settings.getint("EXTRACTION_MAX_TEXT_CHARS", MAX_TEXT_CHARS)

    def process_item(self, item: Any) -> Any:
        adapter = self.page(item)
        if adapter is None:
            return item
        if adapter.get("text") is not None and not adapter.get("html"):
            return item  # already converted (re-processing stored pages)
        html = adapter.get("html") or ""
        try:
            conversion = convert_html(html)
        except Exception as exc:  # noqa: BLE001 - one broken page must not stop a parish crawl
            logger.warning("html_to_text failed on %s: %r; page kept without text", adapter.get("url"), exc)
            self.inc("failed")
            conversion = Conversion("")
        if conversion.fallback:
            logger.warning(
                "%s: %s; text from the %s fallback", adapter.get("url"), conversion.error, conversion.fallback
            )
            self.inc("fallback")
        text = conversion.text
        if len(text) > self.max_chars:
            logger.warning(
                "%s: text of %d characters cut to %d", adapter.get("url"), len(text), self.max_chars
            )
            self.inc("truncated")
            text = text[: self.max_chars]
        adapter["text"] = text
        self.inc("pages")
        if not text.strip():
            self.inc("empty")
        return item


class SiteTemplatePipeline(_ExtractionStage):
    """Marks the text blocks a page repeats from earlier pages of its site (extraction.boilerplate).

    item["template"] = [[start, end], ...] spans of repeated blocks: HoursPipeline leaves their hours to the
    first page of the site that had them. One SiteTemplate per domain, at most TEMPLATE_MAX_SITES kept (least
    recently used dropped) so a one-process crawl of thousands of parishes stays bounded.
    """

    stage = "template"

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        s = crawler.settings
        if not s.getbool("TEMPLATE_ENABLED", True):
            raise NotConfigured("TEMPLATE_ENABLED is off")
        min_pages = s.getint("TEMPLATE_MIN_PAGES", 3)
        min_share = s.getfloat("TEMPLATE_MIN_SHARE", 0.5)
        max_sites = s.getint("TEMPLATE_MAX_SITES", 200)
        max_blocks = max(1, s.getint("TEMPLATE_MAX_BLOCKS", 20_000))
        if min_pages < 1 or not 0.0 <= min_share <= 1.0:
            raise NotConfigured("TEMPLATE_MIN_PAGES must be >= 1 and TEMPLATE_MIN_SHARE in [0, 1]")
        self.templates = SiteTemplates(max_sites, min_pages, min_share, max_blocks)

    def process_item(self, item: Any) -> Any:
        adapter = self.page(item)
        if adapter is None:
            return item
        text = adapter.get("text") or ""
        domain = adapter.get("domain") or urlparse(adapter.get("url") or "").netloc
        evicted = self.templates.evicted
        split = self.templates.observe(domain, text)
        if self.templates.evicted > evicted:
            self.inc("sites_evicted")
        adapter["template"] = [list(span) for span in split.repeated]
        self.inc("pages")
        self.inc("blocks", split.blocks)
        self.inc("blocks_repeated", len(split.repeated))
        self.inc("blocks_template", len(split.template))
        return item


class PageFilterPipeline(_ExtractionStage):
    """item["has_schedule_hint"]: the thesis page filter on the URL suffix and the link text.

    With EXTRACT_ONLY_HINTED the pages it rejects get no hours (the thesis's set-up for annotation); by
    default every page is extracted and the hint is only recorded (the rules are precise enough for that).
    """

    stage = "filter"

    def process_item(self, item: Any) -> Any:
        adapter = self.page(item)
        if adapter is None:
            return item
        hint = has_schedule_hint(adapter.get("url") or "", adapter.get("button_text"))
        adapter["has_schedule_hint"] = hint
        self.inc("kept" if hint else "rejected")
        return item


def _not_modified(adapter: ItemAdapter) -> bool:
    """A 304 page re-used from the previous run with its stored hours (msze/recrawl.py): nothing to redo."""
    return adapter.get("change") == "not_modified" and adapter.get("hours") is not None


class HoursPipeline(_ExtractionStage):
    """item["hours"]: every clock-time candidate in the page's text (extraction.hours), labelled "other"."""

    stage = "hours"

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self.only_hinted = crawler.settings.getbool("EXTRACT_ONLY_HINTED", False)
        self.max_hours = crawler.settings.getint("EXTRACTION_MAX_HOURS", MAX_HOURS)

    def process_item(self, item: Any) -> Any:
        adapter = self.page(item)
        if adapter is None:
            return item
        if _not_modified(adapter):
            self.inc("not_modified")
            return item
        if self.only_hinted and not adapter.get("has_schedule_hint"):
            adapter["hours"] = []
            self.inc("skipped_no_hint")
            return item
        template = TemplateSplit(repeated=[tuple(span) for span in adapter.get("template") or []])
        hours = []
        found = find_hours(adapter.get("text") or "", limit=self.max_hours + 1)
        if len(found) > self.max_hours:
            logger.warning(
                "%s: more than %d hour candidates, the rest skipped", adapter.get("url"), self.max_hours
            )
            self.inc("truncated")
            found = found[: self.max_hours]
        for h in found:
            if template.covers(h.start, h.end):
                self.inc("template_skipped")
                continue
            hours.append(hour_dict(h, "other", 0.0, "rules", None))
        adapter["hours"] = hours
        self.inc("found", len(hours))
        self.inc("pages_with_hours" if hours else "pages_without_hours")
        return item


class RulesPipeline(_ExtractionStage):
    """Labels the page's hours with the rule-based Mass extractor (extraction.rules) and sets item["masses"].

    The rules read the whole text (headers may sit in template blocks) and label the hours HoursPipeline kept.
    """

    stage = "rules"

    def __init__(self, crawler: Any) -> None:
        super().__init__(crawler)
        self.max_hours = crawler.settings.getint("EXTRACTION_MAX_HOURS", MAX_HOURS)

    def process_item(self, item: Any) -> Any:
        adapter = self.page(item)
        if adapter is None:
            return item
        if _not_modified(adapter):
            return item
        hours = adapter.get("hours") or []
        if hours:
            text = adapter.get("text") or ""
            all_hours = find_hours(text, limit=self.max_hours)
            decisions = {(h.start, h.end): d for h, d in zip(all_hours, decide(text, all_hours), strict=True)}
            for h in hours:
                d = decisions.get((h["start"], h["end"]))
                if d is None:
                    continue
                h["day"] = d.day
                if d.is_mass:
                    h.update(label="mass", score=1.0, source="rules")
                    self.inc("masses")
        adapter["masses"] = masses_of(hours)
        if adapter["masses"]:
            self.inc("pages_with_masses")
        return item


# --- Classification --------------------------------------------------------------------------------


class ClassifierPipeline:
    """Labels every hour the rules did not confirm as a Mass, with the fastText model (classifier/model.py).

    Each such hour gets ``label`` (mass when score ≥ CLASSIFIER_THRESHOLD), ``score`` and ``source:
    "classifier"``; ``masses`` is recomputed. The model is loaded once; a missing or corrupt model file is one
    error at start (the pipeline is then disabled and the crawl goes on with the rules alone).
    Stats: msze/classifier/pages, msze/classifier/hours, msze/classifier/mass, msze/classifier/skipped.
    """

    def __init__(self, crawler: Any, classifier: Any) -> None:
        self.crawler = crawler
        self.classifier = classifier

    @classmethod
    def from_crawler(cls, crawler: Any) -> ClassifierPipeline:
        from msze.classifier.model import ClassifierLoadError, HourClassifier

        settings = crawler.settings
        if not settings.getbool("CLASSIFIER_ENABLED", True):
            raise NotConfigured("CLASSIFIER_ENABLED is off")
        threshold = settings.get("CLASSIFIER_THRESHOLD")
        try:
            classifier = HourClassifier.load(
                settings.get("CLASSIFIER_MODEL") or None,
                threshold=None if threshold in (None, "") else float(threshold),
            )
        except (ClassifierLoadError, ValueError) as exc:
            logger.error("hour classifier disabled: %s", exc)
            crawler.stats.set_value("msze/classifier/disabled", 1)
            raise NotConfigured(f"hour classifier disabled: {exc}") from exc
        return cls(crawler, classifier)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        stats = self.crawler.stats
        text = adapter.get("text")
        hours = adapter.get("hours")
        if _not_modified(adapter):  # a 304 page keeps the hours classified in the previous run
            return item
        if not text or not hours:
            stats.inc_value("msze/classifier/skipped")
            return item
        todo = [
            h
            for h in hours
            if not (h.get("source") == "rules" and h.get("label") == "mass")
            and 0 <= h.get("start", -1) < h.get("end", -1) <= len(text)  # a span off the text: left as it is
        ]
        if todo:
            scores = self.classifier.score_hours(text, todo)
            for hour, score in zip(todo, scores, strict=True):
                hour["score"] = round(float(score), 4)
                hour["label"] = "mass" if score >= self.classifier.threshold else "other"
                hour["source"] = "classifier"
                stats.inc_value(f"msze/classifier/{hour['label']}")
            stats.inc_value("msze/classifier/hours", len(todo))
        adapter["masses"] = sorted({h["time"] for h in hours if h.get("label") == "mass"})
        stats.inc_value("msze/classifier/pages")
        return item


# --- Storage ---------------------------------------------------------------------------------------


class ParishJsonlWriterPipeline:
    """One JSONL file per parish, `<PAGES_DIR>/<domain>.jsonl`, one page a line, flushed per item.

    A crawl killed halfway keeps every page written so far. Files are truncated when first opened by a crawl
    (a re-crawl replaces the parish's pages); PAGES_DIR empty turns the writer off. At most
    PAGES_MAX_OPEN_FILES files stay open (least recently written closed first, re-opened for appending).
    """

    def __init__(self, crawler: Any, pages_dir: str, max_open_files: int) -> None:
        self.crawler = crawler
        self.pages_dir = Path(pages_dir)
        self.max_open_files = max(1, max_open_files)
        self.files: OrderedDict[str, IO[str]] = OrderedDict()  # least recently written first
        self.started: set[str] = set()  # domains whose file this crawl has truncated already

    @classmethod
    def from_crawler(cls, crawler: Any) -> ParishJsonlWriterPipeline:
        pages_dir = crawler.settings.get("PAGES_DIR")
        if not pages_dir:
            raise NotConfigured("PAGES_DIR is empty")
        return cls(crawler, pages_dir, crawler.settings.getint("PAGES_MAX_OPEN_FILES", 256))

    def path_for(self, domain: str) -> Path:
        return self.pages_dir / pages_filename(domain)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        domain = adapter.get("domain")
        if not domain:
            return item
        out = self.files.get(domain)
        if out is None:
            if len(self.files) >= self.max_open_files:  # many sites in one process (issue 7)
                self.files.popitem(last=False)[1].close()
            self.pages_dir.mkdir(parents=True, exist_ok=True)
            mode = "a" if domain in self.started else "w"
            out = self.files[domain] = self.path_for(domain).open(mode, encoding="utf-8")
            self.started.add(domain)
        else:
            self.files.move_to_end(domain)
        out.write(json.dumps(adapter.asdict(), ensure_ascii=False, default=str) + "\n")
        out.flush()
        self.crawler.stats.inc_value("msze/storage/pages")
        return item

    def close_spider(self) -> None:
        for out in self.files.values():
            out.close()
        self.files.clear()


# --- Language ---------------------------------------------------------------------------------------


class LanguagePipeline:
    """item["language"] from item["text"] (py3langid); stats msze/language/<code>."""

    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        self.stats = crawler.stats

    @classmethod
    def from_crawler(cls, crawler: Any) -> LanguagePipeline:
        if not crawler.settings.getbool("LANGUAGE_ENABLED", False):
            raise NotConfigured("LANGUAGE_ENABLED is off")
        return cls(crawler)

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        if "language" not in adapter.field_names() and not isinstance(item, dict):
            return item
        if adapter.get("language") is None:  # a 304 page re-used from the previous run keeps its code
            adapter["language"] = detect_language(adapter.get("text"))
        self.stats.inc_value(f"msze/language/{adapter['language']}")
        return item


# --- Re-crawl (msze/recrawl): change records, stored hours re-used ---------------------------------


class RecrawlPipeline:
    """Change status per page, stored-hours re-use, state update; per-parish change records at the end."""

    def __init__(self, crawler: Any, shared: SharedRecrawl) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.shared = shared
        self.parishes: dict[str, dict[str, Any]] = {}

    @classmethod
    def from_crawler(cls, crawler: Any) -> RecrawlPipeline:
        return cls(crawler, recrawl_shared(crawler))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        url = adapter.get("url")
        if not url:
            return item
        text = adapter.get("text")
        if text is None and adapter.get("html"):
            from msze.extraction.text import html_to_text

            text = html_to_text(adapter["html"])
        current = page_state(text)
        stored = self.shared.state.get_page(url)
        stored_page = stored.page or {} if stored else {}
        change = compare_page(stored.state if stored else None, current)
        etag, last_modified = self.shared.validators.pop(url, (None, None))
        was_304 = url in self.shared.not_modified or adapter.get("change") == NOT_MODIFIED
        self.shared.not_modified.discard(url)
        hours = adapter.get("hours") or []
        previous_hours = stored_page.get("hours")
        if change in (UNCHANGED, SHRUNK) and previous_hours is not None:
            hours = trusted_hours(SHRUNK, hours, previous_hours)  # the stored hours, as extracted last time
        status = NOT_MODIFIED if was_304 and change == UNCHANGED else change
        adapter["change"] = status
        adapter["hours"] = hours
        adapter["masses"] = changes.masses_of(hours)
        self.stats.inc_value(f"msze/recrawl/pages/{status}")
        if change != SHRUNK:  # a broken page must not become the reference for the next run
            page = {k: v for k, v in adapter.asdict().items() if k != "text"}
            self.shared.state.put_page(
                url,
                current,
                page,
                domain=adapter.get("domain"),
                etag=etag or (stored.etag if stored and status == NOT_MODIFIED else None),
                last_modified=last_modified
                or (stored.last_modified if stored and status == NOT_MODIFIED else None),
            )
        domain = adapter.get("domain") or ""
        parish = self.parishes.setdefault(
            domain, {"start_url": adapter.get("start_url") or url, "pages": [], "changes": {}}
        )
        parish["pages"].append({"url": url, "hours": hours})
        parish["changes"][url] = status
        return item

    def close_spider(self) -> None:
        for domain, parish in self.parishes.items():
            summary = summarize(parish["pages"], parish["start_url"], domain)
            page_changes = {u: (UNCHANGED if s == NOT_MODIFIED else s) for u, s in parish["changes"].items()}
            change = self.shared.state.record_parish(domain, summary["masses"], page_changes)
            self.stats.inc_value(f"msze/recrawl/parishes/{change.status}")
            if change.status != NEW:
                self.crawler.spider.logger.info(
                    "Recrawl %s: Mass times %s (added %s, removed %s, %d flagged pages)",
                    domain,
                    change.status,
                    change.added,
                    change.removed,
                    len(change.flagged_pages),
                )
        self.parishes.clear()
        self.shared.state.close()
