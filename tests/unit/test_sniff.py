"""The thesis's binary sniffing rule by rule, at every threshold edge."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msze.crawling.sniff import CONTROL_BYTES, HEAD_SIZE, HIGH_BYTES, declared_charset, is_binary, is_pdf

INVALID = b"\xff"  # never valid UTF-8: forces the ratio rules


def test_empty_is_text() -> None:
    assert is_binary(b"") is False


@pytest.mark.parametrize(
    "head",
    [
        b"<html><body>Msze: 7:00</body></html>",
        "Porządek Mszy świętych: niedziele 7.oo, 9.oo; Zażółć gęślą jaźń".encode(),
        b"\x00\x01\x02 still decodes as UTF-8",  # rule 1 comes before the NUL rule
        b" " * HEAD_SIZE,
    ],
)
def test_unicode_decodable_is_text(head: bytes) -> None:
    assert is_binary(head) is False


def test_utf8_character_cut_by_the_1024_boundary_is_text() -> None:
    head = b"a" * (HEAD_SIZE - 1) + "ą".encode()  # 1025 bytes: the 1024-byte head ends mid-character
    assert is_binary(head) is False


def test_nul_in_undecodable_head_is_binary() -> None:
    assert is_binary(INVALID + b"\x00" + b"a" * 100) is True


def test_control_ratio_edge() -> None:
    # 0.3 * 1024 = 307.2: 307 controls are text, 308 binary.
    assert is_binary(b"\x01" * 307 + INVALID + b"a" * (HEAD_SIZE - 308)) is False
    assert is_binary(b"\x01" * 308 + INVALID + b"a" * (HEAD_SIZE - 309)) is True


def test_high_ratio_edge() -> None:
    # 0.7 * 1024 = 716.8: 716 high bytes are text, 717 binary (0xe9 followed by ASCII is not UTF-8).
    assert is_binary(b"\xe9" * 716 + b"a" * (HEAD_SIZE - 716)) is False
    assert is_binary(b"\xe9" * 717 + b"a" * (HEAD_SIZE - 717)) is True


def test_ratios_are_over_1024_even_for_short_bodies() -> None:
    assert is_binary(b"\x01" * 300 + INVALID) is False  # 300/1024 < 0.3 although ~100 % of the body
    assert is_binary(b"\x01" * 400 + INVALID) is True


def test_only_first_1024_bytes_count() -> None:
    assert is_binary(b"a" * HEAD_SIZE + b"\x00\xff" * 5000) is False


def test_control_and_high_byte_sets_follow_the_thesis() -> None:
    assert {8, 9, 10, 12, 13}.isdisjoint(CONTROL_BYTES)  # \b \t \n \f \r are text
    assert {0, 7, 11, 14, 31, 32, 127, 159} <= CONTROL_BYTES
    assert 160 not in CONTROL_BYTES and frozenset(range(160, 256)) == HIGH_BYTES
    assert len(CONTROL_BYTES) == 8 + 1 + 19 + 33


@pytest.mark.parametrize("byte", [8, 9, 10, 12, 13])
def test_whitespace_controls_are_not_counted(byte: int) -> None:
    assert is_binary(bytes([byte]) * 900 + INVALID) is False


@pytest.mark.parametrize("byte", [11, 32, 127, 159])
def test_counted_controls(byte: int) -> None:
    assert is_binary(bytes([byte]) * 400 + INVALID) is True


def test_video_header_is_binary() -> None:
    mp4 = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00" + bytes(range(256)) * 4
    assert is_binary(mp4) is True


@given(st.binary(max_size=3000))
def test_any_bytes_get_a_verdict_from_the_head_only(data: bytes) -> None:
    assert is_binary(data) == is_binary(data[:HEAD_SIZE])


# "ó" (U+00F3) is the byte F3 in UTF-16: such a head is not UTF-8, so rule 1 alone does not save it.
UTF16_PAGE = "<html><body>Kościół: Porządek Mszy świętych, niedziela 7:00, 9:30</body></html>" * 20


@pytest.mark.parametrize("codec", ["utf-16", "utf-32"])
def test_wide_unicode_with_bom_is_text(codec: str) -> None:
    head = UTF16_PAGE.encode(codec)  # Python writes the BOM
    assert b"\x00" in head[:HEAD_SIZE]
    assert is_binary(head) is False


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_declared_utf16_without_bom_is_text(codec: str) -> None:
    head = UTF16_PAGE.encode(codec)
    assert is_binary(head) is True  # nothing says it is UTF-16: NULs make it binary
    assert is_binary(head, codec.upper()) is False
    assert is_binary(head[:1023], codec) is False  # a character cut by the boundary waits


def test_bom_or_declared_utf16_does_not_make_a_video_text() -> None:
    video = b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00" + bytes(range(256)) * 8
    assert is_binary(video, "utf-16") is True
    assert is_binary(b"\xff\xfe" + video) is True
    assert is_binary(b"\xff\xfe" + "\x01\x02\x03 \x04".encode("utf-16-le") * 200) is True  # controls


@pytest.mark.parametrize(
    ("content_type", "charset"),
    [
        (b"text/html; charset=UTF-16", "UTF-16"),
        ('text/html;charset="utf-16le"', "utf-16le"),
        (b"text/html", None),
        (None, None),
    ],
)
def test_declared_charset(content_type: bytes | str | None, charset: str | None) -> None:
    assert declared_charset(content_type) == charset


def test_a_pdf_is_known_by_its_header_in_the_first_1024_bytes() -> None:
    assert is_pdf(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3")
    assert is_pdf(b"\r\n" * 100 + b"%PDF-1.4")  # junk before the header, as some generators write
    assert not is_pdf(b" " * HEAD_SIZE + b"%PDF-1.4")
    assert not is_pdf(b"<html><body>%PDF</body></html>")
