"""Visitors' corrections: the report form's post (CSRF-checked, rate-limited per salted IP hash). They are
reviewed in the review queue of logged-in moderators and editors (admin.py). What visitors wrote is stored as
written and escaped wherever it is shown.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from datetime import UTC, datetime

from flask import Blueprint, Response, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from msze.search import query
from msze.search.db import DAYS
from msze.search.params import DAY_ALIASES, InvalidQuery, format_minute, parse_time
from msze.search.reports import store_report
from msze.search.web import conn
from msze.utils.text import fold

bp = Blueprint("corrections", __name__)

MAX_COMMENT = 1000
_COMMENT_CONTROLS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # NUL & co.; newlines and tabs stay


KINDS = ("wrong", "changed", "missing")  # not a Mass | held at another time (given) | a Mass missing


def report_fields(form: Mapping[str, str]) -> tuple[dict, list[str]]:
    """The report form's kind, day, time (the correct one too for a changed time) and comment, and what is
    wrong with them (for the visitor, naming the form's fields)."""
    kind = form.get("kind", "")
    day = DAY_ALIASES.get(fold(form.get("day", "")), "")  # "sun", "niedziela", "sunday": one day
    comment = _COMMENT_CONTROLS.sub("", form.get("comment") or "").strip()
    problems = []
    if kind not in KINDS:
        problems.append("Wybierz, co jest nie tak: to nie Msza, inna godzina albo brakuje Mszy.")
    if day not in DAYS:  # "weekday" names five days: a report is about one
        problems.append("Wybierz dzień.")
    minute, new_minute = _minute(form.get("time")), _minute(form.get("new_time"))
    if minute is None:
        problems.append("Podaj godzinę w polu „Godzina” w formacie GG:MM, np. 18:30.")
    if kind == "changed" and (new_minute is None or new_minute == minute):
        problems.append("Podaj prawidłową godzinę w polu „Prawidłowa godzina”, inną niż zgłaszana.")
    if len(comment) > MAX_COMMENT:
        problems.append(f"Komentarz może mieć najwyżej {MAX_COMMENT} znaków.")
    fields = {
        "kind": kind,
        "day": day,
        "time": format_minute(minute) if minute is not None else "",
        "new_time": format_minute(new_minute) if kind == "changed" and new_minute is not None else None,
        "comment": comment,
    }
    return fields, problems


def _minute(value: str | None) -> int | None:
    try:
        return parse_time(value or "", "time")
    except InvalidQuery:
        return None


def client_hash(secret: str, ip: str) -> str:
    """The reporter's address as a salted hash: enough to rate-limit, not enough to know who it was."""
    return hashlib.sha256(f"{secret}|{ip}".encode()).hexdigest()[:32]


def _rate_limited() -> Response:
    message = "Za dużo zgłoszeń z tego adresu. Spróbuj ponownie za godzinę."
    response = Response(render_template("message.html", title="Za dużo zgłoszeń", messages=[message]), 429)
    response.headers["Retry-After"] = str(current_app.config["CORRECTIONS_WINDOW_SECONDS"])
    return response


@bp.post("/parafia/<id:parish_id>/zgloszenie")
def report_correction(parish_id: int) -> BaseResponse | tuple[str, int]:
    if not query.parish_exists(conn(), parish_id):
        abort(404)
    fields, problems = report_fields(request.form)
    if problems:
        return render_template("message.html", title="Zgłoszenie niepoprawne", messages=problems), 400
    report = {
        "parish_id": parish_id,
        "created_at": datetime.now(UTC),
        "client": client_hash(current_app.config["SECRET_KEY"], request.remote_addr or ""),
        **fields,
        "status": "new",
    }
    connection = conn()
    connection.commit()  # end the parish lookup's read: the report is one transaction of its own
    config = current_app.config
    if not store_report(
        connection, report, config["CORRECTIONS_PER_WINDOW"], config["CORRECTIONS_WINDOW_SECONDS"]
    ):
        return _rate_limited()
    flash("Dziękujemy! Zgłoszenie zapisano; sprawdzimy je przed zmianą danych.")
    # to the thank-you itself, at the top of the report section: in view on a phone
    return redirect(url_for("views.parish_page", parish_id=parish_id) + "#dziekujemy", code=303)
