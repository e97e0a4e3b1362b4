"""pdf_to_text (msze/extraction/pdf.py) on PDFs written by tests/pdfs.py: columns, tables, pages, and every
PDF that cannot be read as a status, never an exception."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pdfs import Line, build_pdf, scanned_pdf, text_pdf

from msze.extraction.page import PageSteps
from msze.extraction.pdf import (
    BROKEN,
    ENCRYPTED,
    NO_TEXT,
    OK,
    PAGE_BREAK,
    PDF_CONTENT_TYPE,
    page_at,
    page_starts,
    pdf_to_text,
)

# Two columns written row by row across both, as word processors lay them out.
LEFT = ["1. W niedzielę Msze święte o 7:00,", "9:00 i 11:00. Zapraszamy.", "2. Spowiedź w sobotę"]
RIGHT = ["3. Kancelaria parafialna czynna", "we wtorek 16:00-17:30.", "4. Różaniec o 17:30."]
TWO_COLUMNS = [line for i, (a, b) in enumerate(zip(LEFT, RIGHT, strict=True)) for line in (
    Line(40, 780 - 14 * i, a, 10), Line(305, 780 - 14 * i, b, 10)
)]  # fmt: skip
TABLE = [
    Line(50, 780, "Porządek Mszy świętych", 14),
    Line(50, 740, "Niedziele i święta"),
    Line(250, 740, "7:00   9:00   11:00"),
    Line(50, 720, "Dni powszednie"),
    Line(250, 720, "7:00   18:00"),
]


def test_a_column_of_a_two_column_page_comes_out_whole() -> None:
    pdf = pdf_to_text(text_pdf(TWO_COLUMNS))
    assert pdf.status == OK and pdf.pages == 1
    assert "\n".join(LEFT) in pdf.text and "\n".join(RIGHT) in pdf.text


def test_a_table_row_label_comes_right_before_its_hours() -> None:
    text = pdf_to_text(text_pdf(TABLE)).text
    assert text.split("\n\n") == [
        "Porządek Mszy świętych",
        "Niedziele i święta",
        "7:00   9:00   11:00",
        "Dni powszednie",
        "7:00   18:00",
    ]


def test_polish_letters_are_read() -> None:
    assert pdf_to_text(text_pdf([Line(50, 700, "Zażółć gęślą jaźń ĄĆĘŁŃŚŹŻ")])).text == (
        "Zażółć gęślą jaźń ĄĆĘŁŃŚŹŻ"
    )


def test_pages_are_joined_by_a_form_feed_line_and_an_offset_gives_its_page() -> None:
    pdf = pdf_to_text(
        text_pdf([Line(50, 700, "Strona 1")], [Line(50, 700, "Strona 2")], [Line(50, 700, "3")])
    )
    assert pdf.text == PAGE_BREAK.join(["Strona 1", "Strona 2", "3"]) and pdf.pages == 3
    starts = page_starts(pdf.text)
    assert [page_at(starts, pdf.text.index(word)) for word in ("Strona 1", "Strona 2", "3")] == [1, 2, 3]


def test_max_pages_reads_the_first_pages_only() -> None:
    pdf = pdf_to_text(text_pdf(*([Line(50, 700, f"Strona {n}")] for n in range(1, 6))), max_pages=2)
    assert pdf.pages == 2 and "Strona 2" in pdf.text and "Strona 3" not in pdf.text


def test_an_encrypted_pdf_with_an_empty_user_password_is_read() -> None:
    pdf = pdf_to_text(text_pdf(TABLE, user_password=""))  # "no copying": anyone opens it
    assert pdf.status == OK and "Niedziele i święta" in pdf.text


def test_a_pdf_that_needs_a_password_is_encrypted() -> None:
    pdf = pdf_to_text(text_pdf(TABLE, user_password="tajne"))
    assert (pdf.status, pdf.text) == (ENCRYPTED, "") and pdf.error


def test_a_scan_has_no_text() -> None:
    pdf = pdf_to_text(scanned_pdf(3))
    assert pdf.status == NO_TEXT and pdf.pages == 3 and pdf.error


def test_broken_pdfs() -> None:
    whole = text_pdf(TABLE)
    for body in (b"", b"%PDF-1.4\n", b"%PDF-1.4\ngarbage", whole[:300], build_pdf([])):
        pdf = pdf_to_text(body)
        assert (pdf.status, pdf.text) == (BROKEN, ""), body[:40]
        assert pdf.error


@settings(max_examples=60, deadline=None)
@given(cut=st.integers(min_value=0, max_value=len(text_pdf(TABLE))), junk=st.binary(max_size=64))
def test_any_damage_is_a_status_never_an_exception(cut: int, junk: bytes) -> None:
    whole = text_pdf(TABLE)
    pdf = pdf_to_text(whole[:cut] + junk + whole[cut + len(junk) :])
    assert pdf.status in (OK, BROKEN, NO_TEXT, ENCRYPTED)
    assert (pdf.status == OK) == bool(pdf.text.replace("\f", "").strip())  # text exactly when OK


def test_hours_of_a_pdf_page_say_their_pdf_page() -> None:
    text = pdf_to_text(text_pdf(TABLE, [Line(50, 700, "Kancelaria czynna we wtorek 16:00-17:30.")])).text
    page = {"url": "http://p.test/porzadek.pdf", "html": "", "text": text, "content_type": PDF_CONTENT_TYPE}
    PageSteps().run(page)
    assert page["masses"] == ["07:00", "09:00", "11:00", "18:00"]
    assert {h["time"]: h["pdf_page"] for h in page["hours"]} == {
        "07:00": 1,
        "09:00": 1,
        "11:00": 1,
        "18:00": 1,
        "16:00": 2,
        "17:30": 2,
    }
    html = {"url": "http://p.test/msze.html", "html": "<p>Niedziela 7:00</p>"}
    assert "pdf_page" not in PageSteps().run(html)["hours"][0]  # an HTML page has no PDF page
