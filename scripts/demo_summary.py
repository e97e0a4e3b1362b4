"""Print what a parish crawl found, page by page (the Mass times and the other hours read on each page), then
the parish's schedule as msze.extraction.schedule consolidates it, by day of the week.

    .venv/bin/python scripts/demo_summary.py output/demo/pages/127.0.0.1_PORT.jsonl

Reads the fields the extraction pipelines add (`masses`, `hours`). When the crawl ran without them (pages
stored with `html` only), the same extraction (extraction.text + extraction.page) is run here and marked so.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # msze, when run as scripts/demo_summary.py


def extract_here(item: dict[str, Any]) -> None:
    """Fill `masses`/`hours` with the extraction library when the pipelines did not (imported only then)."""
    from msze.extraction.page import extract
    from msze.extraction.text import html_to_text

    found = extract(html_to_text(item.get("html") or ""))
    item["masses"], item["hours"] = list(found.masses), list(found.hours)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: demo_summary.py PAGES.jsonl", file=sys.stderr)
        return 2
    items = [
        json.loads(line) for line in Path(argv[0]).read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    items.sort(key=lambda item: (item.get("depth", 0), item["url"]))
    computed = False
    print(f"{len(items)} pages stored in {argv[0]}\n")
    for item in items:
        if "masses" not in item:
            extract_here(item)
            computed = True
        masses = item.get("masses") or []
        hours = item.get("hours") or []
        link = f' via "{item["button_text"]}"' if item.get("button_text") else ""
        print(f"[depth {item.get('depth', 0)}] {item['url']}{link}")
        if masses:
            print(f"    Mass times: {', '.join(masses)}")
        other = sorted({h["time"] for h in hours if h.get("label") != "mass"})
        if other:
            print(f"    other hours (not Masses): {', '.join(other)}")
        if not masses and not other:
            print("    no hours")
    print()
    if computed:
        print("(masses/hours computed here with extraction.page: the crawl's pipelines did not add them)")
    print_schedule(items)
    return 0


DAY_NAMES = {
    "mon": "poniedziałek", "tue": "wtorek", "wed": "środa", "thu": "czwartek", "fri": "piątek",
    "sat": "sobota", "sun": "niedziela", "holiday": "święta", "unknown_day": "dzień nieznany",
}  # fmt: skip


def print_schedule(items: list[dict[str, Any]]) -> None:
    """The parish's weekly schedule by day, its one-off and monthly Masses and confession (as results.jsonl
    has them)."""
    from msze.batch.results import CSV_DAY_COLUMNS, csv_row
    from msze.extraction.schedule import consolidate
    from msze.utils.vocabulary import monthly_label

    parish = consolidate(items)
    if not parish["schedule"] and not parish["one_off"]:
        print("No Mass times found.")
        return
    row = csv_row(parish)
    print("The parish's schedule:")
    for day in CSV_DAY_COLUMNS:
        if row[day]:
            print(f"    {DAY_NAMES[day]:14} {row[day]}")
    for one in parish["one_off"]:
        print(f"    one-off        {one['date'] or ''} {one['time']}: {one['note'][:70]}")
    for m in parish["monthly"]:
        print(f"    monthly        {monthly_label(m['week'], m['days'])} {m['time']}: {m['note'][:70]}")
    for c in parish["confession"]:
        end = f"–{c['end']}" if c["end"] else ""
        print(f"    confession     {', '.join(DAY_NAMES[d] for d in c['days'])} {c['start']}{end}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
