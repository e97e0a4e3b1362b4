"""From a page's text to its hours and Mass times: the hour extractor, the rules, and optionally a classifier.

Used by `python -m msze extract`, `python -m msze evaluate`, `python -m msze process` and the item pipelines,
so the crawl and the offline tools decide the same way.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from msze.extraction.hours import Hour, find_hours
from msze.extraction.rules import RuleDecision, decide

MAX_TEXT_CHARS = 5_000_000  # text beyond this is not scanned (a page of 5 MB of text is not a parish page)
MAX_HOURS = (
    20_000  # hours beyond this many on one page are not extracted (a timetable dump, not a parish page)
)


@runtime_checkable
class HourScorer(Protocol):
    """What a classifier offers the extractor (msze.classifier.model.HourClassifier implements it)."""

    threshold: float

    def score_hours(self, text: str, hours: list[Hour]) -> list[float]:
        """P(Mass start) for each hour, in order."""
        ...


@dataclass
class Extraction:
    """The hour dicts of one page (PageItem["hours"]) and its Mass times (PageItem["masses"])."""

    hours: list[dict[str, Any]] = field(default_factory=list)
    masses: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def hour_dict(
    hour: Hour, label: str, score: float, source: str, day: str | None, reason: str | None = None
) -> dict[str, Any]:
    """The JSON form of an hour (TEAM.md contract), plus the rules' reason when known."""
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
        "day": day,
    }
    if reason is not None:
        d["reason"] = reason
    return d


def label_hours(
    text: str,
    hours: Sequence[Hour],
    decisions: Sequence[RuleDecision],
    classifier: HourScorer | None = None,
) -> list[dict[str, Any]]:
    """Rules first (a confirmed Mass is final); the classifier, if any, labels every other hour."""
    rest = [h for h, d in zip(hours, decisions, strict=True) if not d.is_mass]
    scores: Iterator[float] = iter(())
    if classifier is not None and rest:
        scored = list(classifier.score_hours(text, rest))
        if len(scored) != len(rest):
            raise ValueError(f"classifier returned {len(scored)} scores for {len(rest)} hours")
        scores = iter(scored)
    out = []
    for h, d in zip(hours, decisions, strict=True):
        if d.is_mass:
            out.append(hour_dict(h, "mass", 1.0, "rules", d.day, d.reason))
        elif classifier is not None:  # then ``rest`` holds this hour and ``scores`` its score
            score = float(next(scores))
            label = "mass" if score >= classifier.threshold else "other"
            out.append(hour_dict(h, label, score, "classifier", d.day, d.reason))
        else:
            out.append(hour_dict(h, "other", 0.0, "rules", d.day, d.reason))
    return out


def masses_of(hours: Sequence[dict[str, Any]]) -> list[str]:
    """Sorted distinct "HH:MM" of the hours labelled mass."""
    return sorted({h["time"] for h in hours if h["label"] == "mass"})


def extract(text: str, classifier: HourScorer | None = None, max_hours: int = MAX_HOURS) -> Extraction:
    """Every hour of ``text`` labelled mass/other, and the page's Mass times. Never raises on odd text."""
    warnings = []
    if not isinstance(text, str):
        text = "" if text is None else str(text)
    if len(text) > MAX_TEXT_CHARS:
        warnings.append(f"text of {len(text)} characters: only the first {MAX_TEXT_CHARS} were scanned")
        text = text[:MAX_TEXT_CHARS]
    hours = find_hours(text, limit=max_hours + 1)
    if len(hours) > max_hours:
        hours = hours[:max_hours]
        warnings.append(
            f"more than {max_hours} hour candidates: the rest of the page (from {hours[-1].end}) skipped"
        )
    decisions = decide(text, hours)
    labelled = label_hours(text, hours, decisions, classifier)
    return Extraction(hours=labelled, masses=masses_of(labelled), warnings=warnings)
