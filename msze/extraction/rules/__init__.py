"""The rule-based Mass extractor: very high precision, no training data needed.

Parish pages state their Mass schedule in a few recurring shapes:

* a schedule block: a header ("Msze święte", "Porządek Mszy św.", "Rozkład nabożeństw"), then day headings
  ("niedziele i święta", "dni powszednie", "w tygodniu", "od poniedziałku do soboty", "sobota") with the
  times;
* a day heading with a list of times and no header at all ("w niedzielę: 8.00, 10.00, 12.15");
* a sentence naming a Mass and its time ("Msza św. ... o godz. 18.00", "po Mszy o 8:00", "O godz. 11.00 msza
  św.");
* an intention list ("8:00 – + Jan Kowalski", "19:00 – Za Parafian").

Every hour gets a decision from the nearest *cue* — a word that says what happens at that time — within its
clause (the part of its line since the last sentence end): a Mass word makes it a Mass start; a word for
anything else (confession, rosary, adoration, devotions, office hours, meetings, ...) makes it not. A cue
right after the hour ("18.30 Nieszpory", "11:00 – uroczysta msza") wins when it is closer. With no cue in the
clause, the block the line sits in decides (the last header above it), and a day heading with a list of times
counts as a Mass schedule unless the block is about something else. Both ends of a range ("16:00-18:00", "od
15 do 17") and times after "do" / "od" are never Mass starts; neither is a bare number ("17") unless written
as an hour ("o godz. 17"). Seasonal variants and filial chapels in a schedule block are Mass times like the
rest.

Modules by concern: cues.py (the word lists and regexes: Mass cues, cues for anything else, negative cues),
days.py (day phrases and headings → day labels), lines.py (lines, clauses, prose), verdict.py (one hour's
verdict from its context), walk.py (decide(): the walk over the lines that carries the block state).
"""

from msze.extraction.rules.cues import MASS_CUE_RE, OTHER_CUE_RE
from msze.extraction.rules.days import HOLIDAY, SATURDAY, SUNDAY, WEEKDAY
from msze.extraction.rules.verdict import RuleDecision
from msze.extraction.rules.walk import decide, mass_times

__all__ = [
    "HOLIDAY",
    "MASS_CUE_RE",
    "OTHER_CUE_RE",
    "SATURDAY",
    "SUNDAY",
    "WEEKDAY",
    "RuleDecision",
    "decide",
    "mass_times",
]
