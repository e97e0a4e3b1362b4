"""`msze evaluate --sites FILE...`: the consolidated schedule of each parish against its true schedule.

A sites file has one parish a line, in the format of ../shared/data/realsites (its pages' text and its true
``masses``, ``one_off`` and ``confession``), or is a label file of data/ (realsites pages keyed by URL and
SHA-256, diocesan rows by ``source``) whose texts are joined as msze.labels does; each file is scored alone
and all together. Each parish's pages go through the crawl's page steps in order
(one site, so the site template applies) and msze.extraction.schedule.consolidate; the figures are summed
over parishes (micro-averaged):

- weekly P/R/F1 over (day-of-week, time) pairs: gold = the all-year Masses of every church; a reported pair
  found only in a seasonal gold row counts neither way; any other reported pair is a false positive;
- Sunday exact: parishes whose reported Sunday set (all-year Sunday times and Saturday vigils) is the gold
  one;
- seasons / churches: gold seasonal rows / rows at another church reported at that time with a season / a
  church;
- one-offs kept apart: gold one-off times (on their weekday when dated) not among the reported weekly pairs
  that no regular Mass accounts for: a Zaduszki Mass at 9:00 is not "inside" for a parish whose Sunday
  9:00 Mass was rightly reported;
- confession found: gold ``confession`` rows whose start time a reported ``confession`` entry gives on one of
  the row's days (any day when the row names none); the end, church and season are not compared, and a
  confession ``at_mass`` counts at its Mass's time, which is how such rows are labelled ("w czasie Mszy o
  18.00": start 18:00).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from msze.archive.jsonl import read_numbered
from msze.classifier.metrics import Confusion, set_confusion
from msze.extraction.page import HourScorer
from msze.extraction.rules.days import WEEK
from msze.extraction.schedule import consolidate
from msze.labels.sets import join_diocesan, join_sites
from msze.labels.texts import JoinReport, TextStore

Pair = tuple[str, str]


def join_files(paths: Sequence[str], store: TextStore, report: JoinReport) -> dict[str, list[dict[str, Any]]]:
    """The parishes of each file, by what the file holds: realsites parishes with their pages' text, or
    labels keyed by URL and SHA-256 (data/realsites, texts joined from `store`), or diocesan rows keyed by
    `source` (data/diocesan, texts read from the thesis's TSVs). Held-out hosts and rows are left out."""
    sets = {}
    for path in paths:
        if _diocesan(path):
            sets[path] = join_diocesan([path], report)
        else:
            sets[path] = join_sites([path], store, report)  # a broken line is a ValueError naming it
    return sets


def _diocesan(path: str) -> bool:
    """A file of diocesan row labels: its records name their `source` row and carry no pages."""
    for _n, record in read_numbered(path, lambda n, _line: None):
        return "source" in record and "pages" not in record
    return False


def parish_schedule(parish: dict[str, Any], classifier: HourScorer | None) -> dict[str, Any]:
    """The consolidated schedule of one parish's stored pages, as the crawl and `process` build it."""
    from msze.archive.reprocess import page_steps

    steps = page_steps(classifier)
    host = parish.get("host") or ""
    pages = [steps.run({"url": p["url"], "text": p["text"], "domain": host}) for p in parish["pages"]]
    return consolidate(pages)


def _pairs(rows: Iterable[dict[str, Any]]) -> set[Pair]:
    return {(d, r["time"]) for r in rows for d in r.get("days") or () if d in WEEK}


def _sunday(rows: Iterable[dict[str, Any]]) -> set[str]:
    """Sunday's times and the Saturday vigils of the all-year rows."""
    out = set()
    for r in rows:
        if r.get("season"):
            continue
        days = r.get("days") or ()
        if "sun" in days:
            out.add(r["time"])
        if r.get("vigil") and "sat" in days:
            out.add("vigil " + r["time"])
    return out


def confession_found(row: dict[str, Any], reported: Iterable[dict[str, Any]]) -> bool:
    """A gold confession row is found when a reported confession starts at its start on one of its days."""
    days = set(row.get("days") or ())
    return any(
        c.get("start") == row["start"] and (not days or days & set(c.get("days") or ())) for c in reported
    )


def _weekday(date: str | None) -> str | None:
    try:
        return WEEK[datetime.date.fromisoformat(date).weekday()] if date and len(date) == 10 else None
    except ValueError:
        return None


@dataclass
class SiteScore:
    """The figures summed over parishes."""

    weekly: Confusion = field(default_factory=Confusion)
    parishes: int = 0
    sunday_exact: int = 0
    seasonal: list[int] = field(default_factory=lambda: [0, 0])  # [attributed, gold rows]
    churches: list[int] = field(default_factory=lambda: [0, 0])
    one_offs: list[int] = field(default_factory=lambda: [0, 0])  # [kept apart, gold one-offs]
    confession: list[int] = field(default_factory=lambda: [0, 0])  # [found, gold confession rows]

    def add(self, gold: dict[str, Any], got: dict[str, Any]) -> None:
        schedule, masses = got["schedule"], gold["masses"]
        year_round = _pairs(m for m in masses if not m.get("season"))
        seasonal_only = _pairs(m for m in masses if m.get("season")) - year_round
        self.weekly += set_confusion(_pairs(schedule) - seasonal_only, year_round)
        self.parishes += 1
        self.sunday_exact += _sunday(schedule) == _sunday(masses)
        for m in masses:
            if m.get("season"):
                self.seasonal[1] += 1
                self.seasonal[0] += any(s["time"] == m["time"] and s["season"] for s in schedule)
            if m.get("church"):
                self.churches[1] += 1
                self.churches[0] += any(s["time"] == m["time"] and s["church"] for s in schedule)
        unexplained = _pairs(schedule) - _pairs(masses)  # weekly pairs no regular Mass (of any season) is
        for o in gold.get("one_off") or ():
            day = _weekday(o.get("date"))
            inside = (day, o["time"]) in unexplained if day else any(t == o["time"] for _, t in unexplained)
            self.one_offs[1] += 1
            self.one_offs[0] += not inside
        for c in gold.get("confession") or ():
            self.confession[1] += 1
            self.confession[0] += confession_found(c, got.get("confession") or ())

    def as_dict(self) -> dict[str, Any]:
        def share(pair: list[int]) -> dict[str, Any]:
            return {
                "found": pair[0],
                "total": pair[1],
                "share": round(pair[0] / pair[1], 4) if pair[1] else None,
            }

        return {
            "parishes": self.parishes,
            "weekly": self.weekly.as_dict(),
            "sunday_exact": share([self.sunday_exact, self.parishes]),
            "seasons_attributed": share(self.seasonal),
            "churches_attributed": share(self.churches),
            "one_offs_kept_apart": share(self.one_offs),
            "confession_found": share(self.confession),
        }


def score_sites(parishes: Sequence[dict[str, Any]], classifier: HourScorer | None) -> SiteScore:
    score = SiteScore()
    for parish in parishes:
        score.add(parish, parish_schedule(parish, classifier))
    return score


def report(figures: dict[str, Any]) -> None:
    w = figures["weekly"]
    print(f"{figures['parishes']} parishes, consolidated schedules (micro-averaged over parishes):")
    print(
        f"  weekly (day-of-week, time) pairs: P={w['precision']:.3f} R={w['recall']:.3f} F1={w['f1']:.3f}"
        f"  (tp={w['tp']} fp={w['fp']} fn={w['fn']})"
    )
    for key, label in (
        ("sunday_exact", "Sunday times (with the vigil) exactly right"),
        ("seasons_attributed", "seasonal rows reported with a season"),
        ("churches_attributed", "rows at another church reported with it"),
        ("one_offs_kept_apart", "one-off Masses kept out of the weekly schedule"),
        ("confession_found", "confession rows found (start time on one of their days)"),
    ):
        f = figures[key]
        share = "-" if f["share"] is None else f"{f['share']:.3f}"
        print(f"  {label}: {share} ({f['found']}/{f['total']})")
