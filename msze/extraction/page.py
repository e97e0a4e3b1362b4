"""The one way a page is processed: text → language → site boilerplate → page filter → hours and rules →
classifier.

The crawl's item pipelines adapt one step each (msze/pipelines.py, in ITEM_PIPELINES order) and every offline
command (`msze extract`, `msze process`, the training tools) runs the same steps through `PageSteps.run`, so a
page re-processed from a stored crawl gets exactly the hours the crawl gave it. Steps read and write a page
mapping (a PageItem through ItemAdapter, or a plain dict) and report outcomes to `count(key, n)`: the crawl
stats `msze/<key>` in a crawl, a Counter offline.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from msze.extraction.boilerplate import SiteTemplates, TemplateSplit
from msze.extraction.hours import Hour, find_hours
from msze.extraction.language import detect_language
from msze.extraction.page_filter import has_schedule_hint
from msze.extraction.pdf import PDF_CONTENT_TYPE, page_at, page_starts
from msze.extraction.rules import RuleDecision, decide
from msze.extraction.rules.reading import MONTHLY, ONE_OFF, Reading
from msze.extraction.rules.verdict import AT_MASS, UNCUED
from msze.extraction.text import convert_html, cut_html, replace_surrogates
from msze.utils.time import utc_now
from msze.utils.urls import domain_of, parish_url

MAX_TEXT_CHARS = 5_000_000  # text beyond this is not scanned (a page of 5 MB of text is not a parish page)
# HTML beyond this is not converted to text (the page is still stored whole): html2text took 17 s on 14 M
# characters; no parish page has 4 MB of HTML
MAX_HTML_CHARS = 4_000_000
# hour candidates beyond this many on a page are skipped (a timetable dump, not a parish): each costs ~4 kB
# while the page is processed, so 20 000 took a crawl of one 15 MB page from 340 to 420 MB
MAX_HOURS = 5_000

# What the classifier may do with the hours the rules did not confirm: "score" gives each its P(Mass start)
# and leaves the label to the rules; "uncued" also labels the hours the rules found no cue for (the default:
# on unseen pages it adds recall at the rules' precision, docs/classifier.md); "all" labels them all.
CLASSIFIER_ROLES = ("score", "uncued", "all")
DEFAULT_CLASSIFIER_ROLE = "uncued"  # = settings.CLASSIFIER_ROLE
TEXT_FALLBACK = "text fallback"  # how a warning about a page html2text could not convert as it is starts
Page = MutableMapping[str, Any]
Count = Callable[[str, int], None]
Warn = Callable[[str], None]


@runtime_checkable
class HourScorer(Protocol):
    """What a classifier offers the extractor (msze.classifier.model.HourClassifier implements it)."""

    threshold: float

    def score_hours(self, text: str, hours: list[dict[str, Any]]) -> list[float]:
        """P(Mass start) for each hour dict (its "start"/"end" span in `text`), in order."""
        ...


def _no_count(_key: str, _n: int) -> None:
    """The default `count`: callers that want only the page."""


def _no_warning(_message: str) -> None:
    """The default `warn`."""


def hour_dict(
    hour: Hour, label: str, score: float, source: str, decision: RuleDecision | None = None
) -> dict[str, Any]:
    """The JSON form of an hour (PageItem["hours"]): where it is, its label, and what the page says of it
    (the rules' reading: days, vigil, church, season, kind, date, tags; the rules' reason when known)."""
    reading = decision.reading if decision is not None else Reading()
    d: dict[str, Any] = {
        "text": hour.text,
        "time": hour.time,
        "start": hour.start,
        "end": hour.end,
        "context": hour.context,
        "context_start": hour.context_start,
        "label": label,
        "score": round(float(score), 4),
        "source": source,
        "day": decision.day if decision is not None else None,
        "days": reading.days.ordered() if reading.days is not None else [],
        "vigil": reading.vigil,
        "church": reading.church,
        "season": reading.season,
        "kind": reading.kind,
        "date": reading.date_text(),
        "tags": list(reading.tags),
    }
    if reading.monthly is not None:  # "w pierwsze piątki miesiąca": the week of the month and its days
        days = d["days"] if reading.kind == MONTHLY else [reading.monthly.day]
        d["monthly"] = {"week": reading.monthly.week, "days": days}
    if reading.sunday_order and reading.kind == ONE_OFF:
        d["sunday_order"] = True  # evidence of the Sunday times where the site gives no other (schedule.py)
    if reading.aside:
        d["aside"] = True  # a seasonal time leaving the other times' seasons (schedule._season_complement)
    if decision is not None:
        d["reason"] = decision.reason
    return d


_NO_TIME = frozenset({"bare number", "contact"})  # rules' reasons for a number that is no time of day


def confessions_of(hours: Sequence[dict[str, Any]], decisions: Sequence[RuleDecision]) -> list[dict]:
    """The page's confession times (PageItem["confessions"]): a range "17:30–18:00" or an opening "od 17"
    next to a confession word; hours stay labelled other. A Mass's time with confession before it ("przed
    Mszą o 7.30") stays the Mass's and gives a confession ``at_mass``."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(hours):
        h, d = hours[i], decisions[i]
        at_mass = d.reason == AT_MASS  # "spowiedź przed Mszą o 7.30": before that Mass
        if (
            not d.reading.confession
            or (h["label"] == "mass" and not at_mass)
            or d.reason in _NO_TIME  # "15 minut przed Mszą": no time of day
        ):
            i += 1
            continue
        end = None
        if d.reason == "range" and i + 1 < len(hours) and decisions[i + 1].reason == "range":
            end, i = hours[i + 1]["time"], i + 1
        entry = {
            "days": h["days"],
            "start": h["time"],
            "end": end,
            "church": h["church"],
            "season": h["season"],
        }
        if at_mass:
            entry["at_mass"] = True
        if entry not in out:
            out.append(entry)
        i += 1
    return out


def masses_of(hours: Sequence[dict[str, Any]]) -> list[str]:
    """Sorted distinct "HH:MM" of the hours labelled mass (PageItem["masses"]); tolerant of stored hours
    without a time or label (a page re-used from an earlier run)."""
    return sorted({h["time"] for h in hours if h.get("label") == "mass" and h.get("time")})


def not_modified(page: Page) -> bool:
    """A 304 page re-used from the previous run with its stored hours (msze/recrawl): nothing to redo."""
    return page.get("change") == "not_modified" and page.get("hours") is not None


def labelled_hours(
    found: Sequence[Hour], decisions: Sequence[RuleDecision], template: TemplateSplit | None = None
) -> tuple[list[dict[str, Any]], list[RuleDecision], int]:
    """The rules' label of every hour outside the template's repeated blocks, their decisions, and how many
    hours were inside."""
    hours, kept, skipped = [], [], 0
    for h, d in zip(found, decisions, strict=True):
        if template is not None and template.covers(h.start, h.end):
            skipped += 1
            continue
        hours.append(hour_dict(h, "mass" if d.is_mass else "other", 1.0 if d.is_mass else 0.0, "rules", d))
        kept.append(d)
    return hours, kept, skipped


@dataclass
class PageSteps:
    """The steps, with what they need: a classifier (None: the rules alone), the site templates (None: every
    page on its own), the limits, whether to record the language, where outcomes and warnings go."""

    classifier: HourScorer | None = None
    classifier_role: str = DEFAULT_CLASSIFIER_ROLE  # one of CLASSIFIER_ROLES
    templates: SiteTemplates | None = None
    max_text_chars: int = MAX_TEXT_CHARS
    max_html_chars: int = MAX_HTML_CHARS
    max_hours: int = MAX_HOURS
    only_hinted: bool = False
    language: bool = False
    year: int | None = field(default_factory=lambda: int(utc_now()[:4]))  # dates a page leaves without a year
    count: Count = field(default=_no_count, repr=False)
    warn: Warn = field(default=_no_warning, repr=False)

    def tally(self, key: str, n: int = 1) -> None:
        """count(key, n) for what happened (n > 0): the crawl stats list outcomes, not zeros."""
        if n:
            self.count(key, n)

    def run(self, page: Page) -> Page:
        """Every step in order: what the crawl's pipelines do to a page, done to one page offline."""
        for step in (self.text, self.detect_language, self.template, self.hint, self.hours, self.classify):
            step(page)
        return page

    def text(self, page: Page) -> None:
        """page["html"] → page["text"] (html2text as the thesis set it up, with its fallback); a page stored
        with its text only keeps it. Always UTF-8-encodable and at most max_text_chars long; of a page over
        max_html_chars of HTML only its beginning is converted (page["html"] stays whole)."""
        html = page.get("html")
        if html:
            if len(html) > self.max_html_chars:
                self.warn(f"HTML of {len(html)} characters: the first {self.max_html_chars} were converted")
                self.tally("text/html_cut")
                html = cut_html(html, self.max_html_chars)
            conversion = convert_html(html)
            if conversion.fallback:
                fallback = conversion.fallback
                self.warn(f"{TEXT_FALLBACK}: {conversion.error}; text from the {fallback} fallback")
                self.tally("text/fallback")
            text = conversion.text
        else:
            text = page.get("text") if isinstance(page.get("text"), str) else ""
        text = replace_surrogates(text)
        if len(text) > self.max_text_chars:
            self.warn(f"text of {len(text)} characters: only the first {self.max_text_chars} were scanned")
            self.tally("text/truncated")
            text = text[: self.max_text_chars]
        page["text"] = text
        self.tally("text/pages")
        if not text.strip():
            self.tally("text/empty")

    def detect_language(self, page: Page) -> None:
        """page["language"] (py3langid), kept when the page has one (a 304 page re-used from the last run)."""
        if not self.language:
            return
        if page.get("language") is None:
            page["language"] = detect_language(page.get("text"))
        self.tally(f"language/{page['language']}")

    def template(self, page: Page) -> None:
        """page["template"]: spans of the blocks the page repeats from earlier pages of its parish. The site
        is the parish's start URL, not its host: on a portal two parishes' identical Sunday lines are each
        their own (a page without a start URL falls back to its domain)."""
        if self.templates is None:
            return
        evicted = self.templates.evicted
        site = parish_url(page.get("start_url")) or page.get("domain") or domain_of(page.get("url") or "")
        split = self.templates.observe(site, page["text"])
        if self.templates.evicted > evicted:
            self.tally("template/sites_evicted")
        page["template"] = [list(span) for span in split.repeated]
        self.tally("template/pages")
        self.tally("template/blocks", split.blocks)
        self.tally("template/blocks_repeated", len(split.repeated))
        self.tally("template/blocks_template", len(split.template))

    def hint(self, page: Page) -> None:
        """page["has_schedule_hint"]: the thesis page filter on the URL suffix and the link text."""
        hint = has_schedule_hint(page.get("url") or "", page.get("button_text"))
        page["has_schedule_hint"] = hint
        self.tally("filter/kept" if hint else "filter/rejected")

    def hours(self, page: Page) -> None:
        """page["hours"], page["masses"]: every clock-time candidate outside the repeated blocks, labelled by
        the rules, which read the whole text (a schedule's header may sit in a repeated block). Hours of a PDF
        (content_type application/pdf) say the page they are on (pdf_page: by the form feeds of the text)."""
        if not_modified(page):
            self.tally("hours/not_modified")
            return
        if self.only_hinted and not page.get("has_schedule_hint"):
            page["hours"], page["masses"], page["confessions"] = [], [], []
            self.tally("hours/skipped_no_hint")
            return
        text = page.get("text") or ""
        found = find_hours(text, limit=self.max_hours + 1)
        if len(found) > self.max_hours:
            found = found[: self.max_hours]
            self.warn(f"more than {self.max_hours} hour candidates: the rest (from {found[-1].end}) skipped")
            self.tally("hours/truncated")
        template = TemplateSplit(repeated=[tuple(span) for span in page.get("template") or []])
        hours, decisions, skipped = labelled_hours(found, decide(text, found, self.year), template)
        if page.get("content_type") == PDF_CONTENT_TYPE:
            starts = page_starts(text)
            for hour in hours:
                hour["pdf_page"] = page_at(starts, hour["start"])  # where a reader finds it in the PDF
        if page.get("ocr_confidence") is not None:  # read by OCR: a reader weighs the hour by it
            for hour in hours:
                hour["ocr_confidence"] = page["ocr_confidence"]
        page["hours"], page["masses"] = hours, masses_of(hours)
        page["confessions"] = confessions_of(hours, decisions)
        self.tally("hours/template_skipped", skipped)
        self.tally("hours/found", len(hours))
        self.tally("hours/pages_with_hours" if hours else "hours/pages_without_hours")
        self.tally("rules/masses", sum(h["label"] == "mass" for h in hours))
        if page["masses"]:
            self.tally("rules/pages_with_masses")

    def __post_init__(self) -> None:
        if self.classifier_role not in CLASSIFIER_ROLES:
            raise ValueError(
                f"classifier role {self.classifier_role!r}: not one of {', '.join(CLASSIFIER_ROLES)}"
            )

    def classify(self, page: Page) -> None:
        """The classifier scores every hour the rules did not confirm, and labels those its role lets it
        (CLASSIFIER_ROLES); page["masses"] follows."""
        if self.classifier is None or not_modified(page):
            return
        text, hours = page.get("text"), page.get("hours")
        if not text or not hours:
            self.tally("classifier/skipped")
            return
        todo = [
            h
            for h in hours
            if not (h.get("source") == "rules" and h.get("label") == "mass")
            and 0 <= h.get("start", -1) < h.get("end", -1) <= len(text)  # a span off the text: left as it is
        ]
        if todo:
            scores = self.classifier.score_hours(text, todo)
            if len(scores) != len(todo):
                raise ValueError(f"classifier returned {len(scores)} scores for {len(todo)} hours")
            for hour, score in zip(todo, scores, strict=True):
                hour["score"] = round(float(score), 4)
                if self._labels(hour):
                    hour["source"] = "classifier"
                    hour["label"] = "mass" if score >= self.classifier.threshold else "other"
                    self.tally(f"classifier/{hour['label']}")
                else:
                    self.tally("classifier/scored")
            self.tally("classifier/hours", len(todo))
        page["masses"] = masses_of(hours)
        self.tally("classifier/pages")

    def _labels(self, hour: dict[str, Any]) -> bool:
        return classifier_labels(self.classifier_role, hour.get("reason"))


def classifier_labels(role: str, reason: str | None) -> bool:
    """Whether a classifier in ``role`` labels an hour the rules left with ``reason`` (not only scores it)."""
    return role == "all" or (role == "uncued" and reason == UNCUED)


@dataclass
class Extraction:
    """The hour dicts of one text (PageItem["hours"]), its Mass times (PageItem["masses"]) and warnings."""

    hours: list[dict[str, Any]] = field(default_factory=list)
    masses: list[str] = field(default_factory=list)
    confessions: list[dict[str, Any]] = field(default_factory=list)  # PageItem["confessions"]
    warnings: list[str] = field(default_factory=list)
    text: str = ""  # the text the hours' spans refer to


def extract(
    text: str,
    classifier: HourScorer | None = None,
    max_hours: int = MAX_HOURS,
    *,
    html: str | None = None,
    classifier_role: str = DEFAULT_CLASSIFIER_ROLE,
) -> Extraction:
    """Every hour of one text (or of `html`, converted first) labelled mass/other, and its Mass times:
    PageSteps on that page alone (no site, so no template). Never raises on odd input."""
    warnings: list[str] = []
    steps = PageSteps(
        classifier=classifier, classifier_role=classifier_role, max_hours=max_hours, warn=warnings.append
    )
    page: dict[str, Any] = {"html": html} if html else {"text": str(text or "")}
    for step in (steps.text, steps.hours, steps.classify):
        step(page)
    return Extraction(
        hours=page["hours"],
        masses=page["masses"],
        confessions=page.get("confessions", []),
        warnings=warnings,
        text=page["text"],
    )
