"""The packaged JSON Schemas are valid schemas, accept what the extraction writes and reject what it never
writes."""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator
from schema_check import check, errors

from msze.extraction.page import PageSteps
from msze.extraction.parish import summarize
from msze.schemas import schema

HTML = (
    "<h1>Porządek Mszy Świętych</h1><p>Niedziele i święta: 7:00, 9:30 (dla dzieci), 11:00 (suma)</p>"
    "<p>Dni powszednie: 7:00, 18:00 (w wakacje 19:00)</p><p>Kaplica w Zalesiu: niedziela 10:00</p>"
    "<p>Spowiedź św.: sobota 17:00–17:45</p><p>Pogrzeb śp. Jana we wtorek o godz. 11:00.</p>"
)


def page(html: str = HTML) -> dict:
    p = {
        "url": "https://parafia.test/msze",
        "previous_url": None,
        "start_url": "https://parafia.test/",
        "domain": "parafia.test",
        "depth": 0,
        "button_text": None,
        "html": html,
    }
    return PageSteps().run(p)


@pytest.mark.parametrize("name", ["page", "result"])
def test_the_schemas_are_valid_draft_2020_12(name):
    Draft202012Validator.check_schema(schema(name))


def test_a_processed_page_and_its_parish_result_match_their_schemas():
    p = page()
    assert p["masses"] and p["confessions"] and any(h["church"] for h in p["hours"])
    assert any(h.get("aside") for h in p["hours"])
    check(p, "page")
    check(summarize([p], p["start_url"], p["domain"], crawled_at="2026-12-01T10:00:00Z"), "result")


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda p: p["hours"][0].update(days=["funday"]), "hours/0/days/0"),
        (lambda p: p["hours"][0].update(time="25:00"), "hours/0/time"),
        (lambda p: p["hours"][0].pop("kind"), "hours/0"),
        (lambda p: p["hours"][0].update(season="lato 2020"), "hours/0/season"),
        (lambda p: p.update(spider="parish"), "."),
        (lambda p: p["confessions"][0].update(end="17.45"), "confessions/0/end"),
        (lambda p: p["hours"][0].update(date="2026-02-30"), "hours/0/date"),  # only "format": "date" says so
        (lambda p: p["hours"][0].update(date="2025-02-29"), "hours/0/date"),
        (lambda p: p["hours"][0].update(date="11-31"), "hours/0/date"),
        (lambda p: p["hours"][0].update(date="00-05"), "hours/0/date"),
        (lambda p: p["hours"][0].update(season="06-31..08-31"), "hours/0/season"),
    ],
)
def test_what_the_extraction_never_writes_is_refused(change, where):
    p = copy.deepcopy(page())
    change(p)
    problems = errors(p, "page")
    assert problems and problems[0].startswith(f"{where}: ")


def test_a_one_off_on_an_impossible_day_fails_the_result_schema():
    p = page(HTML + "<p>Msza św. w dniu 21.10.2025 o godz. 18:00</p>")
    result = summarize([p], p["start_url"], p["domain"], crawled_at="2026-12-01T10:00:00Z")
    [dated] = result["one_off"]
    assert dated["date"] == "2025-10-21"
    check(result, "result")
    for day in ("2026-04-30", "2024-02-29", "02-29", None):
        check({**result, "one_off": [{**dated, "date": day}]}, "result")
    for day in ("2026-02-30", "2025-02-29", "2026-13-01", "02-30", "04-31", "2026-1-05"):
        assert errors({**result, "one_off": [{**dated, "date": day}]}, "result")[0].startswith(
            "one_off/0/date: "
        )
    assert errors({**result, "crawled_at": "2026-12-01 10:00"}, "result")[0].startswith("crawled_at: ")


def test_a_weekly_mass_is_on_some_day_and_one_on_none_is_dayless():
    p = page()
    result = summarize([p], p["start_url"], p["domain"], crawled_at="2026-12-01T10:00:00Z")
    row = result["schedule"][0]
    assert errors({**result, "schedule": [{**row, "days": []}]}, "result")[0].startswith("schedule/0/days: ")
    check({**result, "dayless": [{**row, "days": []}]}, "result")
    assert errors({**result, "dayless": [row]}, "result")[0].startswith("dayless/0/days: ")


def test_a_monthly_mass_matches_both_schemas_and_an_older_result_without_monthly_still_does():
    p = page(HTML + "<p>Msze św. w pierwsze piątki miesiąca: 16:30; w ostatnią niedzielę miesiąca: 15:00</p>")
    assert [h["monthly"] for h in p["hours"] if h.get("monthly")] == [
        {"week": 1, "days": ["fri"]},
        {"week": -1, "days": ["sun"]},
    ]
    check(p, "page")
    result = summarize([p], p["start_url"], p["domain"], crawled_at="2026-12-01T10:00:00Z")
    assert [(m["week"], m["days"], m["time"]) for m in result["monthly"]] == [
        (1, ["fri"], "16:30"),
        (-1, ["sun"], "15:00"),
    ]
    check(result, "result")
    older = {k: v for k, v in result.items() if k != "monthly"}
    check(older, "result")
    wrong = copy.deepcopy(result)
    wrong["monthly"][0]["week"] = 5
    assert errors(wrong, "result")[0].startswith("monthly/0/week: ")
