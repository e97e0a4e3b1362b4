"""What a command's `--db` names: a SQLAlchemy URL, or a plain file path that means a SQLite database."""

from __future__ import annotations

import os
import re

# A URL starts with a scheme and "://" (sqlite:///a.db, postgresql+psycopg://h/db); anything else is a path.
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def database_url(path_or_url: str | os.PathLike[str]) -> str:
    """The SQLAlchemy URL for `path_or_url`: a URL as given, a file path as a SQLite URL of that file.

    The path is put into the URL by SQLAlchemy itself, so `?`, `#` and `%` in a file name stay part of the
    name (pasted after "sqlite:///" they would be read as a query, a fragment or an escape).
    ValueError for an empty or blank value (SQLite would take it as a throwaway in-memory database).
    """
    text = os.fspath(path_or_url)
    if not isinstance(path_or_url, os.PathLike) and _SCHEME_RE.match(text):
        return text
    if not text.strip():
        raise ValueError("no database given: a file path or a SQLAlchemy URL")
    from sqlalchemy.engine import URL

    return URL.create("sqlite", database=text).render_as_string(hide_password=False)
