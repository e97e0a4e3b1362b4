"""A parish schedule as schema.org JSON-LD, in the shape of the Mass Times Protocol.

The parish is a `Church`; each regular Mass (a time at one church in one season) is an `Event` whose
`eventSchedule` is a weekly `Schedule` (`byDay` per day of the week, `startTime`, `repeatFrequency`,
`scheduleTimezone`; `startDate`/`endDate` for a season given as a date range, a `Schedule` per stretch of
one given as several) and whose `location` names its
church or chapel. Holy days are entries of their own with no weekly repetition (schema.org has no day of the
week for them), a time of no known day is left out rather than published as weekly, and a one-off Mass with
its date is a dated `Event`; a date that is no real day ("2026-02-30", a season "02-30..11-31") is never
written. Only absolute http(s) URLs are written into
`url`, `@id` and `sameAs`: a crawled `javascript:` link, or a page URL that is relative, is left out.
"""

from __future__ import annotations

import json

from msze.search.calendar import full_date, one_off_start, season_bounds
from msze.search.query import season_label
from msze.search.urls import safe_url
from msze.utils.vocabulary import dated_season

TIMEZONE = "Europe/Warsaw"
_SCHEMA = "https://schema.org/"
BY_DAY = {
    "sun": _SCHEMA + "Sunday",
    "mon": _SCHEMA + "Monday",
    "tue": _SCHEMA + "Tuesday",
    "wed": _SCHEMA + "Wednesday",
    "thu": _SCHEMA + "Thursday",
    "fri": _SCHEMA + "Friday",
    "sat": _SCHEMA + "Saturday",
}


def schedule(
    time: str,
    days: list[str],
    season: str | None = None,
    year: int | None = None,
    dates: tuple = (None, None),
) -> dict:
    """One weekly Schedule: `byDay` for its days of the week; `startDate`/`endDate` from the result's own
    dates, else from a season given as a date range (in the year of the crawl; over New Year it ends the next
    year)."""
    item: dict = {
        "@type": "Schedule",
        "startTime": time,
        "repeatFrequency": "P1W",
        "scheduleTimezone": TIMEZONE,
        "byDay": [BY_DAY[d] for d in days if d in BY_DAY],
    }
    bounds = season_bounds(season)
    if bounds and len(bounds) == 1 and year and not any(dates):
        start, end = (f"{month:02d}-{day:02d}" for month, day in bounds[0])
        dates = (f"{year}-{start}", f"{year + (end < start)}-{end}")
    dates = tuple(d if full_date(d) else None for d in dates)  # no "2026-02-30", nor 02-29 of 2026
    if dates[0]:
        item["startDate"] = dates[0]
    if dates[1]:
        item["endDate"] = dates[1]
    return item


def _groups(times: list[dict]) -> dict[tuple, list[str]]:
    """Weekly times grouped by (time, church, season, vigil, source page, dates) with their days."""
    groups: dict[tuple, list[str]] = {}
    for t in times:
        dates = (t.get("start_date"), t.get("end_date"))
        key = (t["time"], t.get("church"), t.get("season"), bool(t.get("vigil")), t.get("source_url"), dates)
        groups.setdefault(key, []).append(t.get("day") or "")
    return groups


def _event_name(days: list[str], vigil: bool, season: str | None) -> str:
    if vigil:
        name = "Msza święta wigilijna (niedzielna)"
    elif days == ["sun"]:
        name = "Msza święta niedzielna"
    else:
        name = "Msza święta"
    return f"{name}, {season_label(season)}" if season else name


def parish_jsonld(parish: dict, page_url: str | None = None) -> dict:
    """The JSON-LD document for a parish dict from `query.get_parish`."""
    address_lines = parish.get("address") or []
    place: dict = {
        "@context": "https://schema.org",
        "@type": "Church",
        "name": f"Parafia {parish['name']}",
        "address": {
            "@type": "PostalAddress",
            "streetAddress": ", ".join(address_lines[1:-1] or address_lines[:1]),
            "addressLocality": parish["city"],
            "addressRegion": parish.get("voivodeship") or None,
            "addressCountry": "PL",
        },
    }
    if safe_url(page_url):
        place["@id"] = place["url"] = safe_url(page_url)
    if safe_url(parish.get("website")):
        place["sameAs"] = safe_url(parish["website"])
    events = []
    year = int(parish["crawled_at"][:4]) if parish.get("crawled_at") else None
    for (time, church, season, vigil, source, dates), days in _groups(parish.get("times", [])).items():
        if season and ".." in season and season_bounds(season) is None:
            continue  # "02-30..11-31": when it is held cannot be known, and it is not every week
        location = {"@type": "Church", "name": church or place["name"], "address": place["address"]}
        weekly = [d for d in days if d in BY_DAY]
        entries = [weekly] if weekly else []
        if "holiday" in days:  # a holy day has no day of the week: an entry of its own, not a weekly one
            entries.append(["holiday"])
        for entry_days in entries:
            event: dict = {"@type": "Event", "location": dict(location)}
            if entry_days == ["holiday"]:
                event["name"] = "Msza święta w święta nakazane"
                event["eventSchedule"] = {
                    "@type": "Schedule",
                    "startTime": time,
                    "scheduleTimezone": TIMEZONE,
                }
            else:
                event["name"] = _event_name(entry_days, vigil, season)
                # a season of several stretches ("V, VI, X"): a Schedule for each
                stretches = [dated_season([span]) for span in season_bounds(season) or ()] or [season]
                schedules = [schedule(time, entry_days, s, year, dates) for s in stretches]
                event["eventSchedule"] = schedules[0] if len(schedules) == 1 else schedules
            if safe_url(source):
                event["url"] = safe_url(source)
            events.append(event)
    for one in parish.get("one_off", []):
        if one_off_start(one) is None:
            continue  # a one-off without a real full date ("MM-DD", "2026-02-30") cannot be a dated Event
        event = {
            "@type": "Event",
            "name": "Msza święta",
            "description": one.get("note") or None,
            "startDate": f"{one['date']}T{one['time']}",
            "location": {
                "@type": "Church",
                "name": one.get("church") or place["name"],
                "address": place["address"],
            },
        }
        if safe_url(one.get("source_url")):
            event["url"] = safe_url(one["source_url"])
        events.append({k: v for k, v in event.items() if v is not None})
    place["event"] = events
    place["address"] = {key: value for key, value in place["address"].items() if value}
    for event in events:
        event["location"]["address"] = place["address"]
    return place


def script_json(data: dict) -> str:
    """JSON safe inside <script type="application/ld+json">: `<`, `>`, `&` escaped as \\u003c etc., so text
    like "</script>" cannot end the block (JSON parsers read the escapes back as the same characters)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
