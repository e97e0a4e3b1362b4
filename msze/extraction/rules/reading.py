"""What a page says about each Mass next to its time: church, season, one-off or weekly, date, tags, and
which times are confession.

The walk (walk.py) gives every hour three pieces of its line: its *own* words (since the previous hour of
its clause, and up to the next one), the clause's *prefix* (the words before the clause's first hour: "W
okresie wakacji Msze o 9 i 11" speaks of both), and the *block* state of the headings above ("Kaplica w
Zalesiu:", "PORZĄDEK PODCZAS WAKACJI", "PONIEDZIAŁEK 26.10"). The nearest piece that says something wins.
After the walk, :func:`finish` reads the schedule as a whole: "dni powszednie" drops Saturday when Saturday
has its own times, a Saturday-evening time under Sunday is the vigil, "w wakacje nie ma Mszy o 6:30" marks
the 6:30 of the schedule, and a date gives its weekday.
"""

from __future__ import annotations

import calendar
import datetime
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from msze.extraction.rules.cues import EXCEPT_WORD, MASS_CUE_RE, OTHER_CUE_RE
from msze.extraction.rules.days import (
    AS_WELL_RE,
    DAY_ANY_RE,
    MON_SAT,
    PARENS_RE,
    SUN_HOLIDAY,
    VIGIL_WORDS,
    WEEK,
    Days,
    days_of,
)
from msze.extraction.rules.days import MONTH_WORDS as _MONTH_WORDS
from msze.utils.vocabulary import SEASONS, dated_season, season_range, season_spans

_MONTH_NUMBER = {w: i + 1 for i, w in enumerate(_MONTH_WORDS.split("|"))}
_ROMAN = {
    r: i + 1 for i, r in enumerate(("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"))
}
# "21.10.2025", "26.10", "21 października 2025", "1 XI": day and month (and year); not a time "18.00"
DATE_RE = re.compile(
    r"(?<![\d.:])(?P<d>[0-3]?\d)\.(?P<m>0?[1-9]|1[0-2])(?:\.(?P<y>(?:19|20)\d\d)(?!\d)|(?![\d:])(?!\.\d))"
    rf"|(?<!\d)(?P<d2>[0-3]?\d)\s+(?P<mw>{_MONTH_WORDS})(?:\s+(?P<y2>(?:19|20)\d\d))?\b"
    r"|(?<!\d)(?P<d3>[0-3]?\d)\s*(?P<mr>(?-i:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))\b(?:\s+(?P<y3>(?:19|20)\d\d))?",
    re.IGNORECASE,
)
# every date starts where a number does: DATE_RE is tried there only (_date_matches)
_NUMBER_RE = re.compile(r"\d+")
# "2025", not in a longer number; the "no digit before" is checked after the "2" so that the regex engine can
# skip to the next "2" (a look-behind first makes it try every position)
_YEAR_RE = re.compile(r"(2(?<!\d2)0[0-3]\d)(?!\d)")
# "od niedzieli 26 kwietnia": the weekday a bound falls on may stand between "od" and its date
DAY_BEFORE_DATE = r"(?:(?:poniedzia|wtor|środ|czwart|piąt|sobot|niedziel)\w*,?\s+)?"
NEXT_WORD = r"(?:najbliższ|przyszł|następn)\w+"  # "od najbliższej niedzieli", "od przyszłego tygodnia"
# "od 1 lipca", "do 31 sierpnia", "od najbliższej niedzieli, 29 marca": a date that bounds a season or starts
# an order, not the day of a one-off Mass; a dash bounds
# one after a date only ("1 – 15 sierpnia"; "Wniebowzięcie – 15 sierpnia – 8.00" is the feast's day)
_BOUND_BEFORE_RE = re.compile(
    rf"(?:\bod|\bdo|\bpo|\bprzed|(?:\d|\b(?:{_MONTH_WORDS}|(?-i:[IVX]+)))\.?\s*[-–])\s*(?:dnia\s+)?"
    rf"(?:{NEXT_WORD}\s+)?{DAY_BEFORE_DATE}$",
    re.IGNORECASE,
)
# a range's bound: "1.07", "1 lipca", "1 VII", "połowy lipca" (the 15th)
_RANGE_BOUND = (
    r"(?:(?P<d{0}>[0-3]?\d)(?:\.(?P<m{0}>0?[1-9]|1[0-2])\.?|\s+(?P<w{0}>{1})"
    r"|\s*(?P<r{0}>(?-i:XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I))\b)|(?P<h{0}>połow\w*)\s+(?P<hw{0}>{1}))"
)
_RANGE_RE = re.compile(
    rf"\bod\s+(?:dnia\s+)?{_RANGE_BOUND.format(1, _MONTH_WORDS)}"
    rf"\s+do\s+(?:dnia\s+)?{_RANGE_BOUND.format(2, _MONTH_WORDS)}",
    re.IGNORECASE,
)
# "(01.10-31.03)": two dates joined by a dash bound a season, the first as the second does
_DASHED_DATES_RE = re.compile(
    r"(?<![\d.:])(?P<d1>[0-3]?\d)\.(?P<m1>0?[1-9]|1[0-2])\.?\s*[-–]\s*(?P<d2>[0-3]?\d)\.(?P<m2>0?[1-9]|1[0-2])\b(?![.:]\d)"
)

# "oprócz", "poza", "za wyjątkiem": the season named next is the one the time is not held in
_EXCEPT = (
    r"(?:opr[óo]cz|poza|z[a]?\s+wyjątkiem|z\s+wyj\.|z\s+wyłączeniem|wyjąwszy|bez)\s+"
    r"(?:okres\w*\s+|czas\w*\s+|sezon\w*\s+)?"  # "poza sezonem letnim"
)
_NOT_A_SUNDAYS = "".join(rf"(?<!{w}\s)" for w in ("niedziela", "niedzieli", "niedzielę", "niedzielą"))
_SEASONS: list[tuple[str, str]] = [
    # order matters: "poza wakacjami" before "wakacje", "poza feriami" before "poza wakacjami"
    (rf"{_EXCEPT}(?:wakac\w*\s+i\s+)?feri\w*", "not-holidays"),
    (
        rf"{_EXCEPT}(?:wakac\w*|lat[ae]m?|letni\w*|lipc\w*\s+i\s+(?:w\s+)?sierp\w*|miesięc\w*\s+letni\w*)"
        r"|(?:nie\s+ma|nie\s+będzie|nie\s+odprawia\s+się)\b[^.;\n]{0,40}\b(?:w\s+)?(?:wakac\w*|lat\w*)",
        "not-summer",
    ),
    (r"wakac\w*\s+i\s+feri\w*|feri\w*\s+i\s+wakac\w*|feri\w*", "holidays"),
    # summer ("lato", "latem", "w lecie"; not "na lata 2023-2024", years)
    (
        r"wakac\w*|lat(?:o|em)\b|w\s+lecie\b|letni\w*|lipc\w*\s+i\s+(?:w\s+)?sierp\w*|lipiec\s*[-–,i]?\s*sierpień"
        r"|in\s+summer\b",  # a parish's English page
        "summer",
    ),
    # "w okresie wiosenno-jesiennym"
    (r"wiosenno[\s-]*jesienn\w*|wiosną\s+i\s+jesienią", "not-summer-winter"),
    # "od Adwentu do Wielkanocy": the colder half of the year, as winter; "od Wielkanocy do Adwentu" its rest
    (r"od\s+wielkanoc\w*\s+do\s+adwent\w*", "not-winter"),
    (r"od\s+adwent\w*\s+do\s+(?:wielkanoc\w*|wielkiego\s+postu|świąt\s+wielkanoc\w*)", "winter"),
    (r"zim(?:[aąę]|ie)\b|zimow\w*|in\s+winter\b", "winter"),  # "zima", "zimą", "w zimie", "okres zimowy"
    (r"rok\w*\s+szkoln\w*|roku\s+szkolnego", "school-year"),
    # ("II Niedziela Adwentu", "IV niedziela Wielkiego Postu" name one Sunday: an announcements date)
    # "poza Adwentem", "(oprócz Adwentu)", "oprócz niedziel w Wielkim Poście" (a Sunday's time)
    (rf"{_EXCEPT}(?:niedziel\w*\s+)?(?:w\s+)?adwen\w*", "not-advent"),
    (rf"{_EXCEPT}(?:niedziel\w*\s+)?(?:w\s+)?wielk\w+\s+po(?:st|ści)\w*", "not-lent"),
    (rf"{_NOT_A_SUNDAYS}adwen\w*|rorat\w*", "advent"),
    (rf"{_NOT_A_SUNDAYS}wielk\w+\s+po(?:st|ści)\w*|post\w*\s+wielk\w*", "lent"),  # "w Wielkim Poście"
    (r"w\s+maju\b|nabożeństw\w*\s+majow\w*|\bmaj\b", "may"),
    (r"w\s+październiku\b|\bpaździernik\b", "october"),
    (r"(?:czas\w*|okres\w*)\s+(?:pandemi|epidemi)\w*", "pandemic"),  # the temporary schedules of 2020–2021
]
_SEASON_RE = re.compile(
    r"\b(?=[^\W\d_])(?:" + "|".join(f"(?P<s{i}>{p})" for i, (p, _) in enumerate(_SEASONS)) + ")", re.I
)
_SEASON_NAMES = [name for _, name in _SEASONS]
_ALL_YEAR_RE = re.compile(r"\b(?:cały\w*\s+rok\w*|w\s+ciągu\s+roku(?!\s+szkoln))\b", re.IGNORECASE)

_TAGS: list[tuple[str, str]] = [
    (r"dzieci\w*|dziecięc\w*|przedszkol\w*", "children"),
    (r"młodzież\w*|młodzieżow\w*", "youth"),
    (r"akademick\w*|student\w*", "students"),
    (r"sum[aąy]\b", "suma"),
    (r"trydenck\w*|nadzwyczajn\w*\s+form\w*|usus\s+antiquior|vetus\s+ordo", "tridentine"),
    (r"łacin\w*|łacińsk\w*", "latin"),
    (r"(?:po|w\s+języku)\s+angielsk\w*|in\s+english", "en"),
    (r"(?:po|w\s+języku|obrządk\w*)\s+ukraińsk\w*|greckokatolick\w*", "uk"),
    (r"(?:po|w\s+języku)\s+niemieck\w*", "de"),
    (r"(?:po|w\s+języku)\s+(?:włosk\w*)", "it"),
    (r"(?:po|w\s+języku)\s+(?:francusk\w*)", "fr"),
    (r"(?:po|w\s+języku)\s+(?:hiszpańsk\w*)", "es"),
    (r"(?:po|w\s+języku)\s+(?:litewsk\w*)", "lt"),
    (r"(?:po|w\s+języku)\s+(?:białorusk\w*)", "be"),
    (r"(?:po|w\s+języku)\s+(?:wietnamsk\w*)", "vi"),
    (r"(?:po|w\s+języku)\s+(?:migow\w*)", "sign"),
    (r"transmisj\w*|transmitowan\w*|online|on-line|na\s+żywo|youtube", "broadcast"),
    (r"rodzin\w*", "families"),
    (r"chorych|chorzy", "sick"),
]
_TAG_RE = re.compile(
    r"\b(?=[^\W\d_])(?:" + "|".join(f"(?P<t{i}>{p})" for i, (p, _) in enumerate(_TAGS)) + ")", re.I
)
_TAG_NAMES = [name for _, name in _TAGS]

# an announced single occasion: a funeral, a wedding, a feast, "w przyszłą niedzielę", a dated Mass
ONE_OFF_RE = re.compile(
    r"\b(?=[^\W\d_])(?:pogrzeb\w*|eksporta\w*|ślub\w*|sakrament\w*\s+małżeństwa|pasterk\w*|rezurekcj\w*"
    r"|cmentarz\w*|odpust\w*|jubileusz\w*|rocznic\w*|(?:i|pierwsz\w+)\s+komuni\w*|bierzmowani\w*"
    r"|wszystkich\s+świętych|zaduszn\w*|popielcow\w*|wielk\w+\s+(?:czwart|piąt|sobot)\w*|wielkanoc\w*"
    r"|bożego?\s+narodzeni\w*|boże\w*\s+ciał\w*|wigili\w*\s+paschaln\w*|wniebowzięci\w*|objawieni\w*\s+pańsk"
    r"\w*|nowy\s+rok|sylwest\w*|trzech\s+króli|matki\s+bożej\s+(?:gromnicznej|zielnej|siewnej)"
    r"|w\s+przyszł\w+|w\s+najbliższ\w+|jutr[oz]\w*|dzisiaj|dziś|w\s+dniu\b|drug\w+\s+(?:dzie\w*|dni\w*)\s+świąt\w*"
    r"|(?:w\s+)?następując\w*\s+(?:dni\w*|niedziel\w*|poniedział\w*|wtork\w*|środ\w*|czwartk\w*|piątk\w*|sobot\w*)"
    r"|terminy\s+msz\w*)",  # "w następujące czwartki: 18 stycznia, 22 lutego": the dates listed
    re.IGNORECASE,
)
# "od Wielkanocy do ...", "w okresie Bożego Narodzenia": a feast that bounds a season, no single occasion;
# "w kaplicy na cmentarzu": a place of the weekly schedule
_SEASON_BOUND_BEFORE_RE = re.compile(
    r"(?:\bod|\bdo|\bpo|\bprzed|\bokres\w*|[-–]|kaplic\w*\s+(?:na|przy))\s*$", re.IGNORECASE
)


# an announcement repeating the regular order ("porządek Mszy bez zmian", "jak zawsze", "według stałego
# porządku", "przywrócony porządek"): this week's order is the usual one
REGULAR_ORDER_RE = re.compile(
    r"bez\s+zmian|(?:zwyk[łl]\w*|sta[łl]\w*|dotychczasow\w*)\s+porz[ąa]d|jak\s+zawsze|jak\s+dotychczas"
    r"|przywr[óo]c\w*\s+(?:zostaje\s+|został\s+)?porz[ąa]d",  # "zostaje przywrócony porządek Mszy"
    re.IGNORECASE,
)
THIS_WEEK_RE = re.compile(r"\bw\s+(?:tym|bieżącym)\s+tygodniu", re.IGNORECASE)


# "(z wyjątkiem I dnia świąt Bożego Narodzenia)": the feast is the day a weekly Mass is not held
_EXCEPTED_FEAST_RE = re.compile(rf"{EXCEPT_WORD}[^\d()]{{0,50}}$", re.I)
_EXCEPT_WORD_RE = re.compile(EXCEPT_WORD, re.I)


def excepts(text: str) -> bool:
    """Whether ``text`` takes something out ("13:00 (oprócz lipca)"): its season is no order of its own."""
    return _EXCEPT_WORD_RE.search(text) is not None


def one_off_in(text: str) -> bool:
    """Whether ``text`` announces a single occasion (a funeral, a feast, "w przyszłą niedzielę"), or this
    week's Mass ("W tym tygodniu w środę Msza o 18.00"; "w tym tygodniu porządek bez zmian" is the usual)."""
    if THIS_WEEK_RE.search(text) and not REGULAR_ORDER_RE.search(text):
        return True
    return any(
        not _SEASON_BOUND_BEFORE_RE.search(text, max(0, m.start() - 16), m.start())
        and not _EXCEPTED_FEAST_RE.search(text, max(0, m.start() - 64), m.start())
        and not _village_adjective(text, m)
        for m in ONE_OFF_RE.finditer(text)
    )


# the word before "Wielka sobota": "Łęka Wielka sobota 18.00" is a village's Saturday, not Holy Saturday
_WORD_BEFORE_RE = re.compile(r"(?P<w>[^\W\d_]+)\s+$")


def _village_adjective(text: str, feast: re.Match[str]) -> bool:
    """ "Łęka Wielka sobota", "Kamień Wielki piątek": the village's name, not Holy Saturday or Good Friday."""
    if not feast.group().lower().startswith("wielk"):
        return False
    before = _WORD_BEFORE_RE.search(text, max(0, feast.start() - 30), feast.start())
    return before is not None and before["w"][0].isupper() and place_named(before["w"]) is not None


# a Mass held once a month: "I piątek miesiąca", "w pierwsze soboty", "13 dnia każdego miesiąca", "trzecia
# niedziela m-ca" (or "mies.")
# ("I" is the Roman numeral only: "w piątki i soboty" is two weekly days; "ostatniej niedzieli października"
# is a date)
MONTHLY_RE = re.compile(
    r"\b(?:(?:(?-i:I)(?:-\w+)?|pierwsz\w+|ostatni\w*)\s+(?:piąt|sobot|czwart|niedziel|środ|poniedzia|wtor)\w*"
    rf"(?!\s+(?:{_MONTH_WORDS}|adwentu|wielkiego)\b)|miesiąca|m-ca|mies(?=\.)|miesięczn\w*)\b",
    re.IGNORECASE,
)
# the week and day of a monthly Mass: "w I piątki", "I-sze piątki", "1-wsze soboty", "1. piątek", "pierwszą
# sobotę", "w trzecią niedzielę miesiąca", "ostatnia niedziela miesiąca"
_MONTHLY_DAY_RE = re.compile(
    r"\b(?:(?P<roman>(?-i:IV|III|II|I)|[1-4](?=-|\.))(?:-\w+|\.)?|(?P<word>pierwsz|drug|trzec|czwart|ostatni)\w*)\s+"
    r"(?P<day>poniedzia|wtor|środ|czwart|piąt|sobot|niedziel)\w*"
    rf"(?!\s+(?:{_MONTH_WORDS}|adwentu|wielkiego|wielkanoc\w*)\b)",
    re.IGNORECASE,
)
_MONTH_WEEK = {
    "pierwsz": 1,
    "drug": 2,
    "trzec": 3,
    "czwart": 4,
    "ostatni": -1,
    "I": 1,
    "II": 2,
    "III": 3,
    "IV": 4,
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
}
_DAY_STEM = {"poniedzia": "mon", "wtor": "tue", "środ": "wed", "czwart": "thu", "piąt": "fri", "sobot": "sat",
             "niedziel": "sun"}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Monthly:
    """A monthly Mass's week of the month (1 the first … -1 the last) and day, and whether other days were
    named before it in its list ("we wtorki, piątki i pierwszą sobotę": those stay weekly)."""

    week: int
    day: str
    after_days: bool = False
    end: int = 0  # where the phrase ends in the text it was read from


def monthly_in(text: str) -> Monthly | None:
    """The first monthly day ``text`` names ("w pierwsze piątki miesiąca"), None for none."""
    m = _MONTHLY_DAY_RE.search(text)
    if m is None:
        return None
    week = _MONTH_WEEK[m["roman"] or m["word"].lower()]
    return Monthly(week, _DAY_STEM[m["day"].lower()], bool(DAY_ANY_RE.search(text, 0, m.start())), m.end())


# "W drugi dzień świąt Msze jak w niedzielę: 6.30, 9.30", "w porządku niedzielnym": the Sunday order's times
AS_SUNDAY_RE = re.compile(
    r"\b(?:jak|tak\s+jak)\s+(?:w\s+)?(?:każdą\s+)?niedziel\w*"
    r"|\b(?:w\s+porządku|porządkiem|według\s+porządku)\s+niedziel\w*",
    re.I,
)
# "18.00 - ostatnia niedziela miesiąca z udziałem młodzieży", "11:00 – suma; w II i IV niedziele miesiąca -
# chrzty": after a weekly time, who or what some of its days have
_BAPTISM = r"chrzt\w*|chrzest\w*"
_MONTHLY_NOTE_RE = re.compile(rf"\b(?:z\s+udział\w*|{_BAPTISM}|dla\s+\w+|z\s+błogosławieństw\w*)", re.I)
# "12.00 (chrzty II i IV niedziela miesiąca)": the baptisms some Sundays of that weekly Mass have
_BAPTISM_BEFORE_RE = re.compile(rf"\b(?:{_BAPTISM})", re.I)


def monthly_note(after: str, days: Days | None) -> bool:
    """Whether the monthly phrase of an hour's words after it notes who or what that weekly Mass has on some
    of its days ("18.00 - ostatnia niedziela miesiąca z udziałem młodzieży" under Sunday), not a Mass of its
    own ("15.00 (ostatnia niedziela miesiąca)")."""
    m = monthly_in(after)
    return (
        m is not None
        and days is not None
        and m.day in days.days
        and (_MONTHLY_NOTE_RE.search(after, m.end) or _BAPTISM_BEFORE_RE.search(after, 0, m.end)) is not None
    )


CONFESSION_RE = re.compile(
    r"\b(?:spowied\w*|spowiedź|spowiad\w*|sakrament\w*\s+(?:pokuty|pojednania)|pokut\w*|konfesjona\w*)", re.I
)
# "w wakacje nie ma Mszy o 6:30", "(w wakacje bez Mszy o 11:30)", "latem zamiast Mszy o 18.30 jest o 20.30":
# the time is the schedule's, dropped in that season
NO_MASS_RE = re.compile(
    r"\b(?:nie\s+ma|nie\s+będzie|nie\s+(?:jest|zostanie)\s+odprawian\w*|nie\s+odbędzie\s+się|nie\s+odprawia\s+się"
    r"|odwołan\w*|zawieszon\w*|bez\s+(?:msz\w*|godz)|zamiast\s+msz\w*)\b",
    re.I,
)

_CHURCH_WORDS = (
    r"kaplic\w*|kości(?:[oó]|e(?!ln))\w*|filia\w*|filii|filie|filialn\w*|szpital\w*|sanktuari\w*|klasztor\w*|hospicj\w*"
    r"|dom\w*\s+(?:pomocy|opieki|zakonn\w*|sióstr|księży|seniora|rekolekcyjn\w*|spokojnej|parafialn\w*)"
    r"|zakład\w*\s+(?:opieki|karn\w*)|cmentarn\w*|katedr\w*|bazylik\w*|zgromadzeni\w*\s+sióstr"
    # "w krypcie", "punkt katechetyczny w Borkach", "u Sióstr Urszulanek": other places of Mass
    r"|kryp[tc]\w*|punkt\w*\s+(?:katechetyczn|duszpastersk)\w*|ośrod\w*\s+duszpastersk\w*"
    r"|(?<=\bu\s)(?:sióstr|ss\.|ojców|oo\.)"
)
CHURCH_WORD_RE = re.compile(rf"\b(?:{_CHURCH_WORDS})", re.IGNORECASE)
# a chapel, a filial church, a hospital: never the parish church, even named first
_CHAPEL_RE = re.compile(
    r"\b(?:kaplic\w*|filia\w*|filii|filie|filialn\w*|szpital\w*|klasztor\w*|hospicj\w*|dom\w*\s+\w+|zakład\w*"
    r"|cmentarn\w*|zgromadzeni\w*|kryp[tc]\w*|punkt\w*|ośrod\w*|(?<=\bu\s)(?:sióstr|ss\.|ojców|oo\.))",
    re.IGNORECASE,
)
# a Mass on television or the radio ("TVP 1", "Polsat", "Msze święte w radiu", "Program TV")
BROADCAST_RE = re.compile(
    r"\b(?:tvp\w*|polsat\w*|tvn\w*|tv\s+(?:trwam|republika|info|polonia)|telewizj\w*|program\w*\s+tv"
    r"|radio\s+maryja|polskie\s+radio|w\s+radiu|radiow\w*|w\s+tv\b)",
    re.IGNORECASE,
)
# "Msze św. były odprawiane w niedzielę o godz. 7.00", "W tygodniu Msze odprawiano o 6.30", "zmieniono
# porządek Mszy": a parish history's sentence, the times of an order no longer held
HISTORY_RE = re.compile(
    r"\b(?:(?:był[aoy]?|bywał[aoy]?)\s+(?:\w+\s+)?(?:odprawian|sprawowan|celebrowan)\w*"
    r"|(?:odprawian|sprawowan|celebrowan)\w*\s+(?:\w+\s+)?(?:był[aoy]?|bywał[aoy]?)\b"
    r"|odprawiano|sprawowano|celebrowano|zmieniono\s+porządek)",
    re.IGNORECASE,
)
# "(w kaplicy szpitalnej)", "w kaplicy w Zalesiu", "- kaplica Bagrowo", "w kaplicy św. Anny", "(dla dzieci,
# Dolny Kościół)": a church named at one time; its name goes on past "św." and the like
_NAME_PART = r"(?:(?:p\.w|pw|św|bł|ks|bp|abp|o|oo|ss|im|najśw|nmp|mb|ul)\.|[^\W\d][^\d\s,;:()\n.–—]*)"
_INLINE_CHURCH_RE = re.compile(
    rf"\b(?:w|we|na)?\s*(?P<name>(?:(?:doln|górn)\w*\s+)?(?:{_CHURCH_WORDS})(?:[ \t]+{_NAME_PART}){{0,6}})",
    re.IGNORECASE,
)
# where a church's name ends and the rest of the clause goes on: "w kaplicy szpitalnej | w niedziele",
# "w kaplicy Matki Bożej | oraz ...", "w kaplicy sióstr | o godz.", "w Katedrze | będą Msze św.", "w naszym
# kościele | tego dnia sprawujemy"
_NAME_END_RE = re.compile(
    r"\s+(?:o|godz\w*|g\.|oraz|także|również|dla|lub|albo|a|zaś|natomiast|jest|są|będzie|będą|i\s+w|według"
    r"|msz\w*|odprawia\w*|sprawowan\w*|sprawuj\w*|celebr\w*|transmitowan\w*|odbęd\w*|zosta\w*|zaprasza\w*"
    r"|tego|tym|dnia)\b.*|\s+(?:i|oraz)\s*$"
    r"|\s+(?:w|we|od|do)\s+(?=(?:[^\W\d]+\s+)?(?:poniedzia|wtor|środ|czwart|piąt|sobot|niedziel|dni|dzień|tygodni"
    r"|świę|wakac|ferie|feri|lat|zim|okres|roku|czasie|adwen|wielk|maj|paźdz))\w.*",
    re.IGNORECASE,
)
# the lower church of a two-storey church is a place of its own ("11:00 (dla dzieci, Dolny Kościół)"), and so
# is the parish house ("w domu parafialnym")
_MAIN_CHURCH_RE = re.compile(
    r"(?<!\bdomu\s)(?<!\bdom\s)parafialn\w*|^\s*(?:w\s+)?kości(?:ół|ele|oła)\s*$", re.IGNORECASE
)
# a heading saying a church has no Masses (in some season): "Nie są odprawiane Msze w kaplicy", "brak Mszy"
_NO_MASS_THERE_RE = re.compile(r"\b(?:nie\s+(?:ma|są|jest|będzie|będą|odprawia\w*)|brak)\b", re.IGNORECASE)
# what a heading says before the church it names: "i nabożeństwa w", "oraz nabożeństwa w"
_SERVICES_LEAD_RE = re.compile(r"(?:i|oraz)\s+nabo[żz]e[ńn]stw\w*\s+(?:w|we|na)\s+$", re.IGNORECASE)
_HEADING_LEAD_RE = re.compile(
    r"^[\s•*·\-–—>]*(?:\d{1,2}[.)]\s*)?(?:(?:porządek|rozkład|godziny)\s+)?(?:msz[aey]?\s+(?:św\.?|święt\w*)\s*)?"
    r"(?:w|we|na)?\s+",
    re.IGNORECASE,
)

REGULAR, ONE_OFF, MONTHLY = "regular", "one_off", "monthly"


@dataclass(slots=True)
class Reading:
    """One hour's reading: mutable while the walk and :func:`finish` fill it in."""

    days: Days | None = None
    vigil: bool = False
    church: str | None = None
    season: str | None = None
    kind: str = REGULAR
    date: tuple[int | None, int, int] | None = None  # (year or None, month, day)
    dated_above: bool = False  # the date is a heading's (the announcements' Sunday), not the hour's own
    monthly: Monthly | None = None  # held once a month (alone, or besides the weekly days of a REGULAR)
    tags: tuple[str, ...] = ()
    confession: bool = False
    sunday_order: bool = False  # "Msze jak w niedzielę: 6.30, 9.30": a one-off that shows the Sunday order
    sunday_heading: bool = False  # the heading over it names Sunday (a Saturday time there is the vigil)
    vigil_words: bool = False  # "niedzielna", "wigilijna", "z liturgii niedzieli" in its own words
    # a seasonal time said of one time, with the rest of the year of that time, or added to the list ("18:00
    # (w wakacje 20:00)", "18:00 (zimą 17:00)", "latem także o 21:00"): the other times keep their seasons
    aside: bool = False
    # "18:00 (w sobotę o 18:30)": the time before whose parenthesis holds this one, which this one stands in
    # for on its days (the other times of the list keep those days)
    instead_of: str | None = None

    def date_text(self) -> str | None:
        if self.date is None:
            return None
        year, month, day = self.date
        return f"{year:04d}-{month:02d}-{day:02d}" if year else f"{month:02d}-{day:02d}"


@dataclass(slots=True)
class BlockNotes:
    """What the headings above say of the lines below: the church, the season, a date."""

    church: str | None = None
    season: str | None = None
    date: tuple[int | None, int, int] | None = None
    monthly: bool = False
    monthly_day: Monthly | None = None
    main_seen: bool = False  # a Mass time was read: a church heading from now on is another church
    season_read: bool = False  # a time was read under the season heading: a new day heading ends it
    confession: bool = False  # under "Spowiedź:" (the block's topic): its day lines are confession times

    def read_heading(self, line: str) -> None:
        """A short line without hours: a church's name, a season, a date or a new topic."""
        church = church_heading(line)
        if church is not None:
            other = self.main_seen or bool(_CHAPEL_RE.search(line))
            self.church = church if church and other else None
            self.season = None
            # "Kościół parafialny: …" named: "Kościół sanktuaryjny: …" below is another church
            self.main_seen |= church == ""
        season = season_in(line)
        if season is not None or _ALL_YEAR_RE.search(line):
            self.season, self.season_read = season, False
        # "(odpust 16 listopada)" dates no heading, nor a year before 2000 ("konsekr. 20.07.1926": history)
        dates = [d for d in dates_in(PARENS_RE.sub(" ", line)) if (d[2][0] or 2000) >= 2000]
        if dates:
            self.date = dates[-1][2]
        elif church is None:
            self.date = None
        # "I piątek miesiąca:" heads the times below; a sentence ("W pierwszy piątek ... rano.") does not
        self.monthly = bool(MONTHLY_RE.search(line)) and not line.rstrip().endswith(".")
        self.monthly_day = monthly_in(line) if self.monthly else None

    def end(self) -> None:
        """A long line of prose: the headings above no longer speak of what follows."""
        self.church = self.season = self.date = self.monthly_day = None
        self.monthly = self.confession = False


# a parish's list of its churches, as a directory writes it ("Kaplice: Kaplica cmentarna w Borkach.",
# "Kościoły filialne: Zalesie, Borki"): what it says, not a heading over the lines below
_INVENTORY_RE = re.compile(r"\s*(?:kaplice|kościoły|świątynie)(?:\s+[^\W\d]+)?\s*:\s*\S", re.IGNORECASE)


def church_heading(line: str) -> str | None:
    """The church a heading names: "" for the parish church itself, None when it names no church."""
    if not CHURCH_WORD_RE.search(line) or _INVENTORY_RE.match(line):
        return None
    if _MAIN_CHURCH_RE.search(line) or _NO_MASS_THERE_RE.search(line):
        return ""  # "Nie są odprawiane Msze św. w kaplicy": that church's times have ended, no name
    name = _HEADING_LEAD_RE.sub("", line).strip(" \t:•*·-–—")
    word = CHURCH_WORD_RE.search(name)
    if word is not None and _SERVICES_LEAD_RE.match(name, 0, word.start()):
        name = name[word.start() :]  # "Msze św. i nabożeństwa w Kościele Bożego Ciała:": the church's name
    # "1. Msze święte w kaplicy szpitalnej sprawowane są według porządku:": the name, not the sentence
    name = _NAME_END_RE.sub("", name).strip(" \t:•*·-–—")
    return re.sub(r"\s*:\s*", " ", name)[:80] or None  # "Kościół sanktuaryjny: p.w. NMP": one name


_OURS_RE = re.compile(r"\bnasz\w*\s+$", re.IGNORECASE)  # "w naszym kościele": the parish's own
_OWN_CHURCH_RE = re.compile(r"kości|kaplic|sanktuar|świątyn|bazylik|katedr|kolegiat|far[zay]\b", re.I)
# a label over several churches ("Kościoły filialne", "Kaplice:"): no one church of its times
PLURAL_CHURCHES_RE = re.compile(
    r"(?:kościoły|kaplice|filie)(?:\s+(?:filialne|dojazdowe|pomocnicze))?\b", re.IGNORECASE
)


def inline_church(text: str) -> str | None:
    """A church named in an hour's own words ("(w kaplicy szpitalnej)"), None for none or the main one; a
    church word alone after a place is that place's church ("Zalesie (kaplica)", "Zalesie - filia")."""
    found = list(_INLINE_CHURCH_RE.finditer(text))
    if not found:
        return None
    # "Inne kościoły i kaplice: Szyszków – kaplica filialna p.w. ...": the one church the label goes on to
    m = next((m for m in found[1:] if PLURAL_CHURCHES_RE.match(found[0].group("name"))), found[0])
    ours = _OURS_RE.search(text, max(0, m.start("name") - 12), m.start("name"))
    if ours and _OWN_CHURCH_RE.match(m["name"]):
        return None  # "z naszego sanktuarium", "w naszej kaplicy": the parish's own church (not "Domu")
    name = _NAME_END_RE.sub("", m.group("name")).strip(" \t:•*·-–—")
    name = DAY_ANY_RE.split(name, maxsplit=1)[0].strip(" \t:•*·-–—")  # "kaplica Zalesie niedziela"
    season = _SEASON_RE.search(name)
    if season is not None and season.start() > 0:
        name = name[: season.start()].strip(" \t:•*·-–—")  # "kaplica szpitalna lato 17.00, zima 16.00"
    if _BARE_CHURCH_RE.fullmatch(name):
        # "filie: Zalesie 9.30", "kościoły filialne: Zalesie": the place after the label's colon
        after = _PLACE_AFTER_LABEL_RE.match(text, m.end("name"))
        if after is not None and (named := place_named(after["place"])) is not None:
            return named
        if (place := _PLACE_BEFORE_RE.search(text, 0, m.start("name"))) is not None:
            return place_named(place["place"]) or name
    return None if not name or _MAIN_CHURCH_RE.search(name) else name


def names_main_church(text: str) -> bool:
    """An hour's words name the parish church ("..., oraz w kościele o 11.00"): no clause's chapel for it."""
    return CHURCH_WORD_RE.search(text) is not None and inline_church(text) is None


# A church named by its place alone, as diocesan lists write a parish's chapels: "Mączniki godz. 8.00;
# Bagrowo godz. 10.00", "w Rosnówku o 10.00", "godz. 9.30 (Szołdry)", "godz. 17.00 - Nagradowice". The
# words around the hour, less its header, days, seasons and "godz.", are one capitalised name or nothing.
_UPPER, _LOWER = "A-ZĄĆĘŁŃÓŚŹŻ", "a-ząćęłńóśźż"
_NAME_WORD = rf"(?:[{_UPPER}][{_LOWER}]+|[{_UPPER}]{{2,4}})(?:-[{_UPPER}]?[{_LOWER}]+)?"
# "Bagrowo", "Nowa Wieś", a patron alone: "św. Anny", "bł. Karoliny"
_PLACE_NAME_RE = re.compile(
    rf"(?:(?:[śŚ]w|[bB]ł)\.\s+)?{_NAME_WORD}(?:\s+(?:i\s+|nad\s+|pod\s+|k\s+|koło\s+)?{_NAME_WORD}){{0,3}}"
)
# a Mass header up to its colon ("Msze św. w niedziele:"), and the small words of a time ("o godz.")
_PLACE_HEADER_RE = re.compile(r"^[^:]*\bmsz\w*[^:]*:", re.IGNORECASE)
_PLACE_FILLER_RE = re.compile(
    r"(?<![^\W\d_])(?:godz|g|o|w|we|od|do|ok|a|oraz|zaś|natomiast|także|również|podobnie)(?![^\W\d_])\.?"
    r"|[:,;()/•*·▪►]|(?<!\bśw)(?<!\bŚw)(?<!\bbł)(?<!\bBł)\.|(?<!\w)[-–—]|[-–—](?!\w)"
)
# what a capitalised word before a time may be besides a place: a Mass or another event, a church word, an
# occasion, a tag, a month; "Uwaga", "Ks." and people's names ("Ks. Jan") are no place either
_NOT_PLACE_RE = re.compile(
    rf"{MASS_CUE_RE.pattern}|{OTHER_CUE_RE.pattern}|{CHURCH_WORD_RE.pattern}|{ONE_OFF_RE.pattern}"
    rf"|{_TAG_RE.pattern}|{CONFESSION_RE.pattern}|\b(?:{_MONTH_WORDS}|uwag\w*|ks|księ\w*|parafi\w*|wigili\w*)\b"
    r"|\b(?:wieczorn|porann|południow|popołudniow|nocn)\w*",  # "12.00 Wieczorna": when, not where
    re.IGNORECASE,
)
# after its hour a place stands in parentheses, after a dash or "w", or ends the line: "9.30 (Szołdry)"
# ("(11.00 w Glebie)": the parenthesis that holds the time closes after the place)
_PLACE_AFTER_RE = re.compile(
    r"\s*(?:\((?P<p>[^()]+)\)|[-–—]\s*(?P<d>[^,;()]+)|w\s+(?P<w>[^,;()]+))\s*\)?\s*(?:[,;].*)?$"
)
_PARENS_LEAD_RE = re.compile(r"\s*\((?P<f>[^(),;\d]+),")


_ROMAN_WORDS_RE = re.compile(r"[IVX]+(?:\s+(?:i\s+)?[IVX]+)*")
# a church word that names no church by itself ("kaplica", "filia", "kościół filialny"), and the place
# right before it ("Zalesie (kaplica)", "Zalesie - kościół filialny")
_BARE_CHURCH_RE = re.compile(r"(?:kaplic\w*|filia\w*|filii|filie|(?:kości\w*\s+)?filialn\w*)", re.IGNORECASE)
_PLACE_BEFORE_RE = re.compile(
    rf"(?<![^\W\d_])(?P<place>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s*[-–—(]?\s*$"
)
_PLACE_AFTER_LABEL_RE = re.compile(
    rf"\s*:\s*(?P<place>{_NAME_WORD}(?:\s+{_NAME_WORD}){{0,3}})\s*(?:godz\.?|o)?\s*$"
)


def place_named(words_near: str) -> str | None:
    """The place a time's words name by its name alone ("Bagrowo godz.", "w Rosnówku o"), else None."""
    rest = _PLACE_HEADER_RE.sub(" ", words_near)
    # "Łęka Wielka sobota godz.": the village's Saturday, not Holy Saturday
    if any(not _village_adjective(rest, m) for m in _NOT_PLACE_RE.finditer(rest)):
        return None
    rest = _SEASON_RE.sub(" ", _MONTH_RANGE_RE.sub(" ", DAY_ANY_RE.sub(" ", rest)))
    rest = " ".join(_PLACE_FILLER_RE.sub(" ", rest).split()).removeprefix("i ")  # "i w Borkach o": Borki
    # "VIII", "XI,XII": months or ordinals, no place
    return rest if _PLACE_NAME_RE.fullmatch(rest) and not _ROMAN_WORDS_RE.fullmatch(rest) else None


def place_in_parens(words_after: str) -> str | None:
    """The place named in parentheses right after a time ("8.00 (Borki)"), else None."""
    m = _PLACE_AFTER_RE.match(words_after)
    return place_named(m["p"]) if m is not None and m["p"] else None


def place_leading_parens(text: str) -> str | None:
    """The place a time's parenthesis names first: "10:00 (Borki, w wakacje 9:30)", whose variant inside
    is held there too."""
    m = _PARENS_LEAD_RE.match(text)
    return place_named(m["f"]) if m is not None else None


def place_after(words_after: str, line_end: bool) -> str | None:
    """The place named right after a time: "(Szołdry)", "– Nagradowice", "w Kotuszu"; or a bare name that
    ends the line ("12.00 DPS-Osiek") or its list item ("8.00 Pysząca, 9.00")."""
    m = _PLACE_AFTER_RE.match(words_after)
    if m is not None:
        return place_named(m["p"] or m["d"] or m["w"])
    return place_named(words_after) if line_end else place_before_comma(words_after)


def place_before_comma(words_after: str) -> str | None:
    """A bare name between a time and the comma before the next time: "8.00 Borki, 9.30" is 8.00 in Borki
    (a name after the comma, "8.00, Borki 9.30", is the next time's)."""
    m = _BEFORE_COMMA_RE.fullmatch(words_after)
    return place_named(m["n"]) if m is not None else None


_BEFORE_COMMA_RE = re.compile(r"\s+(?P<n>[^\W\d][^,;()\d]*?)\s*,\s*")


# a month named: "września" (as in dates), "wrzesień" (as in headings)
_MONTH_NAME = (
    r"stycz(?:eń|nia)|lut(?:y|ego)|mar(?:zec|ca)|kwie(?:cień|tnia)|maj[a]?|czerw(?:iec|ca)|lip(?:iec|ca)"
    r"|sierp(?:ień|nia)|wrze(?:sień|śnia)|październik[a]?|listopad[a]?|grud(?:zień|nia)"
)
_MONTH_PREFIXES = ("sty", "lut", "mar", "kwi", "maj", "cze", "lip", "sie", "wrz", "paź", "lis", "gru")
ROMAN_MONTH = r"XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I"
_ROMAN_DASHED = r"XII|XI|X|IX|VIII|VII|VI|V|IV|III|II"  # "I-III klasy": the first month is no dashed range's
# a movable feast that bounds a season, by the month it falls in: "od Wielkanocy", "od Wielkiego Tygodnia"
# (April), "do Niedzieli Bożego Miłosierdzia" (Easter's octave: April), "do Wszystkich Świętych" (November);
# a season to a feast ends the month before it
_EASTER_BOUND = (
    r"wielkanoc\w*|wielk\w+\s+noc\w*|wielk\w+\s+tygodni\w*|niedziel\w+\s+(?:palmow|wielkanocn)\w*"
    r"|zmartwychwstani\w*|niedziel\w+\s+(?:bożego\s+)?miłosierdzia"
)
_FEAST_BOUND = rf"(?P<{{0}}>{_EASTER_BOUND})|(?P<{{1}}>wszystkich\s+świętych)"
# "do I niedzieli października": up to that month's first week, the month before it the last one held
_FIRST_SUNDAY = r"(?:(?-i:I)|1|pierwszej)\.?\s+niedziel\w*\s+"
# "od IX do VI", "od maja do (końca) września", "(IX-VI)", "wrzesień–czerwiec": whole months; "od
# Wielkanocy do 1 niedzieli października" the months the feast and that Sunday fall in
_MONTH_RANGE_RE = re.compile(
    rf"\bod\s+(?:{_FIRST_SUNDAY})?"
    rf"(?:(?P<r1>{ROMAN_MONTH})|(?P<w1>{_MONTH_NAME})|{_FEAST_BOUND.format('e1', 'a1')})"
    rf"\s+do\s+(?:końca\s+)?(?P<sun2>{_FIRST_SUNDAY})?"
    rf"(?:(?P<r2>{ROMAN_MONTH})|(?P<w2>{_MONTH_NAME})|{_FEAST_BOUND.format('e2', 'a2')})\b"
    rf"|\b(?:(?P<r3>{_ROMAN_DASHED})\s*[-–—]\s*(?P<r4>{ROMAN_MONTH})|(?P<w3>{_MONTH_NAME})\s*[-–—]\s*(?P<w4>{_MONTH_NAME}))"
    r"\b(?![.,]?\d|\s*klas)",
    re.IGNORECASE,
)
_MONTH_DAYS = (31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
Date = tuple[int | None, int, int]  # (year or None, month, day)


def possible_date(year: int | None, month: int, day: int) -> bool:
    """Whether the day exists: in that year, or (no year) in a leap year; "30.02", "31.11", "00.05", "32.01"
    are no dates, and "29.02.2025" is none either."""
    if not (1 <= month <= 12 and 1 <= day <= _MONTH_DAYS[month - 1]):
        return False
    return year is None or month != 2 or day < 29 or calendar.isleap(year)


def with_year(date: Date, year: int | None) -> Date:
    """A date without a year given `year` (the page's); left without one when that year lacks the day
    ("29.02" on a page of 2025)."""
    if date[0] is not None or year is None or not possible_date(year, date[1], date[2]):
        return date
    return (year, date[1], date[2])


def _range_bound(r: re.Match[str], i: str) -> tuple[int, int]:
    """The (day, month) of a _RANGE_RE bound: "1.07", "1 lipca", "1 VII", "połowy lipca" (the 15th)."""
    if r["h" + i]:
        return 15, _MONTH_NUMBER[r["hw" + i].lower()]
    if r["m" + i]:
        return int(r["d" + i]), int(r["m" + i])
    if r["r" + i]:
        return int(r["d" + i]), _ROMAN[r["r" + i]]
    return int(r["d" + i]), _MONTH_NUMBER[r["w" + i].lower()]


# "od października", "od 1 października", "od X": a season's start named alone
_FROM_MONTH_RE = re.compile(
    rf"\bod\s+(?:1\s+|dnia\s+1\s+)?(?:(?P<r>(?-i:{ROMAN_MONTH}))\b|(?P<w>{_MONTH_NAME})\b)(?!\s+do\b)", re.I
)


def starts_rest_of_year(text: str, named: str | None) -> bool:
    """ "od maja do września 19.00, od października 18.00": ``text`` starts the rest of the year of the season
    named before (its complement begins in the month named), so the time is held the rest of the year."""
    rest = season_range(complement(named)) if named is not None else None
    m = _FROM_MONTH_RE.search(text) if rest is not None else None
    return m is not None and rest is not None and rest[0] == (_month_of(m["r"], m["w"]), 1)


_JOIN = r"\s*(?:,\s*(?:i\b|oraz\b)?|\bi\b|\boraz\b)\s*"  # ",", "i", "oraz", ", i"
# "I-VI" joined to another range (alone, "I-III" may be classes or ordinals: _ROMAN_DASHED)
_FROM_JANUARY = rf"(?<![\w.])(?-i:I)\s*[-–—]\s*(?-i:(?P<to>{ROMAN_MONTH}))\b"
_JANUARY_BEFORE_RE = re.compile(rf"{_FROM_JANUARY}{_JOIN}$")
_JANUARY_AFTER_RE = re.compile(rf"{_JOIN}{_FROM_JANUARY}")
_JOIN_RE = re.compile(_JOIN)


def _joined_months(text: str, months: re.Match[str]) -> set[int] | None:
    """The months of a second range joined to `months`: "IX-XII i od stycznia do czerwca", "I-VI i IX-XII"."""
    joined = _JOIN_RE.match(text, months.end())
    other = _MONTH_RANGE_RE.match(text, joined.end()) if joined is not None else None
    if other is not None:
        return _run(_start_month(other), _end_month(other))
    january = _JANUARY_AFTER_RE.match(text, months.end())
    january = january or _JANUARY_BEFORE_RE.search(text, 0, months.start())
    return _run(1, _ROMAN[january["to"]]) if january is not None else None


def _whole_months(first: int, last: int) -> str:
    """The season "MM-01..MM-DD" from the first day of month `first` to the last of month `last`."""
    return f"{first:02d}-01..{last:02d}-{_MONTH_DAYS[last - 1]:02d}"


def _run(first: int, last: int) -> set[int]:
    """The months from `first` to `last`, over the new year when `last` comes before `first`."""
    return {(first - 1 + k) % 12 + 1 for k in range((last - first) % 12 + 1)}


def _start_month(m: re.Match[str]) -> int:
    """The first month of a range: named, or the month its feast falls in (Easter's April)."""
    if m["e1"] or m["a1"]:
        return 4 if m["e1"] else 11
    return _month_of(m["r1"] or m["r3"], m["w1"] or m["w3"])


def _end_month(m: re.Match[str]) -> int:
    """The last month of a range: named; the month before its feast's ("do Wielkanocy": March) or before
    the month whose first Sunday ends it ("do 1 niedzieli października": September)."""
    if m["e2"] or m["a2"]:
        return 3 if m["e2"] else 10
    month = _month_of(m["r2"] or m["r4"], m["w2"] or m["w4"])
    return (month - 2) % 12 + 1 if m["sun2"] else month


def _month_of(roman: str | None, word: str | None) -> int:
    if roman:
        return _ROMAN[roman.upper()]
    return _MONTH_PREFIXES.index(word.lower()[:3]) + 1  # type: ignore[union-attr]


# "w m-cu VII i VIII", "(z wyj. VII i VIII)", "m-ce I, II": months listed by their Roman numerals (upper
# case: "i" is the conjunction), not ordinals of a day ("w I i III niedzielę") nor school classes
_ROMAN_LIST_RE = re.compile(
    rf"(?P<neg>\b{_EXCEPT})?(?P<school>\bkl(?:as\w*|\.)\s*)?(?<![\w.])(?-i:(?P<months>(?:{ROMAN_MONTH})(?:{_JOIN}(?:{ROMAN_MONTH}))+))"
    r"(?![\w.])(?!\s*(?:niedziel|sobot|piąt|czwart|środ|wtor|poniedz|dni|dzie|tydz|klas))",
    re.IGNORECASE,
)

# one month by its Roman numeral heading times: "VII i VIII 8:00, 11:00; VIII 19:00" (not "I", an ordinal:
# "I piątek", nor a day's: "V niedziela")
_ROMAN_MONTH_ALONE_RE = re.compile(
    r"(?:^|[;,(]|\bw\s)\s*(?-i:(?P<month>XII|XI|X|IX|VIII|VII|VI|V|IV|III|II))\s*[:–-]?\s*"
    r"(?=(?:godz\.?\s*)?\d{1,2}[.:]\d\d|$)",
    re.IGNORECASE,
)


def _listed_months(listed: re.Match[str]) -> str | None:
    """The season of whole months listed ("VII i VIII" -> summer, "z wyj. VII i VIII" -> not-summer, "I, II"
    -> "01-01..02-29", "V, VI, X" -> "05-01..06-30,10-01..10-31"); None for none or all of them."""
    months = {_ROMAN[r] for r in re.findall(ROMAN_MONTH, listed["months"])}
    if listed["neg"]:
        months = set(range(1, 13)) - months
    return _season_of_months(months)


def _season_of_months(months: set[int]) -> str | None:
    """The season of a set of whole months: the summer, the rest of the year, or its runs of months ("V, VI,
    X": "05-01..06-30,10-01..10-31"); None for no month or all twelve (no season)."""
    starts = sorted(m for m in months if (m - 2) % 12 + 1 not in months)
    if not starts:
        return None
    if months == {7, 8}:
        return "summer"
    if months == set(range(1, 13)) - {7, 8}:
        return "not-summer"
    runs = []
    for start in starts:
        end = start
        while end % 12 + 1 in months:
            end = end % 12 + 1
        runs.append(_whole_months(start, end))
    return ",".join(runs)


# "czas letni i zimowy", "latem i zimą": both halves of the year, so all year
_BOTH_HALVES_RE = re.compile(
    r"\b(?:(?:czas\w*|okres\w*)\s+)?(?:letni\w*|lat\w*)\s+(?:i|oraz)\s+(?:zimow\w*|zim\w*)\b", re.IGNORECASE
)


def season_in(text: str) -> str | None:
    """The season a phrase names: a date range "MM-DD..MM-DD" when it gives one, else a tag."""
    if _BOTH_HALVES_RE.search(text):
        return None
    months = _MONTH_RANGE_RE.search(text)
    if months is not None:
        m1 = _start_month(months)
        m2 = _end_month(months)
        dashed = months["r3"] is not None or months["w3"] is not None
        season = _whole_months(m1, m2)
        if dashed and (m1, m2) == (7, 8):  # "lipiec–sierpień", "VII-VIII" are the summer
            season = "summer"
        if (other := _joined_months(text, months)) is not None:  # "I-VI i IX-XII": both ranges' months
            season = _season_of_months(_run(m1, m2) | other) or season
        # "z wyjątkiem IX-VI", "poza okresem od maja do września": the rest of the year
        return complement(season) if _EXCEPT_BEFORE_RE.search(text, 0, months.start()) else season
    listed = _ROMAN_LIST_RE.search(text)
    if listed is not None and not listed["school"] and (season := _listed_months(listed)) is not None:
        return season
    alone = _ROMAN_MONTH_ALONE_RE.search(text) if listed is None else None
    if alone is not None:
        return _whole_months(_ROMAN[alone["month"]], _ROMAN[alone["month"]])
    r = _RANGE_RE.search(text)
    bounds = (_range_bound(r, "1"), _range_bound(r, "2")) if r is not None else None
    if bounds is None and (r := _DASHED_DATES_RE.search(text)) is not None:
        bounds = ((int(r["d1"]), int(r["m1"])), (int(r["d2"]), int(r["m2"])))
    if bounds is not None:
        (d1, m1), (d2, m2) = bounds
        if possible_date(None, m1, d1) and possible_date(None, m2, d2):  # "od 31.11 do 5.12" is no range
            return f"{m1:02d}-{d1:02d}..{m2:02d}-{d2:02d}"
    one = _ONE_MONTH_RE.search(text)
    if one is not None and one["paren"] and not text[one.end() :].lstrip(" .").startswith(")"):
        one = None  # "(grudzień 2019)": a date's month, not months a time is held in
    months = {_month_of(None, m.group()) for m in _MONTH_FORM_RE.finditer(one["months"])} if one else set()
    m = _SEASON_RE.search(_EXCEPT_LITURGICAL_RE.sub(" ", text)) if len(months) < 2 else None
    if m is not None:
        return _SEASON_NAMES[int(m.lastgroup[1:])]  # type: ignore[index]
    if one is None:
        return None
    bounds = _season_of_months(months)  # "w maju i czerwcu": both months, not May's devotions
    return complement(bounds) if one["neg"] else bounds


_EXCEPT_BEFORE_RE = re.compile(rf"\b{_EXCEPT}(?:w\s+)?$", re.IGNORECASE)  # "z wyjątkiem " before a range
# "poza piątkami Adwentu": held all year but some weekdays of a liturgical season, which no season names;
# the year's order is the time's
_EXCEPT_LITURGICAL_RE = re.compile(
    rf"\b{_EXCEPT}(?!okres|czas|niedziel)\w+\s+(?:w\s+)?(?:wielk\w+\s+po(?:st|ści)\w*|adwen\w*)", re.I
)
# one month, not a date's ("26 lipca") nor one of a range ("lipiec – sierpień"): "(w lipcu)",
# "(oprócz lipca)"; each of its days ("w każdą niedzielę listopada", "w piątki marca", not "w ostatnią
# niedzielę listopada", a date) or the whole of it ("przez cały listopad")
_EACH_DAY_OF = (
    r"(?:(?:każd\w+|wszystkie)\s+(?:niedziel\w*|sobot\w*|piąt\w*|czwart\w*|środ\w*|wtor\w*|poniedział\w*|dni\w*)"
    r"|niedziele|soboty|piątki|czwartki|środy|wtorki|poniedziałki|dni\s+powszednie)\s+"
)
_MONTH_FORMS = (
    r"stycz(?:niu|nia|niem|eń)|lut(?:ym|ego|y)|mar(?:cu|ca|cem|zec)|kwie(?:tniu|tnia|tniem|cień)"
    r"|maj(?:u|a|em)?|czerw(?:cu|ca|cem|iec)|lip(?:cu|ca|cem|iec)|sierp(?:niu|nia|niem|ień)"
    r"|wrze(?:śniu|śnia|śniem|sień)|październik(?:u|a|iem)?|paźdz|listopad(?:zie|a|em)?|grud(?:niu|nia|niem|zień)"
)
# ... or several listed: "w styczniu i lutym", "(oprócz stycznia, lutego)", "(maj i paźdz.)"
_ONE_MONTH_RE = re.compile(
    rf"(?<![\d.])(?:(?P<neg>\b{_EXCEPT})|\bw\s+|\b{_EACH_DAY_OF}|\bprzez\s+cały\s+(?:miesiąc\s+)?|(?P<paren>\(\s*))"
    rf"(?P<months>(?:{_MONTH_FORMS})(?:(?:\s*,\s*|\s+(?:i|oraz)\s+)(?:{_MONTH_FORMS}))*)\b"
    r"(?!\s+(?:i|oraz|[-–—])\s)",
    re.IGNORECASE,
)
_MONTH_FORM_RE = re.compile(_MONTH_FORMS, re.IGNORECASE)


# the rest of the year of a season that has one: what an all-year time becomes where that season has times
# of its own ("18:00 (zimą 17:00)": the 18:00 is held outside winter)
WINTER_REST = "not-winter"
_COMPLEMENTS = {
    "summer": "not-summer", "not-summer": "summer", "winter": WINTER_REST, WINTER_REST: "winter",
    "advent": "not-advent", "not-advent": "advent", "lent": "not-lent", "not-lent": "lent",
}  # fmt: skip
# seasons read as one half of the year for their complement: the holidays are the summer's, the school year
# ("od września do czerwca") the rest of the year's
_HALF = {
    "holidays": "summer",
    "07-01..08-31": "summer",
    "school-year": "not-summer",
    "09-01..06-30": "not-summer",
}


def complement(season: str | None) -> str | None:
    """The season of the rest of the year ("summer" -> "not-summer", "winter" -> WINTER_REST, "07-01..08-31"
    -> "09-01..06-30", "02-01..06-30,09-01..12-31" -> "01-01..01-31,07-01..08-31"); None for a season
    without one (Advent, May, unknown tags, a whole year's dates)."""
    if season is None:
        return None
    if season_spans(season) is None:  # dates' complement is dates
        season = _HALF.get(season, season)
    if season in _COMPLEMENTS:
        return _COMPLEMENTS[season]
    spans = sorted(season_spans(season) or ())
    # from the day after each stretch's end to the day before the next one's start (round the year), unless
    # they touch ("02-29..02-28" too: the day before its start is its end)
    gaps = []
    for i, (_start, end) in enumerate(spans):
        after, before = _day_after(end), _day_before(spans[(i + 1) % len(spans)][0])
        if after != spans[(i + 1) % len(spans)][0] and before != end:
            gaps.append((after, before))
    return dated_season(sorted(gaps)) if gaps else None


def column_seasons(heading: str) -> list[str] | None:
    """The seasons of a flattened table's heading row, one a column ("Msze Święte czas letni czas zimowy"),
    in order; None unless it names two or more. The summer beside the winter is the rest of the year of the
    winter (the clock's summer time), as a time in both columns is held all year."""
    found = [_SEASON_NAMES[int(m.lastgroup[1:])] for m in _SEASON_RE.finditer(heading)]  # type: ignore[index]
    if len(set(found)) < 2 or len(set(found)) != len(found):
        return None
    return [WINTER_REST if s == "summer" and "winter" in found else s for s in found]


def complement_of_all(seasons: set[str]) -> str | None:
    """The season outside each of ``seasons`` ("18:00 (w Wielkim Poście 16:45, w wakacje 20:00)"): the
    vocabulary's name for that rest of the year, else None (the year's order, no season says it)."""
    if len(seasons) == 1:
        return complement(next(iter(seasons)))
    halves = {_HALF.get(s, s) for s in seasons}
    named = [t.name for t in SEASONS.values() if t.complement and set(t.complement) == halves]
    return named[0] if named else None


def _day_after(md: tuple[int, int]) -> tuple[int, int]:
    """The day after (month, day); "02-28" ends February."""
    month, day = md
    return (month % 12 + 1, 1) if day >= (28 if month == 2 else _MONTH_DAYS[month - 1]) else (month, day + 1)


def _day_before(md: tuple[int, int]) -> tuple[int, int]:
    month, day = md
    return ((month - 2) % 12 + 1, _MONTH_DAYS[(month - 2) % 12]) if day == 1 else (month, day - 1)


def same_half(season: str | None) -> str | None:
    """The half of the year a season stands for when it is paired with its complement (the school year is
    "not-summer"): a time held in both halves is held all year."""
    return _HALF.get(season, season) if season is not None else None


def tags_in(text: str) -> tuple[str, ...]:
    """The tags of the phrases in ``text``, in order, each once."""
    found: list[str] = []
    for m in _TAG_RE.finditer(text):
        tag = _TAG_NAMES[int(m.lastgroup[1:])]  # type: ignore[index]
        if tag not in found:
            found.append(tag)
    return tuple(found)


def _date_matches(text: str) -> Iterator[re.Match[str]]:
    """DATE_RE.finditer(text), tried only where a number starts (every date does), which is ~10x faster on
    a long page than letting the regex try every position."""
    end = 0
    for number in _NUMBER_RE.finditer(text):
        if number.start() < end:
            continue
        m = DATE_RE.match(text, number.start())
        if m is not None:
            end = m.end()
            yield m


def dates_in(text: str, bounds: bool = False) -> list[tuple[int, int, tuple[int | None, int, int]]]:
    """The dates in ``text`` as (start, end, (year or None, month, day)); season bounds ("od 1 lipca") only
    with ``bounds``."""
    out = []
    for m in _date_matches(text):
        if m["d"] is not None:
            day, month, year = int(m["d"]), int(m["m"]), m["y"]
        elif m["d2"] is not None:
            day, month, year = int(m["d2"]), _MONTH_NUMBER[m["mw"].lower()], m["y2"]
        else:
            day, month, year = int(m["d3"]), _ROMAN[m["mr"].upper()], m["y3"]
        if not possible_date(int(year) if year else None, month, day):
            continue  # "30.02.2026", "31.11": not a date (an hour next to it is still read, undated)
        if not bounds and (
            _BOUND_BEFORE_RE.search(text, max(0, m.start() - 40), m.start())
            or _DASHED_DATES_RE.match(text, m.start())
        ):
            continue
        out.append((m.start(), m.end(), (int(year) if year else None, month, day)))
    return out


def page_year(text: str) -> int | None:
    """The year the page's own dates are in: the commonest year from 2000 on that it writes."""
    years = Counter(int(y) for y in _YEAR_RE.findall(text))
    return years.most_common(1)[0][0] if years else None


def read(own: str, prefix: str, clause: str, block: BlockNotes) -> Reading:
    """An hour's reading from its own words, its clause's prefix, its whole clause and the block."""
    p = _clause_notes(prefix, clause)
    r = Reading()
    r.church = inline_church(own) or (None if names_main_church(own) else p.church or block.church)
    r.season = season_in(own) or p.season or block.season
    r.tags = tags_in(own)
    dates = dates_in(own)
    if dates:
        r.date = dates[-1][2]
    elif p.date is not None:
        r.date = p.date
    elif block.date is not None and not FROM_NOW_ON_RE.search(clause):
        r.date, r.dated_above = block.date, True  # "Od dziś rozpoczynamy Msze o 15.00": a new order, undated
    if block.monthly or p.monthly or MONTHLY_RE.search(own):
        r.monthly = monthly_in(own) or p.monthly_day or block.monthly_day
        r.kind, r.date = MONTHLY if r.monthly else ONE_OFF, None  # "13 dnia miesiąca": no week to date it by
    elif r.date is not None or p.one_off or one_off_in(own):
        r.kind = ONE_OFF
    r.confession = p.confession or block.confession
    r.sunday_order = p.sunday_order or bool(AS_SUNDAY_RE.search(own))
    r.vigil_words = p.vigil or bool(_VIGIL_RE.search(own))
    return r


# "od dziś", "od przyszłej niedzieli": an order that starts with the week announced and goes on
FROM_NOW_ON_RE = re.compile(
    rf"\bod\s+(?:dziś|dzisiaj|jutra|{NEXT_WORD}\s+(?:niedziel|tygodni|poniedział)\w*)\b", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class _ClauseNotes:
    """What a clause's prefix and the whole clause say, read once for all the clause's hours."""

    church: str | None
    season: str | None
    date: tuple[int | None, int, int] | None
    monthly: bool
    monthly_day: Monthly | None
    one_off: bool
    confession: bool
    sunday_order: bool
    vigil: bool


@lru_cache(maxsize=1024)
def _clause_notes(prefix: str, clause: str) -> _ClauseNotes:
    dates = dates_in(prefix)
    return _ClauseNotes(
        church=inline_church(prefix),
        season=season_in(prefix),
        date=dates[-1][2] if dates else None,
        monthly=bool(MONTHLY_RE.search(prefix)),
        monthly_day=monthly_in(prefix),
        one_off=one_off_in(prefix) or _order_by_reference(prefix),
        confession=bool(CONFESSION_RE.search(clause)),
        sunday_order=bool(AS_SUNDAY_RE.search(prefix)),
        vigil=bool(_VIGIL_RE.search(prefix)),
    )


# "Msze jak w dzień powszedni z dodatkową Eucharystią o 10.00": a feast's order given by the weekdays'
_AS_WEEKDAY_RE = re.compile(r"\b(?:jak|tak\s+jak)\s+w\s+(?:dzień\s+powszedni|dni\s+powszednie)\b", re.I)


def _order_by_reference(prefix: str) -> bool:
    """ "W katedrze będą Msze według porządku niedzielnego: 7.30, 9.00": an occasion's order, given by the
    Sunday's, names no day of its own ("W święta zniesione Msze jak w niedzielę" is the holy days' order);
    one given by the weekdays' ("Msze jak w dzień powszedni") is an occasion's too."""
    if _AS_WEEKDAY_RE.search(prefix):
        return True
    return AS_SUNDAY_RE.search(prefix) is not None and not DAY_ANY_RE.search(AS_SUNDAY_RE.sub(" ", prefix))


_VIGIL_RE = re.compile(rf"\b(?:{VIGIL_WORDS})", re.I)  # the words that make a Saturday time the vigil
VIGIL_FROM = "15:00"  # a Saturday Mass from this hour on may be the Sunday vigil


@dataclass
class HourFacts:
    """What :func:`finish` needs of one hour besides its reading."""

    time: str
    is_mass: bool
    own: str = field(repr=False)


def finish(readings: Sequence[Reading], facts: Sequence[HourFacts], text: str, year: int | None) -> None:
    """The reading of the schedule as a whole, on the hours' readings in place (see the module docstring)."""
    own_year = page_year(text)
    year = own_year or year
    for r in readings:
        if r.sunday_order and r.kind == ONE_OFF:
            r.days = None  # "jak w niedzielę" names the order, not the day of the occasion
        if r.date is not None and r.date[0] is None and not r.dated_above:
            r.date = _year_of_weekday(r.date, r.days, year, own_year is not None)  # "W niedzielę 26 maja"
        if r.date is not None:
            r.date = with_year(r.date, year)
        if r.date is not None and r.date[0] and (r.days is None or _holy_days_of_a_date(r)):
            # "PORZĄDEK ŚWIĄTECZNY / Wniebowzięcie – 15 sierpnia – 8.00": that day, not the holy days
            weekday = _weekday(*r.date)
            if weekday is not None:
                r.days = days_of(weekday)
        elif r.date is not None and r.date[0] and r.dated_above and r.days and len(r.days.days) == 1:
            # "Ogłoszenia 12.10.2025 ... w czwartek": that week's Thursday ("W niedzielę 26 maja" is the 26th)
            r.date = _on_or_after(r.date, next(iter(r.days.days)))
        if r.days is not None and r.days.days == {"sat"} and (r.sunday_heading or r.vigil_words):
            r.vigil = True
    _monthly_days(readings)
    _bare_churches(readings)
    _advent_weekdays(readings, facts)
    _narrow_generic(readings, facts)
    _undated_weekly(readings, facts)
    _dropped_in_season(readings, facts)


def _undated_weekly(readings: Sequence[Reading], facts: Sequence[HourFacts]) -> None:
    """ "Doba Eucharystyczna: 31 grudnia" over "Msze: niedziela, święta – 14.00": times of every week, not
    of the heading's date (once the days are narrowed as the date's one-offs: "codziennie o 17.30, jedynie
    w sobotę o 8.15" under the announcements' date is Monday to Friday)."""
    for r, f in zip(readings, facts, strict=True):
        if not (r.dated_above and r.kind == ONE_OFF and r.date is not None and r.date[0] and r.days):
            continue
        if _not_of_the_date(r) and not one_off_in(f.own):
            r.date, r.dated_above, r.kind = None, False, REGULAR
        elif "holiday" in r.days.days and (weekday := _weekday(*r.date)) is not None:  # type: ignore[arg-type]
            r.days = days_of(weekday)  # "08.12.2022 CZWARTEK UROCZYSTOŚĆ" over "9.00": that Thursday


def _advent_weekdays(readings: Sequence[Reading], facts: Sequence[HourFacts]) -> None:
    """A weekly Advent Mass on no day is the Roraty, held on the weekdays ("Roraty: 6:30", "w Adwencie
    zapraszamy na Mszę o 6.30, a w soboty o 7.30"): Saturday's own time then narrows them as "dni
    powszednie" are narrowed. Advent's "codziennie" is the weekdays' too: the Roraty are not held on Sunday.
    """
    for r, f in zip(readings, facts, strict=True):
        if not (f.is_mass and r.kind == REGULAR and r.season == "advent"):
            continue
        if r.days is None:
            r.days = MON_SAT
        elif r.days.generic and "sun" in r.days.days:
            r.days = Days(r.days.days - {"sun"}, r.days.generic)


def _bare_churches(readings: Sequence[Reading]) -> None:
    """ "Kaplica w Zalesiu: 9.30" and then "Kaplica: środa 17.00": a church word alone is the one church of
    the page named with that word, when there is one."""
    named: dict[str, set[str]] = {}
    for r in readings:
        if r.church and not _BARE_CHURCH_RE.fullmatch(r.church):
            named.setdefault(r.church.casefold()[:4], set()).add(r.church)
    for r in readings:
        if r.church and _BARE_CHURCH_RE.fullmatch(r.church):
            found = named.get(r.church.casefold()[:4], set())
            if len(found) == 1:
                r.church = next(iter(found))


def _monthly_days(readings: Sequence[Reading]) -> None:
    """A monthly Mass is on its day; a list whose last item alone is monthly ("we wtorki, piątki i pierwszą
    sobotę miesiąca: 7.00") keeps the days named before it weekly, the monthly day besides."""
    for r in readings:
        if r.kind != MONTHLY or r.monthly is None:
            continue
        m = r.monthly
        weekly = r.days.days - {m.day} if r.days is not None and not r.days.generic else frozenset()
        if m.after_days and weekly:
            r.kind, r.days = REGULAR, Days(frozenset(weekly))
        elif r.days is None or r.days.generic or m.day not in r.days.days:
            r.days = days_of(m.day)


def _on_or_after(date: tuple[int | None, int, int], weekday: str) -> tuple[int | None, int, int]:
    """The first day from ``date`` on that is ``weekday``: a heading's date (the Sunday of the announcements)
    and "w czwartek" below it give that week's Thursday. The date itself when it is none (or impossible)."""
    if weekday not in WEEK or date[0] is None:
        return date
    try:
        start = datetime.date(date[0], date[1], date[2])
    except ValueError:
        return date
    day = start + datetime.timedelta(days=(WEEK.index(weekday) - start.weekday()) % 7)
    return (day.year, day.month, day.day)


def _holy_days_of_a_date(r: Reading) -> bool:
    """Holy days said with a date of their own ("Wniebowzięcie – 15 sierpnia – 8.00": that day), or under a
    dated heading with no other day ("08.12.2022 UROCZYSTOŚĆ" over "9.00"); under a dated heading with
    other days, they are of every week or not (_undated_weekly)."""
    days = r.days.days if r.days is not None else frozenset()
    return "holiday" in days and (not r.dated_above or len(days) == 1)


def _not_of_the_date(r: Reading) -> bool:
    """A heading's date is not the hour's when the hour's days are of every week ("dni powszednie",
    "niedziela, święta") and the date falls on none of them ("08.12.2022 CZWARTEK UROCZYSTOŚĆ" over "9.00"
    is that Thursday's, "w czwartek i piątek" under the announcements' date that week's)."""
    days = r.days
    if r.date is None or days is None:
        return False
    if not (days.generic or ("holiday" in days.days and len(days.days) > 1)):
        return False
    y, m, d = r.date
    return y is not None and _weekday(y, m, d) not in days.days


def _year_of_weekday(date: Date, days: Days | None, year: int | None, page_said: bool) -> Date:
    """The year in which a date without one falls on the one weekday named with it: the page's year or the
    next or last one ("Poniedziałek – 30 marca" on a page mostly of 2019, of the week "30 marca – 5 kwietnia
    2020"); on a page that writes no year, this year or the latest before it ("w niedzielę 26 maja": 2024, not
    a Tuesday of this year, which would show a past occasion as coming). The date as it is when none fits."""
    if year is None or days is None or len(days.days) != 1:
        return date
    weekday = next(iter(days.days))
    years = (year, year + 1, year - 1) if page_said else range(year, year - 7, -1)
    for y in years:
        if _weekday(y, date[1], date[2]) == weekday:
            return (y, date[1], date[2])
    return date


def _weekday(year: int, month: int, day: int) -> str | None:
    """The weekday of a date; None for an impossible one ("31.02")."""
    try:
        return WEEK[datetime.date(year, month, day).weekday()]
    except ValueError:
        return None


_Order = tuple[str | None, str]  # church, kind: the times of one order


def _order(r: Reading) -> _Order:
    """The order a time belongs to: the church's regular one, or its one-offs (under an announcements'
    date, "17.01.2021 / Msza w tygodniu codziennie o 17.00, jedynie w sobotę o 16.00" narrows too)."""
    return (r.church, r.kind)


_SATURDAY_EXCEPTED_RE = re.compile(rf"{EXCEPT_WORD}\s*(?:msz\w*\s+)?(?:w\s+)?sobot", re.I)


def _narrow_generic(readings: Sequence[Reading], facts: Sequence[HourFacts]) -> None:
    """ "Dni powszednie" is Monday–Friday where the same church's schedule gives Saturday its own times;
    "codziennie" leaves out a Sunday that has its own times (a "porządek świąteczny" too); "pozostałe dni"
    every day the schedule names on its own. A vigil (under Sunday or the weekdays) is not Saturday's own:
    it takes Saturday out of the weekday time it falls on only ("Niedziele: sobota 18.00; 9.00 / Dni
    powszednie: 7.00, 18.00" is 7.00 on Saturday too, and 18.00 there is the vigil)."""
    own_sat: set[_Order] = set()
    added_sat: set[_Order] = set()  # "w soboty także 8.00": Saturday's times besides the weekdays'
    replaced_sat: set[tuple[_Order, str]] = set()  # "18:00 (w sobotę o 18:30)": 18:00 only, not on Saturday
    excepted_sat: set[str] = set()  # "..., z wyjątkiem Mszy w sobotę o 12": the 12:00 only
    own_sun: set[_Order] = set()
    holy_order: set[_Order] = set()  # "porządek świąteczny: 7:00, 9:00": Sunday's times, not "codziennie"'s
    own: dict[_Order, set[str]] = {}  # the days a church's schedule names on their own
    vigils: set[tuple[_Order, str]] = set()
    for r, f in zip(readings, facts, strict=True):
        if f.is_mass and r.days == SUN_HOLIDAY and r.kind != MONTHLY:
            holy_order.add(_order(r))
        if f.is_mass and r.days is not None and not r.days.generic and r.kind != MONTHLY:
            key = _order(r)
            if r.vigil:  # "Niedziele: sobota 18.00", "7.00, 18.00 (w soboty 18.00 z liturgii niedzielnej)"
                vigils.add((key, f.time))
            elif "sat" in r.days.days and "fri" not in r.days.days:
                if r.instead_of is not None:
                    replaced_sat.add((key, r.instead_of))
                elif _SATURDAY_EXCEPTED_RE.search(f.own):
                    # "7:00, 12:00, 18:00 ... w Panteonie, z wyjątkiem Mszy w sobotę o godz. 12, która ...":
                    # that time's Saturday is held otherwise (at another church, too), the others stay Mon–Sat
                    excepted_sat.add(f.time)
                else:
                    (added_sat if AS_WELL_RE.search(f.own) else own_sat).add(key)
            if "sun" in r.days.days:
                own_sun.add(key)
            if not r.vigil:
                own.setdefault(key, set()).update(r.days.days)
    own_sat -= added_sat  # "w soboty także 8.00 i 10.00": the list goes on adding
    for r, f in zip(readings, facts, strict=True):
        if r.days is None or not r.days.generic:
            continue
        key = _order(r)
        # "we wtorki: 7.00 / pozostałe dni powszednie: 18.00": the other days are those not named above
        drop = set(own.get(key, ())) if r.days.rest and r.days.days - own.get(key, set()) else set()
        replaced = (key, f.time) in replaced_sat or f.time in excepted_sat
        if key in own_sat or (key, f.time) in vigils or replaced:
            drop.add("sat")
        if key in own_sun or (key in holy_order and "mon" in r.days.days):
            drop.add("sun")
        if drop:
            r.days = Days(r.days.days - drop, True)


def _dropped_in_season(readings: Sequence[Reading], facts: Sequence[HourFacts]) -> None:
    """ "w wakacje nie ma Mszy o 6:30": the 6:30 of the schedule (and of that sentence) is not held in that
    season; said of the weekdays that have a 7.00 ("Msze w dni powszednie: 7.00, 18.30; w wakacje nie ma Mszy
    o 7.00"), it leaves Sunday's 7.00 all year."""
    dropped: dict[str, tuple[str, frozenset[str] | None]] = {}
    negated: set[int] = set()
    for i, (r, f) in enumerate(zip(readings, facts, strict=True)):
        if not _negated_here(f.own):
            continue
        if r.season in ("summer", "not-summer", "holidays"):
            season = "not-summer" if r.season != "holidays" else "not-holidays"
        elif complement(r.season) is not None:  # "zimą nie ma Mszy o 6.30", "od 1 lipca do 31 sierpnia ..."
            season = complement(r.season)
        else:
            continue
        dropped[f.time] = (season, r.days.days if r.days else None)
        negated.add(i)
    held = [
        i
        for i, (r, f) in enumerate(zip(readings, facts, strict=True))
        if f.time in dropped and r.kind == REGULAR and (r.season is None or i in negated)
    ]
    # the time on the days the sentence speaks of when the schedule has it then, else the time on any day
    on_days = {
        facts[i].time
        for i in held
        if i not in negated and _shares_days(readings[i], dropped[facts[i].time][1])
    }
    for i in held:
        season, days = dropped[facts[i].time]
        if facts[i].time not in on_days or _shares_days(readings[i], days):
            readings[i].season = season


# a time after the negation that is not one item of its list: "zamiast Mszy o 18.30 jest Msza o"
_CLOCK_OUT_OF_LIST_RE = re.compile(r"\d[.:]\d\d(?!\s*(?:,|i|oraz|lub)?\s*(?:o\s+)?(?:godz\.?)?\W*$)")


def _negated_here(own: str) -> bool:
    """Whether an hour's words say its Mass is not held: a negation with no other time between but the
    list's ("nie ma Mszy o 7.00 i 12.30"; "zamiast Mszy o 18.30 jest Msza o 20.30" drops the 18.30 only)."""
    ends = [m.end() for m in NO_MASS_RE.finditer(own)]
    return bool(ends) and _CLOCK_OUT_OF_LIST_RE.search(own, ends[-1]) is None


def _shares_days(r: Reading, days: frozenset[str] | None) -> bool:
    return days is None or r.days is None or bool(days & r.days.days)
