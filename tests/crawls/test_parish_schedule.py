"""A parish's schedule consolidated from its crawled pages (tests/sites/parafia-zalesie.test): a sidebar on
every page, a schedule page with two churches, a vigil and a summer variant, announcements with this week's
Masses, and an archived schedule of 2019 that the current one overrides."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CrawlResult, run_crawl
from schema_check import check

from msze.batch.results import csv_row
from msze.extraction.parish import summarize

SITE = "http://parafia-zalesie.test/"
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri")
# "dni powszednie" keeps Saturday beside a vigil listed under Sunday, but at the vigil's own time
# (data/diocesan/README.md's convention)
MON_SAT = (*WEEKDAYS, "sat")


@pytest.fixture(scope="module")
def summary(fixture_web: Any, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    result: CrawlResult = run_crawl(
        SITE, tmp_path_factory.mktemp("zalesie"), "DEPTH_LIMIT=2", proxy=fixture_web.proxy
    )
    assert result.returncode == 0, result.log[-2000:]
    assert {i["url"] for i in result.items} >= {
        SITE,
        f"{SITE}porzadek-mszy/",
        f"{SITE}ogloszenia/",
        f"{SITE}archiwum/porzadek-2019.html",
    }
    s = summarize(result.items, SITE, "parafia-zalesie.test", crawled_at="2026-12-01T10:00:00Z")
    check(s, "result")
    return s


def rows(s: dict[str, Any]) -> set[tuple]:
    return {(e["time"], tuple(e["days"]), e["church"], e["season"], e["vigil"]) for e in s["schedule"]}


def test_the_weekly_schedule_is_the_schedule_pages(summary):
    assert rows(summary) == {
        ("18:00", ("sat",), None, None, True),
        ("08:00", ("sun",), None, None, False),
        ("10:00", ("sun",), None, None, False),
        ("12:00", ("sun",), None, None, False),
        ("07:00", MON_SAT, None, None, False),
        ("18:00", WEEKDAYS, None, "not-summer", False),
        ("19:00", MON_SAT, None, "summer", False),
        ("09:30", ("sun",), "Kaplica w Borkach", None, False),
    }


def test_the_chapel_keeps_the_address_its_page_gives(summary):
    assert summary["churches"] == [
        {"name": "Kaplica w Borkach", "address": "ul. Leśna 5, 62-010 Borki", "url": f"{SITE}porzadek-mszy/"}
    ]


def test_the_sidebar_repeated_on_every_page_is_read_once(summary):
    [eight] = [e for e in summary["schedule"] if e["time"] == "08:00"]
    urls = {ev["url"] for ev in eight["evidence"]}
    assert eight["pages"] == len(urls) == 2 and urls == {SITE, f"{SITE}porzadek-mszy/"}


def test_announcements_give_one_offs_with_their_dates_not_weekly_masses(summary):
    got = {(o["date"], o["time"], tuple(o["days"])) for o in summary["one_off"]}
    assert got == {("2025-10-16", "17:00", ("thu",)), ("2025-10-18", "13:00", ("sat",))}
    assert all(o["evidence"][0]["url"] == f"{SITE}ogloszenia/" for o in summary["one_off"])


def test_the_2019_schedule_is_overridden_and_kept_as_a_conflict(summary):
    lost = {(c["time"], tuple(c["days"]), c["kept"]) for c in summary["conflicts"]}
    assert lost == {(t, ("sun",), f"{SITE}porzadek-mszy/") for t in ("07:00", "09:00", "11:00")}


def test_confession_and_the_csv_row(summary):
    [confession] = summary["confession"]
    assert (confession["days"], confession["start"], confession["end"]) == (["sat"], "17:00", "17:45")
    row = csv_row(summary)
    assert row["sun"] == "8:00, 10:00, 12:00; Kaplica w Borkach: 9:30"
    assert row["sat"] == "7:00, 18:00 (wigilia); lato: 19:00"
    assert row["mon"] == "7:00; poza latem: 18:00; lato: 19:00"
