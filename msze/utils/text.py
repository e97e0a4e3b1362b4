"""Folding Polish text for comparison: case and diacritics do not matter to a search or a feature."""

from __future__ import annotations

import unicodedata


def strip_marks(text: str) -> str:
    """The text without combining marks (Polish diacritics: "ą" → "a"; "ł" has none, callers map it)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def fold(text: str | None) -> str:
    """Search key: lower case, Polish diacritics removed, whitespace collapsed ("Łódź " -> "lodz")."""
    if not text:
        return ""
    return " ".join(strip_marks(text.lower().replace("ł", "l")).split())
