import pytest

from msze.extraction.page_filter import BAD_REGEX, OK_REGEX, has_schedule_hint, url_suffix


@pytest.mark.parametrize(
    ("url", "button", "expected"),
    [
        ("http://parafia.pl/msze.html", None, True),
        ("http://parafia.pl/", "Porządek Mszy", True),
        ("http://parafia.pl/index.php?id=3", "porzadek liturgii", True),
        ("http://parafia.pl/a/", "Nabożeństwa", True),
        ("http://parafia.pl/nabozenstwa", None, True),
        ("http://parafia.pl/porzadek.htm", None, True),
        ("http://parafia.pl/x", "Rozkład Mszy świętych", True),
        ("http://parafia.pl/x", "Godziny mszy", True),
        ("http://parafia.pl/x", "Nabożeństwa majowe", False),
        ("http://parafia.pl/nabozenstwa-czerwcowe", None, False),
        ("http://parafia.pl/x", "Nabożeństwa do Miłosierdzia Bożego", False),
        ("http://parafia.pl/x", "Nabożeństwa wielkopostne", False),
        ("http://parafia.pl/x", "Kancelaria", False),
        ("http://parafia.pl/msze/kontakt", None, False),  # only the part after the last "/" counts
        ("http://parafia.pl/kontakt", None, False),
        ("http://parafia.pl/porz%C4%85dek", None, True),
        ("", None, False),
    ],
)
def test_has_schedule_hint(url, button, expected):
    assert has_schedule_hint(url, button) is expected


def test_bad_link_text_does_not_veto_a_good_url():
    assert has_schedule_hint("http://parafia.pl/msze-swiete", "Nabożeństwa majowe")


def test_regexes_are_the_thesis_ones():
    assert OK_REGEX.pattern.startswith("msze|nabo[żz]e[ńn]stw(a|(?=\\W\\d)|$)")
    assert "czterdzie|w.wielk" in BAD_REGEX.pattern
    assert url_suffix("http://a.pl/b/c.html") == "c.html"
