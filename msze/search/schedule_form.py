"""The verified-schedule form in the schedule's own terms: a row per Mass (day, time, church, season or dates,
vigil), per one-off Mass (date, time, church, note), per monthly Mass (week of the month, day, time, church,
season, note: "w pierwszy piątek miesiąca") and per confession (days, from, to, church).

Pure functions: the posted fields in, the schedule (verified.py's dict) and what is wrong out. A row whose
time is empty is no row (that is how one is removed); a row with a bad value is left out and named, so the
form comes back with every good row and a message per bad one.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from msze.search.calendar import season_bounds
from msze.search.db import DAYS, SEASON_LENGTH
from msze.search.loader.results import normalize_time, one_off_date
from msze.search.query import SEASON_LABELS
from msze.utils.vocabulary import MONTH_WEEKS, WEEK

MAX_ROWS = 600  # as many as a load keeps per parish (loader.results.MAX_ROWS_PER_PARISH)
BLANK_ROWS = 3  # empty rows the form offers for new Masses, one-offs, confessions
# the form's select of the week of the month ("pierwszy" … "ostatni")
WEEK_CHOICES = ((1, "pierwszy"), (2, "drugi"), (3, "trzeci"), (4, "czwarty"), (-1, "ostatni"))
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


class Form(Protocol):
    def get(self, key: str, default: str = "") -> str: ...
    def getlist(self, key: str) -> list[str]: ...


def _text(form: Mapping, key: str, limit: int) -> str | None:
    value = " ".join((form.get(key) or "").split())[:limit]
    return value or None


def _rows(form: Mapping, prefix: str, field: str) -> list[int]:
    found = set()
    for key in form:
        match = re.fullmatch(rf"{prefix}(0|[1-9]\d{{0,2}})_{field}", key)  # as the form writes them: "m12"
        if match and int(match.group(1)) < MAX_ROWS:
            found.add(int(match.group(1)))
    return sorted(found)


def _season(value: str | None) -> tuple[str | None, bool]:
    if not value:
        return None, True
    return value, value in SEASON_LABELS or season_bounds(value) is not None


def _mass(form: Mapping, i: int) -> tuple[dict | None, str | None]:
    raw = (form.get(f"m{i}_time") or "").strip()
    if not raw:
        return None, None
    time, day = normalize_time(raw), form.get(f"m{i}_day") or ""
    season, season_ok = _season(_text(form, f"m{i}_season", SEASON_LENGTH))
    dates = [_text(form, f"m{i}_{k}", 10) for k in ("start_date", "end_date")]
    if time is None or day not in DAYS:
        return None, f"Msza {i + 1}: podaj dzień i godzinę GG:MM (jest „{raw}”)."
    if not season_ok:
        return None, f"Msza {i + 1}: okres „{season}” to ani nazwa okresu, ani MM-DD..MM-DD."
    if any(d and not _DATE_RE.match(d) for d in dates) or any(d and one_off_date(d) is None for d in dates):
        return None, f"Msza {i + 1}: daty okresu w formacie RRRR-MM-DD."
    mass = {
        "day": day,
        "time": time,
        "church": _text(form, f"m{i}_church", 300),
        "season": season,
        "start_date": dates[0],
        "end_date": dates[1],
        "vigil": day == "sat" and form.get(f"m{i}_vigil") == "1",
    }
    return mass, None


def _monthly(form: Mapping, i: int) -> tuple[dict | None, str | None]:
    raw = (form.get(f"r{i}_time") or "").strip()
    if not raw:
        return None, None
    time, day, week = normalize_time(raw), form.get(f"r{i}_day") or "", form.get(f"r{i}_week") or ""
    season, season_ok = _season(_text(form, f"r{i}_season", SEASON_LENGTH))
    if time is None or day not in WEEK or week not in {str(w) for w in MONTH_WEEKS}:
        return None, f"Msza raz w miesiącu {i + 1}: tydzień miesiąca, dzień i godzina GG:MM (jest „{raw}”)."
    if not season_ok:
        return None, f"Msza raz w miesiącu {i + 1}: okres „{season}” to ani nazwa okresu, ani MM-DD..MM-DD."
    return {
        "week": int(week),
        "days": [day],
        "time": time,
        "church": _text(form, f"r{i}_church", 300),
        "season": season,
        "note": _text(form, f"r{i}_note", 500) or "",
    }, None


def _one_off(form: Mapping, i: int) -> tuple[dict | None, str | None]:
    raw = (form.get(f"o{i}_time") or "").strip()
    if not raw:
        return None, None
    time, written = normalize_time(raw), (form.get(f"o{i}_date") or "").strip()
    date = one_off_date(written) if written else None
    if time is None or (written and date is None):
        return (
            None,
            f"Msza okolicznościowa {i + 1}: data RRRR-MM-DD i godzina GG:MM (jest „{written} {raw}”).",
        )
    return {
        "date": date,
        "time": time,
        "church": _text(form, f"o{i}_church", 300),
        "note": _text(form, f"o{i}_note", 500) or "",
    }, None


def _confession(form: Form, i: int) -> tuple[dict | None, str | None]:
    raw = (form.get(f"c{i}_start") or "").strip()
    if not raw:
        return None, None
    start, end_raw = normalize_time(raw), (form.get(f"c{i}_end") or "").strip()
    end = normalize_time(end_raw) if end_raw else None
    days = [d for d in DAYS if d in form.getlist(f"c{i}_days")]
    if start is None or (end_raw and end is None):
        return None, f"Spowiedź {i + 1}: godziny GG:MM (jest „{raw}–{end_raw}”)."
    return {
        "days": days,
        "start": start,
        "end": end,
        "church": _text(form, f"c{i}_church", 300),
        "season": None,
    }, None


def parse(form: Form) -> tuple[dict, list[str]]:
    """The schedule the form describes, and a message per row left out."""
    schedule: dict = {"masses": [], "one_off": [], "monthly": [], "confession": []}
    problems: list[str] = []
    for key, prefix, field, read in (
        ("masses", "m", "time", _mass),
        ("one_off", "o", "time", _one_off),
        ("monthly", "r", "time", _monthly),
        ("confession", "c", "start", _confession),
    ):
        for i in _rows(form, prefix, field):
            item, problem = read(form, i)
            if item is not None:
                schedule[key].append(item)
            if problem:
                problems.append(problem)
    schedule["masses"].sort(key=lambda m: (DAYS.index(m["day"]), m["time"], m["church"] or ""))
    schedule["monthly"].sort(key=lambda m: (m["week"] < 0, m["week"], WEEK.index(m["days"][0]), m["time"]))
    return schedule, problems
