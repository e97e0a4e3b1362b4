"""Decoding parish pages whose charset is not declared.

Scrapy decodes a body with the charset from the header, a BOM or ``<meta charset>``; when none is given
it tries ASCII, UTF-8 and then windows-1252, which turns windows-1250 / ISO-8859-2 Polish letters into
mojibake ("¹" for "ą"). Here the undeclared case goes to the Central-European decoding that yields Polish
letters.
"""

from __future__ import annotations

import codecs

POLISH_LETTERS = frozenset("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ")
# Characters that the wrong one of cp1250 / iso-8859-2 produces from Polish letters.
_SUSPECT = frozenset("¹¥œŒŸ¿¯±¡¶¦¼¬\x8c\x8f\x9c\x9f")
CANDIDATES = ("utf-8", "windows-1250", "iso-8859-2")


def _score(text: str) -> int:
    return sum(1 for ch in text if ch in POLISH_LETTERS) - 2 * sum(1 for ch in text if ch in _SUSPECT)


def guess_encoding(body: bytes) -> str:
    """The most likely encoding of an undeclared Polish page.

    UTF-8 when it decodes, else the Central-European code page that yields the most Polish letters
    (windows-1250 on a tie: the commoner one on Polish sites).
    """
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"
    best, best_score = "windows-1250", None
    for encoding in CANDIDATES[1:]:
        score = _score(body.decode(encoding, errors="replace"))
        if best_score is None or score > best_score:
            best, best_score = encoding, score
    return best


POLISH_ONLY = frozenset("ąćęłńśźżĄĆĘŁŃŚŹŻ")  # not in Latin-1 ("ó" is)
MIN_POLISH_LETTERS = 3  # evidence needed to overrule a declared charset


def _canonical(encoding: str) -> str:
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        return encoding.lower()


# Declared charsets that cannot hold Polish letters: a Polish page declaring one was saved in a code page.
# Canonical codec names, looked up once (compared with the canonical name of each page's declaration).
_WESTERN = frozenset(
    _canonical(name)
    for name in (
        "ascii",
        "us-ascii",
        "latin-1",
        "latin1",
        "iso-8859-1",
        "iso8859-1",
        "cp1252",
        "windows-1252",
    )
)


def correct_encoding(body: bytes, declared: str | None) -> str | None:
    """The encoding to decode a Polish page with when its declaration is missing or wrong, else None.

    - nothing declared: guess_encoding();
    - UTF-8 declared (often a server default) but the bytes are not UTF-8: the Central-European code page,
      when it yields Polish letters;
    - a Western charset declared (Latin-1, windows-1252, ASCII) but the bytes decode to Polish letters in a
      Central-European code page (at least MIN_POLISH_LETTERS of the letters Latin-1 lacks): that code page.
    """
    if not declared:
        return guess_encoding(body)
    name = _canonical(declared)
    if name == "utf-8":
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            guess = guess_encoding(body)
            return guess if _score(body.decode(guess, errors="replace")) > 0 else None
        return None
    if name in _WESTERN and any(byte >= 0x80 for byte in body):
        guess = guess_encoding(body)
        if guess != "utf-8":
            text = body.decode(guess, errors="replace")
            if sum(1 for ch in text if ch in POLISH_ONLY) >= MIN_POLISH_LETTERS and _score(text) > 0:
                return guess
    return None
