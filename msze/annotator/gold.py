"""Known "no" answers from the rules, so that gold is not all "yes" and an always-Tak device fails it.

The rule extractor's Mass hours are gold "yes". The "no" side are hours the rules are certain are not a Mass
start: on a short line with no Mass word but a word for something else (office hours, confession, rosary,
devotions, meetings, ...), decided as a range end, a time after "od"/"do", or the time of that other thing:
"Kancelaria czynna we wtorki 16:00–17:30", "Biuro parafialne od 9:00 do 11:00", "Różaniec o 17:30". A line
naming a Mass anywhere is left out ("Spowiedź od 17:30 do Mszy wieczornej"), and so is a line naming an event
usually held during a Mass (confirmation, First Communion, a wedding, a broadcast, ...): volunteers are told
to answer Tak for a Mass start, and those lines may hide one.
"""

from __future__ import annotations

import re

from msze.extraction.hours import find_hours
from msze.extraction.rules import MASS_CUE_RE, OTHER_CUE_RE, decide

CERTAIN_REASONS = frozenset({"range", "from/to", "other cue before", "other cue after"})
MAX_LINE_CHARS = 200  # a longer line is prose, whose clauses the rules read less surely
# Events that usually take place during a Mass: their hour may well be a Mass start.
_DURING_MASS_RE = re.compile(
    r"\b(?:bierzmowan|komuni|ślub|chrzt|chrzest|chrzcin|pogrzeb|odpust|rekolekc|jubileusz|transmisj|"
    r"uroczyst|nabożeństwo\s+ekumeniczn)",
    re.IGNORECASE,
)


def certain_no(text: str, start: int, end: int, page_start: bool = True, page_end: bool = True) -> bool:
    """Whether the hour text[start:end] is one the rules are sure is not a Mass start (see the module doc).

    `page_start` / `page_end`: whether `text` begins / ends where the page does. When it does not (an hour's
    context from `msze extract` output), the hour's line must lie whole inside `text`, or it is not judged.
    """
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if (line_start == 0 and not page_start) or (line_end == -1 and not page_end):
        return False
    line = text[line_start : len(text) if line_end == -1 else line_end]
    if len(line) > MAX_LINE_CHARS or not OTHER_CUE_RE.search(line):
        return False
    if MASS_CUE_RE.search(line) or _DURING_MASS_RE.search(line):
        return False
    span = (start - line_start, end - line_start)
    hours = find_hours(line)
    for hour, decision in zip(hours, decide(line, hours), strict=True):
        if (hour.start, hour.end) == span:
            return not decision.is_mass and decision.reason in CERTAIN_REASONS
    return False
