"""The HTML pages (Polish, phone-first): the search form with its results, a parish page, the health check.

Jinja autoescapes everything; crawled text and URLs reach the templates as data only (links through the
`safe_url` filter).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, render_template, request, url_for

from msze.search import query
from msze.search.calendar import WARSAW
from msze.search.ics import parish_calendar
from msze.search.jsonld import parish_jsonld, script_json
from msze.search.params import MAX_PER_PAGE, InvalidQuery, SearchParams, parse_moment, parse_params
from msze.search.web import conn, dioceses, freshness, next_masses, now, public_url
from msze.utils.time import parse_timestamp

bp = Blueprint("views", __name__)
SEARCH_KEYS = ("q", "city", "diocese", "day", "from", "to", "near")


@bp.get("/")
def index() -> tuple[str, int]:
    """The search form; results once any filter is given; a bad parameter is the form with a 400."""
    error = None
    result = None
    params = SearchParams()
    try:
        params = parse_params(request.args)
    except InvalidQuery as exc:
        error = str(exc)
    upcoming = None
    if error is None and params.near is not None and request.args.get("when"):
        try:
            moment = parse_moment(request.args["when"], "when", now())
            service = "confession" if request.args.get("service") == "confession" else "mass"
            found = next_masses(params.near, params.radius, moment, service=service)
            upcoming = found[:MAX_PER_PAGE]
        except InvalidQuery as exc:
            error = str(exc)
    if error is None and upcoming is None and any(request.args.get(key) for key in SEARCH_KEYS):
        # with `when` the page is the next Masses alone: a phone need not load every nearby schedule
        result = query.search(conn(), params)
    html = render_template(
        "index.html",
        params=params,
        args=request.args,
        result=result,
        upcoming=upcoming,
        error=error,
        dioceses=dioceses(),
        freshness=freshness(),
        page_url=lambda **changes: url_for("views.index", **params.as_args(**changes)),
        csv_url=url_for("api.export_csv", **params.as_args(page="", per_page="")),
    )
    return html, (400 if error else 200)


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
        stale=_stale(parish.get("crawled_at"), current_app.config["STALE_DAYS"]),
    )


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
    body = parish_calendar(parish, moment.astimezone(WARSAW).date(), moment)
    response = Response(body, mimetype="text/calendar")
    response.headers["Content-Disposition"] = f'inline; filename="parafia-{parish_id}.ics"'
    return response


@bp.get("/healthz")
def healthz() -> tuple[str, int, dict]:
    return "ok\n", 200, {"Content-Type": "text/plain"}
