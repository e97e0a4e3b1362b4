"""The annotator's Flask app: one HTML page, a small JSON API the page calls, a stats page.

Flask because the app is one page and three JSON endpoints over SQL: Flask is small, synchronous (SQLite and
the locking story stay simple), serves its own templates and static files (no CDN), and Flask-WTF gives CSRF
protection for the JSON posts out of the box.
"""

from __future__ import annotations

import os
import random
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, g, jsonify, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from sqlalchemy import Connection, and_, func, insert, select, update
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from msze.annotator import cheaters, export, identity, serving
from msze.annotator.db import describe, devices, make_engine, run_transaction, transaction, utcnow

# Every setting, its default, and why. Each can be set in the environment under the same name.
DEFAULTS: dict[str, Any] = {
    # Where labels live; any SQLAlchemy URL (postgresql+psycopg://...) works through the same code.
    "ANNOTATOR_DATABASE_URL": "sqlite:///annotator.sqlite3",
    # Share of served hours taken from the gold pool (known answers) to measure each device's agreement.
    "ANNOTATOR_GOLD_FRACTION": 0.1,
    # A device is judged only after this many gold answers (a single slip must not flag anyone) ...
    "ANNOTATOR_CHEATER_MIN_GOLD": 5,
    # ... and flagged when it agrees with fewer than this share of them.
    "ANNOTATOR_CHEATER_MIN_AGREEMENT": 0.7,
    # A device is cleared of suspicion by association (see below) with this many gold answers of each label
    # and this agreement on each.
    "ANNOTATOR_CHEATER_CLEAR_MIN_GOLD": 10,
    "ANNOTATOR_CHEATER_CLEAR_AGREEMENT": 0.85,
    # Also flagged: this many answers (0 = off) of which at least this share are the same answer (honest
    # answers on the mostly-"Nie" pool are mixed).
    "ANNOTATOR_CHEATER_SAME_MIN_ANSWERS": 50,
    "ANNOTATOR_CHEATER_SAME_MAX_SHARE": 0.98,
    # Identities created within this many seconds of each other with the same fingerprint or from the same
    # address group are judged together (cheaters.py): rotating identities does not shed a flag.
    "ANNOTATOR_GROUP_WINDOW": 86400,
    # Share of gold served to a device flagged only as one of such a group: its answers do not count while
    # flagged anyway, and its own gold (enough "yes" and "no", passing) clears it.
    "ANNOTATOR_PROBATION_GOLD_FRACTION": 0.5,
    # New device identities one address group (IPv4 /24, IPv6 /64) may create per window (stops
    # cookie-clearing loops; 0 = no limit).
    "ANNOTATOR_NEW_DEVICES_PER_IP": 20,
    "ANNOTATOR_NEW_DEVICES_WINDOW": 3600,
    # Device cookie lifetime in seconds (volunteers come back months later).
    "ANNOTATOR_COOKIE_MAX_AGE": 5 * 365 * 24 * 3600,
    # Characters of page text shown on each side of the hour (day headings above it decide the answer).
    "ANNOTATOR_WINDOW_CHARS": 300,
    # Reverse proxies in front of the app whose X-Forwarded-For is trusted for the client IP (0 = none).
    "ANNOTATOR_PROXY_COUNT": 0,
}


# A request body is {"fp": {...}, "item": 1, "answer": "yes"}: two levels. Deeper JSON is refused before it
# is parsed (5000 nested arrays made the parser raise RecursionError, a 500).
MAX_JSON_DEPTH = 3
_OPEN, _CLOSE, _QUOTE, _BACKSLASH = b"[{", b"]}", ord('"'), ord("\\")


def json_depth(raw: bytes) -> int:
    """The deepest nesting of arrays and objects in a JSON text, in one pass without parsing or recursion."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == _BACKSLASH:
                escaped = True
            elif byte == _QUOTE:
                in_string = False
        elif byte == _QUOTE:
            in_string = True
        elif byte in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif byte in _CLOSE:
            depth -= 1
    return deepest


def env_value(name: str, default: Any) -> Any:
    """The environment's `name` as the type of `default`, else `default` (the app and the admin commands)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return type(default)(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r}: expected {type(default).__name__}, like {default!r}") from None


def _secret_key(instance_path: Path) -> str:
    """ANNOTATOR_SECRET_KEY from the environment, else a random key made once in the instance folder."""
    from_env = os.environ.get("ANNOTATOR_SECRET_KEY")
    if from_env:
        return from_env
    path = instance_path / "secret_key"
    if path.exists():
        return path.read_text(encoding="ascii").strip()
    instance_path.mkdir(parents=True, exist_ok=True)
    key = secrets.token_hex(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_text(encoding="ascii").strip()
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key)
    return key


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app; `config` overrides DEFAULTS and the environment (tests, the CLI's --db)."""
    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True)
    for name, default in DEFAULTS.items():
        app.config[name] = env_value(name, default)
    app.config.update(
        WTF_CSRF_TIME_LIMIT=None,  # the token lives as long as the session; volunteers annotate for hours
        WTF_CSRF_HEADERS=["X-CSRFToken"],
        SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=16 * 1024,  # answers are tiny; anything bigger is refused with 413
    )
    app.config.update(config or {})
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    if app.config["ANNOTATOR_PROXY_COUNT"]:
        from werkzeug.middleware.proxy_fix import ProxyFix

        n = int(app.config["ANNOTATOR_PROXY_COUNT"])
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n)  # type: ignore[method-assign]

    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # Polish text readable in API answers
    CSRFProtect(app)
    engine = make_engine(app.config["ANNOTATOR_DATABASE_URL"])
    app.extensions["msze_annotator_engine"] = engine
    rng = random.Random(app.config.get("ANNOTATOR_RANDOM_SEED"))
    clock = app.config.get("ANNOTATOR_CLOCK") or utcnow

    def cfg() -> serving.ServingConfig:
        return serving.ServingConfig(
            gold_fraction=float(app.config["ANNOTATOR_GOLD_FRACTION"]),
            min_gold=int(app.config["ANNOTATOR_CHEATER_MIN_GOLD"]),
            min_agreement=float(app.config["ANNOTATOR_CHEATER_MIN_AGREEMENT"]),
            same_min_answers=int(app.config["ANNOTATOR_CHEATER_SAME_MIN_ANSWERS"]),
            same_max_share=float(app.config["ANNOTATOR_CHEATER_SAME_MAX_SHARE"]),
            clear_min_gold=int(app.config["ANNOTATOR_CHEATER_CLEAR_MIN_GOLD"]),
            clear_agreement=float(app.config["ANNOTATOR_CHEATER_CLEAR_AGREEMENT"]),
            window_chars=int(app.config["ANNOTATOR_WINDOW_CHARS"]),
            group_window=int(app.config["ANNOTATOR_GROUP_WINDOW"]),
        )

    def body() -> dict:
        """The request's JSON object; anything else is a 4xx with a one-line reason."""
        raw = request.get_data(cache=True)
        if request.content_length is None and len(raw) >= app.config["MAX_CONTENT_LENGTH"]:
            raise RequestEntityTooLarge()  # chunked: werkzeug stops reading at the limit without saying so
        if request.is_json and json_depth(raw) > MAX_JSON_DEPTH:
            raise serving.ServingError(f"JSON nested too deeply: at most {MAX_JSON_DEPTH} levels")
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise serving.ServingError("expected a JSON object (Content-Type: application/json)")
        return data

    def resolve_device(conn: Connection, data: dict, create: bool) -> int:
        """The requesting device, by its cookie only; without one, a new identity (when `create`).

        The fingerprint never finds a device: anyone can send another browser's User-Agent and screen facts.
        It is only stored, to link identities for cheater detection.
        """
        token = request.cookies.get(identity.COOKIE_NAME)
        if identity.valid_token(token):
            device_id = conn.execute(select(devices.c.id).where(devices.c.token == token)).scalar()
            if device_id is not None:
                conn.execute(update(devices).where(devices.c.id == device_id).values(last_seen=clock()))
                g.device_token = token
                return int(device_id)
        if not create:
            raise serving.NotServed("unknown device: load the page first")
        return new_device(conn, data)

    def new_device(conn: Connection, data: dict) -> int:
        """A new identity with a fresh token, unless this address group made too many lately."""
        now = clock()
        fp = identity.fingerprint(
            request.headers.get("User-Agent", ""), request.headers.get("Accept-Language", ""), data.get("fp")
        )
        ip = (request.remote_addr or "unknown")[:64]
        group = identity.ip_group(ip)
        window = timedelta(seconds=int(app.config["ANNOTATOR_NEW_DEVICES_WINDOW"]))
        recent = conn.execute(
            select(func.count()).where(
                and_(devices.c.ip_group == group, devices.c.created_at >= now - window)
            )
        ).scalar_one()
        if not identity.may_create_identity(recent, int(app.config["ANNOTATOR_NEW_DEVICES_PER_IP"])):
            raise TooManyIdentities("too many new devices from this address; try again later")
        token = identity.new_token()
        device_id = conn.execute(
            insert(devices).values(
                token=token,
                fingerprint=fp,
                ip=ip,
                ip_group=group,
                created_at=now,
                last_seen=now,
                flagged=False,
                gold_answers=0,
                gold_agree=0,
            )
        ).inserted_primary_key[0]
        g.device_token = token
        return int(device_id)

    def prefer_gold(conn: Connection, device_id: int) -> bool:
        """Gold now and then; more often for a device under a group flag, so an honest one clears itself."""
        share = float(app.config["ANNOTATOR_GOLD_FRACTION"])
        if cheaters.on_probation(conn, device_id):
            share = max(share, float(app.config["ANNOTATOR_PROBATION_GOLD_FRACTION"]))
        return rng.random() < share

    @app.after_request
    def _headers(response: Response) -> Response:
        token = g.get("device_token")
        if token:  # (re)set on every API answer: sliding expiry, and restores a lost cookie
            response.set_cookie(
                identity.COOKIE_NAME,
                token,
                max_age=int(app.config["ANNOTATOR_COOKIE_MAX_AGE"]),
                httponly=True,
                samesite="Lax",
                secure=request.is_secure,
            )
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
            "frame-ancestors 'none'",
        )
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    @app.errorhandler(serving.ServingError)
    def _serving_error(exc: serving.ServingError) -> tuple[Response, int]:
        return jsonify(error=exc.message), exc.status

    @app.errorhandler(DBAPIError)
    def _db_unavailable(exc: DBAPIError) -> tuple[Response, int]:
        # SQLite busy past its 30 s timeout, the server gone, the file damaged under the running app: a 503
        # the page can retry, never a 500 with a traceback.
        app.logger.error("database unavailable on %s: %s", request.path, describe(exc))
        if request.path.startswith("/api/"):
            return jsonify(error="database unavailable, try again later"), 503
        text = "Baza danych jest niedostępna. Spróbuj ponownie za chwilę.\n"
        return Response(text, mimetype="text/plain"), 503

    @app.errorhandler(CSRFError)
    def _csrf_error(exc: CSRFError) -> tuple[Response, int]:
        return jsonify(error=f"CSRF: {exc.description}"), 400

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException) -> Response | tuple[Response, int]:
        if request.path.startswith("/api/"):
            return jsonify(error=exc.description), exc.code or 500
        return exc.get_response()

    @app.get("/")
    def index() -> str:
        return render_template("index.html")

    @app.get("/statystyki")
    def stats_page() -> str:
        with transaction(engine) as conn:
            figures = export.stats(conn)
        return render_template("stats.html", s=figures)

    @app.get("/api/stats")
    def stats_api() -> Response:
        with transaction(engine) as conn:
            return jsonify(export.stats(conn))

    @app.post("/api/current")
    def api_current() -> Response:
        data = body()

        def work(conn: Connection) -> dict:
            device_id = resolve_device(conn, data, create=True)
            return serving.current(conn, device_id, prefer_gold(conn, device_id), cfg())

        return jsonify(run_transaction(engine, work))

    @app.post("/api/answer")
    def api_answer() -> Response:
        data = body()

        def work(conn: Connection) -> dict:
            device_id = resolve_device(conn, data, create=False)
            gold = prefer_gold(conn, device_id)
            return serving.answer(conn, device_id, data.get("item"), data.get("answer"), gold, cfg())

        return jsonify(run_transaction(engine, work))

    @app.post("/api/undo")
    def api_undo() -> Response:
        data = body()

        def work(conn: Connection) -> dict:
            return serving.undo(conn, resolve_device(conn, data, create=False), cfg())

        return jsonify(run_transaction(engine, work))

    return app


class TooManyIdentities(serving.ServingError):
    status = 429
