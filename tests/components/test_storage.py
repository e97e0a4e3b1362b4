"""ParishJsonlWriterPipeline: one JSONL file per parish (its start URL), each page on disk as soon as it is
processed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scrapy import Spider
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from msze.items import PageItem
from msze.pipelines import ParishJsonlWriterPipeline


def page(url: str, domain: str, start_url: str | None = None) -> PageItem:
    return PageItem(
        url=url,
        previous_url=None,
        start_url=start_url or f"http://{domain}/",
        domain=domain,
        depth=0,
        button_text=None,
        html="<p>Msze 7:00</p>",
    )


def test_writes_one_flushed_line_per_item(tmp_path: Path) -> None:
    crawler = get_crawler(Spider, {"PAGES_DIR": str(tmp_path / "pages")})
    crawler.stats.open_spider()
    pipeline = ParishJsonlWriterPipeline.from_crawler(crawler)
    pipeline.process_item(page("http://parafia.pl/", "parafia.pl"))
    pipeline.process_item(page("http://inna.pl/", "inna.pl"))
    pipeline.process_item(page("http://parafia.pl/msze", "parafia.pl"))
    # Before close: a crawl killed now has lost nothing.
    lines = (tmp_path / "pages" / "parafia.pl.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["url"] for line in lines] == ["http://parafia.pl/", "http://parafia.pl/msze"]
    assert (tmp_path / "pages" / "inna.pl.jsonl").is_file()
    pipeline.close_spider()
    assert crawler.stats.get_value("msze/storage/pages") == 3


def test_polish_text_stays_readable(tmp_path: Path) -> None:
    crawler = get_crawler(Spider, {"PAGES_DIR": str(tmp_path)})
    crawler.stats.open_spider()
    pipeline = ParishJsonlWriterPipeline.from_crawler(crawler)
    item = page("http://parafia.pl/", "parafia.pl")
    item["html"] = "<p>Porządek Mszy świętych</p>"
    pipeline.process_item(item)
    pipeline.close_spider()
    assert "Porządek Mszy świętych" in (tmp_path / "parafia.pl.jsonl").read_text(encoding="utf-8")


def test_empty_pages_dir_turns_it_off() -> None:
    with pytest.raises(NotConfigured):
        ParishJsonlWriterPipeline.from_crawler(get_crawler(Spider, {"PAGES_DIR": ""}))


def test_open_files_are_capped_and_reopened_for_appending(tmp_path: Path) -> None:
    crawler = get_crawler(Spider, {"PAGES_DIR": str(tmp_path), "PAGES_MAX_OPEN_FILES": 2})
    crawler.stats.open_spider()
    pipeline = ParishJsonlWriterPipeline.from_crawler(crawler)
    for domain in ("a.pl", "b.pl", "c.pl", "a.pl", "b.pl"):
        pipeline.process_item(page(f"http://{domain}/{len(pipeline.started)}", domain))
        assert len(pipeline.files) <= 2
    pipeline.close_spider()
    lines = {d: (tmp_path / f"{d}.jsonl").read_text().splitlines() for d in ("a.pl", "b.pl", "c.pl")}
    assert [len(v) for v in lines.values()] == [2, 2, 1]  # nothing lost to the re-opening


def test_parishes_of_one_portal_never_share_or_truncate_a_file(tmp_path: Path) -> None:
    """Two `scrapy crawl parish` runs, one after the other, for two parishes of one portal into one
    PAGES_DIR: the second run keeps the first parish's pages."""
    first, second = "http://portal.pl/p.php?id=1", "http://portal.pl/p.php?id=2"
    for start in (first, second):
        crawler = get_crawler(Spider, {"PAGES_DIR": str(tmp_path)})
        crawler.stats.open_spider()
        pipeline = ParishJsonlWriterPipeline.from_crawler(crawler)
        pipeline.process_item(page(start, "portal.pl", start))
        pipeline.process_item(page(f"{start}&strona=msze", "portal.pl", start))
        pipeline.close_spider()
    by_start = {}
    for path in tmp_path.glob("*.jsonl"):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        by_start[path.name] = {p["start_url"] for p in lines}, len(lines)
    assert sorted(v for v in by_start.values()) == [({first}, 2), ({second}, 2)]
    assert all(name.startswith("portal.pl~") for name in by_start)
