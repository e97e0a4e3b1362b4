"""The annotator's Flask app factory: settings, database, CSRF, the HTML views and the JSON API Blueprints.

Flask because the app is one page and three JSON endpoints over SQL: Flask is small, synchronous (SQLite and
the locking story stay simple), serves its own templates and static files (no CDN), and Flask-WTF gives CSRF
protection for the JSON posts out of the box. The pages are views.py, the API api.py; their SQL lives in
serving.py, cheaters.py and export.py.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify
from flask_wtf.csrf import CSRFProtect
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import HTTPException

from msze.annotator import api, views, web
from msze.annotator.settings import DEFAULTS, env_value, from_environment

__all__ = ["DEFAULTS", "create_app", "env_value"]

# Headers on every answer, pages, API, static files and errors alike (as the search app sends): only the app's
# own script and styles, no framing (clickjacking the Tak/Nie buttons; X-Frame-Options for older browsers), no
# MIME sniffing, no form posting elsewhere, and no page address sent to other sites.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def create_app(config: dict[str, Any] | None = None, instance_path: str | None = None) -> Flask:
    """Build the app; `config` overrides DEFAULTS and the environment (tests, the CLI's --db).

    ValueError (one line) for a malformed setting in the environment; DatabaseProblem for an unusable
    database.
    """
    app = Flask(__name__, instance_path=instance_path, instance_relative_config=True)
    _configure(app, config or {})
    _trust_proxies(app)
    app.json.ensure_ascii = False  # type: ignore[attr-defined]  # Polish text readable in API answers
    CSRFProtect(app)
    web.init_app(app)
    app.register_blueprint(views.bp)
    app.register_blueprint(api.bp)
    app.register_error_handler(DBAPIError, _db_unavailable)
    app.register_error_handler(HTTPException, _http_error)
    app.after_request(_security_headers)
    return app


def _configure(app: Flask, config: dict[str, Any]) -> None:
    """Defaults, then the environment, then `config`; a secret key made once when none is given."""
    app.config.update(from_environment())
    app.config.update(
        WTF_CSRF_TIME_LIMIT=None,  # the token lives as long as the session; volunteers annotate for hours
        WTF_CSRF_HEADERS=["X-CSRFToken"],
        SESSION_COOKIE_SAMESITE="Lax",
        MAX_CONTENT_LENGTH=16 * 1024,  # answers are tiny; anything bigger is refused with 413
    )
    app.config.update(config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))


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


def _trust_proxies(app: Flask) -> None:
    """Behind ANNOTATOR_PROXY_COUNT reverse proxies, take the client address from their X-Forwarded-For."""
    n = int(app.config["ANNOTATOR_PROXY_COUNT"])
    if n:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=n, x_proto=n)  # type: ignore[method-assign]


def _security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _db_unavailable(exc: DBAPIError) -> tuple[Response, int]:
    """A page whose database failed: a plain 503 to retry (the API answers JSON, api.py)."""
    web.log_database_error(exc)
    text = "Baza danych jest niedostępna. Spróbuj ponownie za chwilę.\n"
    return Response(text, mimetype="text/plain"), 503


def _http_error(exc: HTTPException) -> Response | tuple[Response, int]:
    """JSON errors under /api/ (also for URLs and methods no route takes), werkzeug's page elsewhere."""
    if web.is_api_request():
        return jsonify(error=exc.description), exc.code or 500
    return exc.get_response()
