"""Accounts of moderators and parish editors: argon2 password hashes, logins limited per account and per
client, server-side sessions and single-use invites. No Flask here: admin.py and cli.py call these.

A password or a token never reaches the database or a log as written: passwords as argon2id hashes
(memory-hard, argon2-cffi's RFC 9106 profile), session ids and invite tokens as SHA-256 (they are random, so a
fast hash is enough to make a stolen table useless).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, func, insert, select, update

from msze.search.db import invites, login_failures, login_sessions, parishes, users

ROLES = ("moderator", "editor")
MIN_PASSWORD = 12  # long passphrases rather than rules about characters (NIST SP 800-63B)
MAX_PASSWORD = 1000  # argon2 takes any length; a megabyte of "password" is only work for the server
_HASHER = PasswordHasher()
# compared against when the account does not exist, so an unknown name costs the same time as a wrong password
_DUMMY_HASH = _HASHER.hash(secrets.token_hex(16))


class AccountError(ValueError):
    """A user, password or invite that cannot be taken; the message is for the person who gave it."""


@dataclass(frozen=True)
class Limits:
    """How many failed logins a window allows per account and per client, and how long a lockout lasts (the
    app's LOGIN_* settings, msze/search/app.py)."""

    per_account: int
    per_client: int
    window_seconds: int
    lockout_seconds: int


@dataclass(frozen=True)
class Account:
    id: int
    username: str
    role: str
    parish_id: int | None

    @property
    def is_moderator(self) -> bool:
        return self.role == "moderator"

    def may_edit(self, parish_id: int) -> bool:
        """Moderators edit every parish; an editor only its own."""
        return self.is_moderator or self.parish_id == parish_id


def _aware(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def sha256(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise AccountError(f"Hasło musi mieć co najmniej {MIN_PASSWORD} znaków.")
    if len(password) > MAX_PASSWORD:
        raise AccountError(f"Hasło może mieć najwyżej {MAX_PASSWORD} znaków.")


def check_username(username: str) -> str:
    name = username.strip()
    if not (3 <= len(name) <= 100) or not name.isprintable() or " " in name:
        raise AccountError("Nazwa użytkownika: 3–100 znaków, bez spacji.")
    return name


def _account(row) -> Account:
    return Account(id=row.id, username=row.username, role=row.role, parish_id=row.parish_id)


def add_user(
    conn: Connection, username: str, password: str, role: str, parish_id: int | None, now: datetime
) -> Account:
    """A new account; AccountError for a taken name, a short password, an editor of no parish."""
    name = check_username(username)
    check_password(password)
    if role not in ROLES:
        raise AccountError(f"Rola: {' albo '.join(ROLES)}.")
    if role == "editor":
        if (
            parish_id is None
            or conn.execute(select(parishes.c.id).where(parishes.c.id == parish_id)).first() is None
        ):
            raise AccountError(f"Nie ma parafii o id {parish_id}.")
    else:
        parish_id = None
    if conn.execute(select(users.c.id).where(users.c.username == name)).first() is not None:
        raise AccountError(f"Użytkownik {name} już istnieje.")
    values = {
        "username": name,
        "password_hash": hash_password(password),
        "role": role,
        "parish_id": parish_id,
    }
    user_id = conn.execute(insert(users).values(created_at=now, **values)).inserted_primary_key[0]
    return Account(user_id, name, role, parish_id)


def _recent_failures(conn: Connection, column, value: str, since: datetime) -> int:
    stmt = (
        select(func.count()).select_from(login_failures).where(column == value, login_failures.c.at >= since)
    )
    return conn.execute(stmt).scalar_one()


def authenticate(
    conn: Connection, username: str, password: str, client: str, now: datetime, limits: Limits
) -> tuple[Account | None, str]:
    """(the account, "ok") for a right password; else (None, reason): "client-locked" after too many failures
    from this client, "locked" while the account is locked, "wrong" for a wrong name or password (the same
    answer for both). Every failure is recorded; the account is locked after `per_account` in the window."""
    since = now - timedelta(seconds=limits.window_seconds)
    conn.execute(delete(login_failures).where(login_failures.c.at < since))
    if _recent_failures(conn, login_failures.c.client, client, since) >= limits.per_client:
        return None, "client-locked"
    row = conn.execute(select(users).where(users.c.username == username[:100])).first()
    if row is not None and row.locked_until is not None and _aware(row.locked_until) > now:
        return None, "locked"
    stored = row.password_hash if row is not None and row.password_hash else _DUMMY_HASH
    try:
        good = _HASHER.verify(stored, password[:MAX_PASSWORD]) and row is not None and bool(row.password_hash)
    except (VerificationError, InvalidHashError):
        good = False
    if good:
        conn.execute(delete(login_failures).where(login_failures.c.username == row.username))
        if _HASHER.check_needs_rehash(row.password_hash):
            conn.execute(
                update(users).where(users.c.id == row.id).values(password_hash=hash_password(password))
            )
        return _account(row), "ok"
    name = username[:100]
    conn.execute(insert(login_failures).values(username=name, client=client, at=now))
    if (
        row is not None
        and _recent_failures(conn, login_failures.c.username, name, since) >= limits.per_account
    ):
        locked = now + timedelta(seconds=limits.lockout_seconds)
        conn.execute(update(users).where(users.c.id == row.id).values(locked_until=locked))
    return None, "wrong"


def new_session(conn: Connection, account: Account, now: datetime) -> str:
    """A fresh random session id for `account` (its hash stored): what the session cookie carries."""
    token = secrets.token_urlsafe(32)
    conn.execute(insert(login_sessions).values(id_hash=sha256(token), user_id=account.id, created_at=now))
    return token


def session_account(conn: Connection, token: str) -> Account | None:
    """The account of a session id, None when it was ended or never existed."""
    stmt = (
        select(users)
        .join(login_sessions, login_sessions.c.user_id == users.c.id)
        .where(login_sessions.c.id_hash == sha256(token))
    )
    row = conn.execute(stmt).first()
    return _account(row) if row is not None else None


def end_session(conn: Connection, token: str) -> None:
    conn.execute(delete(login_sessions).where(login_sessions.c.id_hash == sha256(token)))


def create_invite(conn: Connection, parish_id: int, by: Account, now: datetime, days: int) -> str:
    """A single-use invite for a parish's office, valid `days`; the token is returned once, stored hashed."""
    token = secrets.token_urlsafe(32)
    conn.execute(
        insert(invites).values(
            token_hash=sha256(token),
            parish_id=parish_id,
            created_by=by.id,
            created_at=now,
            expires_at=now + timedelta(days=days),
        )
    )
    return token


def invite_parish(conn: Connection, token: str, now: datetime) -> int | None:
    """The parish of a usable invite (not used, not expired), else None."""
    row = conn.execute(select(invites).where(invites.c.token_hash == sha256(token))).first()
    if row is None or row.used_at is not None or _aware(row.expires_at) <= now:
        return None
    return row.parish_id


def accept_invite(conn: Connection, token: str, username: str, password: str, now: datetime) -> Account:
    """The invite used up (one UPDATE, so two posts cannot both use it) and the parish's editor created;
    AccountError for a used or expired invite, a taken name, a short password."""
    name = check_username(username)
    check_password(password)
    parish_id = invite_parish(conn, token, now)
    if parish_id is None:
        raise AccountError("Zaproszenie jest nieważne: zostało już użyte albo wygasło.")
    if conn.execute(select(users.c.id).where(users.c.username == name)).first() is not None:
        raise AccountError(f"Użytkownik {name} już istnieje.")
    used = conn.execute(
        update(invites)
        .where(invites.c.token_hash == sha256(token), invites.c.used_at.is_(None), invites.c.expires_at > now)
        .values(used_at=now)
        .execution_options(preserve_rowcount=True)
    )
    if used.rowcount != 1:
        raise AccountError("Zaproszenie jest nieważne: zostało już użyte albo wygasło.")
    return add_user(conn, name, password, "editor", parish_id, now)
