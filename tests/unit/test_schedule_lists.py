"""How a schedule's lists hand their church, notes and place names to each time, and an English page's
devotions: the consolidated schedule of one invented page each."""

from __future__ import annotations

import pytest

from msze.archive.reprocess import page_steps
from msze.extraction.schedule import consolidate


def schedule_rows(text: str, url: str = "https://parafia.test/msze", *more: tuple[str, str]) -> list[dict]:
    """The schedule rows a page of text gives (and ``more`` (url, text) pages), as the crawl reads them."""
    steps = page_steps(None)
    pages = [steps.run({"url": u, "text": t, "domain": "parafia.test"}) for u, t in ((url, text), *more)]
    return consolidate(pages)["schedule"]


def schedule(text: str, url: str = "https://parafia.test/msze", *more: tuple[str, str]) -> set[tuple]:
    """(time, days, church) of the schedule rows."""
    return {(r["time"], ",".join(r["days"]), r["church"]) for r in schedule_rows(text, url, *more)}


def test_a_church_after_a_list_is_the_whole_list_s_and_a_dash_line_goes_on_with_the_list_above():
    text = (
        "MSZE ŚW. W NIEDZIELE\n\n7:30, 10.30 (dla dzieci), 12.00 (dla młodzieży) - w kościele dolnym\n\n"
        "9:30 (suma), 11:00, 18:00\n- w kaplicy św. Rocha\n\nMSZE ŚW. W DNI POWSZEDNIE\n7.00, 18:00\n"
    )
    assert schedule(text) == {
        ("07:30", "sun", "kościele dolnym"),
        ("10:30", "sun", "kościele dolnym"),
        ("12:00", "sun", "kościele dolnym"),
        ("09:30", "sun", "kaplicy św. Rocha"),
        ("11:00", "sun", "kaplicy św. Rocha"),
        ("18:00", "sun", "kaplicy św. Rocha"),
        # the continuation is the list's, no heading over the weekday times below
        ("07:00", "mon,tue,wed,thu,fri,sat", None),
        ("18:00", "mon,tue,wed,thu,fri,sat", None),
    }


def test_a_church_after_the_last_time_of_a_sentence_is_that_time_s_alone():
    text = "Msze św. w niedziele: 8.00, 10.00 oraz o 12.00 Msza dla dzieci - w kaplicy szkolnej\n"
    got = schedule(text)
    assert ("08:00", "sun", None) in got
    assert ("10:00", "sun", None) in got


@pytest.mark.parametrize("bullet", [" • ", " * ", ""])
def test_village_lines_with_a_dash_name_their_places(bullet):
    text = (
        f"Msze św. w niedzielę\n\n{bullet}Borkowo – 7.00, 8.30, 11.00\n{bullet}Lasek – 8.45\n"
        f"{bullet}Zalesie –10.00\n"
    )
    assert schedule(text) == {
        ("07:00", "sun", None),  # the first place named is the parish's own
        ("08:30", "sun", None),
        ("11:00", "sun", None),
        ("08:45", "sun", "Lasek"),
        ("10:00", "sun", "Zalesie"),
    }


def test_a_listed_time_s_note_on_a_news_page_keeps_it_in_the_site_s_schedule():
    text = "MSZE ŚW. W NIEDZIELE\n9:30 (suma), 11:00, 12:30 (chrzty), 18:00\n\nOrędzie biskupa\n"
    got = schedule(text, "https://parafia.test/aktualnosci/123/oredzie-biskupa")
    assert {t for t, d, _ in got if d == "sun"} == {"09:30", "11:00", "12:30", "18:00"}


def test_an_english_page_s_afternoon_masses_and_devotions():
    text = (
        "Mass Schedule\n\nHoly Masses on Sundays:\n7.30 a.m., 11.00 a.m., 6.00 p.m.\n\n"
        "Holy Masses on weekdays:\n7.30 a.m., 6.00 p.m.\n\nNovena to Our Lady:\nWednesdays 5.30 p.m.\n\n"
        "Devotion to the Divine Mercy:\nFridays 5.30 p.m.\n\nParish office:\nMondays 9.00 - 10.00 a.m.\n"
    )
    pairs = {(t, day) for t, days, _ in schedule(text) for day in days.split(",")}
    week = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
    assert pairs == {(t, day) for t in ("07:30", "18:00") for day in week} | {("11:00", "sun")}


TODAY = (
    "Ogłoszenia duszpasterskie\n1. Przeżywamy dzisiaj V Niedzielę Zwykłą. Msze święte godzina 7.00, 10.00 i"
    " 11.30. Solenizantom życzenia.\n2. W środę Popielec. Msze święte o godzinie 7.00 i 17.00.\n"
)


def test_today_s_masses_on_an_ordinary_sunday_are_the_sunday_order_where_nothing_else_gives_one():
    got = schedule(TODAY, "https://parafia.test/ogloszenia")
    assert {(t, d) for t, d, _ in got} == {("07:00", "sun"), ("10:00", "sun"), ("11:30", "sun")}


def test_today_s_masses_give_way_to_a_stated_sunday_order_and_a_feast_s_are_its_own():
    got = schedule(
        "Msze św. w niedziele: 8.00, 10.00\n",
        "https://parafia.test/msze",
        ("https://parafia.test/ogloszenia", TODAY),
    )
    assert {(t, d) for t, d, _ in got} == {("08:00", "sun"), ("10:00", "sun")}
    feast = TODAY.replace("V Niedzielę Zwykłą", "uroczystość Zesłania Ducha Świętego")
    assert schedule(feast, "https://parafia.test/ogloszenia") == set()


def test_a_directory_s_list_of_churches_gives_each_its_masses_across_the_descriptions_between():
    text = (
        "BORKI pw. św. Jana\n\nLiczba wiernych: 5200\n\nKościoły (Msze św. w niedzielę)\n\n"
        "BORKI – pw. św. Jana Chrzciciela (8.00, 10.30, 18.00)\n\n"
        "Gotyk, bud. ok. 1500 r. W 1604 r. dobudowano nawę boczną z grobowcami, ołtarz z 1600 r.\n\n"
        "ZALESIE – pw. MB Bolesnej (9.30)\n\nPośw. 3 listopada 2007 r. przez bp. A. Nowaka.\n\n"
        "LASEK – kaplica (11.00 i 12.15)\n\nTerytorium parafii\n\nBorki, Zalesie, Lasek\n\n"
        "Proboszczowie: ks. Jan Kowalski – 4.03.1945 r. (do 1974)\n"
    )
    assert schedule(text, "https://diecezja.test/parafie/borki") == {
        ("08:00", "sun", None),
        ("10:30", "sun", None),
        ("18:00", "sun", None),
        ("09:30", "sun", "ZALESIE – pw. MB Bolesnej"),
        ("11:00", "sun", "LASEK – kaplica"),
        ("12:15", "sun", "LASEK – kaplica"),
    }


def test_a_mass_block_s_first_list_without_a_day_before_the_weekdays_is_sunday_s():
    text = "Parafia\n\nMsze Święte:\n\n7:00 9:30 11:00 18:00 Dni powszednie: 7.00; 18.00\n\nAdres:\n"
    pairs = {(t, day) for t, days, _ in schedule(text) for day in days.split(",")}
    assert {t for t, day in pairs if day == "sun"} == {"07:00", "09:30", "11:00", "18:00"}
    assert {t for t, day in pairs if day == "mon"} == {"07:00", "18:00"}


def test_a_list_without_a_day_is_no_sunday_where_the_page_gives_sunday_its_own():
    text = "Msze Święte:\n7:00 9:30 Dni powszednie: 7.00; 18.00\nNiedziela: 8.00, 10.00\n"
    assert {t for t, days, _ in schedule(text) if "sun" in days} == {"08:00", "10:00"}


def test_a_line_with_its_own_days_ends_a_monthly_heading():
    text = (
        "PORZĄDEK MSZY ŚW.:\nw niedziele i święta:\n7.00, 10.00\nII niedziela miesiąca:\n13.00 – Msza św."
        " chrzcielna\nw dni powszednie: 6.30, 18.00\nw czwartki: 16.00 – Msza św. szkolna\n"
    )
    assert schedule(text) == {
        ("07:00", "sun,holiday", None),
        ("10:00", "sun,holiday", None),
        ("06:30", "mon,tue,wed,thu,fri,sat", None),
        ("18:00", "mon,tue,wed,thu,fri,sat", None),
        ("16:00", "thu", None),
    }


def test_two_flattened_times_after_a_label_are_hours():
    text = "Msze święte\nNiedziele i święta: 700 900 1100\nDni powszednie: 700 1700\ntel. 61 700 1700\n"
    assert {t for t, days, _ in schedule(text) if "mon" in days} == {"07:00", "17:00"}


def test_a_short_list_under_an_ordinary_sunday_s_heading_is_that_sunday_s_order_not_its_intentions():
    notices = (
        "Ogłoszenia\n\nPiątek – Msza św. o 18.00 z nowenną.\n\n"
        "NIEDZIELA – 24.01.2021 – III NIEDZIELA ZWYKŁA\n\nMsze św. o 8.30, 10.00, 12.00\n\n"
        "Spotkania kolędowe:\n\n18.01 poniedziałek g.18.00 – Borki\n"
    )
    got = schedule(notices, "https://parafia.test/ogloszenia")
    assert {t for t, days, _ in got if "sun" in days} == {"08:30", "10:00", "12:00"}
    intentions = (
        "INTENCJE MSZALNE\n\n04.12.2022 – II NIEDZIELA ADWENTU\n\n08.00 I. Za + Jana Nowaka\n\n"
        "10.30 Za + Annę Kowalską w rocznicę śmierci\n\n05.12.2022 PONIEDZIAŁEK\n\n18.00 Za + Piotra\n"
    )
    got = schedule(intentions, "https://parafia.test/intencje")
    assert {t for t, days, _ in got if "sun" in days} == {"08:00", "10:30"}  # the week's intentions say it


def seasons(text: str) -> set[tuple[str, str, str | None]]:
    """(time, days, season) of the schedule rows one page of text gives."""
    return {(r["time"], ",".join(r["days"]), r["season"]) for r in schedule_rows(text)}


def test_a_flattened_table_s_season_columns_give_each_row_s_times_their_seasons():
    text = (
        "Msze Święte czas letni czas zimowy\nNiedziela 7:00 10:30 8:00 10:30\nPoniedziałek 19:00 17:00\n"
        "Sobota 7:00 7:00\n\nHistoria parafii\n"
    )
    assert seasons(text) == {
        ("07:00", "sun", "not-winter"),  # the clock's summer beside the winter: the rest of the year
        ("08:00", "sun", "winter"),
        ("10:30", "sun", None),  # in both columns: all year
        ("19:00", "mon", "not-winter"),
        ("17:00", "mon", "winter"),
        ("07:00", "sat", None),
    }


def test_a_row_that_splits_unevenly_ends_the_table_s_columns():
    text = "Msze Święte w roku szkolnym w wakacje\nNiedziela 8:00 10:00 9:00\nWtorek 18:00 19:00\n"
    assert {season for *_, season in seasons(text)} == {"school-year"}  # the heading's, no column's


def test_a_heading_wrapped_onto_a_second_line_keeps_both_days():
    text = (
        "PORZĄDEK NABOŻEŃSTW\nMsze św. w niedziele\ni święta obowiązkowe\n\n600 730 900\n\n1500 1730 1900\n"
    )
    assert {(t, d) for t, d, _ in schedule(text)} == {
        (t, "sun,holiday") for t in ("06:00", "07:30", "09:00", "15:00", "17:30", "19:00")
    }
    roman = "Msze św.\nw niedziele i święta: 8:00, 10:00\nI piątek miesiąca:\n6:00, 18:00\n"
    assert {t for t, d, _ in schedule(roman) if "sun" in d} == {"08:00", "10:00"}


def test_the_lord_s_day_and_a_list_headed_by_w_godz_in_a_sentence():
    text = (
        "Eucharystia w naszej parafii\n\nW naszej świątyni sprawowana jest w Dzień Pański oraz w uroczystości"
        " w godz. 7.00, 8.30, 10.00 dla dzieci oraz wieczorna Msza św. o 18.00. Kancelaria czynna w godz."
        " 9.00-11.00.\n"
    )
    assert {(t, d) for t, d, _ in schedule(text)} == {
        (t, "sun,holiday") for t in ("07:00", "08:30", "10:00", "18:00")
    }


def test_masses_on_the_dates_listed_are_one_offs_not_a_weekday_s_order():
    schedule_page = "Eucharystia\n\nNiedziele i święta: 8.00, 10.00\n\nDni powszednie: 8.00, 18.00\n"
    series = (
        "Ks. Jerzy Popiełuszko, podczas Mszy św. za Ojczyznę, w dniu 04 grudnia 1983, powiedział:\n\n"
        "Zapraszamy do comiesięcznej modlitwy za Ojczyznę.\n\n"
        "Terminy Mszy św. w roku 2024 – w następujące czwartki o godz. 20.00:\n\n"
        "I kwartał: 18 stycznia, 22 lutego, 21 marca\n"
    )
    got = schedule(
        schedule_page, "https://parafia.test/eucharystia", ("https://parafia.test/ojczyzna", series)
    )
    assert {t for t, days, _ in got if "thu" in days} == {"08:00", "18:00"}


def test_a_sentence_giving_days_their_times_w_godz_in_a_paragraph_of_prose():
    text = (
        "Sercem każdego kościoła jest Eucharystia. W naszej świątyni sprawowana w Dzień Pański oraz w"
        " uroczystości w godz. 7.00, 8.30, 10.00 dla dzieci, o 12.00 Suma Parafialna oraz wieczorna Msza św."
        " o 18.00. W kaplicy szpitalnej w każdą niedzielę liturgię Eucharystii dla chorych oraz personelu"
        " medycznego o 7.15 sprawuje o. Kapelan. W dni powszednie Liturgię Eucharystii sprawujemy o 6.30 oraz"
        " 18.00. Pół godziny przed wieczorną Mszą św. sprawowane jest codziennie nabożeństwo.\n"
    )
    sunday = {t for t, days, _ in schedule(text, "https://parafia.test/o-parafii") if "sun" in days}
    assert sunday == {"07:00", "07:15", "08:30", "10:00", "12:00", "18:00"}


def test_every_day_leaves_sunday_to_a_holy_days_order_and_a_day_wrapped_to_the_line_below_heads_it():
    text = (
        "Msze św. porządek zwykły\ncodziennie - 6:30 czwartek,\npiątek - 18:00\n"
        "Msze św. porządek świąteczny\n7:00, 9:00, 10:00\n"
    )
    assert schedule(text) == {
        ("06:30", "mon,tue,wed,thu,fri,sat", None),
        ("18:00", "thu,fri", None),
        ("07:00", "sun,holiday", None),
        ("09:00", "sun,holiday", None),
        ("10:00", "sun,holiday", None),
    }
