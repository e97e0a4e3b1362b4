"""Text of a schedule that is only an image (a scanned or photographed "porządek Mszy"), by Tesseract OCR.

Tesseract (Debian's `tesseract-ocr` with `tesseract-ocr-pol`) reads it through pytesseract; the text goes
through `clean_ocr_times`, which mends the usual OCR misreadings of clock times ("7.3O", "l8.00", "1O:OO",
a lost superscript "7³⁰" read "730"), and then through the same page steps as an HTML page's text.

Never raises on bad input: an image Pillow cannot open, or no Tesseract, is a status the caller counts.
No Scrapy here; the spider adapts it (msze/spiders/parish.py, docs/crawling.md#images).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

OCR_LANG = "pol"
# Statuses of ocr_image (the crawl's msze/ocr/<status> stats).
OK, NO_TEXT, BROKEN, NO_TESSERACT = "ok", "no_text", "broken", "no_tesseract"
# Tesseract reads best at ~30 px capital letters: a web image narrower than this (a thumbnail-sized
# schedule, 12-14 px text) is scaled up twice first; wider ones are read as they are, as scaling 18-36 px
# text up loses digits (benchmarks/bench_ocr.py, docs/ocr.md: at 800 px recall fell from 0.996 to 0.989).
MIN_WIDTH = 400
# An image bigger than this (pixels) is a photo or a poster, not worth minutes of OCR: BROKEN.
MAX_PIXELS = 40_000_000
# Tesseract's OpenMP threads, unless the environment says otherwise: one. On a schedule-sized image more
# threads only wait for each other (on the 2-core machine, 1.35-1.96 s an image with its default, 0.50-0.66 s
# with one; docs/ocr.md), and the crawl reads several images at once anyway.
OMP_THREADS = "1"


def ocr_workers(concurrency: int) -> int:
    """Tesseract children to run at once for OCR_CONCURRENCY: the number given, or one a core for 0."""
    return concurrency if concurrency > 0 else os.cpu_count() or 1


@dataclass(frozen=True)
class OcrText:
    """An image's text (lines as Tesseract found them, a blank line between its blocks), the mean word
    confidence 0..1, and the status (OK, NO_TEXT, BROKEN, NO_TESSERACT) with the reason when not OK."""

    text: str
    confidence: float
    status: str
    error: str = ""


def ocr_image(data: bytes, lang: str = OCR_LANG) -> OcrText:
    """The text of an image (JPEG, PNG, GIF, WebP; the first frame) and Tesseract's mean confidence."""
    import pytesseract
    from PIL import Image, UnidentifiedImageError

    try:
        image = Image.open(BytesIO(data))
        if image.width * image.height > MAX_PIXELS:
            return OcrText("", 0.0, BROKEN, f"{image.width}x{image.height} pixels: too large")
        image = image.convert("L")
    except (UnidentifiedImageError, OSError, ValueError, Image.DecompressionBombError) as error:
        return OcrText("", 0.0, BROKEN, str(error) or "not an image")
    if image.width < MIN_WIDTH:
        image = image.resize((image.width * 2, image.height * 2), Image.Resampling.LANCZOS)
    os.environ.setdefault("OMP_THREAD_LIMIT", OMP_THREADS)  # read by the tesseract child pytesseract starts
    try:
        data_ = pytesseract.image_to_data(image, lang=lang, output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractNotFoundError:
        return OcrText("", 0.0, NO_TESSERACT, "tesseract is not installed (Debian: tesseract-ocr-pol)")
    except pytesseract.TesseractError as error:
        return OcrText("", 0.0, BROKEN, str(error))
    text, confidence = _lines(data_)
    if not text.strip():
        return OcrText("", confidence, NO_TEXT, "no text found")
    return OcrText(text, confidence, OK)


PDF_DPI = 200  # pdftoppm's resolution for a scanned page: ~30 px capitals for 10 pt type
PDF_TIMEOUT = 120  # seconds pdftoppm may take for one PDF


def ocr_pdf_pages(body: bytes, max_pages: int = 0, lang: str = OCR_LANG) -> OcrText:
    """The OCR text of a PDF without a text layer: poppler's pdftoppm draws its first `max_pages` pages
    (0: all) as images, Tesseract reads each; pages joined by a form feed line as pdf.py's text is."""
    from msze.extraction.pdf import PAGE_BREAK

    with tempfile.TemporaryDirectory(prefix="msze-ocr-") as folder:
        pages = ["pdftoppm", "-r", str(PDF_DPI), "-gray", "-png"]
        pages += ["-l", str(max_pages)] if max_pages else []
        try:
            subprocess.run(
                [*pages, "-", f"{folder}/p"], input=body, capture_output=True, timeout=PDF_TIMEOUT, check=True
            )
        except FileNotFoundError:
            return OcrText("", 0.0, NO_TESSERACT, "pdftoppm is not installed (Debian: poppler-utils)")
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            return OcrText("", 0.0, BROKEN, f"pdftoppm: {error}")
        results = [ocr_image(path.read_bytes(), lang) for path in sorted(Path(folder).glob("p*.png"))]
    if any(r.status == NO_TESSERACT for r in results):
        return next(r for r in results if r.status == NO_TESSERACT)
    read = [r for r in results if r.status == OK]
    if not read:
        return OcrText("", 0.0, NO_TEXT, "no text found")
    text = PAGE_BREAK.join(r.text if r.status == OK else "" for r in results)
    return OcrText(text, round(sum(r.confidence for r in read) / len(read), 3), OK)


def _lines(data: dict[str, list]) -> tuple[str, float]:
    """Tesseract's words joined into its lines, a blank line between blocks; the mean confidence 0..1."""
    blocks: dict[int, dict[tuple[int, int], list[str]]] = {}
    confidences: list[float] = []
    for i, word in enumerate(data["text"]):
        word = word.strip()
        confidence = float(data["conf"][i])
        if not word or confidence < 0:
            continue
        confidences.append(confidence)
        lines = blocks.setdefault(data["block_num"][i], {})
        lines.setdefault((data["par_num"][i], data["line_num"][i]), []).append(word)
    text = "\n\n".join("\n".join(" ".join(words) for words in lines.values()) for lines in blocks.values())
    mean = sum(confidences) / len(confidences) / 100 if confidences else 0.0
    return text, round(mean, 3)


# --- mending clock times ------------------------------------------------------------------------------

# Letters OCR reads for digits in a time: O/o for 0, l/I/|/i for 1.
_DIGIT_LIKE = str.maketrans({"O": "0", "o": "0", "D": "0", "l": "1", "I": "1", "|": "1", "i": "1"})
# A time with letters for digits: "7.3O", "l8.00", "1O:OO" (hour 1-2 chars, minutes 2, a separator).
_LOOKALIKE_TIME = re.compile(r"(?<![\w.:])([0-9OolI|i]{1,2})([.:,])([0-9OoDlI|]{2})(?![\w.:])")
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹", "0123456789")
# "7³⁰" or "18⁰⁰": a digit then superscript minutes.
_SUPERSCRIPT_TIME = re.compile(r"(?<!\d)(\d{1,2})\s?([⁰¹²³⁴⁵⁶⁷⁸⁹]{2})(?![⁰¹²³⁴⁵⁶⁷⁸⁹])")
# "730", "1800": a bare time whose superscript minutes came out as plain digits.
# Not followed by "r." / "rok" (a year: "w 1945 r.").
_RUN_TIME = re.compile(r"(?<![\w.:,/-])([5-9]|1\d|2[0-2])([0134]5|[03]0)(?![\w.:/-])(?!\s*r(?:\.|ok))")
# Words of a schedule line: only on such a line is "730" read as 7:30 (not a year, a price, a number).
_SCHEDULE_CONTEXT = re.compile(
    r"niedziel|święt|swiet|powszedn|sobot|poniedział|wtor|środ|czwart|piąt|msz|godz|nabożeń|roraty",
    re.IGNORECASE,
)


def _mend_lookalike(match: re.Match[str]) -> str:
    hour, separator, minutes = match.groups()
    if not any(c.isdigit() for c in hour + minutes):
        return match.group(0)  # "lo.oo" alone is more likely a word than a time
    hour, minutes = hour.translate(_DIGIT_LIKE), minutes.translate(_DIGIT_LIKE)
    if int(hour) > 23 or int(minutes) > 59:
        return match.group(0)
    return f"{hour}{separator}{minutes}"


def clean_ocr_times(text: str) -> str:
    """`text` with OCR misreadings of clock times mended: letters for digits ("7.3O" → "7.30", "l8.00" →
    "18.00", "1O:OO" → "10:00"), superscript minutes ("7³⁰" → "7:30") and, on a line that speaks of a
    schedule (a day, "Msza", "godz."), minutes that lost their superscript ("730" → "7:30", "1800" →
    "18:00"; minutes 00, 15, 30 or 45 only). Other numbers are left as they are."""
    text = _SUPERSCRIPT_TIME.sub(lambda m: f"{m.group(1)}:{m.group(2).translate(_SUPERSCRIPTS)}", text)
    text = _LOOKALIKE_TIME.sub(_mend_lookalike, text)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if _SCHEDULE_CONTEXT.search(line):
            lines[i] = _RUN_TIME.sub(lambda m: f"{m.group(1)}:{m.group(2)}", line)
    return "\n".join(lines)
