"""Every item a fixture crawl stores matches msze/items.py's PageItem (fields, types, contract of `hours`)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import CrawlResult, run_crawl
from schema_check import check

from msze.items import PageItem

HOUR_KEYS = {"text", "time", "start", "end", "context", "context_start", "label", "score", "source", "day"}


@pytest.fixture(scope="module")
def crawl(fixture_web: Any, tmp_path_factory: pytest.TempPathFactory) -> CrawlResult:
    result = run_crawl(
        "http://swwojciech.test/",
        tmp_path_factory.mktemp("items"),
        "DOWNLOAD_TIMEOUT=1",
        "BACKOFF_REPEAT_LIMIT=1",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0, result.log[-2000:]
    assert len(result.items) >= 10
    return result


def check_page_item(item: dict[str, Any]) -> None:
    assert set(item) <= set(PageItem.fields), set(item) - set(PageItem.fields)
    PageItem(**item)  # builds: no unknown field
    assert isinstance(item["url"], str) and item["url"].startswith("http")
    assert item["previous_url"] is None or item["previous_url"].startswith("http")
    assert isinstance(item["start_url"], str) and item["start_url"].startswith("http")
    assert isinstance(item["domain"], str) and item["domain"]
    assert isinstance(item["depth"], int) and 0 <= item["depth"] <= 3
    assert (item["depth"] == 0) == (item["previous_url"] is None)
    assert item["button_text"] is None or (
        isinstance(item["button_text"], str) and item["button_text"].strip()
    )
    assert isinstance(item["html"], str) and "<" in item["html"]
    # Fields the extraction pipelines add, checked when present.
    if "text" in item:
        assert isinstance(item["text"], str)
    if "has_schedule_hint" in item:
        assert isinstance(item["has_schedule_hint"], bool)
    if "hours" in item:
        assert isinstance(item["hours"], list)
        for hour in item["hours"]:
            assert set(hour) >= HOUR_KEYS
            assert re.fullmatch(r"\d\d:\d\d", hour["time"]) and hour["label"] in ("mass", "other")
            if "text" in item:
                assert item["text"][hour["start"] : hour["end"]] == hour["text"]
    if "masses" in item:
        assert item["masses"] == sorted(set(item["masses"]))
        assert all(re.fullmatch(r"\d\d:\d\d", t) for t in item["masses"])


def test_every_item_matches_page_item(crawl: CrawlResult) -> None:
    for item in crawl.items:
        check_page_item(item)


def test_every_item_matches_the_page_schema(crawl: CrawlResult) -> None:
    assert any(h["label"] == "mass" for item in crawl.items for h in item.get("hours") or [])
    for item in crawl.items:
        check(item, "page")


def test_required_fields_always_present(crawl: CrawlResult) -> None:
    required = {"url", "previous_url", "start_url", "domain", "depth", "button_text", "html"}
    for item in crawl.items:
        assert required <= set(item)
