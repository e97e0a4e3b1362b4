"""The hour extractor: every string in a page's text that may be a clock time.

Very high recall, low precision.

The thesis rule (``THESIS_HOUR_RE`` and the border rules) is kept exactly in :func:`find_hours_thesis`;
:func:`find_hours` finds a superset of it: every thesis hit, plus the forms real parish pages use
(``7.oo``, ``7,00``, ``8: 00``, ``7³⁰``, superscripts flattened to ``7 00`` / ``700``, ``godz.7``, ``18-tej``,
both ends of ``16:00-18:00``, times glued to words as in ``niedzielę8:00``), each normalised to ``HH:MM``
with its span and the words around it. Deciding which hit is a Mass start is the rule extractor's and the
classifier's job.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# The thesis regex and borders, verbatim.
THESIS_HOUR_RE = re.compile(r"(0?[6-9]|1\d|2[0-2])[:.](oo|[0-5]\d)|6|7|8|9|1\d|2[0-2]")
THESIS_BEFORE = frozenset(",(/")  # plus whitespace and the start of the text
THESIS_AFTER = frozenset(",);/")  # plus whitespace and the end of the text

CONTEXT_CHARS = 100  # characters of context kept on each side of an hour (widened to whole words)
WIDEN_CHARS = 30  # at most this many more characters to reach a word boundary
_SPACE_RE = re.compile(r"\s")
_LAST_SPACE_RE = re.compile(r"\s(?=\S*\Z)")

SUPERSCRIPT_DIGITS = "⁰¹²³⁴⁵⁶⁷⁸⁹"  # "7³⁰": minutes some pages write as superscript digits
SUPERSCRIPT_TO_DIGITS = str.maketrans(SUPERSCRIPT_DIGITS, "0123456789")
_SUPERSCRIPT = SUPERSCRIPT_DIGITS  # short name for the pattern below

# a time whose superscript minutes were flattened onto its hour ("700", "1830"): the hours a Mass starts at
_GLUED_HOUR = r"0?[5-9]|1\d|2[0-3]"
_ROUND_MINUTES = r"00|15|30|45"
_GLUED_TIME = rf"(?:{_GLUED_HOUR})(?:{_ROUND_MINUTES})"

# One pass over the text; the alternatives are tried in this order at every position. Each starts with a
# digit: the leading "(?=\d)" says so once, and the scan passes the letters between numbers ~10x faster.
_CANDIDATE_RE = re.compile(
    r"(?=\d)(?<![\d" + _SUPERSCRIPT + r"])(?:"
    # 7:00, 7.00, 7,00, 7.oo, 6.3o, 8: 00, 21 : 00
    r"(?P<h1>\d{1,2})(?P<s1>[ \t]?:[ \t]?|[.,])(?P<m1>[0-5][0-9oO]|[oO]{2})(?![\d" + _SUPERSCRIPT + r"])"
    # 7³⁰ (Unicode superscript minutes)
    r"|(?P<h2>\d{1,2})(?P<m2>[⁰¹²³⁴⁵]" + f"[{_SUPERSCRIPT}]" + r")(?![\d" + _SUPERSCRIPT + r"])"
    # 18-tej, 7-mej (ordinal hour)
    r"|(?P<h3>\d{1,2})-?(?P<ord>tej|ej|stej|ą|tą|ta|mej|ma)\b"
    # 7 00, 18\n00, 19 oo, 8 3o (superscript flattened with a space): only round minutes
    r"|(?P<h4>\d{1,2})(?:[ \t]|\n)(?P<m4>00|15|30|45|[oO]{2}\b|3[oO]\b)(?!\d)"
    # 700, 0800, 1830 (superscript flattened without a space): only round minutes
    rf"|(?P<h5>{_GLUED_HOUR})(?P<m5>{_ROUND_MINUTES})(?!\d)"
    # a bare hour: 7, 18
    r"|(?P<h6>\d{1,2})(?!\d)"
    r")"
)

# Words after which a bare number is an hour even where the thesis borders say no ("godz.7", "o godz. 7.").
_HOUR_WORD_BEFORE_RE = re.compile(r"(?:godz(?:in[aęiy]e?)?|g)\.?\s*$", re.IGNORECASE)
_LEAD_DIGITS_RE = re.compile(r"\d{1,2}")
_LIST_BEFORE_RE = re.compile(r"\d(?:,\s+|\s+(?:i|oraz|lub)\s+)$")  # "7, 9, 17 i " before the last of a list
_PM_AFTER_RE = re.compile(r"\s?(?:p\.\s?m\.?|pm\b)", re.IGNORECASE)  # "6.00 p.m.", "6 pm"
_DIGIT_GROUP_BEFORE_RE = re.compile(r"\d[ \-]\Z")
_DIGIT_GROUP_AFTER_RE = re.compile(r"[ \-]\d")
_YEAR_AFTER_RE = re.compile(r"\s?(?:r\.|r\b|rok|roku|lat(?:a|ach|ami|y)?\b)", re.IGNORECASE)  # "2000 lat"
_YEAR_BEFORE_RE = re.compile(
    r"(?:\b(?:w|roku|r\.|lat|latach|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września"
    r"|października|listopada|grudnia|(?-i:[IVX]{1,4}))\s+|\b\d{4}\s?[-–/]\s?)$",
    re.IGNORECASE,
)


# Hours written as words: "o siódmej", "o wpół do ósmej", "o godzinie osiemnastej"
_HOUR_WORDS = {
    "szóstej": 6, "siódmej": 7, "ósmej": 8, "dziewiątej": 9, "dziesiątej": 10, "jedenastej": 11,
    "dwunastej": 12, "trzynastej": 13, "czternastej": 14, "piętnastej": 15, "szesnastej": 16,
    "siedemnastej": 17, "osiemnastej": 18, "dziewiętnastej": 19, "dwudziestej": 20,
    "dwudziestej pierwszej": 21, "dwudziestej drugiej": 22, "północy": 24,
}  # fmt: skip
# what comes before an hour word: "o siódmej", "godz. ósmej", "o godzinie wpół do ósmej"
_WORD_HOUR_BEFORE_RE = re.compile(
    r"(?<![^\W\d_])(?:o|godz\.|godzinie)\s+(?:godz(?:\.|inie)\s+)?(?P<half>wpół\s+do\s+)?\Z", re.IGNORECASE
)
_WORD_AFTER_RE = re.compile(r"\s+(pierwszej|drugiej)(?![^\W\d_])", re.IGNORECASE)
_HOUR_WORD_FORMS = [
    form for word in _HOUR_WORDS if " " not in word for form in (word, word.capitalize(), word.upper())
]

# a day.month right by a day's name is a date, not a time: "17.07 (niedziela)", "Wtorek, 21.10"
_DAY_NAME = r"(?:poniedzia|wtor|środ|czwart|piąt|sobot|niedziel|pon\.|wt\.|śr\.|czw\.|pt\.|sob\.|niedz\.)"
# a month after a day's number: "18 października", "1 XI"
_MONTH_AFTER_RE = re.compile(
    r"\s+(?:stycz|lut|mar|kwie|maj|czerw|lip|sierp|wrze|październ|listopad|grud)\w*"
    r"|\s*(?:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)\b"
)
# the books of the Bible as Polish lectionaries abbreviate them, before a chapter,verse
_BIBLE_BEFORE_RE = re.compile(
    r"(?<![^\W\d_])(?:Mt|Mk|Łk|Lk|J|Jn|Dz|Rz|[12]\s?Kor|Ga|Ef|Flp|Kol|[12]\s?Tes|[12]\s?Tm|Hbr|Jk|[12]\s?P"
    r"|[123]\s?J|Ap|Ps|Iz|Jr|Ez|Dn|Rdz|Wj|Kpł|Lb|Pwt|Syr|Mdr|Prz|Koh|Hi|Tb|[12]\s?Mch|Oz|Jl|Am|Mi|So|Za|Ml)"
    r"\.?\s*$"
)
_DAY_NAME_AFTER_RE = re.compile(r"\.?\s*[(,]?\s*" + _DAY_NAME, re.IGNORECASE)
_DAY_NAME_BEFORE_RE = re.compile(_DAY_NAME + r"[^\W\d_]*\.?\s*[,(]?\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Hour:
    """One clock-time candidate: as written, normalised, where it is, and the words around it."""

    text: str  # as written, e.g. "7.oo"
    time: str  # normalised "HH:MM", e.g. "07:00"
    start: int  # text[start:end] == self.text
    end: int
    context: str  # text[context_start:context_start + len(context)]
    context_start: int


def _thesis_border_ok(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    if not (before.isspace() or before in THESIS_BEFORE):
        return False
    if not (after.isspace() or after in THESIS_AFTER):
        return False
    return not (before == "(" and after == ")")


def find_hours_thesis(text: str) -> list[tuple[int, int]]:
    """The thesis extractor exactly: spans of regex matches whose borders satisfy rules 2–4."""
    spans = []
    n = len(text)
    for i in range(n):
        # Try a match at every start position (the rules define which strings are hours, not a scan order).
        prev = text[i - 1] if i else " "
        if not (prev.isspace() or prev in THESIS_BEFORE):
            continue
        for length in (5, 4, 3, 2, 1):
            j = i + length
            if j > n:
                continue
            if THESIS_HOUR_RE.fullmatch(text, i, j) and _thesis_border_ok(text, i, j):
                spans.append((i, j))
                break
    return spans


def _context(text: str, start: int, end: int, chars: int = CONTEXT_CHARS) -> tuple[str, int]:
    lo = max(0, start - chars)
    hi = min(len(text), end + chars)
    # widen to whole words, but never by more than WIDEN_CHARS characters (text without spaces)
    if lo > 0 and not text[lo - 1].isspace():
        m = _LAST_SPACE_RE.search(text, max(0, lo - WIDEN_CHARS), lo)
        if m:
            lo = m.end()
        elif lo <= WIDEN_CHARS:
            lo = 0
    if hi < len(text) and not text[hi].isspace():
        m = _SPACE_RE.search(text, hi, hi + WIDEN_CHARS)
        if m:
            hi = m.start()
        elif hi + WIDEN_CHARS >= len(text):
            hi = len(text)
    return text[lo:hi], lo


def _minutes(raw: str) -> str:
    raw = raw.translate(SUPERSCRIPT_TO_DIGITS).replace("o", "0").replace("O", "0")
    return raw


def _separated_ok(text: str, start: int, end: int, hour: int, minute: str, sep: str) -> bool:
    if not (5 <= hour <= 24 or (hour == 0 and ":" in sep)):
        return False
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    after2 = text[end + 1] if end + 1 < len(text) else " "
    # part of a bigger number: "1.10.20", "22.03.2020" (a comma before is a list: "8.00,18.00")
    if before in ".:" and start > 1 and text[start - 2].isdigit():
        return False
    if after in ".:" and after2.isdigit():
        return False
    # a Bible verse "Mk 13,35", "J 3.16"
    if sep in ",." and _BIBLE_BEFORE_RE.search(text, max(0, start - 8), start):
        return False
    # a date "23.03." (day.month.): dot-separated, month 01–12, closing dot, or by a day's name
    if sep == "." and minute.isdigit() and 1 <= int(minute) <= 12:
        if after == "." or _DAY_NAME_AFTER_RE.match(text, end):
            return False
        if _DAY_NAME_BEFORE_RE.search(text, max(0, start - 16), start):
            return False
    return hour != 24 or minute == "00"


# three or more flattened times in a row, a space apart, nothing but them: "700 800 900 1600 1900"
_TIME_RUN_RE = re.compile(rf"(?<!\d)(?<!\d ){_GLUED_TIME}(?: {_GLUED_TIME}){{2,}}(?![\d])")
_GLUED_BEFORE_RE = re.compile(rf"(?<!\d){_GLUED_TIME}$")
_GLUED_AFTER_RE = re.compile(rf"{_GLUED_TIME}(?![\d,.])")


# two flattened times after a label's colon, ending the line: "Dni powszednie: 700 1700"
_LABELLED_PAIR_RE = re.compile(rf"(?<=:)[ \t]*{_GLUED_TIME} {_GLUED_TIME}[ \t]*(?=\n|$)")


def _in_time_run(text: str, start: int, end: int) -> bool:
    """Whether the glued time at ``start`` stands in a run of such times ("700 800 900", or two after a
    label's colon), not a number's."""
    lo = max(0, start - 40)
    runs = (*_TIME_RUN_RE.finditer(text, lo, end + 40), *_LABELLED_PAIR_RE.finditer(text, lo, end + 40))
    return any(m.start() <= start and end <= m.end() for m in runs)


def _glued_ok(text: str, start: int, end: int) -> bool:
    """700 / 1830 is an hour unless it looks like a year or part of a date or a number."""
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    # "800,1200" lists two flattened times; "3.1800", "1200,50" are numbers
    listed_before = before == "," and _GLUED_BEFORE_RE.search(text, max(0, start - 6), start - 1)
    if before in ".,:/-" and start > 1 and text[start - 2].isdigit() and not listed_before:
        return False
    listed_after = after == "," and _GLUED_AFTER_RE.match(text, end + 1)
    if after in ".,:/-" and end + 1 < len(text) and text[end + 1].isdigit() and not listed_after:
        return False
    if _YEAR_AFTER_RE.match(text, end):
        return False
    # a group of a phone or account number: "61 845 30 00", "601 715 200"; not a run of flattened times
    # ("700 800 900 1600 1900")
    if (
        _DIGIT_GROUP_BEFORE_RE.search(text, max(0, start - 2), start)
        or _DIGIT_GROUP_AFTER_RE.match(text, end)
    ) and not _in_time_run(text, start, end):
        return False
    window = text[max(0, start - 12) : start]
    return not (end - start == 4 and _YEAR_BEFORE_RE.search(window))


def _bare_ok(text: str, start: int, end: int, hour: int) -> bool:
    # ("Mk 13,35": a chapter the thesis takes for an hour too; the rules find no hour word by it)
    if _MONTH_AFTER_RE.match(text, end):
        return False  # "18 października", "18 X": a date
    if (_thesis_border_ok(text, start, end) or _list_end_ok(text, start, end, hour)) and (6 <= hour <= 22):
        return True
    before_text = text[max(0, start - 12) : start]
    if not _HOUR_WORD_BEFORE_RE.search(before_text) or not 0 <= hour <= 24:
        return False
    after = text[end] if end < len(text) else " "
    after2 = text[end + 1] if end + 1 < len(text) else " "
    if after.isspace() or after in ",);/-–":
        return True
    # "o godz. 7. Msze": a closing full stop
    return after == "." and (after2.isspace() or after2 == " ")


def _list_end_ok(text: str, start: int, end: int, hour: int) -> bool:
    """The last of a list of hours closed by a full stop: "o godz. 7, 9, 17 i 20." (the thesis's borders
    take no full stop after a number, "20. rocznica" being an ordinal)."""
    after = text[end : end + 2]
    return (
        6 <= hour <= 22
        and (after == "." or (after[:1] == "." and after[1:].isspace()))
        and bool(_LIST_BEFORE_RE.search(text, max(0, start - 8), start))
    )


def find_hours(text: str, limit: int | None = None) -> list[Hour]:
    """Every clock-time candidate in ``text``, in order, with its normalised ``HH:MM`` and context.

    ``limit`` stops after that many hours (a bound on the work for pathological pages).
    """
    hours = _digit_hours(text, limit)
    worded = _word_hours(text)
    if worded:
        hours = sorted(hours + worded, key=lambda h: h.start)[:limit]
    return hours


def _word_hours(text: str) -> list[Hour]:
    """Hours written as words ("o siódmej", "o wpół do ósmej"): the words are the hour's text. Found by
    plain substring search (no regex runs over the page), then checked around."""
    hours = []
    for form in _HOUR_WORD_FORMS:
        i = text.find(form)
        while i >= 0:
            end = i + len(form)
            if (end == len(text) or not text[end].isalpha()) and (i == 0 or not text[i - 1].isalpha()):
                hour = _word_hour(text, i, end, form.lower())
                if hour is not None:
                    hours.append(hour)
            i = text.find(form, end)
    return sorted(hours, key=lambda h: h.start)


def _word_hour(text: str, start: int, end: int, word: str) -> Hour | None:
    before = _WORD_HOUR_BEFORE_RE.search(text[max(0, start - 40) : start])
    if before is None:
        return None
    hour = _HOUR_WORDS[word]
    if word == "dwudziestej" and (more := _WORD_AFTER_RE.match(text, end)):
        hour, end = _HOUR_WORDS[f"dwudziestej {more.group(1).lower()}"], more.end()
    if before["half"]:
        start -= len(before["half"])
        time = f"{hour - 1:02d}:30"
    else:
        time = f"{hour % 24:02d}:00"  # "o północy": 00:00
    context, context_start = _context(text, start, end)
    return Hour(text[start:end], time, start, end, context, context_start)


def _digit_hours(text: str, limit: int | None) -> list[Hour]:
    """The hours written with digits, in one pass of _CANDIDATE_RE."""
    hours: list[Hour] = []
    matches = _CANDIDATE_RE.finditer(text)
    while (limit is None or len(hours) < limit) and (m := next(matches, None)) is not None:
        start, end = m.span()
        ok = True
        if m["h1"] is not None:
            hour, minute = int(m["h1"]), _minutes(m["m1"])
            ok = _separated_ok(text, start, end, hour, minute, m["s1"])
        elif m["h2"] is not None:
            hour, minute = int(m["h2"]), _minutes(m["m2"])
            ok = 0 <= hour <= 24
        elif m["h3"] is not None:
            hour, minute = int(m["h3"]), "00"
            ok = 5 <= hour <= 24
        elif m["h4"] is not None:
            hour, minute = int(m["h4"]), _minutes(m["m4"])
            ok = 5 <= hour <= 24 and _glued_ok(text, start, end)
        elif m["h5"] is not None:
            hour, minute = int(m["h5"]), m["m5"]
            ok = _glued_ok(text, start, end)
        else:
            hour, minute = int(m["h6"]), "00"
            ok = _bare_ok(text, start, end, hour)
            if not ok:
                continue
        if not ok:
            # A longer form was rejected ("3,20", "7 00-lecie"): its leading number may still be a bare hour,
            # and what follows it is scanned again.
            lead = _LEAD_DIGITS_RE.match(text, start)
            assert lead is not None
            end = lead.end()
            matches = _CANDIDATE_RE.finditer(text, end)
            hour, minute = int(lead.group()), "00"
            if not _bare_ok(text, start, end, hour):
                continue
        if m["h3"] is not None:
            end = start + len(m["h3"])  # the hour is the number; "-tej" is context
        if 1 <= hour < 12 and _PM_AFTER_RE.match(text, end):
            hour += 12  # a parish's English page: "6.00 p.m." (a.m. and "12.30 p.m." stand as written)
        context, context_start = _context(text, start, end)
        hours.append(
            Hour(
                text=text[start:end],
                time=f"{hour:02d}:{minute}",
                start=start,
                end=end,
                context=context,
                context_start=context_start,
            )
        )
    return hours
