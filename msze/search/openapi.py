"""The OpenAPI 3.1 document of the JSON API and the CSV export: data in `openapi.json`, completed here.

The file holds everything a reader of the API needs; the code adds only what it decides itself, so the two
cannot disagree: the server root (BASE_URL), the day categories, the page sizes, and the CSV export's
parameters (the search filters without paging). tests/web/test_search_openapi.py checks the document against
the app's URL map.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from msze.search.db import DAYS
from msze.search.params import DEFAULT_PER_PAGE, MAX_PER_PAGE

SPEC_FILE = Path(__file__).with_name("openapi.json")
_NOT_FOR_CSV = ("page", "per_page")  # the export walks every page itself


@cache
def _spec_text() -> str:
    return SPEC_FILE.read_text(encoding="utf-8")


def openapi_document(server: str) -> dict:
    """The document served at /api/openapi.json, with `server` as its only server URL."""
    spec = json.loads(_spec_text())  # a fresh copy per call: callers may change it
    spec["servers"] = [{"url": server}]
    search = spec["paths"]["/api/parishes"]["get"]
    for path in ("/api/parishes", "/api/masses"):
        parameters = {parameter["name"]: parameter for parameter in spec["paths"][path]["get"]["parameters"]}
        parameters["per_page"]["schema"].update(maximum=MAX_PER_PAGE, default=DEFAULT_PER_PAGE)
    spec["components"]["schemas"]["MassTime"]["properties"]["day"]["enum"] = [*DAYS, None]
    spec["paths"]["/eksport.csv"]["get"]["parameters"] = [
        parameter for parameter in search["parameters"] if parameter["name"] not in _NOT_FOR_CSV
    ]
    return spec
