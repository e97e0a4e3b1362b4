"""A page's text as the rules read it: lines (cut when very long), clauses inside a line, prose or list.

A cue decides the hours of its own clause only, and a prose line's hours need a cue of their own, so these
are the units every decision is made in.
"""

from __future__ import annotations

import re

MAX_LINE_CHARS = 2000  # longer lines (text without line breaks) are cut, which keeps the rules linear in size
PROSE_MIN_WORDS = 8  # a line of at least this many words ending in a full stop is a sentence, not a list
PROSE_WORDS_PER_HOUR = (
    6  # ... unless it has an hour for every this many words (a schedule written as a sentence)
)

# Clause ends inside a line: ".", "!" or "?" followed by a capitalised word ("W pierwszym" too, and "W Wielki
# Czwartek", a one-letter preposition before a capitalised word), except after an abbreviation.
_SENTENCE_END_RE = re.compile(
    r"[.!?](?=\s+[A-ZĄĆĘŁŃÓŚŹŻ](?:[a-ząćęłńóśźż]|\s+[a-ząćęłńóśźż]|(?<=[WZ])\s+[A-ZĄĆĘŁŃÓŚŹŻ][a-ząćęłńóśźż]))"
)
_ABBREVIATIONS = frozenset(
    [
        "św",
        "godz",
        "ks",
        "bp",
        "abp",
        "ul",
        "nr",
        "pw",
        "p",
        "k",  # "Zalesie k. Poznania": "koło"
        "w",  # "p.w. Św. Anny": the preposition never ends a sentence
        "al",
        "im",
        "tel",
        "r",
        "g",
        "ok",
        "o",
        "m",
        "in",
        "ss",
        "oo",
        "śp",
        "np",
        "tzw",
        "dn",
        "nmp",
        "bł",
        "o.o",
        "ks.",
        # the days' abbreviations: "sb. Filia Gola 17.00" is one clause
        *("pn", "pon", "wt", "wtr", "śr", "czw", "pt", "sb", "sob", "nd", "ndz", "niedz"),
    ]
)
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
_OO_MINUTES_RE = re.compile(r"\d[.:]\d?o{1,2}$", re.IGNORECASE)  # "18.oo.": a time's minutes, not "o.o."
_LIST_ITEM_RE = re.compile(r"\s*(?:\d{1,2}[.)]|[IVX]{1,4}\.)\s+[^\W\d]")


def words(text: str) -> int:
    """The number of words (runs of letters) in ``text``: the rules' measure of distance and length."""
    return len(_WORD_RE.findall(text))


def line_bounds(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line; a line longer than MAX_LINE_CHARS is cut at spaces so work stays linear."""
    bounds = []
    pos = 0
    for part in text.split("\n"):
        end = pos + len(part)
        a = pos
        while end - a > MAX_LINE_CHARS:
            cut = text.rfind(" ", a + MAX_LINE_CHARS // 2, a + MAX_LINE_CHARS)
            if cut <= a:
                cut = a + MAX_LINE_CHARS
            bounds.append((a, cut))
            a = cut
        bounds.append((a, end))
        pos = end + 1
    return bounds


def clause_starts(line: str) -> list[int]:
    """Where the line's clauses start (0 first): after a sentence end that is no abbreviation ("św. Jana")."""
    starts = [0]
    for m in _SENTENCE_END_RE.finditer(line):
        before = line[max(0, m.start() - 6) : m.start()]
        found = _WORD_RE.findall(before)
        ends_time = line[m.start() - 1].isdigit() or _OO_MINUTES_RE.search(before)
        if found and found[-1].lower() in _ABBREVIATIONS and not ends_time:
            continue
        starts.append(m.end())
    return starts


def is_prose(line: str, hours: int = 0) -> bool:
    """A sentence (an announcement item, a paragraph), not a schedule line: its times need their own cue."""
    n = words(line)
    if n < PROSE_MIN_WORDS or n < PROSE_WORDS_PER_HOUR * hours:
        return False
    stripped = line.rstrip()
    return stripped.endswith((".", "!", "?")) or bool(_LIST_ITEM_RE.match(line))
