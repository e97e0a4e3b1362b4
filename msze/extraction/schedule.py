"""One schedule per parish: the Mass hours of a site's pages consolidated into what the site states.

A page's hours carry their reading (days, church, season, vigil, one-off or weekly: rules/reading.py). Over a
site, the weekly schedule is what its schedule pages state: a page about Masses ("porządek Mszy", a URL with
"msze") outranks announcements, whose weekly-looking hours ("we wtorek o 18:00 Msza z nowenną") are this
week's occasions and go to the one-off list unless they are listed as a schedule ("W niedziele: 8:00,
10:00"). Blocks a site repeats on every page are read once already (the page steps skip the site template).
Where two pages state the same day, church and season with different times, one page wins (the one with the
newer dates of its own, else the schedule page, else the one listing more times) and the other page's times
are kept as conflicts with their evidence, never merged. Every entry keeps the pages and sentences it came
from.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote, urlsplit

from msze.extraction.rules.cues import OTHER_CUE_RE
from msze.extraction.rules.days import DAY_ORDER, day_at, is_day_label
from msze.extraction.rules.reading import (
    AS_SUNDAY_RE,
    CONFESSION_RE,
    DAY_BEFORE_DATE,
    FROM_NOW_ON_RE,
    NEXT_WORD,
    ONE_OFF,
    REGULAR,
    REGULAR_ORDER_RE,
    THIS_WEEK_RE,
    complement,
    dates_in,
    page_year,
    same_half,
    with_year,
)
from msze.extraction.rules.verdict import AT_MASS, DEVOTION_AT_MASS, NEGATED, NOT_SCHEDULED
from msze.extraction.rules.walk import LIST_FIRST_HOUR
from msze.utils.vocabulary import SEASONS, WEEK

# a page of announcements or news: its weekly-looking hours are this week's occasions
_ANNOUNCEMENTS_RE = re.compile(
    r"og[łl]oszeni|aktualno[śs]c|intencj|wiadomo[śs]c|news|wydarzeni|blog|kronik|/20\d\d/"
    r"|niedziel\w*[-_](?:zwyk[łl]|adwent|wielk|wielkanoc|postu|palm)",  # ".../473-21-niedziela-zwykla-7"
    re.IGNORECASE,
)
# a page about Masses: "porządek Mszy", "msze-swiete", "nabożeństwa", "godziny"
_SCHEDULE_RE = re.compile(
    r"msz[aey]|porz[ąa]dek|rozk[łl]ad|nabo[żz]e[ńn]stw|godzin|liturgi|eucharysti|harmonogram", re.IGNORECASE
)
# an announcement stating the regular order: by its words (reading.REGULAR_ORDER_RE: "bez zmian", "jak
# zawsze"), or a line stating it: a Mass header naming days in the plural, then its times ("Msze św. w
# niedziele: 7:00, 8:30, 10:00", "Msze św. w dni powszednie: godz. 18.00"; "w niedzielę" is this Sunday)
_ORDER_LINE_RE = re.compile(
    r"^[^\w\n]*msz\w*(?:\s+(?:św\.?|święt\w*))?\s+(?:w\s+|we\s+)?"
    r"(?:niedziele|niedzielne|dni\s+powszednie|soboty|święta)\b[^:\n]{0,30}:[^\n]*?\d{1,2}[.:]\d{2}"
    # "Msze św. w niedzielę w naszym kościele: 18.00 (sobota), 7.30, 9.00": one Sunday's header with a whole
    # order of at least three times
    r"|^[^\w\n]*msz[ea](?:\s+(?:św\.?|święte))?\s+w\s+niedzielę\b[^:\n]{0,30}:(?:[^\n]*?\d{1,2}[.:]\d{2}){3}",
    re.IGNORECASE,
)
# ... or a sentence saying, in the present, when the Masses of plural days are ("Msze św. w dni powszednie
# są odprawiane o godz. 18.00", "Msze w tygodniu są o 7.00"; "Msza w środę będzie o 18.00" is this week's)
_ORDER_SENTENCE_RE = re.compile(
    r"\bmsz\w*(?:\s+(?:św\.?|święt\w*))?\s+(?:w\s+|we\s+)?(?:niedziele|dni\s+powszednie|tygodniu|soboty)\s+"
    r"(?:są\s+(?:(?:odprawiane|sprawowane|celebrowane)\s+)?|(?:odprawiane|sprawowane|celebrowane)\s+są\s+)"
    r"o\s+(?:godz\.?\s*)?\d"
    r"|\bmsz\w*(?:\s+(?:św\.?|święt\w*))?\s+(?:(?:w|we)\s+(?:tygodniu|dni\s+powszednie)\s+)?codziennie\s+"
    r"(?:są\s+)?o\s+(?:godz\.?\s*)?\d",  # "Msza św. w tygodniu codziennie o godz. 17.00"
    re.IGNORECASE,
)
# ... or, of Sunday, that its Masses (plural) will be held at times from now on ("Msze w niedzielę będą
# odprawiane w X o godz. 8.00 i 11.00", "Msze z naszego kościoła transmitowane będą w niedzielę o 9.00";
# "Msza w niedzielę będzie o 18.00" is one Mass, this week's; a date, feast or "w przyszłą" still makes it
# this week's: _undated)
_HELD = r"(?:odprawiane|sprawowane|celebrowane|transmitowane)"
_SUNDAY_ORDER_SENTENCE_RE = re.compile(
    rf"\bmsze(?:\s+(?:św\.?|święte))?(?:\s+z\s+nasz\w+\s+\w+)?\s+"
    rf"(?:w\s+niedziel[ęe]\s+)?(?:będą(?:\s+{_HELD})?|{_HELD}\s+będą)\s+"
    rf"(?:w\s+niedziel[ęe]\s+)?[^.\d]{{0,40}}?\bo\s+(?:godz(?:inie|\.)?|g\.)?\s*\d",
    re.IGNORECASE,
)
# ... unless it is tied to this week or a feast
_THIS_WEEK_RE = re.compile(
    r"w\s+tym\s+tygodniu|\bw\s+przyszł\w*|\bw\s+najbliższ\w*|uroczysto|[śs]wi[ęe]t[aoy]\b", re.IGNORECASE
)
# ... but the holy days of the weekly order are no feast: "w niedziele i święta", "święta zniesione", "Msze
# św. w święta:"
_HOLY_DAYS_RE = re.compile(
    r"niedziel\w*\s+(?:i|oraz)\s+(?:w\s+)?[śs]wi[ęe]t\w*|[śs]wi[ęe]t\w*\s+zniesion\w*|\bw\s+[śs]wi[ęe]ta\s*:",
    re.IGNORECASE,
)
_DATE_WORD_RE = re.compile(
    r"\b\d{1,2}\s+(?:stycz|lut|mar|kwie|maj|czerw|lip|sierp|wrze|pa[źz]dz|listop|grud)\w*|\b\d{1,2}\.\d{1,2}\.\d{4}",
    re.IGNORECASE,
)  # a date with its month ("15 sierpnia", "12.10.2025"), never a time
_LISTED = frozenset({"day list", "schedule block", "intention"})  # reasons of hours listed as a schedule
EVIDENCE_KEPT = 3  # supporting sentences kept per entry
SCHEDULE, ANNOUNCEMENTS, OTHER = "schedule", "announcements", "other"


# a dated announcements heading in a page's text: "Ogłoszenia duszpasterskie 12.10.2025" (a menu's link to
# "Ogłoszenia" has no date)
_DATED_ANNOUNCEMENTS_RE = re.compile(r"og[łl]oszeni\w*[^\n\d]{0,40}\d{1,2}[./ ]", re.IGNORECASE)


def page_role(page: Mapping[str, Any]) -> str:
    """schedule, announcements or other: from the page's URL, else a dated announcements heading near its
    start, else the page filter's hint."""
    path = unquote(urlsplit(page.get("url") or "").path)
    if _ANNOUNCEMENTS_RE.search(path):
        return ANNOUNCEMENTS
    if _SCHEDULE_RE.search(path):
        return SCHEDULE
    if _DATED_ANNOUNCEMENTS_RE.search((page.get("text") or "")[:2000]):
        return ANNOUNCEMENTS
    return SCHEDULE if page.get("has_schedule_hint") else OTHER


def page_date(page: Mapping[str, Any]) -> str | None:
    """The latest full date the page writes ("YYYY-MM-DD"), with the page's own year for dates without one."""
    text = page.get("text") or ""
    year = page_year(text)
    best = None
    for _, _, date in dates_in(text[:20_000], bounds=True):
        y, m, d = with_year(date, year)
        if y:
            iso = f"{y:04d}-{m:02d}-{d:02d}"
            best = iso if best is None or iso > best else best
    return best


def evidence(page: Mapping[str, Any], hour: Mapping[str, Any]) -> dict[str, Any]:
    """Where an hour was read: the page, its words, who labelled it; for a PDF, the PDF page too."""
    said = {
        "url": page.get("url"),
        "context": hour.get("context", ""),
        "source": hour.get("source"),
        "score": hour.get("score"),
    }
    if hour.get("pdf_page"):
        said["pdf_page"] = hour["pdf_page"]
    return said


@dataclass
class _Page:
    """One page's say: its role, date and the weekly times it states per (day, church, season)."""

    index: int
    url: str
    role: str
    date: str | None
    stated: dict[tuple[str, str | None, str | None], set[str]] = field(
        default_factory=lambda: defaultdict(set)
    )
    unread: set[tuple[str | None, str]] = field(default_factory=set)  # (day or None, time) it read no Mass at

    def rank(self, key: tuple[str, str | None, str | None], support: Mapping[tuple, int]) -> tuple[Any, ...]:
        """Who wins a conflict: newer dates beside the schedule, then a schedule page, then the times more
        pages confirm, on this day and then on all the page's days, then more times; the first page last."""
        times = self.stated[key]
        confirmed = sum(support[(*key, time)] - 1 for time in times) / len(times)  # by other pages, per time
        said = [(*k, time) for k, ts in self.stated.items() for time in ts]
        agreed = sum(support[s] - 1 for s in said) / len(said)
        return (self.date or "", self.role == SCHEDULE, confirmed, agreed, len(times), -self.index)

    def failed_to_read(self, day: str, time: str) -> bool:
        """The page writes the time on that day (or undated) without reading it as a Mass: a winner that
        missed it does not say it is gone."""
        return (day, time) in self.unread or (None, time) in self.unread


@dataclass(frozen=True, slots=True)
class _Weekly:
    """A weekly hour: its page's say, the page, the hour, and the day an announced schedule starts."""

    said: _Page
    page: Mapping[str, Any]
    hour: Mapping[str, Any]
    valid_from: str | None


@dataclass
class _Entry:
    days: set[str] = field(default_factory=set)
    pages: set[str] = field(default_factory=set)
    evidence: list[dict[str, Any]] = field(default_factory=list)
    valid_from: str | None = None  # an announced new schedule: the day it starts ("od 1 lipca")
    # the days a page lists it on in its own right, not as a seasonal time aside (hour "aside")
    listed: set[str] = field(default_factory=set)
    tags: list[str] = field(default_factory=list)  # the reading's tags ("en", "latin", ...) of its hours

    def add(self, day: str | None, w: _Weekly) -> None:
        if day is not None:
            self.days.add(day)
            if not w.hour.get("aside"):
                self.listed.add(day)
        self.valid_from = self.valid_from or w.valid_from
        self.tags += [tag for tag in w.hour.get("tags") or () if tag not in self.tags]
        url = w.page.get("url") or ""
        if url not in self.pages and len(self.evidence) < EVIDENCE_KEPT:
            self.evidence.append(evidence(w.page, w.hour))
        self.pages.add(url)


def consolidate(pages: Iterable[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The parish's ``schedule`` (weekly Masses), ``one_off`` and ``monthly`` Masses, ``confession`` times
    and ``conflicts`` from its processed pages (PageItem dicts with hours; the text and URL give each
    page's role and date)."""
    said: list[_Page] = []
    weekly: list[_Weekly] = []
    one_off: dict[tuple[Any, ...], dict[str, Any]] = {}
    monthly: dict[tuple[Any, ...], dict[str, Any]] = {}
    by_reference: list[_Weekly] = []  # "W drugi dzień świąt Msze jak w niedzielę: 6.30, 9.30" as Sunday's
    mentioned: list[_Weekly] = []  # "w niedziele po Mszy o 18.00": a Mass a one-off takes as known
    held_at: list[_Weekly] = []  # "spowiedź codziennie przed Mszą o 7.30": a Mass the confession is held at
    confession: dict[tuple[Any, ...], dict[str, Any]] = {}
    dayless: list[_Weekly] = []  # weekly-read Masses with no day: listed apart, never in the schedule
    like_sunday: list[tuple[frozenset[str], str | None, str]] = []  # "Święta: jak w niedzielę, bez Mszy o 20"
    withdrawn: list[tuple[frozenset[str], str | None, str]] = []  # "Msza o 7.00 nie będzie odprawiana"
    every_mass: list[tuple[frozenset[str] | None, str | None]] = []  # "Spowiedź przed każdą Mszą św."
    pages = list(pages)
    site_lines = _site_block_lines(pages)
    for i, page in enumerate(pages):
        role = page_role(page)
        p = _Page(i, page.get("url") or "", role, page_date(page) if role == ANNOUNCEMENTS else None)
        said.append(p)
        text = page.get("text") or ""
        year = (
            page_year(text) if p.role == ANNOUNCEMENTS else None
        )  # read once, for every hour's "od 1 lipca"
        for hour in page.get("hours") or ():
            if hour.get("label") != "mass" and hour.get("time"):
                p.unread |= {(day, hour["time"]) for day in hour.get("days") or (None,)}
            if hour.get("label") != "mass" or not hour.get("time") or hour.get("reason") in NOT_SCHEDULED:
                if hour.get("reason") == NEGATED:
                    if _negation(p, text, hour, like_sunday, withdrawn) and hour.get("days"):
                        mentioned.append(_Weekly(p, page, {**hour, "kind": REGULAR}, None))  # cancelled once
                elif confessed_at_mass(text, hour):
                    held_at.append(_Weekly(p, page, hour, None))
                elif hour.get("reason") == DEVOTION_AT_MASS and mentioned_mass(text, hour):
                    mentioned.append(_Weekly(p, page, {**hour, "kind": REGULAR}, None))  # a devotion's
                continue  # "nie ma Mszy o 12.30", "spowiedź przed Mszą o 7.30": no Mass of its own
            valid_from = starts_on(sentence_of(text, hour), year) if p.role == ANNOUNCEMENTS else None
            if hour.get("monthly") and _is_listed(p, hour):
                _add_monthly(monthly, page, hour)  # "w pierwsze piątki" (or a list's last item alone)
            if not hour.get("days") and hour.get("kind", REGULAR) == REGULAR and not hour.get("date"):
                dayless.append(_Weekly(p, page, hour, valid_from))  # a weekly Mass on no day: no schedule row
                if holy_day_order(text, hour, page.get("hours") or ()):
                    by_reference.append(_Weekly(p, page, {**hour, "days": ["sun"], "kind": "regular"}, None))
            elif (
                _is_weekly(p, hour, valid_from)
                or (p.role == ANNOUNCEMENTS and regular_order(text, hour))
                or (p.role == ANNOUNCEMENTS and _in_site_block(text, hour, site_lines))
            ):
                weekly.append(_Weekly(p, page, hour, valid_from))
                for day in hour.get("days") or ():
                    p.stated[_said_key(day, hour)].add(hour["time"])
            elif hour.get("kind") != "monthly" or not _is_listed(p, hour):
                _add_one_off(one_off, page, hour)
                if hour.get("sunday_order") or holy_day_order(text, hour, page.get("hours") or ()):
                    by_reference.append(_Weekly(p, page, {**hour, "days": ["sun"], "kind": "regular"}, None))
                elif mentioned_mass(text, hour):
                    mentioned.append(_Weekly(p, page, {**hour, "kind": "regular"}, None))
        stated_here = [w.hour for w in weekly if w.said is p]  # the page's weekly hours
        if p.role != ANNOUNCEMENTS:
            p.date = schedule_date(text, stated_here)
        for c in page.get("confessions") or ():
            if p.role == ANNOUNCEMENTS and not _standing_confession(text, page.get("hours") or (), c):
                continue  # this week's, not the regular times
            key = (tuple(c.get("days") or ()), c.get("start"), c.get("end"), c.get("church"), c.get("season"))
            entry = confession.setdefault(key, {**c, "evidence": []})
            if len(entry["evidence"]) < EVIDENCE_KEPT:
                entry["evidence"].append({"url": page.get("url")})
        order = text if p.role != ANNOUNCEMENTS else _order_block(text, stated_here)
        every_mass += [(days, page.get("url")) for days in confession_at_every_mass(order)]
    by_reference = _sunday_by_reference(by_reference, said)
    weekly += by_reference
    placed = {(id(w.page), w.hour.get("start")) for w in by_reference}  # a holy day's order, now Sunday's
    dayless = [w for w in dayless if (id(w.page), w.hour.get("start")) not in placed]
    # the Masses a confession is held at are the schedule's where it has that time: they add no days to it
    known = {(w.hour["time"], w.hour.get("church")) for w in weekly}
    mentioned += [w for w in held_at if (w.hour["time"], w.hour.get("church")) not in known]
    weekly += _by_mention(mentioned, said)
    winners = _winners(said)
    schedule, conflicts = _schedule(weekly, winners)
    schedule = _withdraw(_as_sunday(schedule, like_sunday), withdrawn)
    _confession_at_masses(confession, schedule, every_mass)
    return {
        "schedule": schedule,
        "one_off": sorted(one_off.values(), key=lambda o: (o["date"] or "9999", o["time"])),
        "monthly": sorted(monthly.values(), key=lambda m: (m["week"] < 0, m["week"], m["days"], m["time"])),
        "confession": list(confession.values()),
        "conflicts": conflicts,
        "dayless": _dayless(dayless),
    }


# one day in the singular, this week's: "W czwartek Msza o 7.00 nie będzie odprawiana" ("w czwartki" is
# every Thursday)
_ONE_DAY = r"\b(?:w|we)\s+(?:poniedziałek|wtorek|środę|czwartek|piątek|sobotę|niedzielę)\b"
_ONE_DAY_RE = re.compile(_ONE_DAY, re.IGNORECASE)
# ... or of a time or occasion that passes: "Podczas rekolekcji", "w czasie remontu", "z powodu urlopu"
_OCCASION_RE = re.compile(
    r"\b(?:podczas|w\s+czasie|w\s+dni\w*|w\s+okresie|na\s+czas|z\s+powodu|ze\s+względu|rekolekc\w*"
    r"|remont\w*|urlop\w*|nieobecno\w*|chorob\w*|wigili\w*)",
    re.IGNORECASE,
)


def _negation(
    p: _Page,
    text: str,
    hour: Mapping[str, Any],
    like_sunday: list[tuple[frozenset[str], str | None, str]],
    withdrawn: list[tuple[frozenset[str], str | None, str]],
) -> bool:
    """What a Mass said not to be held says of the weekly order (a seasonal one is the reading's:
    "w wakacje nie ma Mszy o 12.30"). "Święta: Msze jak w niedzielę, bez Mszy o 20.00": the holy days have
    Sunday's times but that one. "Msza o 7.00 nie będzie odprawiana", undated and of no single day: that
    weekly Mass is gone (on an announcements page only when said to hold: "na stałe", "do odwołania"); one
    dated, of this week or of one day ("w czwartek") is that day's cancellation and the order stands.

    True for such a cancellation: the Mass it names is one of the regular order's ("W czwartek nie będzie
    Mszy o 7.00": there is one on Thursdays)."""
    if hour.get("kind") == "monthly":
        return False
    if hour.get("season") or hour.get("date") or hour.get("kind", REGULAR) != REGULAR:
        return True  # "W Adwencie nie będzie Mszy o 8:00", a dated one: held on the other days
    statement = sentence_of(text, hour)
    church, time = hour.get("church"), hour["time"]
    sunday = AS_SUNDAY_RE.search(statement)
    if sunday is not None:
        days = day_at(statement[: sunday.start()])
        if days is not None and "sun" not in days.days:
            like_sunday.append((days.days, church, time))
        return False
    if _FEAST_RE.search(statement):
        return False  # the feast's own order
    once = not _undated(statement) or _ONE_DAY_RE.search(statement) or _OCCASION_RE.search(statement)
    if once or (
        p.role == ANNOUNCEMENTS
        and not (REGULAR_ORDER_RE.search(statement) or _UNTIL_NOTICE_RE.search(statement))
    ):
        return True
    withdrawn.append((frozenset(hour.get("days") or DAY_ORDER), church, time))
    return False


def _as_sunday(
    schedule: list[dict[str, Any]], like_sunday: list[tuple[frozenset[str], str | None, str]]
) -> list[dict[str, Any]]:
    """The days given Sunday's order ("Święta: Msze jak w niedzielę, bez Mszy o 20.00") added to the church's
    Sunday times but the excepted ones, where no row gives those days times of their own."""
    excepted: dict[tuple[frozenset[str], str | None], set[str]] = defaultdict(set)
    for days, church, time in like_sunday:
        excepted[(days, church)].add(time)
    for (days, church), times in excepted.items():
        if any(days & set(r["days"]) for r in schedule if r["church"] == church):
            continue
        for r in schedule:
            if r["church"] == church and "sun" in r["days"] and not r["vigil"] and r["time"] not in times:
                r["days"] = sorted(set(r["days"]) | days, key=DAY_ORDER.__getitem__)
    return schedule


def _withdraw(
    schedule: list[dict[str, Any]], withdrawn: list[tuple[frozenset[str], str | None, str]]
) -> list[dict[str, Any]]:
    """The schedule without the weekly Masses said to be held no more, on the days said (every season)."""
    for days, church, time in withdrawn:
        for r in schedule:
            if r["time"] == time and r["church"] == church:
                r["days"] = [d for d in r["days"] if d not in days]
    return [r for r in schedule if r["days"]]


# "Spowiedź pół godziny przed każdą Mszą św.", "w niedziele przed Mszami": in a confession line, a clause with
# no time giving confession at every Mass of its days (one with a time is the page's: "przed Mszą o 7.30");
# "przed Mszą św." alone is before each of them too, not "przed Mszą wieczorną" nor "przed Mszą dla dzieci"
_EVERY_MASS_RE = re.compile(
    r"\b(?:przed|podczas|w\s+czasie|na\s+początku)\s+(?:(?:każd\w+|wszystkich)\s+(?:msz|eucharysti)\w*"
    r"|mszami\b|mszach\b|(?:msz[ąy]|eucharysti[ąi])\b(?:\s+(?:św\.|św\b(?!\.)|święt\w*))?"
    r"(?=\s*(?:$|[,;.:)]|(?:w|we|i|oraz|przez|na|lub|a)\b)))",
    re.IGNORECASE,
)
# a confession heading's day label for the whole week: "przez cały tydzień:"
_WHOLE_WEEK_RE = re.compile(r"\s*(?:przez\s+cały\s+tydzień|każdego\s+dnia)\s*:?\s*", re.IGNORECASE)
# "przed Mszą św. o 7.15", "przed Mszą św. w dni powszednie" are one clause, "... Mszą św. Kancelaria" two
_CLAUSE_SEP_RE = re.compile(r"[,;.]\s(?!(?<=\b[śŚ]w\.\s)[a-ząćęłńóśźż])")


def confession_at_every_mass(text: str) -> list[frozenset[str] | None]:
    """The days of each clause of a confession line giving confession at every Mass and no time ("Spowiedź
    przed każdą Mszą św.": None, every day; "..., w niedziele przed Mszami": Sunday), and of such lines
    under a confession heading, each under its day's ("Sakrament pojednania" / "Niedziela:" / "podczas
    każdej Mszy Świętej")."""
    found = []
    heading: str | None = None  # the confession heading and the day heading since, while they go on
    for line in text.splitlines():
        confessed = CONFESSION_RE.search(line)
        under = heading is not None and confessed is None
        if under and _EVERY_MASS_RE.search(line) and not _CLOCK_RE.search(line):
            days = day_at(line) or day_at(heading or "")  # "- w niedziele 15 minut przed Eucharystią"
            found.append(days.days if days is not None else None)
            continue
        if _is_confession_heading(line, confessed) or (heading is not None and _day_label(line)):
            heading = line if confessed is None else ""
            continue
        if line.strip():
            heading = None
        if confessed is None or _EVERY_MASS_RE.search(line) is None:
            continue
        for clause in _CLAUSE_SEP_RE.split(line[confessed.start() :]):
            if not _EVERY_MASS_RE.search(clause) or any(ch.isdigit() for ch in clause):
                continue
            if OTHER_CUE_RE.search(clause) and not CONFESSION_RE.search(clause):
                continue  # "..., różaniec przed Mszami": another devotion's
            days = day_at(clause)
            found.append(days.days if days is not None else None)
    return found


def _day_label(line: str) -> bool:
    return is_day_label(line) or _WHOLE_WEEK_RE.fullmatch(line) is not None


ORDER_BLOCK_LINES = 3  # a confession line this many lines below a notices page's order is the order's


def _order_block(text: str, hours: Sequence[Mapping[str, Any]]) -> str:
    """The lines of a notices page's weekly order (its weekly hours') and the few below it, where a
    confession "przed Mszą św." belongs to the order, not to the week ("Porządek Mszy św.: … / Spowiedź: pół
    godziny przed Mszą św."), less the lines of a date, this week or a feast ("1 maja przypada pierwszy
    piątek. Okazja do spowiedzi przed każdą Mszą"); "" when the page states no weekly order."""
    spans = [h["start"] for h in hours if 0 <= h.get("start", -1) <= len(text)]
    if not spans:
        return ""
    begin = text.rfind("\n", 0, min(spans)) + 1
    end = max(spans)
    for _ in range(ORDER_BLOCK_LINES + 1):
        end = text.find("\n", end + 1)
        if end < 0:
            end = len(text)
            break
    return "\n".join(line for line in text[begin:end].split("\n") if _undated(line))


_CLOCK_RE = re.compile(r"\d{1,2}[.:]\d\d|\bgodz", re.IGNORECASE)  # a time of day, not "15 minut przed"


def _is_confession_heading(line: str, confessed: re.Match[str] | None) -> bool:
    """A short line naming confession and no time: "Sakrament pojednania", "Spowiedź święta:"."""
    return confessed is not None and len(line.split()) <= 4 and not any(ch.isdigit() for ch in line)


def _confession_at_masses(
    confession: dict[tuple[Any, ...], dict[str, Any]],
    schedule: list[dict[str, Any]],
    every_mass: list[tuple[frozenset[str] | None, str | None]],
) -> None:
    """Confession ``at_mass`` at each weekly Mass of the days a sentence with no time gives it."""
    for named, url in every_mass:
        for r in schedule:
            days = [d for d in r["days"] if named is None or d in named]
            if not days:
                continue
            key = (tuple(days), r["time"], None, r["church"], r["season"])
            entry = confession.setdefault(
                key,
                {
                    "days": days,
                    "start": r["time"],
                    "end": None,
                    "church": r["church"],
                    "season": r["season"],
                    "at_mass": True,
                    "evidence": [],
                },  # fmt: skip
            )
            if len(entry["evidence"]) < EVIDENCE_KEPT:
                entry["evidence"].append({"url": url})


SITE_BLOCK_PAGES = 2  # a block repeated on this many pages that are no announcements is the site's


def _site_block_lines(pages: list[Mapping[str, Any]]) -> set[str]:
    """The lines of the blocks pages that are no announcements repeat from earlier pages (their "template"
    spans: a sidebar, a footer), on SITE_BLOCK_PAGES of them at least (a home page showing this week's
    announcements is one): the site's own, wherever they were first met."""
    seen: Counter[str] = Counter()
    for page in pages:
        if not page.get("template") or page_role(page) == ANNOUNCEMENTS:
            continue
        text = page.get("text") or ""
        seen.update(
            {
                line.strip()
                for start, end in page["template"]
                for line in text[start:end].splitlines()
                if line.strip()
            }
        )
    return {line for line, n in seen.items() if n >= SITE_BLOCK_PAGES}


def _in_site_block(text: str, hour: Mapping[str, Any], site_lines: set[str]) -> bool:
    """A weekly-read hour of announcements in a block the site repeats on its other pages ("Msze św. w
    niedziele o 8.00 i 10.00, w dni powszednie o 18.00" in the sidebar of a news page met first): the
    site's schedule, not this week's."""
    return (
        hour.get("kind", REGULAR) == REGULAR
        and bool(hour.get("days"))
        and _line_of(text, hour).strip() in site_lines
    )


def _is_weekly(p: _Page, hour: Mapping[str, Any], valid_from: str | None) -> bool:
    """A regular Mass of the schedule; on announcements only when listed as a schedule, seasonal (Roraty
    "od poniedziałku do soboty o 6:30") or a new schedule from a date ("Od 1 lipca Msze św. w niedziele")."""
    if p.role == ANNOUNCEMENTS and hour.get("days") and valid_from is not None:
        return True  # (its heading's date made it look like this week's)
    if hour.get("kind", "regular") != "regular":
        return False
    return _is_listed(p, hour)


# a holy day of obligation, whose Masses are mostly the Sunday's: "Uroczystość Wszystkich Świętych. Msze
# św.: 7.00, 9.00, 11.00"
_OBLIGATION_FEAST_RE = re.compile(
    r"wszystkich\s+świętych|boże(?:go)?\s+ciał[ao]|wniebowzię\w+|objawienia\s+pańskiego|trzech\s+króli"
    r"|boże(?:go)?\s+narodzeni[ae]|bożej\s+rodzicielki",
    re.IGNORECASE,
)


HOLY_DAY_ORDER_TIMES = 3  # a holy day's order lists this many times at least (one time is a mention)
HOLY_DAY_ORDER_CHARS = 400  # the holy day is named this far before the time at most, on its line


def holy_day_order(text: str, hour: Mapping[str, Any], hours: Sequence[Mapping[str, Any]]) -> bool:
    """The hour is listed in a holy day of obligation's order: the holy day named before it on its line, at
    least HOLY_DAY_ORDER_TIMES times from there up to a Mass named as known ("Uroczystość Wszystkich
    Świętych ... Msze tego dnia o 8.00 i 11.00, w Kurzniach o 9.00. Po Mszach o 9.00 i 11.00 procesja"),
    none before dawn. No weekly Mass, but evidence of the Sunday order where the site gives none. ``hours``
    are the page's, in text order; each look is bounded, so a page of one long line stays linear."""
    start = hour.get("start", -1)
    if not 0 <= start <= len(text) or hour.get("time", "") < LIST_FIRST_HOUR:
        return False
    lo = max(0, start - HOLY_DAY_ORDER_CHARS)
    named = _OBLIGATION_FEAST_RE.search(text, text.rfind("\n", lo, start) + 1 or lo, start)
    if named is None:
        return False
    line_end = text.find("\n", start) % (len(text) + 1)
    listed, listed_self = 0, False
    for h in itertools.islice(hours, bisect_left(hours, named.end(), key=_start_of), None):
        at = h.get("start", -1)
        if at >= line_end or _MENTION_RE.search(text[max(0, at - _MENTION_CHARS) : at]):
            break  # "Po Mszy o 10.00 procesja": the order's list, if any, has ended
        if h.get("label") == "mass":
            listed += 1
            listed_self |= at == start
        if listed_self and listed >= HOLY_DAY_ORDER_TIMES:
            return True
    return False


def _start_of(hour: Mapping[str, Any]) -> int:
    return hour.get("start", -1)


def _sunday_by_reference(by_reference: list[_Weekly], said: list[_Page]) -> list[_Weekly]:
    """The Sunday times a one-off gives by reference ("Msze jak w niedzielę: 6.30, 9.30, 11.30") or a holy
    day's order, for each church whose Sunday no page states: the best evidence of its Sunday order there
    is."""
    stated = {
        church for p in said for (day, church, _season), times in p.stated.items() if day == "sun" and times
    }
    added = [w for w in by_reference if w.hour.get("church") not in stated]
    for w in added:
        w.said.stated[("sun", w.hour.get("church"), w.hour.get("season"))].add(w.hour["time"])
    return added


# a Mass the sentence takes as known, by its time: "po Mszy św. o godz. 18.00", "na Mszy o 10.00", "przed
# Mszą o 7.00"; the time ends the match
_MENTION_RE = re.compile(
    r"\b(?:po|przed|podczas|na|w\s+czasie)\s+(?:każdej\s+)?msz\w*(?:\s+(?:św\.?|święt\w*))?"
    r"\s+(?:o\s+)?(?:godz(?:inie|\.)?\s*)?$",
    re.IGNORECASE,
)
# ... but a feast's Masses are its own: "Uroczystość Bożego Ciała. Po Mszy o 10.00 procesja"
_FEAST_RE = re.compile(
    r"uroczysto|odpust|pasterk|rezurekc|triduum|wielk\w+\s+(?:czwart|piąt|sobot)|boże\w*\s+ciał"
    r"|wszystkich\s+świętych|zaduszn|zaduszk|prymic|bierzmowan|ślub|pogrzeb",
    re.IGNORECASE,
)
# ... and what this week's Saturday will have: "Koronka będzie w sobotę przed Mszą o 17.00" (a day in the
# singular with a future verb; "w soboty" is every Saturday)
_WILL_BE = r"\b(?:będzie|będą|odbędzie|odbędą)\b"
_THIS_WEEKS_EVENT_RE = re.compile(rf"{_WILL_BE}.*{_ONE_DAY}|{_ONE_DAY}.*{_WILL_BE}", re.IGNORECASE)
_MENTION_CHARS = 60  # how far before its time a mention's words stand at most


def mentioned_mass(text: str, hour: Mapping[str, Any]) -> bool:
    """A one-off's Mass named by its time as a known one ("w niedziele po Mszy o 18.00 nabożeństwo",
    "W środę nowenna po Mszy św. o godz. 18.00") or a week's intention at it, on days of the week, at no
    feast: evidence of that day's order where no page states one (consolidate)."""
    start = hour.get("start", -1)
    if hour.get("label") != "mass" or not hour.get("days") or not 0 < start <= len(text):
        return False
    if not set(hour["days"]) <= set(WEEK) or hour.get("monthly"):
        return False
    if hour.get("reason") == "intention":  # "05.12.2022 PONIEDZIAŁEK / 18.00 Za + Jana": that day's Mass
        return not _FEAST_RE.search(_dated_heading(text, start))
    if not _MENTION_RE.search(text[max(0, start - _MENTION_CHARS) : start]):
        return False
    statement = sentence_of(text, hour)
    return not _FEAST_RE.search(statement) and not _THIS_WEEKS_EVENT_RE.search(statement)


_OFFSET_BEFORE_RE = re.compile(r"\b(?:kwadrans\w*|pół\s+godziny|godzin\w*|minut\w*|min\.?)\s+przed\b", re.I)


def confessed_at_mass(text: str, hour: Mapping[str, Any]) -> bool:
    """A standing Mass a confession is held at ("Spowiedź w dni powszednie podczas każdej Mszy (7:00 i
    18:30)"): no Mass of its own, but evidence of that day's order where no page states one, as a mention,
    unless the schedule has that time already ("codziennie" then spreads it to no other day)."""
    if hour.get("reason") != AT_MASS or hour.get("kind", "regular") != "regular":
        return False
    days = set(hour.get("days") or ())
    start = hour.get("start", -1)
    if not (days and days <= set(WEEK) and 0 < start <= len(text)):
        return False
    if _OFFSET_BEFORE_RE.search(text, max(0, start - _MENTION_CHARS), start):
        return False  # "kwadrans przed Mszą (7.00 i 18.00)": the confession's time, not the Mass's
    return not _FEAST_RE.search(sentence_of(text, hour))


_HEADING_DATE_RE = re.compile(r"\b\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})?")  # "08.12.2022", "8.12."
_HEADING_LINES = 12  # a list of intentions is read this many lines up for its day's dated heading


def _dated_heading(text: str, start: int) -> str:
    """The nearest line above ``start`` with a date ("08.12.2022 CZWARTEK UROCZYSTOŚĆ ..."), "" for none."""
    lines = text[:start].splitlines()[-_HEADING_LINES:]
    return next((line for line in reversed(lines) if _HEADING_DATE_RE.search(line)), "")


def _by_mention(mentioned: list[_Weekly], said: list[_Page]) -> list[_Weekly]:
    """The Masses one-offs mention by their time (mentioned_mass), on each day (and church) no schedule page
    states a time of: the only evidence of that day's order the site gives, or more of it than announcements
    restating a (maybe partial) order do."""
    stated = {
        (day, church)
        for p in said
        if p.role != ANNOUNCEMENTS
        for (day, church, _season), times in p.stated.items()
        if times
    }
    added = []
    for w in mentioned:
        church = w.hour.get("church")
        days = [d for d in w.hour["days"] if (d, church) not in stated]
        if days:
            # the season is the devotion's ("podczas nabożeństw majowych ... po Mszy o 18.00"), not the Mass's
            added.append(_Weekly(w.said, w.page, {**w.hour, "days": days, "season": None}, None))
    for w in added:
        for day in w.hour["days"]:
            w.said.stated[_said_key(day, w.hour)].add(w.hour["time"])
    return added


def _is_listed(p: _Page, hour: Mapping[str, Any]) -> bool:
    """Part of the parish's standing order: a schedule page's, or on announcements listed as a schedule or
    seasonal ("w pierwszy piątek" in this week's announcements is that Friday's one-off)."""
    return p.role != ANNOUNCEMENTS or hour.get("reason") in _LISTED or hour.get("season") is not None


def regular_order(text: str, hour: Mapping[str, Any]) -> bool:
    """An announcement stating the regular order, not this week's: a sentence restating it ("Porządek Mszy
    bez zmian: w tygodniu 6.45, w niedziele 8.00", "Msze w dni powszednie są o 18.00") or a line of a Mass
    header naming days in the plural ("Msze św. w niedziele: 7:00, 8:30"); days named, no date, this week or
    feast in what states it."""
    if not hour.get("days") or hour.get("kind", "regular") not in ("regular", ONE_OFF):
        return False
    statement = sentence_of(text, hour)
    restated = any(r.search(statement) for r in (REGULAR_ORDER_RE, _UNTIL_NOTICE_RE, FROM_NOW_ON_RE))
    if not (restated or _ORDER_SENTENCE_RE.search(statement) or _sunday_order(statement)):
        statement = _line_of(text, hour)
        if not _ORDER_LINE_RE.match(statement):
            return False
    heading_dated = hour.get("date") and not hour.get("sunday_order") and not dates_in(statement)
    if hour.get("kind") == ONE_OFF and not heading_dated:
        return False  # a one-off only by the date of the announcements' heading ("17.01.2021 r.") may be
    if restated:  # "w tym tygodniu porządek Mszy bez zmian": this week's order is the usual one
        statement = THIS_WEEK_RE.sub(" ", statement)
    return _undated(statement)


def _sunday_order(statement: str) -> bool:
    """Sunday's Masses said to be held at their times, Sunday named (_SUNDAY_ORDER_SENTENCE_RE)."""
    m = _SUNDAY_ORDER_SENTENCE_RE.search(statement)
    return m is not None and re.search(r"niedziel[ęe]", m.group(0), re.IGNORECASE) is not None


_HOLY_MASS_RE = re.compile(r"\bmsz\w*\s+[śs]wi[ęe]t\w*", re.IGNORECASE)  # "Msza święta" is no feast


def _undated(statement: str) -> bool:
    """No date, this week or feast in what states an order: it holds every week (from the date it starts on:
    "od najbliższej niedzieli, 29 marca, wracamy do zwykłego porządku")."""
    unholy = _HOLY_MASS_RE.sub(" ", _HOLY_DAYS_RE.sub(" ", statement))
    return not _THIS_WEEK_RE.search(unholy) and not _DATE_WORD_RE.search(_START_DATE_RE.sub(" ", statement))


# "od 29 marca", "od najbliższej niedzieli, 29 marca": the day an order starts on
_START_DATE_RE = re.compile(rf"\bod\s+(?:dnia\s+)?(?:{NEXT_WORD}\s+)?(?:\w+,?\s+)?\d{{1,2}}\s+[^\W\d]+", re.I)


# an announcement restating the standing confession times, not this week's ("Przypominamy, że spowiedź jest
# zawsze od 6.30 i 17.30", "stale przed każdą Mszą")
_STANDING_RE = re.compile(r"\bzawsze\b|\bstale\b|\bregularnie\b", re.IGNORECASE)
# an order that holds from now on: "do odwołania", "do czasu ustania epidemii", "na stałe"
_UNTIL_NOTICE_RE = re.compile(
    r"\bdo\s+(?:odwo[łl]ania|czasu\s+(?:ustania|zako[ńn]czenia|odwo[łl]ania))|\bna\s+sta[łl]e\b",
    re.IGNORECASE,
)


def _standing_confession(
    text: str, hours: Iterable[Mapping[str, Any]], confession: Mapping[str, Any]
) -> bool:
    """A confession time of an announcement that holds every week: its sentence says so ("zawsze", "bez
    zmian") and names no date, this week or feast."""
    for hour in hours:
        if hour.get("time") == confession.get("start") and hour.get("days") == confession.get("days"):
            statement = sentence_of(text, hour)
            standing = any(r.search(statement) for r in (_STANDING_RE, _UNTIL_NOTICE_RE, REGULAR_ORDER_RE))
            return bool(standing) and _undated(statement)
    return False


def _line_of(text: str, hour: Mapping[str, Any]) -> str:
    """The line of the page's text the hour stands on."""
    start = min(max(0, hour.get("start", 0)), len(text))
    end = text.find("\n", start)
    return text[text.rfind("\n", 0, start) + 1 : end if end >= 0 else len(text)]


def _add_monthly(
    monthly: dict[tuple[Any, ...], dict[str, Any]], page: Mapping[str, Any], hour: Mapping[str, Any]
) -> None:
    week, days = hour["monthly"]["week"], hour["monthly"]["days"]
    key = (week, tuple(days), hour["time"], hour.get("church"), hour.get("season"))
    entry = monthly.setdefault(
        key,
        {
            "week": week,
            "days": list(days),
            "time": hour["time"],
            "church": hour.get("church"),
            "season": hour.get("season"),
            "note": sentence_of(page.get("text") or "", hour),
            "evidence": [],
        },
    )
    if len(entry["evidence"]) < EVIDENCE_KEPT:
        entry["evidence"].append(evidence(page, hour))


def _add_one_off(
    one_off: dict[tuple[Any, ...], dict[str, Any]], page: Mapping[str, Any], hour: Mapping[str, Any]
) -> None:
    date = hour.get("date")
    key = (date, hour["time"], hour.get("church"))
    entry = one_off.setdefault(
        key,
        {
            "date": date,
            "time": hour["time"],
            "days": hour.get("days") or [],
            "church": hour.get("church"),
            "note": sentence_of(page.get("text") or "", hour),
            "evidence": [],
        },
    )
    if len(entry["evidence"]) < EVIDENCE_KEPT:
        entry["evidence"].append(evidence(page, hour))


# a full stop and a capital or a digit, not after an abbreviation: "o godz. 6.30 i 17.30", "Msza św. Jana",
# "na os. Kośmin", "ul. Polna", "pw. NMP"
_SENTENCE_END_RE = re.compile(
    r"(?<=[.!?])(?<!\bgodz\.)(?<!\bg\.)(?<!\bśw\.)(?<!\bks\.)(?<!\bok\.)(?<!\btj\.)(?<!\bnr\.)"
    r"(?<!\bos\.)(?<!\bul\.)(?<!\bpw\.)(?<!\bbł\.)(?<!\bim\.)\s+(?=[A-ZĄĆĘŁŃÓŚŹŻ0-9])|\n"
)


def sentence_of(text: str, hour: Mapping[str, Any]) -> str:
    """The sentence (or line) of the page the hour stands in; its context when the text has not its span."""
    start, end = hour.get("start", -1), hour.get("end", -1)
    if not (0 <= start < end <= len(text)):
        return " ".join((hour.get("context") or "").split())
    begin = max((m.end() for m in _SENTENCE_END_RE.finditer(text, max(0, start - 300), start)), default=0)
    after = _SENTENCE_END_RE.search(text, end, end + 300)
    return " ".join(text[begin : after.start() if after else min(len(text), end + 300)].split())


# "niedziele i święta" gives the holy days Sunday's times; a list of the holy days of their own ("święta
# zniesione: 9.00, 18.00") is another statement, not a disagreement with it
_WITH_SUNDAY = "holiday with sunday"


def _said_key(day: str, hour: Mapping[str, Any]) -> tuple[str, str | None, str | None]:
    """What an hour states a time of, for the conflicts between pages: its day, church and season."""
    if day == "holiday" and "sun" in (hour.get("days") or ()):
        day = _WITH_SUNDAY
    return (day, hour.get("church"), hour.get("season"))


SCHEDULE_DATE_LINES = 3  # an update stamp stands this many lines above the schedule at most


def schedule_date(text: str, hours: list[Mapping[str, Any]]) -> str | None:
    """The latest full date beside the page's weekly Masses ("Porządek Mszy od 1.09.2024", "aktualizacja
    12.10.2025"): from a few lines above the first to the line of the last; a date elsewhere on the page (a
    history article's) is no evidence of the schedule's."""
    spans = [(h["start"], h["end"]) for h in hours if 0 <= h.get("start", -1) < h.get("end", -1) <= len(text)]
    if not spans:
        return None
    begin = min(a for a, _ in spans)
    for _ in range(SCHEDULE_DATE_LINES + 1):
        begin = max(0, text.rfind("\n", 0, max(0, begin - 1)))
    end = text.find("\n", max(b for _, b in spans))
    lines = text[begin : end if end >= 0 else len(text)].split("\n")
    date = page_date({"text": "\n".join(line for line in lines if _stamp_line(line))})
    return date if date is None or date >= HISTORY_BEFORE else None  # "konsekr. 20.07.1926": history


# a date that dates the schedule: on a short line (a heading: "12.10.2025 r.", "XXIX Niedziela Zwykła 19.10")
# or beside a word of validity or of the order ("od", "aktualizacja", "obowiązuje", "stan na", "Porządek
# Mszy"); a history sentence just above the schedule ("Kościół poświęcił ks. biskup Jan Nowak 8.09.2024 r.")
# gives an event's date, not the schedule's
_STAMP_WORD_RE = re.compile(
    r"\b(?:od|aktualiz\w*|obowiązuj\w*|stan\s+na|ważn\w*|zmian\w*|porząd\w*|rozkład\w*|msz\w*|godzin\w*)\b",
    re.IGNORECASE,
)
_DATE_WORDS = {"r", "roku", "dnia", "dn"}  # the words a date alone is written with
STAMP_LINE_WORDS = 4  # a line with a date and this many other words at most is a stamp by its place
STAMP_WORDED_WORDS = 10  # ... and with a word of validity or of the order, this many
HISTORY_BEFORE = "2000"  # a schedule dated before this year is history, no evidence of today's order


def _stamp_line(line: str) -> bool:
    """Whether a date on ``line`` may date the schedule below it: a short line, or a heading-long one with a
    word of validity or of the order (not a sentence of history that names a Mass: "Ks. Jerzy, podczas Mszy
    za Ojczyznę w dniu 04 grudnia 1983, powiedział")."""
    words = [w for w in re.findall(r"[^\W\d_]+", line) if w.casefold() not in _DATE_WORDS]
    return len(words) <= STAMP_LINE_WORDS or (
        len(words) <= STAMP_WORDED_WORDS and bool(_STAMP_WORD_RE.search(line))
    )


def _winners(said: list[_Page]) -> dict[tuple[str, str | None, str | None], _Page]:
    """For each (day, church, season) some page states, the page whose times stand: by rank, but a copy
    whose times another copy holds and adds to (a fragment the site template left, "8:00 – kościół", or a
    copy that read fewer) gives way to it unless it is dated newer."""
    by_key: dict[tuple[str, str | None, str | None], list[_Page]] = defaultdict(list)
    support: dict[tuple, int] = defaultdict(int)  # (day, church, season, time): the pages stating it
    for p in said:
        for key, times in p.stated.items():
            by_key[key].append(p)
            for time in times:
                support[(*key, time)] += 1
    winners = {}
    for key, ps in by_key.items():
        best = max(ps, key=lambda p: p.rank(key, support))
        newer = best.date or ""
        fuller = [p for p in ps if best.stated[key] < p.stated[key] and not newer > (p.date or "")]
        winners[key] = max(fuller, key=lambda p: p.rank(key, support)) if fuller else best
    return winners


def _schedule(
    weekly: list[_Weekly],
    winners: dict[tuple[str, str | None, str | None], _Page],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Weekly entries by (time, church, season, vigil) with their days, and the times that lost a conflict."""
    entries: dict[tuple[Any, ...], _Entry] = defaultdict(_Entry)
    lost: dict[tuple[Any, ...], _Entry] = defaultdict(_Entry)
    for w in weekly:
        hour = w.hour
        church, season, time = hour.get("church"), hour.get("season"), hour["time"]
        key = (time, church, season, bool(hour.get("vigil")))
        for day in hour["days"]:
            said = _said_key(day, hour)
            winner = winners[said]
            # "18.00 (w sobotę Msza niedzielna)" under the weekdays: the vigil on Saturday only
            day_key = key if day == "sat" or not key[3] else (time, church, season, False)
            if winner is w.said or time in winner.stated[said] or winner.failed_to_read(day, time):
                entries[day_key].add(day, w)
            else:
                lost[(said[0], *day_key)].add(day, w)
    _season_complement(entries)
    _vigil_once(entries)
    schedule = [_entry_dict(k, e) for k, e in entries.items() if e.days]  # never a weekly Mass on no day
    schedule.sort(key=lambda s: (min((DAY_ORDER[d] for d in s["days"]), default=99), s["time"]))
    conflicts = [
        {**_entry_dict(k[1:], e), "kept": winners[(k[0], k[2], k[3])].url}
        for k, e in lost.items()
        if not (k[1:] in entries and _day_of(k[0]) in entries[k[1:]].days)
    ]
    return schedule, conflicts


def _dayless(dayless: list[_Weekly]) -> list[dict[str, Any]]:
    """The weekly-read Masses no page gave a day, by (time, church, season, vigil): kept apart from the
    schedule for review (results.csv's unknown_day), never a Mass on some day."""
    entries: dict[tuple[Any, ...], _Entry] = defaultdict(_Entry)
    for w in dayless:
        h = w.hour
        entries[(h["time"], h.get("church"), h.get("season"), bool(h.get("vigil")))].add(None, w)
    return sorted((_entry_dict(k, e) for k, e in entries.items()), key=lambda d: d["time"])


def _day_of(said_day: str) -> str:
    return "holiday" if said_day == _WITH_SUNDAY else said_day


def _vigil_once(entries: dict[tuple[Any, ...], _Entry]) -> None:
    """A Saturday time that is the vigil is not a weekday Mass of Saturday as well ("Niedziela: sobota 18:00"
    and "Dni powszednie: 18:00" are one Mass on Saturday)."""
    vigils = {(t, church, season) for (t, church, season, vigil), e in entries.items() if vigil and e.days}
    for (time, church, season, vigil), e in entries.items():
        if not vigil and (time, church, season) in vigils:
            e.days.discard("sat")


def _season_complement(entries: dict[tuple[Any, ...], _Entry]) -> None:
    """Where a church's day has times of a season with a rest of the year (summer, winter, a date range:
    reading.complement), its all-year times missing from them are of that rest, and its seasonal times that
    are all-year ones too are just all-year: "6.00, 18.00 (lipiec, sierpień: 6.00, 19.00)" is 6.00 all year,
    18.00 outside summer, 19.00 in summer. A time held in both halves ("w roku szkolnym" and "w wakacje") is
    all-year; a seasonal time said of one time or added ("aside": "18.00 (w wakacje 20.00)", "latem
    dodatkowo o 21.00") completes nothing."""
    # a vigil's summer times are the vigil's own: a weekday summer time on Saturday leaves it all-year
    year: dict[tuple[str, str | None, bool], set[str]] = defaultdict(set)
    # the times of the rest of the year besides a season's: all-year ones and those held but in Advent or Lent
    rest: dict[tuple[str, str | None, bool], set[str]] = defaultdict(set)
    seasonal: dict[tuple[str, str | None, bool], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    # every seasonal time, said of one time or listed: one held in both halves is all-year either way
    halves: dict[tuple[str, str | None, bool], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for (time, church, season, vigil), e in entries.items():
        for day in e.days:
            if season is None:
                year[(day, church, vigil)].add(time)
                rest[(day, church, vigil)].add(time)
                continue
            halves[(day, church, vigil)][same_half(season)].add(time)
            if day in e.listed:
                seasonal[(day, church, vigil)][same_half(season)].add(time)
            if _all_but_liturgical(season):
                rest[(day, church, vigil)].add(time)
    for (time, church, season, vigil), e in entries.items():
        if season is not None:
            # "Roraty w dni powszednie o 7:00" where 7:00 is the weekday Mass all year: the same Mass
            e.days -= {day for day in e.days if time in year[(day, church, vigil)]}
    for (time, church, season, vigil), e in list(entries.items()):
        for day in sorted(e.days - {"holiday"}):
            held = seasonal.get((day, church, vigil), {})
            named = _replacing(held, rest[(day, church, vigil)])
            if season is None and named is not None and time not in held[named]:
                _move(entries, e, day, (time, church, complement(named), vigil))
            elif season is not None and time in halves[(day, church, vigil)].get(
                complement(same_half(season)) or "", ()
            ):
                _move(entries, e, day, (time, church, None, vigil))  # "w roku szkolnym" and "w wakacje"


def _all_but_liturgical(season: str | None) -> bool:
    """ "not-advent", "not-lent": a time held all year but a few weeks of the liturgical calendar."""
    tag = SEASONS.get(season or "")
    return tag is not None and bool(tag.complement) and all(SEASONS[c].liturgical for c in tag.complement)


_OTHER_HALF = {"summer": "winter", "winter": "summer"}  # a day with times of both has all-year ones too


def _replacing(held: Mapping[str, set[str]], all_year: set[str]) -> str | None:
    """The season whose times on a day are an order of their own, replacing the all-year times it lacks
    (their season becomes its rest): not a negation ("oprócz wakacji", "zimą nie ma"), and listing as many
    times as the rest of the year has without it ("13:15 od IX do VI" among five Sunday Masses is one more
    Mass, and "7:00, 18:00 (zimą 17:00)" a variant of 18:00 only, not another order); nor one of two halves
    the day has times of ("zimą 17.00, latem 18.00": the other times are the year's)."""
    for season, times in held.items():
        rest = complement(season)
        if rest is None or season.startswith("not-"):  # "oprócz wakacji", "zimą nie ma Mszy o 7.00"
            continue
        if _OTHER_HALF.get(season) in held:  # "6.30; 17.00 (zimą), 18.00 (latem)": 6.30 is all year
            continue
        lacked = (all_year | held.get(rest, set())) - times
        if len(times) < len(lacked):
            continue
        if season in SEASONS and SEASONS[season].liturgical and not _near(times - all_year, lacked):
            continue  # "18.00; w Adwencie Roraty o 6.30" is one Mass more; "18:30, w Adwencie 18:00" moves it
        return season
    return None


def _near(times: set[str], others: set[str]) -> bool:
    """Whether each of ``others`` is within two hours of one of ``times``: a Mass moved, not one added."""
    minutes = [int(t[:2]) * 60 + int(t[3:]) for t in times]
    return all(any(abs(int(o[:2]) * 60 + int(o[3:]) - m) <= 120 for m in minutes) for o in others)


def _move(entries: dict[tuple[Any, ...], _Entry], e: _Entry, day: str, key: tuple[Any, ...]) -> None:
    """One day of an entry moved to the entry of ``key`` (another season), with its pages and evidence."""
    e.days.discard(day)
    moved = entries[key]
    moved.days.add(day)
    moved.pages |= e.pages
    moved.evidence = moved.evidence or list(e.evidence)


_FROM_RE = re.compile(
    rf"\b(?:od|począwszy\s+od|poczynając\s+od)\s+(?:dnia\s+)?{DAY_BEFORE_DATE}", re.IGNORECASE
)


def starts_on(sentence: str, page_year: int | None) -> str | None:
    """The date an announced schedule starts from, in the hour's sentence: "Od 1 lipca Msze św. w niedziele:
    8:00" -> "07-01" (with the page's year when it writes one: "2025-07-01")."""
    for m in _FROM_RE.finditer(sentence):
        found = dates_in(sentence[m.end() : m.end() + 30], bounds=True)
        if found and found[0][0] == 0:
            year, month, day = with_year(found[0][2], page_year)
            return f"{year:04d}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"
    return None


def _entry_dict(key: tuple[Any, ...], e: _Entry) -> dict[str, Any]:
    time, church, season, vigil = key
    extra = {"valid_from": e.valid_from} if e.valid_from else {}
    extra |= {"tags": e.tags} if e.tags else {}  # optional in results.jsonl: "en", "latin", ...
    return extra | {
        "time": time,
        "days": sorted(e.days, key=DAY_ORDER.__getitem__),
        "church": church,
        "season": season,
        "vigil": vigil,
        "evidence": e.evidence,
        "pages": len(e.pages),
    }
