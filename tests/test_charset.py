"""Undeclared charsets of Polish pages: UTF-8, windows-1250 and ISO-8859-2 told apart by the letters."""

from __future__ import annotations

import pytest

from msze.charset import guess_encoding

TEXT = "<p>Porządek Mszy świętych. Źródło łaski, żywa wiara; Ślub, Ćwiczenia, Żółć.</p>"


@pytest.mark.parametrize("encoding", ["utf-8", "windows-1250", "iso-8859-2"])
def test_guess_encoding(encoding: str) -> None:
    body = TEXT.encode(encoding)
    guessed = guess_encoding(body)
    assert body.decode(guessed) == TEXT


def test_ascii_is_utf8() -> None:
    assert guess_encoding(b"<p>Msze 7:00</p>") == "utf-8"
