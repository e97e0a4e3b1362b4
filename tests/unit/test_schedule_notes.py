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
