"""A fake Google Places server speaking both flavours' real JSON, for tests, demos and benchmarks.

- Places API (New): `POST /v1/places:searchText` with `X-Goog-Api-Key` and `X-Goog-FieldMask`; answers
  `{"places": [...]}` (only the masked fields), `{}` for no result, google.rpc errors: 400 INVALID_ARGUMENT
  "API key not valid" (wrong key) or "FieldMask is a required parameter", 403 PERMISSION_DENIED (blocked key),
  429 RESOURCE_EXHAUSTED (quota).
- Legacy: `GET /maps/api/place/textsearch/json?query=&key=` and
  `/maps/api/place/details/json?place_id=&fields=` with `status` OK / ZERO_RESULTS / OVER_QUERY_LIMIT /
  REQUEST_DENIED / INVALID_REQUEST.

The answers come from a `directory`: exact query text -> list of places
({"id", "name", "address", "website"}).
`directory_for(rows)` builds one from parish rows with every case the spider must handle, and the outcome each
parish should get. `quota` limits how many searches succeed before every answer is a quota error.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qs, urlsplit

from msze.directory.places_api import AMBIGUOUS, NOT_FOUND, OK, queries_for
from msze.testing import FakeServer, QuietHandler
from msze.testing.sample import town_point

NEW_PATH = "/v1/places:searchText"
LEGACY_SEARCH_PATH = "/maps/api/place/textsearch/json"
LEGACY_DETAILS_PATH = "/maps/api/place/details/json"
VALID_KEY = "fake-valid-key"


def directory_for(
    rows: Sequence[Mapping[str, Any]], websites: Sequence[str] | None = None
) -> tuple[dict[str, list[dict[str, str]]], list[dict[str, Any]]]:
    """A fake directory over parish rows, cycling through five cases, and the expected result per row.

    Cases by row index i % 5: 0 found by the full query, 1 found only by the fallback "name city",
    2 two results (AMBIGUOUS, the first taken), 3 nothing (NOT_FOUND), 4 found but the place has no website.
    Expected: {"key_row": row, "status", "url", "place_id", "query"}. `websites[i]` is row i's website (a
    site a demo serves on 127.0.0.1), else `http://parafia-<i>.test/`. Every place has coordinates().
    """
    directory: dict[str, list[dict[str, str]]] = {}
    expected: list[dict[str, Any]] = []
    for i, row in enumerate(rows):
        queries = queries_for(row)
        case = i % 5
        if case == 1 and len(queries) < 2:
            case = 0  # no street: there is no fallback to exercise
        pid = f"ChIJfake{i:04d}"
        site = websites[i] if websites else f"http://parafia-{i}.test/"
        place = {
            "id": pid,
            "name": f"Parafia {row['name']}",
            "address": f"{row['city']}, Polska",
            "website": site,
            **coordinates(row),
        }
        if case == 0:
            directory[queries[0]] = [place]
            expected.append({"row": row, "status": OK, "url": site, "place_id": pid, "query": queries[0]})
        elif case == 1:
            directory[queries[1]] = [place]
            expected.append({"row": row, "status": OK, "url": site, "place_id": pid, "query": queries[1]})
        elif case == 2:
            other = {
                "id": f"{pid}b",
                "name": f"Kościół {row['name']}",
                "address": "",
                "website": site + "kosciol/",
                **coordinates({"name": f"kościół {row['name']}", "city": row["city"]}),
            }
            directory[queries[0]] = [place, other]
            expected.append(
                {"row": row, "status": AMBIGUOUS, "url": site, "place_id": pid, "query": queries[0]}
            )
        elif case == 3:
            expected.append(
                {"row": row, "status": NOT_FOUND, "url": "", "place_id": "", "query": queries[-1]}
            )
        else:
            directory[queries[0]] = [dict(place, website="")]
            expected.append({"row": row, "status": OK, "url": "", "place_id": pid, "query": queries[0]})
    return directory, expected


def coordinates(row: Mapping[str, Any]) -> dict[str, float]:
    """Coordinates in the parish's town when the sample knows it (msze.testing.sample.town_point), else inside
    Poland (49.0–54.8 N, 14.1–24.1 E); the same for the same parish on every run."""
    in_town = town_point(row)
    if in_town is not None:
        return in_town
    digest = hashlib.sha256(f"{row.get('name')}|{row.get('city')}".encode()).digest()
    lat = 49.0 + int.from_bytes(digest[:4]) / 2**32 * 5.8
    lng = 14.1 + int.from_bytes(digest[4:8]) / 2**32 * 10.0
    return {"lat": round(lat, 6), "lng": round(lng, 6)}


def _rpc_error(code: int, status: str, message: str, reason: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if reason:
        error["details"] = [
            {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                "reason": reason,
                "domain": "googleapis.com",
            }
        ]
    return {"error": error}


class FakePlaces(FakeServer):
    """Both flavours over `directory`; `key` is the valid key, `blocked_keys` get 403, `quota` searches."""

    def __init__(
        self,
        directory: Mapping[str, Sequence[Mapping[str, str]]],
        key: str = VALID_KEY,
        quota: int | None = None,
        blocked_keys: Sequence[str] = (),
        unavailable: int = 0,
        delay: float = 0.0,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        super().__init__(host, port)
        self.directory = {q: list(places) for q, places in directory.items()}
        self.key = key
        self.quota = quota
        self.blocked_keys = set(blocked_keys)
        self.searches = 0  # searches answered (successful or not) within quota
        self.unavailable = unavailable  # the first N searches answer 503 UNAVAILABLE (transient)
        self.delay = delay  # seconds before each answer (crash tests need a crawl that takes a while)
        self._count_lock = threading.Lock()
        self._by_id = {p["id"]: p for places in self.directory.values() for p in places}

    @property
    def new_url(self) -> str:
        return self.base_url + NEW_PATH

    @property
    def legacy_search_url(self) -> str:
        return self.base_url + LEGACY_SEARCH_PATH

    @property
    def legacy_details_url(self) -> str:
        return self.base_url + LEGACY_DETAILS_PATH

    def _take_unavailable(self) -> bool:
        with self._count_lock:
            if self.unavailable > 0:
                self.unavailable -= 1
                return True
            return False

    def _take_quota(self) -> bool:
        with self._count_lock:
            if self.quota is not None and self.searches >= self.quota:
                return False
            self.searches += 1
            return True

    # --- new API --------------------------------------------------------------------------------------

    def answer_new(self, key: str | None, mask: str | None, body: bytes) -> tuple[int, dict[str, Any]]:
        if not key or (key != self.key and key not in self.blocked_keys):
            return 400, _rpc_error(
                400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "API_KEY_INVALID"
            )
        if key in self.blocked_keys:
            return 403, _rpc_error(
                403,
                "PERMISSION_DENIED",
                "Requests to this API places.googleapis.com are blocked.",
                "API_KEY_BLOCKED",
            )
        if not mask:
            return 400, _rpc_error(400, "INVALID_ARGUMENT", "FieldMask is a required parameter")
        try:
            query = json.loads(body)["textQuery"]
        except (ValueError, KeyError, TypeError):
            return 400, _rpc_error(400, "INVALID_ARGUMENT", "Invalid JSON payload received.")
        if self._take_unavailable():
            return 503, _rpc_error(503, "UNAVAILABLE", "The service is currently unavailable.")
        if not self._take_quota():
            return 429, _rpc_error(
                429,
                "RESOURCE_EXHAUSTED",
                "Quota exceeded for quota metric 'SearchTextRequest' of service 'places.googleapis.com'.",
                "RATE_LIMIT_EXCEEDED",
            )
        fields = {f.strip().removeprefix("places.") for f in mask.split(",")}
        places = []
        for p in self.directory.get(query, []):
            full = {
                "id": p["id"],
                "displayName": {"text": p["name"], "languageCode": "pl"},
                "formattedAddress": p["address"],
            }
            if "lat" in p:
                full["location"] = {"latitude": p["lat"], "longitude": p["lng"]}
            if p.get("website"):
                full["websiteUri"] = p["website"]
            places.append({k: v for k, v in full.items() if "*" in fields or k in fields})
        return 200, ({"places": places} if places else {})

    # --- legacy API -----------------------------------------------------------------------------------

    def _legacy_denied(self, key: str | None) -> dict[str, Any] | None:
        if key == self.key:
            return None
        return {
            "error_message": "The provided API key is invalid.",
            "html_attributions": [],
            "results": [],
            "status": "REQUEST_DENIED",
        }

    def answer_legacy_search(self, params: dict[str, str]) -> dict[str, Any]:
        denied = self._legacy_denied(params.get("key"))
        if denied:
            return denied
        if not params.get("query"):
            return {"html_attributions": [], "results": [], "status": "INVALID_REQUEST"}
        if not self._take_quota():
            return {
                "error_message": "You have exceeded your daily request quota for this API.",
                "html_attributions": [],
                "results": [],
                "status": "OVER_QUERY_LIMIT",
            }
        results = [
            {
                "place_id": p["id"],
                "name": p["name"],
                "formatted_address": p["address"],
                **({"geometry": {"location": {"lat": p["lat"], "lng": p["lng"]}}} if "lat" in p else {}),
                "types": ["church", "place_of_worship", "point_of_interest", "establishment"],
            }
            for p in self.directory.get(params["query"], [])
        ]
        return {"html_attributions": [], "results": results, "status": "OK" if results else "ZERO_RESULTS"}

    def answer_legacy_details(self, params: dict[str, str]) -> dict[str, Any]:
        denied = self._legacy_denied(params.get("key"))
        if denied:
            return {k: v for k, v in denied.items() if k != "results"}
        place = self._by_id.get(params.get("place_id", ""))
        if place is None:
            return {"html_attributions": [], "status": "NOT_FOUND"}
        result = {"website": place["website"]} if place.get("website") else {}
        return {"html_attributions": [], "result": result, "status": "OK"}

    class handler_class(QuietHandler):  # noqa: N801 - FakeServer's hook
        def _reply(self, status: int, data: dict[str, Any], **extra: Any) -> None:
            fake: FakePlaces = self.server_fake
            if fake.delay:
                time.sleep(fake.delay)
            fake.log(self.command, urlsplit(self.path).path, status, **extra)
            body = json.dumps(data, ensure_ascii=False, indent=2).encode("utf-8")
            self.send_body(status, body, "application/json; charset=UTF-8")

        def do_POST(self) -> None:  # noqa: N802 - http.server's name
            fake: FakePlaces = self.server_fake
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if urlsplit(self.path).path != NEW_PATH:
                self._reply(404, _rpc_error(404, "NOT_FOUND", "Not found"))
                return
            status, data = fake.answer_new(
                self.headers.get("X-Goog-Api-Key"), self.headers.get("X-Goog-FieldMask"), body
            )
            try:
                query = json.loads(body).get("textQuery")
            except (ValueError, AttributeError):
                query = None
            self._reply(status, data, query=query)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            fake: FakePlaces = self.server_fake
            url = urlsplit(self.path)
            params = {k: v[0] for k, v in parse_qs(url.query).items()}
            if url.path == LEGACY_SEARCH_PATH:
                self._reply(200, fake.answer_legacy_search(params), query=params.get("query"))
            elif url.path == LEGACY_DETAILS_PATH:
                self._reply(200, fake.answer_legacy_details(params), place_id=params.get("place_id"))
            else:
                self._reply(404, {"status": "NOT_FOUND"})
