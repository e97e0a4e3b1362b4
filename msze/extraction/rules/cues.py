"""The words that say what happens at a time: Mass cues, cues for anything else, and the negative cues.

A *cue* decides the hours near it (see the package docstring). The regexes run on every line of every page,
so they are written for speed: each starts with one word-start check, and "(?=[^\\W\\d_])" (a letter next, as
every alternative needs) lets the scan pass word ends and numbers without trying all the alternatives.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from operator import attrgetter

LOOKBEHIND = 40  # characters looked at before a cue or an hour for "po", "od", "godz." and the like

# Things that are a Mass: regex alternatives, in the order they are tried. A schedule header "porządek/rozkład
# nabożeństw" is listed here before the generic "nabożeństwa" (a devotion) of OTHER_CUE_RE.
_SERVICES = r"\s+nabo[żz]e[ńn]stw\w*"
_MASS_CUES = (
    r"msz(?:a|e|y|ę|ą|om|ach|ami|o)\b",
    r"msz[ay]?\s+(?:św|święt)",
    r"eucharysti\w*",
    r"holy\s+mass\w*",  # a parish's English or German page
    r"mass(?:es)?\b",
    r"heilige\s+messen?\b",
    r"messen?\b",
    r"sum[aąy]\b",
    r"pasterk\w*",
    r"rorat\w*",
    r"wieczerz\w*(?:\s+pańskiej)?",
    r"wigili\w*\s+paschaln\w*",
    r"rezurekcj\w*",
    r"intencj\w*\s+mszaln\w*",
    r"intencje\b",  # an intention list is a list of Masses
    *(rf"{word}{_SERVICES}" for word in ("porz[ąa]dek", "rozk[łl]ad", "plan", "godziny", "harmonogram")),
)
# Things that happen at a time and are not a Mass start: regex alternatives, separated by spaces.
_OTHER_CUES = (  # noqa: SIM905 (a list literal of many raw strings reads worse)
    r"spowied\w* spowiedź spowiad\w* sakrament\w*\s+pokuty pokut\w* kancelari\w* biur\w* adoracj\w* różaniec "
    r"różańc(?:a|em|e|u)\b różańcow(?:e|a|ych|ym|ymi)\b koronk\w* nieszpor\w* godzink\w* "
    r"nabo[żz]e[ńn]stw\w* nowenn\w* drog\w*\s+krzyżow\w* gorzki\w*\s+żal\w* apel\w* spotka\w* "
    r"spotykam\w* prób[ayęi]\w* zbiórk\w* koncert\w* czuwani\w* jutrzni\w* "
    r"liturgi\w*\s+(?:męki|godzin|wielkiego\s+piątku) aktualizacj\w* opublikowan\w* "
    r"katechez\w* modlitw\w* wystawieni\w* litani\w* czynn[aey] dyżur\w* "
    r"otwart\w* zamknięt\w* zebrani\w* konferencj\w* procesj\w* odwiedz\w* program\w* przyjazd\w* "
    r"wyjazd\w* recepcj\w* agap\w* biblijn\w* schol[ai]\w* chór\w* ministran\w* bierzmowan\w* "
    r"przygotowani\w* kurs\w* wykład\w* dzwon\w* wypomink\w* poświęceni\w* święceni\w*\s+pokarm\w* wizyt\w* "
    r"odpraw[ay]\s+pokutn\w* godzin[aęy]\s+miłosierdzia marsz(?:u|em|e|ach|ów|y)?\b "
    r"transmisj\w+\s+(?:tv|telewizyjn\w*|radiow\w*) festyn\w* piknik\w* kiermasz\w* loteri\w* wycieczk\w* "
    r"zabaw(?:a|ę|y|ie)\b "
    # a parish's English page
    r"novena\w* devotion\w* adoration\w* rosary\b confession\w* reconciliation\b vespers\b office\b"
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


def _cue_re(alternatives: tuple[str, ...] | list[str], flags: int = re.IGNORECASE) -> re.Pattern[str]:
    """A word starting with one of the alternatives (grouped by first letter)."""
    return re.compile(r"\b(?=[^\W\d_])" + _by_first_letter(list(alternatives)), flags)


MASS_CUE_RE = _cue_re(_MASS_CUES)
OTHER_CUE_RE = _cue_re(_OTHER_CUES)
# The same, case-sensitive, for a line lowercased first (_scanned): the regex engine then rejects the branch
# of every other first letter with one comparison, which makes the scan of a line faster.
_MASS_CUE_LOWER_RE = _cue_re(_MASS_CUES, 0)
_OTHER_CUE_LOWER_RE = _cue_re(_OTHER_CUES, 0)
# what str.lower() does not map as the IGNORECASE regexes do: "İ" lowers to two characters (the spans would
# move), "ſ" and "ı" match "s" and "i" only with IGNORECASE
_LOWER_MISMATCH = ("İ", "ſ", "ı")
# "poza godzinami Mszy": the hours are when something else happens; overrides the Mass cue inside it.
NEGATED_MASS_RE = re.compile(r"\bpoza\s+(?:godzinami\s+)?(?:\w+\s+)?msz\w*", re.IGNORECASE)
# A Mass named as a point of reference ("po Mszy", "przed Mszą", "15 min przed Mszą św."): the hour right
# after it is still that Mass's start, but such a line does not open a Mass schedule block. An invitation
# ("zapraszamy na Mszę św.") names the Mass itself.
_REFERENCE_BEFORE_RE = re.compile(
    r"(?:\bprzed|\bpo|\bpodczas|\bw\s+czasie|\bw\s+trakcie|(?<!zapraszamy\s)(?<!zaprasza\s)(?<!zapraszam\s)\bna)"
    r"\s+(?:[^\W\d]+\s+)?$",
    re.IGNORECASE,
)
# "18.00 z nowenną", "wraz z nabożeństwem": something held with the Mass, not instead of it
HELD_WITH = r"z|ze|wraz\s+z|połączon\w*\s+z"
_WITH_BEFORE_RE = re.compile(rf"\b(?:{HELD_WITH}|poprzedzon[aey]|zakończon[aey])\s+$", re.IGNORECASE)
# a name, not a devotion: "Parafia Matki Bożej Różańcowej"; another church's heading ends a block
PLACE_HEADING_RE = re.compile(
    r"\b(?:parafi[ai]|koś?ci[oó][łl]|kościo[łl]a|kościele|kaplic[aęy]|sanktuari(?:um|a)|bazylik[aię]|katedr[aęzy]"
    r"|konkatedr[aęzy])\b",
    re.IGNORECASE,
)

# Negative cues: what around an hour says it is no Mass start, whatever the block.
# the separator of a range ("16:00-18:00", "od 15 do 17", "8 a 9")
RANGE_SEP_RE = re.compile(r"\s*(?:[-–—]|do|a)\s*(?:godz\.?\s*)?", re.IGNORECASE)
# "30 min", "5 osób": the number after a dash is a quantity, so no range
UNIT_AFTER_RE = re.compile(r"\s*(?:min|minut|osób|lat|r\.|rok)", re.IGNORECASE)
# "od", "do", "między", "w godzinach": an opening time or the end of something, not a start
FROM_TO_BEFORE_RE = re.compile(
    r"(?:\bod|\bdo|\bmiędzy|\bw\s+godz(?:\.|inach))\s*(?:godz(?:iny|\.)?\s*|g\.\s*)?$"
    r"|\bod\s*(?:godz\.?\s*|g\.\s*)?\d{1,2}[.:]\d{2}\s*(?:,|\bi\b|\boraz\b)\s*$",  # "od 6.30 i 17.30": both
    re.IGNORECASE,
)
# "ok. godz. 7.45, 9.15": a time given about, with the list it heads; a Mass starts on its time, so these are
# of something else (Communion given between the Masses, a procession's arrival)
APPROXIMATE_BEFORE_RE = re.compile(
    r"(?:\bok\.|\bokoło)\s*(?:godz(?:\.|iny)?\s*)?(?:\d{1,2}[.:]\d{2}\s*(?:,|\bi\b|\boraz\b)\s*)*$",
    re.IGNORECASE,
)
# a bare number is an hour only when written as one: "o godz. 17", "rano 7"
HOUR_WORD_BEFORE_RE = re.compile(
    r"(?:\bgodz(?:\.|in[aieyę]\w*)?|\bg\.|\bo|\brano|\bwieczorem|\bwieczór|\bpołudniu)\s*:?\s*$",
    re.IGNORECASE,
)
# phone numbers, bank accounts, street numbers: "tel. 61 815 30 45"
CONTACT_RE = re.compile(
    r"\b(?:tel|telefon\w*|fax|kom|komórk\w*|konto|konta|rachun\w*|nip|regon|krs|e-?mail|ul)\b", re.IGNORECASE
)
# a Mass said not to be held at the hour: "nie ma Mszy św. o", "nie ma o", "bez Mszy o", "bez godz.",
# "zamiast Mszy o" (a season's order replacing it) just before it, "nie będzie odprawiana", "jest odwołana"
# just after it; the hour is the schedule's Mass time, never a new Mass
NEGATED_BEFORE_RE = re.compile(
    r"\b(?:(?:nie\s+ma|nie\s+będzie|nie\s+odprawia\s+się|bez|zamiast)\s+(?:[^\W\d]+\.?\s+){0,2}?"
    r"(?:msz\w*|eucharysti\w*)(?:\s+[^\W\d]+\.?){0,2}\s+(?:o\s+)?(?:godz(?:\.|inie)?\s*)?|bez\s+godz(?:\.|iny)?\s*"
    r"|nie\s+ma\s+(?:o\s+|godz\.?\s*)(?:godz\.?\s*)?)$",
    re.IGNORECASE,
)
NEGATED_AFTER_RE = re.compile(
    r"[\s,–—-]*(?:[^\W\d]+\.?\s+){0,2}?(?:nie\s+(?:będzie|jest|zostanie)\s+odprawian\w*|nie\s+odbędzie\s+się"
    r"|nie\s+będzie\b|(?:jest|zostaje|została|zostanie)\s+odwołan\w*|odwołan\w*|zawieszon\w*)",
    re.IGNORECASE,
)
# "Spowiedź ... przed Mszą św. o 7.30 i 18.30", "w czasie Mszy o 18.00", "pół godziny przed Mszą (6.30 i
# 17.30)", "podczas każdej Mszy (7:00 i 18:30)": the hour is the Mass's (or the confession's before it), no
# Mass of its own
AT_MASS_RE = re.compile(
    r"\b(?:przed|w\s+czasie|podczas)\s+(?:ka[żz]d(?:[ąa]|ej)\s+)?msz\w*(?:\s+(?:św\.?|święt\w*))?(?:\s+[^\W\d]+){0,2}"
    r"(?:\s+|\s*\(\s*)(?:o\s+)?"
    r"(?:godz(?:\.|inie)?\s*)?$",
    re.IGNORECASE,
)
# an intention's first words: "+ Jan Kowalski", "Za Parafian", "O zdrowie", "W intencji górników"
_INTENTION = (
    r"[+†✝]|za\s+(?:[+†✝]|śp|dusz|parafian|zmarł)|o\s+(?:boże|zdrowie|błogosławieństwo)"
    r"|w\s+intencji|dziękczynn"
)
# an intention right after an hour ("8:00 – + Jan Kowalski", "19:00 – Za Parafian", "10.30 I. W intencji
# górników", the first of two): a Mass
INTENTION_AFTER_RE = re.compile(
    rf"\s*[-–—:]?\s*(?:(?-i:I{{1,3}})\.\s*)?(?:{_INTENTION}|msza\s+(?:św|zbiorowa|gregor))", re.IGNORECASE
)
# a line that goes on with the intentions of the time above: "II. Za + Klemensa Pałka (greg)"
INTENTION_LINE_RE = re.compile(rf"\s*(?:(?-i:I{{1,3}}|IV|V)\.\s*)?(?:{_INTENTION})", re.IGNORECASE)
# an hour followed by a description ("10:00 Przyjazd", "18.00 spotkanie"), not by a list separator or a note
WORD_AFTER_RE = re.compile(r"[\s,;:–—\-*]*(?!(?:i|oraz|lub|albo|godz|g)\b)([^\W\d]{3,})", re.IGNORECASE)


def held_with(line: str, pos: int) -> bool:
    """A cue at ``pos`` held with the Mass: "z nowenną", "wraz z nabożeństwem", "poprzedzona Koronką"
    (_WITH_BEFORE_RE)."""
    lo = max(0, pos - LOOKBEHIND)
    # the regex ends in a word ending in one of these letters: a look at it first spares most cues the search
    if not line[lo:pos].rstrip().endswith(("z", "Z", "e", "E", "a", "A", "y", "Y")):
        return False
    return bool(_WITH_BEFORE_RE.search(line, lo, pos))


# "z udziałem młodzieży przygotowującej się do bierzmowania", "dla kandydatów do bierzmowania", "dla
# bierzmowanych": who attends the Mass, not another event
_ATTENDING_BEFORE_RE = re.compile(r"\b(?:przygotowując\w*\s+się|kandydat\w*)\s+do\s+$", re.IGNORECASE)


def _attended_by(line: str, pos: int) -> bool:
    """A cue at ``pos`` naming who the Mass is for: "młodzieży przygotowującej się do bierzmowania", "(dla
    bierzmowanych)"."""
    if line.endswith("dla ", 0, pos):
        return True
    return line.endswith(" do ", 0, pos) and bool(_ATTENDING_BEFORE_RE.search(line, max(0, pos - 40), pos))


# the words that take something out of a Mass's times: "oprócz", "poza", "z wyjątkiem", "z wyj."
EXCEPT_WORD = r"\b(?:opr[óo]cz|poza|z[a]?\s+wyjątkiem|z\s+wyj\.|z\s+wyłączeniem|wyjąwszy)\s"
# "17:30 (oprócz czasu wizyt duszpasterskich)": the event is when the Mass is not held, no topic of its own
_EXCEPTED_BEFORE_RE = re.compile(rf"{EXCEPT_WORD}\s*(?:[^\W\d]+\s+){{0,2}}$", re.IGNORECASE)


def excepted(line: str, pos: int) -> bool:
    """A cue at ``pos`` named as the exception of a Mass: "oprócz czasu kolędy", "poza rekolekcjami"."""
    return bool(_EXCEPTED_BEFORE_RE.search(line, max(0, pos - LOOKBEHIND), pos))


@dataclass(slots=True)  # not frozen: a page has hundreds of cues, and frozen is slower to build
class Cue:
    """A cue's span in its line, and what it says."""

    start: int
    end: int
    mass: bool  # it names a Mass
    reference: bool  # "po Mszy": a Mass named as a point of reference, does not open a block


def _overlaps(spans: list[tuple[int, int]], starts: list[int], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of ``spans`` (sorted and not overlapping each other; ``starts``
    their starts): only the last span starting before ``end`` can, as the spans' ends are sorted too."""
    i = bisect_left(starts, end)  # spans[:i] start before end
    return i > 0 and spans[i - 1][1] > start


def _scanned(line: str) -> tuple[str, re.Pattern[str], re.Pattern[str]]:
    """What the Mass and other cues are searched in, and with which regexes: the lowercased line and the
    case-sensitive regexes (faster, the same spans: tests/unit/test_rules.py), unless lowercasing would not
    match as IGNORECASE does (_LOWER_MISMATCH)."""
    if any(ch in line for ch in _LOWER_MISMATCH):
        return line, MASS_CUE_RE, OTHER_CUE_RE
    return line.lower(), _MASS_CUE_LOWER_RE, _OTHER_CUE_LOWER_RE


def _mass_cues(line: str, scanned: str, mass_re: re.Pattern[str]) -> list[Cue]:
    """The line's negated Mass cues ("poza godzinami Mszy") and its Mass cues outside them, in order."""
    lowered = scanned if mass_re is _MASS_CUE_LOWER_RE else line.lower()
    # the regex starts with "poza", which only "poza" in any case matches: most lines are spared the search
    negated = [m.span() for m in NEGATED_MASS_RE.finditer(line)] if "poza" in lowered else []
    negated_starts = [a for a, _ in negated]
    cues = [Cue(a, b, False, False) for a, b in negated]
    for m in mass_re.finditer(scanned):
        if negated and _overlaps(negated, negated_starts, m.start(), m.end()):
            continue
        ref = bool(_REFERENCE_BEFORE_RE.search(line, max(0, m.start() - LOOKBEHIND), m.start()))
        cues.append(Cue(m.start(), m.end(), True, ref))
    cues.sort(key=attrgetter("start"))
    return cues


class _OtherCueFilter:
    """Which matches of OTHER_CUE_RE are cues: not inside a Mass cue, not held with the Mass."""

    def __init__(self, line: str, mass_cues: list[Cue]) -> None:
        self.line = line
        self.taken = [(c.start, c.end) for c in mass_cues]
        self.starts = [c.start for c in mass_cues]

    def kept(self, start: int, end: int) -> bool:
        if self.taken and _overlaps(self.taken, self.starts, start, end):
            return False  # "rozkład nabożeństw" is a Mass header, not a devotion
        # "18.00 z nowenną", "(z Koronką)": held with the Mass, says nothing against it
        return (
            not held_with(self.line, start)
            and not excepted(self.line, start)
            and not _attended_by(self.line, start)
        )


def _cues(line: str) -> list[Cue]:
    """The line's cues in order; they never overlap."""
    scanned, mass_re, other_re = _scanned(line)
    cues = _mass_cues(line, scanned, mass_re)
    others = _OtherCueFilter(line, cues)
    cues += [Cue(*m.span(), False, False) for m in other_re.finditer(scanned) if others.kept(*m.span())]
    cues.sort(key=attrgetter("start"))
    return cues


def topic_cues(line: str) -> list[Cue]:
    """What a line without hours tells the lines below (walk._topic_after): its own cues (no "po Mszy"), of
    which only the Mass and negated ones and the last one, in order. The other cues before the last all say
    "not a Mass" there, so a long line's many cues are spared their checks."""
    scanned, mass_re, other_re = _scanned(line)
    cues = _mass_cues(line, scanned, mass_re)
    own = [c for c in cues if not c.reference]
    others = _OtherCueFilter(line, cues)
    for start, end in reversed([m.span() for m in other_re.finditer(scanned)]):
        if own and start < own[-1].start:
            break
        if others.kept(start, end):
            own.append(Cue(start, end, False, False))
            break
    return own


class LineCues:
    """A line's cues with the lookups its hours make, by bisection (a line may have hundreds of hours)."""

    def __init__(self, line: str) -> None:
        self.line = line
        self.cues = _cues(line)
        self.starts = [c.start for c in self.cues]
        self.ends = [c.end for c in self.cues]  # sorted too: cues do not overlap
        self.own = [c for c in self.cues if not c.reference]  # no "po Mszy": these set a block's topic

    def last_within(self, lo: int, hi: int) -> Cue | None:
        """The last cue wholly inside line[lo:hi]."""
        j = bisect_right(self.ends, hi) - 1
        return self.cues[j] if j >= 0 and self.cues[j].start >= lo else None

    def first_own_from(self, lo: int, hi: int) -> Cue | None:
        """The first cue starting in [lo, hi) that is no reference ("po Mszy") and not held with the Mass."""
        for i in range(bisect_left(self.starts, lo), len(self.cues)):
            c = self.cues[i]
            if c.start >= hi:
                break
            if not c.reference and not held_with(self.line, c.start):
                return c
        return None

    def last_own_by(self, pos: int) -> Cue | None:
        """The last cue ending by ``pos`` that is no reference."""
        for i in range(bisect_right(self.ends, pos) - 1, -1, -1):
            if not self.cues[i].reference:
                return self.cues[i]
        return None
