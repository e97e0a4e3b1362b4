"""`msze evaluate --report misses.html`: every miss and false time of data/'s sets on one static page.

Where a maintainer finds the next rule to write: for each page, each Mass time missed or read where there is
none, with its sentence and what decided it (the rule's reason, or the classifier and its score); for each
parish, each (day, time) of its true weekly schedule not reported and each one reported wrongly, with every
hour msze read at that time: its label, reason, days, church and season, and its sentence. Everything shown
comes from web pages, so all of it is escaped.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from msze.extraction.page import HourScorer

DAY_NAMES = {
    "mon": "pn",
    "tue": "wt",
    "wed": "śr",
    "thu": "cz",
    "fri": "pt",
    "sat": "sb",
    "sun": "nd",
    "holiday": "św",
}
STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:1em auto;max-width:70em;padding:0 1em}
table{border-collapse:collapse;width:100%;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .4em;
vertical-align:top;text-align:left}.missed{color:#a00}.false{color:#05a}pre{white-space:pre-wrap;margin:0}"""


def page_misses(pages: Iterable[Any], predict: Any) -> list[dict[str, Any]]:
    """The Mass times a page gives and the crawl's reading missed, and those it read where the page has
    none (evaluate.Page objects, prepared), each with the hour, its sentence and what decided it."""
    rows = []
    for p in pages:
        got = {h.time for i, h in enumerate(p.hours) if predict(p, i)}
        gold = set(p.mass_times)
        for kind, times in (("missed", gold - got), ("false", got - gold)):
            for time in sorted(times):
                hours = [i for i, h in enumerate(p.hours) if h.time == time] or [None]
                for i in hours:
                    rows.append(_page_row(p, kind, time, i))
    return rows


def _page_row(p: Any, kind: str, time: str, i: int | None) -> dict[str, Any]:
    if i is None:
        return {
            "item": p.id,
            "url": p.url,
            "kind": kind,
            "time": time,
            "decided": "not extracted",
            "read": "",
            "sentence": "",
        }
    hour, decision = p.hours[i], p.decisions[i]
    score = p.scores[i] if p.scores is not None else None
    decided = f"rules: {decision.reason or '-'}" + (f"; classifier {score:.2f}" if score is not None else "")
    reading = decision.reading
    days = " ".join(DAY_NAMES.get(d, d) for d in reading.days.ordered()) if reading.days is not None else ""
    read = ", ".join(
        x
        for x in (
            days,
            reading.church and f"kościół: {reading.church}",
            reading.season and f"okres: {reading.season}",
        )
        if x
    )
    start = max(0, p.text.rfind("\n", 0, hour.start) + 1)
    end = p.text.find("\n", hour.end)
    sentence = p.text[start : end if end >= 0 else len(p.text)][:300]
    return {
        "item": p.id,
        "url": p.url,
        "kind": kind,
        "time": time,
        "decided": decided,
        "read": read,
        "sentence": sentence,
    }


def site_misses(parishes: Iterable[dict[str, Any]], classifier: HourScorer | None) -> list[dict[str, Any]]:
    """For each parish, the (day, time) pairs of its true all-year schedule not reported and the reported
    ones it does not have, with every hour read at that time on its pages."""
    from msze.archive.reprocess import page_steps
    from msze.cli.evaluate_sites import _pairs
    from msze.extraction.schedule import consolidate

    rows = []
    for parish in parishes:
        steps = page_steps(classifier)  # one parish's own: another's pages are not its site template
        pages = [
            steps.run({"url": p["url"], "text": p["text"], "domain": parish.get("host") or ""})
            for p in parish["pages"]
        ]
        reported = _pairs(consolidate(pages)["schedule"])
        gold = _pairs(m for m in parish["masses"] if not m.get("season"))
        for kind, pairs in (("missed", gold - reported), ("false", reported - _pairs(parish["masses"]))):
            for day, time in sorted(pairs):
                hours = [(page, h) for page in pages for h in page["hours"] if h["time"] == time] or [
                    (None, None)
                ]
                for page, hour in hours:
                    rows.append(_site_row(parish, kind, day, time, page, hour))
    return rows


def _site_row(parish: dict, kind: str, day: str, time: str, page: dict | None, hour: dict | None) -> dict:
    item = f"{parish['id']} {parish.get('parish') or ''}".strip()
    if hour is None:
        return {
            "item": item,
            "url": "",
            "kind": kind,
            "time": f"{DAY_NAMES[day]} {time}",
            "decided": "no hour at this time",
            "read": "",
            "sentence": "",
        }
    days = " ".join(DAY_NAMES.get(d, d) for d in hour.get("days") or ())
    read = ", ".join(
        x
        for x in (
            hour["label"],
            days,
            hour.get("church") and f"kościół: {hour['church']}",
            hour.get("season") and f"okres: {hour['season']}",
        )
        if x
    )
    decided = f"{hour.get('source') or '-'}: {hour.get('reason') or '-'}"
    return {
        "item": item,
        "url": page["url"],
        "kind": kind,
        "time": f"{DAY_NAMES[day]} {time}",
        "decided": decided,
        "read": read,
        "sentence": hour.get("context") or "",
    }


def render(sections: dict[str, list[dict[str, Any]]]) -> str:
    """The report: a table per set, a row per miss or false time (all text escaped)."""
    parts = [
        f'<!doctype html><html lang="pl"><head><meta charset="utf-8"><title>msze: misses</title>'
        f"<style>{STYLE}</style></head><body><h1>Misses and false times</h1>"
    ]
    for name, rows in sections.items():
        missed = sum(r["kind"] == "missed" for r in rows)
        parts.append(f"<h2>{escape(name)}: {missed} rows missed, {len(rows) - missed} false</h2>")
        parts.append(
            "<table><tr><th>item</th><th>what</th><th>time</th><th>decided by</th><th>read as</th>"
            "<th>sentence</th></tr>"
        )
        for r in rows:
            url = (
                f'<br><a href="{escape(r["url"])}">{escape(r["url"])}</a>'
                if r["url"].startswith("http")
                else ""
            )
            parts.append(
                f'<tr class="{r["kind"]}"><td>{escape(r["item"])}{url}</td><td>{r["kind"]}</td>'
                f"<td>{escape(r['time'])}</td><td>{escape(r['decided'])}</td><td>{escape(r['read'])}</td>"
                f"<td><pre>{escape(r['sentence'])}</pre></td></tr>"
            )
        parts.append("</table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
