"""Binary sniffing: is a body text or binary, judged from its first 1024 bytes (the thesis algorithm).

Parish servers send videos and images as ``Content-Type: text/html``; Scrapy's own type detection trusts the
header, so this check runs on top of it (BinarySniffMiddleware).
"""

from __future__ import annotations

HEAD_SIZE = 1024  # the thesis looks at the first 1024 bytes; the ratios are always taken over 1024
CONTROL_RATIO = 0.3  # Perl's -B threshold (pp_sys.c)
HIGH_RATIO = 0.7  # more than 70 % bytes 160-255 is not a parish page

# Bytes 0-7, 11, 14-32 and 127-159: C0 and C1 controls except \b \t \n \f \r (8, 9, 10, 12, 13).
# As in the thesis, 32 (space) is in the 14-32 range; 11 (\v) is a control.
CONTROL_BYTES = frozenset([*range(0, 8), 11, *range(14, 33), *range(127, 160)])
HIGH_BYTES = frozenset(range(160, 256))


def _decodes_as_unicode(head: bytes) -> bool:
    """UTF-8 decodable; a multi-byte character cut by the 1024-byte boundary still counts as decodable."""
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.reason == "unexpected end of data" and error.start >= len(head) - 3
    return True


def is_binary(head: bytes) -> bool:
    """True when the first bytes of a body look binary (video, image, archive), False for text.

    1. empty, or decodes as Unicode -> text; 2. contains NUL -> binary;
    3. controls/1024 > 0.3 or high bytes (160-255)/1024 > 0.7 -> binary; else text.
    """
    head = head[:HEAD_SIZE]
    if not head or _decodes_as_unicode(head):
        return False
    if b"\x00" in head:
        return True
    control = sum(1 for byte in head if byte in CONTROL_BYTES)
    high = sum(1 for byte in head if byte in HIGH_BYTES)
    return control / HEAD_SIZE > CONTROL_RATIO or high / HEAD_SIZE > HIGH_RATIO
