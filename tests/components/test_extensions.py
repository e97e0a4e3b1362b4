"""StatsFileExtension: the final stats as a JSON object, written atomically; off without STATS_FILE."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import project_crawler
from scrapy import Spider
from scrapy.exceptions import NotConfigured

from msze.extensions import StatsFileExtension


def test_writes_stats_json(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "stats.json"
    crawler = project_crawler(Spider, STATS_FILE=str(path))
    crawler.stats.set_value("msze/parish/pages", 3)
    crawler.stats.set_value("start_time", datetime(2026, 11, 30, 1, 0, tzinfo=UTC))
    StatsFileExtension.from_crawler(crawler).engine_stopped()
    stats = json.loads(path.read_text(encoding="utf-8"))
    assert stats["msze/parish/pages"] == 3 and stats["start_time"].startswith("2026-11-30 01:00")
    assert [p.name for p in path.parent.iterdir()] == ["stats.json"]  # no temporary file left


def test_off_without_stats_file() -> None:
    with pytest.raises(NotConfigured):
        StatsFileExtension.from_crawler(project_crawler(Spider, STATS_FILE=""))
