"""The iCalendar feed of a parish (`/parafia/<id>.ics`), parsed back with the `icalendar` library."""

from __future__ import annotations

import datetime as dt

from icalendar import Calendar
from search_fixtures import load_database

from msze.search.app import create_app
from msze.search.ics import parish_calendar


def feed(tmp_path) -> tuple[Calendar, str]:
    client = create_app(load_database(tmp_path), config={"TESTING": True}).test_client()
    pid = client.get("/api/parishes?q=józefa").get_json()["parishes"][0]["id"]
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    assert f'href="/parafia/{pid}.ics"' in page
    response = client.get(f"/parafia/{pid}.ics")
    assert response.status_code == 200 and response.mimetype == "text/calendar"
    assert client.get("/parafia/9999.ics").status_code == 404
    return Calendar.from_ical(response.data), response.get_data(as_text=True)


def events(cal: Calendar) -> list:
    return [c for c in cal.walk("VEVENT")]


def test_weekly_masses_are_weekly_rules_by_day(tmp_path):
    cal, text = feed(tmp_path)
    assert cal["version"] == "2.0" and "BEGIN:VTIMEZONE" in text and "TZID:Europe/Warsaw" in text
    weekly = {
        (e["dtstart"].dt.strftime("%H:%M"), tuple(e["rrule"]["BYDAY"]), str(e["summary"])): e
        for e in events(cal)
        if "rrule" in e
    }
    title = "Msza św. — par. Świętego Józefa"
    assert ("07:00", ("SU",), title) in weekly
    assert ("18:00", ("SU", "MO", "TU", "WE", "TH", "FR"), title) in weekly  # one rule for both
    assert ("19:00", ("SA",), "Msza św. wigilijna — par. Świętego Józefa") in weekly
    assert ("09:00", ("SU",), f"{title} (Kaplica w Julianowie)") in weekly
    sunday = weekly[("07:00", ("SU",), title)]
    assert (
        sunday["dtstart"].dt.tzinfo is not None and str(sunday["dtstart"].params["TZID"]) == "Europe/Warsaw"
    )
    assert str(sunday["url"]) == "http://www.jozef-lodz.pl/porzadek-mszy"  # no BASE_URL: no page URL
    assert "Źródło: http://www.jozef-lodz.pl/porzadek-mszy" in str(sunday["description"])
    assert "ul. Ogrodowa 22" in str(sunday["location"])


def test_a_summer_time_is_bounded_and_holy_days_are_events_of_their_own(tmp_path):
    cal, _ = feed(tmp_path)
    [summer] = [e for e in events(cal) if "rrule" in e and e["dtstart"].dt.strftime("%H:%M") == "20:00"]
    assert summer["dtstart"].dt.date().isoformat()[5:] >= "07-01"
    assert summer["rrule"]["UNTIL"][0].date().isoformat()[5:] == "08-31"
    [weekdays] = [e for e in events(cal) if "rrule" in e and e["dtstart"].dt.strftime("%H:%M") == "18:00"]
    skipped = {d.dt.date().isoformat()[5:] for d in weekdays["exdate"].dts}
    assert "12-25" in skipped or "12-26" in skipped  # no weekday Mass on Christmas: the holy-day times hold
    christmas = [
        e for e in events(cal) if "rrule" not in e and e["dtstart"].dt.date().isoformat()[5:] == "12-25"
    ]
    assert sorted(e["dtstart"].dt.strftime("%H:%M") for e in christmas) == [
        "07:00",
        "09:00",
        "10:30",
        "18:00",
    ]


def test_a_future_one_off_is_a_single_event():
    parish = {
        "id": 1,
        "name": "Świętej Anny",
        "city": "Zalesie",
        "address": ["ul. Polna 1"],
        "times": [],
        "one_off": [
            {
                "date": "2026-12-10",
                "time": "11:00",
                "church": None,
                "note": "Msza pogrzebowa",
                "source_url": None,
            },
            {"date": "2026-11-10", "time": "11:00", "church": None, "note": "dawno", "source_url": None},
        ],
    }
    now = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    cal = Calendar.from_ical(parish_calendar(parish, now.date(), now))
    [one] = events(cal)
    assert (
        one["dtstart"].dt.isoformat() == "2026-12-10T11:00:00+01:00"
        and str(one["description"]) == "Msza pogrzebowa"
    )


def test_uids_are_unique_per_event_and_the_same_in_every_feed(tmp_path):
    """A season that falls twice in the feed (winter, Advent: November 2026 and 2027) is an event per stretch,
    each with its own UID; the same data gives the same UIDs from one request to the next."""
    from sqlalchemy import insert, select

    from msze.search.db import make_engine, mass_times, parishes
    from msze.search.query import get_parish

    db = load_database(tmp_path)
    engine = make_engine(db)
    with engine.begin() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        rows = [("sun", "16:16", "winter"), ("mon", "06:30", "advent"), ("tue", "06:30", "advent"),
                ("sun", "16:16", "winter"), ("fri", "17:17", "lent")]  # fmt: skip  # winter stored twice
        conn.execute(
            insert(mass_times),
            [{"parish_id": pid, "day": d, "time": t, "minute": int(t[:2]) * 60 + int(t[3:]), "season": s}
             for d, t, s in rows],
        )  # fmt: skip
    now = dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC)  # in Advent and winter; the feed ends 1 December 2027
    client = create_app(db, config={"TESTING": True, "NOW": now}).test_client()
    feeds = [Calendar.from_ical(client.get(f"/parafia/{pid}.ics").data) for _ in range(2)]
    uids = [[str(e["uid"]) for e in events(cal)] for cal in feeds]
    assert len(uids[0]) == len(set(uids[0])) and uids[0] == uids[1]
    advent = [e for e in events(feeds[0]) if e["dtstart"].dt.strftime("%H:%M") == "06:30"]
    assert sorted(e["dtstart"].dt.date().isoformat() for e in advent) == ["2026-11-30", "2027-11-29"]
    times = [(e["dtstart"].dt.strftime("%H:%M"), "rrule" in e) for e in events(feeds[0])]
    winter = [e for e, time in zip(events(feeds[0]), times, strict=True) if time == ("16:16", True)]
    assert len(winter) == 2  # two stretches of winter, each a weekly rule
    # 25, 26 Dec, 1, 6 Jan, Easter (28 Mar 2027), 1 Nov 2027: each twice, as stored twice, with unique UIDs
    assert times.count(("16:16", False)) == 2 * 6

    with engine.connect() as conn:
        parish = get_parish(conn, pid)
    engine.dispose()
    two_years = [Calendar.from_ical(parish_calendar(parish, now.date(), now, horizon_days=731)) for _ in "ab"]
    uids = [[str(e["uid"]) for e in events(cal)] for cal in two_years]
    assert len(uids[0]) == len(set(uids[0])) and uids[0] == uids[1]
    lent = [e for e in events(two_years[0]) if e["dtstart"].dt.strftime("%H:%M") == "17:17"]
    assert len(lent) == 2  # Lent 2027 and 2028
    # a stretch keeps its UID as the feed's first day moves on within it (tomorrow's feed, winter 2026/27)
    tomorrow = Calendar.from_ical(parish_calendar(parish, now.date() + dt.timedelta(days=1), now))
    assert {str(e["uid"]) for e in winter} <= {str(e["uid"]) for e in events(tomorrow)}


def test_under_base_url_a_webcal_link_and_events_named_for_the_parish_at_their_church(tmp_path):
    """The page offers `webcal://` beside the download; each event is "Msza św. — par. X (kaplica Y)", at
    the chapel's own address when the directory locates it apart, with the parish's page as its URL."""
    from sqlalchemy import insert, select

    from msze.search.db import churches, make_engine, parishes

    db = load_database(tmp_path)
    engine = make_engine(db)
    with engine.begin() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        conn.execute(
            insert(churches),
            [{"parish_id": pid, "name": "Kaplica w Julianowie", "address": "ul. Julianowska 5\n91-001 Łódź",
              "lat": 51.80, "lng": 19.45}],
        )  # fmt: skip
    engine.dispose()
    app = create_app(db, config={"TESTING": True, "BASE_URL": "https://msze.example.org"})
    client = app.test_client()
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    assert f'href="webcal://msze.example.org/parafia/{pid}.ics"' in page
    assert f'href="/parafia/{pid}.ics"' in page  # the download beside it
    cal = Calendar.from_ical(client.get(f"/parafia/{pid}.ics").data)  # icalendar parses it back
    found = events(cal)
    assert found and all({"UID", "DTSTAMP", "DTSTART", "SUMMARY", "LOCATION", "URL"} <= set(e) for e in found)
    assert {str(e["url"]) for e in found} == {f"https://msze.example.org/parafia/{pid}"}
    chapel = [e for e in found if "Kaplica" in str(e["summary"])]
    assert chapel and {str(e["summary"]) for e in chapel} == {
        "Msza św. — par. Świętego Józefa (Kaplica w Julianowie)"
    }
    assert {str(e["location"]) for e in chapel} == {"Kaplica w Julianowie, ul. Julianowska 5, 91-001 Łódź"}
    parish_church = [e for e in found if str(e["summary"]) == "Msza św. — par. Świętego Józefa"]
    assert parish_church and all("ul. Ogrodowa 22" in str(e["location"]) for e in parish_church)
    assert Calendar.from_ical(cal.to_ical()).to_ical() == cal.to_ical()  # a well-formed round trip


def test_a_season_of_several_stretches_is_an_event_per_stretch_in_its_months_only():
    """ "15:30 (z wyjątkiem I, VII, VIII)": February to June and September to December, each stretch a
    weekly rule from its first Sunday until its end (the feed's end for the last); none in January, July or
    August."""
    season = "02-01..06-30,09-01..12-31"
    parish = {"id": 1, "name": "Świętej Anny", "city": "Zalesie", "address": ["ul. Polna 1"], "one_off": [],
              "times": [{"time": "15:30", "day": "sun", "season": season, "source_url": None}]}  # fmt: skip
    now = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
    cal = Calendar.from_ical(parish_calendar(parish, now.date(), now))
    stretches = [
        (e["dtstart"].dt.date().isoformat(), e["rrule"]["UNTIL"][0].date().isoformat())
        for e in events(cal)
        if "rrule" in e
    ]
    assert stretches == [
        ("2026-12-06", "2026-12-31"),
        ("2027-02-07", "2027-06-30"),
        ("2027-09-05", "2027-12-02"),
    ]
