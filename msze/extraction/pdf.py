"""Text of a PDF (weekly announcements, a Mass schedule), for the same page steps an HTML page goes through.

pdfminer.six reads it (docs/crawling.md#pdf-files says why it and not pypdf): its layout analysis groups
characters into lines and lines into text boxes, so a column of a two-column announcement comes out whole,
and with `boxes_flow=None` the boxes are read top to bottom, left to right, so a schedule table's row label
("Niedziele i święta") comes right before its hours. Pages are joined by a form feed on a line of its own
(PAGE_BREAK; pdfminer ends each page with one), so the page of an hour is found from its offset in the text
(`page_at`), and the rules read a page break as the end of a paragraph (the words of the next page are no cue
for the last hour of this one).

Never raises on bad input: an encrypted, broken or text-less PDF is a status the caller counts.
No Scrapy here; the spider adapts it (msze/spiders/parish.py).
"""

from __future__ import annotations

import bisect
import logging
from dataclasses import dataclass
from io import BytesIO

PDF_CONTENT_TYPE = "application/pdf"
FORM_FEED = "\f"
PAGE_BREAK = f"\n{FORM_FEED}\n"  # between the pages of a PDF's text
# Statuses of pdf_to_text: the text is usable, or why there is none (the crawl's msze/pdf/<status> stats).
OK, NO_TEXT, ENCRYPTED, BROKEN = "ok", "no_text", "encrypted", "broken"
# pdfminer.six's layout defaults but for the box order (LAParams.boxes_flow): None reads the boxes top to
# bottom, left to right, which keeps a table's rows together (its default 0.5 reads a table column by column).
BOXES_FLOW = None


@dataclass(frozen=True)
class PdfText:
    """A PDF's text (pages joined by PAGE_BREAK), how many pages were read, and its status (OK, NO_TEXT,
    ENCRYPTED, BROKEN) with the reason when it is not OK."""

    text: str
    pages: int
    status: str
    error: str = ""


def pdf_to_text(body: bytes, max_pages: int = 0) -> PdfText:
    """The text of a PDF's first `max_pages` pages (0: all). A PDF that needs a password is ENCRYPTED (one
    with an empty user password, as office software writes for "no copying", is read); one pdfminer cannot
    parse, or without pages, is BROKEN; one whose pages have no text (a scan) is NO_TEXT."""
    # pdfminer takes ~0.2 s to import: only processes that read a PDF pay it.
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextContainer
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfparser import PDFSyntaxError
    from pdfminer.psparser import PSException

    # pdfminer logs every oddity of a file (a missing CropBox, a bad xref entry) as a warning: the caller
    # writes one line per PDF, the rest would be noise in a crawl log.
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    laparams = LAParams(boxes_flow=BOXES_FLOW)
    pages: list[str] = []
    try:
        for layout in extract_pages(BytesIO(body), laparams=laparams, maxpages=max_pages):
            # a blank line between text boxes, as pdfminer's extract_text writes them
            pages.append("\n".join(e.get_text() for e in layout if isinstance(e, LTTextContainer)))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        return PdfText("", len(pages), ENCRYPTED, _reason(error, "a password is needed"))
    except (PDFSyntaxError, PSException) as error:
        return PdfText("", len(pages), BROKEN, _reason(error, "not a readable PDF"))
    except Exception as error:  # noqa: BLE001 (pdfminer raises KeyError, TypeError, ... on damaged files)
        return PdfText("", len(pages), BROKEN, f"{type(error).__name__}: {_reason(error, 'damaged')}")
    if not pages:
        return PdfText("", 0, BROKEN, "no pages")
    text = PAGE_BREAK.join(page.strip("\n") for page in pages)
    if not text.replace(FORM_FEED, "").strip():
        return PdfText(text, len(pages), NO_TEXT, "no text layer (a scan?)")
    return PdfText(text, len(pages), OK)


def _reason(error: Exception, default: str) -> str:
    return str(error).strip() or default


def page_starts(text: str) -> list[int]:
    """Offsets where each page of a PDF's text starts (0, then after each form feed)."""
    starts = [0]
    at = text.find(FORM_FEED)
    while at != -1:
        starts.append(at + 1)
        at = text.find(FORM_FEED, at + 1)
    return starts


def page_at(starts: list[int], offset: int) -> int:
    """The 1-based page number of a text offset, given page_starts()."""
    return bisect.bisect_right(starts, offset)
