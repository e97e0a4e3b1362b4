"""The fastText input for one hour candidate: the hour marked and normalised, in a window of words.

fastText is a bag of words and word n-grams, so the line is built to make the useful signals plain words:

* the hour itself becomes ``<h> h18 m30 </h>``: the marker lets the neighbours form bigrams with it
  ("godz <h>", "</h> -"), and hour/minute tokens carry the prior that Masses start at 7, 18 or at :00/:30;
  a bare hour ("godz. 7") also gets ``bare``, because bare numbers are often not times at all;
* other times in the window become ``_time_`` and other numbers ``_num_`` (dates, street numbers), so the
  vocabulary does not split on every figure;
* line breaks are tokens (``_nl_``, ``_par_`` for a blank line): a schedule is a list of short lines;
* punctuation is a token of its own ("-" after an hour means a range start, "(" a remark);
* lowercase, Polish diacritics folded ("sw" = "św", pages write both).

The window is counted in tokens (words, punctuation, line-break marks) before and after the hour.
"""

from __future__ import annotations

import re
import unicodedata

DEFAULT_BEFORE = 20
DEFAULT_AFTER = 10
DEFAULT_NEAR = 8

# How far to look for the window's tokens; a window of 40 tokens never needs more text than this.
_SCAN_CHARS = 600

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
_SUPERSCRIPT_MINUTES_RE = re.compile(r"(\d)([⁰¹²³⁴⁵⁶⁷⁸⁹]+)")  # "7³⁰" is 7:30, not 730
# ł has no decomposition in Unicode, so NFKD alone does not fold it.
_FOLD = str.maketrans({"ł": "l", "Ł": "l"})

_TOKEN_RE = re.compile(
    r"(?P<par>\n[ \t\r\f\v]*\n\s*)"
    r"|(?P<nl>\n)"
    r"|(?P<time>(?<!\d)(?:[01]?\d|2[0-4])\s?[:.]\s?(?:[0-5]\d|[0-5]?[oO]{1,2}|[0-5]o)(?!\d|[.]\d))"
    r"|(?P<num>\d+)"
    r"|(?P<word>[^\W\d_]+)"
    r"|(?P<punct>[^\w\s])"
)


def fold(text: str) -> str:
    """Lowercase, superscript digits to digits, Polish diacritics stripped."""
    text = _SUPERSCRIPT_MINUTES_RE.sub(r"\1:\2", text)
    text = text.translate(_SUPERSCRIPTS).translate(_FOLD).lower()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokens(text: str) -> list[str]:
    """The feature tokens of a stretch of text (no hour marking)."""
    out: list[str] = []
    for match in _TOKEN_RE.finditer(fold(text)):
        kind = match.lastgroup
        if kind == "par":
            out.append("_par_")
        elif kind == "nl":
            out.append("_nl_")
        elif kind == "time":
            out.append("_time_")
        elif kind == "num":
            out.append("_num_")
        else:
            out.append(match.group())
    return out


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


def _same_line(toks: list[str], n: int, reverse: bool) -> list[str]:
    """Up to ``n`` tokens next to the hour that are on its own line (stop at a line break)."""
    seq = reversed(toks) if reverse else iter(toks)
    out = []
    for tok in seq:
        if tok in ("_nl_", "_par_") or len(out) >= n:
            break
        out.append(tok)
    return out[::-1] if reverse else out


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
    left_all = tokens(text[max(0, start - _SCAN_CHARS) : start])
    right_all = tokens(text[end : end + _SCAN_CHARS])
    left = left_all[-before:] if before > 0 else []
    right = right_all[:after] if after > 0 else []
    parts = [*left, *hour_tokens(text[start:end]), *right]
    if near > 0:
        parts += [f"b_{t}" for t in _same_line(left_all, near, reverse=True)]
        parts += [f"a_{t}" for t in _same_line(right_all, near, reverse=False)]
    return " ".join(parts)
