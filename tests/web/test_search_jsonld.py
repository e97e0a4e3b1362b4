"""schema.org JSON-LD for a parish schedule (Mass Times Protocol shape) and its safe embedding in HTML."""

from __future__ import annotations

import json

from msze.search.jsonld import parish_jsonld, schedule, script_json

WORKDAYS = ("mon", "tue", "wed", "thu", "fri")
PARISH = {
    "id": 7,
    "name": "Świętego Józefa",
    "city": "Łódź",
    "address": ["Świętego Józefa", "ul. Ogrodowa 22", "91-065 Łódź"],
    "voivodeship": "łódzkie",
    "website": "http://jozef-lodz.pl/",
    "crawled_at": "2026-11-20T08:00:00+00:00",
    "times": [
        {"time": "07:00", "day": "sun", "source_url": "http://jozef-lodz.pl/msze"},
        *({"time": "18:00", "day": d, "source_url": None} for d in WORKDAYS),
        {"time": "10:00", "day": "holiday"},
        {"time": "08:00", "day": "sat", "start_date": "2026-07-01", "end_date": "2026-08-31"},
        {"time": "19:00", "day": "sat", "vigil": True},
        {"time": "09:00", "day": "sun", "church": "Kaplica w Julianowie"},
        {"time": "13:15", "day": "sun", "season": "09-01..06-30"},
        {"time": "06:30", "day": None, "context": "</script><script>alert(1)</script>"},
    ],
    "one_off": [
        {
            "date": "2026-11-26",
            "time": "11:00",
            "church": None,
            "note": "Msza pogrzebowa",
            "source_url": None,
        },
        {"date": None, "time": "12:00", "church": None, "note": "pierwszy piątek", "source_url": None},
    ],
}
# every type and property a document may use, all of schema.org's vocabulary
SCHEMA_TERMS = {
    "types": {"Church", "PostalAddress", "Event", "Schedule"},
    "properties": {
        "@context", "@type", "@id", "url", "sameAs", "name", "address", "event", "streetAddress",
        "addressLocality", "addressRegion", "addressCountry", "eventSchedule", "location", "description",
        "startDate", "endDate", "startTime", "repeatFrequency", "scheduleTimezone", "byDay",
    },
}  # fmt: skip


def terms(node, types: set, properties: set) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            properties.add(key)
            if key == "@type":
                types.add(value)
            terms(value, types, properties)
    elif isinstance(node, list):
        for item in node:
            terms(item, types, properties)


def by_name(doc: dict) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for event in doc["event"]:
        out.setdefault(event["name"], []).append(event)
    return out


def test_every_term_is_schema_org():
    doc = json.loads(script_json(parish_jsonld(PARISH, "http://127.0.0.1/parafia/7")))
    types, properties = set(), set()
    terms(doc, types, properties)
    assert types <= SCHEMA_TERMS["types"] and properties <= SCHEMA_TERMS["properties"]
    assert doc["@context"] == "https://schema.org"
    week = {f"https://schema.org/{d}" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")}
    week |= {"https://schema.org/Saturday", "https://schema.org/Sunday"}
    assert {d for e in doc["event"] for d in e.get("eventSchedule", {}).get("byDay", [])} <= week


def test_one_event_per_regular_mass_with_its_days_church_and_season():
    doc = parish_jsonld(PARISH, "http://127.0.0.1/parafia/7")
    assert doc["@type"] == "Church" and doc["@id"] == doc["url"] == "http://127.0.0.1/parafia/7"
    assert doc["sameAs"] == "http://jozef-lodz.pl/"
    assert doc["address"] == {
        "@type": "PostalAddress",
        "streetAddress": "ul. Ogrodowa 22",
        "addressLocality": "Łódź",
        "addressRegion": "łódzkie",
        "addressCountry": "PL",
    }
    events = [e for e in doc["event"] if "eventSchedule" in e]  # the one-off is a dated Event
    sunday = events[0]
    assert sunday["eventSchedule"] == {
        "@type": "Schedule",
        "startTime": "07:00",
        "repeatFrequency": "P1W",
        "scheduleTimezone": "Europe/Warsaw",
        "byDay": ["https://schema.org/Sunday"],
    }
    assert sunday["url"] == "http://jozef-lodz.pl/msze" and sunday["name"] == "Msza święta niedzielna"
    [weekdays] = [e for e in events if e["eventSchedule"].get("startTime") == "18:00"]
    assert weekdays["eventSchedule"]["byDay"] == [
        f"https://schema.org/{d}" for d in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
    ]
    names = by_name(doc)
    [holy_day] = names["Msza święta w święta nakazane"]
    assert "byDay" not in holy_day["eventSchedule"] and "repeatFrequency" not in holy_day["eventSchedule"]
    [vigil] = names["Msza święta wigilijna (niedzielna)"]
    assert vigil["eventSchedule"]["byDay"] == ["https://schema.org/Saturday"]
    [chapel] = [e for e in events if e["location"]["name"] == "Kaplica w Julianowie"]
    assert chapel["eventSchedule"]["startTime"] == "09:00"
    [school_year] = [e for e in events if e["eventSchedule"].get("startTime") == "13:15"]
    assert (school_year["eventSchedule"]["startDate"], school_year["eventSchedule"]["endDate"]) == (
        "2026-09-01",
        "2027-06-30",
    )
    [summer] = [e for e in events if e["eventSchedule"].get("startTime") == "08:00"]
    assert (summer["eventSchedule"]["startDate"], summer["eventSchedule"]["endDate"]) == (
        "2026-07-01",
        "2026-08-31",
    )
    assert not [e for e in events if e["eventSchedule"].get("startTime") == "06:30"]  # no day: not weekly


def test_a_dated_one_off_is_a_dated_event_and_one_without_a_date_is_left_out():
    events = parish_jsonld(PARISH, None)["event"]
    dated = [e for e in events if "startDate" in e]
    assert [(e["startDate"], e["description"]) for e in dated] == [("2026-11-26T11:00", "Msza pogrzebowa")]
    assert not any(e.get("description") == "pierwszy piątek" for e in events)


def test_schedule_without_season_has_no_dates():
    assert "startDate" not in schedule("09:00", ["sun"])


def test_script_json_cannot_close_the_script_block():
    doc = {"name": "</script><script>alert(1)</script> & <!--"}
    text = script_json(doc)
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == doc


def test_only_absolute_http_urls_go_into_jsonld():
    times = [{"time": "07:00", "day": "sun", "source_url": "data:text/html,<b>x</b>"}]
    doc = parish_jsonld({**PARISH, "website": "javascript:alert(1)", "times": times}, "/parafia/7")
    assert "sameAs" not in doc and "@id" not in doc and "url" not in doc  # a relative page URL too
    assert "url" not in doc["event"][0]


def test_no_impossible_date_is_published():
    """A season's 29 February in a year without one, or a stored "2026-02-30", is left out; a real bound
    stays."""
    assert schedule("07:00", ["sun"], "02-29..03-10", 2026)["endDate"] == "2026-03-10"
    assert "startDate" not in schedule("07:00", ["sun"], "02-29..03-10", 2026)
    assert schedule("07:00", ["sun"], "02-29..03-10", 2028)["startDate"] == "2028-02-29"
    assert "startDate" not in schedule("07:00", ["sun"], dates=("2026-02-30", "2026-03-10"))
    assert "startDate" not in schedule("07:00", ["sun"], "02-30..03-10", 2026)


def test_a_season_of_several_stretches_is_a_schedule_per_stretch():
    parish = {**PARISH, "times": [{"time": "18:00", "day": "fri", "season": "05-01..06-30,10-01..10-31"}]}
    [event] = [e for e in parish_jsonld(parish, None)["event"] if "eventSchedule" in e]
    assert [(s["startDate"], s["endDate"]) for s in event["eventSchedule"]] == [
        ("2026-05-01", "2026-06-30"),
        ("2026-10-01", "2026-10-31"),
    ]
    assert event["name"].endswith("od 01.05 do 30.06, od 01.10 do 31.10")
