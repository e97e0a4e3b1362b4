"""The extraction item pipelines: unit tests on project_crawler(), `scrapy crawl parish` on the fixtures."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import project_crawler, run_crawl
from scrapy import Spider
from scrapy.exceptions import NotConfigured

from msze.items import PageItem
from msze.pipelines import (
    HoursPipeline,
    PageFilterPipeline,
    SiteTemplatePipeline,
    TextConversionPipeline,
)

SIDEBAR = "<div class='boczny'><h3>Msze święte</h3><p>Niedziela: 8:00, 10:00</p></div>"
FOOTER = "<div class='stopka'><p>Kancelaria czynna: wtorek 16:00-17:30</p></div>"


def html(body: str) -> str:
    return (
        f"<html><body><ul><li>Strona główna</li><li>Ogłoszenia</li></ul>{body}{SIDEBAR}{FOOTER}</body></html>"
    )


def make_stages(**settings: Any) -> tuple[Any, list[Any]]:
    crawler = project_crawler(Spider, **settings)
    stages = [
        cls.from_crawler(crawler)
        for cls in (TextConversionPipeline, SiteTemplatePipeline, PageFilterPipeline, HoursPipeline)
    ]
    return crawler, stages


def run_item(stages: list[Any], url: str, body: str, button: str | None = None) -> PageItem:
    item = PageItem(url=url, domain="parafia.test", html=html(body), button_text=button)
    for stage in stages:
        item = stage.process_item(item)
    return item


def test_stages_fill_the_item_and_count():
    crawler, stages = make_stages()
    first = run_item(stages, "http://parafia.test/", "<p>Witamy na stronie parafii.</p>")
    assert first["masses"] == ["08:00", "10:00"]  # the sidebar schedule, found on the first page
    assert [h["label"] for h in first["hours"]] == ["mass", "mass", "other", "other"]
    assert first["has_schedule_hint"] is False
    second = run_item(
        stages,
        "http://parafia.test/msze.html",
        "<h2>Porządek Mszy</h2><p>Dni powszednie: 7:00, 18:00</p>",
        "Msze",
    )
    assert second["has_schedule_hint"] is True
    assert second["masses"] == ["07:00", "18:00"]  # its own content only: sidebar and footer were seen before
    assert {h["time"] for h in second["hours"]} == {"07:00", "18:00"}
    assert all(second["text"][h["start"] : h["end"]] == h["text"] for h in second["hours"])
    assert {h["day"] for h in second["hours"]} == {"weekday"}
    stats = crawler.stats.get_stats()
    assert stats["msze/text/pages"] == 2
    assert stats["msze/filter/kept"] == 1 and stats["msze/filter/rejected"] == 1
    assert stats["msze/hours/found"] == 6
    assert stats["msze/hours/template_skipped"] == 4
    assert stats["msze/rules/masses"] == 4
    assert stats["msze/rules/pages_with_masses"] == 2
    assert stats["msze/template/blocks_repeated"] >= 3


def test_template_off_counts_every_page_on_its_own():
    with pytest.raises(NotConfigured):
        SiteTemplatePipeline.from_crawler(project_crawler(Spider, TEMPLATE_ENABLED=False))
    crawler, stages = make_stages()
    stages = [s for s in stages if not isinstance(s, SiteTemplatePipeline)]
    run_item(stages, "http://parafia.test/", "<p>Witamy.</p>")
    second = run_item(stages, "http://parafia.test/o-nas.html", "<p>O parafii.</p>")
    assert second["masses"] == ["08:00", "10:00"]  # the sidebar again, on every page


def test_only_hinted_pages_get_hours():
    crawler, stages = make_stages(EXTRACT_ONLY_HINTED=True)
    item = run_item(stages, "http://parafia.test/kontakt.html", "<p>Msze św. o 9:00</p>")
    assert item["hours"] == [] and item["masses"] == []
    assert crawler.stats.get_value("msze/hours/skipped_no_hint") == 1


def test_bad_pages_do_not_stop_the_crawl():
    crawler, stages = make_stages(EXTRACTION_MAX_TEXT_CHARS=1000)
    for body in ["", "1 2 3 4 5 6 7 8 9 10 " * 50, "<p>" + "x" * 5000 + "</p>", "\x00\ufffd<<<>>>"]:
        item = run_item(stages, "http://parafia.test/x", body)
        assert isinstance(item["hours"], list) and isinstance(item["masses"], list)
        assert len(item["text"]) <= 1000
    assert crawler.stats.get_value("msze/text/truncated") >= 1


def test_not_modified_page_keeps_its_stored_hours():
    _, stages = make_stages()
    stored = [{"text": "9:00", "time": "09:00", "start": 0, "end": 4, "label": "mass"}]
    item = PageItem(url="http://parafia.test/", domain="parafia.test", text="9:00", change="not_modified")
    item["hours"] = stored
    item["masses"] = ["09:00"]
    for stage in stages[2:]:
        item = stage.process_item(item)
    assert item["hours"] == stored and item["masses"] == ["09:00"]


def test_fixture_crawl_yields_exactly_the_schedule(fixture_web: Any, tmp_path: Any) -> None:
    fixture_web.clear()
    result = run_crawl(
        "http://swwojciech.test/",
        tmp_path,
        "DEPTH_LIMIT=1",
        "CLASSIFIER_ENABLED=False",
        proxy=fixture_web.proxy,
    )
    assert result.returncode == 0, result.log[-3000:]
    page = result.item("http://swwojciech.test/msze.html")
    assert page["masses"] == ["07:00", "09:00", "11:00", "18:00"]
    assert {(h["time"], h["day"]) for h in page["hours"]} == {
        ("07:00", "sunday"),
        ("09:00", "sunday"),
        ("11:00", "sunday"),
        ("18:00", "sunday"),
        ("07:00", "weekday"),
        ("18:00", "weekday"),
    }
    assert page["has_schedule_hint"] is True
    contact = result.item("http://swwojciech.test/kontakt.html")
    assert contact["masses"] == [] and {h["label"] for h in contact["hours"]} == {"other"}
    masses = {t for item in result.items for t in item["masses"]}
    assert masses == {"07:00", "09:00", "11:00", "18:00"}
    stats = result.stats
    assert stats["msze/rules/masses"] == 6
    assert stats["msze/hours/found"] >= 8
    assert stats["msze/filter/kept"] >= 1
    assert stats["msze/text/pages"] == len(result.items)


def test_hour_flood_is_cut_and_counted():
    crawler, stages = make_stages(EXTRACTION_MAX_HOURS=50)
    item = run_item(stages, "http://parafia.test/rozklad.html", "<p>" + "7:00, " * 200 + "</p>")
    assert len(item["hours"]) <= 50
    assert crawler.stats.get_value("msze/hours/truncated") == 1


def test_other_items_pass_through():
    from msze.items import ParishItem

    crawler, stages = make_stages()
    parish = ParishItem(name="Parafia pw. św. Jadwigi", city="Zielonka")
    for stage in stages:
        parish = stage.process_item(parish)
    assert dict(parish) == {"name": "Parafia pw. św. Jadwigi", "city": "Zielonka"}
    assert crawler.stats.get_value("msze/text/not_a_page") == 1
    # plain dict pages work too (re-processing stored JSONL)
    page = {"url": "http://parafia.test/msze", "domain": "parafia.test", "html": "<p>Msze św. 9:00</p>"}
    for stage in stages:
        page = stage.process_item(page)
    assert page["masses"] == ["09:00"]
