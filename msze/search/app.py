"""The search web app's factory: `create_app` configures Flask, attaches the database and registers the
Blueprints (`views`: HTML pages; `api`: JSON API, OpenAPI, CSV; `corrections`: reports and their review).

`create_app(db_url)` serves a results database; `create_app()` with no URL serves the bundled demo data
(loaded into a temporary SQLite file through the real loader). Every request is taken as hostile: integers
are parsed strictly, bodies are capped, pages cannot be framed, and the Host header is never written into a
URL (links are relative, or absolute under the configured BASE_URL).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy import Engine
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, Map

from msze.search import api, corrections, query, views, web
from msze.search.cache import NearCache
from msze.search.db import create_schema, make_engine
from msze.search.urls import safe_url
from msze.utils.time import parse_timestamp

DEMO_DIR = Path(__file__).parent / "demo"

# Defaults; each can be overridden through create_app(config=...) or the environment variable in brackets.
DEFAULTS = {
    "CORRECTIONS_PER_WINDOW": 5,  # [MSZE_SEARCH_CORRECTIONS_PER_WINDOW] reports one IP may send per window
    "CORRECTIONS_WINDOW_SECONDS": 3600,  # [MSZE_SEARCH_CORRECTIONS_WINDOW_SECONDS]
    "CSV_MAX_PARISHES": 5000,  # [MSZE_SEARCH_CSV_MAX_PARISHES] one export never walks more parishes than this
    "PROXY_HOPS": 0,  # [MSZE_SEARCH_PROXY_HOPS] reverse proxies in front: X-Forwarded-For hops to trust
    "STALE_DAYS": 90,  # [MSZE_SEARCH_STALE_DAYS] a parish whose pages were read longer ago is shown a warning
    "FRESHNESS_CACHE_SECONDS": 60,  # the freshness note aggregates all parishes: once a minute
    # [MSZE_SEARCH_NEAR_CACHE_SECONDS] how long a process keeps what it read for the next Masses near a point
    # (msze/search/cache.py; emptied at once when a SQLite database changes); 0: not kept
    "NEAR_CACHE_SECONDS": 60,
    "NEAR_CACHE_AREAS": 128,  # [MSZE_SEARCH_NEAR_CACHE_AREAS] areas (cell and radius) kept, at most
    "NEAR_CACHE_PARISHES": 2000,  # [MSZE_SEARCH_NEAR_CACHE_PARISHES] parishes' times (for a minute) kept
    # [MSZE_SEARCH_MAX_CONTENT_LENGTH] the largest request body: a report is a few kB (1000-character comment
    # percent-encoded); `search serve` refuses a longer Content-Length before reading any of the body.
    "MAX_CONTENT_LENGTH": 64 * 1024,
}
# Fixed settings of every search app (config= may still override them, as tests do).
FIXED = {
    "WTF_CSRF_TIME_LIMIT": None,  # a parish page may stay open for hours before a report
    "JSON_SORT_KEYS": False,
    "MAX_FORM_MEMORY_SIZE": 32 * 1024,  # one form field (the comment) at most
    "MAX_FORM_PARTS": 20,  # the report form has five fields
    # SameSite: another site cannot post a report with the visitor's session (the CSRF token's cookie).
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
}
# [MSZE_SEARCH_BASE_URL] public root of the site ("https://msze.example.org"): the API's `url`/`next`, OpenAPI
# `servers` and JSON-LD `@id` are absolute under it; unset, they are relative (JSON-LD then has no `@id`).
BASE_URL = ""
MAX_ID = 2**31 - 1  # the ids are INTEGER columns (32 bits on PostgreSQL): a larger one cannot exist
BLUEPRINTS = (views.bp, api.bp, corrections.bp)
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
)
DAY_CHOICES = [
    ("", "każdy dzień"),
    ("sun", "niedziela"),
    ("sat", "sobota"),
    ("mon", "poniedziałek"),
    ("tue", "wtorek"),
    ("wed", "środa"),
    ("thu", "czwartek"),
    ("fri", "piątek"),
    ("holiday", "święto"),
]


class IdConverter(IntegerConverter):
    """`<id:…>`: a row id in 1..MAX_ID written in ASCII digits; anything else is no route (404).

    Werkzeug's `int` matches `\\d+`, which takes "١" (read as 1) and ids too large for the database driver.
    """

    regex = "[0-9]{1,10}"

    def __init__(self, map: Map) -> None:  # `map`: Werkzeug passes it by that name
        super().__init__(map, min=1, max=MAX_ID)


def create_app(
    db_url: str | None = None, config: Mapping[str, Any] | None = None, engine: Engine | None = None
) -> Flask:
    """The search app over `engine`, else `db_url` (or config DATABASE_URL: a SQLAlchemy URL or SQLite path),
    else the bundled demo data. ValueError for a bad setting (BASE_URL, a MSZE_SEARCH_* number)."""
    app = Flask(__name__)
    _configure(app, config or {})
    _attach_engine(app, engine, db_url or app.config.get("DATABASE_URL"))
    if app.config["PROXY_HOPS"]:
        # Behind nginx & co. the client's IP (for the report rate limit) is in X-Forwarded-For.
        hops = app.config["PROXY_HOPS"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops)
    CSRFProtect(app)
    app.url_map.converters["id"] = IdConverter  # before the Blueprints' rules use it
    _register_templating(app)
    app.teardown_appcontext(web.close_connection)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    _register_error_handlers(app)
    app.after_request(_security_headers)
    return app


def _configure(app: Flask, config: Mapping[str, Any]) -> None:
    """Defaults, then the environment, then `config`; BASE_URL checked; the cookie Secure under https."""
    app.config.update(DEFAULTS)
    app.config.update(_environment())
    # The secret signs CSRF tokens and salts the IP hashes; a random one per process is safe but resets both.
    app.config["SECRET_KEY"] = os.environ.get("MSZE_SEARCH_SECRET_KEY") or secrets.token_hex(32)
    app.config["ADMIN_TOKEN"] = os.environ.get("MSZE_SEARCH_ADMIN_TOKEN", "")
    app.config["BASE_URL"] = os.environ.get("MSZE_SEARCH_BASE_URL", BASE_URL)
    app.config.update(FIXED)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    app.config.update(config)
    app.config["BASE_URL"] = check_base_url(app.config["BASE_URL"])
    if "SESSION_COOKIE_SECURE" not in config:  # served over https: the cookie goes only there
        app.config["SESSION_COOKIE_SECURE"] = app.config["BASE_URL"].startswith("https:")


def _attach_engine(app: Flask, engine: Engine | None, db_url: str | None) -> None:
    """One engine per app, in app.extensions["msze_engine"], with the schema brought up to date."""
    if engine is None:
        app.config["DEMO"] = not db_url
        if db_url:
            engine = make_engine(db_url)
            create_schema(engine)
        else:
            engine = _demo_engine()
    app.config.setdefault("DEMO", False)
    app.extensions["msze_engine"] = engine
    app.extensions["msze_cache"] = {}  # web.cached: the freshness note and the diocese list
    config = app.config
    app.extensions["msze_near_cache"] = NearCache(
        engine, config["NEAR_CACHE_SECONDS"], config["NEAR_CACHE_AREAS"], config["NEAR_CACHE_PARISHES"]
    )


def _remove_files(owner: int, *paths: str) -> None:
    if os.getpid() != owner:
        return
    for path in paths:
        with contextlib.suppress(OSError):
            os.remove(path)


def _demo_engine() -> Engine:
    from msze.search.loader import load

    handle, path = tempfile.mkstemp(prefix="msze-search-demo-", suffix=".sqlite")
    os.close(handle)
    # by this process only: `serve --workers` forks it, and a worker that exits leaves the file to the rest
    atexit.register(_remove_files, os.getpid(), path, path + "-wal", path + "-shm")
    engine = make_engine(path)
    create_schema(engine)
    load(engine, DEMO_DIR / "parishes.tsv", DEMO_DIR / "places.tsv", DEMO_DIR / "results.jsonl")
    return engine


def _register_templating(app: Flask) -> None:
    app.jinja_env.filters["safe_url"] = safe_url
    app.jinja_env.filters["day_label"] = lambda day: query.DAY_LABELS.get(day or "unknown", day)
    app.jinja_env.filters["date_pl"] = date_pl
    app.jinja_env.filters["by_day"] = _by_day
    app.jinja_env.filters["host"] = lambda url: (urlsplit(url).hostname or url) if url else ""
    app.context_processor(lambda: {"demo": app.config["DEMO"], "day_choices": DAY_CHOICES})


# Page titles of the HTTP errors the app answers itself; `api` paths get {"error": ...} instead.
_ERRORS = {404: ("Nie znaleziono", "Nie ma takiej strony."), 405: ("Metoda niedozwolona", None)}
_API_ERRORS = {404: "Nie znaleziono", 405: "Metoda niedozwolona", 413: "Za duże żądanie"}


def _http_error(exc: HTTPException) -> tuple[Response | str, int]:
    """404, 405 and 413 as JSON under /api/, else as a Polish page."""
    code = exc.code or 500
    if request.path.startswith("/api/"):
        return jsonify(error=_API_ERRORS[code]), code
    if code == 413:
        limit = current_app.config["MAX_CONTENT_LENGTH"]
        title, message = "Za duże żądanie", f"Zgłoszenie może mieć najwyżej {limit // 1024} kB."
    else:
        title, message = _ERRORS[code]
    return render_template("message.html", title=title, messages=[message] if message else []), code


def _csrf_error(_exc: CSRFError) -> tuple[str, int]:
    message = "Formularz wygasł albo nie pochodzi z tej strony. Odśwież stronę i spróbuj ponownie."
    return render_template("message.html", title="Błąd formularza", messages=[message]), 400


def _register_error_handlers(app: Flask) -> None:
    app.register_error_handler(CSRFError, _csrf_error)
    for code in _API_ERRORS:
        app.register_error_handler(code, _http_error)


def _security_headers(response: Response) -> Response:
    """No MIME sniffing, no framing (CSP and X-Frame-Options for older browsers), no scripts at all."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    return response


def _by_day(times: list[dict]) -> list[tuple[str | None, list[dict]]]:
    """Consecutive times grouped by day, keeping the display order the query gave them."""
    groups: list[tuple[str | None, list[dict]]] = []
    for item in times:
        if not groups or groups[-1][0] != item["day"]:
            groups.append((item["day"], []))
        groups[-1][1].append(item)
    return groups


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


def date_pl(value: str | None) -> str:
    """ "2026-11-20T08:00:00Z" -> "20 listopada 2026"; "" when unknown (templates then say nothing of it)."""
    if not value:
        return ""
    parsed = parse_timestamp(value)
    if parsed is None:
        return value
    return f"{parsed.day} {_MONTHS[parsed.month - 1]} {parsed.year}"
