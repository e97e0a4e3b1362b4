"""Print what a parish crawl found, page by page: the Mass times (`masses`) and the hours read on each page.

    .venv/bin/python scripts/demo_summary.py output/demo/pages/127.0.0.1.jsonl

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
    all_masses: dict[str, set[str]] = {}
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
        for hour in hours:
            if hour.get("label") == "mass":
                all_masses.setdefault(hour.get("day") or "?", set()).add(hour["time"])
        if not masses and not other:
            print("    no hours")
    print()
    if computed:
        print("(masses/hours computed here with extraction.page: the crawl's pipelines did not add them)")
    if all_masses:
        print("Mass times found on the site:")
        for day, times in sorted(all_masses.items()):
            print(f"    {day:8} {', '.join(sorted(times))}")
    else:
        print("No Mass times found.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
