"""Binary sniffing: is a body text or binary, judged from its first 1024 bytes (the thesis algorithm).

Parish servers send videos and images as ``Content-Type: text/html``; Scrapy's own type detection trusts the
header, so this check runs on top of it (BinarySniffMiddleware).
"""

from __future__ import annotations

import codecs
import re

HEAD_SIZE = 1024  # the thesis looks at the first 1024 bytes; the ratios are always taken over 1024
CONTROL_RATIO = 0.3  # Perl's -B threshold (pp_sys.c)
HIGH_RATIO = 0.7  # more than 70 % bytes 160-255 is not a parish page

# Bytes 0-7, 11, 14-32 and 127-159: C0 and C1 controls except \b \t \n \f \r (8, 9, 10, 12, 13).
# As in the thesis, 32 (space) is in the 14-32 range; 11 (\v) is a control.
CONTROL_BYTES = frozenset([*range(0, 8), 11, *range(14, 33), *range(127, 160)])
HIGH_BYTES = frozenset(range(160, 256))
# UTF-32 first: its little-endian BOM starts with UTF-16's.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_WIDE_CHARSET_RE = re.compile(r"^utf-?(16|32)(-?[lb]e)?$", re.IGNORECASE)
PDF_MAGIC = b"%PDF-"  # a PDF's header, which readers look for in the first 1024 bytes
_CHARSET_RE = re.compile(r"charset\s*=\s*[\"']?([\w.:-]+)", re.IGNORECASE)


def _decodes_as_unicode(head: bytes) -> bool:
    """UTF-8 decodable; a multi-byte character cut by the 1024-byte boundary still counts as decodable."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data" and error.start >= len(head) - 3
    return True


def declared_charset(content_type: bytes | str | None) -> str | None:
    """The charset parameter of a Content-Type header value ("text/html; charset=UTF-16" -> "UTF-16")."""
    if isinstance(content_type, bytes):
        content_type = content_type.decode("latin-1")
    match = _CHARSET_RE.search(content_type or "")
    return match.group(1) if match else None


def _is_wide_unicode(head: bytes, charset: str | None) -> bool:
    """UTF-16/32 text, by its BOM or its declared charset: NUL bytes belong to its characters there.

    The decoded characters must still be text (few controls), so a video whose first bytes happen to
    look like a BOM stays binary.
    """
    codec = next((name for bom, name in _BOMS if head.startswith(bom)), None)
    if codec is None and charset and _WIDE_CHARSET_RE.match(charset.strip()):
        codec = charset.strip()
    if codec is None:
        return False
    try:
        text = codecs.getincrementaldecoder(codec)().decode(head)  # a character cut at the end waits
    except (UnicodeDecodeError, LookupError):
        return False
    controls = sum(1 for ch in text if ch in _CONTROL_CHARS or "\x7f" <= ch <= "\x9f")
    return bool(text) and controls / len(text) <= CONTROL_RATIO


_CONTROL_CHARS = frozenset(chr(code) for code in CONTROL_BYTES if code < 32 and code != 32)


def is_binary(head: bytes, charset: str | None = None) -> bool:
    """True when the first bytes of a body look binary (video, image, archive), False for text.

    1. empty, or decodes as Unicode (UTF-8; UTF-16/32 by BOM or the declared `charset`) -> text;
    2. contains NUL -> binary; 3. controls/1024 > 0.3 or high bytes (160-255)/1024 > 0.7 -> binary; else text.
    """
    head = head[:HEAD_SIZE]
    if not head or _decodes_as_unicode(head) or _is_wide_unicode(head, charset):
        return False
    if b"\x00" in head:
        return True
    control = sum(1 for byte in head if byte in CONTROL_BYTES)
    high = sum(1 for byte in head if byte in HIGH_BYTES)
    return control / HEAD_SIZE > CONTROL_RATIO or high / HEAD_SIZE > HIGH_RATIO


def is_pdf(head: bytes) -> bool:
    """True when the first bytes of a body are a PDF's (its header within the first 1024 bytes)."""
    return PDF_MAGIC in head[:HEAD_SIZE]
