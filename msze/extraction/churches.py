"""Where a parish's other churches stand: the address a site writes beside a chapel's name.

A parish's Masses are often said in several churches ("Kaplica w Borkach: 9:30"), kilometres apart. When the
site gives the chapel its own address, on the line naming it or just below ("Kaplica w Borkach / ul. Leśna 5,
62-010 Borki"), that address is what the places lookup turns into the chapel's coordinates; without one the
chapel stands where the parish does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from msze.extraction.rules.reading import CHURCH_WORD_RE

# "ul. Leśna 5", "al. Jana Pawła II 12a", "ul. 3 Maja 5", "pl. Kościelny 1/3", "os. Słoneczne 4"; not the
# "pl." ending a web address ("www.parafia.pl. Msza 9")
_STREET_RE = re.compile(
    r"(?<![\w.])(?:ul\.|ulica|al\.|aleja|pl\.|plac|os\.|osiedle)[ \t]*"
    r"(?:\d{1,2}[ \t]+)?[^\W\d][^\n,;:()]{0,40}?[ \t]\d{1,4}[a-zA-Z]?(?:/\d{1,4})?\b",
    re.IGNORECASE,
)
_POSTAL_RE = re.compile(r"\b\d{2}-\d{3}[ \t]+[^\W\d][\w-]*(?:[ \t][^\W\d][\w-]*)?")
LINES_BELOW = 3  # lines after the name where its address may stand


def address_in(lines: list[str]) -> str | None:
    """The first street address in these lines, with the postal code and town that follow it."""
    for i, line in enumerate(lines):
        street = _STREET_RE.search(line)
        if street is None:
            continue
        after = line[street.end() :] + "\n" + "\n".join(lines[i + 1 : i + 2])
        postal = _POSTAL_RE.search(after)
        near = postal is not None and not after[: postal.start()].strip(" ,\t\n")
        return street.group(0) + (", " + postal.group(0) if near else "")
    return None


def church_address(text: str, church: str) -> str | None:
    """The address written beside `church` in a page's text: on a line naming it, or the few lines below
    before another church is named; None when the page gives none."""
    lines = text.splitlines()
    name = re.compile(re.escape(church), re.IGNORECASE)
    for i, line in enumerate(lines):
        named = name.search(line)
        if named is None:
            continue
        below = [line[named.end() :]]
        for nxt in lines[i + 1 : i + 1 + LINES_BELOW]:
            if CHURCH_WORD_RE.search(nxt):
                break
            below.append(nxt)
        found = address_in(below)
        if found:
            return found
    return None


def church_addresses(pages: Iterable[Mapping[str, Any]], churches: Iterable[str]) -> list[dict[str, str]]:
    """[{name, address, url}] for the named churches some page gives an address for, first page first."""
    pages = list(pages)
    found = []
    for church in sorted(set(churches)):
        for page in pages:
            address = church_address(page.get("text") or "", church)
            if address:
                found.append({"name": church, "address": address, "url": page.get("url") or ""})
                break
    return found
