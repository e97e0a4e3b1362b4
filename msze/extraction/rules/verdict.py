"""The verdict on one hour, from its context: what it can never be, then its own cue, then the block.

The walk over the lines (walk.py) builds the context; here each step is one question, in the order that
makes the rules precise: a range end or a phone number is never a Mass whatever word is near, a cue in the
hour's own clause beats the block it sits in, and a block or day heading decides only list-like lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from msze.extraction.hours import Hour
from msze.extraction.rules.cues import (
    APPROXIMATE_BEFORE_RE,
    CONTACT_RE,
    FROM_TO_BEFORE_RE,
    HELD_WITH,
    HOUR_WORD_BEFORE_RE,
    INTENTION_AFTER_RE,
    LOOKBEHIND,
    MASS_CUE_RE,
    WORD_AFTER_RE,
    Cue,
    LineCues,
)
from msze.extraction.rules.days import DAY_ANY_RE, LINE_DAY_HEAD_RE, Days, is_day_label
from msze.extraction.rules.lines import words
from msze.extraction.rules.reading import CHURCH_WORD_RE, Reading, place_named, season_in

NEGATED = "negated"  # a Mass said not to be held at the hour: the page's Mass time, no Mass of the schedule
AT_MASS = "confession at mass"  # "Spowiedź przed Mszą o 7.30": the page's Mass time, confession then
# "Różaniec (w Adwencie po Roratach o 16.00)": a Mass named as the devotion's time, no Mass of its own
DEVOTION_AT_MASS = "devotion at mass"
# the reasons of Mass times that add no Mass to a schedule
NOT_SCHEDULED = frozenset({NEGATED, AT_MASS, DEVOTION_AT_MASS})
UNCUED = "no cue"  # the reason for an hour the rules found nothing to go on for (the classifier's to label)
FORWARD_WORDS = 6  # a cue at most this many words after an hour may decide it ("18.30 Nieszpory")
SECTION_MAX_WORDS = 8  # a block's header decides only for list-like clauses (few words before the hour)


@dataclass(frozen=True, slots=True)
class RuleDecision:
    """The rules' verdict on one hour, a short reason (for evaluation reports), what the page says of it."""

    is_mass: bool
    reason: str
    reading: Reading

    @property
    def days(self) -> Days | None:
        return self.reading.days

    @property
    def day(self) -> str | None:
        """The first version's coarse day (sunday / weekday / saturday / holiday)."""
        return self.reading.days.category if self.reading.days is not None else None


Verdict = tuple[bool, str]  # (is a Mass start, why)


@dataclass(slots=True)  # not frozen: made for every hour, and frozen is 5x slower to build
class LineContext:
    """What the verdicts on one line's hours share: the line, its cues, and what the lines above said."""

    line: str
    start: int  # the line's offset in the text: hours are positioned in the text
    cues: LineCues
    hours: Sequence[Hour]  # all the text's hours: the neighbours of an hour bound what is read around it
    section: bool | None  # the block's topic: True a Mass schedule, False something else, None no block
    day_list: bool  # a day heading starts this line's list of times, or stands on its own line just above
    dense: bool  # list-like: no prose, and short or with an hour every CHARS_PER_HOUR characters


@dataclass(slots=True)  # not frozen: made for every hour, and frozen is 5x slower to build
class HourContext:
    """One hour in its line: its span and clause there, and what the walk already knows of it."""

    line: LineContext
    idx: int  # the hour's index in line.hours
    hour: Hour
    s: int  # the hour's span in the line
    e: int
    clause_start: int  # the clause the hour is in: the part of the line since the last sentence end
    clause_end: int
    next_start: int  # where the next hour on the line starts (else the line's end): it bounds a look forward
    in_range: bool  # one end of a range ("16:00-18:00")
    listed: bool  # a bare number listed after an hour ("godz. 7, 9, 11 i 18"): an hour like the first
    day: Days | None  # the hour's own day phrase, else the day heading above

    @property
    def before(self) -> str:
        """The hour's clause up to the hour."""
        return self.line.line[self.clause_start : self.s]

    @property
    def since(self) -> int:
        """Where the hour's own words start in the line: the previous hour's end in its clause, else the
        clause's start."""
        previous_end = self.line.hours[self.idx - 1].end - self.line.start if self.idx > 0 else -1
        return max(self.clause_start, previous_end)


# "18-tej", "o 7-mej": the number is an hour
ORDINAL_AFTER_RE = re.compile(r"-?(?:tej|ej|stej|mej|ma|ta|tą|ą)\b")


# what stands between a Mass word and its time: "Mszy św. o godz.", "Msza w kościele o"
_MASS_AT_RE = re.compile(r"\s*(?:[^\W\d]+\.?\s+){0,3}(?:o\s+)?(?:godz(?:inie|\.)?|g\.|o)\s*:?\s*", re.I)


def is_bare(h: Hour) -> bool:
    """A number without minutes ("17"): an hour only when written as one ("o godz. 17")."""
    return h.text.isdigit() and len(h.text) <= 2


def _looks_like_date(h: Hour) -> bool:
    """ "12.05", "8.10": a day.month as much as a time; Masses rarely start at :01-:12 past the hour."""
    return "." in h.text and h.text.replace(".", "").isdigit() and 1 <= int(h.time[3:]) <= 12


def _listed_after_a_time(c: HourContext) -> bool:
    """ "6.30, 7.10, 19.00": the next item of a list of times, right after one that is no date."""
    if c.idx == 0 or c.since == c.clause_start:
        return False
    previous = c.line.hours[c.idx - 1]
    return not _looks_like_date(previous) and c.line.line[c.since : c.s].strip() in (",", ";")


def verdict(c: HourContext) -> Verdict:
    """Is the hour a Mass start: the first step with an answer decides."""
    return _never_mass(c) or _by_cue(c) or _by_block(c)


# "w godz. ", "w godzinach " heading a list of times ("w godz. 7.00, 8.30, 10.00"), not the opening hours of
# a range
_LIST_HEAD_RE = re.compile(r"\bw\s+godz(?:\.|inach)\s*$", re.IGNORECASE)
_NEXT_LISTED_RE = re.compile(r"\s*,\s*\d{1,2}[.:]\d\d")


def _heads_a_list(near: str, c: HourContext) -> bool:
    """ "w godz. 7.00, 8.30": the first of a list of times, which "w godz." heads, not a range's start."""
    return bool(_LIST_HEAD_RE.search(near)) and bool(_NEXT_LISTED_RE.match(c.line.line, c.e))


LIST_LOOKBEHIND = 120  # characters looked at before an hour for the head of its list ("ok. godz. 7.45, ...")


def _never_mass(c: HourContext) -> Verdict | None:
    """What is no Mass start whatever the cues say: range ends, odd minutes, "od"/"do", bare numbers,
    phone numbers and accounts."""
    h = c.hour
    if c.in_range:
        return (False, "range")
    if int(h.time[3:]) % 5:
        return (False, "odd minutes")  # Masses start on the hour, at :15, :30, :45, ...
    near = c.before[-LOOKBEHIND:]
    if FROM_TO_BEFORE_RE.search(near) and not _heads_a_list(near, c):
        return (False, "from/to")
    if APPROXIMATE_BEFORE_RE.search(c.before[-LIST_LOOKBEHIND:]):
        return (False, "approximate")  # "(ok. godz. 7.45, 9.15)"
    if is_bare(h) and not (
        c.listed or HOUR_WORD_BEFORE_RE.search(near) or ORDINAL_AFTER_RE.match(c.line.line, c.e)
    ):
        return (False, "bare number")
    if _STAMP_BEFORE_RE.search(near):
        return (False, "timestamp")  # "2003-05-07 16:45 Opublikował: Admin": when a page was written
    contacts = list(CONTACT_RE.finditer(near))
    if (
        contacts
        and not MASS_CUE_RE.search(near, contacts[-1].end())
        and not _closed(near, contacts[-1])
        and not _church_street(near, contacts[-1])
        and not (contacts[-1].group().lower() == "ul" and _HOUR_WORD_END_RE.search(near))
    ):
        return (False, "contact")  # "tel. 61 815 30 45", "konto: ..."
    return None


# "przy Szpitalu, ul. Biernackiego 9A o godz. 7.00": the street's number is past, the hour is said
_HOUR_WORD_END_RE = re.compile(r"\d\w?\s+o\s+godz(?:\.|in\w*)\s*$", re.IGNORECASE)
# an ISO date right before the time: a post's or an update's stamp, as content systems print it
_STAMP_BEFORE_RE = re.compile(r"\b\d{4}-[01]\d-[0-3]\d(?:[ T]|,\s*)$")


def _church_street(near: str, contact: re.Match[str]) -> bool:
    """A street that says where a church named just before it is: "w kaplicy przy ul. Leśnej 5: 9.30"."""
    return (
        contact.group().lower() == "ul"
        and _AT_STREET_RE.search(near, 0, contact.start()) is not None
        and CHURCH_WORD_RE.search(near, max(0, contact.start() - 30), contact.start()) is not None
    )


_AT_STREET_RE = re.compile(r"\b(?:przy|na)\s+$", re.IGNORECASE)


def _closed(near: str, contact: re.Match[str]) -> bool:
    """A contact in a parenthesis that closes before the hour: "kaplica (ul. Polna): 8.00" names a street."""
    opened = near.rfind("(", 0, contact.start()) > near.rfind(")", 0, contact.start())
    return opened and ")" in near[contact.end() :]


# "po Mszy św. (": a time in parentheses right after a Mass named as what something follows; after "przed
# Mszą św. (" or "podczas Mszy (" it is that Mass's own time ("spowiedź przed Mszą św. (7.00 i 18.30)")
_PAREN_AFTER_MASS_RE = re.compile(r"\s*(?:św\.?|święt\w*)?\s*\(\s*", re.IGNORECASE)
_AFTER_RE = re.compile(r"\bpo\s+$", re.IGNORECASE)


_LABEL_AFTER_DOT_RE = re.compile(r"\.[ \t]+[^\W\d]")  # "16.30. Adoracja"
# what joins another item to a list: a cue right after it is that item's, not the time's ("18.30 dodatkowo po
# Gorzkich Żalach 15.45")
_JOINED_RE = re.compile(
    r"[\s,]*(?:oraz|i|a\s+(?:także|też|potem|następnie)|(?:a\s+)?(?:dodatkowo|ponadto))\s+(?:(?:po|przed)\s+)?",
    re.IGNORECASE,
)
# a devotion the time shares with a Mass: "różaniec i msza św.", "różaniec po Mszy św." (the Mass at the hour)
_WITH_MASS_RE = re.compile(r"\s*(?:i|oraz|\+|po)\s+(?:msz|eucharysti)", re.IGNORECASE)
# a run of spaces as a flattened table leaves between its cells: "18:00         Biuro parafialne: ..." speaks
# of the next cell
CELL_GAP_RE = re.compile(r"[ \t\xa0]{4,}")


def _by_cue(c: HourContext) -> Verdict | None:
    """The nearest cue in the hour's clause: one right after it ("18.30 Nieszpory") wins when it is closer.

    The look forward stops at the clause's end, the next hour, a semicolon and a table cell's gap: a cue past
    them describes another time.
    """
    line, cues = c.line.line, c.line.cues
    semicolon = line.find(";", c.e)
    gap = CELL_GAP_RE.search(line, c.e, c.next_start)
    clause_end = c.clause_end
    if _LABEL_AFTER_DOT_RE.match(line, c.e) and not line[: c.s].strip(" \t•*·-–—"):
        clause_end = len(line)  # "16.30. Adoracja": a line's first time, its label past the full stop
    fwd_end = min(clause_end, c.next_start, semicolon if semicolon >= 0 else len(line))
    if gap is not None:
        fwd_end = min(fwd_end, gap.start())
    back_cue = cues.last_within(c.clause_start, c.s)
    while (
        back_cue is not None
        and (aside := _season_aside(line, c.clause_start, back_cue.start, c.s)) is not None
    ):
        back_cue = cues.last_within(
            c.clause_start, aside
        )  # what the season's "kiedy ..." clause says is no topic
    while back_cue is not None and (note := _note_of_hour_before(line, c.clause_start, back_cue, c.s)) >= 0:
        back_cue = cues.last_within(c.clause_start, note)  # "15:00 (... Koronką ...), 18:30": 15:00's word
    fwd_cue = cues.first_own_from(c.e, fwd_end)
    if fwd_cue is not None and words(line[c.e : fwd_cue.start]) >= FORWARD_WORDS:
        fwd_cue = None
    if fwd_cue is not None and _LIST_COMMA_RE.match(line, c.e) and fwd_cue.start < c.next_start < clause_end:
        fwd_cue = None  # "środy 17.00, 20.00, czuwanie od 17.30": the next item is the vigil's, with its time
    if (
        fwd_cue is not None
        and back_cue is not None
        and back_cue.mass
        and (_MASS_AT_RE.fullmatch(line, back_cue.end, c.s) or _JOINED_RE.fullmatch(line, c.e, fwd_cue.start))
    ):
        # "Po Mszy św. o godz. 12.00 nabożeństwo": the hour is that Mass's; "Msze ... 8.45 i 11.00 oraz
        # Gorzkie Żale": the cue is the list's next item's
        fwd_cue = None
    if fwd_cue is not None and (
        back_cue is None or words(line[c.e : fwd_cue.start]) < words(line[back_cue.end : c.s])
    ):
        if fwd_cue.mass and c.line.section is True and _NOTE_OPEN_RE.match(line, c.e) and _is_listy(c):
            return (True, "schedule block")  # "9:30 (suma), 11:00", "12.00 – suma": a listed time's note
        if not fwd_cue.mass and _WITH_MASS_RE.match(line, fwd_cue.end, fwd_end):
            return (True, "cue after")  # "16.00 /różaniec i msza św./", "8.00 (różaniec po Mszy)"
        return (fwd_cue.mass, "cue after" if fwd_cue.mass else "other cue after")
    if back_cue is not None:
        if (
            back_cue.reference
            and _PAREN_AFTER_MASS_RE.fullmatch(line, back_cue.end, c.s)
            and _AFTER_RE.search(line, max(0, back_cue.start - 8), back_cue.start)
        ):
            return (False, "after the Mass")  # "czynna po Mszy św. (18.45)": the time of what follows it
        return (back_cue.mass, "cue before" if back_cue.mass else "other cue before")
    return None


_LIST_COMMA_RE = re.compile(r"\s*,")
_NOTE_OPEN_RE = re.compile(r"\s*(?:\(|[–—-]\s)")  # a note on the hour opens: "9:30 (suma)", "12.00 – suma"
_HOUR_END_RE = re.compile(r"\d[.:]\d\d\s*,?\s*$")


# "07.30 – Godzinki, 08.00": a label after an earlier hour's dash, up to the comma ending its item
_DASH_NOTE_RE = re.compile(r"\d[.:]\d\d\s*[–—-]\s*[^\d,;()]*$")


def _note_of_hour_before(line: str, lo: int, cue: Cue, s: int) -> int:
    """Where the closed parenthesis noting an earlier hour opens, when ``cue`` is inside it ("7:00, 15:00 (z
    Koronką), 18:30": the devotion is 15:00's note, no topic of 18:30), or where the dash opens that labels
    an earlier hour up to a comma ("07.30 – Godzinki, 08.00"); else -1."""
    dash = _DASH_NOTE_RE.search(line, lo, cue.start)
    item_end = line.find(",", cue.end, s)
    if dash is not None and item_end >= 0 and not any(ch.isdigit() for ch in line[cue.end : item_end]):
        return dash.start()
    opening = line.rfind("(", lo, cue.start)
    if opening < 0 or line.find(")", cue.end, s) < 0 or line.find(")", opening, cue.start) >= 0:
        return -1
    return opening if _HOUR_END_RE.search(line, max(lo, opening - 12), opening) else -1


# ", kiedy odprawiana jest Droga Krzyżowa,": a clause saying when a season is, set off by commas
_WHEN_ASIDE_RE = re.compile(r",\s*(?:kiedy|gdy)\s[^,;.()]*(?=,)", re.IGNORECASE)


def _season_aside(line: str, lo: int, pos: int, hi: int) -> int | None:
    """The start of the "kiedy ..." clause holding ``pos`` that describes the season named before it ("W
    Wielkim Poście, kiedy odprawiana jest Droga Krzyżowa, w piątki o 17.30"): what happens in the season,
    not what the time after it is; None when ``pos`` is in no such clause."""
    for m in _WHEN_ASIDE_RE.finditer(line, lo, hi):
        if m.start() <= pos < m.end() and season_in(line[lo : m.start()]) is not None:
            return m.start()
    return None


def _by_block(c: HourContext) -> Verdict:
    """No cue in the clause: an intention, or the block and day heading decide, for list-like hours only.

    An earlier clause of the line sets the topic over the block's ("Msze: 8:00. W lipcu: 9:00"). A time
    that reads as a date needs a Mass word of its own.
    """
    earlier = c.line.cues.last_own_by(c.clause_start)
    section = earlier.mass if earlier is not None else c.line.section
    head = c.before.strip(" \t•*-–—·")
    if INTENTION_AFTER_RE.match(c.line.line, c.e) and (not head or is_day_label(head)):
        return (True, "intention")  # "piątek   18:00   † Gertruda": a Mass's intention, past a devotion
    if _looks_like_date(c.hour) and not _listed_after_a_time(c):
        return (False, "date-like")  # "Niedziela 12.05": only a Mass word makes it a time
    if section is True and (_is_listy(c) or (c.day is not None and _HELD_WITH_RE.match(c.line.line, c.e))):
        return (True, "schedule block")  # "• w środy: 16.30 wraz z nowenną do Matki Bożej ...": the Mass's
    if section is True and c.day is not None and _DAY_AT_HOUR_RE.search(c.line.line, c.clause_start, c.s):
        return (True, "schedule sentence")  # "Eucharystia ... codziennie. / W niedziele o godz. 8.00, 10.30"
    if section is None and _is_day_list_item(c):
        return (True, "day list")
    if section is False and _is_listy(c):
        return (False, "other block")  # "Spotkanie formacyjne" over "piątek godz. 18:00": its time
    return (False, UNCUED)


# a clause giving days their hours: "W niedziele o godz. 8.00, 10.30", "we wtorek i sobotę o godzinie 17.30"
_DAY_AT_HOUR_RE = re.compile(
    rf"(?:{DAY_ANY_RE.pattern})[^.;:\d]{{0,40}}?\b[ow]\s+godz(?:\.|inie)\s*(?:\d{{1,4}}(?:[.:]\d{{2}})?\s*(?:,|i)\s*)*$",
    re.IGNORECASE,
)


# what a Mass is held with, right after its time: "16.30 wraz z nowenną", "18.00 z Koronką"
_HELD_WITH_RE = re.compile(rf"\s*[-–—,]?\s*(?:{HELD_WITH})\s+[^\W\d]", re.IGNORECASE)


def _is_listy(c: HourContext) -> bool:
    """Few words since the previous hour of the clause (or its start), in a line dense in hours."""
    if not c.line.dense:
        return False
    return words(DAY_ANY_RE.sub(" ", c.line.line[c.since : c.s])) <= SECTION_MAX_WORDS


def _is_day_list_item(c: HourContext) -> bool:
    """A list-like time first in its clause under a day heading, and not followed by a description ("10:00
    Przyjazd pielgrzymów": a programme); a day name after the hour is the next list item, a church ("7:30 –
    kościół parafialny", "18:00 – kaplica Zalesie") where it is held and a label after a comma the next
    list's ("18:00, Łysomice: 9:00"), and so is a place after a comma before the next time ("Zalesie 8.00,
    Borki 9.30"), no description."""
    if not (c.line.day_list and c.day is not None and c.clause_start == 0 and _is_listy(c)):
        return False
    after = WORD_AFTER_RE.match(c.line.line, c.e, c.next_start)
    return (
        after is None
        or bool(LINE_DAY_HEAD_RE.match(c.line.line, after.start(1)))
        or bool(CHURCH_WORD_RE.match(c.line.line, after.start(1)))
        or bool(_NEXT_LABEL_RE.match(c.line.line, c.e))
        or _next_place(c.line.line[c.e : c.next_start])
    )


def _next_place(between: str) -> bool:
    """What follows an hour up to the next is a separator and a place named alone: ", Borki "."""
    return between.lstrip()[:1] in (",", ";") and place_named(between) is not None


# a list's next label after a separator: "7:30, 12:00, 18:00, Łysomice: 9:00" (the place of the next times)
_NEXT_LABEL_RE = re.compile(r"\s*[,;]\s*[^\W\d][^:\d,;]{0,30}:")
