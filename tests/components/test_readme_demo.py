"""The README's sample of the demo's output is what the demo prints: the bundled demo site (demo/site) served
on 127.0.0.1, crawled with `scrapy crawl parish` as scripts/demo.sh does, summarised by demo_summary.py.
Every line of the README's block (ports aside; "…" stands for lines left out) is a line of that output, in
the same order."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from conftest import REPO, run_crawl

PORT = re.compile(r"127\.0\.0\.1([:_])\d+")  # in URLs and in the pages file's name
BLOCK = re.compile(r"<!-- demo output: [^>]*-->\n```\n(.*?)```", re.S)


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


def demo_output(tmp_path: Path) -> str:
    handler = functools.partial(Quiet, directory=str(REPO / "demo" / "site"))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            crawl = run_crawl(f"http://127.0.0.1:{server.server_address[1]}/", tmp_path)
        finally:
            server.shutdown()
    assert crawl.returncode == 0, crawl.log[-3000:]
    [crawled] = crawl.pages_dir.glob("*.jsonl")
    pages = Path("output", "demo", "pages", crawled.name)  # where demo.sh has it, as it prints it
    (tmp_path / pages).parent.mkdir(parents=True)
    shutil.copy(crawled, tmp_path / pages)
    summary = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "demo_summary.py"), str(pages)],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return PORT.sub(r"127.0.0.1\1PORT", summary.stdout)


def readme_lines() -> list[str]:
    match = BLOCK.search((REPO / "README.md").read_text(encoding="utf-8"))
    assert match, "README.md has no `<!-- demo output: … -->` block"
    return [PORT.sub(r"127.0.0.1\1PORT", line) for line in match.group(1).splitlines()]


def in_order(wanted: list[str], lines: list[str]) -> list[str]:
    """The wanted lines (other than "…") not found in `lines` in that order; [] when all are."""
    rest = iter(lines)
    return [line for line in wanted if line != "…" and line not in rest]


def test_readme_demo_output_is_what_the_demo_prints(tmp_path: Path) -> None:
    printed = demo_output(tmp_path).splitlines()
    wanted = readme_lines()
    assert len([line for line in wanted if line != "…"]) >= 8
    assert in_order(wanted, printed) == [], "\n".join(printed)


def test_a_line_out_of_order_or_changed_is_found() -> None:
    lines = ["a", "b", "c"]
    assert in_order(["a", "…", "c"], lines) == []
    assert in_order(["c", "a"], lines) == ["a"]
    assert in_order(["a", "b2"], lines) == ["b2"]
