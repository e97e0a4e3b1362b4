"""Decoding parish pages whose charset is not declared.

Scrapy decodes a body with the charset from the header, a BOM or ``<meta charset>``; when none is given
it tries ASCII, UTF-8 and then windows-1252, which turns windows-1250 / ISO-8859-2 Polish letters into
mojibake ("¹" for "ą"). Here the undeclared case goes to the Central-European decoding that yields Polish
letters.
"""

from __future__ import annotations

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
