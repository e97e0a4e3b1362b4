"""msze.utils.database: `--db` takes a SQLAlchemy URL or a plain file path, which means SQLite."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import make_url

from msze.utils.database import database_url


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///annotator.sqlite3",
        "sqlite:////var/lib/msze/a.sqlite3",
        "sqlite://",
        "postgresql+psycopg://user:p%40ss@db.example.org:5432/msze?sslmode=require",
    ],
)
def test_urls_are_kept_as_given(url: str) -> None:
    assert database_url(url) == url


@pytest.mark.parametrize(
    "path",
    [
        "a.sqlite",
        "data/a.sqlite3",
        "/tmp/annotator.sqlite3",
        "/tmp/odd name?x=1#frag 100%20.db",  # query, fragment and escape characters are part of the name
        "C:/labels.db",  # a colon is not a scheme without "://"
    ],
)
def test_a_path_is_that_sqlite_file(path: str) -> None:
    url = make_url(database_url(path))
    assert url.get_backend_name() == "sqlite" and url.database == path
    assert make_url(database_url(Path(path))).database == str(Path(path))


@pytest.mark.parametrize("blank", ["", "   "])
def test_no_database_is_an_error_not_an_in_memory_one(blank: str) -> None:
    with pytest.raises(ValueError, match="no database given"):
        database_url(blank)
