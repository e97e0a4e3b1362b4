"""CrawlBudgetMiddleware built with the project settings (conftest.project_crawler): per-site page and
wall-time caps, with a fake clock. (tests/crawls/test_hostile.py crawls a fan-out site and dripping pages
end to end.)"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from conftest import project_crawler
from scrapy import Spider
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Request

from msze.crawling.links import Site
from msze.middlewares import CrawlBudgetMiddleware

A, B = Site("http://parafia-a.test/"), Site("http://parafia-b.test/")


def budget(**settings: Any) -> tuple[Any, CrawlBudgetMiddleware, list[float]]:
    crawler = project_crawler(Spider, **{"PARISH_MAX_PAGES": 0, "PARISH_MAX_SECONDS": 0, **settings})
    middleware = CrawlBudgetMiddleware.from_crawler(crawler)
    now = [0.0]
    middleware.clock = lambda: now[0]
    return crawler, middleware, now


def request(site: Site, path: str) -> Request:
    return Request(site.start_url.rstrip("/") + path, meta={"msze_site": site})


def passed(middleware: CrawlBudgetMiddleware, requests: list[Request]) -> list[str]:
    """URLs of the spider output the middleware lets through to the scheduler."""
    out = middleware.process_spider_output(None, requests)
    return [r.url for r in out]


def test_pages_beyond_the_cap_are_not_queued(caplog: pytest.LogCaptureFixture) -> None:
    crawler, middleware, _ = budget(PARISH_MAX_PAGES=3)
    links = [request(A, f"/p{n}") for n in range(5)]
    with caplog.at_level(logging.WARNING):
        assert passed(middleware, links[:3]) == [r.url for r in links[:3]]
        assert passed(middleware, [links[1], links[3], links[4]]) == [links[1].url]  # a duplicate passes
    assert crawler.stats.get_value("msze/budget/dropped/max_pages") == 2
    assert crawler.stats.get_value("msze/budget/sites/max_pages") == 1
    assert [r.getMessage() for r in caplog.records if r.name == "msze.middlewares"] == [
        "Site http://parafia-a.test/ reached PARISH_MAX_PAGES=3: its further requests are dropped"
    ]


def test_each_site_has_its_own_budget() -> None:
    crawler, middleware, _ = budget(PARISH_MAX_PAGES=2)
    output = [request(A, "/1"), request(A, "/2"), request(A, "/3"), request(B, "/1"), request(B, "/2")]
    assert passed(middleware, output) == [r.url for r in output if r.url != "http://parafia-a.test/3"]
    robots = Request("http://parafia-a.test/robots.txt")  # no site: never counted nor dropped
    assert passed(middleware, [robots]) == [robots.url]
    assert middleware.process_request(robots) is None
    assert crawler.stats.get_value("msze/budget/sites/max_pages") == 1


def test_time_cap_counts_from_the_first_download() -> None:
    crawler, middleware, now = budget(PARISH_MAX_SECONDS=60)
    start, page = request(A, "/"), request(A, "/msze")
    now[0] = 500.0  # queued long before: the site's clock has not started
    assert passed(middleware, [start]) == [start.url]
    assert middleware.process_request(start) is None
    now[0] = 560.0
    assert passed(middleware, [page]) == [page.url]
    assert middleware.process_request(page) is None
    now[0] = 561.0
    with pytest.raises(IgnoreRequest):
        middleware.process_request(page.copy())  # a retry (or redirect hop) after the cap
    assert passed(middleware, [request(A, "/kontakt"), request(A, "/historia")]) == []
    assert middleware.process_request(request(B, "/")) is None  # another site's clock starts now
    assert crawler.stats.get_value("msze/budget/dropped/max_seconds") == 3
    assert crawler.stats.get_value("msze/budget/sites/max_seconds") == 1


def test_one_instance_for_both_roles_and_off_when_every_cap_is_0() -> None:
    crawler = project_crawler(Spider, PARISH_MAX_PAGES=5)
    assert CrawlBudgetMiddleware.from_crawler(crawler) is CrawlBudgetMiddleware.from_crawler(crawler)
    no_caps = {"PARISH_MAX_PAGES": 0, "PARISH_MAX_SECONDS": 0, "PDF_MAX_PER_SITE": 0}
    with pytest.raises(NotConfigured):
        CrawlBudgetMiddleware.from_crawler(project_crawler(Spider, **no_caps))
    assert CrawlBudgetMiddleware.from_crawler(project_crawler(Spider, **{**no_caps, "PDF_MAX_PER_SITE": 1}))
