import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from msze.extraction.hours import THESIS_HOUR_RE, Hour, find_hours, find_hours_thesis


def times(text: str) -> list[str]:
    return [h.time for h in find_hours(text)]


def written(text: str) -> list[str]:
    return [h.text for h in find_hours(text)]


# --- the thesis rules, exactly ------------------------------------------------------------------------


def test_thesis_regex_is_verbatim():
    assert THESIS_HOUR_RE.pattern == r"(0?[6-9]|1\d|2[0-2])[:.](oo|[0-5]\d)|6|7|8|9|1\d|2[0-2]"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Msza o 7.00 i 18:30", ["7.00", "18:30"]),
        ("w niedziele 8.oo, 10.oo", ["8.oo", "10.oo"]),
        ("godziny: 7, 9, 11", ["7", "9", "11"]),
        ("(7.00)", []),  # "(" before and ")" after
        ("(7.00 i 9.00)", ["7.00", "9.00"]),
        ("7.00/9.00", ["7.00", "9.00"]),
        ("o 18.00; potem", ["18.00"]),
        ("godz.7.00", []),  # "." before is not a thesis border
        ("18.00.", []),  # "." after is not a thesis border
        ("23.00 5.00 6:60", []),  # outside 6–22, minutes over 59
        ("18:00-19:00", []),  # "-" is not a border
        ("06:30", ["06:30"]),
    ],
)
def test_thesis_extractor(text, expected):
    assert [text[a:b] for a, b in find_hours_thesis(text)] == expected


# --- the project's superset: forms real pages use ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Niedziela: 7.oo, 9.3o, 11.oo", ["07:00", "09:30", "11:00"]),
        ("Msza św. godz.7,30 i 18,00", ["07:30", "18:00"]),
        ("Porządek: 8: 00 – intencja, 21 : 00 – Pasterka", ["08:00", "21:00"]),
        ("Dni powszednie 7³⁰ i 18⁰⁰", ["07:30", "18:00"]),
        ("w niedziele: 8 00, 10 30 , 12 00", ["08:00", "10:30", "12:00"]),
        ("Msze: 700, 900, 1130, 1800", ["07:00", "09:00", "11:30", "18:00"]),
        ("Niedziela:\n0730 Msza\n0915 Msza\n1045 Suma", ["07:30", "09:15", "10:45"]),
        ("wieczorem o 18-tej", ["18:00"]),
        ("kancelaria 16:00-18:00", ["16:00", "18:00"]),
        ("spowiedź 8.30–9.15", ["08:30", "09:15"]),
        ("W niedzielę8:00, Środa18:00", ["08:00", "18:00"]),
        ("13.00Uroczysta Msza", ["13:00"]),
        ("–17.00 i 11.15*", ["17:00", "11:15"]),
        ("o godz. 7. Potem", ["07:00"]),
        ("o godz.9 i 11", ["09:00", "11:00"]),
        ("Pasterka o 24:00", ["24:00"]),
        ("po Mszy o godz. 18.00/15.00", ["18:00", "15:00"]),
        ("dni powszednie 18\n00", ["18:00"]),
        ("w niedziele o godz. 8, 10, 12 i 19.", ["08:00", "10:00", "12:00", "19:00"]),
        ("w tygodniu: 7, 18.\nW sobotę", ["07:00", "18:00"]),
        # "i" before a glued time is the conjunction, not a Roman month before a year ("XI 1830")
        ("w niedziele o godz. 730 , 1100 i 1715.", ["07:30", "11:00", "17:15"]),
        # a parish's English page: p.m. is the afternoon; a.m. and noon stand as written
        (
            "Sundays: 7.30 a.m., 12.30 a.m., 6.00 p.m., 7 pm, 12.00 p.m.",
            ["07:30", "12:30", "18:00", "19:00", "12:00"],
        ),
    ],
)
def test_extended_forms(text, expected):
    assert times(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "kościół zbudowano w 1921 r.",
        "w 1830 roku powstanie",
        "listopad: XI 1830",
        "data: 22.03.2020 i 1.10.20",
        "Poniedziałek 23.03. intencje",
        "lata 2015/2016",
        "tel. 61 852 30 00",
        "infolinia 0800 123 456",
        "św. Grzegorza (540 – 604)",
        "kwota 3,50 zł",
        "pierwszy 1.05",
        "obchodzimy 20. rocznicę",
        "w 12. niedzielę zwykłą",
    ],
)
def test_not_hours(text):
    assert times(text) == [], text


def test_span_context_and_normalisation():
    text = "Msze święte w niedziele o godz. 7.oo oraz 10.30 w kościele parafialnym."
    hours = find_hours(text)
    assert [h.time for h in hours] == ["07:00", "10:30"]
    first = hours[0]
    assert isinstance(first, Hour)
    assert text[first.start : first.end] == first.text == "7.oo"
    assert text[first.context_start : first.context_start + len(first.context)] == first.context
    assert "niedziele" in first.context and "kościele" in first.context


def test_context_is_bounded_on_long_text():
    text = "x " * 500 + "o 18.00 " + "y " * 500
    (hour,) = find_hours(text)
    assert len(hour.context) < 2 * 100 + 40


def test_rejected_long_form_falls_back_to_thesis_hit():
    # "3,20" is not a time (hour 3), but the thesis extracts the "20" after the comma
    text = "Sierpień: 3,20,"
    assert [text[a:b] for a, b in find_hours_thesis(text)] == ["20"]
    assert written(text) == ["20"]


def test_hour_is_frozen():
    (hour,) = find_hours("o 7.00 ")
    with pytest.raises(AttributeError):
        hour.time = "08:00"  # type: ignore[misc]


_alphabet = st.sampled_from(list("0123456789 .:,;()/-–\nabcgodz.oO³⁰¹") + ["godz. ", "18.00", " 7 ", "r."])


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=40).map("".join))
@example("Oz 7 ")  # a Bible book's abbreviation before a bare number: the thesis takes the number
def test_find_hours_is_a_superset_of_the_thesis(text):
    hours = find_hours(text)
    spans = [(h.start, h.end) for h in hours]
    for h in hours:
        assert text[h.start : h.end] == h.text
        assert re.fullmatch(r"([01]\d|2[0-4]):[0-5]\d", h.time)
        assert text[h.context_start : h.context_start + len(h.context)] == h.context
    for a, b in find_hours_thesis(text):
        assert any(s < b and a < e for s, e in spans), (text, text[a:b])


@pytest.mark.parametrize("text", ["tel. 61 845 30 00", "kom. 601 715 200", "tel./fax (061) 815 30 45"])
def test_phone_number_groups_are_not_glued_hours(text):
    assert [h.time for h in find_hours(text) if len(h.text) > 2] == []


def test_a_run_of_flattened_superscript_times_is_times_and_a_phone_number_is_not():
    assert [h.time for h in find_hours("Dni powszednie\n 700 800 900 1600 1900\n")] == [
        "07:00",
        "08:00",
        "09:00",
        "16:00",
        "19:00",
    ]
    assert find_hours("tel. 601 715 200") == []
    assert find_hours("tel. 61 845 30 00") == []


def test_two_flattened_times_a_comma_apart_are_two_times_and_a_decimal_is_no_time():
    assert [h.time for h in find_hours(" • 800,1200 Czaple")] == ["08:00", "12:00"]
    assert find_hours("kwota 1200,50 zł") == []


def test_minutes_flattened_with_a_space_and_written_with_letters_o():
    assert [h.time for h in find_hours("Sobota 19 oo +Zofia\n8 3o + Monika\n10 oo Czarna Łąka")] == [
        "19:00",
        "08:30",
        "10:00",
    ]
    assert find_hours("Jan 3 ołówki") == []
