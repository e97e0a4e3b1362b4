import re
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from msze.recrawl.changes import (
    CHANGED,
    NEW,
    SHRUNK,
    UNCHANGED,
    compare_page,
    compare_parish,
    fingerprint,
    mass_keys,
    normalise_text,
    page_state,
    trusted_hours,
)

SCHEDULE = "Msze św. w niedziele: 7.00, 9.00, 11.00 i 18.00.\nW dni powszednie:  7.00 i 18.00."


def test_normalisation_ignores_case_and_rewrapping():
    rewrapped = "MSZE św.   w niedziele: 7.00, 9.00,\n 11.00 i 18.00. W dni powszednie: 7.00 i 18.00."
    assert normalise_text(rewrapped) == normalise_text(SCHEDULE)
    assert fingerprint(rewrapped) == fingerprint(SCHEDULE)
    assert fingerprint(SCHEDULE.replace("18.00", "19.00")) != fingerprint(SCHEDULE)
    assert normalise_text(None) == ""


# Unicode whitespace (no-break, ideographic, line and paragraph separators) among Polish letters and digits
_TEXT = st.text(st.sampled_from("aąćęłńóśźżAĄŁ 0189.:\t\n\r\x0b\x0c\xa0\u2003\u2028\u3000\x1c\x85ß"))


@given(_TEXT)
def test_normalisation_is_what_stored_fingerprints_were_made_with(text):
    """Fingerprints of earlier runs were made by NFC, casefold and re's \\s+ collapsed: a page whose text
    did not change must keep its fingerprint."""
    before = re.sub(r"\s+", " ", unicodedata.normalize("NFC", text).casefold()).strip()
    assert normalise_text(text) == before
    assert page_state(text).text_length == len(before)


def test_compare_page_statuses():
    old = page_state(SCHEDULE)
    assert compare_page(None, old) == NEW
    assert compare_page(old, page_state(SCHEDULE.upper())) == UNCHANGED
    assert compare_page(old, page_state(SCHEDULE.replace("18.00", "19.00"))) == CHANGED
    # A page that lost more than half its text (JavaScript shell, broken site) is flagged.
    assert compare_page(old, page_state("Ładowanie...")) == SHRUNK
    assert compare_page(old, page_state("")) == SHRUNK
    # Exactly half is not yet suspicious.
    half = normalise_text(SCHEDULE)[: len(normalise_text(SCHEDULE)) // 2 + 1]
    assert compare_page(old, page_state(half)) == CHANGED


def test_mass_keys_use_day_when_known():
    assert mass_keys(["07:00", {"time": "09:00", "day": "sunday"}, {"time": "18:00", "day": None}]) == {
        "07:00",
        "sunday 09:00",
        "18:00",
    }


def test_parish_change():
    before = [{"time": "07:00", "day": "sunday"}, {"time": "18:00", "day": "sunday"}]
    after = [{"time": "07:00", "day": "sunday"}, {"time": "19:00", "day": "sunday"}]
    change = compare_parish("parafia.pl", before, after, {"http://parafia.pl/": CHANGED})
    assert change.status == CHANGED and change.masses_changed
    assert change.added == ["sunday 19:00"] and change.removed == ["sunday 18:00"]
    assert change.to_dict()["pages"] == {CHANGED: 1}

    same = compare_parish("parafia.pl", before, list(reversed(before)), {"a": UNCHANGED, "b": SHRUNK})
    assert same.status == UNCHANGED and not same.masses_changed
    assert same.flagged_pages == ["b"]

    first = compare_parish("nowa.pl", None, after)
    assert first.status == NEW and first.added == ["sunday 07:00", "sunday 19:00"]


def test_shrunk_page_keeps_previous_hours():
    previous = [{"time": "07:00", "label": "mass"}]
    assert trusted_hours(SHRUNK, [], previous) == previous
    assert trusted_hours(CHANGED, [], previous) == []
    assert trusted_hours(SHRUNK, [], None) == []


def test_difference_through_a_shrunk_page_is_suspect_not_changed():
    from msze.recrawl.changes import SUSPECT

    before = [{"time": "07:00", "day": "sunday"}, {"time": "18:00", "day": "sunday"}]
    # The start page became a JavaScript shell: the schedule page was not reached, its times are missing.
    change = compare_parish("parafia.pl", before, before[:1], {"http://parafia.pl/": SHRUNK})
    assert change.status == SUSPECT and not change.masses_changed
    assert change.removed == ["sunday 18:00"] and change.flagged_pages == ["http://parafia.pl/"]
