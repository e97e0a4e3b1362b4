"""decide(): one walk over a text's lines in order, carrying what the lines above said to the next.

Schedules are blocks: a header line ("Msze święte", "Kancelaria") sets the topic of the lines below it, and
a day heading on a line of its own ("Niedziele i święta:") gives its day to the times under it. A line
without hours only updates that state; a line with hours gets its verdicts (verdict.py) from it, and its
own last cue and day heading then carry on to the lines below.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from msze.extraction.hours import Hour
from msze.extraction.rules.cues import (
    AT_MASS_RE,
    HOUR_WORD_BEFORE_RE,
    INTENTION_AFTER_RE,
    INTENTION_LINE_RE,
    LOOKBEHIND,
    MASS_CUE_RE,
    NEGATED_AFTER_RE,
    NEGATED_BEFORE_RE,
    PLACE_HEADING_RE,
    RANGE_SEP_RE,
    UNIT_AFTER_RE,
    Cue,
    LineCues,
    topic_cues,
)
from msze.extraction.rules.days import (
    AS_WELL_RE,
    CAPITAL,
    DAY_ANY_RE,
    HEAD_GAP_RE,
    LINE_DAY_HEAD_RE,
    MON_SAT,
    PARENS_RE,
    Days,
    LineDays,
    day_at,
    days_of,
    is_day_heading,
    is_day_label,
    names_day,
)
from msze.extraction.rules.lines import clause_starts, is_prose, line_bounds, words
from msze.extraction.rules.reading import (
    BROADCAST_RE,
    CHURCH_WORD_RE,
    CONFESSION_RE,
    HISTORY_RE,
    MONTHLY,
    MONTHLY_RE,
    ONE_OFF,
    PLURAL_CHURCHES_RE,
    REGULAR,
    ROMAN_MONTH,
    THIS_WEEK_RE,
    VIGIL_FROM,
    BlockNotes,
    HourFacts,
    Reading,
    church_heading,
    column_seasons,
    complement,
    complement_of_all,
    excepts,
    finish,
    inline_church,
    monthly_note,
    names_main_church,
    place_after,
    place_before_comma,
    place_in_parens,
    place_leading_parens,
    place_named,
    read,
    season_in,
    starts_rest_of_year,
)
from msze.extraction.rules.verdict import (
    AT_MASS,
    CELL_GAP_RE,
    DEVOTION_AT_MASS,
    NEGATED,
    NOT_SCHEDULED,
    UNCUED,
    HourContext,
    LineContext,
    RuleDecision,
    is_bare,
    verdict,
)

CHARS_PER_HOUR = 80  # a line with at least one hour per this many characters is a list, not prose
HEADER_CHARS = 70  # a line this short without hours is a heading
PLACE_HEADING_CHARS = 100  # a line this short naming a church or parish is its name, not a topic
PROSE_LINE_CHARS = 150  # a longer line without hours ends the block it sits in
LABEL_DAY_LINE_CHARS = 40  # a line this short without a day keeps the day heading above for labels


def decide(text: str, hours: Sequence[Hour], year: int | None = None) -> list[RuleDecision]:
    """One decision per hour of ``find_hours(text)`` (same order): is it a Mass start, and its reading (days,
    church, season, one-off or weekly, ...); ``year`` dates what the page's own dates leave undated."""
    if not hours:
        return []
    return _Walk(text, hours, year).run()


def mass_times(text: str, hours: Sequence[Hour]) -> list[str]:
    """Sorted distinct "HH:MM" the rules confirm as Mass starts."""
    return sorted({h.time for h, d in zip(hours, decide(text, hours), strict=True) if d.is_mass})


_DASH_RE = re.compile(r"\s*[-–—]\s*")


# "- 7:00\n- 18:00": a dash that starts the next line is its bullet, no range
_BULLET_RE = re.compile(r"[ \t]*\n\s*[-–—]\s*")


def _in_ranges(text: str, hours: Sequence[Hour]) -> list[bool]:
    """Which hours are an end of a range ("16:00-18:00", "od 15 do 17"): both ends are never a Mass start.
    Three or more rising times joined by dashes are a list ("7.30 – 9.00 – 10.30"), a range being two; a dash
    opening a line is a list's bullet."""
    in_range = [False] * len(hours)
    dashed = [False] * len(hours)  # joined to the next hour by a dash, rising
    for i in range(len(hours) - 1):
        a, b = hours[i], hours[i + 1]
        between = text[a.end : b.start]
        if (
            len(between) <= 12
            and RANGE_SEP_RE.fullmatch(between)
            and not UNIT_AFTER_RE.match(text, b.end)
            and not _BULLET_RE.fullmatch(between)
        ):
            dashed[i] = a.time < b.time and bool(_DASH_RE.fullmatch(between))
            line_head = text[max(0, a.start - LOOKBEHIND) : a.start].rpartition("\n")[2]
            # "Dni powszednie – 7.00 – 18.00": a day's list in the dash style, no range
            in_range[i] = in_range[i + 1] = not (dashed[i] and _DASH_LIST_HEAD_RE.search(line_head))
    i = 0
    while i < len(hours):
        j = i
        while dashed[j]:
            j += 1
        if j - i >= 2:  # hours i..j, three or more
            in_range[i : j + 1] = [False] * (j - i + 1)
        i = j + 1
    return in_range


# a day phrase, then a dash before the first time: "Niedziela – 7.00 – 9.00", "Dni powszednie – 7.00 – 18.00"
_DASH_LIST_HEAD_RE = re.compile(rf"(?:{DAY_ANY_RE.pattern})[^\d\n:–—-]{{0,30}}[–—-]\s*$", re.IGNORECASE)


# what joins a list of hours: "godz. 7, 9, 11 i 18"
_LIST_SEP_RE = re.compile(r"\s*(?:,|;|i|oraz|lub|albo)\s*", re.IGNORECASE)


# a day heading or a Mass header just before a list: "niedziele: 8, 10, 12", "Msze św. w tygodniu: 7, 18"
_LIST_HEAD_RE = re.compile(rf"(?:{DAY_ANY_RE.pattern}|{MASS_CUE_RE.pattern})[^\d\n:]{{0,30}}:\s*$", re.I)
LIST_FIRST_HOUR = "05:00"  # a headed list of bare numbers from this hour on, rising, is a list of hours
# a season heading a list after the times of the line's other season: "8:00 (poza wakacjami), w wakacje -
# 9, 11"
_SEASON_HEAD_RE = re.compile(r"\d[^\n]*?[,;]\s*(?P<s>[^\d\n:,;()]{3,30}?)\s*[:–—-]\s*$")


_NOTE_GAP = 60  # characters between two hours of a list, with a note in parentheses


def _in_lists(text: str, hours: Sequence[Hour]) -> list[bool]:
    """Which bare numbers are hours of a list: continuing one that an hour starts ("o godz. 7, 9, 11 i 18",
    "o 9 i 11", "9:30 (dla dzieci), 11"), or rising numbers right after a day heading or Mass header
    ("niedziele: 8, 10, 12, 18")."""
    listed = [False] * len(hours)
    for i in range(1, len(hours)):
        a, b = hours[i - 1], hours[i]
        if not is_bare(b) or b.start - a.end > _NOTE_GAP:
            continue
        gap = PARENS_RE.sub("", text[a.end : b.start])  # "12:30 (poza wakacjami), 12 (w wakacje)"
        if len(gap) > 8 or not _LIST_SEP_RE.fullmatch(gap):
            continue
        before = text[max(0, a.start - LOOKBEHIND) : a.start]
        headed = LIST_FIRST_HOUR <= a.time < b.time and (
            bool(_LIST_HEAD_RE.search(before)) or _season_head(before)
        )
        listed[i - 1] = listed[i - 1] or headed
        listed[i] = listed[i - 1] or not is_bare(a) or bool(HOUR_WORD_BEFORE_RE.search(before))
    return listed


def _season_head(before: str) -> bool:
    """A season labelling a list after other times of its line: "..., w wakacje - "."""
    m = _SEASON_HEAD_RE.search(before)
    return m is not None and season_in(m["s"]) is not None


def _hours_by_line(bounds: list[tuple[int, int]], hours: Sequence[Hour]) -> dict[int, list[int]]:
    """The indexes of the hours starting on each line (by line number); lines without hours are absent."""
    by_line: dict[int, list[int]] = {}
    line_starts = [a for a, _ in bounds]
    li = 0
    for idx, h in enumerate(hours):
        while li + 1 < len(line_starts) and line_starts[li + 1] <= h.start:
            li += 1
        by_line.setdefault(li, []).append(idx)
    return by_line


def _cues_overwritten(text: str, bounds: list[tuple[int, int]], by_line: dict[int, list[int]]) -> set[int]:
    """The lines without hours whose cues decide nothing, so they are not searched: longer than
    PLACE_HEADING_CHARS and followed, before the next line with hours, by a line of prose (over
    PROSE_LINE_CHARS, no day heading). That line sets the block's topic and days anew from its own cues
    (_Block.read_hourless), and what a long line's cues set lasts no further (the broadcast flag is set by
    short lines only)."""
    overwritten: set[int] = set()
    prose_below = False
    for li in range(len(bounds) - 1, -1, -1):
        if li in by_line:
            prose_below = False
            continue
        line = text[bounds[li][0] : bounds[li][1]]
        size = len(line.strip())
        if prose_below and size > PLACE_HEADING_CHARS:
            overwritten.add(li)
        if size > PROSE_LINE_CHARS and not is_day_heading(line):
            prose_below = True
    return overwritten


@dataclass(slots=True)
class _Block:
    """What the lines above tell the next line: the block's topic and the day heading over it."""

    section: bool | None = None  # True: a Mass block, False: a block about something else, None: none
    heading_day: Days | None = None  # the day heading on a line of its own just above
    label_day: Days | None = None  # the same, kept across short notes, for the day label only
    listed_day: bool = False  # that day labelled a line of times ("dni pow: 6:30, 18:00"), no heading alone
    sunday_header: bool = False  # under a Mass header naming Sunday ("Msze niedzielne:"), day lines and all
    notes: BlockNotes = field(default_factory=BlockNotes)  # the church, season and date headings say
    broadcast: bool = False  # under "Msze święte w telewizji", "Program TV": times of broadcasts
    columns: list[Days] | None = None  # a flattened table's day headings, one a column, over the rows below
    # the day a Mass line's label gave ("Msze w niedziele: 8.00, 10.00"), for the church lines right below
    # it ("Filia Borki: 9.00", "Kaplica szpitalna: 7.00"), which are that day's too
    church_lines_day: Days | None = None
    # under "Kościoły (Msze św. w niedzielę)", a directory's list of a parish's churches, each line a church
    # with its times in parentheses and descriptions between them: the day of the list, and churches seen
    church_list: Days | None = None
    church_entries: int = 0
    ordinary_sunday: bool = False  # under a heading naming an ordinary Sunday ("III NIEDZIELA ZWYKŁA")
    # a flattened table's season columns ("Msze Święte czas letni czas zimowy" over "Niedziela 7:00 8:00")
    season_columns: list[str] | None = None
    church_line: bool = False  # the line being read is such a church line
    # a short devotion line ("Nieszpory – 15.30") just closed a Mass block: a day heading next resumes it
    resumable: bool = False

    def column_day(self, line: str, s: int) -> Days | None:
        """The day heading of the column a time at ``s`` stands in, on a row cut into as many cells."""
        lead = len(line) - len(line.lstrip())
        if self.columns is None or len(CELL_GAP_RE.findall(line.strip())) != len(self.columns) - 1:
            return None
        return self.columns[len(CELL_GAP_RE.findall(line, lead, max(lead, s)))]

    def read_hourless(self, line: str, own: list[Cue]) -> None:
        """A line without hours: a header, a day heading, a note or prose, each changing the block its way.

        A day heading (or a short header with a day) gives its day to the lines below; other lines end it,
        but a short note ("w okresie zimowym") keeps the day for the labels. ``own``: cues.topic_cues(line).
        """
        if INTENTION_LINE_RE.match(line):
            return  # "II. Za + Klemensa Pałka": an intentions list's second intention, the day's list goes on
        if _CHURCH_LIST_RE.fullmatch(line):
            self.church_list, self.church_entries = day_at(line), 0
        size = len(line.strip())
        if size <= HEADER_CHARS or size > PROSE_LINE_CHARS:  # a heading, or prose that ends what one said
            self.ordinary_sunday = size <= HEADER_CHARS and _SUNDAY_HEADING_RE.search(line) is not None
        is_head = is_day_heading(line)
        self.columns = _column_days(line) if is_head else None
        if not is_head:
            self.season_columns = column_seasons(line) if size <= HEADER_CHARS else None
        self.church_lines_day = None
        self.section = _topic_after(line, own, is_head, self.section)
        if is_head and not own and self.section is False and self.resumable:
            self.section = True  # "Msze: 6.30, 9.00" "Nieszpory – 15.30" "Dni powszednie" "6.30, 17.00"
        self.resumable = False
        if own:  # "Spowiedź:", "Spowiedź św. przed Mszami": the lines below are confession times
            self.notes.confession = self.section is False and bool(CONFESSION_RE.search(line))
        size, cued = len(line.strip()), bool(own)
        # a Mass cue's line that ends in a colon heads what follows, however long its lead-in ("Od 1
        # września 2015 r. porządek niedzielnych Mszy św. przedstawia się następująco:")
        colon_ended = size <= PLACE_HEADING_CHARS and line.rstrip().endswith(":")
        header = cued and (size <= HEADER_CHARS or colon_ended)
        # the line's day matters only for a heading or a short note: most lines are neither
        day_matters = is_head or header or (not cued and size <= LABEL_DAY_LINE_CHARS)
        line_day = day_at(line) if day_matters else None
        if is_head or (header and line_day):
            if line_day is not None and self.heading_day is not None and _GOES_ON_RE.match(line):
                # "Msze św. w niedziele" / "i święta obowiązkowe": one heading wrapped, both days
                line_day = Days(self.heading_day.days | line_day.days)
            self.heading_day = self.label_day = line_day
            self.listed_day = False
            self.sunday_header = cued and line_day is not None and "sun" in line_day.days
        elif not self._keeps_day(line, cued, size, line_day):
            self.heading_day = None
            self.sunday_header = False
            # a heading of its own ("Chrzty Święte:") is another topic's: no day label over it
            if line_day or size > LABEL_DAY_LINE_CHARS or cued or line.rstrip().endswith(":"):
                self.label_day = None
        if size <= PLACE_HEADING_CHARS:
            if is_head and self.notes.season_read:
                self.notes.season = None  # "W wakacje: 7:00" read, then "Msze w dzień powszedni:": all year
            prior = self.notes.season, self.notes.season_read
            self.notes.read_heading(line)
            if own and not own[-1].mass and _ends_sentence(line):
                # "Droga Krzyżowa w Wielkim Poście w piątki.": the devotion's season, not the lines' below
                self.notes.season, self.notes.season_read = prior
            channel = BROADCAST_RE.search(line) is not None
            if own or channel:  # "Msze św. w TV", or a channel's name in a listing: "TVP 1 i TVP Info"
                self.broadcast = channel
        elif size > PROSE_LINE_CHARS:
            self.notes.end()

    def _keeps_day(self, line: str, cued: bool, size: int, line_day: Days | None) -> bool:
        """A short season note or church heading between a day heading and its times ("NIEDZIELE:",
        "(wrzesień-czerwiec)", "6:30, 8:00"; "PLAN NIEDZIELNY:", "Msze w kościele Bożego Ciała:", "7:00"): the
        times below are still the day's list."""
        if self.heading_day is None or line_day is not None:
            return False
        if not cued and size <= LABEL_DAY_LINE_CHARS and season_in(line) is not None:
            return True
        return size <= HEADER_CHARS and bool(church_heading(line))

    def read_hour_line(
        self, cues: LineCues, day_head: str | None, last_hour_end: int, label_line: bool = False
    ) -> None:
        """After a line with hours: its last own cue carries on as the block's topic, and the day heading
        of a day list ("Niedziela 7:00", then "9:00", "11:00" on lines of their own) to the lines below; a
        ``label_line`` ("16:00 – Nieszpory", its one time first) in a Mass block labels its time alone."""
        # a cue in parentheses speaks of its own hour: "(w Adwencie po Roratach o 16.00 adoracja)"; a Mass
        # word there names the list's Mass ("12:15 (suma), 13:30"): the list is of Masses
        parens = [m.span() for m in PARENS_RE.finditer(cues.line)]
        own = [c for c in cues.own if c.mass or not any(a <= c.start < b for a, b in parens)]
        self.resumable = False
        if own:
            # "..., a w piątki na różaniec.": a devotion ending the paragraph after its times opens no block
            after = own[-1].start > last_hour_end
            # a sentence of prose speaks of its own times: "W Wielkim Poście, kiedy odprawiana jest Droga
            # Krzyżowa, w piątki o godz. 17.30." opens no block of devotions over the next paragraph
            trailing = (after or is_prose(cues.line, 1)) and _ends_sentence(cues.line)
            if not (after and label_line and self.section):
                was = self.section
                self.section = own[-1].mass or (None if trailing else False)
                self.resumable = was is True and len(own) == 1 and len(cues.line.strip()) <= HEADER_CHARS
            self.notes.confession = not own[-1].mass and bool(CONFESSION_RE.match(cues.line, own[-1].start))
        if day_head is not None:
            self.heading_day = self.label_day = day_at(day_head)
            self.listed_day = True


_BULLETS = " \t•*·-–—"  # what may stand before a list line's time
_LABEL_RE = re.compile(r"[\s•*·–—-]*(?P<label>[^:\d]{2,60}):\s*(?:(?:o\s+)?godz\.?\s*)?")


def _church_label(label: str) -> bool:
    """A line's label before its first time names a church and no day: "Filia Borki", "Kaplica
    szpitalna"."""
    if day_at(label) is not None:
        return False
    return bool(church_heading(label)) or place_named(label) is not None


_SENTENCE_WORDS = 3  # a line of this many words ending in a full stop is a sentence, no header


# the start of a hard-wrapped line going on with a day phrase: "\nw dni powszednie, a ...", "\nw niedziele."
_WRAPPED_DAY_RE = re.compile(r"\n[ \t]*((?:w|we|od)[ \t]+[^\W\d][^\d\n;.,:()]{0,40}?)[ \t]*[,;.]")


def _ends_sentence(line: str) -> bool:
    """A sentence ("Zapraszamy na różaniec.", "..., a w piątki na różaniec."): what it says of something else
    than Mass opens no block of it (a header does: "Nabożeństwa", "Różaniec:")."""
    end = line.rstrip()
    return end.endswith((".", "!")) and words(end) >= _SENTENCE_WORDS


def _topic_after(line: str, own: list[Cue], is_head: bool, section: bool | None) -> bool | None:
    """The block's topic after a line without hours: a header with a cue sets it, a church's name, a long
    line of prose or a sentence about something else ends it."""
    topic = _header_topic(line, own, is_head, section)
    return None if topic is False and own and _ends_sentence(line) else topic


# "Nabożeństwa" alone heads a parish's services, its Masses among them: the lines below say which
_SERVICES_HEADER_RE = re.compile(r"[\s•*·\-–—]*nabo[żz]e[ńn]stwa[\s:]*", re.IGNORECASE)


def _header_topic(line: str, own: list[Cue], is_head: bool, section: bool | None) -> bool | None:
    if _SERVICES_HEADER_RE.fullmatch(line):
        return None
    size = len(line.strip())
    # searched only when one of the branches below asks: with a cue, only a short line's place matters
    asks = size <= PLACE_HEADING_CHARS if own else section is False
    named = PLACE_HEADING_RE.search(line) if asks else None
    # "Parafia Matki Bożej Różańcowej": the cue inside a name; "Spowiedź w naszej parafii:" is a header
    place = named is not None and (not own or named.start() < own[-1].start)
    mass = bool(own) and any(c.mass for c in own)
    if own and mass and (is_head or size <= HEADER_CHARS):
        return True  # "Msze św. i nabożeństwa" is a Mass schedule header
    if own and not (place and size <= PLACE_HEADING_CHARS):
        return own[-1].mass
    if own and place and size <= PLACE_HEADING_CHARS and not mass:
        return None  # "Parafia Matki Bożej Różańcowej": a name, not a devotion
    if place and section is False:
        return None  # another church or parish: the devotions block above has ended
    if len(line) > PROSE_LINE_CHARS:
        return None
    return section


# the words after a line's last time: a dash and a day phrase ending the line ("8.00, 9.30 – niedziela")
_TRAILING_RE = re.compile(r"\s*[-–—]\s*(?P<d>\D{3,40}?)[\s.;:]*$")


def _column_days(line: str) -> list[Days] | None:
    """The days of a flattened table's heading row, one a cell ("Święta zniesione      Dni powszednie"),
    None unless every cell of two or more is a day heading."""
    cells = CELL_GAP_RE.split(line.strip())
    if len(cells) < 2 or not all(is_day_heading(cell) for cell in cells):
        return None
    days = [d for cell in cells if (d := day_at(cell)) is not None]
    return days if len(days) == len(cells) else None


# a day and a comma ending a line after its last time: the list of days goes on over the wrap
_CARRIED_DAY_RE = re.compile(rf"\d[.:]\d\d\s+(?P<d>{DAY_ANY_RE.pattern})\s*,\s*$", re.IGNORECASE)


def _carried_days(text: str, line_start: int) -> Days | None:
    """ "codziennie - 6:30 czwartek," / "piątek - 18:00": the day a hard wrap left at the end of the line
    above goes with the days heading this line."""
    above = text[max(0, line_start - LOOKBEHIND * 2) : max(0, line_start - 1)]
    m = _CARRIED_DAY_RE.search(above.rpartition("\n")[2])
    days = day_at(m["d"]) if m is not None else None
    return days if days is not None and not days.generic else None


def _trailing_day(line: str, last_end: int) -> Days | None:
    """The day of a line of times that names it at its end: "8.00, 09:30, 11:00 – niedziela", "18:00 – dni
    powszednie"; or after the church of its times: "17.00 kaplica w Borkach od poniedziałku do soboty"."""
    m = _TRAILING_RE.match(line, last_end)
    if m is not None and is_day_heading(m["d"]):
        return day_at(m["d"])
    return _day_after_place(line, last_end)


_PLACE_WORDS = 5  # the church or place between a time and its day phrase has this many words at most
_DAY_RUN_GAP_RE = re.compile(r"[\s,]*(?:(?:do|i|oraz|albo|lub)\s+)?", re.IGNORECASE)


def _day_after_place(line: str, last_end: int) -> Days | None:
    """ "• 18.00 Kościół w Zalesiu od wtorku do soboty (dla ...)": the day phrase right after the church the
    times are at; the phrase runs on over "do", "i" and commas ("od wtorku do soboty")."""
    first = DAY_ANY_RE.search(line, last_end)
    if first is None:
        return None
    gap = line[last_end : first.start()]
    if words(gap) > _PLACE_WORDS or any(ch.isdigit() for ch in gap) or not CHURCH_WORD_RE.search(gap):
        return None
    end = first.end()
    while (more := DAY_ANY_RE.match(line, _DAY_RUN_GAP_RE.match(line, end).end())) is not None:
        end = more.end()
    return day_at(line[max(last_end, first.start() - 3) : end])


def _is_day_list(line: str, line_start: int, hours: list[Hour], head_end: int) -> bool:
    """A line that starts with a day heading and lists its times: "Niedziele i święta: 7:00, 9:00",
    "w sobotę 18:00"; not "każdy czwartek miesiąca o godz. 19.00"."""
    timed = [
        h
        for h in hours
        if not is_bare(h) or HOUR_WORD_BEFORE_RE.search(line, 0, max(0, h.start - line_start))
    ]
    if not timed:
        return False
    gap = DAY_ANY_RE.sub("", line[head_end : timed[0].start - line_start])  # "Pon., śr., pt.: 7:00"
    return (
        bool(HEAD_GAP_RE.fullmatch(gap))
        or (len(timed) >= 2 and words(gap) <= 3 and not any(ch.isdigit() for ch in gap))
        or place_named(gap) is not None  # "Sobota: Zalesie 18.00": the place of the day's times
    )


def _weekdays_label(label: Days, day: Days) -> bool:
    """A line labelled with the weekdays ("Msze św. w dni powszednie:") narrows an every-day phrase."""
    return label.generic and "sun" not in label.days and label.days < day.days


_LABEL_COLON_RE = re.compile(r"[^\W\d]*\s*:")


def _only_heading(line_days: LineDays, head_days: Days | None, s: int) -> Days | None:
    """The line's day heading for an hour past its clause ("Msze w niedziele: 8.00. Suma: 11.00."), when no
    other day is named on the line before the hour."""
    if head_days is None:
        return None
    named = [d for start, _, d in line_days.days if start < s]
    return head_days if all(d.days <= head_days.days for d in named) else None


# "pozostała część roku", "pozostałe miesiące", "w pozostałym okresie", "przez resztę roku": the rest of the
# year of the season named before (not "w pozostałe dni", the other days)
_REST_OF_YEAR_RE = re.compile(
    r"\b(?:pozostał\w*\s+(?:(?:część|miesiąc\w*|okres\w*|czas\w*)(?:\s+roku)?|roku)|reszt\w+\s+roku)\b",
    re.IGNORECASE,
)
# "18:00 (lato 19:00)", "18:00 (zimą 17:00)", "18:00 (w wakacje - godz. 20:00)", "18:00 (w okresie zimowym
# - g. 17:00)", "18:00, (latem 18:30)": a seasonal variant in parentheses that hold the next hour; after the
# time's label ("18:00 – Msza dla młodzieży (w wakacje 20:00)") or the time's own season ("19.15 (od
# września do czerwca; w lipcu 20.30)")
_VARIANT_RE = re.compile(
    r"(?:\s*[–—-]\s*[^()\d\n;]{1,40}?)?\s*,?\s*\((?:(?P<own>[^();]{3,40});\s*)?"
    r"(?P<s>[^();]{3,40}?)\b[\s:–-]*(?:o\s+)?(?:godz\.?:?\s*|g\.\s*)?$",
    re.I,
)
_CLOSING_RE = re.compile(r"\s*\)")
# a Mass held only when asked for: "w zależności od potrzeby", "w razie potrzeby", "na życzenie"
AS_NEEDED_RE = re.compile(
    r"\b(?:w\s+zależności\s+od\s+potrzeb\w*|w\s+razie\s+potrzeby|według\s+potrzeb\w*|na\s+życzenie)",
    re.IGNORECASE,
)
_BARE_OPEN_RE = re.compile(r"\s*\(\s*(?:godz\.?\s*)?")  # "18.00 (17.00)": a time in parentheses, no word
EVENING_FROM = "15:00"  # an evening Mass, whose time may move with the light: "18.00 (17.00)"
WINTER = "winter"
# an ordinary Sunday (or one of Advent or Lent), no feast: "XV Niedziela Zwykła", "III Niedzielę Adwentu"
_ORDINARY_SUNDAY = r"\b(?:[IVXL]+|\d{1,2})\.?\s+niedziel\w*\s+(?:zwykł\w*|adwentu|wielkiego\s+postu)"
# today said to be one: "Przeżywamy dzisiaj XV Niedzielę Zwykłą."
_TODAY_SUNDAY_RE = re.compile(
    rf"\bdzi(?:ś|siaj)\b[^.\d]{{0,40}}?{_ORDINARY_SUNDAY}[^\d.]{{0,40}}\.\s*$", re.I
)
_NOTICE_ITEM_RE = re.compile(r"\s*\d{1,2}[.)]\s")  # "2. W niedzielę …": a numbered notice
_FIRST_INTENTION_RE = re.compile(r"\s+(?-i:I)\.\s")  # "08.00  I. W inten…": an intentions list's numbering
# a heading over one such Sunday's notices: "NIEDZIELA – 24.01.2021 – III NIEDZIELA ZWYKŁA"
_SUNDAY_HEADING_RE = re.compile(_ORDINARY_SUNDAY, re.IGNORECASE)
# a heading's wrapped line: "i święta obowiązkowe" (not "I piątek miesiąca", the Roman first)
_GOES_ON_RE = re.compile(r"\s*(?:i|oraz|a\s+także)\s")
_SUNDAY = days_of("sun")
_CHURCH_LIST_RE = re.compile(
    r"\s*(?:kości[oó][łl]y|kaplice|świątynie)(?:\s+i\s+kaplice)?\s*\(\s*msz[^()]*\)\s*:?\s*", re.IGNORECASE
)
_CHURCH_ENTRY_RE = re.compile(r"\s*(?P<name>[^\W\d][^()\d]{1,80}?)\s*\((?:[\d.:,;\s]|\bi\b)+\)\s*")
# "7:00, 12:00, 18:00 odprawiane są w Panteonie Wielkich Polaków": the list's church, after its last time
_HELD_AT_RE = re.compile(
    r"\s+(?:są\s+)?(?:odprawian|sprawowan|celebrowan)\w*\s+(?:są\s+)?(?P<at>(?:w|we)\s+[^\W\d][^\d,;.()]{2,60})"
)
# what is past a line's last time when it names where the list is held: " - w dolnym kościele", " – kaplica"
_CHURCH_TAIL_RE = re.compile(r"\s*(?:\([^()\d]{0,60}\)\s*)?[-–—]\s*[^\W\d][^\d()]{2,60}")
# what stands between two times of a plain list: a comma or "i", a parenthesised note ("10.30 (dzieci), ")
_PLAIN_GAP_RE = re.compile(r"\s*(?:\([^()\d]{0,60}\))?\s*(?:,|\bi\b|\boraz\b)\s*")
# a line going on with the list above: a dash and a church ("- w górnym kościele")
_DASH_LINE_RE = re.compile(r"\s*[-–—]\s*[^\W\d][^\d]{2,60}")


def _church_going_on(line: str) -> str | None:
    """The church a line names when it goes on with the list of times just above it ("9:30, 11:00" / "- w
    górnym kościele"): "" for the parish church, None when the line is no such continuation."""
    return church_heading(line) if _DASH_LINE_RE.fullmatch(line) else None


_LATER_VARIANT_RE = re.compile(r"[,;]\s*(?:a\s+)?(?P<s>[^,;()\d]{3,40}?)\s*(?:o\s+)?(?:godz\.?:?\s*)?\d")


def _later_variants(line: str, start: int) -> list[str]:
    """The seasons of the variants after the first in one parenthesis ("(w Wielkim Poście o 16:45, a w
    wakacje o 20:00)": the holidays), each a part of the year the time is not held in."""
    close = line.find(")", start)
    variants = _LATER_VARIANT_RE.finditer(line, start, max(close, start))
    found = (season_in(m["s"]) for m in variants if not _RORATE_RE.search(m["s"]))
    return [s for s in found if s is not None]


# "18:00 (w styczniu 17.00, roraty 6.30)": Advent's dawn Mass is said besides the day's order, not instead
_RORATE_RE = re.compile(r"\brorat\w*", re.IGNORECASE)


# "(w lipcu i sierpniu tylko 18:00)": the variant is the season's whole order, not one time's
_WHOLE_ORDER_RE = re.compile(r"\b(?:tylko|jedynie|wyłącznie)\b", re.IGNORECASE)
# "18.00 (w sobotę Msza niedzielna)", "18.00 (w sobotę – z liturgii niedzieli)": on Saturday that weekday time
# is the Sunday vigil
_SATURDAY_VIGIL_NOTE_RE = re.compile(
    r"\s*[(,–—-]?\s*(?:w\s+)?(?:sobot\w*|sob\.|sb\.)\s*[-–—:,]?\s*(?:(?:jest|to)\s+)?(?:msz\w*\s+)?"
    r"(?:św\.?\s+|święt\w*\s+)?(?:niedzieln|wigilijn|z\s+(?:liturgi\w*\s+)?niedziel|antycyp)",
    re.IGNORECASE,
)
# what stands between "17.00" and "(16.00 okres zimowy)", "(godz. 8.00 - od Adwentu do Wielkanocy)"
_PAREN_OPEN_RE = re.compile(r"\s*\(\s*(?:o\s+)?(?:godz\.?:?\s*)?", re.IGNORECASE)
# "17.00 i 18.00 (X-III)": two times joined by "i", then a parenthesis with no time in it
_PAIRED_RE = re.compile(r"\s+(?:i|oraz)\b\s*(?:o\s+)?(?:godz\.?\s*)?", re.IGNORECASE)
# "18.00 (w dzień poprzedzający)", "(w przeddzień)" under Sunday's list: the Saturday evening's vigil
_EVE_NOTE_RE = re.compile(r"\s*\(\s*(?:w\s+)?(?:dzień\s+poprzedzając\w*|przeddzień|wigili\w*)\s*\)", re.I)
# ", a w okresie letnim ", ", a od maja do sierpnia o ", ", natomiast w okresie zimowym (X-III) o godzinie ":
# a season's time set against the one before
_CONTRAST_RE = re.compile(
    r"\s*(?:\([^()]*\))?\s*,\s*(?:a|natomiast|zaś)\s+(?P<s>[^\d,;]{3,60}?)\s*(?:o\s+)?(?:godz(?:\.|inie)?\s*)?"
)
# a short invitation to the Mass, with no time: "Zapraszamy na Mszę Św. codziennie od poniedziałku do piątku"
_INVITATION_RE = re.compile(
    r"\s*zaprasza\w*\s+(?:\w+\s+){0,2}na\s+msz\w*(?:\s+św\.?|\s+święt\w*)?[^\d\n]{0,60}$", re.I
)
# ", a na os. Kośmin o ", " oraz w Borkach o godz. ": a list of Masses going on at another place
_PLACE_TURN_RE = re.compile(
    rf"\s*,?\s*(?:a|oraz|zaś)\s+(?:w|we|na)\s+(?:os\.\s*)?{CAPITAL}[^\d,;()]{{1,40}}?\s+o\s+(?:godz\.?\s*)?",
    re.IGNORECASE,
)
# a line led by a place's name and its times: "Frycowa 7:30, 12:00"
_PLACE_LED_RE = re.compile(rf"\s*{CAPITAL}[^\W\d_]+(?:\s+[^\W\d_]+)?\s+\d{{1,2}}[.:]\d\d")
# "Msza wieczorna": the day's last Mass, from the afternoon on
_EVENING_RE = re.compile(r"\bwieczorn\w*", re.IGNORECASE)
EVENING_FROM = "16:00"
_SEASON_PAREN_RE = re.compile(r"\s*\((?P<s>[^()\d]{1,40})\)")


# "9:00 (radiowa)", "12:00 (transmitowana w radiu)": a note on one time of the list, held in the church
_TIME_NOTE_OPEN_RE = re.compile(r"\d[.:]\d\d\s*\([^()]*$")


def _broadcast(line: str, start: int, end: int) -> bool:
    """Whether the clause speaks of a Mass on television or the radio, not of one time's note that the
    Mass held there is broadcast as well."""
    return any(
        not _TIME_NOTE_OPEN_RE.search(line, max(start, m.start() - 60), m.start())
        for m in BROADCAST_RE.finditer(line, start, end)
    )


def _confession_topic(cues: LineCues, c: HourContext) -> bool:
    """A time of no topic of its own after a confession sentence on its line ("... okazji do spowiedzi.
    Będziemy do dyspozycji codziennie od 6.30 i 17.30"): the line's topic, the confession, goes on."""
    last = cues.last_own_by(c.s)
    return (
        last is not None
        and bool(CONFESSION_RE.match(cues.line, last.start))
        and cues.first_own_from(c.e, c.clause_end) is None
    )


def _devotion_at_mass(cues: LineCues, c: HourContext) -> bool:
    """ "Różaniec w październiku (w Adwencie po Roratach o 16.00)": a time after a Mass named as a point of
    reference, in a clause about something else, is that devotion's (or a known Mass's): no Mass of its
    own."""
    ref = cues.last_within(c.clause_start, c.s)
    if ref is None or not (ref.mass and ref.reference):
        return False
    topic = cues.last_own_by(ref.start)
    return topic is not None and topic.start >= c.clause_start and not topic.mass


def _mentioned(
    reason: str, before: str, after: str, confession: bool, listed_after: str | None, listed: str | None
) -> str:
    """A Mass time the page names without adding a Mass: NEGATED ("w wakacje nie ma Mszy o 12.30, 16.00 i
    20.00", "Msza o 7.00 nie będzie odprawiana"), AT_MASS (confession "przed Mszą św. o 7.30 i 18.30"); a
    list goes on with the reason ``listed`` of the time before it, ``listed_after`` the gap since then; else
    the verdict's own reason."""
    goes_on = listed_after is not None and _LIST_SEP_RE.fullmatch(listed_after) is not None
    if NEGATED_BEFORE_RE.search(before) or NEGATED_AFTER_RE.match(after) or (goes_on and listed == NEGATED):
        return NEGATED
    if confession and (AT_MASS_RE.search(before) or (goes_on and listed == AT_MASS)):
        return AT_MASS
    return reason


# where the words after an hour turn to the next one: "o 9.00, zaś w I piątki miesiąca o 17.00"
_NEXT_PHRASE_RE = re.compile(
    r"(?:[,;]\s*(?:zaś|a|natomiast)?|\s(?:oraz|zaś|a|natomiast|i))\s+(?=(?:w|we|od|na|(?-i:I{1,3}|IV|V))\s)",
    re.IGNORECASE,
)


# a comma that ends the previous hour's item, not one inside a list of months ("17.00, III,IV,V godz. 18.00")
_ITEM_COMMA_RE = re.compile(
    rf",(?!\s*(?-i:{ROMAN_MONTH})\b(?!\s+(?:niedziel|sobot|piąt|czwart|środ|wtor|poniedz)))",
    re.I,
)


# a comma inside a list of days ("Lipno poniedziałek, środa, piątek 18.00", "Chrzan: pon., śr., pt., o godz.
# 18.00"): the place before is the hour's
_DAY_LIST_COMMA_RE = re.compile(
    rf"(?:{DAY_ANY_RE.pattern})\.?\s*(,)\s*(?=(?:{DAY_ANY_RE.pattern})|(?:o\s+)?godz|o\s*$)", re.I
)


# a time alone in parentheses right after another ("18.00 (16.00)"): the same Mass at its other time
_ALTERNATIVE_TIME_RE = re.compile(r"\s*\(\s*$")
_CLOSES_RE = re.compile(r"\s*\)")
_NOTE_OPENS_RE = re.compile(r"\s*,?\s*\([^()]*$")  # "18:00 (w sobotę o ": a note of the time before opens


def _own_words(line: str, own_start: int, c: HourContext) -> tuple[str, str]:
    """The words of the line that belong to this hour: since the previous hour (past a list separator,
    as "(dla dzieci), " and "(dla dzieci) " speak of the hour before), and up to the next (not into a
    parenthesis that holds it: "18:00 (lato 19:00)", nor into a phrase that turns to the next hour: ", zaś w
    I piątki")."""
    before = line[own_start : c.s]
    if own_start > c.clause_start:
        in_days = {m.start(1) for m in _DAY_LIST_COMMA_RE.finditer(before)}
        commas = [
            m.start()
            for m in _ITEM_COMMA_RE.finditer(before)
            if m.start() not in in_days and before.rfind("(", 0, m.start()) <= before.rfind(")", 0, m.start())
        ]  # not a comma of a parenthesis: "czwartek (poza V, X i XII) 8.00"
        cut = max([before.rfind(";"), *commas])
        # "; czas letni (IV-IX) 18.00": a parenthesis after the separator opens this hour's item; with no
        # separator, a parenthesis right after the hour before is that hour's note, one after words
        # ("oraz w okresie letnim (kwiecień-wrzesień) o 18.00") this hour's
        opening = before.rfind("(")
        if (cut < 0 and (opening < 0 or not before[:opening].strip())) or (cut >= 0 and opening < cut):
            cut = max(cut, before.rfind(")"))
        before = before[cut + 1 :]
    after = line[c.e : min(c.next_start, c.clause_end)]
    if c.next_start < c.clause_end:
        opening = after.rfind("(")
        if opening > after.rfind(")"):
            after = after[:opening]
        turns = (m for m in _NEXT_PHRASE_RE.finditer(after) if not _opens_parens(after[: m.start()]))
        turn = next(turns, None)
        if turn is not None:  # not one inside the hour's parenthesis: "11:30 (dla dzieci, w kaplicy)"
            after = after[: turn.start()]
        after = _to_next_item(after)
        label = _NEXT_LABEL_RE.search(after) or _MASS_HEADER_RE.search(after)
        if label is not None:  # "18.00w lipcu: 7.00, 9.00": the label heads the next list
            after = after[: label.start()]
    return before, after


# a label that ends in a colon right before the next hour: "w lipcu: ", "Kaplica w Zalesiu: "
_NEXT_LABEL_RE = re.compile(r"(?<![^\W\d_])[^\W\d_][^,;()\d]*:\s*$")
# a Mass header inside a line, as a page run into one line writes it: "13.00 Msze św. w dni powszednie: zimą
# 17.00": what follows is the next header's
_MASS_HEADER_RE = re.compile(r"\bmsz[aey]?\b[^:\d()]{0,40}:", re.IGNORECASE)


# what stands between two times of one list: "7:30, 9:30", "godz. 8.00, godz. 11.00", "9 i 11"
_LIST_GAP_RE = re.compile(r"[\s,;]*(?:(?:i|oraz)\s+)?(?:(?:o\s+)?godz\.?|o)?\s*", re.IGNORECASE)


# what turns a list to other times: a day ("..., w soboty 8:00") or a clause after a semicolon
_LIST_TURN_RE = re.compile(rf";\s*[^\W\d]|{DAY_ANY_RE.pattern}", re.IGNORECASE)


# a semicolon turning a clause to another day: "w kwietniu i maju o 16.00; w soboty Msza o 18.00"
_SEMICOLON_DAY_RE = re.compile(rf";\s*(?:(?:w|we)\s+)?(?:{DAY_ANY_RE.pattern})", re.IGNORECASE)


def _clause_prefix(line: str, clause_start: int, s: int, firsts: dict[int, int]) -> str:
    """What the clause of the hour at ``s`` says before its first time (``firsts``: where each clause's
    first time stands, filled as the line is walked). Past a semicolon, another day and a Mass word of its
    own, the part is a statement of its own under the line's label: "w kwietniu i maju" is no season of
    "W dni powszednie: w kwietniu i maju o 16.00; w soboty Msza wigilijna o 18.00" (but "latem pon.-pt.
    18.00; sobota 17.00" is one list)."""
    first = firsts.setdefault(clause_start, s)
    prefix = line[clause_start:first]
    turns = [m.start() + 1 for m in _SEMICOLON_DAY_RE.finditer(line, first, s)]
    if turns:
        own = line[turns[-1] : firsts.setdefault(turns[-1], s)]
        if MASS_CUE_RE.search(own):
            return prefix[: prefix.rfind(":") + 1] + " " + own
    return prefix


def _listed_season(
    listed: str | None, gap: str, before: str, own: str, r: Reading, in_parens: bool
) -> str | None:
    """The season a list's head names goes on to the list's later times ("w lipcu i sierpniu: 7:30, 9:30,
    11:00", "latem: 8.00, 9.00 (kaplica), 10.30 dla dzieci, 20.00") until a day, a semicolon or a place's name
    turns it; a season in a parenthesis heads no list ("18:00 (lato 19:00), 20:00"): the season for the next
    hour, after setting this hour's when it has none of its own."""
    said = season_in(before)
    turns = _LIST_TURN_RE.search(gap) or place_named(before) is not None  # "..., Drawski Młyn godz. 9.00"
    if said is None and listed is not None and not turns:
        if season_in(own) is None:
            r.season = listed  # nearer than the clause prefix's season: "latem 8.00, zimą 9.00, 11.00"
        return listed
    return None if in_parens else said


def _in_parens(line: str, pos: int) -> bool:
    """Whether ``pos`` is inside a parenthesis that closes: "(lato 19:00)", not "(dla dzieci, 12.30, ..."."""
    opened = line.rfind("(", 0, pos)
    if opened < line.rfind(")", 0, pos):
        return False
    closes, reopens = line.find(")", pos), line.find("(", pos)
    return opened >= 0 and closes >= 0 and (reopens < 0 or closes < reopens)


# a church named as a list's label: "kaplica Sióstr: ", "- Filia w Borowie: "; the label may end at the day
# its list starts with ("kościół filialny w Zalesiu: sobota 18.00", "Zalesie - filia sb. godz. 17.00")
_LIST_DAY = rf"(?:(?:w|we)\s+)?(?:{DAY_ANY_RE.pattern})[\s.:]*(?:(?:o\s+)?godz\.?|g\.|o)?\s*"
_LIST_DAY_RE = re.compile(_LIST_DAY, re.IGNORECASE)
_LABEL_END_RE = re.compile(rf":\s*$|(?::\s*|\s+){_LIST_DAY}$", re.IGNORECASE)
# after a comma or "i", a few words and no time: the list may go on to another day or season of that church
# ("..., niedziela 9.30", "..., zimą 10.00", "sobota 17.00 i niedziela 9.00")
_LIST_TURN_GAP_RE = re.compile(
    r"\s*(?:,|\s(?:i|oraz))\s*(?P<w>[^\W\d][^\d,;()]{0,30}?)[\s.:]*(?:(?:o\s+)?godz\.?|g\.|o)?\s*"
)


def _list_goes_on(gap: str) -> bool:
    """ "kaplica w Zalesiu: sobota 18.00, niedziela 9.30", "...: latem 9.30, zimą 10.00": the gap names
    only a day or a season, so the time is the labelled church's still."""
    m = _LIST_TURN_GAP_RE.fullmatch(gap)
    if m is None:
        return False
    turn = m["w"]
    return _LIST_DAY_RE.fullmatch(turn) is not None or (season_in(turn) is not None and words(turn) <= 3)


def _listed_church(
    listed: str | None, gap: str, before: str, after: str, r: Reading, prefix: str
) -> str | None:
    """The church a list's label names goes on to the list's later times ("kaplica Sióstr: 8:00, 10:00"):
    the church for the next hour, after setting this hour's when it names none (not even the parish's: "7.00
    i 18.00 w kościele parafialnym") or only the clause's first ("Górny Kościół: 11:00; Dolny Kościół: 6:30,
    8:00": 8:00 is the lower church's)."""
    if _LIST_GAP_RE.fullmatch(gap) or (listed is not None and _list_goes_on(gap)):
        unnamed = r.church is None and not names_main_church(after)
        if unnamed or (listed is not None and r.church is not None and r.church in prefix):
            r.church = listed
        return listed
    named = inline_church(before)
    if named is None:
        return None
    # "w kaplicy szpitalnej 9.45 i 11.00": the name right before two joined times is both's ("kaplica
    # szpitalna 6:40, 18:10" after a comma is one time's)
    paired = re.search(rf"{re.escape(named)}{_TIME_WORDS_GAP}$", before) and _PAIRED_AFTER_RE.match(after)
    return named if paired or _label_ends(before, named) else None


_TIME_WORDS_GAP = r"\s*(?:(?:o\s+)?godz\.?|o)?\s*"
_PAIRED_AFTER_RE = re.compile(rf"{_PAIRED_RE.pattern}(?=\d|$)", re.IGNORECASE)  # "... 9.45 i 11.00"


def _label_ends(before: str, named: str) -> bool:
    """A church's label ends right before the hour: at its colon, at the day or season its list starts
    with ("kaplica w Zalesiu: latem 9.30", "kaplica szpitalna lato 17.00, zima 16.00")."""
    if _LABEL_END_RE.search(before):
        return True
    at = before.rfind(named)
    tail = before[at + len(named) :] if at >= 0 else ""
    if season_in(tail) is not None and words(_TIME_WORDS_RE.sub(" ", tail)) <= 2:
        return True
    colon = before.rfind(":")
    tail = before[colon + 1 :]
    return colon >= 0 and season_in(tail) is not None and words(tail) <= 3


_TIME_WORDS_RE = re.compile(r"\b(?:o\s+)?(?:godz\.?|g\.)", re.IGNORECASE)  # "lato godz. 17.00"
_WORDS_AFTER_RE = re.compile(r"[\s,;]*[^\W\d_]")  # words follow, "; u Sióstr" too (not "7.00, 9.00")


def _opens_parens(text: str) -> bool:
    """Whether ``text`` leaves a parenthesis open."""
    return text.count("(") > text.count(")")


def _to_next_item(after: str) -> str:
    """The words after an hour up to a list separator that words follow: "11.30; sobota: latem - 19.00" and
    "18.30, lipiec i sierpień o 20.00" speak of the next hour; "(dla dzieci), " and "(wiosna, lato)" of
    this one."""
    depth = 0
    for i, ch in enumerate(after):
        depth += (ch == "(") - (ch == ")")
        if depth <= 0 and ch in ",;" and _WORDS_AFTER_RE.match(after, i + 1):
            return after[:i]
    return after


# "wprowadzony został letni porządek", "obowiązuje zimowy porządek Mszy": a sentence naming the order's season
_SEASON_ORDER_RE = re.compile(r"\bporząd\w*", re.IGNORECASE)
_TIME_RE = re.compile(r"\d{1,2}[.:]\d\d|\bgodz", re.IGNORECASE)


def _order_season(line: str, starts: list[int], clause_start: int) -> str | None:
    """The season of the sentence just before, when it names an order and no time ("Od Wielkanocy
    wprowadzony został letni porządek nabożeństw. Msza wieczorna w dni powszednie jest o 18.00.")."""
    i = bisect_right(starts, clause_start) - 1
    if i < 1 or starts[i] != clause_start:
        return None
    prev = line[starts[i - 1] : clause_start]
    if _TIME_RE.search(prev) or not _SEASON_ORDER_RE.search(prev):  # "od 1 maja" is no time
        return None
    return season_in(prev)


def _topic_season(c: HourContext, starts: list[int]) -> str | None:
    """The season of the earlier sentence whose Mass word is this hour's topic ("W Adwencie zapraszamy na
    Msze roratne. Będą one celebrowane w dni powszednie o 18.00."), when no time of its own stands there."""
    earlier = c.line.cues.last_own_by(c.clause_start)
    if earlier is None or not earlier.mass:
        return None
    topic = c.line.line[starts[bisect_right(starts, earlier.start) - 1] : c.clause_start]
    return None if _TIME_RE.search(topic) else season_in(topic)


def _said_before(line: str, starts: list[int], clause: int) -> Days | None:
    """The days of a Mass sentence just before an hour's clause that names days but no time ("Niedzielne
    Msze w kościele dolnym. Porządek: 7.30, 9.00"): its times follow in the next sentence."""
    if clause < 2:
        return None
    prev = line[starts[clause - 2] : starts[clause - 1]]
    if any(ch.isdigit() for ch in prev) or not MASS_CUE_RE.search(prev):
        return None
    return day_at(prev)


def _church_said_before(line: str, starts: list[int], clause_start: int) -> str | None:
    """The church of a Mass sentence just before an hour's clause that names it but no time ("Msze w
    kaplicy szpitalnej. W niedziele: 8.00. W tygodniu: 6.30."): its times follow in the next sentences, up
    to one naming a church of its own."""
    for clause in range(bisect_right(starts, clause_start) - 1, 0, -1):
        prev = line[starts[clause - 1] : starts[clause]]
        if CHURCH_WORD_RE.search(prev) and any(ch.isdigit() for ch in prev):
            return None  # "... 9.00 w kaplicy. W tygodniu: 6.30": that sentence's church
        if not any(ch.isdigit() for ch in prev):
            return inline_church(prev) if MASS_CUE_RE.search(prev) else None
    return None


class _Walk:
    """One pass over a text's lines: the block state goes from line to line, verdicts go to the hours."""

    def __init__(self, text: str, hours: Sequence[Hour], year: int | None = None) -> None:
        self.text = text
        self.hours = hours
        self.year = year
        self.in_range = _in_ranges(text, hours)
        self.listed = _in_lists(text, hours)
        self.verdicts: list[tuple[bool, str]] = [(False, "no line")] * len(hours)
        self.readings: list[Reading] = [Reading() for _ in hours]
        self.owns: list[str] = [""] * len(hours)
        self.block = _Block()
        self.home: str | None = None  # the place named before any Mass: the parish's own church
        self.at_home: list[tuple[Reading, str]] = []  # the readings that place gave no church, with its name

    def run(self) -> list[RuleDecision]:
        """Every non-blank line in order up to the last line with hours and the one after it (the block state
        past them decides nothing), each either updating the block or deciding its hours; then the schedule
        is read as a whole (reading.finish)."""
        bounds = line_bounds(self.text)
        by_line = _hours_by_line(bounds, self.hours)
        overwritten = _cues_overwritten(self.text, bounds, by_line)
        listed: list[int] = []  # the hours of the line just read, when it had hours
        last = max(by_line)
        last += next((k for k, (a, b) in enumerate(bounds[last + 1 :], 1) if self.text[a:b].strip()), 0)
        for li, (line_start, line_end) in enumerate(bounds[: last + 1]):
            line = self.text[line_start:line_end]
            if not line.strip():
                continue
            idxs = by_line.get(li)
            if idxs is None and listed and (church := _church_going_on(line)) is not None:
                self._list_is_at(listed, church)  # "9:30, 11:00, 18:00" / "- w górnym kościele"
            elif idxs is None:
                if listed and _INVITATION_RE.match(line):
                    self._invited_to_mass(listed, day_at(line))
                # a line whose cues are overwritten is read as if it had none: the same block results
                self.block.read_hourless(line, [] if li in overwritten else topic_cues(line))
            else:
                entry = self._church_entry(line)
                self._hour_line(line_start, line, LineCues(line), idxs)
                self._read_as_a_list(line_start, line, idxs, entry)
            listed = idxs or []
        if not self._home_held():
            self._home_is_a_village()
        self._first_list_is_sunday()
        facts = [
            HourFacts(h.time, v[0], own)
            for h, v, own in zip(self.hours, self.verdicts, self.owns, strict=True)
        ]
        finish(self.readings, facts, self.text, self.year)
        return [
            RuleDecision(is_mass, reason, reading)
            for (is_mass, reason), reading in zip(self.verdicts, self.readings, strict=True)
        ]

    def _invited_to_mass(self, idxs: list[int], days: Days | None) -> None:
        """ "Stałe spotkania" / "Dni powszednie: 07:00, 18:00" / "Zapraszamy na Mszę Św. codziennie od
        poniedziałku do piątku": the invitation right below a day's list says what its times are, over a
        heading of other events, and on which of the days."""
        if all(self.verdicts[i] == (False, "other block") for i in idxs):
            for i in idxs:
                self.verdicts[i] = (True, "schedule block")
                if days is not None and days.days < (self.readings[i].days or days).days:
                    self.readings[i].days = days

    def _read_as_a_list(
        self, line_start: int, line: str, idxs: list[int], entry: re.Match[str] | None
    ) -> None:
        """What a line's times take from the line as a whole once each is read: the church after the list,
        the table's season columns, the list's first time, a directory entry's church."""
        self._church_after_list(line_start, line, idxs)
        self._by_season_column(line, idxs)
        self._list_head_is_listed(line_start, line, idxs)
        if entry is not None:  # the entry names its church; the first listed is the parish's own
            for i in idxs:
                self.readings[i].church = entry["name"] if self.block.church_entries else None
            self.block.church_entries += 1

    def _list_head_is_listed(self, line_start: int, line: str, idxs: list[int]) -> None:
        """ "... w uroczystości w godz. 7.00, 8.30, 10.00": a list's first time, too far into its sentence
        for the block to decide it, is a Mass as the times listed right after it are."""
        for i, j in itertools.pairwise(idxs):
            gap = line[self.hours[i].end - line_start : self.hours[j].start - line_start]
            if (
                self.verdicts[i] == (False, UNCUED)
                and self.verdicts[j] == (True, "schedule block")
                and gap.strip() == ","
            ):
                self.verdicts[i] = (True, "schedule block")
            elif self.verdicts[i][0] and self._dayless(j) and _PLACE_TURN_RE.fullmatch(gap):
                # "(8.00, 10.30 i 18.00, a na os. Kośmin o 9.30)": the list goes on at another place, its days
                self.verdicts[j] = self.verdicts[i]
                self.readings[j].days = self.readings[j].days or self.readings[i].days

    def _earlier_evening_after(self, idx: int, idxs: list[int], line_start: int, line: str) -> bool:
        """ "18.00 (17.00)", "18:00/17.00": an evening time with an earlier one after it in parentheses or
        past a slash, nothing said of it; the later is the time of the light half of the year, the earlier
        winter's, as parishes write them."""
        if idx == idxs[-1]:
            return False
        this, other = self.hours[idx], self.hours[idx + 1]
        between = line[this.end - line_start : other.start - line_start]
        closed = self._closes_after(line_start, line, idx + 1)
        bare = (_BARE_OPEN_RE.fullmatch(between) is not None and closed) or between.strip() == "/"
        return bare and EVENING_FROM <= other.time < this.time

    def _dayless(self, i: int) -> bool:
        """An hour the walk could not place: no cue, or a Mass of no day."""
        return self.verdicts[i] == (False, UNCUED) or (self.verdicts[i][0] and self.readings[i].days is None)

    def _by_season_column(self, line: str, idxs: list[int]) -> None:
        """A day's row under a table's season columns ("Niedziela 7:00 10:30 8:00 10:30" under "czas letni
        czas zimowy"): as many times a column, in order; a row that splits unevenly, or no day's row, ends
        the table's reading."""
        columns = self.block.season_columns
        if columns is None:
            return
        if not LINE_DAY_HEAD_RE.match(line) or len(idxs) % len(columns):
            self.block.season_columns = None
            return
        per = len(idxs) // len(columns)
        for n, i in enumerate(idxs):
            self.readings[i].season = columns[n // per]

    def _list_is_at(self, idxs: list[int], church: str, replace: bool = False) -> None:
        """The times of a list that name no church of their own are held at ``church`` ("" the parish's)."""
        for i in idxs:
            if (self.readings[i].church is None or replace) and church:
                self.readings[i].church = church

    def _church_after_list(self, line_start: int, line: str, idxs: list[int]) -> None:
        """ "7:30, 10.30 (dzieci), 12.00 - w dolnym kościele": a church named past a dash after a line's last
        time, ending the line, is where the line's whole list is held, not the last time alone; so is one
        said to hold the list ("7:00, 12:00 odprawiane są w Panteonie")."""
        at = None
        for k, i in enumerate(idxs):
            held = _HELD_AT_RE.match(line, self.hours[i].end - line_start)
            at = held and (inline_church(held["at"]) or place_named(held["at"]))
            if at:  # "7:00, 12:00, 18:00 odprawiane są w Panteonie ...": the times up to it
                idxs = idxs[: k + 1]
                break
        last = self.readings[idxs[-1]]
        tail = line[self.hours[idxs[-1]].end - line_start :]
        if not at and (len(idxs) < 2 or last.church is None or not _CHURCH_TAIL_RE.fullmatch(tail)):
            return
        for i, j in itertools.pairwise(idxs):
            gap = line[self.hours[i].end - line_start : self.hours[j].start - line_start]
            if not _PLAIN_GAP_RE.fullmatch(gap):
                return
        self._list_is_at(idxs, at or last.church, replace=bool(at))

    def _that_sunday_s(self, line: str, c: HourContext, r: Reading, dense: bool) -> bool:
        """A Mass said of an ordinary Sunday named today or in the heading over a short list (no intentions
        list: its Sunday is a week's day like the others)."""
        if _TODAY_SUNDAY_RE.search(line, max(0, c.clause_start - 160), c.clause_start):
            return True
        if not (self.block.ordinary_sunday and dense):
            return False
        # the heading's Sunday, not a notice's own day or item ("2. W niedzielę Msze o 9.15"), nor an
        # intention's ("08.00 I. Za + Jana")
        sunday = (r.days is None or r.days.days <= {"sun", "holiday"}) and not names_day(line)
        notice = _NOTICE_ITEM_RE.match(line) is not None
        intention = INTENTION_AFTER_RE.match(line, c.e) or _FIRST_INTENTION_RE.match(line, c.e)
        return sunday and not notice and intention is None

    def _first_list_is_sunday(self) -> None:
        """ "Msze Święte: 6:00 8:00 9:15 ... Dni powszednie: 6.00; 6.30", "msze św: 7:00, 9:00 / dni pow:
        6:30" (as a diocese's directory or a portal writes it): the first list of a Mass block, with no day
        and right before the weekdays' list, is Sunday's where no time of the page is given to Sunday."""
        masses = [
            (r, reason) for r, (is_mass, reason) in zip(self.readings, self.verdicts, strict=True) if is_mass
        ]
        if any(r.days is not None and "sun" in r.days.days for r, _ in masses):
            return
        lead, cued = [], False
        for r, reason in masses:
            if r.days is None and r.kind == REGULAR and reason in ("schedule block", "cue before"):
                lead.append(r)
                cued |= reason == "cue before"
                continue
            # a list the Mass word heads ("msze św: 7:00, 9:00, 11:00"), not one notice's Mass
            if (
                lead
                and r.days is not None
                and r.days.days <= MON_SAT.days
                and len(lead) >= (3 if cued else 1)
            ):
                for first in lead:
                    first.days = _SUNDAY
            return

    def _day_over(self, line: str) -> Days | None:
        """The day heading the lines above, or labelling one ("dni pow: 6:30, 18:00"), for a line of times
        below it; not the weekdays' label for a village's line ("Frycowa 7:30, 12:00"), whose days the page
        leaves unsaid (under a heading alone, "Dni powszednie:" / "Borki 7:00", the villages are its list)."""
        block = self.block
        day = block.heading_day or block.label_day
        if day is not None and block.listed_day and day.generic and "sun" not in day.days:
            return None if _PLACE_LED_RE.match(line) else day
        return day

    def _church_entry(self, line: str) -> re.Match[str] | None:
        """A church of a directory's list ("LIPINKI – pw. MB Rokitniańskiej (11.00)"): its times are the
        list's day's Masses, whatever prose stands between the entries; another line with times ends it."""
        block = self.block
        entry = _CHURCH_ENTRY_RE.fullmatch(line) if block.church_list is not None else None
        if entry is None:
            block.church_list = None
            return None
        block.section, block.heading_day, block.notes.date = True, block.church_list, None
        return entry

    def _hour_line(self, line_start: int, line: str, cues: LineCues, idxs: list[int]) -> None:
        """Decides the hours of a line from the block above, then lets the line carry on to the next."""
        block = self.block
        if block.notes.confession and any(
            not c.mass and not CONFESSION_RE.match(line, c.start) for c in cues.own
        ):
            block.notes.confession = False  # "2. W piątek Droga Krzyżowa o 17.00": not the confession above
        head = LINE_DAY_HEAD_RE.match(line)
        day_list_line = head is not None and _is_day_list(
            line, line_start, [self.hours[i] for i in idxs], head.end()
        )
        dense = not is_prose(line, len(idxs)) and (
            len(line.strip()) <= HEADER_CHARS * 1.5 or len(line) / len(idxs) <= CHARS_PER_HOUR
        )
        ctx = LineContext(
            line,
            line_start,
            cues,
            self.hours,
            block.section,
            day_list_line or block.heading_day is not None,
            dense,
        )
        starts = clause_starts(line)
        line_days = LineDays(line)
        tail = _trailing_day(line, self.hours[idxs[-1]].end - line_start) or self._wrapped_day(
            line_start + len(line), line
        )
        head_days = day_at(line[: head.end()]) if head is not None else None
        carried = _carried_days(self.text, line_start) if head_days is not None else None
        # "Msze św. w niedziele: ...": a day heading that labels the line, not a sentence's "We wtorek ..."
        labelled = head_days if head is not None and _LABEL_COLON_RE.match(line, head.end()) else None
        # a line labelled by its days alone, not "Msze św. w niedzielę:" nor this week's
        label_text = line[: line.find(":")]
        day_labelled = (
            labelled is not None
            and is_day_label(label_text)
            and not MASS_CUE_RE.search(label_text)
            and not THIS_WEEK_RE.search(line)
        )
        over = head_days or block.heading_day or block.label_day
        sunday_heading = over is not None and "sun" in over.days
        label = _LABEL_RE.fullmatch(line, 0, self.hours[idxs[0]].start - line_start)
        block.church_line = label is not None and _church_label(label["label"])
        if label is not None and not MONTHLY_RE.search(label["label"]):
            # "w dni powszednie: 6.30, 18.00" under "II niedziela miesiąca:": the line's own days, weekly
            block.notes.monthly, block.notes.monthly_day = False, None
        first_in_clause: dict[int, int] = {}
        place: str | None = None  # the place named last on this line: its times are there
        listed_season: str | None = None  # the season heading this line's list of times ("latem: 8, 9.30")
        named_season: str | None = None  # the season this line named last, for "the rest of the year"
        aside_next = False  # the next hour is one time's seasonal variant: "18:00 (w wakacje 20:00)"
        winter_next = False  # the next hour is this one's winter time: "18.00 (17.00)"
        listed_church: str | None = None  # the church heading this line's list: "kaplica Sióstr: 8:00, 10:00"
        place_seasonal = False  # the place was named with a season ("Drawsko zima 18.00")
        listed_reason: str | None = None  # the hour before was named without adding a Mass (NEGATED, AT_MASS)
        for idx in idxs:
            c = self._hour_context(ctx, starts, line_days, idx, tail, labelled)
            if carried is not None and c.day is not None and c.day == head_days:
                c.day = Days(c.day.days | carried.days)  # "6:30 czwartek," / "piątek - 18:00"
            prefix = _clause_prefix(line, c.clause_start, c.s, first_in_clause)
            own_start = c.since
            before, after = _own_words(line, own_start, c)
            if (
                sunday_heading
                and c.day is not None
                and c.day.days == {"sat"}
                and own_start > 0
                and not names_day(line[own_start : min(c.next_start, c.clause_end)])
                and not self._saturday_goes_on(idxs, idx, before)
            ):
                # "Niedziela: sobota 18:00, 8:00": the 8:00 is Sunday's again; a later time goes on with
                # Saturday's list ("w soboty 17.00 i 18.00")
                c.day = over
            is_mass, reason = verdict(c)
            if is_mass and reason in ("cue before", "cue after") and block.section is True and day_labelled:
                reason = "schedule block"  # "Porządek Mszy:" / "W dni powszednie: …; w soboty Msza o 18.00"
            if is_mass and (block.broadcast or _broadcast(line, c.clause_start, c.clause_end)):
                is_mass, reason = False, "broadcast"  # a Mass on TV or radio: not one to go to
            elif is_mass and HISTORY_RE.search(line, c.clause_start, c.clause_end):
                is_mass, reason = False, "history"  # "Msze były odprawiane o 7.00": no longer held
            elif is_mass and AS_NEEDED_RE.search(before):
                is_mass, reason = False, "as needed"  # "Msza w zależności od potrzeby godz. 18.00"
            if is_mass:
                confession = block.notes.confession or CONFESSION_RE.search(line, c.clause_start, c.s)
                gap = line[own_start : c.s] if listed_reason else None
                reason = _mentioned(reason, before, after, bool(confession), gap, listed_reason)
                if reason not in NOT_SCHEDULED and _devotion_at_mass(cues, c):
                    reason = DEVOTION_AT_MASS
            listed_reason = reason if reason in (AT_MASS, NEGATED) else None
            own = before + " " + after
            season_before = season_in(before)
            said = season_before if own_start > c.clause_start else None
            # a season starts a list of the parish church's times, unless it is a variant of the place's own
            # ("Drawsko zima 18.00, lato 19.00", "Wieleń 10:30 (w lipcu także 19:00)")
            new_list = said is not None and not place_seasonal and "(" not in before
            r = read(own, prefix, line[c.clause_start : c.clause_end], block.notes)
            r.confession |= not is_mass and _confession_topic(cues, c)
            if r.season is None and reason == "schedule sentence":
                r.season = _topic_season(
                    c, starts
                )  # "... na Msze roratne. Będą one od poniedziałku o 18.00."
            if r.season is None and is_mass:
                r.season = _order_season(line, starts, c.clause_start)
            if own_start > c.clause_start and (church_after := inline_church(after)) is not None:
                r.church = church_after  # "9.00 w kaplicy w Zalesiu oraz 16.00 w DPS": not the chapel before
            block.notes.season_read |= block.notes.season is not None and r.season == block.notes.season
            if r.church is None and not CHURCH_WORD_RE.search(own):
                named = place_named(before)
                starts_list = named is not None or MASS_CUE_RE.search(before) or new_list
                if starts_list and not _opens_parens(before):
                    # "Bagrowo 10.00 Msze św. w soboty: 18.00": a Mass header starts anew; "10:00 (Borki, w
                    # wakacje 9:30)" names the 9:30's place, not the line's
                    place = named
                    place_seasonal = named is not None and season_before is not None
                marked = None  # "8.00 (Borki), 9.30": a place set apart from the line's other times
                if named is None and idx != idxs[0]:
                    named = place_after(after, c.next_start >= c.clause_end)
                    named = named or place_leading_parens(line[c.e :])
                elif named is None and place is None:
                    named = marked = place_in_parens(after) or place_before_comma(after)
                r.church = marked or self._church_at(named or place)
                if r.church is None and (named or place):
                    self.at_home.append((r, named or place))
            elif r.church is None and names_main_church(own):
                place = None  # "Borki 9.30, w kościele parafialnym 11.00 i 18.00": the list is the parish's
                self._home_is_a_village()
            elif r.church is not None:
                place = None  # "Filia Pamiątkowo: 9:30": a church word names the church from here on
                sep = _LIST_SEP_RE.match(before) if idx != idxs[0] else None
                named = place_named(before[sep.end() :]) if sep is not None and sep.end() else None
                if named is not None and not CHURCH_WORD_RE.search(before):
                    r.church = named  # "w kościołach w Czerninie o godz. 9.30 i Świelubiu o godz. 11.00"
            if r.church is None and not CHURCH_WORD_RE.search(own):
                r.church = _church_said_before(line, starts, c.clause_start)
            listed_church = _listed_church(listed_church, line[own_start : c.s], before, after, r, prefix)
            at = place_in_parens(after) if r.church and PLURAL_CHURCHES_RE.fullmatch(r.church) else None
            if at is not None:
                r.church = at  # "Kościoły filialne – 9.00 (Białcz), 10.15 (Dzieduszyce)": each time's place
            variant = _VARIANT_RE.match(line, c.e, c.next_start)
            if variant is not None and NEGATED_BEFORE_RE.search(line, c.e, c.next_start):
                variant = None  # "9:00 (w wakacje nie ma Mszy o 11:30)": of the other time, not a variant
            varied = season_in(variant["s"]) if variant is not None else None  # "(zimą 17:00)": winter
            if r.season is None and varied is not None and not AS_WELL_RE.search(variant["s"]):
                # "18:00 (lato 19:00)": the 18:00 is the rest of the year's; "(latem także 19:00)" adds one
                others = {varied, *_later_variants(line, c.next_start)}
                r.season = (variant["own"] and season_in(variant["own"])) or complement_of_all(others)
            # "10.00 (o 9.30 różaniec – w Wielkim Poście Gorzkie Żale)": no Mass's variant
            paired = is_mass and self._variant_after(idx, idxs, before, r.season)
            if r.season is None:
                opening = line_days.paren_head(c.s)  # "(wakacje: 6.00; 7.00)": each time inside
                r.season = season_in(opening) if opening is not None else None
            paired_winter, winter_next = winter_next, False
            if r.season is None and paired_winter:
                r.season = WINTER  # "18.00 (17.00)", "18:00/17.00": the earlier evening time is winter's
            elif r.season is None and self._earlier_evening_after(idx, idxs, line_start, line):
                r.season, winter_next = complement(WINTER), True
            gap, inside = line[own_start : c.s], _in_parens(line, c.s)
            listed_season = _listed_season(listed_season, gap, before, own, r, inside)
            if (_REST_OF_YEAR_RE.search(before) or starts_rest_of_year(before, named_season)) and complement(
                named_season
            ) is not None:
                # "pozostałe miesiące: 7.30, 11.00"; "od maja do września 19.00, od października 18.00"
                r.season = listed_season = complement(named_season)
            elif season_in(own) is not None:
                named_season = r.season
            aside = paired or aside_next or paired_winter or winter_next
            aside |= r.season is not None and AS_WELL_RE.search(before) is not None
            # one time's variant, not "(latem tylko 18:00)"
            one_time = varied is not None and not _WHOLE_ORDER_RE.search(variant["s"])
            aside_next = one_time and idx != idxs[-1] and self._closes_after(line_start, line, idx + 1)
            r.aside = aside or aside_next  # "18:00 (zimą 17:00)": neither time completes the others
            # "13:00 (oprócz lipca)": one time's exception, no order replacing the others in its season
            r.aside |= r.season is not None and excepts(own)
            # "18:00 (w styczniu 17.00, roraty 6.30)": Advent's dawn Mass noted besides the time, no order
            r.aside |= inside and _RORATE_RE.search(own) is not None
            r.days = c.day
            if is_mass and self._that_sunday_s(line, c, r, dense):
                # "Przeżywamy dzisiaj V Niedzielę Zwykłą. Msze święte godzina 7.00, 10.00", "NIEDZIELA –
                # III NIEDZIELA ZWYKŁA" over "Msze św. o 8.30, 10.00": that Sunday's order, the Sunday's where
                # the site gives no other
                r.kind, r.sunday_order = ONE_OFF, True
            if idx != idxs[0] and _NOTE_OPENS_RE.match(line, own_start, c.s) and _in_parens(line, c.s):
                r.instead_of = self.hours[idxs[idxs.index(idx) - 1]].time  # "18:00 (w sobotę o 18:30)"
            if r.days is not None and "sat" in r.days.days and _SATURDAY_VIGIL_NOTE_RE.match(after):
                r.vigil = True  # "18.00 (w sobotę Msza niedzielna)": Saturday's is the vigil (schedule.py)
            elif r.days is not None and "sun" in r.days.days and _EVE_NOTE_RE.match(after):
                r.days, r.vigil = days_of("sat"), True  # "18.00 (w dzień poprzedzający), 6.00, 8.00"
            if r.kind == MONTHLY and monthly_note(after, c.day):
                # "18.00 - ostatnia niedziela miesiąca z udziałem młodzieży": a weekly Mass, noted
                r.kind, r.monthly = REGULAR, None
            if (
                idx != idxs[0]
                and _ALTERNATIVE_TIME_RE.match(line, own_start, c.s)
                and _CLOSES_RE.match(line, c.e)
            ):
                # "w środy i I-sze piątki 18.00 (16.00)": the other time of the Mass before, on its days
                prev = self.readings[idxs[idxs.index(idx) - 1]]
                r.days, r.kind, r.monthly = prev.days, prev.kind, prev.monthly
            # "Msze niedzielne:" over "niedziela — 8:00, 11:00" and "sobota — 18:00": Saturday's is the vigil
            under_sunday = sunday_heading or (block.sunday_header and head_days is not None)
            r.sunday_heading = under_sunday and self.hours[idx].time >= VIGIL_FROM
            self._pair_shares_season(line, line_start, idxs, idx, r)
            self._contrasted_variant(line, line_start, idxs, idx, r)
            if is_mass:
                self._evening_variant(idx, r, before)
            self.verdicts[idx], self.readings[idx] = (is_mass, reason), r
            # what finish() reads for "nie ma Mszy o ...": not an earlier item's "(nie ma w wakacje); ..."
            self.owns[idx] = c.before[-80:].rpartition(";")[2] + " " + after
            if is_mass:
                block.notes.main_seen = True
        if not block.church_line:
            block.church_lines_day = day_at(label["label"]) if label is not None else None
        block.ordinary_sunday &= dense  # a paragraph of prose goes on past that Sunday's list
        first = self.hours[idxs[0]].start - line_start
        last_end = self.hours[idxs[-1]].end - line_start
        # "15:00 - Gorzkie Żale" in a list of Masses: the words after a line's one time label that time alone
        label_line = len(idxs) == 1 and not line[:first].strip(_BULLETS)
        block.read_hour_line(
            cues, line[:first] if head is not None and day_list_line else None, last_end, label_line
        )

    def _wrapped_day(self, line_end: int, line: str) -> Days | None:
        """The day phrase a hard-wrapped sentence goes on with on the next line ("Msze św. są o 7.00 i o
        18.00" / "w dni powszednie, a w niedziele o 9.00"): the day of the line's times."""
        if line.rstrip().endswith((".", "!", "?", ":", ";")) or self.block.heading_day is not None:
            return None
        m = _WRAPPED_DAY_RE.match(self.text, line_end)
        return day_at(m[1]) if m is not None and is_day_heading(m[1]) else None

    def _variant_after(self, idx: int, idxs: list[int], before: str, season: str | None) -> bool:
        """ "17.00 (16.00 okres zimowy)": a time in parentheses with its season right after another time
        is that time's variant, which is held the rest of the year; the two are one time's ("aside")."""
        previous = self.readings[idx - 1] if idx != idxs[0] else None
        if previous is None or previous.season is not None or not _PAREN_OPEN_RE.fullmatch(before):
            return False
        previous.season = complement(season)
        previous.aside = previous.season is not None
        return previous.aside

    def _contrasted_variant(self, line: str, line_start: int, idxs: list[int], idx: int, r: Reading) -> None:
        """ "17.00, a od maja do sierpnia o 18:30", "17:00 (czwartek, sobota), a w okresie letnim 18:00": the
        season's time instead of the one before, on its days; that one is held the rest of the year."""
        rest = complement(r.season)
        if idx == idxs[0] or rest is None:
            return
        previous, hour = self.readings[idx - 1], self.hours[idx]
        gap = line[self.hours[idx - 1].end - line_start : hour.start - line_start]
        m = _CONTRAST_RE.fullmatch(gap)
        if (
            m is None
            or previous.season not in (None, rest)
            or AS_WELL_RE.search(gap)
            or season_in(m["s"]) != r.season
        ):
            return
        previous.season = rest
        if r.days is None or r.days.generic:  # the header's days: the time before names its own
            r.days = previous.days
        previous.aside = r.aside = True  # one time's two halves of the year: neither completes an order

    def _pair_shares_season(self, line: str, line_start: int, idxs: list[int], idx: int, r: Reading) -> None:
        """ "17.00 i 18.00 (X-III) albo 18.00 i 19.00 (IV-IX)": a season in parentheses after two times
        joined by "i" is both times', not the second's alone; after a comma ("8.00, 15.30 (bez lipca)") it
        stays the last time's."""
        if idx == idxs[0] or r.season is None or self.readings[idx - 1].season is not None:
            return
        h, previous = self.hours[idx], self.hours[idx - 1]
        paren = _SEASON_PAREN_RE.match(line, h.end - line_start)
        if (
            paren is not None
            and _PAIRED_RE.fullmatch(line, previous.end - line_start, h.start - line_start)
            and season_in(paren["s"]) == r.season
            and not excepts(paren["s"])
            and not AS_WELL_RE.search(paren["s"])
        ):
            self.readings[idx - 1].season = r.season

    def _evening_variant(self, idx: int, r: Reading, before: str) -> None:
        """ "Niedziele: 8.00, 10.30, 18.30, w lipcu i sierpniu Msza wieczorna o 20.00": a season's evening
        Mass takes the place of the evening Mass just before it on those days, which is held the rest of the
        year; the two are one time's variants ("aside"), the other times stay all-year."""
        rest = complement(r.season) if r.season is not None else None
        if rest is None or r.days is None or idx == 0 or not _EVENING_RE.search(before):
            return
        j = idx - 1
        previous = self.readings[j]
        if (
            self.verdicts[j][0]
            and previous.season is None
            and previous.days is not None
            and previous.days.days == r.days.days
            and self.hours[j].time >= EVENING_FROM
        ):
            previous.season, previous.aside, r.aside = rest, True, True

    def _closes_after(self, line_start: int, line: str, idx: int) -> bool:
        """Whether a parenthesis closes right after the hour: it holds that time alone."""
        return _CLOSING_RE.match(line, self.hours[idx].end - line_start) is not None

    def _church_at(self, place: str | None) -> str | None:
        """The church a place names: the first named before any Mass is the parish's own (None), and so is
        every later mention ("Mączniki godz. 8.00; Bagrowo godz. 10.00", then "Mączniki godz. 18.00")."""
        if place is None:
            return None
        if self.home is None and not self.block.notes.main_seen:
            self.home = place.casefold()
        return None if place.casefold() == self.home else place

    def _home_held(self) -> bool:
        """Whether the place named first is the parish's own: given more than one time ("Olszyny 7.30,
        11.00; Borowiec 9.00", or again on the weekdays' line). Named once, as the villages after it are
        ("Dębina 7.30; Łęgi 9.00; Wola 11.00"), it is as likely a chapel: an unnamed chapel sends people to
        the wrong village, a named parish church only repeats its village's name."""
        return not self.at_home or sum(name.casefold() == self.home for _, name in self.at_home) > 1

    def _home_is_a_village(self) -> None:
        """The parish church named by its church word ("Mączniki 8.00; Bagrowo 10.00; kościół parafialny
        11.30"): the place named first is a village's chapel, not the parish's own church."""
        for r, name in self.at_home:
            r.church = name
        self.at_home = []
        if self.home is not None:
            self.home = ""  # no place is the parish's own from here on

    def _saturday_goes_on(self, idxs: list[int], idx: int, words: str) -> bool:
        """The hour before on the line is Saturday's and earlier: a Saturday list goes on ("w soboty 17.00
        i 18.00"); an earlier time starts Sunday's list again, unless the two are a season's pair ("sobota:
        latem 17.30, zimą 16.30") or an evening time another church's after a semicolon."""
        if idx == idxs[0]:
            return False
        previous = self.readings[idx - 1]
        if previous.days is None or previous.days.days != {"sat"}:
            return False
        paired = previous.season is not None and season_in(words) is not None
        # "w sobotę Piłka 17.00, 19.00; Kaminnik 18.30": the next church's Saturday evening
        gap = self.text[self.hours[idx - 1].end : self.hours[idx].start]
        evening = self.hours[idx].time >= VIGIL_FROM
        placed = evening and ";" in gap and place_named(gap.rsplit(";", 1)[1]) is not None
        return paired or placed or self.hours[idx - 1].time < self.hours[idx].time

    def _hour_context(
        self,
        ctx: LineContext,
        starts: list[int],
        line_days: LineDays,
        idx: int,
        tail: Days | None,
        label: Days | None,
    ) -> HourContext:
        """The hour's span and clause in its line, where the next hour starts, and its day: its own day
        phrase, else the one ending the line after a dash (``tail``), else the line's day heading's ("Msze w
        niedziele: 8.00. Suma: 11.00." past the full stop), else the heading's above."""
        h = self.hours[idx]
        s, e = h.start - ctx.start, h.end - ctx.start
        clause = bisect_right(starts, s)  # starts[0] is 0: clause >= 1
        clause_start = starts[clause - 1]
        clause_end = starts[clause] if clause < len(starts) else len(ctx.line)
        next_start = len(ctx.line)
        if idx + 1 < len(self.hours) and self.hours[idx + 1].start - ctx.start < len(ctx.line):
            next_start = self.hours[idx + 1].start - ctx.start
        day = line_days.day_of(clause_start, s, e) or tail or _only_heading(line_days, label, s)
        if day is not None and label is not None and day.generic and _weekdays_label(label, day):
            day = label  # "Msze w dni powszednie: codziennie o 18:00": every weekday
        day = (
            day
            or _said_before(ctx.line, starts, clause)
            or self.block.column_day(ctx.line, s)
            or self._day_over(ctx.line)
            or (self.block.church_lines_day if self.block.church_line else None)
        )
        excepted = line_days.excepted_after(e) if day is not None else None
        if excepted is not None and day is not None and day.days - excepted.days:
            day = Days(day.days - excepted.days, day.generic)
        return HourContext(
            ctx,
            idx,
            h,
            s,
            e,
            clause_start,
            clause_end,
            next_start,
            self.in_range[idx],
            self.listed[idx],
            day,
        )
