import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from msze.classifier.features import (
    fold,
    hour_features,
    hour_tokens,
    page_features,
    parse_hour,
    token_spans,
    tokens,
)

PAGE = (
    "Porządek Mszy Świętych\n\n"
    "Niedziela: godz. 7.oo, 9³⁰, 11:00 (suma)\n"
    "Kancelaria czynna 16:00 - 17:30, ul. Łąkowa 5"
)


def span(text: str, needle: str) -> tuple[int, int]:
    start = text.index(needle)
    return start, start + len(needle)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("7.oo", (7, 0, False)),
        ("10.3o", (10, 30, False)),
        ("18:30", (18, 30, False)),
        ("7,30", (7, 30, False)),
        ("17 30", (17, 30, False)),
        ("1830", (18, 30, False)),
        ("600", (6, 0, False)),
        ("7³⁰", (7, 30, False)),
        ("7", (7, 0, True)),
        ("ab", None),
    ],
)
def test_parse_hour_reads_the_forms_pages_use(written, expected):
    assert parse_hour(written) == expected


def test_hour_is_marked_and_normalised():
    assert hour_tokens("7.oo") == ["<h>", "h07", "m00", "</h>"]
    assert hour_tokens("8") == ["<h>", "h08", "m00", "bare", "</h>"]


def test_fold_lowercases_and_strips_polish_diacritics():
    assert fold("Świętych ŁĄKA żółć") == "swietych laka zolc"


def test_tokens_keep_line_breaks_and_punctuation_and_generalise_numbers():
    assert tokens("Msze św.:\n8:00, 22.03.2020\n\nul. Polna 5") == [
        "msze", "sw", ".", ":", "_nl_", "_time_", ",", "_num_", ".", "_num_", ".", "_num_", "_par_",
        "ul", ".", "polna", "_num_",
    ]  # fmt: skip


def test_hour_features_window_around_a_mass_time():
    start, end = span(PAGE, "7.oo")
    line = hour_features(PAGE, start, end, before=12, after=6, near=0)
    assert line == "porzadek mszy swietych _par_ niedziela : godz . <h> h07 m00 </h> , _time_ , _time_ ( suma"
    wide = hour_features(PAGE, start, end, near=0)  # default window: 20 before, 10 after
    assert wide.endswith("( suma ) _nl_ kancelaria czynna")
    assert "\n" not in line


def test_hour_features_range_start_is_followed_by_a_dash():
    start, end = span(PAGE, "16:00")
    line = hour_features(PAGE, start, end, before=2, after=2, near=0)
    assert line == "kancelaria czynna <h> h16 m00 rfrom </h> - _time_"


def test_same_line_words_are_repeated_with_a_prefix_and_stop_at_the_line_break():
    start, end = span(PAGE, "16:00")
    line = hour_features(PAGE, start, end, before=2, after=2, near=3)
    assert line == "kancelaria czynna <h> h16 m00 rfrom </h> - _time_ b_kancelaria b_czynna a_- a__time_ a_,"
    start, end = span(PAGE, "7.oo")
    assert hour_features(PAGE, start, end, near=2).endswith("b_godz b_. a_, a__time_")


def test_superscript_minutes_in_context_are_a_time():
    start, end = span(PAGE, "11:00")
    assert "_time_ , _time_ , <h> h11 m00 </h>" in hour_features(PAGE, start, end)


def test_window_sizes_and_text_edges():
    text = "7:00 Msza"
    assert hour_features(text, 0, 4) == "<h> h07 m00 </h> msza a_msza"
    assert hour_features(text, 0, 4, before=0, after=0, near=0) == "<h> h07 m00 </h>"


def test_span_outside_text_is_an_error():
    with pytest.raises(ValueError, match="outside the text"):
        hour_features("abc", 2, 10)


def test_page_features_tokenise_once_and_match_hour_features():
    spans = [span(PAGE, n) for n in ("7.oo", "9³⁰", "11:00", "16:00", "17:30")]
    assert page_features(PAGE, spans) == [hour_features(PAGE, s, e) for s, e in spans]
    assert page_features(PAGE, []) == []
    with pytest.raises(ValueError):
        page_features(PAGE, [(0, 10**6), (1, 2)])


def test_token_spans_are_offsets_in_the_original_text():
    text = "Łąka: 7³⁰ i ŚWIĘTO"
    toks, starts, ends = token_spans(text)
    assert toks == ["laka", ":", "_time_", "i", "swieto"]
    assert [text[s:e] for s, e in zip(starts, ends, strict=True)] == ["Łąka", ":", "7³⁰", "i", "ŚWIĘTO"]


@pytest.mark.parametrize(
    ("text", "needle", "marks"),
    [
        ("Kancelaria czynna od 16:00 do 17:30.", "16:00", ["rfrom"]),
        ("Kancelaria czynna od 16:00 do 17:30.", "17:30", ["rto"]),
        ("Spowiedź 8:00-9:00, potem Msza", "8:00", ["rfrom"]),
        ("Spowiedź 8:00-9:00, potem Msza", "9:00", ["rto"]),
        ("adoracja do godz. 20.00", "20.00", ["rto"]),
        ("Msza 7:00 - suma, 9:00", "7:00", []),  # a dash before words is no range
        ("Msze: 7:00, 9:00 i 11:00", "9:00", []),
    ],
)
def test_range_starts_and_ends_are_marked_in_the_hour(text, needle, marks):
    start, end = span(text, needle)
    line = hour_features(text, start, end, near=0)
    inside = line[line.index("<h>") : line.index("</h>")].split()[1:]
    assert [t for t in inside if t.startswith("r")] == marks


_WORDS = [
    "Msza",
    "św.",
    "kancelaria",
    "Różaniec",
    "ŚWIĘTO",
    "o",
    "godz.",
    "-",
    "(",
    ")",
    ",",
    "7:00",
    "18.30",
]
_GAPS = [" ", " ", "\n", "\n\n", " – ", ", "]


@settings(max_examples=60, deadline=None)
@given(
    words=st.lists(st.sampled_from(_WORDS), min_size=1, max_size=400),
    gaps=st.lists(st.sampled_from(_GAPS), min_size=400, max_size=400),
    picks=st.lists(st.integers(min_value=0, max_value=10**6), min_size=2, max_size=6),
    window=st.tuples(st.integers(0, 30), st.integers(0, 20), st.integers(0, 10)),
)
def test_page_features_read_around_hours_like_a_whole_page_read(words, gaps, picks, window):
    """page_features reads only near the hours it is asked about; the lines must be those of a full read."""
    text = "".join(word + gap for word, gap in zip(words, gaps, strict=False))
    hours = [(m.start(), m.end()) for m in re.finditer(r"\d{1,2}[:.]\d\d", text)]
    if len(hours) < 2:
        return
    spans = sorted({hours[p % len(hours)] for p in picks})
    before, after, near = window
    assert page_features(text, spans, before, after, near) == [
        hour_features(text, s, e, before, after, near) for s, e in spans
    ]
