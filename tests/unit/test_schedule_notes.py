"""What a time's note in parentheses gives that time: its church, place, days, season variant, an exception
of another time; and what a note of devotions or a broadcast leaves of it. The consolidated schedule of one
invented page each, as the crawl reads it."""

from __future__ import annotations

from msze.archive.reprocess import page_steps
from msze.extraction.rules.reading import season_in
from msze.extraction.schedule import consolidate

MON_SAT = "mon,tue,wed,thu,fri,sat"


def consolidated(text: str, url: str = "https://parafia.test/msze") -> dict:
    page = page_steps(None).run({"url": url, "text": text, "domain": "parafia.test"})
    return consolidate([page])


def rows(text: str) -> set[tuple]:
    """(time, days, church, season) of the schedule rows."""
    return {
        (r["time"], ",".join(r["days"]), r["church"], r["season"]) for r in consolidated(text)["schedule"]
    }


def test_a_church_named_after_another_note_in_the_parenthesis_is_that_time_s():
    text = (
        "Msze św. w niedziele: 8:00, 10:30 (dla młodzieży, w dolnym kościele), 12:00\n"
        "Msze św. w dni powszednie: 6:30 (od poniedziałku do piątku, w kaplicy Sióstr Elżbietanek), 18:00\n"
    )
    got = rows(text)
    assert ("10:30", "sun", "dolnym kościele", None) in got
    assert ("06:30", "mon,tue,wed,thu,fri", "kaplicy Sióstr Elżbietanek", None) in got
    assert {(t, c) for t, d, c, _ in got if t in ("08:00", "12:00")} == {("08:00", None), ("12:00", None)}


def test_a_place_leading_a_time_s_parenthesis_is_that_time_s_and_its_variant_s_not_the_next_time_s():
    text = "Msze św. w niedziele: 7:30, 9:00 (Wólka, w wakacje - godz. 8:30), 11:00\n"
    assert rows(text) == {
        ("07:30", "sun", None, None),
        ("09:00", "sun", "Wólka", "not-summer"),
        ("08:30", "sun", "Wólka", "summer"),
        ("11:00", "sun", None, None),
    }


def test_days_leading_a_note_with_a_seasonal_variant_are_the_time_s_days():
    text = (
        "Msze św. w dni powszednie: 6:30 (poniedziałek, środa, piątek), "
        "18:30 (wtorek, czwartek, sobota; od listopada do marca o godz. 17:30)\n"
    )
    got = rows(text)
    assert {d for t, d, _, _ in got if t in ("18:30", "17:30")} == {"tue,thu,sat"}
    assert ("06:30", "mon,wed,fri", None, None) in got


def test_a_parenthesis_removing_another_time_in_a_season_leaves_the_time_before_it_all_year():
    text = "Msze św. w niedziele: 8:00, 9:30, 11:00 i 19:00 (w lipcu i sierpniu nie ma o 9:30)\n"
    got = rows(text)
    assert ("19:00", "sun", None, None) in got
    assert ("09:30", "sun", None, "not-summer") in got


def test_a_variant_after_g_abbreviated_gives_the_time_the_rest_of_the_year():
    got = rows("Msze św. w dni powszednie: 6:30, 18:30 (w okresie zimowym - g. 17:30)\n")
    assert ("18:30", MON_SAT, None, "not-winter") in got
    assert ("17:30", MON_SAT, None, "winter") in got


def test_a_season_to_divine_mercy_sunday_is_no_sunday_of_its_own():
    got = rows(
        "Msze św. w niedziele: 8:00, 10:00\n"
        "Msze św. w dni powszednie: 18:30 (od listopada do Niedzieli Bożego Miłosierdzia - godz. 17:30)\n"
    )
    assert {(t, d) for t, d, _, _ in got} == {
        ("08:00", "sun"),
        ("10:00", "sun"),
        ("18:30", MON_SAT),
        ("17:30", MON_SAT),
    }
    assert {s for t, _, _, s in got if t == "17:30"} == {"11-01..03-31"}


def test_months_listed_in_the_locative_are_a_season_of_those_months():
    assert season_in("w styczniu i lutym") == "01-01..02-29"
    assert season_in("w maju i czerwcu") == "05-01..06-30"
    assert season_in("w maju") == "may"
    assert season_in("oprócz stycznia i lutego") == "03-01..12-31"


def test_advent_dawn_masses_in_a_variant_note_add_to_the_order_and_replace_nothing():
    got = rows("Msze św. w dni powszednie: 7:00, 18:00 (w styczniu i lutym 17.00, roraty 6.15)\n")
    assert ("07:00", MON_SAT, None, None) in got
    assert ("18:00", MON_SAT, None, "03-01..12-31") in got
    assert ("17:00", MON_SAT, None, "01-01..02-29") in got


def test_a_radio_note_on_one_time_keeps_the_list_s_masses():
    got = rows("Msze św. w niedziele: 7:00, 9:00 (radiowa), 11:00 (dla bierzmowanych w dolnym kościele)\n")
    assert {t for t, *_ in got} == {"07:00", "09:00", "11:00"}
    assert ("11:00", "sun", "dolnym kościele", None) in got


def test_a_tv_listing_is_still_no_mass_to_go_to():
    assert rows("Msze św. w telewizji: w niedziele o 7:00 i 13:00 (TVP 1)\n") == set()


def test_baptisms_on_some_sundays_of_a_weekly_mass_keep_it_weekly():
    got = rows("Msze św. w niedziele: 8:00, 11:00 (chrzty I i III niedziela miesiąca), 17:00\n")
    assert {t for t, d, *_ in got if d == "sun"} == {"08:00", "11:00", "17:00"}


def test_a_day_phrase_excepted_in_parentheses_keeps_the_other_days():
    text = "MSZE ŚWIĘTE:\nw dni powszednie (oprócz czwartku) – godz. 6:45\nczwartek – godz. 16:00\n"
    got = rows(text)
    assert ("06:45", "mon,tue,wed,fri,sat", None, None) in got
    assert ("16:00", "thu", None, None) in got


def test_a_devotion_held_with_the_mass_at_its_time_is_that_mass():
    text = (
        "Msze św. w kaplicy:\n– w niedzielę Msza Św. o godzinie 9.00 (o 8.30 różaniec – w Wielkim Poście"
        " Gorzkie Żale)\n\nponiedziałek17.00 /różaniec i msza św./\nwtorek07.00\n"
        "sobota07.30 /różaniec po mszy św./\n"
    )
    got = rows(text)
    assert ("09:00", "sun", None, None) in {(t, d, None, s) for t, d, _, s in got}
    assert {(t, d) for t, d, *_ in got} == {
        ("09:00", "sun"),
        ("17:00", "mon"),
        ("07:00", "tue"),
        ("07:30", "sat"),
    }


def test_a_mass_listed_under_the_header_with_a_novena_is_a_mass():
    text = (
        "1. Msze święte w kaplicy sprawowane są według następującego porządku:\n"
        "  • w niedziele: 8.00 i 12.00\n  • w piątki: 17.00 wraz z nowenną do św. Józefa.\n"
    )
    got = rows(text)
    assert ("17:00", "fri") in {(t, d) for t, d, *_ in got}
    # the heading names the church, not its whole sentence
    assert {c for *_, c, _ in got} == {"kaplicy"}


def test_confession_at_every_mass_under_a_confession_heading_and_its_day_headings():
    text = (
        "Msze święte\n\nNiedziela:\n8:00; 10:30; 17:00\nDzień powszedni:\n7:30; 18:00\n\n"
        "Sakrament pojednania\n\nNiedziela:\n\npodczas każdej Mszy Świętej\n\n"
        "Dzień powszedni:\n\n10 minut przed każdą Mszą Świętą\n\n"
        "Kancelaria\n\nDzień powszedni:\n9,00 – 10,00\n"
    )
    got = [(c["days"], c["start"], c.get("at_mass")) for c in consolidated(text)["confession"]]
    assert sorted(got) == sorted(
        [(["sun"], t, True) for t in ("08:00", "10:30", "17:00")]
        + [(MON_SAT.split(","), t, True) for t in ("07:30", "18:00")]
    )


def test_an_order_starting_today_in_the_notices_is_no_one_off_of_their_week():
    text = (
        "Ogłoszenia parafialne 11 września 2022\n\n1. Dziś w niedzielę odpust parafialny.\n"
        "2. Od dziś w niedziele rozpoczynamy Msze św. o godzinie 16.00.\n"
    )
    got = consolidated(text, "https://parafia.test/ogloszenia")
    assert ("16:00", "sun") in {(r["time"], ",".join(r["days"])) for r in got["schedule"]}


def test_hours_without_minutes_after_a_season_label_are_that_season_s_list():
    got = rows("Msze św. w niedziele: 7:30 (poza wakacjami), 10:00 (poza wakacjami), w wakacje - 8, 10\n")
    # the 10:00 is held in both halves of the year: all year
    assert got == {
        ("07:30", "sun", None, "not-summer"),
        ("08:00", "sun", None, "summer"),
        ("10:00", "sun", None, None),
    }


def test_a_devotion_labelling_one_time_of_a_mass_list_is_that_time_s_not_the_next_s():
    got = rows("Msze św. w niedziele: 06.45 – Gorzkie Żale, 07.30, 9.00 – Msza dla dzieci, 11.00 – Suma\n")
    assert {t for t, *_ in got} == {"07:30", "09:00", "11:00"}
    assert rows("Nabożeństwa: 17.00 – różaniec, 17.30, 18.00\n") == set()


def test_an_eve_s_time_first_in_the_sunday_order_is_the_saturday_vigil():
    got = rows("Msze św. porządek świąteczny\n\n   17.30 (w dzień poprzedzający), 7.00, 9.00, 11.00\n")
    assert got == {
        ("17:30", "sat", None, None),
        ("07:00", "sun,holiday", None, None),
        ("09:00", "sun,holiday", None, None),
        ("11:00", "sun,holiday", None, None),
    }
    vigil = [
        r
        for r in consolidated("Msze św. w niedziele: 18.00 (w przeddzień), 8.00\n")["schedule"]
        if r["vigil"]
    ]
    assert [(r["time"], r["days"]) for r in vigil] == [("18:00", ["sat"])]


def test_a_friday_misspelt_piętek_is_friday():
    got = rows("DZIEŃ POWSZEDNI: 7.00, 18.00\nW każdy piętek:\nMsza św. ku czci Miłosierdzia - godz. 15.00\n")
    assert ("15:00", "fri", None, None) in got


def test_villages_named_in_the_locative_in_a_sentence_are_each_time_s_church():
    text = (
        "Msze niedzielne w kościele parafialnym będą o godz. 7.30 i 11.30, podobnie w Zawadach o godz. 9.00"
        " i Borkach Małych o 10.15.\n"
    )
    assert {(t, c) for t, _, c, _ in rows(text)} == {
        ("07:30", None),
        ("11:30", None),
        ("09:00", "Zawadach"),
        ("10:15", "Borkach Małych"),
    }


def test_a_church_said_to_hold_the_list_and_a_saturday_excepted_at_one_time():
    text = (
        "Msze św. w dni powszednie: 6:30, 12:00, 19:00 odprawiane są w Kaplicy Loretańskiej, z wyjątkiem"
        " Mszy w sobotę o godz. 12, która odprawiana jest w kościele\n"
    )
    got = rows(text)
    assert ("06:30", MON_SAT, "Kaplicy Loretańskiej", None) in got
    assert ("19:00", MON_SAT, "Kaplicy Loretańskiej", None) in got
    assert ("12:00", "mon,tue,wed,thu,fri", "Kaplicy Loretańskiej", None) in got
    assert ("12:00", "sat") in {(t, d) for t, d, *_ in got}


def test_a_place_s_item_after_a_semicolon_has_the_header_s_days_not_the_item_s_before_it():
    got = rows("Msze św. w dni powszednie: Zalesie pt. godz. 17.00; Borowa godz. 7.30\n")
    assert ("17:00", "fri") in {(t, d) for t, d, *_ in got}
    assert ("07:30", MON_SAT) in {(t, d) for t, d, *_ in got}
    # a day heading the places after it goes on over them
    got = rows(
        "Msze św. w niedziele: już w sobotę Zalesie godz. 17.00; Borowa godz. 18.30; Niedziela: 8.00\n"
    )
    assert {d for t, d, *_ in got if t in ("17:00", "18:30")} == {"sat"}


def test_a_season_s_time_set_against_the_one_before_with_a_is_instead_of_it_on_its_days():
    got = rows(
        "Msze św. w dni powszednie: 7:00 (wtorek, środa), 18:00 (piątek, sobota), a w okresie letnim 19:00\n"
    )
    assert got == {
        ("07:00", "tue,wed", None, None),
        ("18:00", "fri,sat", None, "not-summer"),
        ("19:00", "fri,sat", None, "summer"),
    }
    assert rows("Msze św. w niedziele: 8:00, 17.00, a od czerwca do sierpnia o 19:00\n") == {
        ("08:00", "sun", None, None),
        ("17:00", "sun", None, "09-01..05-31"),
        ("19:00", "sun", None, "06-01..08-31"),
    }
    # "także": one more in that season
    assert ("18:00", "sun", None, None) in rows(
        "Msze św. w niedziele: 8:00, 18:00, a w wakacje także 20:00\n"
    )


def test_a_weekday_abbreviated_a_time_at_ten_past_in_a_list_and_months_in_parentheses():
    got = rows("MSZE ŚW. Niedziela - 8.00, 10.00;\nDzień pow. - 6.30, 7.10,18.30 (maj i paźdz.)\n")
    assert ("06:30", MON_SAT, None, None) in got
    assert ("07:10", MON_SAT, None, None) in got
    assert ("18:30", MON_SAT, None, "05-01..05-31,10-01..10-31") in got
    assert season_in("Ogłoszenia (grudzień 2019)") is None


def test_times_listed_w_godzinach_are_a_list_not_opening_hours():
    got = rows("Niedziela\n\nZapraszamy wszystkich w godzinach 7:30 , 9:00, 11:00 ( Dzieci )\n")
    assert {t for t, *_ in got} == {"07:30", "09:00", "11:00"}
    assert rows("Kancelaria czynna w godzinach 9:00 - 12:00, 15:00 - 17:00\n") == set()


def test_an_invitation_to_mass_below_a_day_list_under_a_heading_of_meetings():
    text = (
        "Stałe spotkania\n\nDni powszednie: 06:45, 18:30\n\n"
        "Zapraszamy na Mszę Św. codziennie od poniedziałku do piątku\n"
    )
    assert rows(text) == {
        ("06:45", "mon,tue,wed,thu,fri", None, None),
        ("18:30", "mon,tue,wed,thu,fri", None, None),
    }


def test_a_time_said_after_a_street_number_and_the_two_halves_of_the_year_set_against_each_other():
    text = (
        "Msza Święta sprawowana jest codziennie w kaplicy przy Szpitalu, ul. Długa 12B o godz. 6.30 oraz"
        " w okresie letnim (kwiecień- wrzesień) o godzinie 19.00, natomiast w okresie zimowym"
        " (październik-marzec) o godzinie 18.00.\n"
    )
    got = {(t, s) for t, _, _, s in rows(text)}
    assert got == {("06:30", None), ("19:00", "04-01..09-30"), ("18:00", "10-01..03-31")}


def test_summer_and_winter_named_together_are_all_year():
    assert season_in("czas letni i zimowy") is None
    got = rows("Msze św.:\n\nBorki, niedziele, czas letni i zimowy, 8.00, 10.30\n")
    assert {s for *_, s in got} == {None}


def test_intentions_after_a_day_label_are_masses_past_a_devotion_line():
    text = (
        "Intencje mszalne:\nponiedziałek        7:00   † Jan Nowak\n"
        "wtorek              7:00   Nabożeństwo do św. Antoniego\n"
        "środa               7:00   † Anna Kowal 1 rocz.\n"
        "czwartek            7:00   ✝ Piotr Wiśniewski\n"
    )
    decided = consolidated(text, "https://parafia.test/intencje")["schedule"]
    assert {d for r in decided if r["time"] == "07:00" for d in r["days"]} >= {"mon", "wed", "thu"}


def test_ash_wednesday_is_a_feast_not_the_wednesday():
    from msze.extraction.rules.days import day_at

    assert day_at("Środa Popielcowa") is None
    assert day_at("środa") is not None


def test_a_portal_s_mass_list_before_dni_pow_is_sunday_s_and_villages_below_get_no_weekdays():
    text = (
        "Parafia\ntel 018/44-00-000\nmsze św: 7:30, 10:00, 12:00, 17:00\ndni pow: 6:45, 18:00\n"
        "Zawady 8:30, 11:00\n"
    )
    got = rows(text)
    assert {t for t, d, *_ in got if d == "sun"} == {"07:30", "10:00", "12:00", "17:00"}
    assert {t for t, d, *_ in got if d == MON_SAT} == {"06:45", "18:00"}
    assert not {t for t, *_ in got} & {"08:30", "11:00"}  # the village's days are not said
    # under a heading alone, the places are its list
    got = rows("Dni powszednie:\nZawady 7:00\nBorki 18:00\n")
    assert {(t, d) for t, d, *_ in got} == {("07:00", MON_SAT), ("18:00", MON_SAT)}


def test_the_regular_order_restored_from_a_date_in_the_notices_is_regular():
    text = (
        "Ogłoszenia parafialne\n\nOd najbliższej niedzieli, 12 kwietnia, wracamy do zwykłego porządku"
        " sprawowania Mszy Świętych w niedziele (7.30, 9.00, 11.00 i 18.00).\n"
    )
    got = consolidated(text, "https://parafia.test/ogloszenia")
    assert {r["time"] for r in got["schedule"] if "sun" in r["days"]} == {"07:30", "09:00", "11:00", "18:00"}


def test_a_list_going_on_at_another_place_after_an_abbreviation_in_a_restored_order():
    text = (
        "Ogłoszenia\n\nOd najbliższej niedzieli wracamy do zwykłego porządku Mszy Świętych (7.30, 10.00"
        " i 18.00, a na os. Zielone o 9.00), gdyż tak ustalono.\n"
    )
    got = consolidated(text, "https://parafia.test/ogloszenia")["schedule"]
    assert {(r["time"], r["church"]) for r in got if "sun" in r["days"]} == {
        ("07:30", None),
        ("10:00", None),
        ("18:00", None),
        ("09:00", "Zielone"),
    }


def test_a_listed_time_noted_after_a_dash_is_listed_on_a_notices_page_too():
    text = "Aktualności\n\nPorządek Mszy św.:\n\nW niedziele i święta:\ngodz. 08.30\ngodz. 11.00 – suma\n"
    got = consolidated(text, "https://parafia.test/aktualnosci/wizytacja-2019")
    assert {r["time"] for r in got["schedule"] if "sun" in r["days"]} == {"08:30", "11:00"}
    assert got["one_off"] == []


def test_a_semicolon_and_another_day_s_own_statement_end_the_season_of_the_clause_s_first_part():
    text = "Msze św. w dni powszednie: w maju i czerwcu o godz. 17.00; w soboty Msza św. o godz. 8.00.\n"
    assert rows(text) == {
        ("17:00", "mon,tue,wed,thu,fri", None, "05-01..06-30"),
        ("08:00", "sat", None, None),
    }
    # a list's season goes on past a semicolon that only turns to another day
    got = rows("Msze w dni powszednie: latem pon.-pt. godz. 18.30; sobota godz. 17.30; zimą pon.-pt. 17.30\n")
    assert ("17:30", "sat", None, "summer") in got


def test_confession_before_the_mass_with_no_time_is_at_each_mass_of_its_days():
    order = "Msze święte\nNiedziele: 8:00, 11:00\nDni powszednie: 18:00\n\n"
    for confession in (
        "Spowiedź święta:\n• przed Mszą św. w kaplicy\n",
        "Spowiedź Św.\n\nprzez cały tydzień:\nprzed Mszą Św.\n",
        "Spowiedź: pół godziny przed Mszą św.\n",
    ):
        got = consolidated(order + confession)["confession"]
        assert sorted(c["start"] for c in got) == ["08:00", "11:00", "18:00"], confession
        assert all(c.get("at_mass") for c in got)
    # before one Mass of its kind, or one given a time, is no confession at every Mass
    for confession in ("Spowiedź przed Mszą wieczorną.\n", "Spowiedź przed Mszą dla dzieci.\n"):
        assert consolidated(order + confession)["confession"] == [], confession


def test_a_day_labelled_line_of_an_order_on_a_notices_page_is_the_order_even_with_a_mass_word():
    text = (
        "Aktualności\n\nPorządek Mszy św.:\n\nW niedziele i święta:\ngodz. 09.00\n\n"
        "W dni powszednie: godz. 7.00; w soboty Msza wigilijna z niedzieli o godz. 18.00.\n"
    )
    got = consolidated(text, "https://parafia.test/aktualnosci/sprawozdanie")
    assert {(r["time"], r["vigil"]) for r in got["schedule"] if "sat" in r["days"]} >= {("18:00", True)}
    assert got["one_off"] == []


def test_a_holy_day_s_order_is_the_sunday_s_where_the_site_gives_none():
    notices = (
        "Ogłoszenia\n\n1. W niedzielę, 1 listopada, przypada uroczystość Wszystkich Świętych. W naszym"
        " kościele Msze święte będą sprawowane o godz. 8.00, 9.30, 11.00 i 18.00.\n"
    )
    got = consolidated(notices, "https://parafia.test/ogloszenia")
    assert {r["time"] for r in got["schedule"] if r["days"] == ["sun"]} == {
        "08:00",
        "09:30",
        "11:00",
        "18:00",
    }
    assert got["dayless"] == []
    # a Sunday the site states wins; a single Mass named on the feast is no order
    steps = page_steps(None)
    pages = [
        steps.run({"url": url, "text": text, "domain": "parafia.test"})
        for url, text in (
            ("https://parafia.test/msze", "Msze św. w niedziele: 7.00, 10.00\n"),
            ("https://parafia.test/ogloszenia", notices),
        )
    ]
    stated = consolidate(pages)
    assert {r["time"] for r in stated["schedule"] if "sun" in r["days"]} == {"07:00", "10:00"}
    one = consolidated("Ogłoszenia\n\nUroczystość Bożego Ciała. Po Mszy św. o 10.00 procesja.\n")
    assert one["schedule"] == []


def test_an_earlier_evening_time_in_parentheses_or_past_a_slash_is_the_winter_one():
    for line in (
        "Msze św. w dni powszednie: 7:00, 18:00 (17:00)\n",
        "Msze św. w dni powszednie: 7:00, 18:00/17.00\n",
    ):
        assert rows(line) == {
            ("07:00", MON_SAT, None, None),
            ("18:00", MON_SAT, None, "not-winter"),
            ("17:00", MON_SAT, None, "winter"),
        }, line
    # a later time, or one of the morning, is another Mass
    assert {s for *_, s in rows("Msze św. w niedziele: 8:00, 10:00 (11:00)\n")} == {None}
    assert {s for *_, s in rows("Msze św. w dni powszednie: 7:00 (6:30), 18:00\n")} == {None}


def test_confession_at_every_mass_below_a_notices_page_s_order_is_the_order_s_not_the_week_s():
    order = "Aktualności\n\nPorządek Mszy św.:\n\nW niedziele i święta:\ngodz. 08.30\ngodz. 11.00\n\n"
    url = "https://parafia.test/aktualnosci/wizytacja"
    got = consolidated(order + "Spowiedź: pół godziny przed Mszą św.\n", url)["confession"]
    assert sorted(c["start"] for c in got) == ["08:30", "11:00"]
    # a week's occasion below it, or a page stating no order, gives no confession at every Mass
    dated = "1 maja przypada pierwszy piątek miesiąca. Okazja do spowiedzi przed każdą Mszą św.\n"
    assert consolidated(order + dated, url)["confession"] == []
    notices = "Ogłoszenia\n\n1. Spowiedź przed każdą Mszą św.\n"
    assert consolidated(notices, "https://parafia.test/ogloszenia")["confession"] == []


def test_confession_lines_under_a_heading_give_their_own_days_and_name_the_eucharist_too():
    order = "Msze święte\nNiedziela: 8:00, 11:00\nDni powszednie: 18:00\n\n"
    for confession in (
        "Sakrament Pokuty:\n\n- w dni powszednie na początku każdej Mszy św.\n\n"
        "- w niedziele 15 minut przed Eucharystią\n",
        "Sakrament Pokuty\n\npn. - so.: 15 min przed Mszą św.\n\nnd.: podczas Mszy św.\n",
    ):
        got = consolidated(order + confession)["confession"]
        assert sorted((c["start"], ",".join(c["days"])) for c in got) == [
            ("08:00", "sun"),
            ("11:00", "sun"),
            ("18:00", MON_SAT),
        ], confession
