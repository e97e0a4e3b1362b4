"""The search web app: HTML pages (Polish, phone-first), the JSON API, OpenAPI, CSV export, corrections.

`create_app(db_url)` builds a Flask app over a results database; `create_app()` with no URL serves the bundled
demo data (loaded into a temporary SQLite file through the real loader). Every page is rendered by Jinja with
autoescape; links taken from crawled data are shown only when they are http(s) URLs. Every request is taken as
hostile: integers are parsed strictly, bodies are capped, pages cannot be framed, and the Host header is never
written into a URL (links are relative, or absolute under the configured BASE_URL).
"""

from __future__ import annotations

import atexit
import contextlib
import csv
import hashlib
import hmac
import io
import json
import os
import re
import secrets
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from flask import Flask, Response, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy import BigInteger, Connection, Engine, func, insert, literal, select
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from msze.search import query
from msze.search.db import DAYS, corrections, create_schema, make_engine, mass_times, parishes
from msze.search.jsonld import parish_jsonld, script_json
from msze.search.urls import safe_url

DEMO_DIR = Path(__file__).parent / "demo"

# Defaults; each can be overridden through create_app(config=...) or the environment variable in brackets.
DEFAULTS = {
    "CORRECTIONS_PER_WINDOW": 5,  # [MSZE_SEARCH_CORRECTIONS_PER_WINDOW] reports one IP may send per window
    "CORRECTIONS_WINDOW_SECONDS": 3600,  # [MSZE_SEARCH_CORRECTIONS_WINDOW_SECONDS]
    "CSV_MAX_PARISHES": 5000,  # [MSZE_SEARCH_CSV_MAX_PARISHES] one export never walks more parishes than this
    "PROXY_HOPS": 0,  # [MSZE_SEARCH_PROXY_HOPS] reverse proxies in front: X-Forwarded-For hops to trust
    "FRESHNESS_CACHE_SECONDS": 60,  # the freshness note aggregates all parishes: once a minute
    # [MSZE_SEARCH_MAX_CONTENT_LENGTH] the largest request body: a report is a few kB (1000-character comment
    # percent-encoded); `search serve` refuses a longer Content-Length before reading any of the body.
    "MAX_CONTENT_LENGTH": 64 * 1024,
}
# [MSZE_SEARCH_BASE_URL] public root of the site ("https://msze.example.org"): the API's `url`/`next`, OpenAPI
# `servers` and JSON-LD `@id` are absolute under it; unset, they are relative (JSON-LD then has no `@id`).
BASE_URL = ""
MAX_COMMENT = 1000
MAX_ID = 2**31 - 1  # the ids are INTEGER columns (32 bits on PostgreSQL): a larger one cannot exist
_COMMENT_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # NUL & co.; newlines and tabs stay


class IdConverter(IntegerConverter):
    """`<id:…>`: a row id in 1..MAX_ID written in ASCII digits; anything else is no route (404).

    Werkzeug's `int` matches `\\d+`, which takes "١" (read as 1) and ids too large for the database driver.
    """

    regex = "[0-9]{1,10}"

    def __init__(self, map: Map) -> None:  # `map`: Werkzeug passes it by that name
        super().__init__(map, min=1, max=MAX_ID)


def csv_cell(value) -> str:
    """A CSV cell that a spreadsheet will not run as a formula (=, +, -, @ prefixed with an apostrophe)."""
    text = "" if value is None else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _remove_files(*paths: str) -> None:
    for path in paths:
        with contextlib.suppress(OSError):
            os.remove(path)


def _demo_engine() -> Engine:
    from msze.search.loader import load

    handle, path = tempfile.mkstemp(prefix="msze-search-demo-", suffix=".sqlite")
    os.close(handle)
    atexit.register(_remove_files, path, path + "-wal", path + "-shm")
    engine = make_engine(path)
    create_schema(engine)
    load(engine, DEMO_DIR / "parishes.tsv", DEMO_DIR / "places.tsv", DEMO_DIR / "results.jsonl")
    return engine


def create_app(db_url: str | None = None, config: dict | None = None, engine: Engine | None = None) -> Flask:
    """The Flask app over `db_url` (SQLAlchemy URL or SQLite path); the bundled demo data without one."""
    app = Flask(__name__)
    app.config.update(DEFAULTS)
    app.config.update(_environment())
    # The secret signs CSRF tokens and salts the IP hashes; a random one per process is safe but resets both.
    app.config["SECRET_KEY"] = os.environ.get("MSZE_SEARCH_SECRET_KEY") or secrets.token_hex(32)
    app.config["ADMIN_TOKEN"] = os.environ.get("MSZE_SEARCH_ADMIN_TOKEN", "")
    app.config["BASE_URL"] = os.environ.get("MSZE_SEARCH_BASE_URL", BASE_URL)
    app.config["WTF_CSRF_TIME_LIMIT"] = None  # a parish page may stay open for hours before a report
    app.config["JSON_SORT_KEYS"] = False
    app.config["MAX_FORM_MEMORY_SIZE"] = 32 * 1024  # one form field (the comment) at most
    app.config["MAX_FORM_PARTS"] = 20  # the report form has five fields
    # SameSite: another site cannot post a report with the visitor's session (the CSRF token's cookie).
    app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config["SESSION_COOKIE_HTTPONLY"] = True
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.config.update(config or {})
    app.config["BASE_URL"] = check_base_url(app.config["BASE_URL"])
    if "SESSION_COOKIE_SECURE" not in (config or {}):  # served over https: the cookie goes only there
        app.config["SESSION_COOKIE_SECURE"] = app.config["BASE_URL"].startswith("https:")
    if engine is None:
        if db_url:
            engine = make_engine(db_url)
            create_schema(engine)
            app.config["DEMO"] = False
        else:
            engine = _demo_engine()
            app.config["DEMO"] = True
    app.config.setdefault("DEMO", False)
    app.extensions["msze_engine"] = engine
    if app.config["PROXY_HOPS"]:
        # Behind nginx & co. the client's IP (for the report rate limit) is in X-Forwarded-For.
        hops = app.config["PROXY_HOPS"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    CSRFProtect(app)
    app.url_map.converters["id"] = IdConverter
    app.jinja_env.filters["safe_url"] = safe_url
    app.jinja_env.filters["day_label"] = lambda day: query.DAY_LABELS.get(day or "unknown", day)
    app.jinja_env.filters["date_pl"] = _date_pl
    app.jinja_env.filters["by_day"] = _by_day
    app.jinja_env.filters["host"] = lambda url: (urlsplit(url).hostname or url) if url else ""
    _cache: dict = {}

    def conn():
        if "conn" not in g:
            g.conn = engine.connect()
        return g.conn

    @app.teardown_appcontext
    def _close(_exc) -> None:
        connection = g.pop("conn", None)
        if connection is not None:
            connection.close()

    def cached(name: str, compute):
        """`compute(conn())`, kept for FRESHNESS_CACHE_SECONDS: both aggregate over all parishes."""
        hit = _cache.get(name)
        if hit and time.monotonic() - hit[0] < app.config["FRESHNESS_CACHE_SECONDS"]:
            return hit[1]
        value = compute(conn())
        _cache[name] = (time.monotonic(), value)
        return value

    def freshness() -> dict:
        return cached("freshness", query.freshness)

    def public_url(endpoint: str, **values) -> str:
        """A URL for the API and JSON-LD: under BASE_URL when set, else relative; never from the Host."""
        path = url_for(endpoint, **values)
        base = app.config["BASE_URL"]
        return base + path.removeprefix(request.script_root) if base else path

    def dioceses() -> list[str]:
        return cached("dioceses", query.dioceses)

    @app.context_processor
    def _globals() -> dict:
        return {"demo": app.config["DEMO"], "day_choices": DAY_CHOICES}

    # ---- HTML ---------------------------------------------------------------------------------------
    @app.get("/")
    def index():
        error = None
        result = None
        params = query.SearchParams()
        searched = any(request.args.get(key) for key in ("q", "city", "diocese", "day", "from", "to"))
        try:
            params = query.parse_params(request.args)
        except query.InvalidQuery as exc:
            error = str(exc)
        if error is None and searched:
            result = query.search(conn(), params)
        html = render_template(
            "index.html",
            params=params,
            args=request.args,
            result=result,
            error=error,
            dioceses=dioceses(),
            freshness=freshness(),
            page_url=lambda **changes: url_for("index", **params.as_args(**changes)),
            csv_url=url_for("export_csv", **params.as_args(page="", per_page="")),
        )
        return html, (400 if error else 200)

    @app.get("/parafia/<id:parish_id>")
    def parish_page(parish_id: int):
        parish = query.get_parish(conn(), parish_id)
        if parish is None:
            abort(404)
        return render_template(
            "parish.html",
            parish=parish,
            jsonld=script_json(parish_jsonld(parish, public_url("parish_page", parish_id=parish_id))),
            freshness=freshness(),
            today=datetime.now(UTC),
        )

    @app.post("/parafia/<id:parish_id>/zgloszenie")
    def report_correction(parish_id: int):
        if conn().execute(select(parishes.c.id).where(parishes.c.id == parish_id)).first() is None:
            abort(404)
        fields, problems = _report_fields(request.form)
        if problems:
            return render_template("message.html", title="Zgłoszenie niepoprawne", messages=problems), 400
        report = {
            "parish_id": parish_id,
            "created_at": datetime.now(UTC),
            "client": _client_hash(app.config["SECRET_KEY"], request.remote_addr or ""),
            **fields,
            "status": "new",
        }
        connection = conn()
        connection.commit()  # end the parish lookup's read: the report is one transaction of its own
        if not store_report(connection, report, app.config["CORRECTIONS_PER_WINDOW"],
                            app.config["CORRECTIONS_WINDOW_SECONDS"]):  # fmt: skip
            message = "Za dużo zgłoszeń z tego adresu. Spróbuj ponownie za godzinę."
            response = Response(
                render_template("message.html", title="Za dużo zgłoszeń", messages=[message]), status=429
            )
            response.headers["Retry-After"] = str(app.config["CORRECTIONS_WINDOW_SECONDS"])
            return response
        flash("Dziękujemy! Zgłoszenie zapisano; sprawdzimy je przed zmianą danych.")
        return redirect(url_for("parish_page", parish_id=parish_id) + "#zglos", code=303)

    @app.get("/admin/zgloszenia")
    def review_corrections():
        _require_admin()
        rows = _correction_rows(limit=500)
        return render_template("corrections.html", rows=rows, token=request.args.get("token", ""))

    @app.get("/admin/zgloszenia.jsonl")
    def export_labels():
        """Corrections as training labels: `wrong` -> label other, `missing` -> label mass."""
        _require_admin()
        lines = []
        for row in _correction_rows(limit=None):
            label = {
                "parish_id": row["parish_id"],
                "website": row["website"],
                "time": row["time"],
                "day": row["day"],
                "label": "other" if row["kind"] == "wrong" else "mass",
                "source_url": row["source_url"],
                "context": row["context"],
                "comment": row["comment"],
                "reported_at": row["created_at"],
                "status": row["status"],
            }
            lines.append(json.dumps(label, ensure_ascii=False))
        body = "\n".join(lines) + ("\n" if lines else "")
        return Response(
            body,
            mimetype="application/x-ndjson",
            headers={"Content-Disposition": "attachment; filename=corrections-labels.jsonl"},
        )

    def _require_admin() -> None:
        token = app.config["ADMIN_TOKEN"]
        given = request.args.get("token") or request.headers.get("X-Admin-Token") or ""
        if not token or not hmac.compare_digest(token.encode(), given.encode()):
            abort(404)  # the review pages do not exist for anyone without the token

    def _correction_rows(limit: int | None) -> list[dict]:
        stmt = (
            select(
                corrections,
                parishes.c.name,
                parishes.c.city,
                parishes.c.website,
            )
            .join(parishes, parishes.c.id == corrections.c.parish_id)
            .order_by(corrections.c.created_at.desc())
        )
        if limit:
            stmt = stmt.limit(limit)
        rows = []
        for row in conn().execute(stmt):
            stored = (
                conn()
                .execute(
                    select(mass_times.c.source_url, mass_times.c.context).where(
                        mass_times.c.parish_id == row.parish_id,
                        mass_times.c.day == row.day,
                        mass_times.c.time == row.time,
                    )
                )
                .first()
            )
            rows.append(
                {
                    "id": row.id,
                    "parish_id": row.parish_id,
                    "name": row.name,
                    "city": row.city,
                    "website": safe_url(row.website),
                    "kind": row.kind,
                    "day": row.day,
                    "time": row.time,
                    "comment": row.comment,
                    "status": row.status,
                    "created_at": query._aware(row.created_at),
                    "source_url": safe_url(stored.source_url) if stored else None,
                    "context": stored.context if stored else None,
                }
            )
        return rows

    # ---- JSON API -----------------------------------------------------------------------------------
    @app.get("/api/parishes")
    def api_search():
        try:
            params = query.parse_params(request.args)
        except query.InvalidQuery as exc:
            return jsonify(error=str(exc)), 400
        result = query.search(conn(), params)
        for item in result.parishes:
            item["url"] = public_url("api_parish", parish_id=item["id"])
            item["html_url"] = public_url("parish_page", parish_id=item["id"])
        body = {
            "total": result.total,
            "page": params.page,
            "per_page": params.per_page,
            "pages": result.pages,
            "parishes": result.parishes,
        }
        if params.page < result.pages:
            body["next"] = public_url("api_search", **params.as_args(page=params.page + 1))
        return jsonify(body)

    @app.get("/api/parishes/<id:parish_id>")
    def api_parish(parish_id: int):
        parish = query.get_parish(conn(), parish_id)
        if parish is None:
            return jsonify(error=f"Nie ma parafii o id {parish_id}"), 404
        parish.pop("schedule")
        parish["html_url"] = public_url("parish_page", parish_id=parish_id)
        parish["jsonld"] = parish_jsonld(parish, parish["html_url"])
        return jsonify(parish)

    @app.get("/api/openapi.json")
    def openapi():
        return jsonify(openapi_document(app.config["BASE_URL"] or "/"))

    @app.get("/eksport.csv")
    def export_csv():
        try:
            params = query.parse_params(request.args)
        except query.InvalidQuery as exc:
            return Response(str(exc) + "\n", status=400, mimetype="text/plain")
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\r\n")
        writer.writerow(
            ["parish_id", "parafia", "miejscowosc", "diecezja", "adres", "strona", "dzien", "godzina",
             "zrodlo",
             "zdanie", "odczytane_przez", "pobrano"]
        )  # fmt: skip
        page, per_page, written = 1, query.MAX_PER_PAGE, 0
        while written < app.config["CSV_MAX_PARISHES"]:
            result = query.search(
                conn(),
                query.SearchParams(**{**params.__dict__, "page": page, "per_page": per_page}),
            )
            for item in result.parishes:
                common = [item["id"], item["name"], item["city"], item["diocese"],
                          " | ".join(item["address"]),
                          item["website"]]  # fmt: skip
                times = item["times"] or [None]
                for time_ in times:
                    extra = (
                        [
                            time_["day"] or "",
                            time_["time"],
                            time_["source_url"],
                            time_["context"],
                            time_["source"],
                        ]
                        if time_
                        else ["", "", "", "", ""]
                    )
                    writer.writerow([csv_cell(v) for v in [*common, *extra, item["crawled_at"]]])
                written += 1
            if page >= result.pages:
                break
            page += 1
        name = "msze-" + (
            urlencode(params.as_args(page="", per_page="")).replace("&", "_")[:60] or "wszystko"
        )
        return Response(
            "\ufeff" + buffer.getvalue(),  # BOM: spreadsheets then read the Polish letters as UTF-8
            mimetype="text/csv",
            headers={"Content-Disposition": f'attachment; filename="{_filename(name)}.csv"'},
        )

    @app.get("/healthz")
    def healthz():
        return "ok\n", 200, {"Content-Type": "text/plain"}

    # ---- errors -------------------------------------------------------------------------------------
    @app.errorhandler(CSRFError)
    def _csrf_error(exc: CSRFError):
        message = "Formularz wygasł albo nie pochodzi z tej strony. Odśwież stronę i spróbuj ponownie."
        return render_template("message.html", title="Błąd formularza", messages=[message]), 400

    @app.errorhandler(404)
    def _not_found(_exc):
        if request.path.startswith("/api/"):
            return jsonify(error="Nie znaleziono"), 404
        return render_template(
            "message.html", title="Nie znaleziono", messages=["Nie ma takiej strony."]
        ), 404

    @app.errorhandler(413)
    def _too_large(_exc):
        if request.path.startswith("/api/"):
            return jsonify(error="Za duże żądanie"), 413
        message = f"Zgłoszenie może mieć najwyżej {app.config['MAX_CONTENT_LENGTH'] // 1024} kB."
        return render_template("message.html", title="Za duże żądanie", messages=[message]), 413

    @app.errorhandler(405)
    def _not_allowed(_exc):
        if request.path.startswith("/api/"):
            return jsonify(error="Metoda niedozwolona"), 405
        return render_template("message.html", title="Metoda niedozwolona", messages=[]), 405

    @app.after_request
    def _headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")  # browsers without CSP frame-ancestors
        response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
            "frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
        )
        return response

    return app


DAY_CHOICES = [
    ("", "każdy dzień"),
    ("sunday", "niedziela"),
    ("saturday", "sobota"),
    ("weekday", "dzień powszedni"),
    ("holiday", "święto"),
]


def _by_day(times: list[dict]) -> list[tuple[str | None, list[dict]]]:
    """Consecutive times grouped by day, keeping the display order the query gave them."""
    groups: list[tuple[str | None, list[dict]]] = []
    for item in times:
        if not groups or groups[-1][0] != item["day"]:
            groups.append((item["day"], []))
        groups[-1][1].append(item)
    return groups


def _filename(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in name)


def _client_hash(secret: str, ip: str) -> str:
    return hashlib.sha256(f"{secret}|{ip}".encode()).hexdigest()[:32]


def _report_fields(form) -> tuple[dict, list[str]]:
    """The report form's kind, day, time and comment, and what is wrong with them (for the visitor)."""
    kind, day = form.get("kind", ""), form.get("day", "")
    comment = _COMMENT_CONTROLS.sub("", form.get("comment") or "").strip()
    problems = []
    if kind not in ("wrong", "missing"):
        problems.append("Wybierz, czy godzina jest błędna, czy brakuje jej.")
    if day not in DAYS:
        problems.append("Wybierz dzień.")
    try:
        minute = query.parse_time(form.get("time") or "", "time")
    except query.InvalidQuery:
        minute = None
    if minute is None:
        problems.append("Podaj godzinę w formacie GG:MM, np. 18:30.")
    if len(comment) > MAX_COMMENT:
        problems.append(f"Komentarz może mieć najwyżej {MAX_COMMENT} znaków.")
    time_ = query.format_minute(minute) if minute is not None else ""
    return {"kind": kind, "day": day, "time": time_, "comment": comment}, problems


def store_report(connection: Connection, report: dict, limit: int, window_seconds: int) -> bool:
    """Insert a correction unless its client sent `limit` in the last `window_seconds`; False when limited.

    Runs on the request's own connection (not in a transaction yet): a second pooled connection per report
    would let a burst of reports hold every connection while each waits for one more.

    The count and the insert are one `INSERT … SELECT … WHERE (count) < limit`, so parallel posts cannot all
    read the same count: SQLite takes its write lock before the statement reads, and PostgreSQL (which reads
    a snapshot) first takes a transaction-scoped advisory lock on the client, held until the commit.
    """
    since = report["created_at"] - timedelta(seconds=window_seconds)
    recent = (
        select(func.count())
        .select_from(corrections)
        .where(corrections.c.client == report["client"], corrections.c.created_at >= since)
        .scalar_subquery()
    )
    row = select(*(literal(value, corrections.c[key].type).label(key) for key, value in report.items()))
    statement = insert(corrections).from_select(list(report), row.where(recent < limit))
    with connection.begin():
        if connection.dialect.name == "postgresql":
            key = int(report["client"][:15], 16)  # 60 bits of the client hash: a bigint lock id
            connection.execute(select(func.pg_advisory_xact_lock(literal(key, BigInteger))))
        return connection.execute(statement.execution_options(preserve_rowcount=True)).rowcount == 1


def check_base_url(value: str) -> str:
    """BASE_URL without its trailing "/"; "" when unset; ValueError unless it is an absolute http(s) URL."""
    value = (value or "").strip()
    if not value:
        return ""
    if safe_url(value) is None or urlsplit(value).query or urlsplit(value).fragment:
        raise ValueError(f"BASE_URL must be an absolute http(s) URL (https://msze.example.org): {value!r}")
    return value.rstrip("/")


def _environment() -> dict:
    """The integer settings given as MSZE_SEARCH_<NAME>; ValueError naming the one that is not a number."""
    values = {}
    for key in DEFAULTS:
        env = os.environ.get(f"MSZE_SEARCH_{key}", "").strip()
        if not env:
            continue
        if not (env.isascii() and env.isdigit()):
            raise ValueError(f"MSZE_SEARCH_{key}={env!r}: expected a whole number")
        values[key] = int(env)
    return values


_MONTHS = ["stycznia", "lutego", "marca", "kwietnia", "maja", "czerwca", "lipca", "sierpnia", "września",
           "października", "listopada", "grudnia"]  # fmt: skip


def _date_pl(value: str | None) -> str:
    if not value:
        return "nieznana data"
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return f"{parsed.day} {_MONTHS[parsed.month - 1]} {parsed.year}"


def openapi_document(server: str) -> dict:
    """OpenAPI 3 description of the JSON API."""
    string = {"type": "string"}
    nullable_string = {"type": ["string", "null"]}
    time_schema = {
        "type": "object",
        "properties": {
            "time": {"type": "string", "pattern": "^[0-2][0-9]:[0-5][0-9]$", "example": "18:00"},
            "day": {"type": ["string", "null"], "enum": [*DAYS, None]},
            "source_url": {**nullable_string, "description": "the page the time was read from"},
            "context": {**nullable_string, "description": "the sentence around the time on that page"},
            "source": {"type": ["string", "null"], "enum": ["rules", "classifier", None]},
            "score": {"type": ["number", "null"]},
            "start_date": {"type": "string", "format": "date", "description": "first day of a seasonal time"},
            "end_date": {"type": "string", "format": "date", "description": "last day of a seasonal time"},
        },
        "required": ["time", "day"],
    }
    parish_schema = {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "name": string,
            "city": string,
            "address": {"type": "array", "items": string},
            "decanate": string,
            "diocese": string,
            "voivodeship": string,
            "website": nullable_string,
            "crawled_at": {**nullable_string, "format": "date-time"},
            "crawl_status": {"type": ["string", "null"], "enum": ["finished", "failed", None]},
            "times": {"type": "array", "items": {"$ref": "#/components/schemas/MassTime"}},
            "url": string,
            "html_url": string,
        },
        "required": ["id", "name", "city", "times"],
    }

    def param(name: str, description: str, schema: dict | None = None) -> dict:
        return {"name": name, "in": "query", "required": False, "description": description,
                "schema": schema or string}  # fmt: skip

    error = {"description": "invalid parameter", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/Error"}}}}  # fmt: skip
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "msze — godziny Mszy świętych",
            "version": "1.0.0",
            "description": "Mass times read by software from Polish parish websites, with the page and "
            "sentence "
            "each time came from. Times may be wrong: check the source page.",
        },
        "servers": [{"url": server}],
        "paths": {
            "/api/parishes": {
                "get": {
                    "summary": "Search parishes and their Mass times",
                    "parameters": [
                        param("q", "words of the parish name or city (diacritics optional)"),
                        param("city", "city, exact (diacritics and case ignored)"),
                        param("diocese", "diocese, exact (e.g. warszawska)"),
                        param(
                            "day",
                            "day category; comma-separated for several",
                            {"type": "string", "enum": [*DAYS, "niedziela", "sobota", "powszedni", "swieto"]},
                        ),
                        param(
                            "from",
                            "earliest start time HH:MM (inclusive)",
                            {"type": "string", "example": "17:00"},
                        ),
                        param(
                            "to",
                            "latest start time HH:MM (inclusive)",
                            {"type": "string", "example": "20:00"},
                        ),
                        param("page", "page number from 1", {"type": "integer", "minimum": 1, "default": 1}),
                        param(
                            "per_page",
                            "parishes per page",
                            {
                                "type": "integer",
                                "minimum": 1,
                                "maximum": query.MAX_PER_PAGE,
                                "default": query.DEFAULT_PER_PAGE,
                            },
                        ),
                    ],  # fmt: skip
                    "responses": {
                        "200": {
                            "description": "one page of parishes; with a day/time filter each parish "
                            "lists only "
                            "its matching times",
                            "content": {
                                "application/json": {
                                    "schema": {
                                        "type": "object",
                                        "properties": {
                                            "total": {"type": "integer"},
                                            "page": {"type": "integer"},
                                            "per_page": {"type": "integer"},
                                            "pages": {"type": "integer"},
                                            "next": {"type": "string"},
                                            "parishes": {
                                                "type": "array",
                                                "items": {"$ref": "#/components/schemas/Parish"},
                                            },
                                        },
                                    }
                                }
                            },
                        },  # fmt: skip
                        "400": error,
                    },
                }
            },
            "/api/parishes/{id}": {
                "get": {
                    "summary": "One parish with its whole schedule, change history and schema.org JSON-LD",
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
                    ],
                    "responses": {
                        "200": {
                            "description": "the parish",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Parish"}}
                            },
                        },
                        "404": {
                            "description": "no such parish",
                            "content": {
                                "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}
                            },
                        },
                    },  # fmt: skip
                }
            },
        },
        "components": {
            "schemas": {
                "MassTime": time_schema,
                "Parish": parish_schema,
                "Error": {"type": "object", "properties": {"error": string}, "required": ["error"]},
            }
        },
    }
