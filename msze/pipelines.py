"""Item pipelines in ITEM_PIPELINES order: text → language → template → filter → hours → classify → re-crawl →
store.

The extraction pipelines are thin adapters over msze.extraction.page.PageSteps, one step each: the offline
commands run the same steps, so a crawl and a re-processing of its pages give the same hours. Outcomes are
crawl stats msze/<step>/<outcome>.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from pathlib import Path
from typing import IO, Any

from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured

from msze.crawling.links import pages_filename
from msze.extraction.boilerplate import SiteTemplates
from msze.extraction.page import CLASSIFIER_ROLES, PageSteps, masses_of
from msze.extraction.parish import ParishStage
from msze.middlewares import recrawl_shared
from msze.optional import SwitchedOff
from msze.recrawl.changes import NEW, NOT_MODIFIED, SHRUNK, UNCHANGED, compare_page, page_state, trusted_hours
from msze.recrawl.state import SharedRecrawl

logger = logging.getLogger(__name__)

# --- Extraction: one PageSteps step a pipeline ---------------------------------------------------------


class _PageStepPipeline:
    """Runs one PageSteps step on page items (items with the fields the steps fill); other items pass."""

    stage = ""  # the step's stats prefix: msze/<stage>/not_a_page

    def __init__(self, crawler: Any, steps: PageSteps) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.steps = steps
        steps.count = lambda key, n: self.stats.inc_value(f"msze/{key}", n)

    @classmethod
    def from_crawler(cls, crawler: Any) -> Any:
        return cls(crawler, cls.make_steps(crawler.settings))

    @classmethod
    def make_steps(cls, settings: Any) -> PageSteps:
        return PageSteps()

    def step(self, page: ItemAdapter) -> None:
        raise NotImplementedError

    def process_item(self, item: Any) -> Any:
        fields = getattr(item, "fields", None)  # scrapy.Item: only declared fields can be set
        if fields is not None and not {"text", "hours", "masses"} <= set(fields):
            self.stats.inc_value(f"msze/{self.stage}/not_a_page")
            return item
        page = ItemAdapter(item)
        self.steps.warn = lambda message: logger.warning("%s: %s", page.get("url"), message)
        self.step(page)
        return item


class TextConversionPipeline(_PageStepPipeline):
    """item["html"] → item["text"] (PageSteps.text: html2text as the thesis set it up; a page it cannot
    convert as it is gets its text from the fallback, counted msze/text/fallback)."""

    stage = "text"

    @classmethod
    def make_steps(cls, settings: Any) -> PageSteps:
        return PageSteps(
            max_text_chars=settings.getint("EXTRACTION_MAX_TEXT_CHARS"),
            max_html_chars=settings.getint("EXTRACTION_MAX_HTML_CHARS"),
        )

    def step(self, page: ItemAdapter) -> None:
        self.steps.text(page)


class LanguagePipeline(_PageStepPipeline):
    """item["language"] (py3langid), so a stored crawl can be processed by language (`process --lang pl`)
    without detecting it again. Off unless LANGUAGE_ENABLED (the model costs ~90 MB in every process)."""

    stage = "language"

    @classmethod
    def make_steps(cls, settings: Any) -> PageSteps:
        if not settings.getbool("LANGUAGE_ENABLED"):
            raise SwitchedOff(cls, "LANGUAGE_ENABLED is off")
        return PageSteps(language=True)

    def step(self, page: ItemAdapter) -> None:
        self.steps.detect_language(page)


class SiteTemplatePipeline(_PageStepPipeline):
    """item["template"]: blocks the page repeats from earlier pages of its site, whose hours HoursPipeline
    leaves to the first page that had them. At most TEMPLATE_MAX_SITES site models are kept (least recently
    used dropped), so a one-process crawl of thousands of parishes stays bounded."""

    stage = "template"

    @classmethod
    def make_steps(cls, settings: Any) -> PageSteps:
        if not settings.getbool("TEMPLATE_ENABLED"):
            raise SwitchedOff(cls, "TEMPLATE_ENABLED is off")
        min_pages = settings.getint("TEMPLATE_MIN_PAGES")
        min_share = settings.getfloat("TEMPLATE_MIN_SHARE")
        if min_pages < 1 or not 0.0 <= min_share <= 1.0:
            raise NotConfigured("TEMPLATE_MIN_PAGES must be >= 1 and TEMPLATE_MIN_SHARE in [0, 1]")
        templates = SiteTemplates(
            settings.getint("TEMPLATE_MAX_SITES"),
            min_pages,
            min_share,
            max(1, settings.getint("TEMPLATE_MAX_BLOCKS")),
        )
        return PageSteps(templates=templates)

    def step(self, page: ItemAdapter) -> None:
        self.steps.template(page)


class PageFilterPipeline(_PageStepPipeline):
    """item["has_schedule_hint"]: the thesis page filter. With EXTRACT_ONLY_HINTED the pages it rejects get
    no hours (the thesis's set-up for annotation); by default the hint is only recorded."""

    stage = "filter"

    def step(self, page: ItemAdapter) -> None:
        self.steps.hint(page)


class HoursPipeline(_PageStepPipeline):
    """item["hours"], item["masses"]: every clock-time candidate outside the site's repeated blocks, labelled
    by the rule-based Mass extractor (a 304 page keeps its stored hours)."""

    stage = "hours"

    @classmethod
    def make_steps(cls, settings: Any) -> PageSteps:
        return PageSteps(
            max_hours=settings.getint("EXTRACTION_MAX_HOURS"),
            only_hinted=settings.getbool("EXTRACT_ONLY_HINTED"),
        )

    def step(self, page: ItemAdapter) -> None:
        self.steps.hours(page)


class ClassifierPipeline(_PageStepPipeline):
    """The fastText model (msze/classifier) labels every hour the rules did not confirm; item["masses"] is
    recomputed. The model is loaded once; a missing or corrupt model file is one error at start (the pipeline
    is then off and the crawl goes on with the rules alone, msze/classifier/disabled)."""

    stage = "classifier"

    @classmethod
    def from_crawler(cls, crawler: Any) -> Any:
        from msze.classifier.model import ClassifierLoadError, HourClassifier

        settings = crawler.settings
        if not settings.getbool("CLASSIFIER_ENABLED"):
            raise SwitchedOff(cls, "CLASSIFIER_ENABLED is off")
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
        role = settings.get("CLASSIFIER_ROLE")
        if role not in CLASSIFIER_ROLES:
            raise NotConfigured(f"CLASSIFIER_ROLE {role!r}: not one of {', '.join(CLASSIFIER_ROLES)}")
        return cls(crawler, PageSteps(classifier=classifier, classifier_role=role))

    def step(self, page: ItemAdapter) -> None:
        self.steps.classify(page)


# --- Storage ---------------------------------------------------------------------------------------


class ParishJsonlWriterPipeline:
    """One JSONL file per parish, `<PAGES_DIR>/<host>.jsonl` (links.pages_filename of its start URL: a
    portal's parishes get `<host>~<hash>.jsonl` each), one page a line, flushed per item.

    A crawl killed halfway keeps every page written so far. Files are truncated when first opened by a crawl
    (a re-crawl replaces the parish's pages); PAGES_DIR empty turns the writer off. At most
    PAGES_MAX_OPEN_FILES files stay open (least recently written closed first, re-opened for appending).
    """

    def __init__(self, crawler: Any, pages_dir: str, max_open_files: int) -> None:
        self.crawler = crawler
        self.pages_dir = Path(pages_dir)
        self.max_open_files = max(1, max_open_files)
        self.files: OrderedDict[str, IO[str]] = OrderedDict()  # least recently written first
        self.started: set[str] = set()  # files this crawl has truncated already

    @classmethod
    def from_crawler(cls, crawler: Any) -> ParishJsonlWriterPipeline:
        pages_dir = crawler.settings.get("PAGES_DIR")
        if not pages_dir:
            raise SwitchedOff(cls, "PAGES_DIR is empty")
        return cls(crawler, pages_dir, crawler.settings.getint("PAGES_MAX_OPEN_FILES"))

    def process_item(self, item: Any) -> Any:
        adapter = ItemAdapter(item)
        start_url = adapter.get("start_url") or adapter.get("url")
        if not start_url:
            return item
        name = pages_filename(start_url)
        out = self.files.get(name)
        if out is None:
            if len(self.files) >= self.max_open_files:  # many sites in one process
                self.files.popitem(last=False)[1].close()
            self.pages_dir.mkdir(parents=True, exist_ok=True)
            mode = "a" if name in self.started else "w"
            out = self.files[name] = (self.pages_dir / name).open(mode, encoding="utf-8")
            self.started.add(name)
        else:
            self.files.move_to_end(name)
        # the item's own fields: its values are plain JSON already (asdict's deep copy gave the same line)
        out.write(json.dumps(dict(adapter), ensure_ascii=False, default=str) + "\n")
        out.flush()
        self.crawler.stats.inc_value("msze/storage/pages")
        return item

    def close_spider(self) -> None:
        for out in self.files.values():
            out.close()
        self.files.clear()


# --- Re-crawl (msze/recrawl): change records, stored hours re-used ---------------------------------


class RecrawlPipeline:
    """Change status per page, stored-hours re-use, state update; per-parish change records at the end."""

    def __init__(self, crawler: Any, shared: SharedRecrawl) -> None:
        self.crawler = crawler
        self.stats = crawler.stats
        self.shared = shared
        self.parishes = ParishStage(shared.state)

    @classmethod
    def from_crawler(cls, crawler: Any) -> RecrawlPipeline:
        return cls(crawler, recrawl_shared(crawler, cls))

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
        adapter["masses"] = masses_of(hours)
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
        # The parish's record needs its Mass times only: the pages' text is not kept for the whole crawl.
        fields = {k: adapter.get(k) for k in ("url", "start_url", "domain", "crawled_at")}
        self.parishes.add({**fields, "hours": hours, "change": status}, html_bytes=0)
        return item

    def close_spider(self) -> None:
        for summary in self.parishes.summaries():
            change = summary["change"]
            self.stats.inc_value(f"msze/recrawl/parishes/{change['status']}")
            if change["status"] != NEW:
                self.crawler.spider.logger.info(
                    "Recrawl %s: Mass times %s (added %s, removed %s, %d flagged pages)",
                    summary["start_url"],
                    change["status"],
                    change["added"],
                    change["removed"],
                    len(change["flagged_pages"]),
                )
        self.shared.state.close()
