"""The reading of each Mass hour: days of the week, vigil, church, season, one-off with its date, tags, and
the page's confession times (msze/extraction/rules/reading.py, days.py, walk.py)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msze.extraction.hours import find_hours
from msze.extraction.page import extract
from msze.extraction.rules import decide
from msze.extraction.rules.days import day_at
from msze.extraction.rules.reading import WINTER_REST, complement, season_in
from msze.extraction.rules.verdict import DEVOTION_AT_MASS, NEGATED
from msze.search.calendar import in_season
from msze.utils.vocabulary import season_range

MON_FRI = ["mon", "tue", "wed", "thu", "fri"]
MON_SAT = [*MON_FRI, "sat"]


def readings(text: str, year: int | None = 2025) -> list[tuple[str, dict]]:
    """(time, reading) of the hours the rules label mass."""
    hours = find_hours(text)
    out = []
    for h, d in zip(hours, decide(text, hours, year), strict=True):
        if d.is_mass:
            r = d.reading
            out.append(
                (
                    h.time,
                    {
                        "days": r.days.ordered() if r.days else [],
                        "vigil": r.vigil,
                        "church": r.church,
                        "season": r.season,
                        "kind": r.kind,
                        "date": r.date_text(),
                        "tags": list(r.tags),
                    },
                )
            )
    return out


def days(text: str) -> list[tuple[str, list[str]]]:
    return [(t, r["days"]) for t, r in readings(text)]


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("niedziele i święta", ["sun", "holiday"]),
        ("dni powszednie", MON_SAT),
        ("w tygodniu", MON_SAT),
        ("w tygodniu codziennie", MON_SAT),
        ("codziennie w dni powszednie", MON_SAT),
        ("codziennie", ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]),
        ("od poniedziałku do soboty", MON_SAT),
        ("pn.–sob.", MON_SAT),
        ("pn.–pt.", MON_FRI),
        ("od wtorku do piątku", ["tue", "wed", "thu", "fri"]),
        ("pon., śr., pt.", ["mon", "wed", "fri"]),
        ("wtorek, czwartek, sobota", ["tue", "thu", "sat"]),
        ("w czwartki", ["thu"]),
        ("uroczystości", ["holiday"]),
        ("Niedziala i święta", ["sun", "holiday"]),  # misspelt
    ],
)
def test_day_phrases(phrase, expected):
    assert day_at(phrase).ordered() == expected


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("w poniedziałek i w sobotę", ["mon", "sat"]),
        ("w niedziele i wybrane święta", ["sun", "holiday"]),
        ("codziennie oprócz środy", ["mon", "tue", "thu", "fri", "sat", "sun"]),
        ("w dni powszednie z wyjątkiem wtorku i czwartku", ["mon", "wed", "fri", "sat"]),
        ("porządek zwykły", MON_SAT),
        ("porządek świąteczny", ["sun", "holiday"]),
        ("we wszystkie dni tygodnia", [*MON_SAT, "sun"]),
    ],
)
def test_joined_and_excepted_day_phrases(phrase, expected):
    assert day_at(phrase).ordered() == expected


def test_an_exception_after_a_time_takes_its_days_out_and_gives_them_to_the_next_time():
    text = "Msze św.\n• w dni powszednie: 18.00 oprócz wtorku i czwartku – 9.00"
    assert days(text) == [("18:00", ["mon", "wed", "fri", "sat"]), ("09:00", ["tue", "thu"])]
    text = "Msze św. w dni powszednie o godz. 7.00 (we wtorki o 15.15), w niedziele o godz. 9.00"
    assert days(text) == [
        ("07:00", ["mon", "wed", "thu", "fri", "sat"]),
        ("15:15", ["tue"]),
        ("09:00", ["sun"]),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Msze św. w dni powszednie: czwartek 7.15, pozostałe dni 19.00",
            [("07:15", ["thu"]), ("19:00", ["mon", "tue", "wed", "fri", "sat"])],
        ),
        (
            "Msze św. w tygodniu: we wtorki i piątki o 6.30, w pozostałe dni tygodnia o 18.30",
            [("06:30", ["tue", "fri"]), ("18:30", ["mon", "wed", "thu", "sat"])],
        ),
        (
            "Msze św.: w niedziele 9.00 i 11.00, w inne dni o 18.00",
            [("09:00", ["sun"]), ("11:00", ["sun"]), ("18:00", MON_SAT)],
        ),
        (
            "Msze św. w tygodniu: środa 7.15, poza tym o 19.00",
            [("07:15", ["wed"]), ("19:00", [*MON_FRI[:2], *MON_SAT[3:]])],
        ),
        ("Msze św.\nPozostałe dni powszednie: 7.00", [("07:00", MON_SAT)]),
    ],
)
def test_the_other_days_are_the_scopes_days_not_named_before(text, expected):
    assert days(text) == expected


def test_poza_tym_without_a_time_after_it_names_no_days():
    assert day_at("Poza tym zapraszamy na adorację") is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Msze św. w dni powszednie: 19.00 – za wyjątkiem środy – 7.15",
            [("19:00", ["mon", "tue", "thu", "fri", "sat"]), ("07:15", ["wed"])],
        ),
        (
            "Msze św. w dni powszednie: godz. 19 (z wyjątkiem piątku); kaplica: piątek godz. 16",
            [("19:00", ["mon", "tue", "wed", "thu", "sat"]), ("16:00", ["fri"])],
        ),
    ],
)
def test_an_exception_after_a_dash_or_in_parentheses_takes_its_days_out(text, expected):
    assert days(text) == expected


def test_a_time_a_day_has_as_well_takes_nothing_out():
    text = "Msze św. w dni powszednie: 6.30, 19.00 (w piątki także o 15.00)"
    assert days(text) == [("06:30", MON_SAT), ("19:00", MON_SAT), ("15:00", ["fri"])]


def test_a_days_phrase_in_a_list_ends_where_the_list_turns_back_to_the_wider_days():
    text = "Msze św. w dni powszednie o 6.30, w środy i piątki o 9.00, oraz wieczorem o 19.00"
    assert days(text) == [("06:30", MON_SAT), ("09:00", ["wed", "fri"]), ("19:00", MON_SAT)]
    text = "Msze św. w niedziele o 9.00 i 11.00 oraz wieczorem o 19.00"
    assert days(text) == [("09:00", ["sun"]), ("11:00", ["sun"]), ("19:00", ["sun"])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Msze św. w dni powszednie: godz. 19.00 od poniedziałku do piątku; godz. 8.00 w sobotę",
            [("19:00", MON_FRI), ("08:00", ["sat"])],
        ),
        ("Msze o 6.30 i 17.30 w dni powszednie.", [("06:30", MON_SAT), ("17:30", MON_SAT)]),
        # words other than days after the times: the days before them stand
        (
            "Msze św. w dni powszednie: 7.30, 19.00 w piątek tylko o 19.00",
            [("07:30", MON_SAT), ("19:00", MON_SAT), ("19:00", ["fri"])],
        ),
    ],
)
def test_days_written_after_the_times_up_to_the_clauses_end(text, expected):
    assert days(text) == expected


def test_dni_swiateczne_are_the_holy_days_where_sunday_has_its_own_times():
    text = "Msze św.\nDni świąteczne: 6.30, 9.00\nNiedziele i święta nakazane: 7.00, 9.30"
    assert days(text) == [
        ("06:30", ["holiday"]),
        ("09:00", ["holiday"]),
        ("07:00", ["sun", "holiday"]),
        ("09:30", ["sun", "holiday"]),
    ]


def test_weekday_lists_joined_by_i_are_weekly_and_roman_i_is_the_first_of_the_month():
    got = readings("Msze św.\nwe wtorki, czwartki i soboty: 8.00, 18.00\nw I piątki miesiąca: 17.00")
    assert [(t, r["days"], r["kind"]) for t, r in got] == [
        ("08:00", ["tue", "thu", "sat"], "regular"),
        ("18:00", ["tue", "thu", "sat"], "regular"),
        ("17:00", ["fri"], "monthly"),
    ]


def test_a_monthly_phrase_after_a_time_belongs_to_the_next_time():
    got = readings("Msze św. w niedziele o godz. 9.00, zaś w I piątki miesiąca o godz. 17.00")
    assert [(t, r["kind"]) for t, r in got] == [("09:00", "regular"), ("17:00", "monthly")]


def monthly(text: str) -> list[tuple[str, list[str], str, tuple | None]]:
    hours = find_hours(text)
    return [
        (h.time, d.reading.days.ordered() if d.reading.days else [], d.reading.kind,
         (d.reading.monthly.week, d.reading.monthly.day) if d.reading.monthly else None)
        for h, d in zip(hours, decide(text, hours, 2025), strict=True)
        if d.is_mass
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.\nw pierwsze piątki miesiąca o 16:30", [("16:30", ["fri"], "monthly", (1, "fri"))]),
        ("Msze św. w niedziele 9.00.\nW pierwszą sobotę miesiąca Msza o 8.00.",
         [("09:00", ["sun"], "regular", None), ("08:00", ["sat"], "monthly", (1, "sat"))]),
        ("Msze św.: ostatnia niedziela miesiąca – 15.00", [("15:00", ["sun"], "monthly", (-1, "sun"))]),
        ("Msze św.\nI sobota miesiąca:\n7.00, 18.00",
         [("07:00", ["sat"], "monthly", (1, "sat")), ("18:00", ["sat"], "monthly", (1, "sat"))]),
        # a list whose last item alone is monthly: the days before it stay weekly, the monthly day besides
        ("Msze św.\nwe wtorki, piątki i pierwszą sobotę miesiąca: 7.00",
         [("07:00", ["tue", "fri"], "regular", (1, "sat"))]),
        # the ordinal first: every day of the list is monthly
        ("Msze św.\nw pierwszy czwartek, piątek i sobotę miesiąca: 18.00",
         [("18:00", ["thu", "fri", "sat"], "monthly", (1, "thu"))]),
        ("Msze św.: w trzecią środę miesiąca o 19.00", [("19:00", ["wed"], "monthly", (3, "wed"))]),
        # the ordinal in digits, as the web writes it too
        ("Msza św. w 1-wsze soboty miesiąca o 8.00", [("08:00", ["sat"], "monthly", (1, "sat"))]),
        ("Msze św.: 1. piątek miesiąca – 17.00", [("17:00", ["fri"], "monthly", (1, "fri"))]),
        # a date, not a month's week; a day of the month has no week to date it by
        ("Msza św. w ostatnią niedzielę października o 12.00", [("12:00", [], "regular", None)]),
        ("Msza św. 13 dnia każdego miesiąca o 18.00", [("18:00", [], "one_off", None)]),
    ],
)  # fmt: skip
def test_a_monthly_mass_is_its_week_of_the_month_and_day(text, expected):
    assert monthly(text) == expected


@pytest.mark.parametrize("note", ["w soboty o 19.00", "oprócz soboty – w sobotę 19.00"])
def test_saturday_s_time_in_one_time_s_note_replaces_that_time_only(note):
    """ "6.30, 18.00 (w sobotę o 18.30)": Saturday has 6.30 and 18.30; only 18.00 leaves it."""
    got = days(f"Msze św. w dni powszednie: 6.30, 7.15, 18.00 ({note})")
    assert got == [("06:30", MON_SAT), ("07:15", MON_SAT), ("18:00", MON_SAT[:5]), ("19:00", ["sat"])]
    # Saturday's own list is Saturday's whole order
    got = days("Msze św. w dni powszednie: 6.30, 18.00\nw soboty: 8.00, 18.00")
    assert got == [("06:30", MON_SAT[:5]), ("18:00", MON_SAT[:5]), ("08:00", ["sat"]), ("18:00", ["sat"])]


def test_a_devotion_in_the_note_of_one_time_is_no_topic_of_the_next():
    text = "Msze św. w dni powszednie: 6.30, 15.00 (poprzedzona Koronką do Miłosierdzia Bożego), 19.00"
    assert [t for t, _ in readings(text)] == ["06:30", "15:00", "19:00"]
    assert [t for t, _ in readings("Nabożeństwa (Koronka) o 15.00 i 19.00")] == []


def test_a_feast_that_bounds_a_season_is_no_one_off():
    text = "Msze św.\nDNI POWSZEDNIE\nOd Wielkanocy do ostatniej niedzieli października godz.: 7.00 i 18.00"
    assert {(r["kind"], tuple(r["days"])) for _, r in readings(text)} == {("regular", tuple(MON_SAT))}
    assert [r["kind"] for _, r in readings("W Wielkanoc Msze św. o 6:00 i 10:00")] == ["one_off", "one_off"]


def test_msza_swieta_is_no_holy_day_and_a_date_no_weekday():
    assert day_at("Msza święta") is None
    assert day_at("ostatniej niedzieli października") is None
    assert day_at("I piątek miesiąca").ordered() == ["fri"]


def test_weekday_lists_on_their_own_lines():
    text = "Msze św.\nPoniedziałek, środa, piątek: 7:00\nWtorek, czwartek, sobota: 18:00"
    assert days(text) == [("07:00", ["mon", "wed", "fri"]), ("18:00", ["tue", "thu", "sat"])]


def test_dni_powszednie_is_monday_to_friday_when_saturday_has_its_own_times():
    with_saturday = "Msze święte\nDni powszednie: 7:00, 18:00\nSobota: 7:00, 18:00"
    assert days(with_saturday)[:2] == [("07:00", MON_FRI), ("18:00", MON_FRI)]
    without = "Msze święte\nNiedziela: 8:00, 10:00\nDni powszednie: 7:00, 18:00"
    assert days(without)[2:] == [("07:00", MON_SAT), ("18:00", MON_SAT)]


def test_a_vigil_listed_under_sunday_leaves_saturday_in_dni_powszednie_but_at_its_own_time():
    text = "Msze św. w niedziele: 9.00, 11.30; sobota godz. 17.30\nMsze św. w dni powszednie: 7.15, 19.00"
    assert days(text)[3:] == [("07:15", MON_SAT), ("19:00", MON_SAT)]
    text = "Msze św. w niedziele: sobota 19.00; 9.00\nMsze św. w dni powszednie: 7.15, 19.00"
    assert days(text)[2:] == [("07:15", MON_SAT), ("19:00", MON_FRI)]
    text = "Msze św.\nNiedziela: 9.00\nSobota: 8.00\nDni powszednie: 7.15, 19.00"
    assert days(text)[2:] == [("07:15", MON_FRI), ("19:00", MON_FRI)]


def test_codziennie_leaves_out_a_sunday_with_its_own_times():
    assert days("Msze św. codziennie o 7:00") == [("07:00", [*MON_SAT, "sun"])]
    text = "Msze św.\nCodziennie: 7:00\nNiedziela: 9:00, 11:00"
    assert days(text)[0] == ("07:00", MON_SAT)


def test_saturday_under_sunday_is_the_vigil_and_the_next_times_are_sundays_again():
    got = readings("Msze św.\nNiedziela: sobota 18:00, 8:00, 10:00")
    assert [(t, r["days"], r["vigil"]) for t, r in got] == [
        ("18:00", ["sat"], True),
        ("08:00", ["sun"], False),
        ("10:00", ["sun"], False),
    ]


def test_a_later_time_after_a_vigil_under_sunday_goes_on_with_saturdays_list():
    got = readings("Msze św. w niedziele: godz. 9.00; w soboty godz. 16.30 i 18.30")
    assert [(t, r["days"], r["vigil"]) for t, r in got] == [
        ("09:00", ["sun"], False),
        ("16:30", ["sat"], True),
        ("18:30", ["sat"], True),
    ]


@pytest.mark.parametrize(
    "text", ["W sobotę o 18:00 Msza św. niedzielna", "Sobota 18:00 – Msza wigilijna z liturgii niedzieli"]
)
def test_vigil_words(text):
    assert [(t, r["vigil"]) for t, r in readings(text)] == [("18:00", True)]


@pytest.mark.parametrize(
    "text",
    [
        "Msze św. w niedziele: godz. 8.00, 11.00 (w sobotę Msza św. niedzielna godz. 19.00)",
        "Niedziela: 8.00, 11.00\nSobota – Msza niedzielna: 19.00",
    ],
)
def test_a_sunday_mass_said_on_saturday_is_the_vigil_not_a_sunday_time(text):
    got = [(t, r["days"], r["vigil"]) for t, r in readings(text)]
    assert got == [("08:00", ["sun"], False), ("11:00", ["sun"], False), ("19:00", ["sat"], True)]


def test_a_saturday_morning_mass_is_no_vigil():
    assert [r["vigil"] for _, r in readings("Msze św.\nNiedziela: 9:00\nSobota: 7:00")] == [False, False]


def test_a_church_labelling_a_later_list_in_the_clause_goes_on_to_its_times():
    got = readings("Msze św. w niedziele: Górny Kościół: 11:00, 12:30; Dolny Kościół: 6:30, 8:00, 9:30")
    assert [(t, r["church"]) for t, r in got] == [
        ("11:00", "Górny Kościół"),
        ("12:30", "Górny Kościół"),
        ("06:30", "Dolny Kościół"),
        ("08:00", "Dolny Kościół"),
        ("09:30", "Dolny Kościół"),
    ]


def test_church_headings_and_inline_chapels():
    text = (
        "Msze święte\nNiedziela: 8:00, 10:00\nKaplica w Zalesiu:\nniedziela 9:00\n"
        "Szpital Powiatowy:\nw dni powszednie 6:30\nNiedziela: 12:00 (w kaplicy szpitalnej)"
    )
    got = [(t, r["church"]) for t, r in readings(text)]
    assert got[:2] == [("08:00", None), ("10:00", None)]
    assert got[2] == ("09:00", "Kaplica w Zalesiu")
    assert got[3] == ("06:30", "Szpital Powiatowy")
    assert got[4] == ("12:00", "kaplicy szpitalnej")


def test_a_church_s_name_ends_where_the_sentence_goes_on_about_the_day():
    text = "Dzień Zaduszny. W naszym kościele tego dnia sprawujemy trzy Msze Święte: 7:00, 9:00 i 18:00."
    assert {r["church"] for _, r in readings(text)} == {None}
    text = "W kaplicy szpitalnej odprawiamy Msze św. w niedziele o 9:00."
    assert [(t, r["church"]) for t, r in readings(text)] == [("09:00", "kaplicy szpitalnej")]


def test_a_chapel_named_first_is_still_a_chapel_and_the_parish_church_is_none():
    text = "Msze święte\nKaplica w Bagrowie:\nniedziela 9:00\nKościół parafialny:\nniedziela 11:00"
    assert [(t, r["church"]) for t, r in readings(text)] == [("09:00", "Kaplica w Bagrowie"), ("11:00", None)]


def test_the_lower_church_and_the_parish_house_are_places_of_their_own():
    text = (
        "Msze św. w niedziele: 7:15, 9:45 (dla rodzin, Dolny Kościół), 11:15 (dla młodzieży, kościół dolny), "
        "12:45 (w domu parafialnym), 19:00\nMsze św. w dni powszednie: 7:15 (w kościele parafialnym), 19:00"
    )
    got = [(t, r["church"]) for t, r in readings(text)]
    assert got == [
        ("07:15", None),
        ("09:45", "Dolny Kościół"),
        ("11:15", "kościół dolny"),
        ("12:45", "domu parafialnym"),
        ("19:00", None),
        ("07:15", None),
        ("19:00", None),
    ]
    # as headings, the first named is the parish's own and the other one is named
    text = "Msze święte\nKościół górny:\nniedziela 8:00\nKościół dolny:\nniedziela 9:30"
    assert [(t, r["church"]) for t, r in readings(text)] == [("08:00", None), ("09:30", "Kościół dolny")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # after a list separator the words speak of the next hour, not of the one before
        ("Msze św. w niedziele: 8.15, 10.45; sobota: latem 18.30", [None, None, "summer"]),
        ("Msze św. w niedziele: godz. 7.15, godz. 19.00, latem także o 21.00", [None, None, "summer"]),
        # inside a parenthesis a comma does not end the hour's own words
        ("Msze św. w niedziele: 9.00 (wiosna, lato), 10.00", ["summer", None]),
    ],
)
def test_words_past_a_list_separator_belong_to_the_next_hour(text, expected):
    assert [r["season"] for _, r in readings(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # the season heading a list holds for each of its times, not only the first
        (
            "Msze św. w niedziele: 8:15, 10:45; w lipcu i sierpniu: 8:15, 10:45, 21:00",
            [None, None] + ["summer"] * 3,
        ),
        # a nearer season ends the clause's: "zimą 9.15, 11.15" are both winter's
        ("Msze św. w niedziele: latem 7.45, 10.15, zimą 9.15, 11.15", ["summer"] * 2 + ["winter"] * 2),
        # not past a parenthesis: "(lato 19:15)" is one time's variant
        ("Msze św. w niedziele: 18:15 (lato 19:15), 20:15", ["not-summer", "summer", None]),
        # past a time's church and words, not past a place's name; a parenthesis left open heads nothing
        (
            "Msze św. w niedziele: 8.10, 12.10; w lipcu i sierpniu: 8.10, 9.40 (kaplica pw. św. Anny)"
            " 10.40 msza dla dzieci, 20.10",
            [None, None] + ["summer"] * 4,
        ),
        (
            "Msze św. w niedziele: Borowo godz. 7.10, zima godz. 15.10, Zalesie godz. 9.10, godz. 11.10",
            [None, "winter", None, None],
        ),
        (
            "Msze św. w niedziele: 9.40 (dla dzieci, 12.40; w wakacje: 8.10, 10.10",
            [None] * 2 + ["summer"] * 2,
        ),
    ],
)
def test_the_season_heading_a_list_holds_for_its_later_times(text, expected):
    assert [r["season"] for _, r in readings(text)] == expected


def test_the_church_labelling_a_list_holds_for_its_later_times():
    text = (
        "Msze św. w niedziele: 7:10, 9:10; kaplica szpitalna: 8:20, 10:20, 12:20\n"
        "Msze św. w dni powszednie: 7:10, kaplica szpitalna 6:40, 18:10"
    )
    got = [(t, r["church"]) for t, r in readings(text)]
    assert got == [
        ("07:10", None),
        ("09:10", None),
        ("08:20", "kaplica szpitalna"),
        ("10:20", "kaplica szpitalna"),
        ("12:20", "kaplica szpitalna"),
        ("07:10", None),
        ("06:40", "kaplica szpitalna"),
        ("18:10", None),  # no label (no colon): the chapel's name is of one time
    ]


def test_a_saturday_list_goes_on_past_another_place_s_name():
    text = "Msze św. w niedziele: sobota: Lipno 18:30, Brzozowo 17:15; niedziela: Lipno 9:00, 11:00"
    got = [(t, r["days"], r["vigil"]) for t, r in readings(text)]
    assert got == [
        ("18:30", ["sat"], True),
        ("17:15", ["sat"], True),
        ("09:00", ["sun"], False),
        ("11:00", ["sun"], False),
    ]


def test_a_church_named_by_its_village_alone_the_first_named_being_the_parish_church():
    text = (
        "Msze św. w niedziele: Olszyny godz. 7.30, godz. 11.00; Borowiec Mały godz. 9.00\n"
        "Msze św. w dni powszednie: Olszyny godz. 18.00; Borowiec Mały piątek godz. 17.00"
    )
    got = [(t, r["church"], r["days"]) for t, r in readings(text)]
    assert got == [
        ("07:30", None, ["sun"]),
        ("11:00", None, ["sun"]),
        ("09:00", "Borowiec Mały", ["sun"]),
        ("18:00", None, MON_SAT),
        ("17:00", "Borowiec Mały", ["fri"]),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św. w niedziele: 8.00, 10.30; Zarzecze – 9.15", [None, None, "Zarzecze"]),
        ("Msze św. w niedziele: 8.00, 12.00; w Lipówce o 10.00", [None, None, "Lipówce"]),
        ("Msze św. w niedziele: godz. 8.00, 9.30 (Stara Huta), godz. 11.00", [None, "Stara Huta", None]),
        ("Msze św. w dni powszednie: godz. 18.00, wtorek godz. 16.00 - Wólka", [None, "Wólka"]),
        ("Msze św. w niedziele: 7.30, 11.00, 12.30 DPS-Zalesie", [None, None, "DPS-Zalesie"]),
        ("Msze św. w dni powszednie: 7.00, w środę w Gaju o 17.00", [None, "Gaju"]),
    ],
)
def test_a_village_after_the_parish_times_is_another_church(text, expected):
    assert [r["church"] for _, r in readings(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a bare name between a time and the comma before the next is that time's place
        ("Msze św. w niedziele: 7.30 Olszynka, 9.00, 11.00", ["Olszynka", None, None]),
        ("Msze św. w niedziele: 8.00, 9.30 Stara Wola, 11.00", [None, "Stara Wola", None]),
        ("Msze św. w niedziele: 8.00 Borowo, 11.00 Dąbrowa", ["Borowo", "Dąbrowa"]),
        # labels of the time are no place
        ("Msze św. w niedziele: 8.00 Suma, 10.00, 12.00 Roraty, 18.00", [None, None, None, None]),
    ],
)
def test_a_village_right_after_its_time_before_a_comma_is_that_times_church(text, expected):
    assert [r["church"] for _, r in readings(text)] == expected


@pytest.mark.parametrize(
    "text",
    [
        "Niedziela: 8:00, 10:00 Suma, 12:00 Msza dla dzieci",
        "Msze św.\nNiedziela 9:00\nWigilia Paschalna 20:00",
        "Msze św. w niedziele: 8.00, w Wielki Czwartek o 18.00",
        "Intencje mszalne\n7:00 – + Jan Nowak\n18:00 – Anna Kowalska (rocznica)",
        "Msze św. w niedziele: 8.00, 11.00 (Adwent), 18.00 (w lipcu i sierpniu)",
        "Msze św. w niedziele: 8.00, 10.00, 12.00 Wieczorna",
        "Msze św. w niedziele: 7.00 Poranna, 9.00, 13.00 Popołudniowa",
    ],
)
def test_capitalised_words_that_are_no_place_name_no_church(text):
    got = readings(text)
    assert len(got) >= 2 and [r["church"] for _, r in got] == [None] * len(got)


def test_a_village_adjective_is_part_of_its_name_not_a_church_word():
    text = "Msze św. w niedziele: Dąbrowa Kościelna 8:00, 11:00; Zagórze 9:30"
    assert [r["church"] for _, r in readings(text)] == [None, None, "Zagórze"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.\nW okresie wakacji:\nniedziela 9:00, 11:00", [("09:00", "summer"), ("11:00", "summer")]),
        ("Msze św.: niedziela 12:30 (oprócz wakacji)", [("12:30", "not-summer")]),
        ("Msze św. od 1 lipca do 31 sierpnia: niedziela 19:00", [("19:00", "07-01..08-31")]),
        ("Roraty w Adwencie: od poniedziałku do soboty o 6:30", [("06:30", "advent")]),
        ("Msze św.: dni powszednie 18:00 (lato 19:00)", [("18:00", "not-summer"), ("19:00", "summer")]),
        ("Msze św. w roku szkolnym: niedziela 11:00", [("11:00", "school-year")]),
    ],
)
def test_seasons(text, expected):
    assert [(t, r["season"]) for t, r in readings(text)] == expected


def test_no_mass_in_summer_marks_that_time_of_the_schedule():
    text = "Msze św.\nDni powszednie: 6:30, 18:00\nNa wakacjach nie ma Mszy św. o 6:30"
    got = [(t, r["season"]) for t, r in readings(text)]
    assert got[:2] == [("06:30", "not-summer"), ("18:00", None)]


def test_announced_one_offs_with_their_dates():
    got = readings("Pogrzeb śp. Jana we wtorek o godz. 11:00, Msza św. w kościele.")
    assert [(t, r["kind"], r["days"]) for t, r in got] == [("11:00", "one_off", ["tue"])]
    dated = readings("Msze św. w dniu 21.10.2025: 07:00, 18:00")
    assert [(t, r["kind"], r["date"], r["days"]) for t, r in dated] == [
        ("07:00", "one_off", "2025-10-21", ["tue"]),
        ("18:00", "one_off", "2025-10-21", ["tue"]),
    ]


def test_a_history_date_dates_no_times_below_it():
    # a church's consecration year under its name, then the chapel's regular Mass: no one-off of 1926
    text = (
        "Kłębowiec (kościół filialny)\nneogotycki, bud. 1925-1926, pośw. 20.07.1926\n\n"
        "Wałcz (kaplica w szpitalu)\nMsze św., w dni powszednie: sobota 14.30\n"
    )
    assert [(t, r["kind"], r["date"], r["days"]) for t, r in readings(text)] == [
        ("14:30", "regular", None, ["sat"])
    ]
    # a heading dated this year still dates them
    dated = readings("Wtorek 21.10.2025\nMsze św.: 7.00, 18.00\n")
    assert [(t, r["kind"], r["date"]) for t, r in dated] == [
        ("07:00", "one_off", "2025-10-21"),
        ("18:00", "one_off", "2025-10-21"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Msza św. w intencji parafian 30.02.2026 o godz. 18:00",
        "Pogrzeb śp. Anny 31.11, Msza św. o godz. 11:00",
        "Msza św. dnia 00.05 o 7:00",
        "Nabożeństwo 32.01, Msza św. o 18:00",
        "Msza św. w dniu 29.02.2025 o 18:00",  # 2025 is no leap year
        "Msza św. 31 kwietnia o 18:00",
        "Msza św. 31 VI o 18:00",
    ],
)
def test_an_impossible_date_is_no_date_but_its_hour_is_still_read(text):
    assert [(t, r["date"]) for t, r in readings(text)] == [(find_hours(text)[-1].time, None)]


def test_a_possible_date_next_to_those_is_read():
    assert [r["date"] for _, r in readings("Msza św. w dniu 30.04.2026 o 18:00")] == ["2026-04-30"]
    assert [r["date"] for _, r in readings("Msza św. w dniu 29.02.2024 o 18:00")] == ["2024-02-29"]


def test_the_page_year_never_makes_a_date_impossible():
    # "29.02" on a page of 2025: the day is kept without the year, which lacks it
    text = "Ogłoszenia 2025\nPIĄTEK 29.02\nMsza św. 18:00"
    assert [r["date"] for _, r in readings(text, year=None)] == ["02-29"]
    text = "Ogłoszenia 2024\nCZWARTEK 29.02\nMsza św. 18:00"
    assert [r["date"] for _, r in readings(text, year=None)] == ["2024-02-29"]


def test_an_impossible_day_bounds_no_season():
    assert [r["season"] for _, r in readings("Msze św. od 31.06 do 31.08: niedziela 9:00")] == [None]
    assert [r["season"] for _, r in readings("Msze św. od 1.07 do 31.08: niedziela 9:00")] == ["07-01..08-31"]


def test_a_date_heading_dates_the_intentions_below_it_with_the_pages_year():
    text = "Intencje mszalne 2020\nPONIEDZIAŁEK 26.10\n7:00 – + Jan Kowalski\n18:00 – Za parafian"
    got = [(t, r["kind"], r["date"], r["days"]) for t, r in readings(text, year=None)]
    assert got == [("07:00", "one_off", "2020-10-26", ["mon"]), ("18:00", "one_off", "2020-10-26", ["mon"])]


def test_first_friday_is_monthly_not_weekly():
    got = readings("Msze św.\nI piątek miesiąca:\n7:00, 18:00")
    assert [(r["kind"], r["date"]) for _, r in got] == [("monthly", None), ("monthly", None)]


def test_roraty_and_the_weekly_schedule_are_regular():
    got = readings("Msze święte\nNiedziela: 8:00, 10:00\nRoraty: pn.–sob. 6:30")
    assert {r["kind"] for _, r in got} == {"regular"}


def test_tags_belong_to_their_own_hour():
    text = "Niedziela: 9:00 (dla dzieci), 11:00 (suma), 18:00 Msza w nadzwyczajnej formie rytu rzymskiego"
    assert [(t, r["tags"]) for t, r in readings(text)] == [
        ("09:00", ["children"]),
        ("11:00", ["suma"]),
        ("18:00", ["tridentine"]),
    ]


def test_language_and_youth_tags():
    got = readings("Msze św.\nNiedziela: 12:00 (po ukraińsku), 19:00 (dla młodzieży)")
    assert [r["tags"] for _, r in got] == [["uk"], ["youth"]]


def test_confession_times_go_to_the_page_not_to_the_masses():
    page = extract("Msze św.: niedziela 9:00.\nSpowiedź: sobota 17:30–18:00, w piątki od 17.00")
    assert page.masses == ["09:00"]
    confessions = page_confessions(
        "Msze św.: niedziela 9:00.\nSpowiedź: sobota 17:30–18:00, w piątki od 17.00"
    )
    assert {"days": ["sat"], "start": "17:30", "end": "18:00", "church": None, "season": None} in confessions


def test_a_confession_heading_reads_its_day_lines_and_ranges_like_a_schedule():
    text = "Msze św.\nw niedziele 8.30, 11.00\n\nSpowiedź:\nczwartek 16.15 - 17.00\nsobota 7.30–8.15\n"
    assert extract(text).masses == ["08:30", "11:00"]
    assert [(c["days"], c["start"], c["end"]) for c in page_confessions(text)] == [
        (["thu"], "16:15", "17:00"),
        (["sat"], "07:30", "08:15"),
    ]


def test_confession_before_every_mass_gives_no_time_and_no_mass():
    text = "Msze św.\nw niedziele 8.30, 11.00\nSpowiedź pół godziny przed każdą Mszą św.\n"
    assert extract(text).masses == ["08:30", "11:00"]
    assert page_confessions(text) == []


def page_confessions(text: str) -> list[dict]:
    from msze.extraction.page import PageSteps

    page: dict = {"text": text}
    steps = PageSteps()
    steps.text(page)
    steps.hours(page)
    return page["confessions"]


# --- the misses the first version had ---------------------------------------------------------------------


def test_bare_hours_listed_after_an_hour_word_are_all_masses():
    assert [t for t, _ in readings("Msze św.\nNiedziela: godz. 7, 9, 11 i 18")] == [
        "07:00",
        "09:00",
        "11:00",
        "18:00",
    ]
    assert [t for t, _ in readings("Msze św.: w niedziele o godzinie 9 i 11")] == ["09:00", "11:00"]


def test_a_bare_number_without_an_hour_word_is_still_no_hour():
    assert readings("Niedziela 8, 10") == []


@pytest.mark.parametrize(
    ("text", "times"),
    [
        ("Msza św. o siódmej", ["07:00"]),
        ("Msza św. o wpół do ósmej", ["07:30"]),
        ("Msza św. o osiemnastej", ["18:00"]),
        ("Msza św. o godz. 18-tej", ["18:00"]),
        ("Pasterka o północy", ["00:00"]),
    ],
)
def test_hours_as_words_and_ordinals(text, times):
    assert [t for t, _ in readings(text)] == times


def test_a_date_by_a_days_name_is_no_time():
    assert [h.time for h in find_hours("17.07 (niedziela) – 9.00")] == ["09:00"]
    assert [h.time for h in find_hours("Wtorek, 21.10 – Msza o 18.00")] == ["18:00"]
    assert [h.time for h in find_hours("Msza o 17.10 w kaplicy")] == ["17:10"]


def test_a_broadcast_mass_is_not_one_to_go_to():
    text = "Msze święte w telewizji\n7.00\nTVP 1\n9.30\nTV Trwam"
    assert readings(text) == []
    assert [t for t, _ in readings("Msza św. o 11:00 (transmisja w internecie)")] == ["11:00"]


def test_a_mass_named_just_before_its_time_wins_over_a_devotion_after_it():
    assert [t for t, _ in readings("Po Mszy św. o godz. 12.00 odbędzie się nabożeństwo żałobne.")] == [
        "12:00"
    ]


# --- robustness -----------------------------------------------------------------------------------------

_pieces = st.sampled_from(
    [
        "Msze św. ",
        "niedziela ",
        "dni powszednie: ",
        "sobota ",
        "Kaplica w Zalesiu:",
        "\n",
        "7:00",
        ", ",
        " i ",
        "18.00",
        "(lato 19:00)",
        "w wakacje nie ma Mszy o 6:30",
        "21.10.2025",
        "od 1 lipca do 31 sierpnia ",
        "pogrzeb ",
        "spowiedź 17:30–18:00",
        "o siódmej",
        "godz. 7, 9",
        "(",
        ")",
        "–",
        "x",
        "31.02",
        "30.02.2026",
        "29.02",
        "31.11 ",
        "1 XIII",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_pieces, max_size=40).map("".join))
def test_the_reading_never_raises_and_stays_consistent(text):
    hours = find_hours(text)
    decisions = decide(text, hours)
    assert len(decisions) == len(hours)
    for d in decisions:
        r = d.reading
        assert r.kind in ("regular", "one_off")
        assert r.days is None or r.days.days <= {"mon", "tue", "wed", "thu", "fri", "sat", "sun", "holiday"}
        assert not r.vigil or r.days.days == {"sat"}
        assert r.date is None or _possible(r.date_text())


def _possible(text: str) -> bool:
    """Whether a reading's date ("YYYY-MM-DD" or "MM-DD", any leap year) exists."""
    try:
        datetime.date.fromisoformat(text if len(text) == 10 else f"2024-{text}")
    except ValueError:
        return False
    return True


def test_the_blessing_of_easter_food_in_the_villages_is_no_mass():
    text = "Święcenie pokarmów na wioskach: ul. Chrobrego o godz. 10.00, Piaskowo o 10.20, Rudniki o 11.00."
    assert readings(text) == []


def test_a_listing_of_tv_channels_is_no_schedule():
    text = "Msze święte w telewizji w niedzielę\nGodzina\nStacja\n7.00\nTVP 1 i TVP Info\n9.00\nPolsat News\n"
    assert readings(text) == []
    assert [t for t, _ in readings(text + "\nMsze św. w naszym kościele\nNiedziela: 8:00, 10:00")] == [
        "08:00",
        "10:00",
    ]


def test_a_bible_verse_is_no_time():
    text = "Mk 13,35 „Czuwajcie” J 3.16; Oz 7; Ps 23,10. Roraty o 6.30"
    # a chapter alone is a candidate, as the thesis takes it (find_hours finds all its hits); a chapter,verse
    # is none; neither is a Mass time
    assert [h.text for h in find_hours(text)] == ["13", "7", "6.30"]
    assert [t for t, _ in readings(text)] == ["06:30"]


@pytest.mark.parametrize(
    "text",
    [
        "Liturgia Wielkiego Piątku o godz. 18.00",
        "Aktualizacja: środa, 25 marca 2020 r., godz 15:00:",
    ],
)
def test_no_mass_at_these_times(text):
    assert readings("Msze św.\n" + text) == []


def test_a_sentence_about_first_fridays_does_not_make_the_times_below_monthly():
    text = (
        "Msze św.\nW pierwszy czwartek, piątek i sobotę miesiąca rano i wieczorem.\n"
        "W niedziele o godz. 8.00 i 10.30"
    )
    assert [(t, r["kind"]) for t, r in readings(text)] == [("08:00", "regular"), ("10:30", "regular")]
    assert [r["kind"] for _, r in readings("Msze św.\nI piątek miesiąca:\n7:00, 18:00")] == ["monthly"] * 2


def test_a_number_of_years_is_no_time():
    assert [h.time for h in find_hours("ofiara złożona przed 2000 laty; Msza o 1800")] == ["18:00"]


def test_a_season_heading_ends_at_the_next_day_heading_once_its_times_are_read():
    text = (
        "Msze św. w niedziele:\ngodz. 7.00, 9.00\nW okresie wakacyjnym:\ngodz. 7.00, 20.00\n"
        "Msze św. w dzień powszedni:\ngodz. 6.30, 7.00\nW wakacje:\nNiedziela: 8:00\n"
    )
    assert [(t, r["season"]) for t, r in readings(text)] == [
        ("07:00", None),
        ("09:00", None),
        ("07:00", "summer"),
        ("20:00", "summer"),
        ("06:30", None),
        ("07:00", None),
        ("08:00", "summer"),  # a day heading right under the season heading is in that season
    ]


def test_a_pandemic_schedule_is_seasonal():
    got = readings("W okresie pandemii dodatkowe Msze św. sprawujemy w tygodniu o godz. 18.00.")
    assert [(t, r["season"]) for t, r in got] == [("18:00", "pandemic")]


TRICKY_DATES = (
    "1.05 11.05.2025 .3.04 12:1.05 121.05 7 listopada 2025, 07 XI 2025 8XII 3 IX20251 18.00 21.10.20255 "
    "od 1 lipca do 31 sierpnia; 2024 12024 x2023 20245 2031-2032 1.1.2001"
)


def test_date_matches_are_those_of_the_whole_regex():
    from msze.extraction.rules.reading import DATE_RE, _date_matches

    expected = [m.span() for m in DATE_RE.finditer(TRICKY_DATES)]
    assert [m.span() for m in _date_matches(TRICKY_DATES)] == expected
    assert len(expected) >= 8


def test_page_year_counts_years_not_inside_longer_numbers():
    from msze.extraction.rules.reading import page_year

    assert page_year("2024 12024 2024x 20245 x2023 2023 a2023") == 2023
    assert page_year("2024 w 2024 r., 12025 20251 2025") == 2024
    assert page_year("1999 3000") is None


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="0123. :-XIV2lipca", max_size=40))
def test_date_matches_and_years_agree_with_the_plain_regexes(text):
    import re

    from msze.extraction.rules.reading import _YEAR_RE, DATE_RE, _date_matches

    assert [m.span() for m in _date_matches(text)] == [m.span() for m in DATE_RE.finditer(text)]
    assert _YEAR_RE.findall(text) == re.findall(r"(?<!\d)(20[0-3]\d)(?!\d)", text)


# --- seasons: negations, complements, lists (issue 25) ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.\nNiedziela: 9:00, 13:00 (za wyjątkiem wakacji)", "not-summer"),
        ("Msze św.\nNiedziela: 9:00, 13:00 (z wyjątkiem lipca i sierpnia)", "not-summer"),
        ("Msze św.\nNiedziela: 9:00, 13:00 (z wyłączeniem miesięcy letnich)", "not-summer"),
        ("Msze św.\nW tygodniu: 6:30, 7:15 (poza feriami)", "not-holidays"),
        ("Msze św.\nW tygodniu: 6:30, 7:15 (oprócz wakacji i ferii)", "not-holidays"),
        ("Msze św.\nNiedziela: 9:00, 17:15 (w Wielkim Poście)", "lent"),
    ],
)
def test_a_season_named_after_an_exception_word_is_the_rest_of_the_year(text, expected):
    assert [r["season"] for _, r in readings(text)] == [None, expected]


def test_a_season_negated_is_no_place_name():
    got = readings("Msze św. w niedziele: 8:00, 18:00 (w Wielkim Poście o 16:30)")
    assert [(t, r["church"], r["season"]) for t, r in got] == [
        ("08:00", None, None),
        ("18:00", None, "not-lent"),  # Lent's variant leaves it the rest of the year
        ("16:30", None, "lent"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.: dni powszednie 6:45, 18:30 (zimą 17:30)", [WINTER_REST, "winter"]),
        ("Msze św.: dni powszednie 6:45, 18:30 (pora zimowa: 17:30)", [WINTER_REST, "winter"]),
        ("Msze św. w niedziele: 8:30, 17:30 (w lipcu i sierpniu 20:00)", ["not-summer", "summer"]),
        ("Msze św.: niedziela 8:30, 17:30 (od 1.07 do 31.08 o 20:00)", ["09-01..06-30", "07-01..08-31"]),
    ],
)
def test_the_time_before_a_seasonal_variant_is_held_the_rest_of_the_year(text, expected):
    assert [r["season"] for _, r in readings(text)] == [None, *expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # two variants in one parenthesis: the time is held outside both
        ("Msze św. w niedziele: 8:00, 18:00 (zimą o 17:00, a w lecie o 19:00)", ["not-summer-winter"]),
        # outside Lent and the holidays: no season names that rest of the year, the year's order keeps it
        ("Msze św. w niedziele: 8:00, 18:00 (w Wielkim Poście o 16:45, a w wakacje o 20:00)", [None]),
    ],
)
def test_a_time_with_two_seasons_variants_is_held_outside_both(text, expected):
    got = readings(text)
    assert [r["season"] for _, r in got][1:2] == expected
    assert [r["season"] for _, r in got][2:] != [None, None]  # the variants keep their seasons


def test_a_variant_of_no_season_leaves_the_time_all_year():
    got = readings("Msze św.: niedziela 8:30, 17:30 (dla dzieci 16:00)")
    assert [r["season"] for _, r in got] == [None] * 3


def test_a_season_after_a_semicolon_heads_the_times_of_its_list():
    got = readings("Msze św. w dni powszednie: 6:30, 8:00, 18:00; w wakacje: 8:00, 18:00; w soboty 8:00")
    assert [(t, r["season"]) for t, r in got] == [
        ("06:30", None),
        ("08:00", None),
        ("18:00", None),
        ("08:00", "summer"),
        ("18:00", "summer"),
        ("08:00", None),
    ]


def test_a_season_begins_the_parish_churchs_list_after_a_villages_unless_it_is_the_villages_variant():
    got = readings("Msze św. w niedziele: 8:00, Zalesie 9:30, w wakacje 8:00, 11:00")
    assert [(t, r["church"], r["season"]) for t, r in got] == [
        ("08:00", None, None),
        ("09:30", "Zalesie", None),
        ("08:00", None, "summer"),
        ("11:00", None, "summer"),
    ]
    got = readings("Msze św. w dni powszednie: Borowo zima 18:00, lato 19:00; Zalesie zima 17:00, lato 18:30")
    assert [(t, r["church"], r["season"]) for t, r in got] == [
        ("18:00", None, "winter"),
        ("19:00", None, "summer"),
        ("17:00", "Zalesie", "winter"),
        ("18:30", "Zalesie", "summer"),
    ]


def _in_range(month_day: tuple[int, int], season: str) -> bool:
    (m1, d1), (m2, d2) = season_range(season)
    start, end = (m1, d1), (m2, d2)
    return start <= month_day <= end if start <= end else month_day >= start or month_day <= end


@given(st.dates(datetime.date(2024, 1, 1), datetime.date(2024, 12, 31)), st.integers(0, 365))
@settings(max_examples=200, deadline=None)
def test_a_date_range_and_its_complement_share_no_day_and_leave_none_out(start, length):
    end = start + datetime.timedelta(days=length)
    season = f"{start.month:02d}-{start.day:02d}..{end.month:02d}-{end.day:02d}"
    rest = complement(season)
    if rest is None:  # the whole year
        assert all(_in_range((m, d), season) for m in range(1, 13) for d in (1, 15, 28))
        return
    for n in range(366):
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=n)
        if (day.month, day.day) == (2, 29) and (end.month, end.day) == (2, 28):
            continue  # a range to the 28th of February ends the month: the 29th is neither's
        month_day = (day.month, day.day)
        assert _in_range(month_day, season) != _in_range(month_day, rest), (season, rest)


@given(st.sets(st.integers(1, 12), min_size=2, max_size=11))  # one "I" alone is an ordinal
@settings(max_examples=200, deadline=None)
def test_months_listed_and_their_complement_share_no_day_and_leave_none_out(months):
    """Any months, listed ("V, VI, X, XII") or left out ("z wyjątkiem I, VII, VIII"), are a season of one or
    more stretches; it and the rest of the year split every day of a leap year between them."""
    listed = ", ".join(("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")[m - 1]
                       for m in sorted(months))  # fmt: skip
    season = season_in(f"Msze w m-cach {listed}: 18:00")
    rest = season_in(f"Msze z wyjątkiem {listed}: 18:00")
    assert rest == complement(season) and season == complement(rest)
    for n in range(366):
        day = datetime.date(2024, 1, 1) + datetime.timedelta(days=n)
        assert in_season(day, season) == (day.month in months) != in_season(day, rest), (season, rest, day)


def test_the_complements_of_named_seasons():
    assert [complement(s) for s in ("summer", "holidays", "school-year", "winter", "advent", None)] == [
        "not-summer",
        "not-summer",
        "summer",
        WINTER_REST,
        "not-advent",
        None,
    ]
    assert complement(WINTER_REST) == "winter"
    assert (complement("lent"), complement("not-lent")) == ("not-lent", "lent")


@pytest.mark.parametrize(
    "text",
    [
        "W wakacje nie ma Mszy św. o 12.30.",
        "Msza o 7.00 nie będzie odprawiana.",
        "Msze jak w niedzielę, bez Mszy o 20.00.",
        "Msza wieczorna o 19.00 jest odwołana.",
    ],
)
def test_a_mass_said_not_to_be_held_is_the_pages_mass_time_read_as_negated(text):
    hours = find_hours(text)
    decisions = decide(text, hours, 2025)
    assert [(d.is_mass, d.reason) for d in decisions][-1:] == [(True, "negated")]


def test_a_negation_of_another_clause_or_time_negates_nothing():
    text = "W poniedziałki nie ma Mszy, we wtorki Msza o 7.00. Nie będzie Mszy o 18.00, będzie o 19.00."
    hours = find_hours(text)
    assert [d.reason == "negated" for d in decide(text, hours, 2025)] == [False, True, False]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.: niedziela 9:30 w kaplicy św. Barbary, 11:00", "kaplicy św. Barbary"),
        ("Msze św.: niedziela 9:30 (w kaplicy bł. Karoliny)", "kaplicy bł. Karoliny"),
        ("Msze św.: niedziela 9:30 w kościele pw. Ducha Świętego", "kościele pw. Ducha Świętego"),
        ("Msze św. o 9:30 w kaplicy szpitalnej w niedziele i święta", "kaplicy szpitalnej"),
        ("Msze św. o 9:30 w kaplicy Matki Bożej oraz w tygodniu o 7:00", "kaplicy Matki Bożej"),
        ("Msze św. o 9:30 w kościele filialnym w Borkach dla dzieci", "kościele filialnym w Borkach"),
        ("Msze św. o 9:30 w kaplicy na cmentarzu także w soboty", "kaplicy na cmentarzu"),
        # "p.w." ends no sentence: the name goes on to its patron
        ("Msze św.: niedziela 9:30 w kościele p.w. Św. Józefa", "kościele p.w. Św. Józefa"),
        # a verb or a Mass word is where the clause goes on
        ("W kaplicy Zamkowej będą Msze św. o 9:30", "kaplicy Zamkowej"),
        # a season after the name is the time's, not part of the name
        ("Msze św.: niedziela 8.00, kaplica domu opieki zimą 9:30", "kaplica domu opieki"),
    ],
)
def test_a_churchs_name_goes_past_its_abbreviations_and_stops_where_the_clause_goes_on(text, expected):
    assert readings(text)[-1 if "zimą" in text else 0][1]["church"] == expected


def test_a_churchs_list_goes_on_past_the_season_that_ends_its_label():
    text = (
        "Msze w niedziele: 9.00, 11.00, kaplica szpitalna lato godz. 18.00, zima godz. 17.00; kościół 20.00"
    )
    assert [(t, r["church"], r["season"]) for t, r in readings(text)] == [
        ("09:00", None, None),
        ("11:00", None, None),
        ("18:00", "kaplica szpitalna", "summer"),
        ("17:00", "kaplica szpitalna", "winter"),
        ("20:00", None, None),
    ]


def test_confession_during_every_mass_listed_in_parentheses_is_at_each_of_them():
    text = (
        "Spowiadamy w dni powszednie podczas każdej Mszy św.(6:45 i 19:00); w niedziele podczas każdej Mszy "
        "(8.30, 10.00, 11.30), a w pierwsze piątki od godz. 16.00."
    )
    got = [(c["days"], c["start"]) for c in page_confessions(text)]
    assert [start for _, start in got] == ["06:45", "19:00", "08:30", "10:00", "11:30", "16:00"]
    assert got[0][0] == MON_SAT and got[2][0] == ["sun"]
    hours = find_hours(text)
    assert [d.reason for d in decide(text, hours, 2025)][:5] == ["confession at mass"] * 5


def test_time_and_place_lines_under_a_day_heading_are_masses_at_that_church():
    text = "Dni powszednie:\n7:30 – kościół parafialny\n18:00 – kaplica Zalesie\nSobota:\n10:00 Powitanie"
    assert [(t, r["church"]) for t, r in readings(text)] == [("07:30", None), ("18:00", "kaplica Zalesie")]


def test_confession_before_or_during_the_masses_is_at_those_masses_times():
    text = (
        "Msze św.\nDni powszednie: 7:30, 18:30\n"
        "Spowiedź codziennie przed Mszą św. o 7.30 i 18.30, w czasie Mszy o 9.00"
    )
    got = [(c["start"], c["end"], c.get("at_mass")) for c in page_confessions(text)]
    assert got == [("07:30", None, True), ("18:30", None, True), ("09:00", None, True)]
    hours = find_hours(text)
    reasons = [d.reason for d in decide(text, hours, 2025)]
    assert reasons[2:] == ["confession at mass"] * 3


def test_confession_under_its_heading_is_read_like_a_mass_schedule():
    text = (
        "Msze św.\nNiedziela: 8:00, 11:00\nSpowiedź w naszej parafii:\n15 minut przed Mszą św.,\n"
        "Piątek 17:00 – 18:00\nSobota 9:30\nMsze św.\nSobota 18:00"
    )
    got = [(c["days"], c["start"], c["end"]) for c in page_confessions(text)]
    assert got == [(["fri"], "17:00", "18:00"), (["sat"], "09:30", None)]
    assert [(t, r["days"]) for t, r in readings(text)] == [
        ("08:00", ["sun"]),
        ("11:00", ["sun"]),
        ("18:00", ["sat"]),
    ]


def test_a_devotion_named_inside_a_parish_name_is_no_topic_but_a_header_naming_the_parish_is():
    assert [t for t, _ in readings("Parafia Matki Bożej Różańcowej\nNiedziela: 8:00, 10:00")] == [
        "08:00",
        "10:00",
    ]
    assert readings("Różaniec w naszej parafii:\nNiedziela: 17:00") == []


@pytest.mark.parametrize(
    "text",
    [
        "Msze św. w niedziele: 8:00, 10:00 (w Adwencie po Roratach o 16.00 adoracja)\nGodziny\n"
        "Dni powszednie: 6.30, 17.30",
        "W Adwencie zapraszamy na Roraty o 6:45, a w piątki na różaniec.\nDni powszednie: 6.30, 17.30",
        "Serdecznie zapraszamy na różaniec.\nDni powszednie: 6.30, 17.30",
    ],
)
def test_a_devotion_word_in_parentheses_or_ending_a_paragraph_leaves_the_next_lines_masses(text):
    assert [t for t, _ in readings(text)][-2:] == ["06:30", "17:30"]


@pytest.mark.parametrize(
    "text",
    [
        "Nieszpory\nNiedziela: 17:00",
        "Nieszpory.\nNiedziela: 17:00",
        "Spowiedź w sobotę od 16.30 do 17.00.\nSobota:\n17.15",
    ],
)
def test_a_devotions_header_or_a_sentence_opening_with_it_still_heads_the_lines_below(text):
    assert readings(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(IX-VI)", "09-01..06-30"),
        ("(X–III)", "10-01..03-31"),
        ("wrzesień-czerwiec:", "09-01..06-30"),
        ("październik – kwiecień", "10-01..04-30"),
        ("od października do marca", "10-01..03-31"),
        ("lipiec-sierpień", "summer"),
        ("I-III klasy", None),
        ("12.IX-VI.2020", None),
    ],
)
def test_whole_months_joined_by_a_dash_are_a_season(text, expected):
    assert season_in(text) == expected


def test_months_joined_by_a_dash_head_the_times_below_and_in_a_list():
    got = readings("Msze św.\nNiedziele (wrzesień-czerwiec):\n7:30, 10:30")
    assert [(t, r["season"]) for t, r in got] == [("07:30", "09-01..06-30"), ("10:30", "09-01..06-30")]
    got = readings("Msze św.\nDni powszednie: 7:00, 18:00 (X-IV)")
    assert [(t, r["season"]) for t, r in got] == [("07:00", None), ("18:00", "10-01..04-30")]


def test_a_time_in_parentheses_with_its_season_is_the_variant_of_the_time_before():
    got = readings("Msze św. w niedziele:\n10.30, 17.30 (16.30 okres zimowy), 19.00")
    assert [(t, r["season"]) for t, r in got] == [
        ("10:30", None),
        ("17:30", WINTER_REST),
        ("16:30", "winter"),
        ("19:00", None),
    ]
    got = readings("Msze św. w niedziele: 10.30, 17.30 (16.30 dla dzieci)")
    assert [r["season"] for _, r in got] == [None, None, None]


def test_from_advent_to_easter_is_the_winter_half_of_the_year():
    got = readings("Msze św. w niedziele: godz. 7.30 (godz.8.00-od Adwentu do Wielkanocy) godz. 9.30")
    assert [(t, r["season"]) for t, r in got] == [
        ("07:30", WINTER_REST),
        ("08:00", "winter"),
        ("09:30", None),
    ]
    got = readings("Msze św. w niedziele od Wielkanocy do Adwentu: 19.00")
    assert [(t, r["season"]) for t, r in got] == [("19:00", WINTER_REST)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św.\nw niedziele: 8.00, 10.00\nw pozostałe dni tygodnia: 7.00",
         [("08:00", ["sun"]), ("10:00", ["sun"]), ("07:00", MON_SAT)]),
        ("Msze św.\nw niedziele: 9.00\nw soboty: 8.00\nw inne dni: 18.00",
         [("09:00", ["sun"]), ("08:00", ["sat"]), ("18:00", MON_FRI)]),
        ("Msze św.\nwe wtorki: 7.00\npozostałe dni powszednie: 18.00",
         [("07:00", ["tue"]), ("18:00", ["mon", "wed", "thu", "fri", "sat"])]),
        ("Msze św. w niedziele oraz w niektóre święta: 8.00, 11.00",
         [("08:00", ["sun", "holiday"]), ("11:00", ["sun", "holiday"])]),
        # letter-spaced headings
        ("Msze św.\nS O B O T A\n7.00, 18.00\nN I E D Z I E L A\n8.00, 10.30",
         [("07:00", ["sat"]), ("18:00", ["sat"]), ("08:00", ["sun"]), ("10:30", ["sun"])]),
        ("Msze św.\nN I E D Z I E L E   I   Ś W I Ę T A\n9.00\nD N I   P O W S Z E D N I E\n7.00",
         [("09:00", ["sun", "holiday"]), ("07:00", MON_SAT)]),
    ],
)  # fmt: skip
def test_the_other_days_some_holy_days_and_letter_spaced_headings(text, expected):
    assert days(text) == expected


def test_a_feast_list_gives_each_feast_its_date_and_day_not_the_holy_days():
    text = (
        "PORZĄDEK ŚWIĄTECZNY\n• Wniebowzięcie – 15 sierpnia – 8.00, 11.00\n"
        "• Wszystkich Świętych – 1 listopada – 9.00"
    )
    got = [(t, r["kind"], r["date"], r["days"]) for t, r in readings(text, 2025)]
    assert got == [
        ("08:00", "one_off", "2025-08-15", ["fri"]),
        ("11:00", "one_off", "2025-08-15", ["fri"]),
        ("09:00", "one_off", "2025-11-01", ["sat"]),
    ]
    # a dash after a date still bounds a season: no day of its own
    assert [r["date"] for _, r in readings("Msze św. w dni powszednie 1 – 15 sierpnia: 7.00")] == [None]


def test_times_given_as_the_sunday_order_are_a_one_off_of_no_day():
    text = "Msze św. w niedziele: 8.00, 10.00\nW drugi dzień świąt Msze jak w niedzielę: 6.30, 9.30"
    got = [(t, r["kind"], r["days"]) for t, r in readings(text)]
    assert got == [("08:00", "regular", ["sun"]), ("10:00", "regular", ["sun"]), ("06:30", "one_off", []),
                   ("09:30", "one_off", [])]  # fmt: skip
    hours = find_hours(text)
    orders = [d.reading.sunday_order for d in decide(text, hours)]
    assert orders == [False, False, True, True]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("Msze św. w niedziele: 8.00, 18.00 - ostatnia niedziela miesiąca z udziałem młodzieży, 20.00",
         ["regular", "regular", "regular"]),
        ("Msze niedzielne:\n9:30\n11:00 – suma; w II i IV niedziele miesiąca – chrzty\n12:30",
         ["regular", "regular", "regular"]),
        # the monthly phrase alone, or before the time: a Mass of its own
        ("Niedziele: 8.00, 15.00 (ostatnia niedziela miesiąca)", ["regular", "monthly"]),
        ("Msze św. w niedziele: 8.00; w ostatnią niedzielę miesiąca o 15.00 z udziałem chorych",
         ["regular", "monthly"]),
        ("Niedziele:\n9.00 (druga niedziela m-ca)\n10.30", ["monthly", "regular"]),
    ],
)  # fmt: skip
def test_a_monthly_note_after_a_weekly_time_says_who_some_of_its_days_have(text, kinds):
    assert [r["kind"] for _, r in readings(text)] == kinds


def test_a_feast_held_in_the_sunday_order_is_a_one_off_by_reference():
    text = "W uroczystość Wszystkich Świętych Msze św. będą w porządku niedzielnym: 8.00, 10.00 i 17.00."
    hours = find_hours(text)
    got = [
        (h.time, d.reading.kind, d.reading.sunday_order)
        for h, d in zip(hours, decide(text, hours), strict=True)
    ]
    assert got == [("08:00", "one_off", True), ("10:00", "one_off", True), ("17:00", "one_off", True)]


@pytest.mark.parametrize(
    "text",
    [
        "Msze św. w tygodniu: 6.30, 18.00. W Wielki Piątek 18.00.",
        "Msze św. w tygodniu: 6.30, 18.00. Z okazji odpustu o 18.00 suma.",
    ],
)
def test_a_sentence_end_before_a_feast_phrase_leaves_the_weekly_time_weekly(text):
    got = [(t, r["kind"]) for t, r in readings(text)]
    assert got == [("06:30", "regular"), ("18:00", "regular"), ("18:00", "one_off")]


def test_a_sentence_of_its_own_in_the_sunday_order_is_still_a_one_off_by_reference():
    # the sentence end before "W Farnym" splits the item: the order given by the Sunday's names no day
    text = (
        "2. Na cmentarzu Msze nie będą odprawiane. W Farnym Kościele odprawimy Msze św. według porządku "
        "niedzielnego o godz. 7.00, 9.30 i 17.00."
    )
    assert [(t, r["kind"], r["days"]) for t, r in readings(text)] == [
        ("07:00", "one_off", []),
        ("09:30", "one_off", []),
        ("17:00", "one_off", []),
    ]
    # the holy days' order by the Sunday's stays weekly
    assert [r["kind"] for _, r in readings("W święta zniesione Msze jak w niedzielę: 7.00, 9.00.")] == [
        "regular",
        "regular",
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Od niedzieli 7 czerwca Msze św. będą o godz. 8.00 i 10.30.", "regular"),
        ("Od środy, 10 czerwca Msza św. wieczorna o 19.00.", "regular"),
        ("W niedzielę 7 czerwca Msze św. będą o godz. 8.00 i 10.30.", "one_off"),  # that Sunday only
    ],
)
def test_an_order_from_a_weekday_s_date_is_no_one_off(text, kind):
    assert {r["kind"] for _, r in readings(text)} == {kind}


@pytest.mark.parametrize(
    ("text", "season"),
    [
        ("W Adwencie zapraszamy na Msze św. roratne. Odprawiamy je w dni powszednie o godz. 6.45.", "advent"),
        ("Zapraszamy na Msze Święte roratne. Będą one od poniedziałku do piątku o godz. 17.30.", "advent"),
        # the earlier sentence's season is its own time's: "o 7.00" there, no topic for the next
        ("W Adwencie Msze św. roratne o 7.00. W dni powszednie także o godz. 18.00.", None),
    ],
)
def test_the_season_of_the_sentence_naming_the_masses_goes_to_its_next_sentence(text, season):
    assert readings(text)[-1][1]["season"] == season


def test_a_saturday_line_under_a_sunday_mass_header_is_the_vigil():
    text = (
        "Msze niedzielne:\nniedziela – 7:30, 10:00\nsobota – 17:00\n\nMsze w tygodniu:\nsobota – 7:00, 18:00"
    )
    got = [(t, r["days"], r["vigil"]) for t, r in readings(text)]
    assert got == [
        ("07:30", ["sun"], False),
        ("10:00", ["sun"], False),
        ("17:00", ["sat"], True),
        ("07:00", ["sat"], False),
        ("18:00", ["sat"], False),  # under the weekdays' header: Saturday's own evening Mass
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a comma between Sunday and the weekdays parts two items: Sunday's has no time here
        ("Z kościoła nadajemy Msze niedzielne, w tygodniu Mszę o 19:00 i różaniec.", MON_SAT),
        ("Msze: w tygodniu, w niedziele Msza o 9.30.", ["sun"]),
        # a conjunction joins them
        ("Msze w niedziele i w tygodniu o 19:00.", [*MON_SAT, "sun"]),
    ],
)
def test_sunday_and_the_weekdays_after_a_mere_comma_are_two_items(text, expected):
    assert days(text)[-1][1] == expected


def test_a_parish_s_english_page_names_days_and_seasons_in_english():
    text = (
        "Holy Mass times\n"
        "- Sundays and holy days: 8:00; 9:30; 12:00\n"
        "- Weekdays: 7:00; in winter 17:30; in summer 19:00\n"
        "- Fridays: 15:00\n"
    )
    got = [(t, r["days"], r["season"]) for t, r in readings(text)]
    assert got == [
        ("08:00", ["sun", "holiday"], None),
        ("09:30", ["sun", "holiday"], None),
        ("12:00", ["sun", "holiday"], None),
        ("07:00", MON_SAT, None),
        ("17:30", MON_SAT, "winter"),
        ("19:00", MON_SAT, "summer"),
        ("15:00", ["fri"], None),
    ]


@pytest.mark.parametrize(
    ("text", "season"),
    [
        (
            "Od 1 maja obowiązuje letni porządek Mszy. W dni powszednie Msza wieczorna jest o godz. 19.30.",
            "summer",
        ),
        (
            "Wprowadzamy zimowy porządek nabożeństw. Msza św. w dni powszednie jest odprawiana o 17.00.",
            "winter",
        ),
        # the sentence before names no order, or holds a time of its own
        ("Latem zapraszamy na festyn. W dni powszednie Msza wieczorna jest o godz. 19.30.", None),
        ("Letni porządek od 1 maja, różaniec o 18.00. Msza św. w dni powszednie jest o godz. 19.30.", None),
    ],
)
def test_a_sentence_naming_the_order_s_season_gives_it_to_the_next_sentence_s_times(text, season):
    assert readings(text)[-1][1]["season"] == season


def test_a_feast_s_order_given_by_the_weekdays_is_a_one_off():
    text = "W Środę Popielcową Msze św. jak w dzień powszedni, z dodatkową Mszą o godz. 12.00."
    assert [(t, r["kind"]) for t, r in readings(text)] == [("12:00", "one_off")]


def test_a_season_note_between_a_day_heading_and_its_times_keeps_the_day_list():
    text = "NIEDZIELE I ŚWIĘTA:\n(od września do czerwca)\n7:00, 9:00, 11:00\n\nDNI POWSZEDNIE:\n(zimą)\n7:30"
    got = [(t, r["days"], r["season"]) for t, r in readings(text)]
    assert [t for t, _, _ in got] == ["07:00", "09:00", "11:00", "07:30"]
    assert got[0][1] == ["sun", "holiday"] and got[0][2] is not None
    assert got[3][1] == MON_SAT


def test_a_heading_saying_a_chapel_has_no_masses_is_no_church():
    text = (
        "Msze święte\nNiedziele:\n8.00, 10.00\nKaplica w Zalesiu:\n(od września do czerwca)\n9.00\n"
        "(w lipcu i sierpniu)\nBrak Mszy św. w kaplicy\nDni powszednie:\n7.00, 18.00"
    )
    got = [(t, r["church"]) for t, r in readings(text)]
    chapel = "Kaplica w Zalesiu"
    assert got == [("08:00", None), ("10:00", None), ("09:00", chapel), ("07:00", None), ("18:00", None)]


def test_a_sunday_s_liturgical_name_is_a_date_not_the_day_of_the_lines_below():
    # an announcements page's title: the notices under it are of the week, not of Sunday
    text = "IV NIEDZIELA ZWYKŁA\n1. Msza św. o godz. 18.30 z nowenną.\n2. W niedzielę Msze o 9.15."
    assert days(text) == [("18:30", []), ("09:15", ["sun"])]
    assert days("Niedziela Palmowa\nMsza św. o godz. 10.45") == [("10:45", [])]
    assert days("Niedziela\nMsza św. o godz. 10.45") == [("10:45", ["sun"])]


def test_a_church_heading_s_name_starts_at_its_church_word():
    text = "Niedziele:\nMsze św. i nabożeństwa w kaplicy Matki Bożej:\n8.45, 11.15"
    assert [(t, r["church"]) for t, r in readings(text)] == [
        ("08:45", "kaplicy Matki Bożej"),
        ("11:15", "kaplicy Matki Bożej"),
    ]


def test_a_mass_sentence_naming_days_gives_them_to_the_times_of_the_next_sentence():
    assert days("Niedzielne Msze w kaplicy na górze. Godziny: 8.15, 10.45.") == [
        ("08:15", ["sun"]),
        ("10:45", ["sun"]),
    ]
    assert days("Msze w dni powszednie. Kolejno: 6.45 i 17.45") == [("06:45", MON_SAT), ("17:45", MON_SAT)]
    # a sentence with a time of its own keeps its day to itself, and no Mass cue gives no days
    assert days("W sobotę Msza o 7.30. Potem Msze: 8.00") == [("07:30", ["sat"]), ("08:00", [])]
    assert days("Niedzielny festyn. Msza: 9.00") == [("09:00", [])]


def churches(text: str) -> list[tuple[str, str | None]]:
    return [(t, r["church"]) for t, r in readings(text)]


def test_an_hour_s_own_church_words_outrank_the_church_its_clause_named_before():
    # the parish church named at the second time: no chapel of the clause's start for it
    assert churches("W niedziele Msze w kaplicy Matki Bożej o godz. 8.30, a w kościele o 10.30") == [
        ("08:30", "kaplicy Matki Bożej"),
        ("10:30", None),
    ]
    # the church after a time is that time's, not the chapel after the time before it
    assert churches("Niedziela: 8.00 w kaplicy w Borkach oraz 15.30 w Domu Pomocy Społecznej") == [
        ("08:00", "kaplicy w Borkach"),
        ("15:30", "Domu Pomocy Społecznej"),
    ]
    assert churches("Msze w kaplicy szpitalnej: 6.30 i 17.00") == [
        ("06:30", "kaplicy szpitalnej"),
        ("17:00", "kaplicy szpitalnej"),
    ]


def test_villages_named_before_the_parish_church_s_own_times_are_its_chapels():
    # the parish church named by its church word: the village named first is no parish church
    text = "Msze św. w niedziele: Dębina godz. 7.30; Łęgi godz. 9.00; kościół parafialny godz. 11.00"
    assert churches(text) == [
        ("07:30", "Dębina"),
        ("09:00", "Łęgi"),
        ("11:00", None),
    ]
    # a list after the parish church is the parish church's, not the village's named before it
    assert churches("Niedziela: Łęgi 9.00, w kościele parafialnym 10.30 i 12.00") == [
        ("09:00", "Łęgi"),
        ("10:30", None),
        ("12:00", None),
    ]
    # with no church word anywhere the first village is the parish's own when it is given more than one
    # time, on its line or again on the weekdays'
    text = "Msze św. w niedziele: Dębina godz. 7.30, 10.30; Łęgi godz. 9.00"
    assert churches(text) == [("07:30", None), ("10:30", None), ("09:00", "Łęgi")]
    text = "Msze św. w niedziele: Dębina godz. 7.30; Łęgi godz. 9.00\nMsze św. w dni powszednie: Dębina 18.00"
    assert churches(text) == [("07:30", None), ("09:00", "Łęgi"), ("18:00", None)]


def test_church_lines_below_a_days_mass_line_are_that_days():
    text = (
        "Msze w niedziele: 7.30, 11.00\nKościół filialny w Zalesiu: 9.00\nKaplica szpitalna: godz. 10.00\n"
        "W dni powszednie: 18.00\nDom Zakonny: 6.30"
    )
    got = [(t, r["days"], r["church"]) for t, r in readings(text)]
    assert got == [
        ("07:30", ["sun"], None),
        ("11:00", ["sun"], None),
        ("09:00", ["sun"], "Kościół filialny w Zalesiu"),
        ("10:00", ["sun"], "Kaplica szpitalna"),
        ("18:00", MON_SAT, None),
        ("06:30", MON_SAT, "Dom Zakonny"),
    ]
    # a heading between ends the Sunday list: the chapel's time is the heading's day's
    text = "Msze w niedziele: 7.30, 11.00\nMsze święte w tygodniu\nKaplica szpitalna: 10.00"
    time, reading = readings(text)[-1]
    assert (time, reading["days"]) == ("10:00", MON_SAT)


def test_villages_each_given_one_time_are_all_named_the_first_too():
    # nothing sets the first apart from the others: it is as likely a chapel as the parish church
    text = "Msze św. w niedziele: Dębina godz. 7.30; Łęgi godz. 9.00; Sosnowo godz. 11.00\nW tygodniu: 18.00"
    assert churches(text) == [("07:30", "Dębina"), ("09:00", "Łęgi"), ("11:00", "Sosnowo"), ("18:00", None)]
    # on lines of their own below a header of the Masses
    text = "Msze w niedzielę:\nDębina - godz. 8.00\nŁęgi - godz. 9.30 i 11.30\nSosnowo - godz. 15.00"
    assert churches(text) == [("08:00", "Dębina"), ("09:30", "Łęgi"), ("11:30", "Łęgi"), ("15:00", "Sosnowo")]


def test_a_village_whose_name_ends_in_wielka_before_a_saturday_is_that_village():
    # "Wielka sobota" after a village's first word is its name and its Saturday, not Holy Saturday
    text = (
        "Msze św. w niedziele: Borki godz. 8.00, 10.00; Wola Wielka sobota godz. 17.00, niedziela godz. 9.00"
    )
    got = [(t, r["days"], r["church"]) for t, r in readings(text)]
    assert got == [
        ("08:00", ["sun"], None),
        ("10:00", ["sun"], None),
        ("17:00", ["sat"], "Wola Wielka"),
        ("09:00", ["sun"], "Wola Wielka"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("w każdą niedzielę listopada o 8.00", "11-01..11-30"),
        ("we wszystkie soboty lutego", "02-01..02-29"),
        ("w piątki marca o 17.00", "03-01..03-31"),
        ("przez cały listopad o 7.30", "11-01..11-30"),
        ("w ostatnią niedzielę listopada o 12.00", None),  # one Sunday: a date
        ("w niedzielę 3 listopada", None),
    ],
)
def test_each_day_of_a_month_or_the_whole_month_is_that_months_season(text, expected):
    assert season_in(text) == expected


# --- months listed by Roman numerals (issue 25, diocesan rows) --------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("w m-cu VII i VIII o godz. 19.30", "summer"),
        ("(z wyj. VII i VIII)", "not-summer"),
        ("(oprócz VII, VIII)", "not-summer"),
        ("m-ce XI, XII, I - godz. 16.00", "11-01..01-31"),
        ("IV,V,VI godz. 18.30", "04-01..06-30"),
        ("(poza I, II)", "03-01..12-31"),
        ("z wyjątkiem II, VII, VIII", "03-01..06-30,09-01..01-31"),  # the rest of the year: two runs
        ("w I i III niedzielę miesiąca", None),  # ordinals of a day
        ("dla klas II i III", None),
        ("II, IV, VI", "02-01..02-29,04-01..04-30,06-01..06-30"),  # no run: each month
        ("V, VI, X, XII: 18:00", "05-01..06-30,10-01..10-31,12-01..12-31"),
        ("(poza V, X, i XII)", "01-01..04-30,06-01..09-30,11-01..11-30"),
        ("(VII–VIII) 20:00", "summer"),
        ("z wyjątkiem VII-VIII", "not-summer"),
        ("; VIII 19:00", "08-01..08-31"),  # one month heading its times
        ("I-VI i IX-XII - 7:00", "not-summer"),  # two ranges joined: their months together
        ("IX-XII i I-VI", "not-summer"),
        ("od stycznia do czerwca oraz od września do grudnia", "not-summer"),
        ("od maja do września i od listopada do grudnia", "05-01..09-30,11-01..12-31"),
        ("V niedziela Wielkanocna", None),
        ("I piątek miesiąca", None),
    ],
)
def test_months_listed_by_roman_numerals_are_a_season(text, expected):
    assert season_in(text) == expected


def test_a_season_in_parentheses_after_two_times_joined_by_i_is_both_times():
    got = readings("Msze w tygodniu: godz. 7.00 i 17.00 (XI-II), godz. 7.00 i 18.30 (III-X); w soboty 8.00")
    assert [(t, r["season"]) for t, r in got] == [
        ("07:00", "11-01..02-29"),
        ("17:00", "11-01..02-29"),
        ("07:00", "03-01..10-31"),
        ("18:30", "03-01..10-31"),
        ("08:00", None),
    ]
    got = readings("Niedziele: 8.00 oraz 20.00 (w wakacje)")
    assert [(t, r["season"]) for t, r in got] == [("08:00", "summer"), ("20:00", "summer")]


@pytest.mark.parametrize(
    "text",
    [
        "Niedziele: 8.00, 10.00, 16.00 (IV-IX)",  # a comma: the last time's alone
        "Niedziele: 8.00 i 16.00 (także w wakacje)",  # held as well in the season, not only then
        "Niedziele: 8.00 i 16.00 (oprócz wakacji)",  # the last time's exception
    ],
)
def test_a_season_in_parentheses_after_a_list_stays_the_last_times(text):
    assert readings(text)[0][1]["season"] is None


def test_a_seasons_evening_mass_takes_the_place_of_the_evening_mass_before_it():
    got = readings("Niedziele: 7.00, 9.30, 19.00, w lipcu i sierpniu Msza wieczorna o 20.30")
    assert [(t, r["season"]) for t, r in got] == [
        ("07:00", None),
        ("09:30", None),
        ("19:00", "not-summer"),
        ("20:30", "summer"),
    ]
    got = readings("Dni powszednie: 6.30, 17.30\nZimą Msza wieczorna o 16.30.")
    assert [(t, r["season"]) for t, r in got] == [
        ("06:30", None),
        ("17:30", WINTER_REST),
        ("16:30", "winter"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # no evening Mass before it: 9.30 is the morning's
        ("Niedziele: 7.00, 9.30, w wakacje Msza wieczorna o 20.30", [None, None, "summer"]),
        # the weekdays' evening Mass, not Sunday's on the line above
        (
            "Niedziele: 7.00, 19.00\nW tygodniu: 18.00, w wakacje Msza wieczorna o 19.30",
            [None, None, "not-summer", "summer"],
        ),
        # no evening Mass named: one more Mass in the season
        ("Niedziele: 7.00, 19.00, w wakacje także Msza o 20.30", [None, None, "summer"]),
    ],
)
def test_a_seasons_mass_replaces_no_morning_time_nor_another_days(text, expected):
    assert [r["season"] for _, r in readings(text)] == expected


def test_each_list_of_roman_months_heads_its_own_time_and_names_no_church():
    got = readings("Msze św. w tygodniu: m-ce XI,XII - godz. 16.30, I,II,III godz. 17.00, IV, V godz. 18.00")
    assert [(t, r["season"], r["church"]) for t, r in got] == [
        ("16:30", "11-01..12-31", None),
        ("17:00", "01-01..03-31", None),
        ("18:00", "04-01..05-31", None),
    ]


def test_a_time_except_roman_summer_months_is_held_the_rest_of_the_year():
    got = readings("Msze św. w niedziele: 7.30 (z wyj. VII i VIII), 10.00, w m-cu VII i VIII godz. 12.15")
    assert [(t, r["season"]) for t, r in got] == [
        ("07:30", "not-summer"),
        ("10:00", None),
        ("12:15", "summer"),
    ]


def test_a_mass_dropped_in_the_summer_under_the_weekdays_leaves_sundays_same_time_all_year():
    text = "Msze w niedziele: 6.30, 9.00, 11.00\nMsze w tygodniu: 6.30, 18.00; latem nie ma Mszy o 6.30"
    got = [(t, r["days"], r["season"]) for t, r in readings(text)]
    assert ("06:30", ["sun"], None) in got
    assert ("06:30", MON_SAT, "not-summer") in got


@pytest.mark.parametrize(
    "note",
    ["w wakacje zamiast Mszy o 18.30 jest Msza o 20.30", "w wakacje bez godz. 18.30, jest Msza o 20.30"],
)
def test_a_summer_time_said_instead_of_another_drops_only_the_time_it_replaces(note):
    got = readings(f"Msze w dni powszednie: 7.00, 18.30; {note}")
    expected = {("07:00", None), ("18:30", "not-summer"), ("20:30", "summer")}
    assert {(t, r["season"]) for t, r in got} == expected


def test_a_negation_over_a_list_of_times_drops_every_time_of_the_list():
    got = readings("Msze w dni powszednie: 7.00, 12.30, 18.00; w wakacje nie ma Mszy o 7.00 i 12.30")
    expected = {("07:00", "not-summer"), ("12:30", "not-summer"), ("18:00", None)}
    assert {(t, r["season"]) for t, r in got} == expected


def test_a_month_range_to_the_end_of_a_month_is_a_season():
    assert season_in("(od czerwca do końca sierpnia)") == "06-01..08-31"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(01.11-28.02)", "11-01..02-28"),
        ("od 15.06 – 31.08", "06-15..08-31"),
        ("godz. 18.00-19.00", None),  # a range of times
    ],
)
def test_two_dates_joined_by_a_dash_are_a_season(text, expected):
    assert season_in(text) == expected


def test_dates_joined_by_a_dash_bound_the_season_of_their_item_and_date_no_mass():
    text = "Msze w tygodniu: pora zimowa (01.11-28.02) 16.30; pora letnia (01.03-31.10) 18.30"
    got = [(t, r["kind"], r["season"]) for t, r in readings(text)]
    assert got == [("16:30", "regular", "11-01..02-28"), ("18:30", "regular", "03-01..10-31")]


def test_days_after_a_dash_behind_the_time_are_that_times():
    text = "Msze w dni powszednie: 6.45 - wtorek, czwartek; 17.30 - poniedziałek, środa, piątek; 8.00 - sob."
    assert days(text) == [("06:45", ["tue", "thu"]), ("17:30", ["mon", "wed", "fri"]), ("08:00", ["sat"])]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(w czerwcu)", "06-01..06-30"),
        ("lipiec sierpień kościół parafialny", "summer"),  # two months written without a joining word
        ("(oprócz czerwca)", "07-01..05-31"),
        ("poza grudniem", "01-01..11-30"),
        ("w czerwcu i lipcu", "06-01..07-31"),  # two months: both, not June alone
        ("do 30 czerwca", None),  # a date's month
        ("(oprócz Adwentu)", "not-advent"),
        ("poza okresem Wielkiego Postu", "not-lent"),
        ("w niedziele (poza niedzielami Wielkiego Postu)", "not-lent"),
        ("w dni powszednie (poza piątkami Wielkiego Postu)", None),  # some days of Lent: the year's order
    ],
)
def test_one_month_named_or_excepted_and_a_liturgical_season_excepted(text, expected):
    assert season_in(text) == expected


def test_a_time_not_held_on_a_feast_is_weekly():
    text = "Msze św. w niedziele: 7.30 (oprócz Wielkanocy i Bożego Narodzenia), 10.00"
    got = [(t, r["kind"], r["days"]) for t, r in readings(text)]
    assert got == [("07:30", "regular", ["sun"]), ("10:00", "regular", ["sun"])]
    got = readings("Msze św. w niedziele: 7.30, 10.00; w dzień Bożego Narodzenia 7.30")
    assert got[-1][1]["kind"] == "one_off"


def test_a_label_glued_after_a_time_heads_the_next_list_not_that_time():
    got = readings("Msze św. w niedziele: 8.00, 10.30, 19.00w czerwcu: 8.00, 20.00")
    assert [(t, r["season"]) for t, r in got] == [
        ("08:00", None),
        ("10:30", None),
        ("19:00", None),
        ("08:00", "06-01..06-30"),
        ("20:00", "06-01..06-30"),
    ]


def test_a_mass_header_typed_without_polish_letters_heads_its_days_and_vigil():
    got = readings("Msze sw. w niedziele: 8.00, 11.00, sobota 18.00\nMsze sw. w dni powszednie: 18.00")
    assert [(t, r["days"], r["vigil"]) for t, r in got] == [
        ("08:00", ["sun"], False),
        ("11:00", ["sun"], False),
        ("18:00", ["sat"], True),
        ("18:00", MON_FRI, False),  # the vigil is Saturday's Mass at that time
    ]


def test_a_mass_header_run_into_the_line_ends_the_words_of_the_time_before():
    got = readings("Msze św. w niedziele: 8.00, 11.00 (Zalesie) Msze św. w tygodniu: latem 19.00, zimą 18.00")
    assert [(t, r["days"], r["church"], r["season"]) for t, r in got] == [
        ("08:00", ["sun"], None, None),
        ("11:00", ["sun"], "Zalesie", None),
        ("19:00", MON_SAT, None, "summer"),
        ("18:00", MON_SAT, None, "winter"),
    ]


def test_a_variant_in_parentheses_after_a_comma_is_still_the_time_befores():
    got = readings("Msze św. w tygodniu: godz. 6.30, godz. 17.00, (zimą 16.00)")
    assert [(t, r["season"]) for t, r in got] == [
        ("06:30", None),
        ("17:00", WINTER_REST),
        ("16:00", "winter"),
    ]


def test_an_event_named_as_a_masss_exception_is_no_topic_of_the_times_after():
    text = "Msze św. w tygodniu: 7:00, 17:00 (poza czasem wizyt duszpasterskich), 18:30"
    assert [t for t, _ in readings(text)] == ["07:00", "17:00", "18:30"]
    text = "Msze św. w tygodniu: 7:00, 17:00; wizyty duszpasterskie od 16:00"
    assert [t for t, _ in readings(text)] == ["07:00", "17:00"]


def test_the_rest_of_the_year_is_the_complement_of_the_season_named_before_it_on_the_line():
    text = "Msze św. w niedziele: od czerwca do sierpnia 8:00, 10:30; pozostała część roku: 8:00, 9:30, 11:00"
    assert [(t, r["days"], r["season"]) for t, r in readings(text)] == [
        ("08:00", ["sun"], "06-01..08-31"),
        ("10:30", ["sun"], "06-01..08-31"),
        ("08:00", ["sun"], "09-01..05-31"),
        ("09:30", ["sun"], "09-01..05-31"),
        ("11:00", ["sun"], "09-01..05-31"),
    ]
    text = "Msze św. w tygodniu: 7:00 (w pozostałe dni 18:00)"  # the other days, not the rest of the year
    assert [r["season"] for _, r in readings(text)] == [None, None]


def test_a_lines_day_label_holds_past_a_full_stop_unless_another_day_is_named():
    text = "Msze św. w niedziele: 7.00, 9.00. Dla dzieci: 10.30. Suma: 12.00"
    assert days(text) == [("07:00", ["sun"]), ("09:00", ["sun"]), ("10:30", ["sun"]), ("12:00", ["sun"])]
    text = "We wtorek przypada wspomnienie zmarłych. Msze o 8.00 i 10.00."  # a sentence, no label
    assert days(text) == [("08:00", []), ("10:00", [])]


def test_a_saturday_season_pair_under_sunday_is_two_vigils():
    got = readings("Msze św. w niedziele: 10.00; sobota: latem 18.00, zimą 17.00")
    assert [(t, r["days"], r["season"], r["vigil"]) for t, r in got] == [
        ("10:00", ["sun"], None, False),
        ("18:00", ["sat"], "summer", True),
        ("17:00", ["sat"], "winter", True),
    ]


@pytest.mark.parametrize("note", ["sobota wieczorem, w zimie 16.30", "w sobotę wieczór; zimą 16.30"])
def test_a_day_leading_a_note_with_the_winter_time_is_the_hour_s_day_too(note):
    """ "Niedziele: 18.00 (sobotni wieczór, zima 17.00), 8.00": both Saturday times are the vigil."""
    got = readings(f"Msze św. w niedziele: 17.30 ({note}), 9.00, 11.00")
    assert [(t, r["days"], r["season"], r["vigil"]) for t, r in got] == [
        ("17:30", ["sat"], "not-winter", True),
        ("16:30", ["sat"], "winter", True),
        ("09:00", ["sun"], None, False),
        ("11:00", ["sun"], None, False),
    ]


def test_a_day_abbreviation_before_a_place_ends_no_clause():
    text = "Msze św. w tygodniu: pn. 18.00, wt. 7.00, sb. Kaplica Zalesie 16.00"
    assert days(text) == [("18:00", ["mon"]), ("07:00", ["tue"]), ("16:00", ["sat"])]


def test_a_day_in_parentheses_after_a_place_is_the_next_times():
    got = readings("Msze św. w niedziele: 9.00, 11.00; Zalesie (sobota) godz. 17.00; 12.30 (sobota)")
    assert [(t, r["days"]) for t, r in got] == [
        ("09:00", ["sun"]),
        ("11:00", ["sun"]),
        ("17:00", ["sat"]),
        ("12:30", ["sat"]),
    ]


def test_a_place_before_a_list_of_days_is_the_next_times_church():
    got = readings(
        "Msze św. w tygodniu: Zalesie wtorek 17:00, 18:00; Borowo poniedziałek, środa, sobota 18:00"
    )
    assert [(t, r["days"], r["church"]) for t, r in got] == [
        ("17:00", ["tue"], None),  # the first place named, with two times: the parish's own
        ("18:00", ["tue"], None),
        ("18:00", ["mon", "wed", "sat"], "Borowo"),
    ]
    # abbreviated days, and a comma before "o godz."; each place given one time: both are named
    got = readings("Msze św. w tygodniu: Zalesie: wt. 8:15; Borowo: pon., śr., pt., o godz. 18:15")
    assert [(t, r["days"], r["church"]) for t, r in got] == [
        ("08:15", ["tue"], "Zalesie"),
        ("18:15", ["mon", "wed", "fri"], "Borowo"),
    ]


def test_an_hour_without_minutes_after_a_noted_time_of_the_list_is_an_hour():
    got = readings("Msze św. w niedziele: 8:00, 9:30 (dla dzieci), 11, 18:00")
    assert [t for t, _ in got] == ["08:00", "09:30", "11:00", "18:00"]
    got = readings("Kancelaria czynna: pon. 9:00 (tel. 61 123 45 67), 11")  # no list of Masses
    assert [t for t, _ in got] == []


def test_a_seasonal_time_added_in_parentheses_leaves_the_time_before_all_year():
    got = readings("Msze św. w niedziele: 8:00, 10:00 (w wakacje również o 20:00)")
    assert [(t, r["season"]) for t, r in got] == [("08:00", None), ("10:00", None), ("20:00", "summer")]


def test_codziennie_under_a_weekday_label_is_every_weekday():
    text = "Msze św. w niedziele: w kaplicy: 9:00\nMsze św. w dni powszednie: w kościele codziennie o 7:00"
    assert days(text) == [("09:00", ["sun"]), ("07:00", MON_SAT)]
    text = "W niedziele: 9:00, 11:00, w dni powszednie: codziennie oprócz piątku 18:00"  # a Sunday label
    assert days(text)[-1] == ("18:00", ["mon", "tue", "wed", "thu", "sat"])


def test_a_day_in_the_note_after_a_time_is_that_times_only():
    text = "Msze św. w tygodniu: 6.30 - we wtorki w kaplicy szpitalnej, 7.00, 18.00"
    assert days(text) == [("06:30", ["tue"]), ("07:00", MON_SAT), ("18:00", MON_SAT)]


def test_a_day_phrase_after_the_church_of_a_time_is_its_day():
    # "time, church, days" list lines: the days follow the place the time is at
    text = (
        "Porządek Mszy św.:\n"
        "• 6.45 kościół filialny w Dębinie od poniedziałku do czwartku (dla szkoły)\n"
        "• 19.00 Kaplica Zielonka w soboty i niedziele\n"
    )
    assert [(t, r["days"], r["church"] is not None) for t, r in readings(text)] == [
        ("06:45", ["mon", "tue", "wed", "thu"], True),
        ("19:00", ["sat", "sun"], True),
    ]


def test_a_hyphenated_roman_first_friday_is_monthly():
    # "I-sze piątki" as "I piątki": the list's Wednesday stays weekly, the first Friday is no weekly Friday
    listed = "Msze św.:\ndni powszednie: 6.30, we wtorki i I-sze piątki 19.00\n"
    assert days(listed) == [("06:30", list(MON_SAT)), ("19:00", ["tue"])]
    assert [(t, r["days"], r["kind"]) for t, r in readings("Msza św. w I-szy piątek miesiąca o 16.30\n")] == [
        ("16:30", ["fri"], "monthly")
    ]


def test_a_flattened_two_column_table_gives_each_column_its_heading():
    # "Święta zniesione | Dni powszednie" cells flattened into lines with wide gaps
    text = (
        "Msze św.\nNiedziele: 7.30; 11.00\n\n"
        "Dni powszednie          Święta zniesione\n"
        "6.30; 18.00             9.00; 18.00\n"
    )
    assert days(text) == [
        ("07:30", ["sun"]),
        ("11:00", ["sun"]),
        ("06:30", list(MON_SAT)),
        ("18:00", list(MON_SAT)),
        ("09:00", ["holiday"]),
        ("18:00", ["holiday"]),
    ]
    # a row with another number of cells is no row of that table: the heading speaks as a whole
    [(_, first), (_, second)] = days("Msze św.\nDni powszednie          Święta zniesione\n9.00; 18.00\n")
    assert first == second


def test_the_confession_above_does_not_reach_a_line_of_another_devotion():
    text = (
        "Ogłoszenia\n1. Spowiedź jest zawsze w dni powszednie od 6.40 i od 17.40.\n"
        "2. W piątek Droga Krzyżowa o 17.15.\n"
    )
    assert [c["start"] for c in page_confessions(text)] == ["06:40", "17:40"]
    # the day lines under "Spowiedź:" are still confession times
    assert [c["start"] for c in page_confessions("Spowiedź:\nsobota 16:30–17:30\npiątek od 15.30\n")] == [
        "16:30",
        "15:30",
    ]


def test_the_conjunction_i_after_a_time_is_no_roman_month():
    from msze.extraction.rules.reading import dates_in

    # "10.30 i 12.00": "30 i" is no 30 January; Roman months are written in capitals
    assert dates_in("w niedziele o 8.00, 10.30 i 12.00.") == []
    assert [d for _, _, d in dates_in("odpust 15 VIII, Zaduszki 2 XI 2025")] == [(None, 8, 15), (2025, 11, 2)]


def test_a_time_of_no_topic_after_a_confession_sentence_is_a_confession_time():
    text = (
        "Ogłoszenia\n3. Zachęcamy do spowiedzi przed świętami. Kapłani będą do dyspozycji w tygodniu"
        " od 6.40 i od 17.40.\n"
    )
    assert [(c["days"], c["start"]) for c in page_confessions(text)] == [
        (list(MON_SAT), "06:40"),
        (list(MON_SAT), "17:40"),
    ]
    # a time with a topic of its own after it is that topic's
    other = "Ogłoszenia\n3. Spowiedź w sobotę od 17.00. W niedzielę o 16.00 koncert chóru.\n"
    assert [c["start"] for c in page_confessions(other)] == ["17:00"]


def test_a_directorys_list_of_chapels_heads_no_times_below():
    text = (
        "Kaplice: Kaplica cmentarna w Zalesiu.\n\nOdpust parafialny: św. Anny\n\n"
        "Msze święte: niedziele: 8.00, 11.00\n"
    )
    assert [(t, r["church"]) for t, r in readings(text)] == [("08:00", None), ("11:00", None)]
    # a chapel's heading still heads its times
    assert [
        r["church"]
        for _, r in readings("Msze święte\nNiedziela: 9.00\nKaplica w Zalesiu:\nniedziela 11.00\n")
    ][-1] == "Kaplica w Zalesiu"


def test_a_churchs_name_ends_where_the_clause_goes_on_to_the_masses():
    from msze.extraction.rules.reading import inline_church

    assert inline_church("W kaplicy Bożego Miłosierdzia będą Msze św. według porządku") == (
        "kaplicy Bożego Miłosierdzia"
    )
    assert (
        inline_church("w kościele filialnym w Borkach odprawiana jest Msza o")
        == "kościele filialnym w Borkach"
    )
    assert inline_church("Msza z naszego kościoła transmitowana będzie o") is None  # the parish's own
    # a place before a bare church word is a whole word: "LASEK – kaplica" is no "ASEK"
    assert [inline_church(t) for t in ("Lasek – kaplica (", "LASEK – kaplica (", "DPS - kaplica")] == [
        "Lasek",
        "kaplica",
        "DPS",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("od Wielkanocy do końca października", "04-01..10-31"),  # Easter by the month it mostly falls in
        ("od Wielkiej Nocy do września", "04-01..09-30"),
        ("od Wielkiego Tygodnia do Wszystkich Świętych", "04-01..10-31"),  # to a feast: the month before it
        ("od Wszystkich Świętych do Wielkanocy", "11-01..03-31"),
        ("od czerwca do 1 niedzieli października", "06-01..09-30"),  # up to that Sunday: September's end
        ("od I niedzieli października do Niedzieli Palmowej", "10-01..03-31"),
        ("w zimie", "winter"),
    ],
)
def test_a_movable_feast_or_a_months_first_sunday_bounds_a_season_by_its_month(text, expected):
    assert season_in(text) == expected


def test_a_season_from_easter_and_the_rest_of_the_year_are_each_others_complement():
    text = "Msze w tygodniu: 7.15, od Wielkanocy do października 19.30, w pozostałym okresie 17.30"
    got = [(t, r["season"]) for t, r in readings(text)]
    assert got == [("07:15", None), ("19:30", "04-01..10-31"), ("17:30", "11-01..03-31")]


@pytest.mark.parametrize(
    "added",
    [
        "zimą także 16.15",
        "od maja do września także 20.15",
        "od Wielkanocy do Wszystkich Świętych również 20.15",
    ],
)
def test_a_time_added_in_any_season_leaves_the_time_before_all_year(added):
    got = readings(f"Msze św. w niedziele: 9.15, {added}")
    assert got[0][0] == "09:15" and got[0][1]["season"] is None
    assert got[1][1]["season"] is not None


@pytest.mark.parametrize(
    "vigil",
    [
        "w sobotę wieczorem 17.30 (niedzielna);",
        "sobota 17.30 (z liturgii niedzieli),",
        "w sobotę o 17.30 (Msza z niedzieli);",
        "w wigilię niedzieli 17.30;",
        "w sobotę poprzedzającą niedzielę 17.30;",
        "w wieczór poprzedzający niedzielę 17.30;",
        "w przeddzień niedzieli 17.30;",
    ],
)
def test_a_vigils_note_naming_sunday_keeps_it_saturdays_and_the_next_times_sundays(vigil):
    """The vigil's note, however written; "w niedzielę wieczorem" stays Sunday's (test below)."""
    got = readings(f"Msze św. w niedziele: {vigil} 7.30, 9.45\nMsze św. w dni powszednie: 6.45")
    assert [(t, r["days"], r["vigil"]) for t, r in got] == [
        ("17:30", ["sat"], True),
        ("07:30", ["sun"], False),
        ("09:45", ["sun"], False),
        ("06:45", MON_SAT, False),  # a vigil is no Saturday time of its own
    ]


def test_sunday_evening_is_no_vigil():
    got = readings("Msze św. w niedziele: 8.00, 10.00 i wieczorem 18.00; w wieczór niedzieli 20.00")
    assert [(t, r["days"], r["vigil"]) for t, r in got] == [
        ("08:00", ["sun"], False),
        ("10:00", ["sun"], False),
        ("18:00", ["sun"], False),
        ("20:00", ["sun"], False),
    ]


@pytest.mark.parametrize(
    "chapel", ["Borówko (kaplica)", "Borówko - filia", "Borówko – kościół filialny", "Borówko (filia):"]
)
def test_a_bare_church_word_after_a_village_is_that_village_s_church(chapel):
    got = readings(f"Msze św. w niedziele: 7.45, 10.15; {chapel} 9.00")
    assert [(t, r["church"]) for t, r in got] == [("07:45", None), ("10:15", None), ("09:00", "Borówko")]


@pytest.mark.parametrize(
    ("label", "first", "then"),
    [
        ("kościół filialny w Borkach: sobota", "17.30", "niedziela 9.00"),
        ("Borki - filia sob. godz.", "17.30", "nd. godz. 9.00"),
        ("kaplica w Borkach: latem", "17.30", "zimą 9.00"),
        ("Borki (kaplica) – sobota", "17.30", "i niedziela 9.00"),
    ],
)
def test_a_church_labelling_a_list_goes_on_past_a_day_or_a_season_after_a_comma_or_and(label, first, then):
    sep = " " if then.startswith("i ") else ", "
    got = readings(f"Msze św. w niedziele: 7.45, 10.15; {label} {first}{sep}{then}")
    churches = [r["church"] for _, r in got]
    assert churches[:2] == [None, None]
    assert churches[2] is not None and churches[2] == churches[3]
    assert "Bork" in churches[2]


@pytest.mark.parametrize(
    ("place", "expected"),
    [
        ("u Sióstr Nazaretanek", "Sióstr Nazaretanek"),
        ("u ss. Elżbietanek", "ss. Elżbietanek"),  # "ss." is no end of the name
        ("w kaplicy oo. Bernardynów", "kaplicy oo. Bernardynów"),
        ("w krypcie", "krypcie"),
        ("punkt katechetyczny w Borkach", "punkt katechetyczny w Borkach"),
        ("ośrodek duszpasterski w Borkach", "ośrodek duszpasterski w Borkach"),
        ("w kaplicy przy ul. Polnej 7:", "kaplicy przy ul. Polnej"),  # a church's street is no contact
    ],
)
def test_other_places_of_mass_are_churches_and_the_time_before_them_stays_the_parish_s(place, expected):
    got = readings(f"Msze św. w dni powszednie: 7.15, 18.15; {place} 6.45")
    assert [(t, r["church"]) for t, r in got] == [("07:15", None), ("18:15", None), ("06:45", expected)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(z wyjątkiem X-IV)", "05-01..09-30"),
        ("poza okresem od maja do września", "10-01..04-30"),
        ("(od maja do września)", "05-01..09-30"),
        ("poza sezonem letnim", "not-summer"),
    ],
)
def test_a_month_range_after_an_exception_word_is_the_rest_of_the_year(text, expected):
    assert season_in(text) == expected


def test_sunday_named_as_the_vigil_s_liturgy_is_no_day_of_the_time():
    text = "Msze św. w dni powszednie: 7.15; w sobotę wieczorna Msza z liturgii niedzieli o 18.15"
    got = [(t, r["days"], r["vigil"]) for t, r in readings(text)]
    assert got[-1] == ("18:15", ["sat"], True)


def test_a_village_named_great_before_saturday_is_no_holy_saturday():
    text = "Msze św. w niedziele: Borki 8.15; Wola Wielka sobota 17.45, niedziela 9.45"
    got = [(t, r["days"], r["kind"], r["vigil"]) for t, r in readings(text)]
    assert got == [
        ("08:15", ["sun"], "regular", False),
        ("17:45", ["sat"], "regular", True),
        ("09:45", ["sun"], "regular", False),
    ]
    # Holy Saturday itself stays a one-off
    assert readings("Msze św.: w Wielką Sobotę 20.30")[0][1]["kind"] == "one_off"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Msze św. w niedziele: 8.15 (Borki), 9.45, 11.15",
            [("08:15", "Borki"), ("09:45", None), ("11:15", None)],
        ),
        ("Msze św. w niedziele: sobota: 16.45 (Borki), 18.15", [("16:45", "Borki"), ("18:15", None)]),
        ("Msze św. w niedziele: 8.15 (suma), 9.45", [("08:15", None), ("09:45", None)]),  # no place
    ],
)
def test_a_place_in_parentheses_after_the_first_time_is_that_time_s_church(text, expected):
    assert [(t, r["church"]) for t, r in readings(text)] == expected


def test_a_church_word_alone_is_the_one_church_named_with_it_before():
    text = (
        "Msze św. w niedziele: 8.15; kaplica w Borkach: 9.45\n"
        "Msze św. w dni powszednie: 18.15; kaplica: wtorek 17.15"
    )
    assert [(t, r["church"]) for t, r in readings(text)] == [
        ("08:15", None),
        ("09:45", "kaplica w Borkach"),
        ("18:15", None),
        ("17:15", "kaplica w Borkach"),
    ]
    two = "Msze św. w niedziele: 8.15; kaplica w Borkach 9.45; kaplica w Lipnie 11.15; kaplica: wtorek 17.15"
    assert readings(two)[-1][1]["church"] == "kaplica"  # which one is not said


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("od 1 X do 30 IV", "10-01..04-30"),  # days with Roman months
        ("w okresie od dnia 15 VI do dnia 15 IX", "06-15..09-15"),
        ("od połowy czerwca do połowy września", "06-15..09-15"),  # the middle of a month: its 15th
        ("w lipcu i w sierpniu", "summer"),  # not August alone
    ],
)
def test_day_ranges_written_with_roman_months_or_month_halves_and_the_two_summer_months(text, expected):
    assert season_in(text) == expected


def test_a_time_said_not_held_in_a_season_speaks_of_its_own_item_only():
    text = "Msze św. w niedziele: 8.15; Borki 9.15 (nie ma w wakacje); w lipcu i sierpniu 8.15, 20.15"
    got = [(t, r["season"]) for t, r in readings(text)]
    assert got == [("08:15", None), ("09:15", "not-summer"), ("08:15", "summer"), ("20:15", "summer")]


@pytest.mark.parametrize(
    "holy_days",
    [
        "w święta przypadające w dni powszednie:",
        "święta kościelne (dni robocze)",
        "święta w tygodniu:",
        "w dni świąt zniesionych",
        "w święta w dni pracy:",
    ],
)
def test_holy_days_on_weekdays_are_holy_days_not_the_weekdays(holy_days):
    text = f"Msze św. w dni powszednie: 7.15, 18.15; {holy_days} 9.15, 19.15"
    assert days(text) == [
        ("07:15", MON_SAT),
        ("18:15", MON_SAT),
        ("09:15", ["holiday"]),
        ("19:15", ["holiday"]),
    ]


def test_a_mass_heading_called_holy_names_no_holy_days():
    assert days("Msze Święte w dni powszednie: 7.15") == [("07:15", MON_SAT)]
    assert days("Msza Święta w dni powszednie: 7.15") == [("07:15", MON_SAT)]


def test_a_note_adding_holy_days_keeps_the_time_s_sunday():
    assert days("Msze św. w niedziele: 8.15, 10.15 (także w święta)") == [
        ("08:15", ["sun"]),
        ("10:15", ["sun", "holiday"]),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św. w niedziele: 8.15; filie: Borki 9.45, Lipno 11.45", [None, "Borki", "Lipno"]),
        ("Msze św. w niedziele: 8.15; kościoły filialne: Borki 9.45", [None, "Borki"]),
        ("Msze św. w niedziele: 8.15; Wola nad Wartą 9.45", [None, "Wola nad Wartą"]),
        ("Msze św. w niedziele: 8.15; Borki k. Lipna 9.45", [None, "Borki k Lipna"]),
        ("Msze św. w niedziele: godz. 8.15, a w Borkach o 9.45", [None, "Borkach"]),
    ],
)
def test_villages_under_a_plural_label_with_a_small_word_or_after_a_conjunction(text, expected):
    assert [r["church"] for _, r in readings(text)] == expected


def test_a_saturday_vigil_under_the_weekdays_is_no_saturday_time_of_its_own():
    text = "Msze św. w dni powszednie: 7.15, 18.15 (w soboty 18.15 z liturgii niedzielnej)"
    assert (
        [(t, r["days"], r["vigil"]) for t, r in readings(text)]
        == [
            ("07:15", MON_SAT, False),  # Saturday keeps its weekday 7.15
            ("18:15", MON_SAT[:5], False),
            ("18:15", ["sat"], True),
        ]
    )


def test_an_abbreviated_exception_takes_its_day_out():
    assert days("Msze św. w dni powszednie: 7.15, 18.15 (z wyj. sob.)") == [
        ("07:15", MON_SAT),
        ("18:15", MON_FRI),
    ]
    assert days("Msze św.: codziennie z wyj. środy 18.15") == [
        ("18:15", ["mon", "tue", "thu", "fri", "sat", "sun"])
    ]


@pytest.mark.parametrize("rest", ["od października", "od 1 października", "od X"])
def test_a_season_s_start_named_alone_after_a_range_is_the_rest_of_the_year(rest):
    text = f"Msze św. w dni powszednie: 7.15; od maja do września 19.15, {rest} 18.15"
    got = [(t, r["season"]) for t, r in readings(text)]
    assert got == [("07:15", None), ("19:15", "05-01..09-30"), ("18:15", "10-01..04-30")]


def test_a_time_after_a_mass_named_in_a_devotion_s_clause_adds_no_mass():
    text = "Nabożeństwa\nKoronka w Wielkim Poście (w piątki po Mszy wieczornej o 17.15)\nGodziny"
    hours = find_hours(text)
    assert [(d.is_mass, d.reason) for d in decide(text, hours, 2025)] == [(True, DEVOTION_AT_MASS)]
    # a Mass named for itself, or a devotion after the time, is still that Mass
    text = "Msze św. w piątki po nabożeństwie o 17.15"
    assert [d.reason for d in decide(text, find_hours(text), 2025)] != [DEVOTION_AT_MASS]
    text = "W piątki po Mszy o godz. 17.15 koronka."
    assert [d.reason for d in decide(text, find_hours(text), 2025)] != [DEVOTION_AT_MASS]


def test_a_day_label_heading_a_long_list_reaches_its_last_times():
    text = (
        "Msze św. w niedziele: kościół parafialny: godz. 6.45, godz. 9.15, godz. 10.45, godz. 12.15, godz. "
        "19.00; kaplica pod wezwaniem Świętego Wojciecha Biskupa i Męczennika godz. 8.30 (nie ma w ferie);"
        " lipiec sierpień kościół parafialny godz. 6.45, godz. 17.30"
    )
    got = [(t, r["days"], r["season"]) for t, r in readings(text)]
    assert got[-2:] == [("06:45", ["sun"], "summer"), ("17:30", ["sun"], "summer")]


def test_an_advent_mass_on_no_day_is_the_weekdays_roraty():
    assert [(t, r["days"], r["season"]) for t, r in readings("Okresowo:\nRoraty\n6:45")] == [
        ("06:45", ["mon", "tue", "wed", "thu", "fri", "sat"], "advent")
    ]
    text = "W Adwencie zapraszamy dorosłych na Mszę św. o godz. 6.45, a w soboty o 8.15 przy świecach."
    assert [(t, r["days"]) for t, r in readings(text)] == [
        ("06:45", ["mon", "tue", "wed", "thu", "fri"]),
        ("08:15", ["sat"]),
    ]
    # another season on no day stays without one
    assert [r["days"] for _, r in readings("W Wielkim Poście zapraszamy na Mszę św. o godz. 6.45.")] == [[]]


def test_a_hard_wrapped_sentence_gives_its_times_the_day_of_the_next_line():
    text = "Msze święte sprawujemy o 6.45 i o 17.30\nw dni powszednie, zaś w niedziele o 8.00 i 10.30."
    assert days(text) == [("06:45", MON_SAT), ("17:30", MON_SAT), ("08:00", ["sun"]), ("10:30", ["sun"])]
    # a lowercase day heading on its own line is the next times' heading, not the line's above
    text = "Msze św.\nNiedziele i święta\n8.00, 10.30\nw dni powszednie\n18.00"
    assert days(text)[:2] == [("08:00", ["sun", "holiday"]), ("10:30", ["sun", "holiday"])]


def test_a_patron_alone_names_the_church_of_its_time():
    text = "Msze święte w niedziele: 7.30; bł. Karoliny 9.00; Św. Marcina 11.00"
    assert [(t, r["church"]) for t, r in readings(text)] == [
        ("07:30", None),
        ("09:00", "bł. Karoliny"),
        ("11:00", "Św. Marcina"),
    ]


def test_a_devotion_sentence_s_season_does_not_head_the_times_below():
    text = (
        "Gorzkie Żale w Wielkim Poście w niedziele.\nDni powszednie: 6.45, 18.15\nMsze św.\nNiedziela: 10.00"
    )
    assert [(t, r["season"]) for t, r in readings(text)] == [
        ("06:45", None),
        ("18:15", None),
        ("10:00", None),
    ]
    # a season heading (no sentence of another topic) still does
    text = "W Wielkim Poście\nDni powszednie: 6.45, 18.15"
    assert [r["season"] for _, r in readings(text)] == ["lent", "lent"]


def test_two_times_after_a_day_and_a_dash_are_a_dash_style_list_not_a_range():
    text = (
        "Msze św.\nNiedziela – 7.30 – 9.30 – 11.00\nDni powszednie – 6.45 – 18.15\nKancelaria – 9.00 – 11.00"
    )
    assert days(text) == [
        ("07:30", ["sun"]),
        ("09:30", ["sun"]),
        ("11:00", ["sun"]),
        ("06:45", MON_SAT),
        ("18:15", MON_SAT),
    ]


def test_saturday_times_said_to_be_added_leave_saturday_in_the_weekdays():
    text = "Msze święte\nDni powszednie: 6.45, 18.15; w soboty także 8.30 i 10.00"
    assert days(text) == [("06:45", MON_SAT), ("18:15", MON_SAT), ("08:30", ["sat"]), ("10:00", ["sat"])]
    text = "Msze święte\nDni powszednie: 6.45, 18.15; w soboty 8.30"
    assert days(text)[:2] == [("06:45", MON_FRI), ("18:15", MON_FRI)]


def test_a_mass_sentence_naming_a_church_and_no_time_gives_it_to_the_times_after():
    text = "Msze w kaplicy w Borkach. W niedziele: 9.15. W tygodniu: 17.00."
    assert [(t, r["church"]) for t, r in readings(text)] == [
        ("09:15", "kaplicy w Borkach"),
        ("17:00", "kaplicy w Borkach"),
    ]
    # up to a sentence naming a church of its own with its time
    text = "Msze w kaplicy w Borkach. W niedziele w kaplicy w Zalesiu: 9.15. W tygodniu: 17.00."
    hours = find_hours(text)
    assert [d.reading.church for d in decide(text, hours, 2025)] == ["kaplicy w Zalesiu", None]


def test_a_parish_historys_past_order_is_no_schedule():
    text = (
        "W pierwszych latach istnienia parafii Msze św. były odprawiane w niedzielę o godz. 7.00 i 9.00. "
        "W tygodniu Msze św. odprawiano o godz. 6.30.\n"
        "Od 1. września 2015 r. porządek niedzielnych Mszy św. przedstawia się następująco:\n"
        "Kościół parafialny – godz. 7.30, 10.30, 12.00;\n"
    )
    assert [(t, r["days"]) for t, r in readings(text)] == [
        ("07:30", ["sun"]),
        ("10:30", ["sun"]),
        ("12:00", ["sun"]),
    ]


def test_the_order_of_sunday_masses_is_sundays_and_the_sunday_order_is_holy_days_too():
    assert days("Porządek niedzielnych Mszy św.:\n8.00, 10.00") == [("08:00", ["sun"]), ("10:00", ["sun"])]
    assert days("Porządek niedzielny:\n8.00") == [("08:00", ["sun", "holiday"])]


def test_a_label_over_several_churches_leaves_each_time_its_own_place():
    got = readings("Msze w niedziele:\nKościoły filialne – godz. 9.00 (Białcz), 10.15 (Dzieduszyce Stare)")
    assert [(t, r["church"]) for t, r in got] == [("09:00", "Białcz"), ("10:15", "Dzieduszyce Stare")]


def test_spring_and_autumn_are_the_year_outside_summer_and_winter():
    got = readings("Msze w niedziele: 8.00\nKaplica – godz. 17.00 (soboty w okresie wiosenno-jesiennym)")
    assert [(t, r["season"]) for t, r in got][-1] == ("17:00", "not-summer-winter")


def test_every_time_of_a_negated_list_is_no_mass_of_its_own():
    text = "Dzień powszedni: 6:30, 18:00\nW wakacje nie ma Mszy św. o 6:30, 16:00 i 20:00"
    hours = find_hours(text)
    got = [(h.time, d.reason) for h, d in zip(hours, decide(text, hours, 2025), strict=True)][2:]
    assert got == [("06:30", NEGATED), ("16:00", NEGATED), ("20:00", NEGATED)]


def test_w_ciagu_tygodnia_is_the_weekdays():
    assert days("W ciągu tygodnia Msza św. o godz. 7.00 i 7.25.") == [("07:00", MON_SAT), ("07:25", MON_SAT)]


def test_a_saturday_time_said_to_be_sundays_mass_keeps_saturday_for_its_winter_variant():
    got = readings("W każdą sobotę o godz. 18.00 Msza św. niedzielna (w okresie zimowym godz. 17.00).")
    assert [(t, r["days"], r["vigil"], r["season"]) for t, r in got] == [
        ("18:00", ["sat"], True, None),  # the rest of the year: the schedule pairs the two (test_schedule.py)
        ("17:00", ["sat"], True, "winter"),
    ]


def test_a_day_heading_after_one_devotion_line_resumes_the_mass_block():
    text = (
        "Niedziela i święta\n\nMsza Święta – 6.30, 9.00\n\nNieszpory – 15.30\n\nDni powszednie\n\n6.30, 18.00"
    )
    assert days(text)[-2:] == [("06:30", MON_SAT), ("18:00", MON_SAT)]
    # a devotions block stays one
    assert days("Nabożeństwa:\nNieszpory – 15.30\nDni powszednie\nróżaniec 17.30") == []


def test_a_content_systems_date_stamp_is_no_mass():
    text = "Msze św.\nw dni powszednie: 7.00, 7.30.\n2003-05-07 16:45 Opublikował: Admin"
    assert days(text) == [("07:00", MON_SAT), ("07:30", MON_SAT)]


def test_a_church_named_right_before_a_list_of_times_is_the_lists():
    got = readings("Msze św. w niedziele: 8.00, dodatkowo w kaplicy szpitalnej 9.45 i 11.00")
    assert [(t, r["church"]) for t, r in got] == [
        ("08:00", None),
        ("09:45", "kaplicy szpitalnej"),
        ("11:00", "kaplicy szpitalnej"),
    ]
    got = readings("Msze w dni powszednie: w kaplicy szpitalnej o godz. 7.00 i 18.00 w kościele parafialnym")
    assert [(t, r["church"]) for t, r in got] == [("07:00", "kaplicy szpitalnej"), ("18:00", None)]


def test_a_heading_of_another_topic_ends_the_day_label_over_its_lines():
    text = "w dni powszednie:\n6:15, 18:00\n\nChrzty Święte:\npodczas Mszy Świętych o 9:00 i 11:00"
    assert days(text)[:2] == [("06:15", MON_SAT), ("18:00", MON_SAT)]
    assert all(d != MON_SAT for t, d in days(text)[2:])


def test_the_sunday_order_agrees_with_porzadek():
    assert days("W nowym porządku niedzielne Eucharystie będą o 8.00 i 10.00.") == [
        ("08:00", ["sun"]),
        ("10:00", ["sun"]),
    ]


def test_minutes_written_oo_end_a_sentence():
    got = readings(
        "Niedzielne Msze o: 8.oo i 18.oo. O pół godziny zmienimy też porządek mszy św. w kaplicach"
    )
    assert [(t, r["church"]) for t, r in got] == [("08:00", None), ("18:00", None)]


def test_a_sundays_liturgical_name_is_no_season():
    assert season_in("II NIEDZIELA ADWENTU") is None
    assert season_in("IV Niedziela Wielkiego Postu") is None
    assert season_in("w Adwencie") == "advent" and season_in("niedziele Adwentu") == "advent"


def test_an_intentions_lists_numbered_intentions_keep_the_days_heading():
    text = (
        "INTENCJE MSZALNE\n\n04.12.2022 – II NIEDZIELA ADWENTU\n\n"
        "08.00  I. Za + męża Alfonsa w 1 rocznicę śmierci\n\n            II. Za + Klemensa Pałka (greg)\n\n"
        "10.30  I. W intencji górników z prośbą o Boże błogosławieństwo\n\n"
        "05.12.2022 PONIEDZIAŁEK\n\n18.00  Za + Józefa\n"
    )
    got = [(t, r["days"], r["date"], r["season"]) for t, r in readings(text, 2022)]
    assert got == [
        ("08:00", ["sun"], "2022-12-04", None),
        ("10:30", ["sun"], "2022-12-04", None),
        ("18:00", ["mon"], "2022-12-05", None),
    ]


def test_a_saturday_list_goes_on_to_the_next_churchs_evening_after_a_semicolon():
    got = days(
        "Msze św. w niedziele: w sobotę Piłka godz. 17.00, 19.00; Kaminnik godz. 18.30; Niedziela: 7.30"
    )
    assert got == [("17:00", ["sat"]), ("19:00", ["sat"]), ("18:30", ["sat"]), ("07:30", ["sun"])]
    assert days("Niedziele: sobota 18.00; Borki 9.00, 11.00") == [
        ("18:00", ["sat"]),
        ("09:00", ["sun"]),
        ("11:00", ["sun"]),
    ]


def test_advents_every_day_is_the_weekdays():
    text = "Zachęcamy do udziału w Roratach, które codziennie będą o godz. 18:00. W soboty o godz. 08:00."
    got = [(t, r["days"], r["season"]) for t, r in readings(text)]
    assert got[0] == ("18:00", MON_FRI, "advent")


def test_a_place_inside_the_parenthesis_that_holds_the_time_is_its_church():
    got = readings("Msze w niedziele: 9.30, (11.00 w Rosnówku), 12.00")
    assert [(t, r["church"]) for t, r in got] == [("09:30", None), ("11:00", "Rosnówku"), ("12:00", None)]


def test_months_in_a_parenthesis_after_a_day_are_that_days_season_commas_and_all():
    got = readings("Msze św. w dni powszednie: godz. 18.00, czwartek (poza V, X, i XII) godz. 8.00")
    assert [(t, r["days"], r["season"]) for t, r in got] == [
        ("18:00", ["mon", "tue", "wed", "thu", "fri", "sat"], None),
        ("08:00", ["thu"], "01-01..04-30,06-01..09-30,11-01..11-30"),
    ]
    got = readings("Msze św. w niedziele: 7:00, 9:00, 15:30 (z wyjątkiem I, VII, VIII), 18:30")
    assert [(t, r["season"]) for t, r in got] == [
        ("07:00", None),
        ("09:00", None),
        ("15:30", "02-01..06-30,09-01..12-31"),
        ("18:30", None),
    ]


def test_a_date_named_with_its_weekday_keeps_its_day_and_takes_a_year_it_falls_on_that_day():
    def dated(text: str) -> list[str | None]:
        return [r["date"] for _, r in readings(text, year=2026)]

    # no year on the page: this year or the latest before it, never another day of the month
    assert dated("Ogłoszenia.\nW niedzielę 26 maja po Mszy św. o 11.30 spotkanie.") == ["2024-05-26"]
    assert dated("Ogłoszenia.\nW piątek 22 maja po Mszy św. o 18.00 spotkanie.") == ["2026-05-22"]
    # a page of 2019 announcing the week of 30 March 2020: the next year is the one it falls on Monday
    text = "Ogłoszenia 2019 (rok 2019)\nOgłoszenia 30 marca – 5 kwietnia\nPoniedziałek – 30 marca 7.00 Msza"
    assert dated(text) == ["2020-03-30"]
    # the announcements' heading gives its week: "w czwartek" below it is that week's Thursday
    assert dated("Ogłoszenia parafialne 12.10.2025\n\n1. W czwartek Msza św. o 18.00.") == ["2025-10-16"]


def test_a_heading_s_date_is_not_that_of_times_every_week_on_days_it_does_not_fall_on():
    text = (
        "Doba Eucharystyczna: 31 grudnia / 1 stycznia\n\n"
        "Kaplica w Borkach, Msze święte: niedziela, święta i święta zniesione – 14.00.\n"
    )
    assert [(t, r["kind"], r["date"], r["days"]) for t, r in readings(text)] == [
        ("14:00", "regular", None, ["sun", "holiday"])
    ]
    # the intentions of a holy day under its dated heading are that day's
    text = "08.12.2022 CZWARTEK UROCZYSTOŚĆ NIEPOKALANEGO POCZĘCIA NMP\n\n09.00 Za + Jana\n"
    assert [(r["kind"], r["date"]) for _, r in readings(text)] == [("one_off", "2022-12-08")]


def test_a_label_over_several_churches_gives_way_to_the_church_it_goes_on_to():
    text = "Inne kościoły i kaplice: Borki – kaplica filialna p.w. św. Anny, Msze święte: niedziela – 14.00."
    assert [(t, r["church"]) for t, r in readings(text)] == [("14:00", "kaplica filialna p.w. św. Anny")]


def test_a_church_heading_after_the_parish_church_s_is_another_church():
    text = (
        "Kościół parafialny: p.w. Świętej Rodziny.\n\nMsze święte: zobacz plan nabożeństw\n\n"
        "Kościół sanktuaryjny: p.w. Matki Bożej\nMsze św.: niedziele i święta – 17.00\n"
    )
    assert [(t, r["church"]) for t, r in readings(text)] == [
        ("17:00", "Kościół sanktuaryjny p.w. Matki Bożej")
    ]


def test_a_time_listed_before_another_item_with_its_own_time_keeps_the_list_s_mass_word():
    got = readings("Msze św.: niedziele 9.00, środy 17.00, 20.00, czuwanie od 17.30 – 20.00")
    assert [t for t, _ in got] == ["09:00", "17:00", "20:00"]
    # a Mass held as needed is no Mass of the schedule
    assert readings("Msza św. w dni powszednie w zależności od potrzeby godz. 18.00.") == []


def test_years_are_no_summer_and_the_parish_s_own_church_is_no_other_church():
    text = "Program duszpasterski na lata 2023-2024\n\nPorządek Mszy Św.\n\nNiedziela\n8:00\n9:30\n"
    assert {r["season"] for _, r in readings(text)} == {None}
    assert season_in("Msze św. latem: 8:00") == "summer"
    text = "Msze św. w niedziele o 9.30 i 15.00 w naszym sanktuarium, transmitowane w internecie."
    assert {r["church"] for _, r in readings(text)} == {None}
