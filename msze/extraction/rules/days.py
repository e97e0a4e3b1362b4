"""Day headings and day phrases → the days of the week an hour is held on.

A phrase gives a set of days (``mon`` … ``sun``, ``holiday``): "niedziele i święta" is Sunday and the holy
days, "wtorek, czwartek, sobota" three days, "pn.–pt." and "od wtorku do piątku" ranges. "Dni powszednie",
"w tygodniu" and "od poniedziałku do soboty" are Monday–Saturday in Polish church usage, and "codziennie"
every day: these are *generic*, and a schedule that gives Saturday (or Sunday) its own times narrows them
(reading.finish). The coarse category of the first version (sunday / weekday / saturday / holiday)
follows from the set (:meth:`Days.category`).

Day words are matched on letters only, so that "Środa18:00", "niedzielę8:00" (glued to the hour) still count.
Each phrase starts a word; the check is written once before all the alternatives, not once per alternative:
the same matches, and a scan about ten times faster (it runs on every line of every page).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from msze.extraction.rules.lines import words
from msze.utils.vocabulary import DAYS, WEEK

SUNDAY, WEEKDAY, SATURDAY, HOLIDAY = "sunday", "weekday", "saturday", "holiday"
DAY_ORDER = {d: i for i, d in enumerate(DAYS)}
DAY_LOOKBEHIND = 200  # characters before an hour searched for its day phrase


@dataclass(frozen=True, slots=True)
class Days:
    """The days a phrase names; ``generic`` for "dni powszednie" / "codziennie" (narrowed by the schedule)."""

    days: frozenset[str]
    generic: bool = False
    rest: bool = False  # "w pozostałe dni": less the days the schedule gives their own times (reading.finish)

    @property
    def category(self) -> str:
        """The first version's coarse day: sunday, saturday, holiday or weekday."""
        if "sun" in self.days and not (self.generic and len(self.days) == len(WEEK)):
            return SUNDAY
        if self.days == {"holiday"}:
            return HOLIDAY
        if self.days == {"sat"}:
            return SATURDAY
        return WEEKDAY

    def ordered(self) -> list[str]:
        """The days in calendar order (holiday last): the JSON form."""
        return sorted(self.days, key=DAY_ORDER.__getitem__)

    def __or__(self, other: Days) -> Days:
        return Days(self.days | other.days, self.generic or other.generic, self.rest or other.rest)


def days_of(*names: str, generic: bool = False) -> Days:
    return Days(frozenset(names), generic)


MON_SAT = days_of(*WEEK[:6], generic=True)
EVERY_DAY = days_of(*WEEK, generic=True)
SUN_HOLIDAY = days_of("sun", "holiday", generic=True)
# "w pozostałe dni", "inne dni", "poza tym o 18.00": the days of the phrase's scope not named before it
# (_other_days); markers of no days that never leave this module ("pozostałe dni powszednie": of Mon–Sat)
_OTHER, _OTHER_WEEKDAYS = Days(frozenset()), Days(frozenset(), generic=True)

_L = r"(?<![^\W\d_])"  # no letter before
_R = r"(?![^\W\d_])"  # no letter after
_W = r"[^\W\d_]*"  # the rest of the word, letters only
_DOT = rf"{_R}\.?"  # an abbreviation: the word ends, a full stop may follow
# a two-letter abbreviation ("Cz. 18:00", "So. 18:00", as a directory writes them) only right before a time:
# "cz. 2" is a part (or at the end of an hour's words, where the time was); or labelling a line ("pn. - so.:")
_AT_TIME = r"(?=\s*[-–—:]?\s*(?:\d{1,2}[.:]\d\d|godz|$)|\s*:)"


def _spaced(stem: str) -> str:
    """A day word written letter-spaced, as headings do ("S O B O T A", "N I E D Z I E L E"): the stem's
    letters one space apart, then the rest of the word so."""
    return r"[ \t]".join(stem) + r"(?:[ \t][^\W\d_])*" + _R


# "Msze Święte", "Mszy Świętej": the adjective of a Mass, no holy day
_NOT_AFTER_MASS = "".join(rf"(?<!{w}\s)" for w in ("msza", "msze", "mszy", "mszą", "mszach", "mszami"))
# order matters: the first pattern that matches at a position wins
_DAY_PATTERNS: list[tuple[str, Days]] = [
    # "święta przypadające w dni powszednie", "święta kościelne (dni robocze)", "święta w tygodniu", "w dni
    # świąt zniesionych": the holy days that fall on weekdays, not the weekdays ("Msze Święte w dni
    # powszednie" is a Mass heading, and a table's far cell another column)
    (
        rf"{_NOT_AFTER_MASS}(?:dni[ \t]+)?święt{_W}"
        rf"(?:[ \t]+(?:kościeln|zniesion|nieobowiązk|nieobowiązując){_W})?"
        rf"(?:[ \t]{{1,2}}|,[ \t]?|[ \t]?\()(?:(?:przypadając|obchodzon){_W}[ \t]+)?(?:w[ \t]+)?"
        rf"(?:(?:dni|dniach)[ \t]+(?:powszedn|robocz|prac){_W}|tygodni{_W})\)?"
        rf"|(?:dni[ \t]+)?świąt[ \t]+(?:zniesion|nieobowiązk|nieobowiązując|kościeln){_W}",
        days_of("holiday"),
    ),
    # "w wigilię niedzieli", "w przeddzień niedzieli", "w wieczór poprzedzający niedzielę": Saturday evening,
    # the vigil (not "w niedzielę wieczorem")
    (
        rf"(?:wigili{_W}|przeddzień|przeddni{_W}|(?:wieczór|wieczorem|dzień|dniu)\s+poprzedzając{_W})\s+niedziel{_W}",
        days_of("sat"),
    ),
    (_spaced("dni") + r"[ \t]+" + _spaced("powszedn"), MON_SAT),
    *(
        (_spaced(stem), days_of(day))
        for stem, day in (
            ("niedziel", "sun"),
            ("poniedział", "mon"),
            ("wtor", "tue"),
            ("środ", "wed"),
            ("czwart", "thu"),
            ("piąt", "fri"),
            ("sobot", "sat"),
            ("święt", "holiday"),
        )
    ),
    (
        # "w tygodniu codziennie", "codziennie w dni powszednie": the weekdays' every day; "Dzień pow."
        rf"(?:w\s+tygodniu|(?:w\s+)?dni\s+powszedn{_W})\s+codzienn{_W}"
        rf"|codzienn{_W}\s+(?:w\s+tygodniu{_R}|w\s+dni\s+powszedn{_W})"
        rf"|(?:dni|dzień)\s+powszedn{_W}|powszedn{_W}|(?:dni|dzień)\s+pow{_DOT}|w\s+(?:ciągu\s+)?tygodni[ua]{_R}"
        rf"|dni\s+robocze{_R}"
        rf"|porząd{_W}\s+zwykł{_W}|dni\s+zwykł{_W}",
        MON_SAT,
    ),
    (rf"codzienn{_W}|każdego\s+dnia{_R}|wszystkie\s+dni(?:\s+tygodnia)?{_R}", EVERY_DAY),
    (rf"(?:pozostał{_W}|inn{_W})\s+dni\s+powszedn{_W}", _OTHER_WEEKDAYS),
    (
        rf"(?:pozostał{_W}|inn{_W})\s+dni(?:\s+tygodnia)?{_R}|poza\s+tym(?=[\s,:]*(?:o\s|godz|\d))",
        _OTHER,
    ),
    # "dni świąteczne", "porządek świąteczny": Sundays and holy days; only the holy days where Sunday has
    # its own times (generic, narrowed like "codziennie")
    # (the adjective agrees with "porządek": "porządek niedzielnych Mszy", "w porządku niedzielne Eucharystie"
    # are the Sunday Masses, Sunday alone)
    (rf"(?:dni|dzień|porząd{_W})\s+świąteczn{_W}|porząd{_W}\s+niedzieln(?:y|ego|ym){_R}", SUN_HOLIDAY),
    (r"(?:niedz|ndz|nd)\.\s*i\s+św\.", days_of("sun", "holiday")),  # "ndz. i św.": Sundays and holy days
    # a parish's English page: "Sundays and holidays: 7:00", "weekdays: 18:00"
    (rf"sundays?\s+and\s+(?:holidays|holy\s+days|feasts){_R}", days_of("sun", "holiday")),
    (rf"week\s?days?{_R}", MON_SAT),
    *(
        (rf"{name}s?{_R}", days_of(day))
        for name, day in (
            ("sunday", "sun"),
            ("monday", "mon"),
            ("tuesday", "tue"),
            ("wednesday", "wed"),
            ("thursday", "thu"),
            ("friday", "fri"),
            ("saturday", "sat"),
        )
    ),
    # "w Dzień Pański", "w dniu Pańskim": Sunday as the liturgy names it
    (rf"(?:dzień|dniu|dnia)\s+pańsk{_W}", days_of("sun")),
    # "Niedziala i święta": the day misspelt as the web writes it too
    (rf"niedziel{_W}|niedzial[aęy]{_R}|niedz{_DOT}|ndz{_DOT}|nd{_DOT}", days_of("sun")),
    (rf"poniedzia{_W}|pon{_DOT}|pn{_DOT}", days_of("mon")),
    (rf"wtor{_W}|wt{_DOT}", days_of("tue")),
    (rf"środ{_W}|śr{_DOT}", days_of("wed")),
    (rf"czwart{_W}|czw{_DOT}|cz\.{_AT_TIME}", days_of("thu")),
    # "piętek": the typo as pages write it
    (rf"piąt(?:ek|ku|ki|kach|kami|kiem|kowe?\w*){_R}|piętek{_R}|pt{_DOT}|pią{_DOT}", days_of("fri")),
    (rf"sobot{_W}|sob{_DOT}|sb{_DOT}|so\.{_AT_TIME}", days_of("sat")),
    (rf"święt[aoy]{_R}|uroczystoś{_W}", days_of("holiday")),
]
DAY_ANY_RE = re.compile(_L + "(?:" + "|".join(p for p, _ in _DAY_PATTERNS) + ")", re.IGNORECASE)
# The same as one scan with a group per phrase kind (first group wins at a position, and a match hides what
# it covers): one pass over a line instead of one per pattern.
_DAY_VALUES = [days for _, days in _DAY_PATTERNS]
_DAY_SCAN_RE = re.compile(
    _L + "(?:" + "|".join(f"(?P<d{i}>{p})" for i, (p, _) in enumerate(_DAY_PATTERNS)) + ")", re.IGNORECASE
)
# a line that starts with a day phrase: "w niedzielę: ...", "• Dni powszednie – ...", "NIEDZIELA 8:00",
# "Msze sw. w niedziele:" (typed without Polish letters)
LINE_DAY_HEAD_RE = re.compile(
    r"[\s•*·\-–—]*(?:(?:w|we|od|co|i|dni|dzień|każd[aąy]|msz[ae]\s+(?:św|sw|święte)\.?)\s+){0,3}(?:"
    + DAY_ANY_RE.pattern
    + ")",
    re.IGNORECASE,
)
# what may stand between a line's day heading and its first time: "Niedziele i święta: godz. 7:00"
HEAD_GAP_RE = re.compile(
    r"[^\W\d]*[\s:–—\-,.()]*(?:(?:i|oraz|do|lub|albo)\s+[^\W\d]+[\s:–—\-,.]*)?(?:o\s+)?"
    r"(?:godz\.?|godzin\w*|g\.)?\s*",
    re.I,
)
# the months in the genitive, as dates write them ("21 października"); after a day, they and a Sunday's
# liturgical name ("II Niedziela Zwykła", "Niedziela Palmowa", an announcements page's title) make a date
MONTH_WORDS = (
    r"stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada|grudnia"
)
_MONTH_AFTER_RE = re.compile(
    rf"\s+(?:{MONTH_WORDS}|adwentu|wielkanocn\w*|zwykł\w*|(?:wielkiego\s+)?postu|palmow\w*|(?:bożego\s+)?miłosierdzia"
    r"|zesłania|zmartwychwstania|dobrego\s+pasterza|popielcow\w*)\b",
    re.IGNORECASE,
)
_HOLY_MASS_BEFORE_RE = re.compile(r"msz\w*\s+$", re.IGNORECASE)  # "Msza święta" is no holy day
# "Msza z liturgii niedzieli", "z niedzieli", "w sobotę poprzedzającą niedzielę": the Saturday vigil's note,
# no Sunday
_FROM_SUNDAY_BEFORE_RE = re.compile(r"\b(?:z\s+(?:liturgi\w*\s+)?|poprzedzając\w*\s+)$", re.IGNORECASE)
# "w sobotę Msza św. niedzielna godz. 19.00", "sobota – Msza niedzielna": Saturday's Mass is Sunday's (the
# vigil), the adjective no Sunday of its own
_SATURDAY_MASS_BEFORE_RE = re.compile(
    r"sobot\w*\s*[,–—-]?\s*(?:(?:o\s+)?(?:godz\.?\s*)?\d{1,2}[.:]\d\d\s*[,–—-]?\s*)?msz\w*\s+(?:św\.?\s*|święt\w*\s+)?$",
    re.IGNORECASE,
)
# "wtorki, czwartki i soboty", "w poniedziałek i w sobotę", "niedziele oraz w niektóre święta", "we wtorki i
# pierwszą sobotę miesiąca" (the monthly day is told apart by reading.finish)
_DAY_JOIN_RE = re.compile(
    r"[\s,;/–\-]*(?:(?:i|oraz|lub|albo|a\s+także)"
    r"(?:\s+(?:w|we|wybrane|niektóre|inne|pierwsz\w*|ostatni\w*|(?-i:I)(?:-\w+)?))*)?[\s,]*",
    re.IGNORECASE,
)
# "codziennie oprócz środy", "18.00 z wyjątkiem wtorku i czwartku", "w dni powszednie (oprócz środy)"
_EXCEPT_RE = re.compile(
    r"[\s,(]*(?:opr[óo]cz|prócz|poza|[zx]a?\s+wyjątkiem|z\s+wyj\.|bez)\s*$", re.IGNORECASE
)
# "18.00 oprócz wtorku", "18.00 - za wyjątkiem czwartku - 8.00", "godz. 18 (z wyjątkiem wtorku)"
_EXCEPT_AFTER_RE = re.compile(
    r"[\s,–—-]*\(?\s*(?:opr[óo]cz|prócz|poza|[zx]a?\s+wyjątkiem|z\s+wyj\.)\s*(?!tym\b)", re.IGNORECASE
)
# "7.00, 18.30 (we wtorki także o 9.00)": a time the day has as well, not instead
AS_WELL_RE = re.compile(r"\b(?:także|również|też|dodatkowo|ponadto)\b", re.IGNORECASE)
# "w dni powszednie o 7.00, we wtorki o 8.30, oraz wieczorem o 18.30": after a time, a phrase turns back
# from the days named last to the wider ones before them
_SCOPE_TURN_RE = re.compile(
    r"\d\s*[,;]?\s*(?:oraz|a\s+także|zaś|natomiast|a)\s+(?:wieczor\w*|ran[oe]\w*|po\s+południu|popołudni\w*)",
    re.IGNORECASE,
)
_DAY_RANGE_RE = re.compile(r"\s*[-–—]\s*|\s+do\s+", re.IGNORECASE)  # "pn.–pt.", "od wtorku do piątku"
# a day note right after an hour: "18.00 (sobota)", "08:00 - w poniedziałki, środy i piątki"
_DAY_AFTER_RE = re.compile(r"\s*(?:\(([^()\n]{1,90})\)|[-–—]\s*((?:w|we)\s+[^\d\n;.]{1,60}))")
PARENS_RE = re.compile(r"\([^()\n]*\)")
_LABEL_AFTER_RE = re.compile(r"\s*:")  # "w niedziele:": a day phrase labelling the list after it
# "7.00 - w poniedziałki w kaplicy, 8.30": a day in the note after a time is that time's, not the next ones
_NOTE_CHUNK_END_RE = re.compile(r"\s*(?:[,;]|\s[-–—]|[-–—]\s)")  # where a note's items end
_NOTE_OF_TIME_RE = re.compile(r"\d[.:]\d\d\s*[-–—]\s*(?:w|we)?\s*$", re.IGNORECASE)
_AFTER_NAME_RE = re.compile(r"[^\W\d_]{3}\s*$")  # a parenthesis right after a word, not after a time
# days written after a list of times, up to the clause's end: "godz. 18.00 od poniedziałku do piątku; godz.
# 17.00 w sobotę", "Msze o 6.45 i 16.00 w dni powszednie.", "17.00 - poniedziałek, środa; 7.00 - czwartek"
_DAYS_TRAIL_RE = re.compile(
    r"(?:\s*(?:,|i|oraz)\s*(?:o\s+)?(?:godz\.?\s*)?\d{1,2}[.:]\d\d)*"
    r"\s*(?:[-–—]\s*|\s(?=(?:w|we|od)\s))((?:(?:w|we|od)\s+)?[^\W\d][^\d\n;.()]{0,50}?)\s*(?=[;.](?:\s|$)|$)",
    re.IGNORECASE,
)
# "18:00 (msza niedzielna)", "17.00 (z liturgii niedzieli)": a note that the Saturday time is Sunday's (the
# vigil), not that it is on Sunday
VIGIL_WORDS = (
    r"niedzieln\w*|wigilijn\w*|(?:z\s+(?:liturgi\w*\s+)?|wigili\w*\s+|przeddzień\s+|poprzedzając\w*\s+)niedziel\w*"
    r"|antycyp\w*"
)
_VIGIL_NOTE_RE = re.compile(VIGIL_WORDS, re.IGNORECASE)
_HEADING_FILLER_RE = re.compile(
    r"\b(?:w|we|i|oraz|dni|dzień|każd\w*|od|do|msze?\s+św\.?|godz\.?|wiecz(?:ór|orem)|:|\(.*?\))\b",
    re.IGNORECASE,
)

_DayMatch = tuple[int, int, Days]
# an item that opens with a name: "; Biskupice godz. 18.00" (a day opening it is the item's own)
CAPITAL = r"(?-i:[A-ZĄĆĘŁŃÓŚŹŻ])"  # a capital letter, whatever the pattern's flags
_NAME = rf"{CAPITAL}[^\W\d_]+"
_ITEM_PLACE_RE = re.compile(rf"\s*{_NAME}(?:\s+{_NAME})*\s*(?:godz|o\b|\d)", re.I)
_PLACE_FIRST_RE = re.compile(rf"\s*{_NAME}(?:\s+{_NAME})*\s+\S*$", re.I)  # "Uzarzewo " before its day


def _day_range(a: Days, b: Days, generic_span: bool) -> Days:
    """The days from a's to b's ("wtorek–piątek"); Monday to Saturday is generic like "dni powszednie"."""
    i, j = WEEK.index(next(iter(a.days))), WEEK.index(next(iter(b.days)))
    span = WEEK[i : j + 1] if i <= j else WEEK[i:] + WEEK[: j + 1]
    return days_of(*span, generic=generic_span and span == WEEK[:6])


def _single(d: Days) -> bool:
    return len(d.days) == 1 and "holiday" not in d.days and not d.generic


def _day_matches(text: str) -> list[_DayMatch]:
    """Day phrases of ``text`` as sorted (start, end, days): ranges joined; dates and "Msza święta" left
    out."""
    found: list[_DayMatch] = []
    for m in _DAY_SCAN_RE.finditer(text):
        if _MONTH_AFTER_RE.match(text, m.end()):
            continue  # "ostatniej niedzieli października" is a date
        days = _DAY_VALUES[int(m.lastgroup[1:])]  # type: ignore[index]
        if days.days == {"holiday"} and _HOLY_MASS_BEFORE_RE.search(text, max(0, m.start() - 12), m.start()):
            continue
        if days.days == {"sun"} and _from_sunday(text, m):
            continue
        start, end = m.span()
        if found and _single(days) and _single(found[-1][2]):
            prev = found[-1]
            sep = _DAY_RANGE_RE.fullmatch(text, prev[1], start)
            if sep is not None and (sep.group().strip() != "do" or text[: prev[0]].rstrip().endswith("od")):
                found[-1] = (prev[0], end, _day_range(prev[2], days, True))
                continue
        found.append((start, end, days))
    return found


def _from_sunday(text: str, m: re.Match[str]) -> bool:
    """Whether a Sunday phrase only says that a Saturday Mass is Sunday's ("z liturgii niedzieli")."""
    if _FROM_SUNDAY_BEFORE_RE.search(text, max(0, m.start() - 16), m.start()):
        return True
    adjective = m.group().lower().startswith("niedzieln")
    return adjective and _SATURDAY_MASS_BEFORE_RE.search(text, max(0, m.start() - 45), m.start()) is not None


def day_at(text: str) -> Days | None:
    """The days of the last day phrase in ``text``, with the days named together with it."""
    return _resolve_day(text, _day_matches(text))


def _resolve_day(text: str, found: Sequence[_DayMatch]) -> Days | None:
    """The days of the last phrase in ``found`` (positions in ``text``) and of those named together with it
    ("wtorki, czwartki i soboty", "niedziele i święta")."""
    if not found:
        return None
    if found[-1][2] is _OTHER or found[-1][2] is _OTHER_WEEKDAYS:
        return _other_days(found[:-1], MON_SAT if found[-1][2].generic else EVERY_DAY)
    group = _joined(text, found, len(found) - 1, -1)
    days = union(d for _, _, d in group)
    first = group[-1]
    before = found[len(found) - len(group) - 1] if len(group) < len(found) else None
    if before is not None and _EXCEPT_RE.fullmatch(text, before[1], first[0]):
        base = _joined(text, found, len(found) - len(group) - 1, -1)
        kept = union(d for _, _, d in base).days - days.days
        if kept:  # "codziennie oprócz środy": every day but Wednesday
            return Days(kept, any(d.generic for _, _, d in base))
    return days


def _other_days(before: Sequence[_DayMatch], scope: Days) -> Days | None:
    """ "Dni powszednie: wtorek 7:00, pozostałe dni 18:00": the days of the nearest generic phrase before
    (the scope; ``scope`` when there is none) less the days named since it."""
    named: set[str] = set()
    for _, _, d in reversed(before):
        if d.generic:
            scope = d
            break
        named |= d.days
    kept = scope.days - named
    return Days(kept, scope.generic, rest=True) if kept else None


def _joined(text: str, found: Sequence[_DayMatch], i: int, step: int) -> list[_DayMatch]:
    """found[i] and the phrases named together with it, going back (step -1) or forward (step 1)."""
    group = [found[i]]
    j = i + step
    while 0 <= j < len(found):
        a, b = (found[j], group[-1]) if step < 0 else (group[-1], found[j])
        if not _DAY_JOIN_RE.fullmatch(text, a[1], b[0]) or _contrasted(text, a, b):
            break
        group.append(found[j])
        j += step
    return group


_COMMA_ONLY_RE = re.compile(r"\s*[,;][\s,;]*")


def _contrasted(text: str, a: _DayMatch, b: _DayMatch) -> bool:
    """ "Msze niedzielne, w tygodniu msze o 18:00": Sunday and the weekdays after a mere comma are two
    items, not one list ("niedziele i dni powszednie: 18.00" joins them with a conjunction)."""
    if not _COMMA_ONLY_RE.fullmatch(text, a[1], b[0]):
        return False
    return any(
        d.generic and d.days == MON_SAT.days and "sun" in e.days for d, e in ((a[2], b[2]), (b[2], a[2]))
    )


def union(days: Iterable[Days]) -> Days:
    """All the days of several phrases."""
    out = Days(frozenset())
    for d in days:
        out = out | d
    return out


class LineDays:
    """The day phrases and parentheses of one line, found once for all its hours."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.days = _day_matches(line)
        self.day_starts = [d[0] for d in self.days]
        self.parens = [m.span() for m in PARENS_RE.finditer(line)]
        self.paren_starts = [p[0] for p in self.parens]

    def paren_head(self, s: int) -> str | None:
        """The words that open the parenthesis an hour stands in, up to its colon (or 30 characters):
        "lipiec, sierpień" of "(lipiec, sierpień: 6.00)"; None outside a parenthesis."""
        i = bisect_left(self.paren_starts, s) - 1
        if i < 0 or not (self.parens[i][0] < s < self.parens[i][1]):
            return None
        head = self.line[self.parens[i][0] + 1 : s]
        return head[: max(head.find(":"), 0) or 30]

    def excepted_after(self, e: int) -> Days | None:
        """The days an exception right after an hour takes out of its days: "18.00 oprócz wtorku i
        czwartku", "7.00 (we wtorki o 15.15)"."""
        m = _EXCEPT_AFTER_RE.match(self.line, e)
        if m is None:
            m = _DAY_AFTER_RE.match(self.line, e)
            if m is None or m.group(1) is None or not any(ch.isdigit() for ch in m.group(1)):
                return None
            if AS_WELL_RE.search(m.group(1)):
                return None
            start = m.start(1)
        else:
            start = m.end()
        i = bisect_left(self.day_starts, start)
        if i == len(self.days) or self.days[i][0] - start > 4:
            return None
        return union(d for _, _, d in _joined(self.line, self.days, i, 1))

    def day_of(self, clause_start: int, s: int, e: int) -> Days | None:
        """The days an hour's own words give it: a note right after it ("18.00 (sobota)"; "10.00 (także w
        święta)" adds its days to the hour's), else the last day phrase before it."""
        line = self.line
        m = _DAY_AFTER_RE.match(line, e)
        if m:
            note = m.group(1) or m.group(2)
            hour_inside = m.group(1) is not None and any(ch.isdigit() for ch in note)
            if hour_inside:
                # "18.00 (sobotni wieczór, zima 17.00)": the day leading the note is the hour's
                lead = _days_lead(note)
                if lead:
                    note, hour_inside = lead, False
            day = day_at(note)
            vigil = _VIGIL_NOTE_RE.search(note) is not None
            if (
                day is not None
                and not hour_inside
                and not vigil
                and not _EXCEPT_AFTER_RE.match(line, e)
                and (m.group(2) is None or LINE_DAY_HEAD_RE.match(note))
            ):
                before = self._day_before(clause_start, s, e) if AS_WELL_RE.search(note) else None
                return day | before if before is not None else day
        return self._day_before(clause_start, s, e)

    def _day_before(self, clause_start: int, s: int, e: int) -> Days | None:
        """The days of the phrase ending the line after the hour's list, else of the last one before it."""
        line = self.line
        trail = _DAYS_TRAIL_RE.match(line, e)
        if trail is not None and _only_days(trail.group(1)):
            day = day_at(trail.group(1))
            if day is not None:
                return day
        lo = max(clause_start, s - DAY_LOOKBEHIND)
        window = self.days[bisect_left(self.day_starts, lo) : bisect_left(self.day_starts, s)]
        # "18.00 (sobota)" belongs to the hour before it, not to the ones after; "Zalesie (sobota) 18.00" to
        # the hour after the place it follows
        parens = [
            (a, b)
            for a, b in self.parens[bisect_left(self.paren_starts, lo) : bisect_left(self.paren_starts, s)]
            if b <= s and not _AFTER_NAME_RE.search(line, max(0, a - 8), a)
        ]
        found = [
            d
            for d in window
            if d[1] <= s
            and not any(a <= d[0] and d[1] <= b for a, b in parens)
            and not _NOTE_OF_TIME_RE.search(line, max(0, d[0] - 12), d[0])
        ]
        if found and _SCOPE_TURN_RE.search(line, found[-1][1], s):
            wider = found[: len(found) - len(_joined(line, found, len(found) - 1, -1))]
            if wider and wider[-1][2].generic:
                return _resolve_day(line, wider)
        if not found and lo > clause_start:
            return self._label_before(clause_start, lo)
        if found and (headed := self._header_days(clause_start, found, s)) is not None:
            return headed
        return _resolve_day(line, found)

    def _header_days(self, clause_start: int, found: list[_DayMatch], s: int) -> Days | None:
        """ "Msze w dni powszednie: Uzarzewo czw. 16.30; Biskupice 18.00": a place's item after a semicolon
        naming no day of its own has the header's days, not the item's before it; None when it does not."""
        line, last = self.line, found[-1]
        semi = line.rfind(";", last[1], s)
        item = _ITEM_PLACE_RE.match(line, semi + 1) if semi >= 0 else None
        # the day was the item's before, named after its place ("Uzarzewo czw."), not heading the places
        # after it ("już w sobotę Piłka 17.00; Kaminnik 18.30")
        before = max(line.rfind(";", 0, last[0]), line.rfind(":", 0, last[0])) + 1
        placed = _PLACE_FIRST_RE.match(line, before, last[0]) is not None
        colon = line.find(":", clause_start, last[0])
        head = [d for d in found if colon >= 0 and d[1] <= colon]
        return _resolve_day(line, head) if item is not None and placed and head else None

    def _label_before(self, clause_start: int, lo: int) -> Days | None:
        """The days of a label heading the clause's long list ("Msze w niedziele: kościół parafialny: 7.30,
        ...; kaplica ... 9.00; lipiec, sierpień: 7.30"), for an hour past the look-behind with no day
        nearer."""
        earlier = self.days[bisect_left(self.day_starts, clause_start) : bisect_left(self.day_starts, lo)]
        if earlier and _LABEL_AFTER_RE.match(self.line, earlier[-1][1]):
            return earlier[-1][2]
        return None


def names_day(text: str) -> bool:
    """Whether ``text`` names a day, a vigil's note ("(niedzielna)", "z liturgii niedzieli") aside."""
    return DAY_ANY_RE.search(_VIGIL_NOTE_RE.sub(" ", text)) is not None


def _days_lead(note: str) -> str:
    """The items leading a note that name days and nothing else, no hour among them: "środa, piątek" of
    "(środa, piątek, sobota; zimą 17.00)" and of "(w poniedziałek, środę i piątek - lato, 17:00 zimą)"."""
    lead = ""
    for m in _NOTE_CHUNK_END_RE.finditer(note):
        if any(ch.isdigit() for ch in note[: m.start()]) or not _only_days(note[: m.start()]):
            break
        lead = note[: m.start()]
    return lead


def is_day_label(text: str) -> bool:
    """A day heading alone, no date or time in it: "piątek", "Dzień powszedni:" (not "Poniedziałek – 30
    marca")."""
    return is_day_heading(text.strip()) and not any(ch.isdigit() for ch in text)


def _only_days(text: str) -> bool:
    """Day phrases and nothing else but their joining words ("od poniedziałku do piątku", "w sobotę")."""
    return words(_HEADING_FILLER_RE.sub(" ", DAY_ANY_RE.sub(" ", text))) == 0


def is_day_heading(line: str) -> bool:
    """A short line naming days and nothing else ("w dni powszednie:", "NIEDZIELA I ŚWIĘTA")."""
    stripped = line.strip(" \t•*-–—:·")
    if not stripped or len(stripped) > 60 or not DAY_ANY_RE.search(stripped):
        return False
    rest = DAY_ANY_RE.sub(" ", stripped)
    rest = _HEADING_FILLER_RE.sub(" ", rest)
    return words(rest) <= 3
