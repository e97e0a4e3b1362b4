"""A tiny PDF writer for the tests: text placed line by line, Polish letters, optional RC4 encryption.

No PDF writer is a runtime need of msze (pdfminer.six only reads), so the fixtures are written here, byte by
byte, as the PDF 1.4 reference lays them out: Helvetica (a standard font, not embedded) with a /Differences
encoding for the Polish letters WinAnsi lacks, one content stream per page, the Standard security handler
(revision 2, RC4 40-bit) when a password is asked for. `scanned_pdf` has a page with an image and no text.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

# Codes 128+ in the font's encoding for the letters WinAnsi has no place for (glyph names of the Adobe list).
POLISH = "ąćęłńśźżĄĆĘŁŃŚŹŻ"
_GLYPHS = ["aogonek", "cacute", "eogonek", "lslash", "nacute", "sacute", "zacute", "zdotaccent"]
_GLYPHS += [name[0].upper() + name[1:] for name in _GLYPHS]
_CODES = {letter: 128 + i for i, letter in enumerate(POLISH)}
_DOC_ID = b"msze-test-pdf-id"  # the trailer's /ID, part of the encryption key
_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")  # PDF 1.4 7.6.3.3


@dataclass(frozen=True)
class Line:
    """A line of text at (x, y) points from the page's lower left corner."""

    x: float
    y: float
    text: str
    size: float = 11


def _encode(text: str) -> bytes:
    out = bytearray()
    for ch in text:
        code = _CODES.get(ch)
        out += bytes([code]) if code is not None else ch.encode("cp1252")
    return out.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def page_stream(lines: Sequence[Line]) -> bytes:
    """A content stream that shows each line in the order given (the order a reader finds them in)."""
    parts = [
        b"BT /F1 %g Tf 1 0 0 1 %g %g Tm (%s) Tj ET" % (ln.size, ln.x, ln.y, _encode(ln.text)) for ln in lines
    ]
    return b"\n".join(parts)


def _rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) % 256
        s[i], s[j] = s[j], s[i]
    out, i, j = bytearray(), 0, 0
    for byte in data:
        i = (i + 1) % 256
        j = (j + s[i]) % 256
        s[i], s[j] = s[j], s[i]
        out.append(byte ^ s[(s[i] + s[j]) % 256])
    return bytes(out)


def _padded(password: str) -> bytes:
    return (password.encode("latin-1") + _PAD)[:32]


@dataclass
class _Security:
    """The Standard security handler, revision 2 (RC4, 40-bit key), for one document ID."""

    user_password: str
    owner_password: str
    doc_id: bytes = _DOC_ID
    permissions: int = -44  # print and copy refused: what parish office software sets

    def __post_init__(self) -> None:
        owner_key = hashlib.md5(_padded(self.owner_password or self.user_password)).digest()[:5]
        self.owner_entry = _rc4(owner_key, _padded(self.user_password))
        p = self.permissions.to_bytes(4, "little", signed=True)
        self.key = hashlib.md5(_padded(self.user_password) + self.owner_entry + p + self.doc_id).digest()[:5]
        self.user_entry = _rc4(self.key, _PAD)

    def encrypt(self, number: int, data: bytes) -> bytes:
        object_key = hashlib.md5(self.key + number.to_bytes(3, "little") + b"\0\0").digest()[:10]
        return _rc4(object_key, data)

    def dictionary(self) -> bytes:
        return b"<< /Filter /Standard /V 1 /R 2 /O <%s> /U <%s> /P %d >>" % (
            self.owner_entry.hex().encode(),
            self.user_entry.hex().encode(),
            self.permissions,
        )


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d%s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def build_pdf(
    pages: Sequence[bytes],
    *,
    user_password: str | None = None,
    owner_password: str = "proboszcz",
    compress: bool = True,
    padding: int = 0,
) -> bytes:
    """A PDF of the given page content streams (page_stream); encrypted when user_password is not None ("" is
    a PDF anyone opens, whose content is encrypted); `padding` bytes of a comment make it that much bigger."""
    security = _Security(user_password, owner_password) if user_password is not None else None
    image_number = 4 + 2 * len(pages)
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(len(pages)))
    differences = b"[128 " + b" ".join(b"/" + name.encode() for name in _GLYPHS) + b"]"
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids.encode(), len(pages)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding"
        b" << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences %s >> >>" % differences,
    ]
    for i, content in enumerate(pages):
        number = 5 + 2 * i
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R"
            b" /Resources << /Font << /F1 3 0 R >> /XObject << /Im1 %d 0 R >> >> >>" % (number, image_number)
        )
        data, extra = content, b""
        if compress:
            data, extra = zlib.compress(content), b" /Filter /FlateDecode"
        objects.append(_stream(security.encrypt(number, data) if security else data, extra))
    pixels = bytes(range(256)) * 3  # a 16 x 16 RGB image: what a scanner puts on every page
    image = b" /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceRGB /BitsPerComponent 8"
    objects.append(_stream(security.encrypt(image_number, pixels) if security else pixels, image))
    trailer = b"/Root 1 0 R /ID [<%s> <%s>]" % (_DOC_ID.hex().encode(), _DOC_ID.hex().encode())
    if security is not None:
        objects.append(security.dictionary())
        trailer += b" /Encrypt %d 0 R" % len(objects)
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    if padding:
        out += b"%" + b"x" * max(0, padding - 2) + b"\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, trailer, xref)
    return bytes(out)


def text_pdf(*pages: Sequence[Line], **options: object) -> bytes:
    """A PDF with a text layer: each page its lines."""
    return build_pdf([page_stream(lines) for lines in pages], **options)  # type: ignore[arg-type]


def scanned_pdf(pages: int = 1) -> bytes:
    """A PDF whose pages are an image and no text (a scanned announcement)."""
    return build_pdf([b"q 500 0 0 700 40 70 cm /Im1 Do Q"] * pages)
