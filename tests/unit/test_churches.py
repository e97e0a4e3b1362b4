"""The address a page writes beside a chapel's name (msze.extraction.churches)."""

from __future__ import annotations

from msze.extraction.churches import church_address, church_addresses

PAGE = """Porządek Mszy świętych

Kościół parafialny, ul. Kościelna 1
Niedziela: 8:00, 10:00

Kaplica w Borkach
ul. Leśna 5a
62-010 Borki
Niedziela: 9:30

Kaplica szpitalna
Niedziela: 7:00

Kaplica w Woli, al. Jana Pawła II 12/3: 11:00
"""


def test_the_address_below_a_chapel_heading_with_its_postal_code_and_town():
    assert church_address(PAGE, "Kaplica w Borkach") == "ul. Leśna 5a, 62-010 Borki"


def test_the_address_on_the_line_naming_the_chapel():
    assert church_address(PAGE, "kaplica w Woli") == "al. Jana Pawła II 12/3"


def test_a_street_named_for_a_date_and_not_a_web_address():
    assert church_address("Kaplica w Dębinie, ul. 3 Maja 5", "Kaplica w Dębinie") == "ul. 3 Maja 5"
    assert church_address("Kaplica w Lesie: www.parafia.pl. Msza 9", "Kaplica w Lesie") is None


def test_no_address_is_borrowed_from_the_next_church_or_the_parish_church():
    assert church_address(PAGE, "Kaplica szpitalna") is None
    assert church_address("Kaplica w Lesie\nKościół w Lipnie, ul. Polna 2", "Kaplica w Lesie") is None
    assert church_address("Kaplica w Lesie jest otwarta od 5 do 7", "Kaplica w Lesie") is None


def test_each_church_once_from_the_first_page_that_gives_its_address():
    pages = [
        {"url": "http://p.test/", "text": "Kaplica w Borkach: 9:30"},
        {"url": "http://p.test/msze", "text": PAGE},
        {"url": "http://p.test/kontakt", "text": "Kaplica w Borkach, ul. Inna 9"},
    ]
    assert church_addresses(pages, ["Kaplica w Borkach", "Kaplica w Borkach", "Kaplica w Dębinie"]) == [
        {"name": "Kaplica w Borkach", "address": "ul. Leśna 5a, 62-010 Borki", "url": "http://p.test/msze"}
    ]
