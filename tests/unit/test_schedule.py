"""One schedule per parish (msze/extraction/schedule.py): what the site states as its schedule, one-offs
apart, conflicts kept, evidence with every entry. Pages go through the crawl's page steps first."""

from __future__ import annotations

import pytest

from msze.archive.reprocess import page_steps
from msze.extraction.rules.reading import WINTER_REST
from msze.extraction.schedule import consolidate, page_date, page_role, starts_on

MON_SAT = ("mon", "tue", "wed", "thu", "fri", "sat")  # "dni powszednie" / "w tygodniu"
SIDEBAR = "<aside><h3>Msze święte</h3><p>Niedziela: 8:00, 10:00</p><p>Dni powszednie: 18:00</p></aside>"


def site(*pages: tuple[str, str]) -> dict:
    steps = page_steps(None)
    done = [steps.run({"url": url, "html": html, "domain": "parafia.test"}) for url, html in pages]
    return consolidate(done)


def rows(result: dict) -> list[tuple]:
    return [(s["time"], tuple(s["days"]), s["church"], s["season"], s["vigil"]) for s in result["schedule"]]


def test_page_roles_from_url_and_first_words():
    assert page_role({"url": "https://p.test/msze-swiete"}) == "schedule"
    assert page_role({"url": "https://p.test/ogloszenia-duszpasterskie/12"}) == "announcements"
    assert (
        page_role({"url": "https://p.test/?p=7", "text": "Ogłoszenia parafialne 12.10.2025\n"})
        == "announcements"
    )
    assert page_role({"url": "https://p.test/?p=7", "text": "Start | Ogłoszenia | Kontakt\n"}) == "other"
    assert page_role({"url": "https://p.test/porzadek", "text": "Menu: Ogłoszenia 12.10\n"}) == "schedule"
    assert page_role({"url": "https://p.test/kontakt"}) == "other"
    # a week's notices named by its Sunday
    assert page_role({"url": "https://p.test/index.php/473-21-niedziela-zwykla-7"}) == "announcements"
    assert page_role({"url": "https://p.test/niedziela-palmowa-2021"}) == "announcements"
    assert page_role({"url": "https://p.test/msze-w-niedziele"}) == "schedule"


def test_a_sidebar_repeated_on_every_page_counts_once():
    result = site(
        ("https://parafia.test/", f"<main><p>Witamy na stronie parafii.</p></main>{SIDEBAR}"),
        ("https://parafia.test/historia", f"<main><p>Kościół zbudowano w 1905 roku.</p></main>{SIDEBAR}"),
        ("https://parafia.test/kontakt", f"<main><p>ul. Kościelna 1, tel. 22 123 45 67</p></main>{SIDEBAR}"),
    )
    assert rows(result) == [
        ("18:00", ("mon", "tue", "wed", "thu", "fri", "sat"), None, None, False),
        ("08:00", ("sun",), None, None, False),
        ("10:00", ("sun",), None, None, False),
    ]
    assert {s["pages"] for s in result["schedule"]} == {1}
    assert result["schedule"][1]["evidence"][0]["url"] == "https://parafia.test/"
    assert "Niedziela" in result["schedule"][1]["evidence"][0]["context"]


def test_announcements_add_one_offs_never_weekly_masses():
    result = site(
        ("https://parafia.test/msze", "<h1>Porządek Mszy św.</h1><p>Niedziela: 8:00, 11:00</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia duszpasterskie</h1><p>1. W czwartek Msza św. o godz. 17:00 z nowenną.</p>"
            "<p>2. W przyszłą sobotę o godz. 12:00 Msza św. z udziałem jubilatów.</p>",
        ),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "11:00"]
    assert [(o["time"], o["days"]) for o in result["one_off"]] == [("12:00", ["sat"]), ("17:00", ["thu"])]
    assert "W czwartek Msza św. o godz. 17:00" in result["one_off"][1]["note"]


def test_a_line_stating_the_regular_order_on_an_announcements_page_is_weekly():
    result = site(
        (
            "https://parafia.test/aktualnosci",
            "<h1>Aktualności</h1><p>Msze św. w niedziele: 7:15, 9:45, 12:15</p>"
            "<p>Msze św. w dni powszednie: 6:45, 18:15</p>"
            "<p>Msze św. w soboty: godz. 7.30</p>"  # one time is an order line too
            "<p>Msze św. w niedzielę: 8:40, 10:40</p>"  # this Sunday's
            "<p>Msze św. w dni powszednie: 7:20, 19:20 w tym tygodniu</p>"
            "<p>Msze św. w niedziele 10 listopada: 16:50, 17:50</p>",
        ),
    )
    assert (
        set(rows(result))
        == {
            ("07:15", ("sun",), None, None, False),
            ("09:45", ("sun",), None, None, False),
            ("12:15", ("sun",), None, None, False),
            ("06:45", MON_SAT[:5], None, None, False),  # Saturday is given apart
            ("18:15", MON_SAT[:5], None, None, False),
            ("07:30", ("sat",), None, None, False),
        }
    )
    assert {o["time"] for o in result["one_off"]} == {"08:40", "10:40", "07:20", "19:20", "16:50", "17:50"}


def test_a_newer_page_overrides_an_older_one_and_the_old_times_are_kept_as_a_conflict():
    result = site(
        (
            "https://parafia.test/msze-2019",
            "<p>Porządek Mszy św. od 1.09.2019</p><p>Niedziela: 7:00, 9:00, 11:00</p>",
        ),
        ("https://parafia.test/msze", "<p>Porządek Mszy św. od 1.09.2024</p><p>Niedziela: 8:00, 11:00</p>"),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "11:00"]
    lost = {(c["time"], tuple(c["days"]), c["kept"]) for c in result["conflicts"]}
    assert lost == {
        ("07:00", ("sun",), "https://parafia.test/msze"),
        ("09:00", ("sun",), "https://parafia.test/msze"),
    }
    assert all(c["evidence"][0]["url"] == "https://parafia.test/msze-2019" for c in result["conflicts"])


def test_two_churches_and_a_summer_schedule():
    result = site(
        (
            "https://parafia.test/porzadek-mszy",
            "<h2>Msze święte</h2><p>Niedziela: 8:00, 10:00, 12:00</p>"
            "<p>Dni powszednie: 7:00, 18:00 (lipiec, sierpień: 7:00, 19:00)</p>"
            "<h3>Kaplica w Zalesiu</h3><p>Niedziela: 9:00</p>",
        ),
    )
    assert set(rows(result)) == {
        ("08:00", ("sun",), None, None, False),
        ("10:00", ("sun",), None, None, False),
        ("12:00", ("sun",), None, None, False),
        ("07:00", MON_SAT, None, None, False),
        ("18:00", MON_SAT, None, "not-summer", False),
        ("19:00", MON_SAT, None, "summer", False),
        ("09:00", ("sun",), "Kaplica w Zalesiu", None, False),
    }


def test_a_summer_time_said_of_one_time_or_added_leaves_the_other_times_all_year():
    result = site(
        (
            "https://parafia.test/porzadek-mszy",
            "<h2>Msze święte</h2><p>Msze św. w niedziele: 7:45, 10:15, 17:45 (w wakacje - godz. 20:15)</p>"
            "<p>Msze św. w dni powszednie: godz. 7.15, godz. 18.45; latem dodatkowo o godz. 20.45</p>",
        ),
    )
    assert set(rows(result)) == {
        ("07:45", ("sun",), None, None, False),
        ("10:15", ("sun",), None, None, False),
        ("17:45", ("sun",), None, "not-summer", False),
        ("20:15", ("sun",), None, "summer", False),
        ("07:15", MON_SAT, None, None, False),
        ("18:45", MON_SAT, None, None, False),
        ("20:45", MON_SAT, None, "summer", False),
    }


def test_a_summer_list_in_one_time_s_parenthesis_is_the_whole_summer_order():
    result = site(
        (
            "https://parafia.test/porzadek-mszy",
            "<h2>Msze święte</h2>"
            "<p>Msze św. w niedziele: 7:45, 10:15, 17:45 (w lipcu i sierpniu: 7:45, 19:15)</p>",
        ),
    )
    assert set(rows(result)) == {
        ("07:45", ("sun",), None, None, False),
        ("10:15", ("sun",), None, "not-summer", False),
        ("17:45", ("sun",), None, "not-summer", False),
        ("19:15", ("sun",), None, "summer", False),
    }


def test_the_saturday_vigil_and_confession():
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Msze św.</p><p>Niedziela: sobota 18:00, 8:00, 10:00</p><p>Spowiedź: sobota 17:00–17:45</p>",
        ),
    )
    assert ("18:00", ("sat",), None, None, True) in rows(result)
    [confession] = result["confession"]
    assert (confession["start"], confession["end"], confession["evidence"][0]["url"]) == (
        "17:00",
        "17:45",
        "https://parafia.test/msze",
    )


def test_roraty_at_the_weekday_mass_time_are_that_mass_and_an_announced_confession_is_no_regular_one():
    result = site(
        ("https://parafia.test/msze", "<p>Porządek Mszy św.</p><p>Dni powszednie: 7:00, 18:00</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia</h1><p>Roraty w dni powszednie o 7:00 i o 6:30.</p>"
            "<p>Okazja do spowiedzi w środę od 16:00.</p>",
        ),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {("07:00", None), ("18:00", None), ("06:30", "advent")}
    assert result["confession"] == []


def test_announcements_restating_the_standing_confession_times_give_them():
    result = site(
        ("https://parafia.test/msze", "<p>Porządek Mszy św.</p><p>Dni powszednie: 6:45, 18:00</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia</h1><p>1. Przypominamy, że spowiedź jest zawsze w dni powszednie od 6.30 i od"
            " 17.40.</p><p>2. W tym tygodniu spowiedź także w czwartek od 16.00, a zawsze w sobotę od"
            " 8.00.</p><p>3. Spowiedź przed odpustem 14 sierpnia zawsze od 15.00.</p>",
        ),
    )
    # "zawsze" with no date or this week: the regular times; this week's and the dated one are not
    assert [(c["days"], c["start"]) for c in result["confession"]] == [
        (list(MON_SAT), "06:30"),
        (list(MON_SAT), "17:40"),
    ]


def test_masses_announcements_mention_by_their_time_give_the_days_no_page_states():
    result = site(
        ("https://parafia.test/msze", "<p>Porządek Mszy św.</p><p>Dni powszednie: 7:00, 18:30</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia 12.10.2025</h1><p>1. Nabożeństwa różańcowe w tygodniu o 18.00, a w niedziele po"
            " Mszy św. o godz. 11.30.</p><p>2. W czwartek po Mszy o 18.30 spotkanie rodziców.</p>"
            "<p>3. W przyszłą niedzielę uroczystość odpustowa; po Mszy o 13.00 procesja.</p>"
            "<p>4. Różaniec będzie w niedzielę przed Mszą św. o godz. 17.30.</p>",
        ),
    )
    # Sunday is stated nowhere: the rosary's Sunday Mass is its evidence (not the October season of the
    # devotion); Thursday's 18:30 is the schedule page's already; the feast's 13:00 is its own, and what
    # this Sunday will have says nothing of the others
    assert ("11:30", ("sun",), None, None, False) in rows(result)
    assert "17:30" not in {r[0] for r in rows(result)}
    assert {r[0] for r in rows(result) if "sun" in r[1]} == {"11:30"}
    assert {r[0] for r in rows(result) if "thu" in r[1]} == {"07:00", "18:30"}


def test_a_week_of_intentions_gives_the_days_no_page_states_but_not_its_feast():
    week = (
        "<h2>INTENCJE MSZALNE</h2><p>13.01.2025 PONIEDZIAŁEK</p><p>7.30 Za + Annę Nowak</p>"
        "<p>14.01.2025 WTOREK UROCZYSTOŚĆ ODPUSTOWA</p><p>11.00 Za parafian</p>"
        "<p>15.01.2025 ŚRODA</p><p>7.30 Za + Piotra i Marię</p><p>18.30 O zdrowie dla Zofii</p>"
    )
    result = site(
        ("https://parafia.test/intencje", week), ("https://parafia.test/msze", "<p>Niedziela: 9:00</p>")
    )
    assert {(r[0], r[1]) for r in rows(result)} == {
        ("07:30", ("mon", "wed")),
        ("18:30", ("wed",)),
        ("09:00", ("sun",)),
    }


def test_a_mentioned_mass_gives_way_to_a_stated_order():
    result = site(
        ("https://parafia.test/msze", "<p>Porządek Mszy św.</p><p>Niedziela: 9:00, 12:00</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia</h1><p>W niedziele po Mszy o 10.30 katecheza.</p>",
        ),
    )
    assert {r[0] for r in rows(result)} == {"09:00", "12:00"}


def test_an_unchanged_order_restated_right_under_the_dated_heading_is_the_regular_one():
    result = site(
        (
            "https://parafia.test/ogloszenia",
            "<p>Ogłoszenia duszpasterskie 19.10.2025</p><p>1. Porządek Mszy bez zmian: w tygodniu 7.00 i"
            " 18.30, w niedziele 8.30, 10.30 i 12.00.</p>",
        ),
    )
    assert [(r[0], r[1]) for r in rows(result)] == [
        ("07:00", MON_SAT),
        ("18:30", MON_SAT),
        ("08:30", ("sun",)),
        ("10:30", ("sun",)),
        ("12:00", ("sun",)),
    ]


def test_an_announced_order_until_further_notice_is_the_regular_one():
    result = site(
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia 15.03.2026</h1><p>1. Do odwołania w niedziele dodatkowa Msza św. o 19.30.</p>"
            "<p>2. Porządek bez zmian: Msza święta w dni powszednie o 17.45.</p>"
            "<p>3. W tym tygodniu w środę Msza św. o 8.15.</p>",
        ),
    )
    # "do odwołania" holds from now on; "Msza święta" names no feast; this week's Wednesday is a one-off
    assert rows(result) == [("17:45", MON_SAT, None, None, False), ("19:30", ("sun",), None, None, False)]
    assert [o["time"] for o in result["one_off"]] == ["08:15"]


def test_a_monthly_note_is_its_sentence():
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Msze św. w niedziele: 8:00, 10:00. W pierwsze piątki miesiąca dodatkowo Msza św. o 16:30 "
            "dla dzieci. Kancelaria czynna we wtorki.</p>",
        ),
    )
    [one] = result["monthly"]
    assert result["one_off"] == []
    assert one["note"] == "W pierwsze piątki miesiąca dodatkowo Msza św. o 16:30 dla dzieci."


def test_a_schedule_announced_from_a_date_is_weekly_from_that_date_and_overrides_the_old_one():
    result = site(
        ("https://parafia.test/msze", "<p>Porządek Mszy św.</p><p>Niedziela: 8:00, 10:00, 12:00</p>"),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia duszpasterskie 22.06.2025</h1>"
            "<p>Od 1 lipca Msze św. w niedziele: 8:00 i 11:00.</p>",
        ),
    )
    assert [(r[0], r[1]) for r in rows(result)] == [("08:00", ("sun",)), ("11:00", ("sun",))]
    assert [s.get("valid_from") for s in result["schedule"]] == ["2025-07-01", "2025-07-01"]
    assert {c["time"] for c in result["conflicts"]} == {"10:00", "12:00"}


def test_times_more_pages_confirm_win_a_conflict_between_undated_schedule_pages():
    result = site(
        ("https://parafia.test/msze", "<p>Msze św.</p><p>Niedziela: 7:00, 9:00, 11:00</p>"),
        ("https://parafia.test/porzadek", "<p>Msze św.</p><p>Niedziela: 8:00, 11:00</p>"),
        ("https://parafia.test/nabozenstwa", "<p>Nabożeństwa</p><p>W niedziele Msze św. o 8:00 i 11:00.</p>"),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "11:00"]


def test_an_order_from_a_named_weekday_s_date_is_the_new_regular_order():
    # "od niedzieli 7 czerwca": the weekday the order starts on stands between "od" and the date
    assert starts_on("Od niedzieli 7 czerwca Msze św. będą o 8:00, 10:30", 2026) == "2026-06-07"
    assert starts_on("Od poniedziałku, 8 czerwca Msza o 7:00", None) == "06-08"
    assert starts_on("Od poniedziałku do piątku Msza o 7:00", 2026) is None
    text = "<p>Komunikat</p><p>2. W kościele od niedzieli 7 czerwca Msze św. będą o godz. 8.00, 10.30 i 16.00"
    for url in ("https://parafia.test/komunikat", "https://parafia.test/ogloszenia"):
        result = site((url, text))
        assert [(r[0], r[1]) for r in rows(result)] == [
            ("08:00", ("sun",)),
            ("10:30", ("sun",)),
            ("16:00", ("sun",)),
        ]
        assert not result["one_off"]


def test_a_page_s_date_and_a_schedule_s_start_are_never_impossible():
    assert page_date({"text": "Ogłoszenia 30.02.2026, 12.01.2026"}) == "2026-01-12"
    assert page_date({"text": "Ogłoszenia 2025: 29.02 i 3.03"}) == "2025-03-03"  # 2025 has no 29 February
    assert starts_on("Od 31 czerwca Msze św. w niedziele: 8:00", 2025) is None
    assert starts_on("Od 29 lutego Msze św. w niedziele: 8:00", 2025) == "02-29"
    assert starts_on("Od 29 lutego Msze św. w niedziele: 8:00", 2024) == "2024-02-29"


def test_announcements_restating_the_regular_order_give_weekly_masses():
    result = site(
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia duszpasterskie</h1><p>2. Porządek Mszy św. jak zawsze:"
            " w dni powszednie 7.15 i 18.00,"
            " w niedziele 9.00 i 11.30.</p><p>3. W tym tygodniu w poniedziałek i czwartek Msza o 17.00.</p>"
            "<p>4. Stały porządek Mszy bez zmian, ale 15 sierpnia w niedzielę o 13.00.</p>"
            "<p>5. W uroczystość Wszystkich Świętych porządek Mszy jak zawsze w niedziele o 16.00.</p>",
        ),
    )
    assert [(r[0], r[1]) for r in rows(result)] == [
        ("07:15", ("mon", "tue", "wed", "thu", "fri", "sat")),
        ("18:00", ("mon", "tue", "wed", "thu", "fri", "sat")),
        ("09:00", ("sun",)),
        ("11:30", ("sun",)),
    ]
    assert {o["time"] for o in result["one_off"]} == {"17:00", "13:00", "16:00"}


def test_the_regular_order_restated_with_its_holy_days_is_still_weekly():
    result = site(
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia duszpasterskie</h1><p>3. Przypominamy: porządek Mszy bez zmian — w tygodniu 6.45"
            " i 18.30, w niedziele i święta 8.00, 10.30 i 12.00.</p>",
        ),
    )
    assert [r[0] for r in rows(result)] == ["06:45", "18:30", "08:00", "10:30", "12:00"]


def test_a_time_held_in_the_school_year_and_in_the_summer_is_held_all_year():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>W roku szkolnym: niedziela 7:30, 9:30, 12:00</p>"
            "<p>W wakacje: niedziela 7:30, 9:30</p>",
        ),
    )
    assert rows(result) == [
        ("07:30", ("sun",), None, None, False),
        ("09:30", ("sun",), None, None, False),
        ("12:00", ("sun",), None, "school-year", False),
    ]


def test_a_winter_variant_gives_the_rest_of_the_year_to_its_time_only():
    result = site(
        ("https://parafia.test/msze", "<h2>Msze święte</h2><p>Dni powszednie: 6:45, 18:30 (zimą 17:30)</p>"),
    )
    assert set(rows(result)) == {
        ("06:45", MON_SAT, None, None, False),
        ("18:30", MON_SAT, None, WINTER_REST, False),
        ("17:30", MON_SAT, None, "winter", False),
    }


def test_a_variant_saying_only_is_the_season_s_whole_order():
    # "(w lipcu i sierpniu tylko 18:10)": in summer the 7:10 is not held, the 18:10 is all year
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Msze św. w dni powszednie: 7:10 i 18:10 (latem tylko 18:10)</p>",
        ),
    )
    assert set(rows(result)) == {
        ("07:10", MON_SAT, None, "not-summer", False),
        ("18:10", MON_SAT, None, None, False),
    }


def test_a_summer_order_in_parentheses_replaces_the_all_year_times_it_lacks():
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Msze św. w niedziele: 7:30, 9:00, 10:30, 13:00, 18:00 (w lipcu i sierpniu: 7:30, 9:00, 10:30,"
            " 19:30)</p>",
        ),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {
        ("07:30", None),
        ("09:00", None),
        ("10:30", None),
        ("13:00", "not-summer"),
        ("18:00", "not-summer"),
        ("19:30", "summer"),
    }


def test_one_more_mass_in_a_season_is_no_order_of_its_own():
    # "13:30 od IX do VI" is an extra Mass of the school year: the other Sunday times stay all-year
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziele: 7:00, 9:00, 10:30, 12:00, 13:30 - od IX do VI, 18:00</p>",
        ),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {
        ("07:00", None),
        ("09:00", None),
        ("10:30", None),
        ("12:00", None),
        ("13:30", "09-01..06-30"),
        ("18:00", None),
    }


@pytest.mark.parametrize(
    ("weekdays", "expected"),
    [
        # Advent's own order: the 7.00 it lacks is held the rest of the year
        (
            "7.00, 18.00</p><p>Adwent: 6.30, 18.00",
            {("06:30", "advent"), ("07:00", "not-advent"), ("18:00", None)},
        ),
        # one Advent time near the one it lacks moves it
        ("18:30, w Adwencie o 18.00", {("18:00", "advent"), ("18:30", "not-advent")}),
        ("7.00. W Adwencie Roraty o 6.30", {("06:30", "advent"), ("07:00", "not-advent")}),
        # the Roraty far from the evening Mass, or one of two, are one Mass more
        ("18.00. W Adwencie Roraty o 6.30", {("06:30", "advent"), ("18:00", None)}),
        ("7.00, 18.00. W Adwencie Roraty o 6.30", {("06:30", "advent"), ("07:00", None), ("18:00", None)}),
        (
            "7.00; w Adwencie zamiast Mszy o 7.00 Roraty o 6.30",
            {("06:30", "advent"), ("07:00", "not-advent")},
        ),
        ("7.00, 17.00 (oprócz Wielkiego Postu)", {("07:00", None), ("17:00", "not-lent")}),
    ],
)
def test_advent_s_own_order_leaves_the_times_it_lacks_to_the_rest_of_the_year(weekdays, expected):
    result = site(("https://parafia.test/msze", f"<h2>Msze święte</h2><p>Dni powszednie: {weekdays}</p>"))
    assert {(r[0], r[3]) for r in rows(result)} == expected


def test_a_season_held_all_year_but_advent_counts_with_the_year_s_times():
    """ "8.00 (w Adwencie 7.00)" leaves 8.00 to the rest of the year; one month-run time beside it (18.00
    X-IV) is then still one more Mass, not an order that makes 11.00 a time of the other months."""
    result = site(
        ("https://parafia.test/msze", "<p>Niedziela: 8.00 (w Adwencie 7.00), 11.00, 18.00 (X-IV)</p>"),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {
        ("07:00", "advent"),
        ("08:00", "not-advent"),
        ("11:00", None),
        ("18:00", "10-01..04-30"),
    }


def test_a_mass_said_not_to_be_held_is_never_a_new_one():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziela: 8:00, 10:00, 12:30</p><p>Dni powszednie: 7:00, 18:00</p>"
            "<p>W wakacje nie ma Mszy św. o 12.30.</p><p>W czwartek Msza o 7.00 nie będzie odprawiana.</p>"
            "<p>W święta zniesione Msze jak w niedzielę, bez Mszy o 20.15.</p>",
        ),
    )
    # Thursday's cancellation is that day's: the weekday 7:00 stands; the holy days have Sunday's times
    assert set(rows(result)) == {
        ("08:00", ("sun", "holiday"), None, None, False),
        ("10:00", ("sun", "holiday"), None, None, False),
        ("12:30", ("sun", "holiday"), None, "not-summer", False),
        ("07:00", MON_SAT, None, None, False),
        ("18:00", MON_SAT, None, None, False),
    }
    assert result["one_off"] == []


def test_confession_before_a_mass_adds_no_mass_and_is_a_confession_row():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziela: 8:00, 10:00</p><p>Dni powszednie: 18:00</p>"
            "<p>Spowiedź codziennie przed Mszą św. o 7.15 i 18.00.</p>",
        ),
    )
    assert [r[0] for r in rows(result)] == ["18:00", "08:00", "10:00"]
    assert [(c["start"], c.get("at_mass")) for c in result["confession"]] == [
        ("07:15", True),
        ("18:00", True),
    ]


def test_a_fragment_of_the_schedule_on_a_later_page_does_not_become_the_sunday():
    result = site(
        (
            "https://parafia.test/msze-swiete",
            "<h2>Msze święte</h2><p>Niedziela:</p><p>8:00 – kościół parafialny</p>"
            "<p>10:30 – kościół parafialny</p><p>12:00 – kaplica w Borkach</p>",
        ),
        ("https://parafia.test/nabozenstwa", "<h2>Msze święte</h2><p>Niedziela:</p><p>8:00 – kościół</p>"),
    )
    assert [(r[0], r[2]) for r in rows(result)] == [
        ("08:00", None),
        ("10:30", None),
        ("12:00", "kaplica w Borkach"),
    ]
    assert result["conflicts"] == []


def test_a_winner_that_did_not_read_a_time_does_not_erase_it():
    # the newer page writes 19.00 where the rules read no Mass: the older page's 19:00 stands
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Porządek Mszy od 1.09.2020</p><p>Niedziela: 8:00, 10:00, 19:00</p>",
        ),
        (
            "https://parafia.test/porzadek",
            "<p>Porządek Mszy od 1.09.2024</p><p>Niedziela: 8:00, 10:00</p><p>Niedziela 19.00 – Apel</p>",
        ),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "10:00", "19:00"]


def test_a_date_far_from_the_schedule_is_no_evidence_for_it():
    # a history article's date does not make its copy of the schedule the newer one: agreement decides
    history = "<p>Kościół konsekrowano 12.05.2024 r.</p>" + "<p>Z dziejów parafii.</p>" * 6
    result = site(
        ("https://parafia.test/historia", f"{history}<p>Msze św.</p><p>Niedziela: 7:00, 9:30</p>"),
        ("https://parafia.test/msze", "<p>Msze św.</p><p>Niedziela: 8:00, 10:30</p>"),
        ("https://parafia.test/kontakt", "<p>Msze św.</p><p>Niedziela: 8:00, 10:30</p>"),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "10:30"]


def test_sundays_and_holy_days_and_a_list_of_the_holy_days_own_do_not_collide():
    result = site(
        ("https://parafia.test/msze", "<p>Msze św.</p><p>Niedziele i święta: 8:00, 10:00, 12:00</p>"),
        ("https://parafia.test/porzadek", "<p>Msze św.</p><p>Święta zniesione: 9:00, 18:00</p>"),
    )
    assert set(rows(result)) == {
        ("08:00", ("sun", "holiday"), None, None, False),
        ("10:00", ("sun", "holiday"), None, None, False),
        ("12:00", ("sun", "holiday"), None, None, False),
        ("09:00", ("holiday",), None, None, False),
        ("18:00", ("holiday",), None, None, False),
    }
    assert result["conflicts"] == []


def test_a_time_of_the_september_to_june_and_the_summer_order_is_held_all_year():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>W niedzielę:</p><p>Od września do czerwca: 7:30, 9:00, 11:15, 17:00</p>"
            "<p>W lipcu i sierpniu: 7:30, 9:00, 19:00</p>",
        ),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {
        ("07:30", None),
        ("09:00", None),
        ("11:15", "09-01..06-30"),
        ("17:00", "09-01..06-30"),
        ("19:00", "summer"),
    }


def test_a_monthly_mass_is_a_recurrence_of_its_own_and_a_listed_weekly_day_stays_weekly():
    result = site(
        (
            "https://parafia.test/msze",
            "<h1>Porządek Mszy św.</h1><p>Niedziela: 8:00, 11:00</p>"
            "<p>We wtorki, piątki i pierwszą sobotę miesiąca: 7:00</p>"
            "<p>W pierwsze piątki miesiąca o 16:30</p>",
        ),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia duszpasterskie</h1><p>1. W pierwszy piątek miesiąca Msza św. o godz. 17:00.</p>",
        ),
    )
    assert ("07:00", ("tue", "fri"), None, None, False) in rows(result)
    assert "16:30" not in {r[0] for r in rows(result)}
    got = [(m["week"], m["days"], m["time"]) for m in result["monthly"]]
    assert got == [(1, ["fri"], "16:30"), (1, ["sat"], "07:00")]
    assert "pierwsze piątki" in result["monthly"][0]["note"]
    assert result["monthly"][0]["evidence"][0]["url"] == "https://parafia.test/msze"
    # this week's announcements: that Friday's one-off, not the standing order
    assert [(o["time"], o["days"]) for o in result["one_off"]] == [("17:00", ["fri"])]


def test_times_given_as_the_sunday_order_are_a_one_off_and_sunday_s_only_where_no_page_gives_sunday():
    christmas = (
        "https://parafia.test/ogloszenia",
        "<h1>Ogłoszenia duszpasterskie</h1>"
        "<p>1. W drugi dzień świąt Msze jak w niedzielę: 6.30, 9.30, 11.30.</p>",
    )
    weekdays = ("https://parafia.test/msze", "<h1>Porządek Mszy św.</h1><p>Dni powszednie: 7:00, 18:00</p>")
    result = site(weekdays, christmas)
    assert [o["time"] for o in result["one_off"]] == ["06:30", "09:30", "11:30"]
    assert [r[:2] for r in rows(result) if "sun" in r[1]] == [("06:30", ("sun",)), ("09:30", ("sun",)),
                                                               ("11:30", ("sun",))]  # fmt: skip
    assert result["schedule"][-1]["evidence"][0]["url"] == "https://parafia.test/ogloszenia"
    # a page that gives the Sunday order itself wins: the reference adds nothing
    sunday = ("https://parafia.test/msze", "<h1>Porządek Mszy św.</h1><p>Niedziela: 8:00, 10:00</p>")
    result = site(sunday, christmas)
    assert [r[0] for r in rows(result)] == ["08:00", "10:00"]
    assert len(result["one_off"]) == 3


def test_a_feast_list_is_dated_one_offs_not_weekly_holy_day_masses():
    result = site(
        (
            "https://parafia.test/msze",
            "<h1>Porządek Mszy św.</h1><p>Niedziela: 8:00, 10:00</p><h2>PORZĄDEK ŚWIĄTECZNY</h2>"
            "<p>• Wniebowzięcie NMP – 15 sierpnia 2026 – 8.00, 11.00</p>"
            "<p>• Wszystkich Świętych – 1 listopada 2026 – 9.00, 12.00</p>",
        ),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "10:00"]
    assert [(o["date"], o["time"], o["days"]) for o in result["one_off"]] == [
        ("2026-08-15", "08:00", ["sat"]),
        ("2026-08-15", "11:00", ["sat"]),
        ("2026-11-01", "09:00", ["sun"]),
        ("2026-11-01", "12:00", ["sun"]),
    ]


def test_a_mass_in_another_language_or_rite_keeps_its_tags():
    """The reading's tags of an hour ("po angielsku", "w formie nadzwyczajnej") go with its schedule entry;
    an entry with none has no `tags` (results.jsonl's field is optional)."""
    html = (
        "<main><h1>Porządek Mszy świętych</h1><p>Niedziela: 8:00, 10:00</p>"
        "<p>Niedziela 12:00 Msza św. po angielsku</p>"
        "<p>Niedziela 18:00 Msza św. w nadzwyczajnej formie rytu rzymskiego</p></main>"
    )
    result = site(("https://parafia.test/msze-swiete", html))
    tags = {s["time"]: s.get("tags") for s in result["schedule"]}
    assert tags == {"08:00": None, "10:00": None, "12:00": ["en"], "18:00": ["tridentine"]}


def test_a_sentence_saying_when_the_masses_of_plural_days_are_is_the_regular_order():
    result = site(
        (
            "https://parafia.test/ogloszenia/3",
            "<h1>Ogłoszenia duszpasterskie</h1><p>1. Msze św. w dni powszednie są odprawiane o godz. 6.30 i"
            " 17.30. Adoracja w czwartki od 16.00 do 17.00.</p><p>2. Msze święte w niedziele są o 8.30"
            " i 10.15.</p><p>3. Msza św. w środę będzie o 19.15.</p>"
            "<p>4. W tym tygodniu Msze w dni powszednie są o 7.45.</p>",
        ),
    )
    assert [(r[0], r[1]) for r in rows(result)] == [
        ("06:30", MON_SAT),
        ("17:30", MON_SAT),
        ("08:30", ("sun",)),
        ("10:15", ("sun",)),
    ]
    assert {o["time"] for o in result["one_off"]} == {"19:15", "07:45"}


def test_sunday_s_masses_said_to_be_held_at_their_times_are_the_regular_order():
    result = site(
        (
            "https://parafia.test/ogloszenia/5",
            "<h1>Ogłoszenia duszpasterskie</h1><p>1. Msze w niedzielę będą odprawiane w Zalesiu o godz. 7.45"
            " i 11.15.</p><p>2. Msze święte z naszej parafii transmitowane będą w niedzielę o g. 9.45.</p>"
            "<p>3. Msza w niedzielę będzie o 16.45 z udziałem chóru.</p>"
            "<p>4. W przyszłą niedzielę Msze będą o 13.15.</p>",
        ),
    )
    # one Mass this Sunday, or next Sunday's, is no order
    assert [(r[0], r[1]) for r in rows(result)] == [
        ("07:45", ("sun",)),
        ("09:45", ("sun",)),
        ("11:15", ("sun",)),
    ]
    assert {o["time"] for o in result["one_off"]} == {"16:45", "13:15"}


def test_a_mass_mentioned_every_sunday_adds_to_an_order_only_announcements_state():
    result = site(
        (
            "https://parafia.test/ogloszenia/6",
            "<h1>Ogłoszenia duszpasterskie</h1><p>1. Msze św. w niedziele są o 8.15 i 10.45.</p>"
            "<p>2. Nabożeństwa majowe w tygodniu o 17.40, a w niedziele po Mszy św. o godz. 16.15.</p>",
        ),
    )
    # the announcements' order may be partial: the Mass every Sunday's devotion follows is Sunday's too
    assert {r[0] for r in rows(result) if "sun" in r[1]} == {"08:15", "10:45", "16:15"}


def test_the_daily_order_in_dated_announcements_is_weekly_and_its_saturday_replaces_the_daily_time():
    result = site(
        (
            "https://parafia.test/ogloszenia-parafialne/",
            "<h1>Ogłoszenia duszpasterskie</h1><p>III NIEDZIELA ZWYKŁA</p><p>24.01.2027 r.</p>"
            "<p>1. Msza św. w tygodniu codziennie o godz. 17.30, jedynie w sobotę o godz. 8.15.</p>"
            "<p>2. W piątek 29.01 Msza św. o godz. 19.00.</p>",
        ),
    )
    assert [(r[0], r[1], r[4]) for r in rows(result)] == [
        ("17:30", ("mon", "tue", "wed", "thu", "fri"), False),
        ("08:15", ("sat",), False),
    ]
    assert [o["time"] for o in result["one_off"]] == ["19:00"]


def test_a_restored_order_in_announcements_is_weekly_with_each_village_s_church():
    result = site(
        (
            "https://parafia.test/ogloszenia/12",
            "<h1>Ogłoszenia parafialne</h1><p>2. Od poniedziałku zostaje przywrócony porządek Mszy św. w"
            " niedziele w kaplicach filialnych w Zalesiu o godz. 8.45 i Borowie o godz. 10.15.</p>"
            "<p>3. W przyszłą niedzielę w Zalesiu o godz. 12.00 Msza św. odpustowa.</p>",
        ),
    )
    assert [(r[0], r[1], r[2]) for r in rows(result)] == [
        ("08:45", ("sun",), "kaplicach filialnych w Zalesiu"),
        ("10:15", ("sun",), "Borowie"),
    ]
    assert [o["time"] for o in result["one_off"]] == ["12:00"]


def test_a_mass_said_this_week_is_a_one_off_even_on_the_schedule_page():
    result = site(
        (
            "https://parafia.test/porzadek-mszy",
            "<h2>Msze święte</h2><p>Niedziela: 9:00, 11:00</p><p>Dni powszednie: 17:30</p>"
            "<p>W tym tygodniu we wtorek i czwartek Msza św. także o 6.45.</p>",
        ),
    )
    assert "06:45" not in [r[0] for r in rows(result)]
    assert [(o["time"], o["days"]) for o in result["one_off"]] == [("06:45", ["tue", "thu"])]


def test_a_mass_not_held_in_a_season_with_a_rest_of_the_year_is_held_in_that_rest_only():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziela: 7:30, 9:30, 11:30</p><p>Dni powszednie: 6:30, 18:30</p>"
            "<p>W okresie wakacji Msza św. o 11.30 nie jest odprawiana.</p>"
            "<p>W okresie zimowym nie ma Mszy o 6.30.</p>",
        ),
    )
    assert set(rows(result)) == {
        ("07:30", ("sun",), None, None, False),
        ("09:30", ("sun",), None, None, False),
        ("11:30", ("sun",), None, "not-summer", False),
        ("06:30", MON_SAT, None, WINTER_REST, False),
        ("18:30", MON_SAT, None, None, False),
    }
    assert result["one_off"] == []


def test_an_event_s_date_just_above_the_schedule_is_no_update_stamp():
    # "Kościół poświęcono ..." is a history sentence's date: the schedule page wins, not the crawl order
    history = "<p>Kościół poświęcił ks. biskup Jan Nowak 8.09.2024 r.</p>"
    history += "<p>Msze św.</p><p>Niedziela: 7:00, 9:30</p>"
    result = site(
        ("https://parafia.test/historia", history),
        ("https://parafia.test/porzadek-mszy", "<p>Msze św.</p><p>Niedziela: 8:00, 10:30</p>"),
    )
    assert [r[0] for r in rows(result)] == ["08:00", "10:30"]
    # a date on a line of its own, or beside a word of validity, still dates the schedule below it
    for stamp in ("<p>8.09.2024 r.</p>", "<p>Stan na dzień 8.09.2024</p>"):
        result = site(
            ("https://parafia.test/porzadek-mszy", "<p>Msze św.</p><p>Niedziela: 8:00, 10:30</p>"),
            ("https://parafia.test/kontakt", f"{stamp}<p>Msze św.</p><p>Niedziela: 7:00, 9:30</p>"),
        )
        assert [r[0] for r in rows(result)] == ["07:00", "09:30"], stamp
    # a sentence of history that names a Mass, or a date before 2000, is no stamp either
    for old in (
        "<p>Ks. Jerzy, podczas Mszy św. za Ojczyznę w dniu 04 grudnia 2023, powiedział słowa:</p>",
        "<p>Stan na dzień 8.09.1998</p>",
    ):
        result = site(
            ("https://parafia.test/porzadek-mszy", "<p>Msze św.</p><p>Niedziela: 8:00, 10:30</p>"),
            ("https://parafia.test/kontakt", f"{old}<p>Msze św.</p><p>Niedziela: 7:00, 9:30</p>"),
        )
        assert [r[0] for r in rows(result)] == ["08:00", "10:30"], old


def test_this_week_s_order_said_to_be_the_usual_one_is_the_regular_order():
    for said in (
        "W tym tygodniu Msze według zwykłego porządku: w dni powszednie o 6.30 i 17.00, w niedziele o 8.30",
        "Porządek Mszy w tym tygodniu jak zawsze: w dni powszednie 6.30 i 17.00, w niedziele 8.30",
    ):
        for url in ("https://parafia.test/ogloszenia/9", "https://parafia.test/msze"):
            result = site((url, f"<h2>Ogłoszenia parafialne</h2><p>3. {said}.</p>"))
            assert set(rows(result)) == {
                ("06:30", MON_SAT, None, None, False),
                ("17:00", MON_SAT, None, None, False),
                ("08:30", ("sun",), None, None, False),
            }, (said, url)
            assert result["one_off"] == []


def test_a_time_excepted_from_one_month_leaves_the_other_times_all_year():
    result = site(("https://parafia.test/msze", "<p>Msze św. w niedziele: 9:30, 12:00 (oprócz sierpnia)</p>"))
    assert set(rows(result)) == {
        ("09:30", ("sun",), None, None, False),
        ("12:00", ("sun",), None, "09-01..07-31", False),
    }


def test_a_day_with_a_winter_and_a_summer_time_keeps_its_other_times_all_year():
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Msze św.</p><p>W dni powszednie: 7.15; 17.30 (zimą), 18.30 (latem)</p>",
        ),
    )
    assert {(r[0], r[3]) for r in rows(result)} == {("07:15", None), ("17:30", "winter"), ("18:30", "summer")}


def test_the_masses_a_confession_is_held_at_are_the_order_where_no_page_states_one():
    confession = "<p>Spowiedź w dni powszednie podczas każdej Mszy św. (6:45 i 19:00).</p>"
    alone = site(("https://parafia.test/spowiedz", confession))
    assert [(r[0], r[1]) for r in rows(alone)] == [("06:45", MON_SAT), ("19:00", MON_SAT)]
    assert [c["start"] for c in alone["confession"]] == ["06:45", "19:00"]
    stated = site(
        ("https://parafia.test/msze", "<p>Msze św.</p><p>Dni powszednie: 7:00, 19:00</p>"),
        ("https://parafia.test/spowiedz", confession),
    )
    assert [r[0] for r in rows(stated)] == ["07:00", "19:00"]  # the schedule page states the weekdays
    # the confession's own time before the Mass is no Mass's
    before = site(
        ("https://parafia.test/spowiedz", "<p>Spowiedź codziennie pół godziny przed Mszą (6.15)</p>")
    )
    assert rows(before) == [] and [c["start"] for c in before["confession"]] == ["06:15"]


def test_confession_a_quarter_before_the_masses_in_parentheses_adds_no_mass():
    result = site(
        (
            "https://parafia.test/msze",
            "<p>Msze św.</p><p>Dni powszednie: 7.15, 18.15</p>"
            "<p>Spowiadamy codziennie kwadrans przed Mszą św. (7.00 i 18.00).</p>",
        ),
    )
    assert [(r[0], r[1]) for r in rows(result)] == [("07:15", MON_SAT), ("18:15", MON_SAT)]
    assert [c["start"] for c in result["confession"]] == ["07:00", "18:00"]


def test_a_weekday_time_noted_as_saturday_s_sunday_mass_is_the_vigil_on_saturday_only():
    for note in ("(w sobotę Msza niedzielna)", "(w sobotę – z liturgii niedzieli)"):
        html = f"<p>Msze św. w niedziele: 8:30, 10:30</p><p>Msze św. w dni powszednie: 7:15, 18:15 {note}</p>"
        got = rows(site(("https://parafia.test/msze", html)))
        assert ("18:15", ("sat",), None, None, True) in got
        assert ("18:15", MON_SAT[:5], None, None, False) in got
        assert ("07:15", MON_SAT, None, None, False) in got


def test_a_winter_and_summer_pair_of_one_time_leaves_the_other_times_all_year():
    html = "<p>Msze św. w dni powszednie: 7:15, 17:15 (w okresie zimowym), 18:15 (w okresie letnim)</p>"
    got = rows(site(("https://parafia.test/msze", html)))
    assert ("07:15", MON_SAT, None, None, False) in got
    assert ("17:15", MON_SAT, None, "winter", False) in got
    assert ("18:15", MON_SAT, None, "summer", False) in got


def test_a_weekly_mass_said_to_be_held_no_more_leaves_the_schedule_but_a_dated_cancellation_does_not():
    order = "<h2>Msze święte</h2><p>Niedziela: 9:00, 11:30</p><p>Dni powszednie: 6:45, 19:00</p>"
    for gone in (
        "<p>Msza św. o 6.45 nie będzie już odprawiana.</p>",
        "<p>Od teraz nie ma Mszy o 6.45.</p>",
        "<p>Poranna Msza o 6.45 została odwołana.</p>",
    ):
        result = site(("https://parafia.test/msze", order + gone))
        assert rows(result) == [("19:00", MON_SAT, None, None, False), ("09:00", ("sun",), None, None, False),
                                ("11:30", ("sun",), None, None, False)], gone  # fmt: skip
    # of Saturdays only: the other weekdays keep it
    result = site(("https://parafia.test/msze", order + "<p>W soboty nie ma Mszy o 6.45.</p>"))
    assert ("06:45", MON_SAT[:5], None, None, False) in rows(result)
    # one day's, this week's, dated, or in this week's announcements: the order stands
    for once in (
        "<p>W piątek Msza o 6.45 nie będzie odprawiana.</p>",
        "<p>W tym tygodniu nie ma Mszy o 6.45.</p>",
        "<p>14 listopada Msza o 6.45 jest odwołana.</p>",
        "<p>W czasie misji parafialnych nie ma Mszy o 6.45.</p>",
        "<p>Z powodu urlopu proboszcza Msza o 6.45 jest zawieszona.</p>",
        "<p>W Wielki Czwartek nie ma Mszy o 6.45.</p>",
    ):
        result = site(("https://parafia.test/msze", order + once))
        assert ("06:45", MON_SAT, None, None, False) in rows(result), once
    result = site(
        ("https://parafia.test/msze", order),
        (
            "https://parafia.test/ogloszenia",
            "<h1>Ogłoszenia</h1><p>2. Msza o 6.45 nie będzie odprawiana.</p>",
        ),
    )
    assert ("06:45", MON_SAT, None, None, False) in rows(result)


def test_holy_days_with_sunday_s_masses_but_one_get_the_others():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziele: 7:30, 9:30, 21:00</p><p>Dni powszednie: 18:00</p>"
            "<p>Uroczystości: Msze jak w niedzielę, bez Mszy o 21.00</p>",
        ),
    )
    assert rows(result) == [
        ("18:00", MON_SAT, None, None, False),
        ("07:30", ("sun", "holiday"), None, None, False),
        ("09:30", ("sun", "holiday"), None, None, False),
        ("21:00", ("sun",), None, None, False),
    ]
    # holy days with times of their own keep them
    own = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>Niedziele: 7:30, 9:30, 21:00</p><p>Święta: 10:00</p>"
            "<p>W święta Msze jak w niedzielę, bez Mszy o 21.00</p>",
        ),
    )
    assert [r[:2] for r in rows(own) if "holiday" in r[1]] == [("10:00", ("holiday",))]


def test_confession_every_day_before_the_weekday_masses_spreads_them_to_no_other_day():
    result = site(
        (
            "https://parafia.test/msze",
            "<h2>Msze święte</h2><p>W dni powszednie: 6:30, 18:00</p>"
            "<p>Spowiadamy codziennie przed Mszą św. o 6.30 i 18.00</p>",
        ),
    )
    assert rows(result) == [("06:30", MON_SAT, None, None, False), ("18:00", MON_SAT, None, None, False)]
    assert [(c["start"], c.get("at_mass")) for c in result["confession"]] == [
        ("06:30", True),
        ("18:00", True),
    ]


def test_a_weekly_mass_read_on_no_day_is_no_schedule_row_but_kept_apart():
    steps = page_steps(None)
    page = steps.run(
        {"url": "https://parafia.test/msze", "text": "Msze święte\nKaplica: 9.15", "domain": "p"}
    )
    page["hours"] = [{**h, "days": [], "kind": "regular"} for h in page["hours"]]
    result = consolidate([page])
    assert result["schedule"] == [] and result["one_off"] == []
    assert [(d["time"], d["days"], d["pages"]) for d in result["dayless"]] == [("09:15", [], 1)]


def test_a_devotion_s_time_after_a_mass_it_names_is_no_weekly_mass():
    steps = page_steps(None)
    text = "Nabożeństwa\nKoronka w Wielkim Poście (w piątki po Mszy wieczornej o 17.15)\nGodziny"
    page = steps.run({"url": "https://parafia.test/nabozenstwa", "text": text, "domain": "parafia.test"})
    assert consolidate([page])["schedule"] == []


def test_confession_at_every_mass_with_no_time_is_at_each_weekly_mass_of_its_days():
    order = "<h2>Msze święte</h2><p>Niedziela: 8:30, 11:15</p><p>Dni powszednie: 17:45</p>"
    every = site(("https://parafia.test/msze", order + "<p>Spowiadamy kwadrans przed każdą Mszą św.</p>"))
    assert [(c["days"], c["start"], c.get("at_mass")) for c in every["confession"]] == [
        (list(MON_SAT), "17:45", True),
        (["sun"], "08:30", True),
        (["sun"], "11:15", True),
    ]
    sunday = site(
        (
            "https://parafia.test/msze",
            order + "<p>Spowiedź: w piątki 16.00 – 17.00, w niedziele przed Mszami</p>",
        )
    )
    assert [(c["days"], c["start"]) for c in sunday["confession"]] == [
        (["fri"], "16:00"),
        (["sun"], "08:30"),
        (["sun"], "11:15"),
    ]
    # another devotion before the Masses, or this week's announcement, is no confession at them
    rosary = site(
        ("https://parafia.test/msze", order + "<p>Spowiedź w piątki 16.00; różaniec przed Mszami</p>")
    )
    assert [c["start"] for c in rosary["confession"]] == ["16:00"]
    week = site(
        ("https://parafia.test/msze", order),
        ("https://parafia.test/ogloszenia", "<h1>Ogłoszenia</h1><p>1. Spowiedź przed każdą Mszą św.</p>"),
    )
    assert week["confession"] == []


def test_the_site_s_schedule_block_first_met_on_a_news_page_is_weekly():
    side = "<aside><p>Msze św. w niedziele o 7.45 i 11.15, w dni powszednie o 17.45.</p></aside>"
    news = (
        "https://parafia.test/aktualnosci/2025/10/dozynki",
        f"<main><p>Dożynki w sobotę o 15.00.</p></main>{side}",
    )
    others = [
        (f"https://parafia.test/{p}", f"<main><p>Strona {p}.</p></main>{side}")
        for p in ("kontakt", "historia")
    ]
    result = site(news, *others)
    assert rows(result) == [
        ("17:45", MON_SAT, None, None, False),
        ("07:45", ("sun",), None, None, False),
        ("11:15", ("sun",), None, None, False),
    ]
    # this week's announcement a home page shows too is still this week's
    week = "<div><p>W czwartek Msza św. o 17.45 w intencji rolników.</p></div>"
    result = site(
        ("https://parafia.test/ogloszenia", f"<h1>Ogłoszenia</h1>{week}"),
        ("https://parafia.test/", f"<main><p>Witamy.</p></main>{week}"),
    )
    assert rows(result) == []


def test_a_time_alone_in_parentheses_after_another_is_that_mass_s_other_time_on_its_days():
    result = site(
        (
            "https://parafia.test/msze-swiete",
            "<h1>Porządek Mszy</h1><p>Niedziele: 8.15, 10.45</p>"
            "<p>Dni powszednie: 6.45, we wtorki i I-sze soboty 19.00 (17.30)</p>",
        ),
    )
    # the first Saturday stays monthly for both times: no weekly Saturday 17:30
    assert {(r[0], r[1]) for r in rows(result) if r[0] in ("19:00", "17:30")} == {
        ("19:00", ("tue",)),
        ("17:30", ("tue",)),
    }
    assert {(m["time"], m["week"], tuple(m["days"])) for m in result["monthly"]} >= {
        ("19:00", 1, ("sat",)),
        ("17:30", 1, ("sat",)),
    }


def test_a_parenthesis_that_drops_another_time_in_a_season_is_no_variant_of_the_time_before_it():
    """ "Zalesie 9:30 (w wakacje nie ma Mszy o 12:00)": the summer is 12:00's to lose, not the 9:30's."""
    for note in ("w wakacje nie ma Mszy o 12:00", "latem bez Mszy św. o 12:00"):
        html = f"<p>Msze św. w niedziele: 8:00, 12:00; kaplica w Zalesiu 9:30 ({note})</p>"
        assert rows(site(("https://parafia.test/msze", html))) == [
            ("08:00", ("sun",), None, None, False),
            ("09:30", ("sun",), "kaplica w Zalesiu", None, False),
            ("12:00", ("sun",), None, "not-summer", False),
        ]


def test_a_summer_order_by_roman_months_replaces_the_sunday_times_it_lacks():
    html = "<p>Msze św. w niedziele: 8:00, 10:00, 12:00; VII i VIII 8:00, 11:00; VIII 19:00</p>"
    assert rows(site(("https://parafia.test/msze", html))) == [
        ("08:00", ("sun",), None, None, False),
        ("10:00", ("sun",), None, "not-summer", False),
        ("11:00", ("sun",), None, "summer", False),
        ("12:00", ("sun",), None, "not-summer", False),
        ("19:00", ("sun",), None, "08-01..08-31", False),
    ]


@pytest.mark.parametrize(
    ("sunday", "own"),
    [
        ("19.15 (od września do czerwca; w lipcu i sierpniu godz. 20.30)", "09-01..06-30"),
        ("19.15 – Msza św. dla młodzieży (w okresie wakacyjnym - godz. 20.30)", "not-summer"),
    ],
)
def test_a_variant_after_a_times_label_or_own_season_is_that_times_summer_order(sunday, own):
    html = f"<p>Msze św. w niedziele: godz. 8.00, godz. {sunday}</p>"
    assert rows(site(("https://parafia.test/msze", html))) == [
        ("08:00", ("sun",), None, None, False),
        ("19:15", ("sun",), None, own, False),
        ("20:30", ("sun",), None, "summer", False),
    ]


def html(text: str) -> str:
    return "".join(f"<p>{line}</p>" for line in text.split("\n"))


def test_a_negated_list_takes_its_times_out_of_that_season_and_adds_none():
    text = (
        "Msze św.\nDzień powszedni: 6:30, 18:00\nI piątek miesiąca: 16:00, 20:00\n"
        "W wakacje nie ma Mszy św. o 6:30, 16:00 i 20:00"
    )
    got = rows(site(("https://p.pl/msze", html(text))))
    assert ("06:30", MON_SAT, None, "not-summer", False) in got
    assert [r for r in got if r[0] in ("16:00", "20:00")] == []


def test_a_saturday_sunday_mass_and_its_winter_time_share_the_year():
    text = (
        "Msze św. w niedziele: 8.00\n"
        "W każdą sobotę o godz. 18.00 Msza św. niedzielna (w okresie zimowym godz. 17.00)."
    )
    got = [r for r in rows(site(("https://p.pl/msze", html(text)))) if r[1] == ("sat",)]
    assert got == [("17:00", ("sat",), None, "winter", True), ("18:00", ("sat",), None, WINTER_REST, True)]


def test_one_sundays_header_over_a_whole_order_on_an_announcements_page_is_weekly():
    result = site(
        (
            "https://parafia.test/aktualnosci",
            "<p>Dyspensa nadal obowiązuje.</p>"
            "<p>Msze św. w niedzielę w naszym kościele: 18.00 (sobota), 7.30, 9.00, 10.30</p>",
        ),
    )
    assert rows(result) == [
        ("18:00", ("sat",), None, None, True),
        ("07:30", ("sun",), None, None, False),
        ("09:00", ("sun",), None, None, False),
        ("10:30", ("sun",), None, None, False),
    ]


def test_a_mass_cancelled_once_is_evidence_of_the_regular_order_no_page_states():
    result = site(
        (
            "https://parafia.test/ogloszenia/12",
            html(
                "Ogłoszenia duszpasterskie\n"
                "1. W czwartek nie będzie Mszy św. o godz. 7.00.\n"
                "2. Roraty w poniedziałki i środy o 6:30. W tych dniach nie będzie Mszy św. o 8:00."
            ),
        ),
    )
    got = {(t, days) for t, days, *_ in rows(result)}
    assert ("07:00", ("thu",)) in got
    assert any(t == "08:00" for t, _ in got)


def test_a_mass_cancelled_once_adds_nothing_where_a_schedule_page_states_the_day():
    result = site(
        ("https://parafia.test/msze", html("Msze św.\nW dni powszednie: 18.00")),
        (
            "https://parafia.test/ogloszenia/12",
            html("Ogłoszenia\n1. W czwartek nie będzie Mszy św. o godz. 7.00."),
        ),
    )
    assert [r[0] for r in rows(result)] == ["18:00"]


def test_a_mention_of_sundays_and_holy_days_keys_the_holy_days_as_sundays_do():
    # the mention's days are Sunday and the holy days together: its holy days stand with Sunday's
    result = site(
        (
            "https://parafia.test/ogloszenia/12",
            html("Ogłoszenia\n1. W niedziele i święta w czasie remontu nie będzie Mszy św. o godz. 7.00."),
        ),
    )
    assert ("07:00", ("sun", "holiday"), None, None, False) in rows(result)
