"""Google Places look-ups for parishes: query building, both API flavours' JSON, outcomes and error classes.

Pure functions (no Scrapy, no network), so the spider only moves requests and the decisions are tested here.
The thesis: Text Search with "name street city"; when nothing is found, again with "name city"; of several
results the first is taken and the parish is marked AMBIGUOUS (often two entries of one parish, same website).
Two flavours:
- "new": Places API (New) `POST places:searchText` with a field mask that includes `places.websiteUri`, so one
  paid request per parish gives the website;
- "legacy": Text Search (`textsearch/json`) then Place Details (`details/json?fields=website`), as the
  thesis did.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from msze.directory.deon_parser import ADDRESS_SEPARATOR, parish_key

OK = "OK"
AMBIGUOUS = "AMBIGUOUS"
NOT_FOUND = "NOT_FOUND"
OUTCOMES = (OK, AMBIGUOUS, NOT_FOUND)

# What an API answer means for the crawl.
FOUND = "found"  # one or more places
ZERO = "zero"  # no place for this query: try the fallback, or NOT_FOUND
QUOTA = "quota"  # quota or rate limit: back off, then stop cleanly and resume later
INVALID_KEY = "invalid_key"  # stop at once: every further request would fail the same way
TRANSIENT = "transient"  # server trouble: retry with backoff
BAD_REQUEST = "bad_request"  # this query was refused: record nothing for the parish, go on

API_NEW = "new"
API_LEGACY = "legacy"

_POSTAL = re.compile(r"^\d{2}-\d{3}\b")
_VOIVODESHIP = re.compile(r"^woj\.?\s", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_INVALID_KEY_TEXT = re.compile(
    r"api key not valid|api_key_invalid|provided api key is invalid", re.IGNORECASE
)


@dataclass(frozen=True)
class Place:
    """One search result: its id, name, address and (when asked for and known) website."""

    place_id: str
    name: str = ""
    address: str = ""
    website: str | None = None  # None: not asked (legacy search); "": asked, the place has none
    lat: float | None = None  # the place's coordinates (WGS 84), when the answer has them
    lng: float | None = None


def coordinate(value: Any, limit: float) -> float | None:
    """A latitude (limit 90) or longitude (limit 180) within ±limit, else None (a string, NaN or 1e400 is no
    coordinate)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if -limit <= number <= limit else None


@dataclass(frozen=True)
class Answer:
    """An API answer classified: `kind` is one of FOUND, ZERO, QUOTA, INVALID_KEY, TRANSIENT, BAD_REQUEST."""

    kind: str
    places: list[Place] = field(default_factory=list)
    message: str = ""


def _squeeze(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def street_of(record: Mapping[str, Any]) -> str:
    """The street line of a parish address (deon lines: name, street, "00-000 City", "woj. X").

    Lines equal to the name or the city, postal-code lines and the voivodeship line are not streets; a village
    address like "Gostomia 4" is kept (it is what a letter would carry).
    """
    address = record.get("address") or []
    if isinstance(address, str):
        address = address.split("|")
    name = _squeeze(str(record.get("name") or "")).casefold()
    city = _squeeze(str(record.get("city") or "")).casefold()
    for line in address:
        line = _squeeze(str(line))
        folded = line.casefold()
        if not line or folded in (name, city) or _POSTAL.match(line) or _VOIVODESHIP.match(line):
            continue
        return line
    return ""


def queries_for(record: Mapping[str, Any]) -> list[str]:
    """The Text Search queries for a parish, in order: "name street city", then the fallback "name city".

    The fallback is dropped when it equals the first query (no street known). A church record
    (church_records) falls back to its address alone.
    """
    name = _squeeze(str(record.get("name") or ""))
    city = _squeeze(str(record.get("city") or ""))
    street = street_of(record)
    result: list[str] = []
    # a church: its name and address, then the address alone (its name alone may be anywhere in Poland)
    fallback = (street,) if record.get("church") else (name, city)
    for parts in ((name, street, city), fallback):
        query = " ".join(p for p in parts if p)
        if query and query not in result:
            result.append(query)
    return result


Bad = Callable[[str], None]  # told why one value was skipped


def result_object(line: str) -> tuple[dict[str, Any] | None, str]:
    """A results.jsonl line as its object, or (None, why not): not JSON, JSON nested deeper than the parser
    goes (json raises RecursionError there, which no JSON reader expects), no object, or a `start_url` or
    `churches` of the wrong type."""
    try:
        obj = json.loads(line)
    except RecursionError:
        return None, "JSON nested deeper than the parser allows"
    except ValueError as exc:
        return None, f"not JSON ({exc})"
    if not isinstance(obj, dict):
        return None, f"a JSON {type(obj).__name__}, not an object"
    if not isinstance(obj.get("start_url"), str):
        return None, f"start_url is {type(obj.get('start_url')).__name__}, not a string"
    if not isinstance(obj.get("churches"), list | None):
        return None, f"churches is {type(obj['churches']).__name__}, not a list"
    return obj, ""


def read_results(
    lines: Iterable[str], on_bad: Callable[[int, str], None]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of results.jsonl lines; each bad line (result_object) goes to
    `on_bad(line number, why)` and the lines after it are still read."""
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        obj, problem = result_object(line)
        if obj is None:
            on_bad(number, problem)
        else:
            yield number, obj


def church_records(
    results: Iterable[Mapping[str, Any]], on_bad: Bad | None = None
) -> Iterator[dict[str, Any]]:
    """The lookups for a crawl's other churches: each church a site gives an address for (results.jsonl's
    `churches`), shaped as a parish record (its name and address) with its parish's `start_url`. A church
    that is no object, or whose name or address is no string, goes to `on_bad(why)`; one without an address
    is no lookup."""
    for result in results:
        found = result.get("churches")
        for church in found if isinstance(found, list) else ():
            if not isinstance(church, Mapping):
                _tell(on_bad, f"a church is {type(church).__name__}, not an object")
                continue
            name, address = church.get("name") or "", church.get("address") or ""
            if not isinstance(name, str) or not isinstance(address, str):
                _tell(on_bad, f"church {name!r:.80}: its name or address is no string")
                continue
            name, address = _squeeze(name), _squeeze(address)
            if name and address:
                yield {"name": name, "city": "", "address": [address], "church": name,
                       "start_url": result.get("start_url") or ""}  # fmt: skip


def _tell(on_bad: Bad | None, message: str) -> None:
    if on_bad is not None:
        on_bad(message)


@dataclass
class ChurchCap:
    """At most `limit` distinct church lookups per parish (`start_url`), in input order (0 = no cap), so one
    site listing 2 000 chapels cannot cost 4 000 paid calls. Lookups already done in an earlier run count too,
    so a resumed run picks the same churches."""

    limit: int
    kept: dict[str, set[tuple[str, str, str]]] = field(default_factory=dict)
    cut: Counter[str] = field(default_factory=Counter)  # lookups left out, by start_url

    def admits(self, record: Mapping[str, Any]) -> bool:
        """Whether the church's lookup is within its parish's cap (a repeat of an admitted one is)."""
        if not self.limit or not record.get("church"):
            return True
        kept = self.kept.setdefault(str(record.get("start_url") or ""), set())
        key = lookup_key(record)
        if key in kept or len(kept) < self.limit:
            kept.add(key)
            return True
        self.cut[key[0]] += 1
        return False


def lookup_key(record: Mapping[str, Any]) -> tuple[str, str, str]:
    """What a lookup is done once for: a parish (name, city, address), or a church of the parish crawled from
    `start_url` (two parishes may each have a "Kaplica cmentarna, ul. Cmentarna 1")."""
    if record.get("church"):
        address = record.get("address") or []
        line = address if isinstance(address, str) else ADDRESS_SEPARATOR.join(address)
        return (str(record.get("start_url") or ""), str(record["church"]), line)
    return parish_key(record)


def outcome(places: Sequence[Place]) -> str:
    """OK for one result, AMBIGUOUS for several (the first is taken), NOT_FOUND for none."""
    if not places:
        return NOT_FOUND
    return OK if len(places) == 1 else AMBIGUOUS


def _load(body: bytes | str) -> Any:
    try:
        return json.loads(body)
    except (ValueError, TypeError):
        return None


# --- Places API (New) ---------------------------------------------------------------------------------


def new_search_body(query: str, language: str = "pl", region: str = "pl") -> str:
    """JSON body of a `places:searchText` request."""
    body: dict[str, str] = {"textQuery": query}
    if language:
        body["languageCode"] = language
    if region:
        body["regionCode"] = region
    return json.dumps(body, ensure_ascii=False)


def classify_new_error(status: int, data: Any) -> Answer:
    """Classify a non-200 answer of the new API (google.rpc error: {"error": {code, message, status}})."""
    error = data.get("error", {}) if isinstance(data, dict) else {}
    rpc_status = str(error.get("status") or "")
    message = str(error.get("message") or f"HTTP {status}")
    details = json.dumps(error.get("details") or [])
    if status == 429 or rpc_status == "RESOURCE_EXHAUSTED":
        return Answer(QUOTA, message=message)
    if status in (401, 403) or rpc_status in ("PERMISSION_DENIED", "UNAUTHENTICATED"):
        return Answer(INVALID_KEY, message=message)
    if status == 400 and (_INVALID_KEY_TEXT.search(message) or "API_KEY_INVALID" in details):
        return Answer(INVALID_KEY, message=message)
    if status >= 500 or status == 408 or rpc_status in ("UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED"):
        return Answer(TRANSIENT, message=message)
    return Answer(BAD_REQUEST, message=message)


def parse_new_search(status: int, body: bytes | str) -> Answer:
    """Classify a `places:searchText` answer: {"places": [...]} found, {} zero results, else an error."""
    data = _load(body)
    if status != 200:
        return classify_new_error(status, data)
    if not isinstance(data, dict):
        return Answer(TRANSIENT, message="answer is not JSON")
    places = []
    for item in data.get("places") or []:
        if not isinstance(item, dict) or not item.get("id"):
            continue
        display = item.get("displayName")
        places.append(
            Place(
                place_id=str(item["id"]),
                name=str(display.get("text", "")) if isinstance(display, dict) else "",
                address=str(item.get("formattedAddress") or ""),
                website=str(item.get("websiteUri") or ""),
                **_lat_lng(item.get("location"), "latitude", "longitude"),
            )
        )
    return Answer(FOUND, places) if places else Answer(ZERO)


# --- Legacy Text Search + Place Details ----------------------------------------------------------------


def _lat_lng(location: Any, lat: str = "lat", lng: str = "lng") -> dict[str, float | None]:
    """{"lat", "lng"} of a `location`: {"latitude", "longitude"} in the new API, {"lat", "lng"} in the old."""
    if not isinstance(location, dict):
        return {"lat": None, "lng": None}
    return {"lat": coordinate(location.get(lat), 90), "lng": coordinate(location.get(lng), 180)}


def legacy_search_url(base_url: str, query: str, key: str, language: str = "pl", region: str = "pl") -> str:
    params = {"query": query, "key": key}
    if language:
        params["language"] = language
    if region:
        params["region"] = region
    return f"{base_url}?{urlencode(params)}"


def legacy_details_url(base_url: str, place_id: str, key: str, language: str = "pl") -> str:
    params = {"place_id": place_id, "fields": "website", "key": key}
    if language:
        params["language"] = language
    return f"{base_url}?{urlencode(params)}"


def classify_legacy_status(api_status: str, message: str = "", http_status: int = 200) -> Answer:
    """Map a legacy `status`: OVER_QUERY_LIMIT quota, REQUEST_DENIED invalid key, UNKNOWN_ERROR transient."""
    if api_status == "OVER_QUERY_LIMIT":
        return Answer(QUOTA, message=message or api_status)
    if api_status == "REQUEST_DENIED":
        return Answer(INVALID_KEY, message=message or api_status)
    if api_status == "UNKNOWN_ERROR" or http_status >= 500 or http_status == 429:
        return Answer(TRANSIENT, message=message or api_status or f"HTTP {http_status}")
    if api_status in ("ZERO_RESULTS", "NOT_FOUND"):
        return Answer(ZERO, message=message)
    return Answer(BAD_REQUEST, message=message or api_status or f"HTTP {http_status}")


def parse_legacy_search(status: int, body: bytes | str) -> Answer:
    """Classify a `textsearch/json` answer: {"results": [...], "status": "OK" | "ZERO_RESULTS" | ...}."""
    data = _load(body)
    if not isinstance(data, dict):
        return Answer(TRANSIENT, message=f"HTTP {status}, answer is not JSON")
    api_status = str(data.get("status") or "")
    if status == 200 and api_status == "OK":
        places = [
            Place(
                place_id=str(r["place_id"]),
                name=str(r.get("name") or ""),
                address=str(r.get("formatted_address") or ""),
                **_lat_lng(
                    (r.get("geometry") or {}).get("location") if isinstance(r.get("geometry"), dict) else None
                ),
            )
            for r in data.get("results") or []
            if isinstance(r, dict) and r.get("place_id")
        ]
        return Answer(FOUND, places) if places else Answer(ZERO)
    return classify_legacy_status(api_status, str(data.get("error_message") or ""), status)


def parse_legacy_details(status: int, body: bytes | str) -> tuple[Answer, str]:
    """Classify a `details/json?fields=website` answer, with the website ("" when the place has none)."""
    data = _load(body)
    if not isinstance(data, dict):
        return Answer(TRANSIENT, message=f"HTTP {status}, answer is not JSON"), ""
    api_status = str(data.get("status") or "")
    if status == 200 and api_status == "OK":
        result = data.get("result") or {}
        return Answer(FOUND), str(result.get("website") or "") if isinstance(result, dict) else ""
    return classify_legacy_status(api_status, str(data.get("error_message") or ""), status), ""


def place_record(
    parish: Mapping[str, Any], places: Sequence[Place], website: str, query: str
) -> dict[str, Any]:
    """The PlaceItem fields: the parish's own fields plus url, place_id, status and the query that decided."""
    record = {k: parish.get(k) for k in ("name", "city", "address", "diocese", "decanate", "voivodeship")}
    for key in ("deon_url", "start_url", "church"):
        if parish.get(key):
            record[key] = parish[key]
    record.update(
        url=website or "",
        place_id=places[0].place_id if places else "",
        status=outcome(places),
        query=query,
        lat=places[0].lat if places else None,
        lng=places[0].lng if places else None,
    )
    return record


def redact(text: str, secret: str) -> str:
    """The text with every occurrence of the secret (the API key) replaced, for logs and error messages."""
    return text.replace(secret, "<GOOGLE_MAPS_API_KEY>") if secret else text
