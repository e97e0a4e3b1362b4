"""The rule-based Mass extractor on short pages written in the styles parish sites use."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msze.extraction.hours import find_hours
from msze.extraction.rules import decide, mass_times


def masses(text: str) -> list[str]:
    return mass_times(text, find_hours(text))


def days(text: str) -> dict[str, str | None]:
    hours = find_hours(text)
    return {h.time: d.day for h, d in zip(hours, decide(text, hours), strict=True) if d.is_mass}


SCHEDULE_BLOCK = """Porządek Mszy świętych

Niedziele i święta:
7.00, 9.00, 10.30 (dla dzieci), 12.00, 18.00

Dni powszednie:
6.30, 18.00

Kancelaria parafialna
poniedziałek – piątek: 9.00-11.00, 16.00-17.30
"""


def test_schedule_block_with_day_headings_and_office_hours():
    assert masses(SCHEDULE_BLOCK) == ["06:30", "07:00", "09:00", "10:30", "12:00", "18:00"]
    d = days(SCHEDULE_BLOCK)
    assert d["07:00"] == "sunday" and d["06:30"] == "weekday"


def test_day_list_without_header():
    text = (
        "Parafia pw. św. Wojciecha\n\nw niedzielę: 8:00, 10:00, 11:30\n"
        "w sobotę: 18:00\nod poniedziałku do piątku: 7:00\n"
    )
    assert masses(text) == ["07:00", "08:00", "10:00", "11:30", "18:00"]
    d = days(text)
    assert (d["08:00"], d["18:00"], d["07:00"]) == ("sunday", "saturday", "weekday")


def test_devotions_confession_rosary_adoration_never_count():
    text = (
        "Msze św.: niedziela 9:00, 11:00\n\n"
        "Spowiedź: codziennie 17:30\n"
        "Różaniec w październiku o 17:15\n"
        "Adoracja Najświętszego Sakramentu w czwartek o 19:00\n"
        "Nabożeństwa majowe o godz. 18:30\n"
        "Koronka do Miłosierdzia Bożego o 15:00\n"
    )
    assert masses(text) == ["09:00", "11:00"]


def test_sentence_cues_before_and_after():
    text = (
        "W środę o godz. 18.00 Msza św. w intencji chorych. "
        "Po Mszy o 8.00 zapraszamy na kawę. "
        "O godz. 19.00 spotkanie dla rodziców. "
        "Zapraszamy na Mszę świętą o godz. 12.00, a o 16.00 na koncert."
    )
    assert masses(text) == ["08:00", "12:00", "18:00"]


def test_what_a_season_s_kiedy_clause_says_happens_then_is_no_topic_of_the_time_after_it():
    text = (
        "Eucharystia w naszym kościele\n"
        "W dni powszednie o godz. 7.00.\n"
        "W październiku, kiedy odprawiany jest różaniec, w środy o godz. 17.00."
    )
    assert masses(text) == ["07:00", "17:00"]
    # two such clauses, the second after "oraz" and another season
    text = (
        "Eucharystia w naszym kościele\n"
        "W dni powszednie o godz. 7.00.\n"
        "W Adwencie, gdy są rekolekcje oraz w maju, kiedy śpiewamy litanię, w soboty o godz. 17.00."
    )
    assert masses(text) == ["07:00", "17:00"]


@pytest.mark.parametrize(
    "text",
    [
        # no season before the clause: the devotion is what the time is for
        "Eucharystia\nW dni powszednie o godz. 7.00.\nW środy, kiedy jest różaniec, o godz. 17.00.",
        # the cue after the time names it
        "Nabożeństwa\nW Wielkim Poście, kiedy są rekolekcje, w piątki o 17.00 Droga Krzyżowa.",
    ],
)
def test_a_kiedy_clause_with_no_season_or_a_cue_after_the_time_still_decides(text):
    assert "17:00" not in masses(text)


def test_ranges_and_from_to_are_not_mass_starts():
    text = (
        "Msze św. w niedziele: 8.00, 10.00\n"
        "Adoracja po Mszy wieczornej do godz. 21.00\nKancelaria: 16:00-18:00\n"
    )
    assert masses(text) == ["08:00", "10:00"]


def test_seasonal_variants_and_filial_chapel_count():
    text = (
        "Msze święte\n"
        "Niedziela: 7:30, 9:30 (w kaplicy w Zalesiu), 11:00, 18:00 (czas letni), 17:00 (czas zimowy)\n"
        "Dni powszednie od 1 X do 30 IV: 17:00\n"
    )
    assert masses(text) == ["07:30", "09:30", "11:00", "17:00", "18:00"]


def test_intention_list():
    text = "Intencje mszalne\n\nNiedziela 12 maja\n8:00 – + Jan Nowak\n10:30 – Za parafian\n"
    assert masses(text) == ["08:00", "10:30"]


def test_dates_years_and_phone_numbers_are_not_masses():
    text = (
        "Msza św. odpustowa 17 października 2021 r. o godz. 11.00\n"
        "Kościół konsekrowano w 1930 r. Msze św. odprawiał ks. Jan przez 20 lat.\n"
        "tel. 61 852 30 00\n"
    )
    assert masses(text) == ["11:00"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św. w niedziele o godz. 7.oo, 9.3o i 11.oo", ["07:00", "09:30", "11:00"]),
        ("Msze św.\nW niedzielę8:00, 10:00\nW tygodniu: 7³⁰, 18⁰⁰", ["07:30", "08:00", "10:00", "18:00"]),
        ("Msze św. w dni powszednie o godz. 700 (we środy o 1800)", ["07:00", "18:00"]),
        ("Msze św. w kaplicy o 18-tej", ["18:00"]),
    ],
)
def test_written_forms(text, expected):
    assert masses(text) == expected


def test_liturgy_of_the_passion_and_communion_outside_mass_are_not_masses():
    text = (
        "Wielki Piątek: Liturgia Męki Pańskiej o godz. 18.00.\n"
        "Komunia św. poza godzinami Mszy św. o godz. 13.30 i 15.30.\n"
    )
    assert masses(text) == []


def test_prose_without_cue_is_left_to_the_classifier():
    text = "W sobotę 12 czerwca o godz. 10.00 zbieramy się przed plebanią i wyruszamy w drogę."
    hours = find_hours(text)
    assert [d.is_mass for d in decide(text, hours)] == [False] * len(hours)


def test_no_hours():
    assert decide("", []) == []
    assert masses("Msze święte według ogłoszeń.") == []


def test_programme_under_a_date_heading_is_not_a_schedule():
    text = (
        "Sobota 14 września\n10:00 Przyjazd pielgrzymów\n12:00 Obiad w domu parafialnym\n"
        "15:00 Godzina Miłosierdzia"
    )
    assert masses(text) == []


def test_dates_written_like_times_need_a_mass_word():
    assert masses("Niedziela 12.05\n\nPoniedziałek 13.05\n") == []
    assert masses("Msza św. o godz. 18.10 w kaplicy") == ["18:10"]


def test_abbreviated_days_in_a_sidebar():
    text = "Msze św.\nNd: 7.30, 9.00, 11.00\nPn-Sb: 7.00, 18.00\n"
    assert masses(text) == ["07:00", "07:30", "09:00", "11:00", "18:00"]
    d = days(text)
    assert (d["07:30"], d["11:00"], d["07:00"], d["18:00"]) == ("sunday", "sunday", "weekday", "weekday")


def test_a_time_listed_under_a_header_of_something_else_is_decided_not_left_to_the_classifier():
    text = "Msze św.\nDni powszednie: 7.00\n\nSpotkanie biblijne (wg ogłoszeń)\nczwartek godz. 19:00\n"
    hours = find_hours(text)
    assert [(h.time, d.is_mass, d.reason) for h, d in zip(hours, decide(text, hours), strict=True)] == [
        ("07:00", True, "schedule block"),
        ("19:00", False, "other block"),
    ]


def test_devotion_held_with_the_mass_does_not_cancel_it():
    text = "Msze św. w dni powszednie: 7:30, 15:00 (z Koronką do Miłosierdzia Bożego), 18:00 z nowenną, 19:00"
    assert masses(text) == ["07:30", "15:00", "18:00", "19:00"]


def test_announcement_items_need_their_own_cue():
    text = (
        "Ogłoszenia duszpasterskie\n"
        "1. Dziś w naszej parafii Msze św. według porządku niedzielnego, zapraszamy wszystkich.\n"
        "2. W środę o 18:00 Msza św. w intencji chorych.\n"
        "3. W czwartek o 17:00 zapraszamy dzieci z klas trzecich do salki katechetycznej.\n"
        "4. W sobotę o 10:00 sprzątanie kościoła, prosimy o pomoc rodziny z ulicy Polnej.\n"
    )
    assert masses(text) == ["18:00"]


def test_day_notes_after_an_hour_and_day_groups():
    d = days("Msze św. w niedzielę: 18.00 (sobota), 7.30, 9.00\nMsze poranne o 8:00 - w poniedziałki i środy")
    assert (d["18:00"], d["07:30"], d["09:00"], d["08:00"]) == ("saturday", "sunday", "sunday", "weekday")
    d = days("Msze św.\nwe wtorki, czwartki i soboty: 8.00\nw soboty: 18.00")
    assert (d["08:00"], d["18:00"]) == ("weekday", "saturday")
    d = days("Msze św. w dni powszednie\nod ostatniej niedzieli października: 7.00\nw okresie zimowym\n17.00")
    assert (d["07:00"], d["17:00"]) == ("weekday", "weekday")


def test_table_cell_with_one_time_per_line_keeps_the_day():
    text = "Porządek Mszy Świętych\n\nDzień Godziny\nNiedziela 7:00\n9:00\n11:00\nPoniedziałek–Sobota 18:00\n"
    assert days(text) == {"07:00": "sunday", "09:00": "sunday", "11:00": "sunday", "18:00": "weekday"}


def test_contact_numbers_after_a_schedule_are_not_masses():
    text = (
        "Msze święte\nNiedziela: 8:00, 10:00\n\nKontakt\ntel. 61 845 30 00\nkom. 601 715 200\n"
        "tel./fax (061) 815 30 45\nul. Kościelna 15, 62-030 Luboń\n"
    )
    assert masses(text) == ["08:00", "10:00"]


def test_intention_list_under_its_header():
    text = (
        "INTENCJE MSZALNE\n\n• 7:00 +Anna Nowak\n• 12:00 Chrzest: Jan Kowalski\n• 18:00 O zdrowie dla Marii\n"
    )
    assert masses(text) == ["07:00", "12:00", "18:00"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msze św. w niedziele: 8, 10, 12, 18", ["08:00", "10:00", "12:00", "18:00"]),
        ("Porządek Mszy\ndni powszednie: 7, 18; niedziele: 8, 11", ["07:00", "08:00", "11:00", "18:00"]),
        ("Msze św. w niedziele o godz.: 7, 9.30, 11", ["07:00", "09:30", "11:00"]),
        ("Msze św. w tygodniu o godz. 6, 8 i 19.", ["06:00", "08:00", "19:00"]),
    ],
)
def test_hours_without_minutes_listed_under_a_heading(text, expected):
    assert masses(text) == expected


def test_times_joined_by_dashes_are_a_list_and_two_are_a_range():
    text = "Msze św.\nNiedziele: 6.30 – 8.00 – 9.30 – 11.00 – 19.00\nKancelaria: 15.00 – 17.30"
    assert masses(text) == ["06:30", "08:00", "09:30", "11:00", "19:00"]
    hours = find_hours(text)
    assert [d.reason for d in decide(text, hours)][-2:] == ["range", "range"]


def test_ranges_side_by_side_stay_ranges():
    text = "Msze św.\nKancelaria: wtorek 9:00-11:00, 16:00-18:00; piątek 10:00-12:00"
    hours = find_hours(text)
    assert [d.reason for d in decide(text, hours)] == ["range"] * 6


@pytest.mark.parametrize(
    "text",
    [
        "Msze św. w niedziele: 3, 2, 1",  # not rising: no hours
        "Niedziela 8, 10",  # no heading's colon
        "Msze św. w niedziele: 1, 2",  # before the first hour of a Mass
    ],
)
def test_small_numbers_that_are_no_list_of_hours(text):
    assert masses(text) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Kancelaria: 16:00-18:00", [(False, "range"), (False, "range")]),
        ("Msze św.: 7.12, 8.05", [(False, "odd minutes"), (True, "cue before")]),
        ("Adoracja po Mszy do godz. 21.00", [(False, "from/to")]),
        ("Niedziela 8, 10", [(False, "bare number"), (False, "bare number")]),
        ("Biuro, tel. 8:00", [(False, "contact")]),
        ("O godz. 11.00 msza św.", [(True, "cue after")]),
        ("18.30 Nieszpory", [(False, "other cue after")]),
        ("Różaniec o 17:15", [(False, "other cue before")]),
        ("Msze: 8:00. Latem: 9:00", [(True, "cue before"), (True, "schedule block")]),
        ("Intencje\n8:00 – + Jan Kowalski", [(True, "intention")]),
        ("Msze święte\nw maju 12.05", [(False, "date-like")]),
        ("Msze święte\nNiedziela: 8:00, 10:00", [(True, "schedule block"), (True, "schedule block")]),
        ("w niedzielę: 8:00, 10:00", [(True, "day list"), (True, "day list")]),
        ("w niedzielę: 10:00 Rajd rowerowy", [(False, "no cue")]),
        ("W sobotę zapraszamy na ognisko o 19:00.", [(False, "no cue")]),
    ],
)
def test_each_rule_gives_its_reason(text, expected):
    """The reason names the rule that decided (evaluation reports list it per mistake), first rule first."""
    hours = find_hours(text)
    assert [(d.is_mass, d.reason) for d in decide(text, hours)] == expected


def test_lowercased_cue_scan_matches_the_ignorecase_regexes():
    """_cues scans a lowercased line with case-sensitive regexes: every character that str.lower() changes
    keeps its regex classes, and the letters of the cue words match the same characters both ways."""
    import re
    import sys

    from msze.extraction.rules import cues

    classes = [re.compile(p) for p in (r"\w", r"\d", r"\s", r"[^\W\d_]", r"[^\W\d]")]
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        low = ch.lower()
        if low == ch or ch in cues._LOWER_MISMATCH:
            continue
        assert len(low) == 1, ch
        assert [bool(c.fullmatch(ch)) for c in classes] == [bool(c.fullmatch(low)) for c in classes], ch
    letters = sorted(
        set("".join(cues._MASS_CUES + tuple(cues._OTHER_CUES))) & set("aąbcćdeęfghijklłmnńoóprsśtuwyzźż")
    )
    any_letter = re.compile("[" + "".join(letters) + "]", re.IGNORECASE)
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        if any_letter.fullmatch(ch) and ch not in cues._LOWER_MISMATCH:
            same = [x for x in letters if re.fullmatch(x, ch, re.IGNORECASE)]
            assert [ch.lower()] == same, ch


@pytest.mark.parametrize(
    "line",
    [
        "MSZE ŚWIĘTE w niedziele: 8:00, SPOWIEDŹ przed Mszą, POZA godzinami Mszy kancelaria",
        "Rozkład Nabożeństw; ADORACJA z nowenną; Heilige Messe; HOLY MASS, Pasterka",
        "ſuma 10:00, ıntencje, İNTENCJE mszalne",  # the characters lowercasing maps differently
    ],
)
def test_cues_of_the_lowercased_line_are_those_of_the_ignorecase_regexes(line, monkeypatch):
    from msze.extraction.rules import cues

    found = cues._cues(line)
    monkeypatch.setattr(cues, "_scanned", lambda line: (line, cues.MASS_CUE_RE, cues.OTHER_CUE_RE))
    assert found == cues._cues(line)
    assert len(found) >= 3


_CUE_WORDS = [
    "Msza",
    "św.",
    "po",
    "Mszy",
    "poza",
    "godzinami",
    "z",
    "nowenną",
    "spowiedź",
    "Adoracja",
    "rozkład",
]
_CUE_WORDS += [
    "nabożeństw",
    "różaniec",
    "ze",
    "Koronką",
    "wraz",
    "kancelaria",
    "i",
    "Pasterka",
    "parafia",
    ".",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_CUE_WORDS), max_size=25).map(" ".join))
def test_topic_cues_tell_what_all_own_cues_tell(line):
    """What the walk reads of a line without hours (any Mass cue, the last cue) is the same from
    topic_cues as from every own cue of the line."""
    from msze.extraction.rules.cues import LineCues, topic_cues

    own, some = LineCues(line).own, topic_cues(line)
    assert some == [c for c in own if c in some]  # a subsequence, in order
    assert [c for c in own if c.mass] == [c for c in some if c.mass]
    assert own[-1:] == some[-1:]


_LINE_WORDS = _CUE_WORDS + ["7:00", "18.00", "o", "godz.", "Niedziela:", "sobota", "w", "dni", "powszednie"]
_LINE_WORDS += ["TVP", "transmisja", "kaplica", "wakacje", "1", "lipca", "tel.", "od", "do", "Kościół"]
_LINE_WORDS += ["zapraszamy", "wszystkich", "parafian", "serdecznie", "na", "wspólną", "modlitwę", "-"]
_LINES = st.lists(st.sampled_from(_LINE_WORDS), max_size=60).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, min_size=1, max_size=12).map("\n".join))
def test_lines_with_overwritten_cues_change_no_decision(text):
    """The walk skips the cues of long lines that a later line of prose overwrites: every decision is the
    one of a walk that reads every line's cues."""
    from msze.extraction.rules import walk

    hours = find_hours(text)
    skipping = decide(text, hours, 2025)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(walk, "_cues_overwritten", lambda *_: set())
        assert skipping == decide(text, hours, 2025)


def test_a_place_whose_name_starts_like_a_march_is_no_march():
    # "marsz" is a cue as a word ("Marsz dla Życia o 12.00"), not inside a village's name
    text = "Msze w niedziele:\n• kościół farny: 8.00, 11.00\n• kościół w Marszewie g. 9.30\n\nPon.–sob.: 7.00"
    assert masses(text) == ["07:00", "08:00", "09:30", "11:00"]
    assert masses("Ogłoszenia\nW sobotę Marsz dla Życia o 12.00 spod ratusza.") == []


def test_a_street_in_a_closed_parenthesis_is_no_contact():
    text = "Msze w niedziele:\n- kaplica Miłosierdzia (ul. Polna): 8.00, 10.30\n\nKancelaria: ul. Polna 12"
    assert masses(text) == ["08:00", "10:30"]
    # an address left open before the time is still a contact
    assert masses("Msze w niedziele: 9.00\nDom parafialny ul. Polna 10.30") == ["09:00"]


def test_a_mass_word_in_parentheses_keeps_the_list_of_masses_going():
    # "(suma)" names one of the list's Masses: the list after the note is Masses too; a devotion in
    # parentheses speaks only of its own hour
    text = "Niedziela\n7.00, 9.00\n10.30 (suma), 12.00\nPonadto:\n8.15, 16.00"
    assert masses(text) == ["07:00", "08:15", "09:00", "10:30", "12:00", "16:00"]
    text = "Niedziela\n7.00, 9.00\n10.30, 12.00 (przed nią różaniec)\nPonadto:\n8.15, 16.00"
    assert not {"08:15", "16:00"} & set(masses(text))


def test_times_given_about_are_no_mass_starts():
    # Communion given between the Masses, after a hard-wrapped line lost its cue
    text = "Msze św.\nw niedziele o 8.00, 10.00 i 12.00\nmożna też\nw niedziele (ok. godz. 8.50 i 10.50)"
    assert masses(text) == ["08:00", "10:00", "12:00"]
    assert masses("Msze św. w niedziele: 9.00, 11.00; procesja wyrusza około 12.15") == ["09:00", "11:00"]


def test_a_line_of_times_ending_with_its_day_after_a_dash():
    text = "Msze święte\n\n7.30, 09:45, 11:15 – niedziela\n\n17:30 – dni powszednie\n8.15 – sobota"
    assert days(text) == {
        "07:30": "sunday",
        "09:45": "sunday",
        "11:15": "sunday",
        "17:30": "weekday",
        "08:15": "saturday",
    }


def test_services_alone_as_a_header_leave_the_day_lists_below_to_say_what_they_are():
    text = (
        "Nabożeństwa\n\nNiedziele i święta: 7.30, 9.45, 11.15\nDni powszednie: 6.45, 17.15\nRóżaniec: 16.45"
    )
    assert masses(text) == ["06:45", "07:30", "09:45", "11:15", "17:15"]
    # a devotion's own header still says its times are no Masses
    assert masses("Nabożeństwa majowe\n\nDni powszednie: 19.15") == []


def test_from_before_a_list_makes_each_time_an_opening_time():
    text = "Msze św. w dni powszednie: 7.00, 18.00\nSpowiedź przed Mszą, a w Adwencie zawsze od 6.45 i 17.45."
    assert masses(text) == ["07:00", "18:00"]


def test_a_time_in_parentheses_after_the_mass_is_what_follows_it():
    text = "Msze św. w dni powszednie o 17.30\nBiuro parafialne czynne po Mszy św. (18.15) we wtorki"
    assert masses(text) == ["17:30"]
    assert masses("W piątek po Mszy o godz. 18.00 adoracja.") == ["18:00"]


def test_a_time_in_parentheses_after_before_or_during_the_mass_is_that_mass():
    assert masses("Spowiedź w dni powszednie przed Mszą św. (7.00 i 18.30).") == ["07:00", "18:30"]
    assert masses("W tygodniu spowiedź podczas Mszy św. (6.45, 17.00).") == ["06:45", "17:00"]


def test_a_cue_past_a_table_cell_s_gap_speaks_of_the_next_cell():
    text = "Msze św. w dni powszednie:   7:15    18:30         Kancelaria:   Wt 16:00 – 17:00"
    assert masses(text) == ["07:15", "18:30"]
    assert masses("Msze św. w dni powszednie: 7:15, 18:30 kancelaria") == ["07:15"]


def test_two_times_on_bulleted_lines_are_a_list_not_a_range():
    text = "Msze św. w dni powszednie:\n- 6:45\n- 17:15\nKancelaria:\n16:00 -\n17:00"
    assert masses(text) == ["06:45", "17:15"]


def test_days_given_their_hours_in_a_sentence_under_a_mass_header():
    text = (
        "Msze święte\n\nW dni powszednie: w poniedziałek i czwartek o godzinie 7.15, a we wtorek, środę,"
        " piątek i sobotę o godzinie 18.15, zawsze w kościele."
    )
    assert days(text) == {"07:15": "weekday", "18:15": "weekday"}
    # without the header the sentence is left to the classifier
    assert masses(text.replace("Msze święte", "Ogłoszenia")) == []


def test_a_church_heading_between_a_day_heading_and_its_times_keeps_the_day():
    text = (
        "PORZĄDEK NIEDZIELNY:\n\nMsze i nabożeństwa w kościele Świętej Trójcy:\n\n7:15\n\n9:45\n\n"
        "W tygodniu: 18:15"
    )
    assert days(text) == {"07:15": "sunday", "09:45": "sunday", "18:15": "weekday"}


def test_sundays_and_holy_days_abbreviated_with_each_village_s_list():
    text = "ndz. i św. Zalesie Górne: 7:45, 11:15, 17:45, Borowo: 9:15, 10:45"
    assert days(text) == {t: "sunday" for t in ("07:45", "11:15", "17:45", "09:15", "10:45")}


def test_a_parish_event_under_the_mass_header_is_no_mass():
    text = (
        "Msze święte\nNiedziela: 9:00, 11:00\n"
        "Serdecznie zapraszamy na festyn rodzinny w sobotę o 14.30.\n"
        "W niedzielę o 13.00 kiermasz misyjny, a o 16.00 loteria fantowa.\n"
        "Wycieczka dla ministrantów w piątek o 7.15.\n"
    )
    assert masses(text) == ["09:00", "11:00"]


def test_a_day_heading_s_times_each_after_its_village_are_a_day_list():
    text = "Niedziela: Dębina 7.30, Łęgi 9.00, Wola 10.30\nSobota: Łęgi 18.00\n"
    assert masses(text) == ["07:30", "09:00", "10:30", "18:00"]
    assert days(text) == {"07:30": "sunday", "09:00": "sunday", "10:30": "sunday", "18:00": "saturday"}
    # a description after the time is still a programme, not a village
    assert masses("Niedziela: 10:00 Rajd rowerowy, 12:00 Ognisko") == []


def test_a_time_labelled_in_a_mass_list_leaves_the_list_a_list_of_masses():
    # "16:00 – Nieszpory": the label after a line's one time is that time's alone
    listed = "Msze św. w niedziele:\n7:30\n9:00\n16:00 – Nieszpory\n17:30\n19:00\n"
    assert masses(listed) == ["07:30", "09:00", "17:30", "19:00"]
    # a block of devotions stays one: each line labels its own time, none is a Mass
    assert masses("Msze św. w niedziele: 7:30, 9:00\n\nNabożeństwa:\n16:00 – różaniec\n17:00\n") == [
        "07:30",
        "09:00",
    ]
    # a heading before its time ("Nieszpory 16:00") still turns the list to what it names
    assert masses("Msze św. w niedziele:\n7:30\nNieszpory 16:00\n17:30\n") == ["07:30"]


def test_a_cue_joined_after_a_list_of_masses_is_the_next_items():
    # "..., 10.30 oraz nieszpory": the vespers are one more item, not the 10.30's
    assert masses("Msze św. w niedziele o godz. 7.30 i 10.30 oraz nieszpory.") == ["07:30", "10:30"]
    assert masses("Msza św. transmitowana w niedziele o 9.15 i 12.00 a także Gorzkie Żale.") == [
        "09:15",
        "12:00",
    ]
    # with no Mass word before it, the joined cue still says what the time is
    assert masses("W niedziele o 17.00 oraz różaniec.") == []
    # "dodatkowo", "oraz po ...": the devotion after the list's last Mass leads the next item
    assert masses("Msze w niedziele: 8.00, 18.30 dodatkowo po Gorzkich Żalach 15.45") == ["08:00", "18:30"]
    assert masses("Msze w niedziele: 8.00, 18.30 oraz po nieszporach 16.00") == ["08:00", "18:30"]


def test_a_sentence_naming_a_devotion_opens_no_block_over_the_next_paragraph():
    text = (
        "Msze św.\n\nW dni powszednie o godz. 7.00.\n\n"
        "W Wielkim Poście, kiedy odprawiana jest Droga Krzyżowa, w piątki o godz. 17.15.\n\n"
        "W niedziele o godz. 8.00, 10.30 i 16.30.\n"
    )
    assert {"08:00", "10:30", "16:30"} <= set(masses(text))
    # a devotions header still heads its lines
    assert masses("Nabożeństwa:\nDroga Krzyżowa\n17.15\n") == []


def test_a_label_past_the_full_stop_after_a_lines_first_time_is_that_times():
    # "16.30. Adoracja": the label is the time's, though a full stop stands between them
    assert masses(
        "Intencje mszalne\nSobota 14.03.\n16.15. Adoracja Najświętszego Sakramentu\n18.00 + Jan\n"
    ) == ["18:00"]
    assert masses("Msze św.\nNiedziela\n8.00. Suma\n10.00\n") == ["08:00", "10:00"]


def test_who_a_mass_is_for_names_no_other_event_for_the_times_after_it():
    text = (
        "Msze św. w niedziele: 8.15, 17.15 - dla młodzieży przygotowującej się do bierzmowania, 19.15; "
        "kaplica w Borkach: 10.15"
    )
    assert masses(text) == ["08:15", "10:15", "17:15", "19:15"]
    # the class itself is another event
    assert masses("Spotkanie kandydatów do bierzmowania o 19.15. Próba scholi o 17.15.") == []


def test_an_invitation_to_the_mass_after_its_time_names_that_mass():
    assert masses("W każdą środę o godz. 18.00 zapraszamy na Mszę św. z Nowenną do Matki Bożej.") == ["18:00"]
    assert masses("Zapraszam na Mszę: w piątek 19.00.") == ["19:00"]
    # a Mass as the point of reference of something else is not
    assert masses("O 17.30 zbiórka ministrantów na Mszę św.") == []
