"""The thesis page filter: is this page likely to hold the Mass schedule? (URL suffix and link text.)

Without the filter the thesis's extractor found over 3 million hours on all parish pages; with it, 10 920.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

# Verbatim from the thesis (algorithm "Rozpoznawanie stron z godzinami mszy świętych"); case-insensitive.
OK_REGEX = re.compile(
    r"msze|nabo[żz]e[ńn]stw(a|(?=\W\d)|$)|porz[ąa]dek($|\.htm)|porz[aą]dek.(liturgi|mszy)"
    r"|(rozk[lł]ad|plan|godziny|uk[lł]ad|harmonogram|grafik|rozpiska).mszy",
    re.IGNORECASE,
)
BAD_REGEX = re.compile(
    r"nabo[zż]e[nń]stwa.(majowe|wielk|czerwcowe|maryjne|pasyjne|pokutne|fatimskie|do|ro[żz]a|czterdzie|w.wielk)",
    re.IGNORECASE,
)


def url_suffix(url: str) -> str:
    """The URL after its last '/', percent-decoded so that "porz%C4%85dek" reads "porządek"."""
    return unquote(url.rsplit("/", 1)[-1])


def _ok(value: str | None) -> bool:
    return bool(value) and OK_REGEX.search(value) is not None and BAD_REGEX.search(value) is None


def has_schedule_hint(url: str, button_text: str | None) -> bool:
    """Thesis rule: (url_suf ~ ok ∧ url_suf !~ bad) ∨ (btn_text ~ ok ∧ btn_text !~ bad)."""
    return _ok(url_suffix(url or "")) or _ok(button_text)
