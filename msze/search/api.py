"""The machine-readable side: the JSON API, its OpenAPI document, and the CSV export of a search.

Links in the API (`url`, `html_url`, `next`) and the JSON-LD `@id` are relative, or absolute under BASE_URL;
never built from the Host header.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from urllib.parse import urlencode

from flask import Blueprint, Response, current_app, jsonify, request

from msze.search import query
from msze.search.gazetteer import KINDS
from msze.search.jsonld import parish_jsonld
from msze.search.openapi import openapi_document
from msze.search.params import (
    MAX_PER_PAGE,
    MAX_QUERY_LENGTH,
    MAX_WINDOW_DAYS,
    SERVICES,
    InvalidQuery,
    SearchParams,
    page_count,
    parse_moment,
    parse_near,
    parse_paging,
    parse_params,
    parse_radius,
)
from msze.search.web import conn, next_masses, places, public_url
from msze.search.web import now as current_now

bp = Blueprint("api", __name__)

CSV_HEADER = ["parish_id", "parafia", "miejscowosc", "diecezja", "adres", "strona", "dzien", "godzina",
              "zrodlo", "zdanie", "odczytane_przez", "pobrano"]  # fmt: skip


@bp.get("/api/parishes")
def search() -> Response | tuple[Response, int]:
    try:
        params = parse_params(request.args)
    except InvalidQuery as exc:
        return jsonify(error=str(exc)), 400
    result = query.search(conn(), params)
    for item in result.parishes:
        item["url"] = public_url("api.parish", parish_id=item["id"])
        item["html_url"] = public_url("views.parish_page", parish_id=item["id"])
    body = {
        "total": result.total,
        "page": params.page,
        "per_page": params.per_page,
        "pages": result.pages,
        "parishes": result.parishes,
    }
    if params.page < result.pages:
        body["next"] = public_url("api.search", **params.as_args(page=params.page + 1))
    return jsonify(body)


_MASSES_ARGS = ("near", "radius", "from", "to", "service", "per_page")  # what a `next` link carries over


@bp.get("/api/masses")
def masses() -> Response | tuple[Response, int]:
    """The next Masses (`service=confession`: confession times) near a point: `near`, `radius`, `from`
    (default now), `to` (default the next noon)."""
    now = current_now()
    try:
        near = parse_near(request.args.get("near") or "")
        if near is None:
            raise InvalidQuery("Podaj parametr „near” (SZEROKOŚĆ,DŁUGOŚĆ)")
        radius = parse_radius(request.args.get("radius") or "")
        start = parse_moment(request.args.get("from") or "", "from", now)
        end = parse_moment(request.args["to"], "to", now) if request.args.get("to") else None
        if end is not None and not start <= end <= start + timedelta(days=MAX_WINDOW_DAYS):
            raise InvalidQuery(f"„to” musi być po „from”, najwyżej {MAX_WINDOW_DAYS} dni później")
        service = request.args.get("service") or "mass"
        if service not in SERVICES:
            raise InvalidQuery(f"Parametr „service” to mass albo confession, a jest: {service[:20]!r}")
        page, per_page = parse_paging(request.args)
    except InvalidQuery as exc:
        return jsonify(error=str(exc)), 400
    found = next_masses(near, radius, start, end, service)
    pages = page_count(len(found), per_page)
    shown = found[(page - 1) * per_page : page * per_page]
    for item in shown:
        item["html_url"] = public_url("views.parish_page", parish_id=item["parish_id"])
    body = {"total": len(found), "page": page, "per_page": per_page, "pages": pages, "masses": shown}
    if page < pages:
        kept = {name: request.args[name] for name in _MASSES_ARGS if request.args.get(name)}
        kept["from"] = start.isoformat(timespec="minutes")  # "now" would move on between pages
        body["next"] = public_url("api.masses", **kept, page=str(page + 1))
    return jsonify(body)


@bp.get("/api/miejsca")
def place_suggestions() -> Response:
    """Places of the directory whose name starts with `q` (the form's suggestions while typing)."""
    text = (request.args.get("q") or "")[:MAX_QUERY_LENGTH]
    found = places().suggest(text)
    items = [{"label": p.label, "kind": KINDS[p.kind], "lat": p.lat, "lng": p.lng, "parishes": p.parishes}
             for p in found]  # fmt: skip
    response = jsonify(places=items)
    response.headers["Cache-Control"] = "public, max-age=300"
    return response


@bp.get("/api/parishes/<id:parish_id>")
def parish(parish_id: int) -> Response | tuple[Response, int]:
    found = query.get_parish(conn(), parish_id)
    if found is None:
        return jsonify(error=f"Nie ma parafii o id {parish_id}"), 404
    found.pop("schedule")  # the page's grouping of `times`
    found.pop("attempted_at")  # the page's note on a failed crawl
    found["html_url"] = public_url("views.parish_page", parish_id=parish_id)
    found["jsonld"] = parish_jsonld(found, found["html_url"])
    return jsonify(found)


@bp.get("/api/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document(current_app.config["BASE_URL"] or "/"))


def csv_cell(value: object) -> str:
    """A CSV cell that a spreadsheet will not run as a formula (=, +, -, @ prefixed with an apostrophe)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _parish_rows(item: dict) -> Iterator[list]:
    """One CSV row per time of a parish; one row with empty time columns when it has none."""
    common = [item["id"], item["name"], item["city"], item["diocese"], " | ".join(item["address"]),
              item["website"]]  # fmt: skip
    for time_ in item["times"] or [None]:
        extra = (
            [time_["day"] or "", time_["time"], time_["source_url"], time_["context"], time_["source"]]
            if time_
            else ["", "", "", "", ""]
        )
        yield [csv_cell(value) for value in [*common, *extra, item["crawled_at"]]]


def _matching_parishes(params: SearchParams, limit: int) -> Iterator[dict]:
    """The parishes of a search, page after page, at most `limit` (rounded up to a whole page)."""
    page, written = 1, 0
    while written < limit:
        result = query.search(conn(), replace(params, page=page, per_page=MAX_PER_PAGE))
        yield from result.parishes
        written += len(result.parishes)
        if page >= result.pages:
            return
        page += 1


def _csv_filename(params: SearchParams) -> str:
    name = "msze-" + (urlencode(params.as_args(page="", per_page="")).replace("&", "_")[:60] or "wszystko")
    return "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in name) + ".csv"


@bp.get("/eksport.csv")
def export_csv() -> Response:
    try:
        params = parse_params(request.args)
    except InvalidQuery as exc:
        return Response(str(exc) + "\n", status=400, mimetype="text/plain")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for item in _matching_parishes(params, current_app.config["CSV_MAX_PARISHES"]):
        writer.writerows(_parish_rows(item))
    return Response(
        "\ufeff" + buffer.getvalue(),  # BOM: spreadsheets then read the Polish letters as UTF-8
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{_csv_filename(params)}"'},
    )
