"""The HTML pages (Polish, phone-first): the search form with its results, a parish page, the health check.

Jinja autoescapes everything; crawled text and URLs reach the templates as data only (links through the
`safe_url` filter).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from functools import cache
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
    send_from_directory,
    url_for,
)

from msze.search import query
from msze.search.calendar import WARSAW, day_word, split_one_offs
from msze.search.db import DAYS
from msze.search.gazetteer import Place
from msze.search.ics import parish_calendar
from msze.search.jsonld import parish_jsonld, script_json
from msze.search.params import (
    DAY_ALIASES,
    MAX_QUERY_LENGTH,
    InvalidQuery,
    SearchParams,
    format_minute,
    parse_moment,
    parse_params,
    parse_time,
)
from msze.search.web import conn, dioceses, freshness, next_masses, now, places, public_url
from msze.utils.text import fold
from msze.utils.time import parse_timestamp

bp = Blueprint("views", __name__)
SEARCH_KEYS = ("q", "city", "diocese", "day", "from", "to", "near", "lang")
NOW_SHOWN = 12  # the near-now answer: the soonest Masses, two phone screens of them (page weight under 30 kB)


@bp.get("/")
def index() -> tuple[str, int]:
    """The home page: "Msze w pobliżu — teraz" on top, the search form under it; with `when` the next Masses
    near the place (named or the phone's position) fill the page and the form folds away; with any other
    filter, the parishes found. A value that cannot be understood is the form with a 400 naming its field."""
    error = place = result = upcoming = moment = None
    params = SearchParams()
    try:
        params = parse_params(request.args)
        place, params = _named_place(params, request.args.get("place") or "")
        if request.args.get("when"):
            moment = parse_moment(request.args["when"], "when", now())
            upcoming = _upcoming(params, moment)
        elif any(request.args.get(key) for key in SEARCH_KEYS) or place is not None:
            result = query.search(conn(), params)
    except InvalidQuery as exc:
        error = exc.for_form()
    html = render_template(
        "index.html",
        params=params,
        args=request.args,
        result=result,
        upcoming=upcoming,
        place=place,
        today=now().astimezone(WARSAW).date(),
        moment=moment,
        map_points=script_json(map_points(upcoming, place, params)) if upcoming else None,
        error=error,
        dioceses=dioceses(),
        freshness=freshness(),
        page_url=lambda **changes: url_for("views.index", **params.as_args(**changes)),
        csv_url=url_for("api.export_csv", **params.as_args(page="", per_page="")),
    )
    return html, (400 if error else 200)


def map_points(upcoming: list[dict], place: Place | None, params: SearchParams) -> dict:
    """The answer's map: the point asked about and one marker per church with its next times (text only:
    static/map.js writes it with textContent)."""
    markers: dict[tuple, dict] = {}
    today = now().astimezone(WARSAW).date()
    for m in upcoming:
        key = (m["parish_id"], m["church"])
        title = f"par. {m['parish']}" + (f" · {m['church']}" if m["church"] else "")
        marker = markers.setdefault(
            key,
            {"lat": m["lat"], "lng": m["lng"], "title": title, "times": [], "url": m["page"]},
        )  # fmt: skip
        marker["times"].append(f"{m['time']} {day_word(m['start'], today)}")
    here = params.near or (0.0, 0.0)
    label = place.label if place else "Twoja lokalizacja"
    return {"here": {"lat": here[0], "lng": here[1], "title": label}, "markers": list(markers.values())}


def _named_place(params: SearchParams, text: str) -> tuple[Place | None, SearchParams]:
    """The place typed in "Miejsce" (a town, district, street or postcode) as the point to search near;
    InvalidQuery when the directory knows no such place."""
    text = " ".join(text.split())[:MAX_QUERY_LENGTH]
    if not text:
        return None, params
    found = places().find(text)
    if found is None:
        raise InvalidQuery(
            "Nie znamy miejsca {value}. Wpisz miejscowość, dzielnicę, ulicę z miejscowością"
            " (np. Lipowa, Łódź) albo kod pocztowy (np. 90-001).",
            "place",
            value=text,
        )
    return found, replace(params, near=(found.lat, found.lng))


def _upcoming(params: SearchParams, moment: datetime) -> list[dict]:
    """The next Masses (or confession times) near the point of the search from `moment`, the soonest."""
    if params.near is None:
        raise InvalidQuery(
            "Podaj {place}: miejscowość, ulicę albo kod pocztowy — albo pozwól telefonowi podać lokalizację.",
            "place",
        )
    service = "confession" if request.args.get("service") == "confession" else "mass"
    found = next_masses(params.near, params.radius, moment, service=service)[:NOW_SHOWN]
    page_of = cache(lambda parish_id: url_for("views.parish_page", parish_id=parish_id))  # url_for is slow
    for m in found:  # placed_masses made these dicts for this answer alone
        page = page_of(m["parish_id"])
        report = {"godzina": m["time"], "dzien": m["day"] or ""}
        m.update(page=page, report_url=f"{page}?{urlencode(report, safe=':')}#zglos")
    return found


@bp.get("/parafia/<id:parish_id>")
def parish_page(parish_id: int) -> str:
    parish = query.get_parish(conn(), parish_id)
    if parish is None:
        abort(404)
    return render_template(
        "parish.html",
        parish=parish,
        jsonld=script_json(parish_jsonld(parish, public_url("views.parish_page", parish_id=parish_id))),
        freshness=freshness(),
        today=now(),
        one_offs=split_one_offs(parish["one_off"], now().astimezone(WARSAW).date()),
        report=report_prefill(request.args),
        webcal=webcal_url(public_url("views.parish_ics", parish_id=parish_id)),
        stale=None
        if parish["verified"]
        else _stale(parish.get("crawled_at"), current_app.config["STALE_DAYS"]),
    )


def webcal_url(url: str) -> str | None:
    """The feed's `webcal://` address, which a phone opens as a calendar subscription; None unless the
    feed's URL is absolute (under BASE_URL: the Host header never makes a URL)."""
    for scheme in ("https://", "http://"):
        if url.startswith(scheme):
            return "webcal://" + url.removeprefix(scheme)
    return None


def report_prefill(args: Mapping[str, str]) -> dict[str, str]:
    """The time a "Zgłoś" link names (`godzina`, `dzien`), to pre-fill the report form; what is not a time or
    a day is left out."""
    day = DAY_ALIASES.get(fold(args.get("dzien") or ""), "")
    try:
        minute = parse_time(args.get("godzina") or "", "godzina")
    except InvalidQuery:
        minute = None
    return {
        "day": day if day in DAYS else "",
        "time": format_minute(minute) if minute is not None else "",
    }


def _stale(crawled_at: str | None, days: int) -> int | None:
    """How many days ago the parish's pages were read, when that is more than `days`; else None."""
    crawled = parse_timestamp(crawled_at)
    if crawled is None:
        return None
    age = (now() - crawled).days
    return age if age > days else None


@bp.get("/parafia/<id:parish_id>.ics")
def parish_ics(parish_id: int) -> Response:
    """The parish's Mass times as an iCalendar feed to subscribe to (msze/search/ics.py)."""
    parish = query.get_parish(conn(), parish_id)
    if parish is None:
        abort(404)
    moment = now()
    page = public_url("views.parish_page", parish_id=parish_id)
    absolute = page if page.startswith(("http://", "https://")) else None  # under BASE_URL only
    body = parish_calendar(parish, moment.astimezone(WARSAW).date(), moment, page_url=absolute)
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = f'inline; filename="parafia-{parish_id}.ics"'
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: "Msze święte" can be installed on a phone's home screen."""
    body = {
        "name": "Msze święte — wyszukiwarka",
        "short_name": "Msze",
        "lang": "pl",
        "start_url": url_for("views.index"),
        "scope": url_for("views.index"),
        "display": "standalone",
        "background_color": "#fffdf9",
        "theme_color": "#7a1f2b",
        "icons": [
            {"src": url_for("static", filename=f"icon-{n}.png"), "sizes": f"{n}x{n}", "type": "image/png"}
            for n in (192, 512)
        ],
    }
    return Response(json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker (static/sw.js) from the root, so that its scope is the whole app."""
    response = send_from_directory(current_app.static_folder, "sw.js", mimetype="text/javascript")
    response.headers["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    return response


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict]:
    return "ok\n", 200, {"Content-Type": "text/plain"}
