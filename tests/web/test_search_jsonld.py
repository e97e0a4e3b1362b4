"""schema.org JSON-LD for a parish schedule (Mass Times Protocol shape) and its safe embedding in HTML."""

from __future__ import annotations

import json

from msze.search.jsonld import parish_jsonld, schedule, script_json

PARISH = {
    "id": 7,
    "name": "Świętego Józefa",
    "city": "Łódź",
    "address": ["Świętego Józefa", "ul. Ogrodowa 22", "91-065 Łódź"],
    "voivodeship": "łódzkie",
    "website": "http://jozef-lodz.pl/",
    "times": [
        {"time": "07:00", "day": "sunday", "source_url": "http://jozef-lodz.pl/msze"},
        {"time": "18:00", "day": "weekday", "source_url": None},
        {"time": "10:00", "day": "holiday"},
        {"time": "08:00", "day": "saturday", "start_date": "2026-07-01", "end_date": "2026-08-31"},
        {"time": "06:30", "day": None, "context": "</script><script>alert(1)</script>"},
    ],
}


def test_each_time_is_an_event_with_a_weekly_schedule():
    doc = parish_jsonld(PARISH, "http://127.0.0.1/parafia/7")
    assert doc["@context"] == "https://schema.org"
    assert doc["@type"] == "Church"
    assert doc["@id"] == doc["url"] == "http://127.0.0.1/parafia/7"
    assert doc["sameAs"] == "http://jozef-lodz.pl/"
    assert doc["address"] == {
        "@type": "PostalAddress",
        "streetAddress": "ul. Ogrodowa 22",
        "addressLocality": "Łódź",
        "addressRegion": "łódzkie",
        "addressCountry": "PL",
    }
    events = doc["event"]
    assert [e["@type"] for e in events] == ["Event"] * 5
    sunday = events[0]["eventSchedule"]
    assert sunday == {
        "@type": "Schedule",
        "startTime": "07:00",
        "repeatFrequency": "P1W",
        "scheduleTimezone": "Europe/Warsaw",
        "byDay": ["https://schema.org/Sunday"],
    }
    assert events[0]["url"] == "http://jozef-lodz.pl/msze"
    assert events[1]["eventSchedule"]["byDay"] == [
        f"https://schema.org/{d}" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
    ]
    assert "byDay" not in events[2]["eventSchedule"]  # a feast has no day of the week
    assert events[3]["eventSchedule"]["startDate"] == "2026-07-01"
    assert events[3]["eventSchedule"]["endDate"] == "2026-08-31"
    assert events[0]["location"]["address"]["addressLocality"] == "Łódź"


def test_schedule_without_season_has_no_dates():
    assert "startDate" not in schedule({"time": "09:00", "day": "sunday"})


def test_script_json_cannot_close_the_script_block():
    doc = {"name": "</script><script>alert(1)</script> & <!--"}
    text = script_json(doc)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == doc


def test_only_absolute_http_urls_go_into_jsonld():
    times = [{"time": "07:00", "day": "sunday", "source_url": "data:text/html,<b>x</b>"}]
    doc = parish_jsonld({**PARISH, "website": "javascript:alert(1)", "times": times}, "/parafia/7")
    assert "sameAs" not in doc and "@id" not in doc and "url" not in doc  # a relative page URL too
    assert "url" not in doc["event"][0]
