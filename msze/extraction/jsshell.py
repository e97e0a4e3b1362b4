"""Is a page a JavaScript shell: HTML whose text only a script writes (page builders, React/Vue/Angular apps)?

The crawl fetches pages over plain HTTP; a shell gives a page without its text. `is_js_shell` says why a page
looks like one, so the parish spider renders only those pages in a browser (docs/crawling.md).
"""

from __future__ import annotations

import re

import w3lib.html

from msze.extraction.text import html_to_text

# Fewer characters of text than this (html2text's, whitespace removed) on a page with scripts: nothing to
# read without them. A parish page with a schedule has hundreds; a shell has a title and a cookie notice.
MIN_TEXT_CHARS = 200
# A page of a site builder or an app framework with fewer characters than this is taken as a shell; above it
# the builder's server wrote the text itself (Wix and Squarespace often do), so the page is read as it is.
MAX_BUILDER_TEXT_CHARS = 1000

_SCRIPT_RE = re.compile(r"<script\b", re.IGNORECASE)
# (reason, marker) in the order they are checked: builders by their own names, then framework roots.
_MARKERS = (
    ("wix", re.compile(r"_wixCssImports|\bwix-(?:bolt|code|thunderbolt|image|warmup)|wixstatic\.com", re.I)),
    ("squarespace", re.compile(r"static1\.squarespace\.com|SQUARESPACE_CONTEXT|squarespace-cdn", re.I)),
    ("webflow", re.compile(r"\bdata-wf-(?:page|site)\b|assets\.website-files\.com|webflow\.js", re.I)),
    (
        "app_root",
        re.compile(
            r"<(?:div|main)\b[^>]*\bid\s*=\s*[\"']?(?:root|app|__next|__nuxt|q-app)[\"']?[^>]*>\s*</(?:div|main)>"
            r"|<app-root\b[^>]*>\s*</app-root>|\bng-app\b|\bng-version\b",
            re.I,
        ),
    ),
    (
        "noscript",
        re.compile(
            r"<noscript\b[^>]*>[^<]*(?:<[^/][^>]*>[^<]*)*?"
            r"(?:enable\s+javascript|javascript\s+(?:is\s+)?(?:required|disabled)|w[łl][ąa]cz\s+(?:obs[łl]ug[ęe]\s+)?javascript)",
            re.I,
        ),
    ),
)


def _text_chars(text: str) -> int:
    return len("".join(text.split()))


def is_js_shell(html: str) -> str | None:
    """Why `html` is a page whose text a script writes ("wix", "squarespace", "webflow", "app_root",
    "noscript" or "no_text"), or None when it can be read as it is (or has no script to write anything)."""
    if not html or not _SCRIPT_RE.search(html):
        return None
    # the tags stripped (cheap) first: a page with plenty of words is not a shell, html2text is not run on it
    stripped = w3lib.html.remove_tags_with_content(html, ("script", "style", "noscript", "template"))
    if _text_chars(w3lib.html.remove_tags(stripped)) > 4 * MAX_BUILDER_TEXT_CHARS:
        return None
    chars = _text_chars(html_to_text(stripped))
    if chars > MAX_BUILDER_TEXT_CHARS:
        return None
    for reason, marker in _MARKERS:
        if marker.search(html):
            return reason
    return "no_text" if chars < MIN_TEXT_CHARS else None
