"""Page language detection with py3langid (a maintained langid.py fork that ships its model).

Parish sites carry pages in English, German or Ukrainian next to Polish ones; the hour rules and the
classifier are Polish, so processing can keep only the pages of the languages asked for (a batch may select
outputs by language).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

UNDETERMINED = "und"  # ISO 639-2 code for "cannot tell": empty pages, pages of numbers and menus only
MIN_LETTERS = 20  # fewer letters than this carry no language signal worth trusting
MAX_CHARS = 2_000  # the start of a page says its language (1 000 chars already did on test pages)


@lru_cache(maxsize=1)
def _identifier():  # noqa: ANN202 - py3langid's class is untyped
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def _has_letters(text: str, wanted: int) -> bool:
    """At least `wanted` letters (stops counting as soon as there are enough)."""
    for ch in text:
        if ch.isalpha():
            wanted -= 1
            if wanted <= 0:
                return True
    return False


def detect_language(text: str | None, min_confidence: float = 0.0) -> str:
    """The ISO 639-1 code of the text's language; "und" when the text is too short or the guess weak."""
    if not text:
        return UNDETERMINED
    sample = text[:MAX_CHARS]
    if not _has_letters(sample, MIN_LETTERS):
        return UNDETERMINED
    code, confidence = _identifier().classify(sample)
    if confidence < min_confidence:
        return UNDETERMINED
    return str(code)


def parse_languages(values: Iterable[str] | None) -> frozenset[str]:
    """`--lang pl --lang en` or `--lang pl,en` → {"pl", "en"}; empty means every language."""
    codes: set[str] = set()
    for value in values or ():
        codes.update(part.strip().lower() for part in value.split(",") if part.strip())
    return frozenset(codes)


def language_selected(language: str | None, wanted: frozenset[str]) -> bool:
    """True when no languages were asked for, or the page's language is one of them."""
    return not wanted or (language or UNDETERMINED) in wanted
