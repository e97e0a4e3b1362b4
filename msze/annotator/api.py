"""The JSON API the page calls: a device's current item, its Tak/Nie answers and Cofnij, and the stats.

Every request is hostile until shown otherwise: a POST body must be a small (MAX_CONTENT_LENGTH, chunked
bodies too), shallow JSON object with the page's CSRF token (Flask-WTF, app-wide), and the device is the one
its cookie names, never one its fingerprint resembles. The SQL is in serving.py, cheaters.py and export.py;
this module turns requests into their calls and their answers and refusals into JSON.
"""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, Response, current_app, g, jsonify, request
from flask_wtf.csrf import CSRFError
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import RequestEntityTooLarge

from msze.annotator import cheaters, export, identity, serving, web
from msze.annotator.db import run_transaction, transaction

bp = Blueprint("api", __name__, url_prefix=web.API_PREFIX)

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


def request_object() -> dict:
    """The request's JSON object; anything else is a 4xx with a one-line reason."""
    raw = request.get_data(cache=True)
    if request.content_length is None and len(raw) >= current_app.config["MAX_CONTENT_LENGTH"]:
        raise RequestEntityTooLarge()  # chunked: werkzeug stops reading at the limit without saying so
    if request.is_json and json_depth(raw) > MAX_JSON_DEPTH:
        raise serving.ServingError(f"JSON nested too deeply: at most {MAX_JSON_DEPTH} levels")
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise serving.ServingError("expected a JSON object (Content-Type: application/json)")
    return data


def requesting_device(conn: Connection, data: dict, create: bool) -> int:
    """The requesting device, by its cookie only; without one, a new identity (when `create`).

    The fingerprint never finds a device: anyone can send another browser's User-Agent and screen facts.
    It is only stored, to link identities for cheater detection.
    """
    token = request.cookies.get(identity.COOKIE_NAME)
    if identity.valid_token(token):
        device_id = serving.find_device(conn, token, web.now())
        if device_id is not None:
            g.device_token = token
            return device_id
    if not create:
        raise serving.NotServed("unknown device: load the page first")
    headers = request.headers
    fingerprint = identity.fingerprint(
        headers.get("User-Agent", ""), headers.get("Accept-Language", ""), data.get("fp")
    )
    device_id, g.device_token = serving.add_device(
        conn,
        fingerprint,
        (request.remote_addr or "unknown")[:64],
        web.now(),
        per_group=int(current_app.config["ANNOTATOR_NEW_DEVICES_PER_IP"]),
        window=timedelta(seconds=int(current_app.config["ANNOTATOR_NEW_DEVICES_WINDOW"])),
    )
    return device_id


def prefer_gold(conn: Connection, device_id: int) -> bool:
    """Gold now and then; more often for a device under a group flag, so an honest one clears itself."""
    share = float(current_app.config["ANNOTATOR_GOLD_FRACTION"])
    if cheaters.on_probation(conn, device_id):
        share = max(share, float(current_app.config["ANNOTATOR_PROBATION_GOLD_FRACTION"]))
    return web.rng().random() < share


@bp.after_request
def _device_cookie(response: Response) -> Response:
    """(Re)set the device cookie on every answer that knows the device: sliding expiry, restores lost ones."""
    token = g.get("device_token")
    if token:
        response.set_cookie(
            identity.COOKIE_NAME,
            token,
            max_age=int(current_app.config["ANNOTATOR_COOKIE_MAX_AGE"]),
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


@bp.errorhandler(serving.ServingError)
def _refused(exc: serving.ServingError) -> tuple[Response, int]:
    return jsonify(error=exc.message), exc.status


@bp.errorhandler(CSRFError)
def _csrf_error(exc: CSRFError) -> tuple[Response, int]:
    return jsonify(error=f"CSRF: {exc.description}"), 400


@bp.errorhandler(DBAPIError)
def _db_unavailable(exc: DBAPIError) -> tuple[Response, int]:
    # SQLite busy past its 30 s timeout, the server gone, the file damaged under the running app: a 503 the
    # page can retry, never a 500 with a traceback.
    web.log_database_error(exc)
    return jsonify(error="database unavailable, try again later"), 503


@bp.get("/stats")
def stats() -> Response:
    with transaction(web.engine()) as conn:
        return jsonify(export.stats(conn))


@bp.post("/current")
def current() -> Response:
    data = request_object()

    def work(conn: Connection) -> dict:
        device_id = requesting_device(conn, data, create=True)
        return serving.current(conn, device_id, prefer_gold(conn, device_id), web.config())

    return jsonify(run_transaction(web.engine(), work))


@bp.post("/answer")
def answer() -> Response:
    data = request_object()

    def work(conn: Connection) -> dict:
        device_id = requesting_device(conn, data, create=False)
        gold = prefer_gold(conn, device_id)
        return serving.answer(conn, device_id, data.get("item"), data.get("answer"), gold, web.config())

    return jsonify(run_transaction(web.engine(), work))


@bp.post("/undo")
def undo() -> Response:
    data = request_object()

    def work(conn: Connection) -> dict:
        return serving.undo(conn, requesting_device(conn, data, create=False), web.config())

    return jsonify(run_transaction(web.engine(), work))
