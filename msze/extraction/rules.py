"""The rule-based Mass extractor: very high precision, no training data needed.

Parish pages state their Mass schedule in a few recurring shapes:

* a schedule block: a header ("Msze święte", "Porządek Mszy św.", "Rozkład nabożeństw"), then day headings
  ("niedziele i święta", "dni powszednie", "w tygodniu", "od poniedziałku do soboty", "sobota") with the
  times;
* a day heading with a list of times and no header at all ("w niedzielę: 8.00, 10.00, 12.15");
* a sentence naming a Mass and its time ("Msza św. ... o godz. 18.00", "po Mszy o 8:00", "O godz. 11.00 msza
  św.");
* an intention list ("8:00 – + Jan Kowalski", "19:00 – Za Parafian").

Every hour gets a decision from the nearest *cue* — a word that says what happens at that time — within its
clause (the part of its line since the last sentence end): a Mass word makes it a Mass start; a word for
anything else (confession, rosary, adoration, devotions, office hours, meetings, ...) makes it not. A cue
right after the hour ("18.30 Nieszpory", "11:00 – uroczysta msza") wins when it is closer. With no cue in the
clause, the block the line sits in decides (the last header above it), and a day heading with a list of times
counts as a Mass schedule unless the block is about something else. Both ends of a range ("16:00-18:00", "od
15 do 17") and times after "do" / "od" are never Mass starts; neither is a bare number ("17") unless written
as an hour ("o godz. 17"). Seasonal variants and filial chapels in a schedule block are Mass times like the
rest.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from msze.extraction.hours import Hour

SUNDAY, WEEKDAY, SATURDAY, HOLIDAY = "sunday", "weekday", "saturday", "holiday"

# Things that are a Mass. A schedule header "porządek/rozkład nabożeństw" is listed here before the generic
# "nabożeństwa" (a devotion) of OTHER_CUE_RE.
# The cue regexes run on every line: each starts with one word-start check, "(?=[^\W\d_])" (a letter next, as
# every alternative needs) lets the scan pass word ends and numbers without trying all the alternatives.
MASS_CUE_RE = re.compile(
    r"\b(?=[^\W\d_])(?:"
    r"msz(?:a|e|y|ę|ą|om|ach|ami|o)\b"
    r"|msz[ay]?\s+(?:św|święt)"
    r"|eucharysti\w*"
    r"|sum[aąy]\b"
    r"|pasterk\w*"
    r"|rorat\w*"
    r"|wieczerz\w*(?:\s+pańskiej)?"
    r"|wigili\w*\s+paschaln\w*"
    r"|rezurekcj\w*"
    r"|intencj\w*\s+mszaln\w*|intencje\b"  # an intention list is a list of Masses
    r"|(?:porz[ąa]dek|rozk[łl]ad|plan|godziny|harmonogram)\s+nabo[żz]e[ńn]stw\w*"
    r")",
    re.IGNORECASE,
)
# Things that happen at a time and are not a Mass start: regex alternatives, separated by spaces.
_OTHER_CUES = (  # noqa: SIM905 (a list literal of 59 raw strings reads worse)
    r"spowied\w* spowiedź sakrament\w*\s+pokuty pokut\w* kancelari\w* biur\w* adoracj\w* różaniec "
    r"różańc(?:a|em|e|u)\b różańcow(?:e|a|ych|ym|ymi)\b koronk\w* nieszpor\w* godzink\w* "
    r"nabo[żz]e[ńn]stw\w* nowenn\w* drog\w*\s+krzyżow\w* gorzki\w*\s+żal\w* apel\w* spotka\w* "
    r"spotykam\w* prób[ayęi]\w* zbiórk\w* koncert\w* czuwani\w* jutrzni\w* "
    r"liturgi\w*\s+(?:męki|godzin) katechez\w* modlitw\w* wystawieni\w* litani\w* czynn[aey] dyżur\w* "
    r"otwart\w* zamknięt\w* zebrani\w* konferencj\w* procesj\w* odwiedz\w* program\w* przyjazd\w* "
    r"wyjazd\w* recepcj\w* agap\w* biblijn\w* schol[ai]\w* chór\w* ministran\w* bierzmowan\w* "
    r"przygotowani\w* kurs\w* wykład\w* dzwon\w* wypomink\w* poświęceni\w* wizyt\w* "
    r"odpraw[ay]\s+pokutn\w* godzin[aęy]\s+miłosierdzia marsz\w* "
    r"transmisj\w+\s+(?:tv|telewizyjn\w*|radiow\w*)"
).split()


def _by_first_letter(alternatives: list[str]) -> str:
    """``(?:alt1|alt2|...)`` with the alternatives grouped under their first letter, in their order.

    The same matches (no two letters match the same character), but the regex engine tries one branch per
    letter at each word instead of one per alternative.
    """
    groups: dict[str, list[str]] = {}
    for alt in alternatives:
        if not (alt[:1].isalpha() and alt[0].islower()):
            raise ValueError(f"an alternative must start with a lowercase letter: {alt!r}")
        groups.setdefault(alt[0], []).append(alt[1:])
    return "(?:" + "|".join(f"{first}(?:{'|'.join(rest)})" for first, rest in groups.items()) + ")"


OTHER_CUE_RE = re.compile(r"\b(?=[^\W\d_])" + _by_first_letter(_OTHER_CUES), re.IGNORECASE)
# "poza godzinami Mszy": the hours are when something else happens; overrides the Mass cue inside it.
NEGATED_MASS_RE = re.compile(r"\bpoza\s+(?:godzinami\s+)?(?:\w+\s+)?msz\w*", re.IGNORECASE)
# A Mass named as a point of reference ("po Mszy", "przed Mszą", "15 min przed Mszą św."): the hour right
# after it is still that Mass's start, but such a line does not open a Mass schedule block.
_REFERENCE_BEFORE_RE = re.compile(
    r"(?:\bprzed|\bpo|\bpodczas|\bw\s+czasie|\bw\s+trakcie|\bna)\s+(?:[^\W\d]+\s+)?$", re.IGNORECASE
)

# Day words are matched on letters only: "Środa18:00", "niedzielę8:00" (glued to the hour) still count.
_L = r"(?<![^\W\d_])"  # no letter before
_R = r"(?![^\W\d_])"  # no letter after
_W = r"[^\W\d_]*"  # the rest of the word, letters only


def _day_alternatives(*alternatives: str) -> str:
    return "|".join(alternatives)


# Each phrase starts a word (_L); the check is written once before all the alternatives, not once per
# alternative: the same matches, and a scan about ten times faster (it runs on every line of every page).
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
_DAY_ANY_RE = re.compile(_L + "(?:" + "|".join(p for p, _ in _DAY_PATTERNS) + ")", re.IGNORECASE)
# The same as one scan with a group per day (first group wins at a position, and a match hides what it covers:
# "Pn-Sb" is one weekday phrase): one pass over a line instead of one per pattern.
_DAY_GROUPS = [day for _, day in _DAY_PATTERNS]
_DAY_SCAN_RE = re.compile(
    _L + "(?:" + "|".join(f"(?P<d{i}>{p})" for i, (p, _) in enumerate(_DAY_PATTERNS)) + ")", re.IGNORECASE
)
# a line that starts with a day phrase: "w niedzielę: ...", "• Dni powszednie – ...", "NIEDZIELA 8:00"
_LINE_DAY_HEAD_RE = re.compile(
    r"[\s•*·\-–—]*(?:(?:w|we|od|co|i|dni|dzień|każd[aąy]|msz[ae]\s+św\.?)\s+){0,3}(?:"
    + _DAY_ANY_RE.pattern
    + ")",
    re.IGNORECASE,
)
_HEAD_GAP_RE = re.compile(
    r"[^\W\d]*[\s:–—\-,.()]*(?:(?:i|oraz|do|lub|albo)\s+[^\W\d]+[\s:–—\-,.]*)?(?:godz\.?|g\.)?\s*", re.I
)
_PLACE_HEADING_RE = re.compile(
    r"\b(?:parafi[ai]|koś?ci[oó][łl]|kościo[łl]a|kościele|kaplic[aęy]|sanktuari(?:um|a)|bazylik[aię]|katedr[aęzy]"
    r"|konkatedr[aęzy])\b",
    re.IGNORECASE,
)

# Clause ends inside a line: ".", "!" or "?" followed by a capital letter, except after an abbreviation.
_SENTENCE_END_RE = re.compile(r"[.!?](?=\s+[A-ZĄĆĘŁŃÓŚŹŻ][a-ząćęłńóśźż])")
# "18.00 z nowenną", "wraz z nabożeństwem": something held with the Mass, not instead of it
_WITH_BEFORE_RE = re.compile(r"\b(?:z|ze|wraz\s+z|połączon\w*\s+z)\s+$", re.IGNORECASE)


def _held_with(line: str, pos: int) -> bool:
    """A cue at ``pos`` held with the Mass: "z nowenną", "wraz z nabożeństwem" (_WITH_BEFORE_RE)."""
    lo = max(0, pos - LOOKBEHIND)
    # the regex ends in "z" or "ze" and spaces: a look at the last letter first spares most cues the search
    if not line[lo:pos].rstrip().endswith(("z", "Z", "e", "E")):
        return False
    return bool(_WITH_BEFORE_RE.search(line, lo, pos))


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
        "śp",
        "np",
        "tzw",
        "dn",
        "nmp",
        "bł",
        "o.o",
        "ks.",
    ]
)
_WORD_RE = re.compile(r"[^\W\d_]+", re.UNICODE)
_RANGE_SEP_RE = re.compile(r"\s*(?:[-–—]|do|a)\s*(?:godz\.?\s*)?", re.IGNORECASE)
# an hour followed by a description ("10:00 Przyjazd", "18.00 spotkanie"), not by a list separator or a note
_WORD_AFTER_RE = re.compile(r"[\s,;:–—\-*]*(?!(?:i|oraz|lub|albo|godz|g)\b)([^\W\d]{3,})", re.IGNORECASE)
_CONTACT_RE = re.compile(
    r"\b(?:tel|telefon\w*|fax|kom|komórk\w*|konto|konta|rachun\w*|nip|regon|krs|e-?mail|ul)\b", re.IGNORECASE
)
_UNIT_AFTER_RE = re.compile(r"\s*(?:min|minut|osób|lat|r\.|rok)", re.IGNORECASE)
_FROM_TO_BEFORE_RE = re.compile(
    r"(?:\bod|\bdo|\bmiędzy|\bw\s+godz(?:\.|inach))\s*(?:godz(?:iny|\.)?\s*|g\.\s*)?$", re.IGNORECASE
)
_HOUR_WORD_BEFORE_RE = re.compile(
    r"(?:\bgodz(?:\.|in[aieyę]\w*)?|\bg\.|\bo|\brano|\bwieczorem|\bwieczór|\bpołudniu)\s*$", re.IGNORECASE
)
_INTENTION_AFTER_RE = re.compile(
    r"\s*[-–—:]?\s*(?:\+|za\s+(?:\+|śp|dusz|parafian|zmarł)|o\s+(?:boże|zdrowie|błogosławieństwo)|w\s+intencji"
    r"|dziękczynn|msza\s+(?:św|zbiorowa|gregor))",
    re.IGNORECASE,
)
FORWARD_WORDS = 6  # a cue at most this many words after an hour may decide it ("18.30 Nieszpory")
PROSE_MIN_WORDS = 8  # a line of at least this many words ending in a full stop is a sentence, not a list
PROSE_WORDS_PER_HOUR = (
    6  # ... unless it has an hour for every this many words (a schedule written as a sentence)
)
SECTION_MAX_WORDS = 8  # a block's header decides only for list-like clauses (few words before the hour)
CHARS_PER_HOUR = 80  # a line with at least one hour per this many characters is a list, not prose
HEADER_CHARS = 70  # a line this short without hours is a heading
PROSE_LINE_CHARS = 150  # a longer line without hours ends the block it sits in
MAX_LINE_CHARS = 2000  # longer lines (text without line breaks) are cut, which keeps the rules linear in size
LABEL_DAY_LINE_CHARS = 40  # a line this short without a day keeps the day heading above for labels
DAY_LOOKBEHIND = 200  # characters before an hour searched for its day phrase
LOOKBEHIND = 40  # characters looked at before a cue or an hour for "po", "od", "godz." and the like


@dataclass(frozen=True, slots=True)
class RuleDecision:
    """The rules' verdict on one hour, with the day category and a short reason (for evaluation reports)."""

    is_mass: bool
    day: str | None
    reason: str


@dataclass(frozen=True, slots=True)
class _Cue:
    start: int
    end: int
    mass: bool
    reference: bool  # "po Mszy": does not open a block


def _overlaps(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of ``spans`` (sorted and not overlapping each other; ``starts``
    their starts): only the last span starting before ``end`` can, as the spans' ends are sorted too."""
    i = bisect_left(starts, end)  # spans[:i] start before end
    return i > 0 and spans[i - 1][1] > start


def _cues(line: str) -> list[_Cue]:
    """The line's cues in order; they never overlap."""
    negated = [m.span() for m in NEGATED_MASS_RE.finditer(line)]
    negated_starts = [a for a, _ in negated]
    cues = [_Cue(a, b, False, False) for a, b in negated]
    for m in MASS_CUE_RE.finditer(line):
        if _overlaps(negated, negated_starts, m.start(), m.end()):
            continue
        ref = bool(_REFERENCE_BEFORE_RE.search(line, max(0, m.start() - LOOKBEHIND), m.start()))
        cues.append(_Cue(m.start(), m.end(), True, ref))
    taken = sorted((c.start, c.end) for c in cues)
    taken_starts = [a for a, _ in taken]
    for m in OTHER_CUE_RE.finditer(line):
        if _overlaps(taken, taken_starts, m.start(), m.end()):
            continue  # "rozkład nabożeństw" is a Mass header, not a devotion
        if _held_with(line, m.start()):
            continue  # "18.00 z nowenną", "(z Koronką)": held with the Mass, says nothing against it
        cues.append(_Cue(m.start(), m.end(), False, False))
    cues.sort(key=lambda c: c.start)
    return cues


class _LineCues:
    """A line's cues with the lookups its hours make, by bisection (a line may have hundreds of hours)."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.cues = _cues(line)
        self.starts = [c.start for c in self.cues]
        self.ends = [c.end for c in self.cues]  # sorted too: cues do not overlap

    def last_within(self, lo: int, hi: int) -> _Cue | None:
        """The last cue wholly inside line[lo:hi]."""
        j = bisect_right(self.ends, hi) - 1
        return self.cues[j] if j >= 0 and self.cues[j].start >= lo else None

    def first_own_from(self, lo: int, hi: int) -> _Cue | None:
        """The first cue starting in [lo, hi) that is no reference ("po Mszy") and not held with the Mass."""
        for i in range(bisect_left(self.starts, lo), len(self.cues)):
            c = self.cues[i]
            if c.start >= hi:
                break
            if not c.reference and not _held_with(self.line, c.start):
                return c
        return None

    def last_own_by(self, pos: int) -> _Cue | None:
        """The last cue ending by ``pos`` that is no reference."""
        for i in range(bisect_right(self.ends, pos) - 1, -1, -1):
            if not self.cues[i].reference:
                return self.cues[i]
        return None


def _line_bounds(text: str) -> list[tuple[int, int]]:
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


def _clause_starts(line: str) -> list[int]:
    starts = [0]
    for m in _SENTENCE_END_RE.finditer(line):
        words = _WORD_RE.findall(line[max(0, m.start() - 6) : m.start()])
        if words and words[-1].lower() in _ABBREVIATIONS and not line[m.start() - 1].isdigit():
            continue
        starts.append(m.end())
    return starts


_DayMatch = tuple[int, int, str]


def _day_matches(text: str) -> list[_DayMatch]:
    """Day phrases of ``text`` as sorted (start, end, day), without dates and phrases inside longer ones."""
    return [
        (m.start(), m.end(), _DAY_GROUPS[int(m.lastgroup[1:])])  # type: ignore[index]
        for m in _DAY_SCAN_RE.finditer(text)
        if not _MONTH_AFTER_RE.match(text, m.end())  # "ostatniej niedzieli października" is a date
    ]


def _day_at(text: str) -> str | None:
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


_MONTH_AFTER_RE = re.compile(
    r"\s+(?:stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|października|listopada"
    r"|grudnia|adwentu|wielkanocne\w*)\b",
    re.IGNORECASE,
)
_DAY_JOIN_RE = re.compile(r"[\s,;/–\-]*(?:i|oraz|lub|albo)?[\s,]*", re.IGNORECASE)
# a day note right after an hour: "18.00 (sobota)", "08:00 - w poniedziałki, środy i piątki"
_DAY_AFTER_RE = re.compile(r"\s*(?:\(([^()\n]{1,60})\)|[-–—]\s*((?:w|we)\s+[^\d\n;.]{1,60}))")
_PARENS_RE = re.compile(r"\([^()\n]*\)")


class _LineDays:
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
            day = _day_at(note)
            if day is not None and (m.group(2) is None or _LINE_DAY_HEAD_RE.match(note)):
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


_LIST_ITEM_RE = re.compile(r"\s*(?:\d{1,2}[.)]|[IVX]{1,4}\.)\s+[^\W\d]")


def _is_prose(line: str, hours: int = 0) -> bool:
    """A sentence (an announcement item, a paragraph), not a schedule line: its times need their own cue."""
    words = _words(line)
    if words < PROSE_MIN_WORDS or words < PROSE_WORDS_PER_HOUR * hours:
        return False
    stripped = line.rstrip()
    return stripped.endswith((".", "!", "?")) or bool(_LIST_ITEM_RE.match(line))


def _words(text: str) -> int:
    return len(_WORD_RE.findall(text))


_HEADING_FILLER_RE = re.compile(
    r"\b(?:w|we|i|oraz|dni|dzień|każd\w*|od|do|msze?\s+św\.?|godz\.?|:|\(.*?\))\b", re.IGNORECASE
)


def _is_day_heading(line: str) -> bool:
    """A short line naming days and nothing else ("w dni powszednie:", "NIEDZIELA I ŚWIĘTA")."""
    stripped = line.strip(" \t•*-–—:·")
    if not stripped or len(stripped) > 60:
        return False
    rest = _DAY_ANY_RE.sub(" ", stripped)
    rest = _HEADING_FILLER_RE.sub(" ", rest)
    return bool(_DAY_ANY_RE.search(stripped)) and _words(rest) <= 3


def decide(text: str, hours: Sequence[Hour]) -> list[RuleDecision]:
    """One decision per hour of ``find_hours(text)`` (same order): is it a Mass start, on which day."""
    decisions: list[RuleDecision | None] = [None] * len(hours)
    if not hours:
        return []
    # Ranges: both ends are never a Mass start.
    in_range = [False] * len(hours)
    for i in range(len(hours) - 1):
        a, b = hours[i], hours[i + 1]
        between = text[a.end : b.start]
        if len(between) <= 12 and _RANGE_SEP_RE.fullmatch(between) and not _UNIT_AFTER_RE.match(text, b.end):
            in_range[i] = in_range[i + 1] = True

    by_line: dict[int, list[int]] = {}
    line_bounds = _line_bounds(text)
    line_starts = [a for a, _ in line_bounds]
    # map each hour to the line it starts on
    li = 0
    for idx, h in enumerate(hours):
        while li + 1 < len(line_starts) and line_starts[li + 1] <= h.start:
            li += 1
        by_line.setdefault(li, []).append(idx)

    section: bool | None = None  # True: a Mass block, False: a block about something else, None: none
    heading_day: str | None = None  # the day heading on a line of its own just above
    label_day: str | None = None  # the same, kept across short notes, for the day label only
    for li, (line_start, line_end) in enumerate(line_bounds):
        line = text[line_start:line_end]
        idxs = by_line.get(li, [])
        if not line.strip():
            continue
        line_cues = _LineCues(line)
        cues = line_cues.cues
        if not idxs:
            own = [c for c in cues if not c.reference]
            is_head = _is_day_heading(line)
            # searched only when one of the branches below asks
            place = bool((own or section is False) and _PLACE_HEADING_RE.search(line))
            if own and any(c.mass for c in own) and (is_head or len(line.strip()) <= HEADER_CHARS):
                section = any(c.mass for c in own)  # "Msze św. i nabożeństwa" is a Mass schedule header
            elif own and not (place and len(line.strip()) <= 100):
                section = own[-1].mass
            elif own and place and len(line.strip()) <= 100 and not any(c.mass for c in own):
                section = None  # "Parafia Matki Bożej Różańcowej": a name, not a devotion
            elif place and section is False:
                section = None  # another church or parish: the devotions block above has ended
            elif len(line) > PROSE_LINE_CHARS:
                section = None
            size = len(line.strip())
            # the line's day matters only for a heading or a short note: most lines are neither
            day_matters = (
                is_head or (own and size <= HEADER_CHARS) or (not own and size <= LABEL_DAY_LINE_CHARS)
            )
            line_day = _day_at(line) if day_matters else None
            if is_head or (own and size <= HEADER_CHARS and line_day):
                heading_day = label_day = line_day
            else:
                heading_day = None
                if line_day or size > LABEL_DAY_LINE_CHARS or own:
                    label_day = None  # a short note ("w okresie zimowym") keeps the day for labels only
            continue
        clause_starts = _clause_starts(line)
        line_days = _LineDays(line)
        prose = _is_prose(line, len(idxs))
        line_day_head = _LINE_DAY_HEAD_RE.match(line)
        day_list_line = False
        if line_day_head:
            # "Niedziele i święta: 7:00, 9:00", "w sobotę 18:00"; not "każdy czwartek miesiąca o godz. 19.00"
            timed = [i for i in idxs if not _is_bare(hours[i])]
            gap = line[line_day_head.end() : hours[timed[0]].start - line_start] if timed else ""
            day_list_line = bool(timed) and (
                bool(_HEAD_GAP_RE.fullmatch(gap))
                or (len(timed) >= 2 and _words(gap) <= 3 and not any(ch.isdigit() for ch in gap))
            )
        for idx in idxs:
            h = hours[idx]
            s, e = h.start - line_start, h.end - line_start
            clause = bisect_right(clause_starts, s)  # clause_starts[0] is 0: clause >= 1
            clause_start = clause_starts[clause - 1]
            clause_end = clause_starts[clause] if clause < len(clause_starts) else len(line)
            day = line_days.day_of(clause_start, s, e) or heading_day or label_day
            decisions[idx] = _decide_one(
                text,
                h,
                line,
                s,
                e,
                clause_start,
                clause_end,
                line_cues,
                in_range[idx],
                section,
                day_list_line or heading_day is not None,
                day,
                hours,
                idx,
                line_start,
                not prose
                and (len(line.strip()) <= HEADER_CHARS * 1.5 or len(line) / len(idxs) <= CHARS_PER_HOUR),
            )
        # the line's last own cue carries on as the block's topic
        own = [c for c in cues if not c.reference]
        if own:
            section = own[-1].mass
        # "Niedziela 7:00" then "9:00", "11:00" on lines of their own (<br> in a table cell): same day
        if day_list_line and line_day_head:
            heading_day = label_day = _day_at(line[: line_day_head.end()])
    return [d if d is not None else RuleDecision(False, None, "no line") for d in decisions]


def _looks_like_date(h: Hour) -> bool:
    """ "12.05", "8.10": a day.month as much as a time; Masses rarely start at :01-:12 past the hour."""
    return "." in h.text and h.text.replace(".", "").isdigit() and 1 <= int(h.time[3:]) <= 12


def _is_bare(h: Hour) -> bool:
    """A number without minutes ("17"): an hour only when written as one ("o godz. 17")."""
    return h.text.isdigit() and len(h.text) <= 2


def _decide_one(
    text: str,
    h: Hour,
    line: str,
    s: int,
    e: int,
    clause_start: int,
    clause_end: int,
    cues: _LineCues,
    in_range: bool,
    section: bool | None,
    day_list: bool,
    day: str | None,
    hours: Sequence[Hour],
    idx: int,
    line_start: int,
    dense: bool,
) -> RuleDecision:
    if in_range:
        return RuleDecision(False, day, "range")
    if int(h.time[3:]) % 5:
        return RuleDecision(False, day, "odd minutes")  # Masses start on the hour, at :15, :30, :45, ...
    before = line[clause_start:s]
    near = before[-LOOKBEHIND:]
    if _FROM_TO_BEFORE_RE.search(near):
        return RuleDecision(False, day, "from/to")
    if _is_bare(h) and not _HOUR_WORD_BEFORE_RE.search(near):
        return RuleDecision(False, day, "bare number")
    contacts = list(_CONTACT_RE.finditer(near))
    if contacts and not MASS_CUE_RE.search(near, contacts[-1].end()):
        return RuleDecision(False, day, "contact")  # "tel. 61 815 30 45", "konto: ..."
    # the next hour on the line bounds the forward look
    nxt = len(line)
    if idx + 1 < len(hours) and hours[idx + 1].start - line_start < len(line):
        nxt = hours[idx + 1].start - line_start
    semicolon = line.find(";", e)
    fwd_end = min(clause_end, nxt, semicolon if semicolon >= 0 else len(line))
    back_cue = cues.last_within(clause_start, s)
    fwd_cue = cues.first_own_from(e, fwd_end)
    if fwd_cue is not None and _words(line[e : fwd_cue.start]) >= FORWARD_WORDS:
        fwd_cue = None
    if fwd_cue is not None and (
        back_cue is None or _words(line[e : fwd_cue.start]) < _words(line[back_cue.end : s])
    ):
        return RuleDecision(fwd_cue.mass, day, "cue after" if fwd_cue.mass else "other cue after")
    if back_cue is not None:
        return RuleDecision(back_cue.mass, day, "cue before" if back_cue.mass else "other cue before")
    # no cue in the clause: an earlier clause of the line sets the topic ("Msze: 8:00. W lipcu: 9:00")
    earlier = cues.last_own_by(clause_start)
    if earlier is not None:
        section = earlier.mass
    if _INTENTION_AFTER_RE.match(line, e) and not before.strip(" \t•*-–—·"):
        return RuleDecision(True, day, "intention")
    # list-like: few words since the previous hour of the clause (or its start), in a line dense in hours
    since = clause_start
    if idx > 0 and hours[idx - 1].end - line_start > clause_start:
        since = hours[idx - 1].end - line_start
    listy = _words(_DAY_ANY_RE.sub(" ", line[since:s])) <= SECTION_MAX_WORDS and dense
    if _looks_like_date(h):
        return RuleDecision(False, day, "date-like")  # "Niedziela 12.05": only a Mass word makes it a time
    if section is True and listy:
        return RuleDecision(True, day, "schedule block")
    # "10:00 Przyjazd pielgrzymów": a programme, not a list (a day name after the hour is the next list item)
    after = _WORD_AFTER_RE.match(line, e, nxt)
    described = after is not None and not _LINE_DAY_HEAD_RE.match(line, after.start(1))
    if section is None and day_list and listy and day is not None and clause_start == 0 and not described:
        return RuleDecision(True, day, "day list")
    return RuleDecision(False, day, "no cue")


def mass_times(text: str, hours: Sequence[Hour]) -> list[str]:
    """Sorted distinct "HH:MM" the rules confirm as Mass starts."""
    return sorted({h.time for h, d in zip(hours, decide(text, hours), strict=True) if d.is_mass})
