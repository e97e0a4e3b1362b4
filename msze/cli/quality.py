"""The quality figures of the label sets every machine has, and the guard that keeps them from falling.

`msze evaluate --figures FILE` writes the figures of data/realpages (Mass times per page), data/realsites and
data/diocesan (consolidated schedules per parish), read as the crawl reads (rules, then the packaged
classifier on the hours without a cue), with each page's and parish's own outcome. `msze evaluate --check
data/figures.json` recomputes them and fails (exit 1) when a figure is lower than the committed baseline by
more than its tolerance, listing the pages and parishes that got worse; CI runs it through the test suite. A
change that raises a figure updates the baseline in the same commit (`--figures data/figures.json`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

from msze.classifier.metrics import set_confusion
from msze.extraction.page import HourScorer
from msze.labels.sets import join_diocesan, join_pages, join_sites, label_files
from msze.labels.texts import DATA_DIR, JoinReport, TextStore

TOLERANCE = 0.005  # a figure may fall by this much (one page of 200) before the guard fails
SITE_FIGURES = (
    "weekly_precision",
    "weekly_recall",
    "weekly_f1",
    "sunday_exact",
    "seasons",
    "churches",
    "confession",
)
PAGE_FIGURES = ("precision", "recall", "f1", "pair_recall", "day_precision")


def prepared(pages: list[dict[str, Any]], classifier: HourScorer | None) -> tuple[list[Any], Any]:
    """evaluate.Page objects read by the rules and scored, and the crawl's predictor (rules ∪ classifier on
    the hours without a cue)."""
    from msze.cli.evaluate import Page, prepare, union_pred

    gold = [
        Page(
            p["id"],
            p["text"],
            p.get("tokens", []),
            list(p.get("mass_times", [])),
            p.get("schedule"),
            p["url"],
        )
        for p in pages
    ]
    prepare(gold, classifier)
    return gold, union_pred(classifier.threshold if classifier is not None else 2.0, "uncued")


def page_figures(pages: list[dict[str, Any]], classifier: HourScorer | None) -> dict[str, Any]:
    """Page-level Mass times of the crawl's reading, per page too."""
    from msze.cli.evaluate import schedule_pairs

    gold, pred = prepared(pages, classifier)
    total = set_confusion(set(), set())
    items = {}
    for p in gold:
        got = {h.time for i, h in enumerate(p.hours) if pred(p, i)}
        total += set_confusion(got, p.mass_times)
        items[p.id] = {"missed": sorted(set(p.mass_times) - got), "false": sorted(got - set(p.mass_times))}
    pairs = schedule_pairs(gold, pred)
    figures = {
        "pages": len(gold),
        "precision": round(total.precision, 4),
        "recall": round(total.recall, 4),
        "f1": round(total.f1, 4),
        "pair_recall": pairs["pair_recall"],
        "day_precision": pairs["day_precision"],
    }
    return {"figures": figures, "items": items}


def site_figures(parishes: list[dict[str, Any]], classifier: HourScorer | None) -> dict[str, Any]:
    """Consolidated schedules against the true ones (cli.evaluate_sites), per parish too."""
    from msze.cli.evaluate_sites import SiteScore, _pairs, _sunday, confession_found, parish_schedule

    total = SiteScore()
    items = {}
    for parish in parishes:
        got = parish_schedule(parish, classifier)
        total.add(parish, got)
        gold = {p for p in _pairs(m for m in parish["masses"] if not m.get("season"))}
        reported = _pairs(got["schedule"])
        items[str(parish["id"])] = {
            "sunday_exact": _sunday(got["schedule"]) == _sunday(parish["masses"]),
            "missed": sorted(" ".join(pair) for pair in gold - reported),
            "false": sorted(" ".join(pair) for pair in reported - _pairs(parish["masses"])),
            "confession_missed": sorted(
                f"{','.join(c.get('days') or ())} {c['start']}"
                for c in parish.get("confession") or ()
                if not confession_found(c, got["confession"])
            ),
        }
    f = total.as_dict()
    figures = {
        "parishes": f["parishes"],
        "weekly_precision": round(f["weekly"]["precision"], 4),
        "weekly_recall": round(f["weekly"]["recall"], 4),
        "weekly_f1": round(f["weekly"]["f1"], 4),
        "sunday_exact": f["sunday_exact"]["share"],
        "seasons": f["seasons_attributed"]["share"],
        "churches": f["churches_attributed"]["share"],
        "confession": f["confession_found"]["share"],  # None where no row has a confession label
    }
    return {"figures": figures, "items": items}


def compute(
    classifier: HourScorer | None, data_dir: str = DATA_DIR, roots: Sequence[str] | None = None
) -> dict[str, Any]:
    """The figures of the three sets, with how their labels met their texts."""
    store = TextStore(roots)
    out: dict[str, Any] = {"tolerance": TOLERANCE}
    report = JoinReport()
    out["realpages"] = page_figures(join_pages(label_files("realpages", data_dir), store, report), classifier)
    out["realpages"]["texts"] = report.as_dict()
    report = JoinReport()
    out["realsites"] = site_figures(join_sites(label_files("realsites", data_dir), store, report), classifier)
    out["realsites"]["texts"] = report.as_dict()
    report = JoinReport()
    out["diocesan"] = site_figures(join_diocesan(label_files("diocesan", data_dir), report), classifier)
    out["diocesan"]["texts"] = report.as_dict()
    return out


def report(
    classifier: HourScorer | None, data_dir: str = DATA_DIR, roots: Sequence[str] | None = None
) -> str:
    """The misses page (cli.misses) of the three sets."""
    from msze.cli import misses

    store, unused = TextStore(roots), JoinReport()
    gold, pred = prepared(join_pages(label_files("realpages", data_dir), store, unused), classifier)
    sites = join_sites(label_files("realsites", data_dir), store, unused)
    diocesan = join_diocesan(label_files("diocesan", data_dir), unused)
    return misses.render(
        {
            "Pages (data/realpages)": misses.page_misses(gold, pred),
            "Web parishes (data/realsites)": misses.site_misses(sites, classifier),
            "Diocesan rows (data/diocesan)": misses.site_misses(diocesan, classifier),
        }
    )


def regressions(baseline: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """What fell: each figure lower than its baseline by more than the tolerance, with the pages or parishes
    whose own outcome got worse (a Sunday no longer exact, a time newly missed or newly false)."""
    tolerance = float(baseline.get("tolerance", TOLERANCE))
    lines = []
    for name in ("realpages", "realsites", "diocesan"):
        old, new = baseline.get(name), current.get(name)
        if not old or not new:
            continue
        fallen = [
            f"{name} {key}: {old['figures'][key]} -> {new['figures'][key]}"
            for key in (PAGE_FIGURES if name == "realpages" else SITE_FIGURES)
            if old["figures"].get(key) is not None
            and (new["figures"].get(key) or 0) < old["figures"][key] - tolerance
        ]
        if fallen:
            lines += fallen + _worse_items(name, old["items"], new["items"])
    return lines


def _worse_items(name: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    lines = []
    for item, now in new.items():
        before = old.get(item)
        if before is None:
            continue
        worse = (
            ["Sunday no longer exact"] if before.get("sunday_exact") and not now.get("sunday_exact") else []
        )
        for key, label in (
            ("missed", "now missed"),
            ("false", "now false"),
            ("confession_missed", "confession now missed"),
        ):
            added = sorted(set(now.get(key) or ()) - set(before.get(key) or ()))  # a baseline may predate one
            if added:
                worse.append(f"{label} {', '.join(added)}")
        if worse:
            lines.append(f"  {name} {item}: {'; '.join(worse)}")
    return lines


def write(figures: dict[str, Any], path: str | os.PathLike[str]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(figures, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")
