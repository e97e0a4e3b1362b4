"""The project's one vocabulary of days, seasons and monthly recurrences, with their Polish labels.

The rules emit these names, results.jsonl and the search database store them, the calendar (next Masses,
the iCal feed) dates them, and the parish page and the CSV export show them: every side reads them here, so
a name one side emits is known to all the others (tests/unit/test_vocabulary.py walks them). A season is a
tag below or dates as the site gave them: a range "MM-DD..MM-DD", or several joined by commas for months
that are no single run ("V, VI, X, XII": "05-01..06-30,10-01..10-31,12-01..12-31"); None is all year.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

WEEK = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
HOLIDAY = "holiday"  # the holy days of obligation (msze/search/calendar.py names them)
DAYS = (*WEEK, HOLIDAY)
# the parish page's day names
DAY_LABELS = {
    "mon": "Poniedziałek",
    "tue": "Wtorek",
    "wed": "Środa",
    "thu": "Czwartek",
    "fri": "Piątek",
    "sat": "Sobota",
    "sun": "Niedziela",
    HOLIDAY: "Święta nakazane",
}
# RFC 5545's days of the week (the iCal feed's BYDAY)
BYDAY = {"mon": "MO", "tue": "TU", "wed": "WE", "thu": "TH", "fri": "FR", "sat": "SA", "sun": "SU"}

MonthDay = tuple[int, int]  # (month, day)
Span = tuple[MonthDay, MonthDay]  # both bounds inclusive; a span over New Year has start > end


@dataclass(frozen=True, slots=True)
class Season:
    """A season tag: how the parish page ("latem") and a CSV cell ("lato") say it, and when it holds: the
    spans of the year, or the days none of the seasons in ``complement`` holds, or the liturgical
    calendar (``liturgical``: Advent, Lent); no spans at all is a season whose dates are past or unknown."""

    name: str
    label: str
    short: str
    spans: tuple[Span, ...] = ()
    complement: tuple[str, ...] = ()
    liturgical: bool = False


_SUMMER: tuple[Span, ...] = (((7, 1), (8, 31)),)
_WINTER: tuple[Span, ...] = (((11, 1), (3, 31)),)
SEASONS: dict[str, Season] = {
    s.name: s
    for s in (
        Season("summer", "latem", "lato", _SUMMER),
        Season("not-summer", "poza latem", "poza latem", complement=("summer",)),
        Season("holidays", "w wakacje i ferie", "wakacje i ferie", _SUMMER),
        Season("not-holidays", "poza wakacjami i feriami", "poza wakacjami", complement=("holidays",)),
        Season("winter", "zimą", "zima", _WINTER),
        Season("not-winter", "poza zimą", "poza zimą", complement=("winter",)),
        Season("not-summer-winter", "wiosną i jesienią", "wiosna i jesień", complement=("summer", "winter")),
        Season("school-year", "w roku szkolnym", "rok szkolny", (((9, 1), (6, 30)),)),
        Season("advent", "w Adwencie", "adwent", liturgical=True),
        Season("not-advent", "poza Adwentem", "poza Adwentem", complement=("advent",)),
        Season("lent", "w Wielkim Poście", "Wielki Post", liturgical=True),
        Season("not-lent", "poza Wielkim Postem", "poza Wielkim Postem", complement=("lent",)),
        Season("may", "w maju", "maj", (((5, 1), (5, 31)),)),
        Season("october", "w październiku", "październik", (((10, 1), (10, 31)),)),
        Season(
            "not-lent-may-october",
            "poza Wielkim Postem, majem i październikiem",
            "poza Wielkim Postem, majem i październikiem",
            complement=("lent", "may", "october"),
        ),
        Season("pandemic", "w czasie pandemii", "pandemia"),  # the temporary schedules of 2020–2021: past
    )
}

# a season given as dates, as the rules write it: "07-01..08-31", "05-01..06-30,10-01..10-31"
_SPAN = r"([01]\d)-([0-3]\d)\.\.([01]\d)-([0-3]\d)"
_SEASON_DATES_RE = re.compile(rf"^{_SPAN}(?:,{_SPAN})*$")
_SPAN_RE = re.compile(_SPAN)


def season_spans(season: str | None) -> tuple[Span, ...] | None:
    """The (month, day) bounds of each stretch of a season given as dates ("07-01..08-31" has one,
    "05-01..06-30,10-01..10-31" two), None for a tag or none."""
    if not _SEASON_DATES_RE.match(season or ""):
        return None
    return tuple(
        ((int(m[1]), int(m[2])), (int(m[3]), int(m[4])))
        for m in _SPAN_RE.finditer(season)  # type: ignore[arg-type]
    )


def season_range(season: str | None) -> Span | None:
    """The (month, day) bounds of a season given as one date range ("07-01..08-31"), None for a tag, for
    none and for a season of several stretches."""
    spans = season_spans(season)
    return spans[0] if spans is not None and len(spans) == 1 else None


def dated_season(spans: Sequence[Span]) -> str:
    """The season of date spans as the rules write it: "05-01..06-30,10-01..10-31"."""
    return ",".join(f"{m1:02d}-{d1:02d}..{m2:02d}-{d2:02d}" for (m1, d1), (m2, d2) in spans)


# the week of the month of a monthly Mass: 1 the first … 4 the fourth, -1 the last
MONTH_WEEKS = (1, 2, 3, 4, -1)
# "w pierwszy piątek miesiąca": the ordinal agrees with the day's gender (masculine Monday, Tuesday,
# Thursday, Friday; feminine Wednesday, Saturday, Sunday)
_FEMININE = frozenset({"wed", "sat", "sun"})
_ORDINALS = {1: ("pierwszy", "pierwszą"), 2: ("drugi", "drugą"), 3: ("trzeci", "trzecią"),
             4: ("czwarty", "czwartą"), -1: ("ostatni", "ostatnią")}  # fmt: skip
_DAY_ACCUSATIVE = {
    "mon": "poniedziałek", "tue": "wtorek", "wed": "środę", "thu": "czwartek", "fri": "piątek",
    "sat": "sobotę", "sun": "niedzielę",
}  # fmt: skip


def monthly_label(week: int, days: Sequence[str]) -> str:
    """ "w pierwszy piątek miesiąca", "w ostatnią niedzielę miesiąca", "w pierwszy czwartek, piątek i
    sobotę miesiąca" (the ordinal agrees with the first day)."""
    ordinal = _ORDINALS[week][days[0] in _FEMININE]
    names = [_DAY_ACCUSATIVE[d] for d in days]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} i {names[-1]}"
    return f"w {ordinal} {listed} miesiąca"


def byday_monthly(week: int, day: str) -> str:
    """The RFC 5545 BYDAY of a monthly Mass: "1FR", "-1SU"."""
    return f"{week}{BYDAY[day]}"
