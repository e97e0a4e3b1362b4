"""Undeclared charsets of Polish pages: UTF-8, windows-1250 and ISO-8859-2 told apart by the letters."""

from __future__ import annotations

import pytest

from msze.crawling.charset import correct_encoding, guess_encoding

TEXT = "<p>Porządek Mszy świętych. Źródło łaski, żywa wiara; Ślub, Ćwiczenia, Żółć.</p>"


@pytest.mark.parametrize("encoding", ["utf-8", "windows-1250", "iso-8859-2"])
def test_guess_encoding(encoding: str) -> None:
    body = TEXT.encode(encoding)
    guessed = guess_encoding(body)
    assert body.decode(guessed) == TEXT


def test_ascii_is_utf8() -> None:
    assert guess_encoding(b"<p>Msze 7:00</p>") == "utf-8"


def test_correct_encoding_without_declaration_guesses() -> None:
    assert correct_encoding(TEXT.encode("iso-8859-2"), None) == "iso-8859-2"


@pytest.mark.parametrize("declared", ["utf-8", "UTF8"])
def test_utf8_declared_over_code_page_bytes(declared: str) -> None:
    assert correct_encoding(TEXT.encode("windows-1250"), declared) == "windows-1250"
    assert correct_encoding(TEXT.encode("utf-8"), declared) is None  # right: keep it


@pytest.mark.parametrize("declared", ["iso-8859-1", "windows-1252", "cp1252", "latin-1", "us-ascii"])
def test_western_declared_over_polish_text(declared: str) -> None:
    assert correct_encoding(TEXT.encode("windows-1250"), declared) == "windows-1250"
    assert correct_encoding(TEXT.encode("iso-8859-2"), declared) == "iso-8859-2"


def test_true_western_or_right_declarations_are_kept() -> None:
    french = "<p>Fête de l'église à Noël, crème brûlée</p>".encode("cp1252")
    assert correct_encoding(french, "windows-1252") is None
    assert correct_encoding(TEXT.encode("iso-8859-2"), "iso-8859-2") is None
    assert correct_encoding(b"<p>Msze 7:00</p>", "iso-8859-1") is None
