"""The fastText input for one hour candidate: the hour marked and normalised, in a window of words.

fastText is a bag of words and word n-grams, so the line is built to make the useful signals plain words:

* the hour itself becomes ``<h> h18 m30 </h>``: the marker lets the neighbours form bigrams with it
  ("godz <h>", "</h> -"), and hour/minute tokens carry the prior that Masses start at 7, 18 or at :00/:30;
  a bare hour ("godz. 7") also gets ``bare``, because bare numbers are often not times at all;
* other times in the window become ``_time_`` and other numbers ``_num_`` (dates, street numbers), so the
  vocabulary does not split on every figure;
* line breaks are tokens (``_nl_``, ``_par_`` for a blank line): a schedule is a list of short lines;
* punctuation is a token of its own ("-" after an hour means a range start, "(" a remark);
* lowercase, Polish diacritics folded ("sw" = "św", pages write both);
* inside the marker, ``rfrom`` / ``rto`` when the hour starts or ends a range ("16:00 - 17:30",
  "do godz. 20.00"): one strong word instead of a dash lost among forty others;
* the hour's own line again, prefixed ``b_`` / ``a_`` (see :func:`hour_features`).

The window is counted in tokens (words, punctuation, line-break marks) before and after the hour. Window
sizes and these choices were compared by site-grouped cross-validation (msze/models/README.md).
"""

from __future__ import annotations

import bisect
import functools
import re

from msze.extraction.hours import SUPERSCRIPT_DIGITS as _SUPS
from msze.extraction.hours import SUPERSCRIPT_TO_DIGITS
from msze.utils.text import strip_marks

# Bump when the line hour_features builds changes for the same input: models record it and refuse to load
# with other features (msze.classifier.model).
FEATURES_VERSION = 3
DEFAULT_BEFORE = 20
DEFAULT_AFTER = 10
DEFAULT_NEAR = 8

# How far to look for the window's tokens; a window of 40 tokens never needs more text than this.
_SCAN_CHARS = 600

_SUPERSCRIPT_MINUTES_RE = re.compile(r"(\d)([" + _SUPS + r"]+)")  # "7³⁰" is 7:30, not 730
# ł has no decomposition in Unicode, so NFKD alone does not fold it.
_FOLD = str.maketrans({"ł": "l", "Ł": "l"})

# Run on the text lowercased and with ł → l (both keep offsets), so token spans are offsets in the page text.
_TOKEN_RE = re.compile(
    r"(?P<par>\n[ \t\r\f\v]*\n\s*)"
    r"|(?P<nl>\n)"
    r"|(?P<time>(?<![\d" + _SUPS + r"])(?:[01]?\d|2[0-4])"
    r"(?:\s?[:.]\s?(?:[0-5]\d|[0-5]?o{1,2})(?!\d|[.]\d)"  # 7:30, 7.oo, 10.3o
    r"|[⁰¹²³⁴⁵][" + _SUPS + r"](?![" + _SUPS + r"])))"  # 7³⁰
    r"|(?P<num>[\d" + _SUPS + r"]+)"
    r"|(?P<word>[^\W\d_" + _SUPS + r"]+)"
    r"|(?P<punct>[^\w\s])"
)
_MARKS = {"par": "_par_", "nl": "_nl_", "time": "_time_", "num": "_num_"}


def fold(text: str) -> str:
    """Lowercase, superscript digits to digits, Polish diacritics stripped."""
    text = _SUPERSCRIPT_MINUTES_RE.sub(r"\1:\2", text)
    return strip_marks(text.translate(SUPERSCRIPT_TO_DIGITS).translate(_FOLD).lower())


# the words of a page are the same few Polish words over and over: cached
_fold_non_ascii = functools.lru_cache(maxsize=65_536)(strip_marks)


def _fold_word(word: str) -> str:
    return word if word.isascii() else _fold_non_ascii(word)  # ASCII has nothing to strip


def _lowered(text: str) -> str:
    """The text the tokens are read from: lowercased and ł → l, with the offsets of ``text``."""
    low = text.lower()
    if len(low) != len(text):  # a few characters lowercase to two ("İ"): keep offsets, lose their case only
        low = "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in text)
    return low.replace("ł", "l")  # the _FOLD of a lowercased text ("Ł" is "ł" by now), many times faster


class _TokenScan:
    """The tokens of a lowered text from ``pos`` on, read only as far as asked.

    ``pos`` must be 0 or a token boundary (:func:`_boundary_before`): from there the tokens are the ones
    :func:`token_spans` finds in the whole text.
    """

    def __init__(self, low: str, pos: int) -> None:
        self.pos = pos
        self.toks: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.done = False
        self._matches = _TOKEN_RE.finditer(low, pos)

    @property
    def reach(self) -> int:
        """Where the text read so far ends."""
        return self.ends[-1] if self.ends else self.pos

    def read_to(self, pos: int) -> None:
        """Read until a token starts at or after ``pos``, or the text ends."""
        if self.starts and self.starts[-1] >= pos:
            return
        toks, starts, ends = self.toks, self.starts, self.ends
        for match in self._matches:
            kind = match.lastgroup
            tok = match.group()
            toks.append(_fold_word(tok) if kind == "word" else _MARKS.get(kind, tok))
            starts.append(match.start())
            ends.append(match.end())
            if starts[-1] >= pos:
                return
        self.done = True

    def read_past(self, end: int, count: int) -> None:
        """Read until ``count`` tokens start at or after ``end``, or the text ends."""
        self.read_to(end)
        while not self.done and len(self.starts) - bisect.bisect_left(self.starts, end) < count:
            self.read_to(self.starts[-1] + 1)


def _boundary_before(low: str, pos: int, floor: int) -> int | None:
    """The last position in (floor, pos] where the tokens of the whole ``low`` have a boundary, or None.

    A space right after a letter: the letter's token (a word, or the "o" of "7.oo") ends at the space, so a
    scan started there finds the same tokens as one started at 0.
    """
    if pos <= floor:
        return None
    q = low.rfind(" ", floor + 1, pos + 1)
    while q > floor:
        if low[q - 1].isalpha():
            return q
        q = low.rfind(" ", floor + 1, q)
    return None


def token_spans(text: str) -> tuple[list[str], list[int], list[int]]:
    """The feature tokens of a text with their spans: (tokens, starts, ends), offsets in ``text``."""
    scan = _TokenScan(_lowered(text), 0)
    scan.read_to(len(text) + 1)
    return scan.toks, scan.starts, scan.ends


def tokens(text: str) -> list[str]:
    """The feature tokens of a stretch of text (no hour marking)."""
    return token_spans(text)[0]


def parse_hour(written: str) -> tuple[int, int, bool] | None:
    """(hour, minute, bare) of an hour as written ("7.oo", "18:30", "1830", "17 30", "7³⁰", "7"), else None.

    ``bare`` is True when no minutes were written ("godz. 7").
    """
    s = fold(written).replace("o", "0")
    groups = re.findall(r"\d+", s)
    if not groups:
        return None
    if len(groups) >= 2:
        hour, minute, bare = int(groups[0]), int(groups[1][:2]), False
    elif len(groups[0]) >= 3:  # flattened superscript: "1830", "600"
        hour, minute, bare = int(groups[0][:-2]), int(groups[0][-2:]), False
    else:
        hour, minute, bare = int(groups[0]), 0, True
    return hour, minute, bare


def hour_tokens(written: str) -> list[str]:
    """The marked, normalised hour: ``<h> h07 m00 </h>`` (plus ``bare`` when no minutes were written)."""
    parsed = parse_hour(written)
    if parsed is None:
        return ["<h>", "</h>"]
    hour, minute, bare = parsed
    out = ["<h>", f"h{hour:02d}", f"m{minute:02d}"]
    if bare:
        out.append("bare")
    out.append("</h>")
    return out


def _same_line(toks: list[str], lo: int, hi: int, n: int, reverse: bool) -> list[str]:
    """Up to ``n`` tokens of ``toks[lo:hi]`` next to the hour on its own line (stop at a line break)."""
    out: list[str] = []
    order = range(hi - 1, lo - 1, -1) if reverse else range(lo, hi)
    for i in order:
        tok = toks[i]
        if tok in ("_nl_", "_par_") or len(out) >= n:
            break
        out.append(tok)
    return out[::-1] if reverse else out


_DASHES = ("-", "–", "—")
_UNTIL = ("do", "-", "–", "—")
_FIGURES = ("_time_", "_num_")


def _range_marks(toks: list[str], left_end: int, right_start: int) -> list[str]:
    """``rfrom`` when the hour starts a range ("16:00 - 17:30", "od 16 do 18"), ``rto`` when it ends one
    ("- 17:30", "do godz. 20.00"): range ends are never Mass starts, range starts rarely."""
    marks = []
    after = toks[right_start : right_start + 4]
    figure_next = len(after) >= 2 and (
        after[1] in _FIGURES or (after[1] in ("godz", "g") and any(t in _FIGURES for t in after[2:4]))
    )
    if figure_next and after[0] in _UNTIL:
        marks.append("rfrom")
    before = toks[max(0, left_end - 3) : left_end]
    if (
        before and before[-1] in _DASHES and left_end >= 2 and toks[left_end - 2] in _FIGURES
    ) or "do" in before:
        marks.append("rto")
    return marks


def _features(
    toks: list[str], starts: list[int], ends: list[int], written: str, start: int, end: int,
    before: int, after: int, near: int,
) -> str:  # fmt: skip
    left_end = bisect.bisect_right(ends, start)  # tokens wholly before the hour
    right_start = bisect.bisect_left(starts, end)  # tokens wholly after it
    parts = [*toks[max(0, left_end - before) : left_end]] if before > 0 else []
    marked = hour_tokens(written)
    marked[-1:-1] = _range_marks(toks, left_end, right_start)
    parts += marked
    if after > 0:
        parts += toks[right_start : right_start + after]
    if near > 0:
        parts += [f"b_{t}" for t in _same_line(toks, 0, left_end, near, reverse=True)]
        parts += [f"a_{t}" for t in _same_line(toks, right_start, len(toks), near, reverse=False)]
    return " ".join(parts)


def hour_features(
    text: str,
    start: int,
    end: int,
    before: int = DEFAULT_BEFORE,
    after: int = DEFAULT_AFTER,
    near: int = DEFAULT_NEAR,
) -> str:
    """The fastText input line for the hour at ``text[start:end]``: window before, marked hour, window after,
    then up to ``near`` tokens each side from the hour's own line, again, prefixed ``b_`` / ``a_``.

    The wide window sees the block's header ("Msze święte"); but fastText averages its words, so office hours
    just under a Mass schedule would look like Masses. The prefixed same-line words ("b_kancelaria", "a_-")
    are separate features that let the hour's own line speak louder. The result is one line, no label.
    """
    if not 0 <= start < end <= len(text):
        raise ValueError(f"hour span {start}:{end} is outside the text (length {len(text)})")
    lo = max(0, start - _SCAN_CHARS)
    piece = text[lo : end + _SCAN_CHARS]
    toks, starts, ends = token_spans(piece)
    return _features(toks, starts, ends, text[start:end], start - lo, end - lo, before, after, near)


def page_features(
    text: str,
    spans: list[tuple[int, int]],
    before: int = DEFAULT_BEFORE,
    after: int = DEFAULT_AFTER,
    near: int = DEFAULT_NEAR,
) -> list[str]:
    """:func:`hour_features` for many hours of one text, tokenising the text once (the classifier's path)."""
    if not spans:
        return []
    for start, end in spans:
        if not 0 <= start < end <= len(text):
            raise ValueError(f"hour span {start}:{end} is outside the text (length {len(text)})")
    if len(spans) == 1:
        start, end = spans[0]
        return [hour_features(text, start, end, before, after, near)]
    # The tokens of the whole text, but read only around the hours: a long page with a few hours costs little.
    low = _lowered(text)
    need_before = max(before, near, 3)  # tokens _features reads before an hour (_range_marks: 3)
    need_after = max(after, near, 4)  # ... and after it (_range_marks: 4)
    out = [""] * len(spans)
    scan = _TokenScan(low, 0)
    for i in sorted(range(len(spans)), key=spans.__getitem__):
        start, end = spans[i]
        scan = _scan_before(low, start, need_before, scan)
        scan.read_past(end, need_after)
        out[i] = _features(
            scan.toks, scan.starts, scan.ends, text[start:end], start, end, before, after, near
        )
    return out


_BACK_CHARS = 400  # page_features: how far before an hour a fresh scan starts (doubled until enough tokens)


def _scan_before(low: str, start: int, need: int, scan: _TokenScan) -> _TokenScan:
    """A scan with ``need`` tokens (or all) before ``start``: a fresh one from a boundary shortly before it,
    or ``scan`` itself (hours in order) when there is no boundary between what it has read and there."""
    back = _BACK_CHARS
    while True:
        pos = _boundary_before(low, start - back, scan.reach)
        if pos is None:
            return scan
        fresh = _TokenScan(low, pos)
        fresh.read_to(start)
        if bisect.bisect_right(fresh.ends, start) >= need:
            return fresh
        back *= 2
