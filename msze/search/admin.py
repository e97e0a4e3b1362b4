"""Accounts, the review queue and the verified-schedule form (Flask-Login; every form is CSRF-checked by
the app's CSRFProtect). Moderators see every parish; a parish editor only its own: any other parish is a
403, whatever the id in the path or a form field says.

The session cookie carries a random session id (accounts.new_session), new at every login and ended on the
server at logout. No secret is ever in a URL: the invite link keeps its code after "#", which no browser
sends; static/invite.js moves it into the form (without JavaScript the code is typed in).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from functools import wraps

from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_login import LoginManager, UserMixin, current_user, login_required, login_user, logout_user
from werkzeug.wrappers import Response as BaseResponse

from msze.search import accounts, query, schedule_form, verified
from msze.search.corrections import client_hash
from msze.search.db import run_transaction
from msze.search.reports import correction_rows, training_labels
from msze.search.web import conn, now

bp = Blueprint("admin", __name__)
log = logging.getLogger(__name__)
KINDS = ("wrong", "changed", "missing")


class User(UserMixin):
    """The logged-in account; `get_id` is the session id, so Flask-Login's cookie names a server session."""

    def __init__(self, account: accounts.Account, session_id: str) -> None:
        self.account = account
        self.session_id = session_id

    def get_id(self) -> str:
        return self.session_id


def init_app(app: Flask) -> None:
    manager = LoginManager(app)
    manager.login_view = "admin.login"
    manager.login_message = "Zaloguj się, aby zobaczyć tę stronę."
    app.config.setdefault("USE_SESSION_FOR_NEXT", True)  # the page asked for is kept out of the login URL

    @manager.user_loader
    def _load(session_id: str) -> User | None:
        account = accounts.session_account(conn(), session_id)
        return User(account, session_id) if account is not None else None


def me() -> accounts.Account:
    return current_user.account


def _limits() -> accounts.Limits:
    c = current_app.config
    return accounts.Limits(
        c["LOGIN_FAILURES_PER_ACCOUNT"],
        c["LOGIN_FAILURES_PER_CLIENT"],
        c["LOGIN_WINDOW_SECONDS"],
        c["LOGIN_LOCKOUT_SECONDS"],
    )


def _client() -> str:
    return client_hash(current_app.config["SECRET_KEY"], request.remote_addr or "")


def _transaction(work: Callable[..., object], *args) -> object:
    """`work(connection, *args)` in one transaction of the request's connection (db.run_transaction: a
    concurrent first write of the same key runs it once more)."""
    return run_transaction(conn(), work, *args)


def _start_session(account: accounts.Account) -> None:
    """A new session for a login: everything of the anonymous one (its CSRF token too) is dropped."""
    session.clear()
    session_id = _transaction(accounts.new_session, account, now())
    login_user(User(account, session_id))


@bp.route("/logowanie", methods=["GET", "POST"])
def login() -> str | BaseResponse | tuple[str, int]:
    if request.method == "GET":
        return render_template("admin_login.html")
    username, password = request.form.get("username", ""), request.form.get("password", "")
    account, reason = _transaction(accounts.authenticate, username, password, _client(), now(), _limits())
    if account is None:
        log.info("login refused: %s", reason)
        message = {
            "client-locked": "Za dużo nieudanych logowań z tego adresu. Spróbuj ponownie później.",
            "locked": "Konto jest czasowo zablokowane po nieudanych logowaniach. Spróbuj ponownie później.",
        }.get(reason, "Nieprawidłowa nazwa użytkownika lub hasło.")
        return render_template("admin_login.html", error=message), 429 if reason != "wrong" else 401
    log.info("login: user %s", account.id)
    _start_session(account)
    return redirect(url_for("admin.queue"), code=303)


@bp.post("/wyloguj")
@login_required
def logout() -> BaseResponse:
    _transaction(accounts.end_session, current_user.session_id)
    logout_user()
    session.clear()
    return redirect(url_for("views.index"), code=303)


@bp.route("/zaproszenie", methods=["GET", "POST"])
def invite() -> str | BaseResponse | tuple[str, int]:
    """Where an invite leads: the parish office chooses its name and password, and is logged in."""
    if request.method == "GET":
        return render_template("admin_invite.html")
    form = request.form
    try:
        args = (form.get("code", "").strip(), form.get("username", ""), form.get("password", ""), now())
        account = _transaction(accounts.accept_invite, *args)
    except accounts.AccountError as exc:
        return render_template("admin_invite.html", error=str(exc)), 400
    log.info("invite used: user %s, parish %s", account.id, account.parish_id)
    _start_session(account)
    flash("Konto założone. Sprawdź i potwierdź porządek Mszy swojej parafii.")
    return redirect(url_for("admin.parish", parish_id=account.parish_id), code=303)


def _may(parish_id: int) -> None:
    if not me().may_edit(parish_id):
        abort(403)


def moderator_only(view: Callable) -> Callable:
    @wraps(view)
    def wrapped(*args, **kwargs):
        if not me().is_moderator:
            abort(403)
        return view(*args, **kwargs)

    return login_required(wrapped)


def report_groups(rows: list[dict]) -> list[dict]:
    """Open reports grouped per parish, day, time and kind (and a changed time's new one): one decision
    settles a group."""
    groups: dict[tuple, dict] = {}
    for row in rows:
        if row["status"] != "new":
            continue
        key = (row["parish_id"], row["day"], row["time"], row["kind"], row.get("new_time"))
        group = groups.setdefault(key, {**row, "count": 0, "comments": []})
        group["count"] += 1
        if row["comment"]:
            group["comments"].append(row["comment"])
    return sorted(groups.values(), key=lambda g: (g["city"], g["name"], g["day"], g["time"]))


@bp.get("/admin/")
@login_required
def queue() -> str:
    """The review queue: crawls that disagree with a verified schedule, and visitors' reports."""
    account = me()
    own = None if account.is_moderator else [account.parish_id]
    rows = correction_rows(conn())
    if own is not None:
        rows = [row for row in rows if row["parish_id"] in own]
    items = verified.open_review_items(conn(), own)
    names = {pid: query.get_parish(conn(), pid) for pid in {item["parish_id"] for item in items}}
    return render_template("admin_queue.html", groups=report_groups(rows), items=items, names=names)


@bp.post("/admin/zgloszenia")
@login_required
def settle_reports() -> BaseResponse:
    form = request.form
    parish_id = _form_id(form.get("parish_id"))
    _may(parish_id)
    kind, decision = form.get("kind", ""), form.get("decision", "")
    if kind not in KINDS or decision not in ("accept", "reject"):
        abort(400)
    new_time = form.get("new_time") or None if kind == "changed" else None
    if kind == "changed" and new_time is None:
        abort(400)
    where = (parish_id, form.get("day", ""), form.get("time", ""), kind, new_time)
    args = (*where, decision == "accept", me(), now())
    settled = _transaction(verified.settle_reports, *args)
    flash(f"Rozstrzygnięto zgłoszeń: {settled}.")
    return redirect(url_for("admin.queue"), code=303)


@bp.post("/admin/przeglad/<id:item_id>")
@login_required
def settle_crawl(item_id: int) -> BaseResponse:
    item = verified.review_item(conn(), item_id)
    if item is None:
        abort(404)
    _may(item["parish_id"])
    decision = request.form.get("decision", "")
    if decision not in ("accept", "keep"):
        abort(400)
    if not _transaction(verified.settle_crawl, item, decision == "accept", me(), now()):
        abort(400)  # settled already
    flash("Przyjęto odczyt strony." if decision == "accept" else "Zostaje potwierdzony porządek.")
    return redirect(url_for("admin.queue"), code=303)


def _form_id(value: str | None) -> int:
    if not value or not (value.isascii() and value.isdigit()) or len(value) > 10:
        abort(400)
    return int(value)


def _parish_or_404(parish_id: int) -> dict:
    parish = query.get_parish(conn(), parish_id)
    if parish is None:
        abort(404)
    return parish


@bp.route("/admin/parafia/<id:parish_id>", methods=["GET", "POST"])
@login_required
def parish(parish_id: int) -> str | BaseResponse | tuple[str, int]:
    """The verified-schedule form, starting from the verified schedule or else the crawl's reading, the
    crawl's sentence beside each time it read; the parish's audit log below."""
    _may(parish_id)
    parish = _parish_or_404(parish_id)
    problems: list[str] = []
    current = verified.verified_row(conn(), parish_id)
    reading = verified.crawl_reading(conn(), parish_id)
    schedule = current["schedule"] if current else reading
    if request.method == "POST":
        schedule, problems = schedule_form.parse(request.form)
        if not problems:
            _transaction(verified.save, parish_id, schedule, me(), now())
            log.info("verified schedule saved: parish %s by user %s", parish_id, me().id)
            flash("Zapisano potwierdzony porządek Mszy.")
            return redirect(url_for("admin.parish", parish_id=parish_id), code=303)
    evidence = {(m["day"], m["time"]): m for m in reading["masses"]}
    monthly = verified.monthly_units(schedule.get("monthly", []))  # a row a day: the form's day select
    html = render_template(
        "admin_parish.html",
        parish=parish,
        schedule=schedule,
        monthly=monthly,
        week_choices=schedule_form.WEEK_CHOICES,
        verified=current,
        evidence=evidence,
        problems=problems,
        blank=schedule_form.BLANK_ROWS,
        day_codes=schedule_form.DAYS,
        audit=verified.audit_entries(conn(), parish_id),
    )
    return html, (400 if problems else 200)


@bp.post("/admin/parafia/<id:parish_id>/cofnij")
@login_required
def undo(parish_id: int) -> BaseResponse:
    """Undo one audited change of this parish (the entry's id in the form; another parish's is a 404)."""
    _may(parish_id)
    entry_id = _form_id(request.form.get("entry"))
    if not any(e["id"] == entry_id for e in verified.audit_entries(conn(), parish_id)):
        abort(404)
    _transaction(verified.undo, entry_id, me(), now())
    flash("Cofnięto zmianę.")
    return redirect(url_for("admin.parish", parish_id=parish_id), code=303)


@bp.post("/admin/parafia/<id:parish_id>/wycofaj")
@login_required
def withdraw(parish_id: int) -> BaseResponse:
    """No verified schedule any more: the crawl's reading is published again."""
    _may(parish_id)
    _transaction(verified.withdraw, parish_id, me(), now())
    flash("Wycofano potwierdzenie: publikowany jest odczyt strony.")
    return redirect(url_for("admin.parish", parish_id=parish_id), code=303)


@bp.get("/admin/parafia/<id:parish_id>/dziennik.jsonl")
@login_required
def audit_export(parish_id: int) -> Response:
    _may(parish_id)
    return _jsonl(verified.audit_entries(conn(), parish_id), f"dziennik-{parish_id}.jsonl")


@bp.post("/admin/parafia/<id:parish_id>/zaproszenie")
@moderator_only
def issue_invite(parish_id: int) -> Response:
    """A single-use invite for the parish's office, shown once on this answer (never stored, never cached)."""
    parish = _parish_or_404(parish_id)
    days = current_app.config["INVITE_DAYS"]
    code = _transaction(accounts.create_invite, parish_id, me(), now(), days)
    log.info("invite issued: parish %s by user %s", parish_id, me().id)
    html = render_template(
        "admin_invited.html", parish=parish, path=url_for("admin.invite"), code=code, days=days
    )
    return Response(html, headers={"Cache-Control": "no-store"})


@bp.get("/admin/zgloszenia.jsonl")
@moderator_only
def labels_export() -> Response:
    """Reports as training labels (reports.training_labels): what `msze search corrections` prints."""
    return _jsonl(
        [label for row in correction_rows(conn(), newest_first=False) for label in training_labels(row)],
        "labels.jsonl",
    )


@bp.get("/admin/dziennik.jsonl")
@moderator_only
def audit_export_all() -> Response:
    return _jsonl(verified.audit_entries(conn()), "dziennik.jsonl")


def _jsonl(items: list[dict], filename: str) -> Response:
    return Response(
        "".join(json.dumps(item, ensure_ascii=False, default=str) + "\n" for item in items),
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f"attachment; filename={filename}"},
    )
