"""HTML → plain text for extraction, configured as the thesis configured html2text.

The thesis ignored links, images and table markup and removed bold/italic and list marks, so that only the
words a reader sees remain, one block per line. Two things html2text does not do on its own and parish pages
need: superscript minutes (``6<sup>45</sup>``) become a clock time (``6:45``), and table cells are kept apart
by a space (otherwise ``<td>Niedziela</td><td>8:00</td>`` would glue into ``Niedziela8:00``).
"""

from __future__ import annotations

import re
from typing import NamedTuple

import html2text
import lxml.html
import w3lib.html

# `7<sup>30</sup>`, `7 <sup><u>30</u></sup>`: minutes written as a superscript (or subscript) after the hour.
_SUP_MINUTES_RE = re.compile(
    r"(?<=\d)\s*<(su[pb])\b[^>]*>(?:\s|<[^>]+>)*([0-5]\d|oo)(?:\s|<[^>]+>)*</\1\s*>",
    re.IGNORECASE,
)
# what every _SUP_MINUTES_RE match holds: the regex starts with a look-behind, which makes the regex engine
# try every position of the page, so the page is searched for this first (most pages have no <sup>)
_SUP_OPEN_RE = re.compile(r"<su[pb]\b", re.IGNORECASE)
# html2text numbers ordered-list items ("1. "); the thesis removed list marks, so every list is rendered
# unordered with an empty mark.
_OL_TAG_RE = re.compile(r"<(/?)ol\b", re.IGNORECASE)
_HEADING_MARK_RE = re.compile(r"^[ \t]*#{1,6}[ \t]+", re.MULTILINE)
_CELL_TAGS = frozenset({"td", "th"})


class _ThesisHTML2Text(html2text.HTML2Text):
    """html2text without Markdown escaping, with a space between table cells."""

    def handle_data(self, data: str, entity_char: bool = False) -> None:
        # entity_char=True makes html2text skip its Markdown escaping ("7\\. " etc.): the text is for
        # extraction, not for a Markdown renderer.
        super().handle_data(data, entity_char=True)

    def handle_tag(self, tag: str, attrs: dict[str, str | None], start: bool) -> None:
        super().handle_tag(tag, attrs, start)
        if tag in _CELL_TAGS and not start:
            self.o(" ")


def _converter() -> html2text.HTML2Text:
    h = _ThesisHTML2Text()
    h.ignore_links = True
    h.ignore_images = True
    h.ignore_tables = True
    h.ignore_emphasis = True
    h.ignore_mailto_links = True
    h.body_width = 0  # keep the page's own line structure, never re-wrap
    h.unicode_snob = True  # keep "ą", "—" as they are instead of ASCII look-alikes
    h.ul_item_mark = ""
    h.single_line_break = False
    return h


def preprocess_html(html: str) -> str:
    """Rewrite what html2text would lose for extraction (superscript minutes, ordered lists)."""
    if _SUP_OPEN_RE.search(html):
        html = _SUP_MINUTES_RE.sub(r":\2", html)
    return _OL_TAG_RE.sub(r"<\1ul", html)


class Conversion(NamedTuple):
    """A page's text, and how it was got when html2text could not convert the page as it is (counted by
    the callers as `msze/text/fallback`): a page is never left without its text because a parser choked."""

    text: str
    fallback: str | None = None  # None, FALLBACK_LXML or FALLBACK_TAGS
    error: str | None = None  # why html2text's own text was not used, one line


# html2text over lxml's re-serialisation of the page (lxml tokenizes as browsers do: `<![ if !IE ]>` is a
# comment, an unclosed <head> ends where the body starts), then, if even that fails, the page's tags stripped.
FALLBACK_LXML = "lxml"
FALLBACK_TAGS = "tags"
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")
_SPACES_RE = re.compile(r"[ \t\r\f\v\xa0]+")


def _html2text(html: str) -> str:
    text = _converter().handle(preprocess_html(html))
    text = text.replace("\xa0", " ")
    if "#" in text:  # most pages have no heading marks: spared a search of every line
        text = _HEADING_MARK_RE.sub("", text)
    # html2text leaves the list indentation plus the (empty) mark: "   Msza"; keep lines flush left.
    return "\n".join(line.strip() for line in text.splitlines()).strip() + "\n"


def _lxml_markup(html: str) -> str:
    """The page as lxml parses it, serialised again: markup html.parser can always tokenize."""
    parser = lxml.html.HTMLParser(encoding="utf-8")  # bytes in: an <?xml encoding=...?> prologue is fine
    doc = lxml.html.document_fromstring(html.encode("utf-8"), parser=parser)
    return lxml.html.tostring(doc, encoding="unicode")


def _stripped_text(html: str) -> str:
    """The last resort: every tag a space (w3lib), scripts, styles and comments dropped."""
    html = w3lib.html.remove_tags_with_content(w3lib.html.remove_comments(html), ("script", "style"))
    text = w3lib.html.replace_entities(w3lib.html.replace_tags(html, " "))
    lines = (_SPACES_RE.sub(" ", line).strip() for line in text.splitlines())
    return "\n".join(line for line in lines if line) + "\n"


def _fallback(html: str, error: str) -> Conversion:
    try:
        text = _html2text(_lxml_markup(html))
    except Exception:  # noqa: BLE001 - lxml finds no document (only a comment, say), or html2text fails again
        return Conversion(_stripped_text(html), FALLBACK_TAGS, error)
    if _lost_tail(text, html):  # lxml's parser gave up on the same markup
        return Conversion(_stripped_text(html), FALLBACK_TAGS, error)
    return Conversion(text, FALLBACK_LXML, error)


def convert_html(html: str) -> Conversion:
    """A page's HTML → the plain text every extractor works on; never raises, never loses the text.

    html.parser (under html2text) raises on markup it cannot tokenize (`<![ if !IE ]>`), and html2text drops
    everything after an unclosed <head>: then the text comes from a fallback, and the Conversion says so.
    Lone surrogates (from JSON escapes) become U+FFFD, so the text can always be written as UTF-8.
    """
    if not html:
        return Conversion("")
    html = _close_comment(replace_surrogates(html))
    try:
        text = _html2text(html)
    except Exception as exc:  # noqa: BLE001 - any parser error: the fallback below has the text
        return _fallback(html, f"html2text: {type(exc).__name__}: {_one_line(str(exc))}")
    if _lost_tail(text, html):  # "<![", an odd comment or quote: html.parser may swallow the rest
        return _fallback(html, "html2text lost the end of the page")
    if text.strip() or not _stripped_text(html).strip():
        return Conversion(text)
    rescued = _fallback(html, "html2text found no text in a page that has some")
    return rescued if rescued.text.strip() else Conversion(text)


_TAIL_CHARS = 4000  # the end of the HTML whose words must reach the text


def _lost_tail(text: str, html: str) -> bool:
    """Whether the last words of the page (its HTML's end, tags stripped) are missing from a conversion."""
    chunk = html[-_TAIL_CHARS:]
    closed = max(
        chunk.rfind("</script"), chunk.rfind("</style"), chunk.find(">") if len(html) > _TAIL_CHARS else -1
    )
    if closed >= 0:
        chunk = chunk[chunk.find(">", closed) + 1 :]
    tail = _stripped_text(chunk).split()[-3:]
    # a word of the text is in it, and so is that word stripped of Markdown marks: the one search decides
    return any(w.strip("*_#[]()") not in text for w in tail)


def _close_comment(html: str) -> str:
    """An opened comment that never closes ("<!--" with no "-->" after it) would hide the rest of the page:
    its opener is read as text instead."""
    opened = html.rfind("<!--")
    if opened < 0 or html.find("-->", opened + 4) >= 0:
        return html
    return html[:opened] + "&lt;!--" + html[opened + 4 :]


def replace_surrogates(text: str) -> str:
    """Lone surrogates (a JSON `\\ud83d` escape without its pair) → U+FFFD: text that encodes as UTF-8."""
    try:
        text.encode("utf-8")  # fails on a surrogate only, and is 4x faster than the search for one
    except UnicodeEncodeError:
        return _LONE_SURROGATE_RE.sub("\ufffd", text)
    return text


def cut_html(html: str, limit: int) -> str:
    """The first `limit` characters of a page, cut before the tag that starts last in them (never inside
    one, so no half tag reaches html2text)."""
    if len(html) <= limit:
        return html
    cut = html.rfind("<", 0, limit)
    return html[: cut if cut > 0 else limit]


def html_to_text(html: str) -> str:
    """Convert a page's HTML to the plain text every extractor works on (convert_html without the how)."""
    return convert_html(html).text


def _one_line(message: str, limit: int = 200) -> str:
    line = " ".join(message.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-]+)""", re.IGNORECASE)
# Polish pages that are not UTF-8 are nearly always Windows-1250 or ISO-8859-2.
FALLBACK_ENCODINGS = ("cp1250", "iso-8859-2")


def decode_bytes(data: bytes) -> tuple[str, str | None]:
    """Decode a stored page: UTF-8, else the charset its <meta> declares, else Windows-1250.

    Returns the text and a warning when bytes had to be replaced (mixed encodings), else None.
    """
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    m = _META_CHARSET_RE.search(data[:4096])
    declared = m.group(1).decode("ascii", "replace").lower() if m else ""
    if declared and declared.replace("-", "") not in ("utf8", "utf"):
        try:
            return data.decode(declared), None
        except (UnicodeDecodeError, LookupError):
            pass
    # Mostly UTF-8 with some lines in a legacy encoding (pasted text, templates joined by a CMS): decode line
    # by line so the UTF-8 lines stay right.
    lines = data.split(b"\n")
    good = sum(1 for line in lines if _is_utf8(line))
    if good * 2 >= len(lines):
        out = []
        legacy = 0
        for line in lines:
            if _is_utf8(line):
                out.append(line.decode("utf-8"))
            else:
                legacy += 1
                out.append(line.decode(FALLBACK_ENCODINGS[0], errors="replace"))
        return "\n".join(
            out
        ), f"mixed encodings: {legacy} of {len(lines)} lines decoded as {FALLBACK_ENCODINGS[0]}"
    for enc in FALLBACK_ENCODINGS:
        try:
            return data.decode(enc), None
        except UnicodeDecodeError:
            continue
    text = data.decode("utf-8", errors="replace")
    return text, f"{text.count(chr(0xFFFD))} undecodable bytes replaced"


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def looks_like_html(text: str) -> bool:
    """Whether stdin input is HTML (to convert) rather than already-converted text."""
    head = text[:2048].lstrip().lower()
    return head.startswith("<") or "<html" in head or "<body" in head or "<p>" in head or "<div" in head
