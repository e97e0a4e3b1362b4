"""Day headings and day phrases → the day label of an hour: sunday, weekday, saturday or holiday.

Day words are matched on letters only, so that "Środa18:00", "niedzielę8:00" (glued to the hour) still count.
Each phrase starts a word; the check is written once before all the alternatives, not once per alternative:
the same matches, and a scan about ten times faster (it runs on every line of every page).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence

from msze.extraction.rules.lines import words

SUNDAY, WEEKDAY, SATURDAY, HOLIDAY = "sunday", "weekday", "saturday", "holiday"
DAY_LOOKBEHIND = 200  # characters before an hour searched for its day phrase

_L = r"(?<![^\W\d_])"  # no letter before
_R = r"(?![^\W\d_])"  # no letter after
_W = r"[^\W\d_]*"  # the rest of the word, letters only


def _day_alternatives(*alternatives: str) -> str:
    return "|".join(alternatives)


_DAY_PATTERNS: list[tuple[str, str]] = [
    # order matters: the first pattern that matches at a position wins
    (_day_alternatives(rf"od\s+poniedzia{_W}\s+do\s+(?:piątku|soboty|czwartku){_R}"), WEEKDAY),
    (_day_alternatives(rf"(?:pn|pon)\.?\s*[-–]\s*(?:sob|so|sb|pt|pi){_R}\.?"), WEEKDAY),
    (_day_alternatives(f"niedziel{_W}", rf"niedz{_R}\.?", rf"nd{_R}\.?", rf"ndz{_R}\.?"), SUNDAY),
    (
        _day_alternatives(f"powszedn{_W}", rf"w\s+tygodniu{_R}", f"codziennie{_R}", rf"dni\s+robocze{_R}"),
        WEEKDAY,
    ),
    (
        _day_alternatives(f"poniedzia{_W}", f"wtor{_W}", f"środ[aęy]{_R}", f"czwart{_W}", f"piąt{_W}"),
        WEEKDAY,
    ),
    (_day_alternatives(f"sobot{_W}", rf"sob{_R}\.?", rf"sb{_R}\.?"), SATURDAY),
    (_day_alternatives(f"święt[aoy]{_R}", f"uroczystoś{_W}"), HOLIDAY),
]
DAY_ANY_RE = re.compile(_L + "(?:" + "|".join(p for p, _ in _DAY_PATTERNS) + ")", re.IGNORECASE)
# The same as one scan with a group per day (first group wins at a position, and a match hides what it covers:
# "Pn-Sb" is one weekday phrase): one pass over a line instead of one per pattern.
_DAY_GROUPS = [day for _, day in _DAY_PATTERNS]
_DAY_SCAN_RE = re.compile(
    _L + "(?:" + "|".join(f"(?P<d{i}>{p})" for i, (p, _) in enumerate(_DAY_PATTERNS)) + ")", re.IGNORECASE
)
# a line that starts with a day phrase: "w niedzielę: ...", "• Dni powszednie – ...", "NIEDZIELA 8:00"
LINE_DAY_HEAD_RE = re.compile(
    r"[\s•*·\-–—]*(?:(?:w|we|od|co|i|dni|dzień|każd[aąy]|msz[ae]\s+św\.?)\s+){0,3}(?:"
    + DAY_ANY_RE.pattern
    + ")",
    re.IGNORECASE,
)
# what may stand between a line's day heading and its first time: "Niedziele i święta: godz. 7:00"
HEAD_GAP_RE = re.compile(
    r"[^\W\d]*[\s:–—\-,.()]*(?:(?:i|oraz|do|lub|albo)\s+[^\W\d]+[\s:–—\-,.]*)?(?:godz\.?|g\.)?\s*", re.I
)
_MONTH_AFTER_RE = re.compile(
    r"\s+(?:stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada"
    r"|grudnia|adwentu|wielkanocne\w*)\b",
    re.IGNORECASE,
)
_DAY_JOIN_RE = re.compile(r"[\s,;/–\-]*(?:i|oraz|lub|albo)?[\s,]*", re.IGNORECASE)
# a day note right after an hour: "18.00 (sobota)", "08:00 - w poniedziałki, środy i piątki"
_DAY_AFTER_RE = re.compile(r"\s*(?:\(([^()\n]{1,60})\)|[-–—]\s*((?:w|we)\s+[^\d\n;.]{1,60}))")
_PARENS_RE = re.compile(r"\([^()\n]*\)")
_HEADING_FILLER_RE = re.compile(
    r"\b(?:w|we|i|oraz|dni|dzień|każd\w*|od|do|msze?\s+św\.?|godz\.?|:|\(.*?\))\b", re.IGNORECASE
)

_DayMatch = tuple[int, int, str]


def _day_matches(text: str) -> list[_DayMatch]:
    """Day phrases of ``text`` as sorted (start, end, day), without dates and phrases inside longer ones."""
    return [
        (m.start(), m.end(), _DAY_GROUPS[int(m.lastgroup[1:])])  # type: ignore[index]
        for m in _DAY_SCAN_RE.finditer(text)
        if not _MONTH_AFTER_RE.match(text, m.end())  # "ostatniej niedzieli października" is a date
    ]


def day_at(text: str) -> str | None:
    """The day category of the last day phrase in ``text``."""
    return _resolve_day(text, _day_matches(text))


def _resolve_day(text: str, found: Sequence[_DayMatch]) -> str | None:
    """The day of the last phrase in ``found`` (positions in ``text``), reading days named together."""
    if not found:
        return None
    # the last group of days named together ("wtorki, czwartki i soboty"): weekdays with Saturday = weekday
    group = [found[-1]]
    while len(group) < len(found):
        prev = found[-len(group) - 1]
        if not _DAY_JOIN_RE.fullmatch(text, prev[1], group[-1][0]):
            break
        group.append(prev)
    days = {d for _, _, d in group}
    day = found[-1][2]
    if WEEKDAY in days and SATURDAY in days and SUNDAY not in days:
        day = WEEKDAY
    best = (found[-1][0], day)
    # "niedziele i święta" / "święta" right after a Sunday word stays Sunday
    if best[1] == HOLIDAY and re.search(r"niedziel\w*\s+i\s+$", text[: best[0]], re.IGNORECASE):
        return SUNDAY
    return best[1]


class LineDays:
    """The day phrases and parentheses of one line, found once for all its hours."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.days = _day_matches(line)
        self.day_starts = [d[0] for d in self.days]
        self.parens = [m.span() for m in _PARENS_RE.finditer(line)]
        self.paren_starts = [p[0] for p in self.parens]

    def day_of(self, clause_start: int, s: int, e: int) -> str | None:
        """The day an hour's own words give it: a note right after it, else the last day phrase before it."""
        line = self.line
        m = _DAY_AFTER_RE.match(line, e)
        if m:
            note = m.group(1) or m.group(2)
            day = day_at(note)
            if day is not None and (m.group(2) is None or LINE_DAY_HEAD_RE.match(note)):
                return day
        lo = max(clause_start, s - DAY_LOOKBEHIND)
        window = self.days[bisect_left(self.day_starts, lo) : bisect_left(self.day_starts, s)]
        # "(sobota)" belongs to the hour before it, not to the ones after
        parens = [
            (a, b)
            for a, b in self.parens[bisect_left(self.paren_starts, lo) : bisect_left(self.paren_starts, s)]
            if b <= s
        ]
        found = [d for d in window if d[1] <= s and not any(a <= d[0] and d[1] <= b for a, b in parens)]
        return _resolve_day(line, found)


def is_day_heading(line: str) -> bool:
    """A short line naming days and nothing else ("w dni powszednie:", "NIEDZIELA I ŚWIĘTA")."""
    stripped = line.strip(" \t•*-–—:·")
    if not stripped or len(stripped) > 60 or not DAY_ANY_RE.search(stripped):
        return False
    rest = DAY_ANY_RE.sub(" ", stripped)
    rest = _HEADING_FILLER_RE.sub(" ", rest)
    return words(rest) <= 3
