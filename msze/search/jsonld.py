"""A parish schedule as schema.org JSON-LD, in the shape of the Mass Times Protocol.

The parish is a `Church`; each Mass time is an `Event` whose `eventSchedule` is a weekly `Schedule`
(`byDay`, `startTime`, `repeatFrequency`, `scheduleTimezone`; seasonal `startDate`/`endDate` where a time
carries them). Times whose day is a feast (holiday) or unknown get no `byDay`: schema.org has no day of the
week for them, and inventing one would publish a wrong time. Only absolute http(s) URLs are written into
`url`, `@id` and `sameAs`: a crawled `javascript:` link, or a page URL that is relative, is left out.
"""

from __future__ import annotations

import json

from msze.search.urls import safe_url

TIMEZONE = "Europe/Warsaw"
_WEEK = "https://schema.org/"
BY_DAY = {
    "sunday": [_WEEK + "Sunday"],
    "saturday": [_WEEK + "Saturday"],
    "weekday": [_WEEK + day for day in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")],
}
EVENT_NAMES = {
    "sunday": "Msza święta niedzielna",
    "holiday": "Msza święta w święta",
    "saturday": "Msza święta w sobotę",
    "weekday": "Msza święta w dni powszednie",
}


def schedule(time: dict) -> dict:
    """One weekly Schedule for a time dict (`time`, `day`, optional `start_date`/`end_date`)."""
    item: dict = {
        "@type": "Schedule",
        "startTime": time["time"],
        "repeatFrequency": "P1W",
        "scheduleTimezone": TIMEZONE,
    }
    if time.get("day") in BY_DAY:
        item["byDay"] = BY_DAY[time["day"]]
    if time.get("start_date"):
        item["startDate"] = time["start_date"]
    if time.get("end_date"):
        item["endDate"] = time["end_date"]
    return item


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
    for time in parish.get("times", []):
        event: dict = {
            "@type": "Event",
            "name": EVENT_NAMES.get(time.get("day") or "", "Msza święta"),
            "eventSchedule": schedule(time),
            "location": {"@type": "Church", "name": place["name"], "address": place["address"]},
        }
        if safe_url(time.get("source_url")):
            event["url"] = safe_url(time["source_url"])
        events.append(event)
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
