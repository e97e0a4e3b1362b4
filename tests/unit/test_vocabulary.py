"""The one vocabulary (msze/utils/vocabulary.py) against every side that emits or reads its names: the rules,
the labels, the results schema, the calendar, the parish page, the CSV export and the iCal feed. A name one
side has and another lacks fails here."""

from __future__ import annotations

import ast
import datetime as dt
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

import msze
from msze.batch import results
from msze.extraction.rules import reading
from msze.extraction.rules.days import DAY_ORDER, WEEK
from msze.search import calendar, query
from msze.utils import vocabulary
from msze.utils.vocabulary import DAYS, SEASONS, dated_season, monthly_label, season_range, season_spans

PACKAGE = Path(msze.__file__).parent
DATA = PACKAGE.parent / "data"
SCHEMA = json.loads((PACKAGE / "schemas" / "result.schema.json").read_text(encoding="utf-8"))


def _literals(node: ast.AST) -> list[str]:
    """The strings an expression is made of: a constant, a tuple's or set's, both sides of an if-else."""
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) else []
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [x for e in node.elts for x in _literals(e)]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []


def _season_values(node: ast.AST) -> list[str]:
    """The strings a node gives a season or compares one with: `season in ("summer", ...)`, the value of
    `r.season = ...`, and of a dict's "season" key."""
    if isinstance(node, ast.Compare) and "season" in ast.unparse(node).lower():
        return [x for v in (node.left, *node.comparators) for x in _literals(v)]
    if isinstance(node, ast.Assign) and any("season" in ast.unparse(t).lower() for t in node.targets):
        return _literals(node.value)
    if isinstance(node, ast.Dict):
        return [x for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant) and k.value == "season" for x in _literals(v)]  # fmt: skip
    return []


def _season_literals(path: Path) -> set[str]:
    """The strings a module gives a season or compares one with, and every "not-…" name: "not-summer" in
    `r.season = "not-summer"`, `season in ("summer", ...)`, `"not-summer" if ... else "not-holidays"`."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        found.update(_season_values(node))
        found.update(x for x in _literals(node) if re.fullmatch(r"not-[a-z]+(?:-[a-z]+)*", x))
    return found


def rules_seasons() -> set[str]:
    names = set(reading._SEASON_NAMES)
    for path in (PACKAGE / "extraction").rglob("*.py"):
        names |= _season_literals(path)
    return names


def label_seasons() -> set[str]:
    names: set[str] = set()
    for path in sorted(DATA.glob("*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            label = json.loads(line)
            for key in ("masses", "one_off", "confession"):
                names |= {m["season"] for m in label.get(key) or () if m.get("season")}
    return names


def test_every_season_the_rules_emit_is_in_the_vocabulary():
    emitted = rules_seasons()
    assert {"not-summer", "not-holidays", "summer", "holidays"} <= emitted  # the walk found them
    assert sorted(emitted - set(SEASONS)) == []


def test_every_season_the_labels_use_is_known():
    used = label_seasons()
    assert "not-summer" in used and any(".." in s for s in used)
    assert sorted(s for s in used if s not in SEASONS and season_spans(s) is None) == []


def test_every_season_has_its_labels_its_dates_and_passes_the_schema():
    validator = Draft202012Validator(SCHEMA["$defs"]["season"])
    year = [dt.date(2026, 1, 1) + dt.timedelta(days=n) for n in range(365)]
    for name, season in SEASONS.items():
        assert query.SEASON_LABELS[name] == season.label and query.season_label(name) == season.label
        assert results.season_label(name) == season.short
        assert validator.is_valid(name), name
        assert all(other in SEASONS for other in season.complement), name
        assert season.liturgical == (name in calendar.LITURGICAL), name
        held = sum(calendar.in_season(day, name) for day in year)
        if name == "pandemic":  # the schedules of 2020–2021: no day of a year to come
            assert held == 0
        else:  # every other season holds on some days and not on others
            assert 0 < held < 365, name


@pytest.mark.parametrize(
    ("season", "in_it", "not_in_it"),
    [
        ("not-holidays", dt.date(2026, 10, 4), dt.date(2026, 7, 12)),
        ("not-winter", dt.date(2026, 5, 10), dt.date(2026, 1, 11)),
        ("not-summer-winter", dt.date(2026, 10, 4), dt.date(2026, 8, 2)),
        ("not-lent-may-october", dt.date(2026, 6, 7), dt.date(2026, 5, 10)),
    ],
)
def test_a_not_season_holds_where_its_seasons_do_not(season, in_it, not_in_it):
    assert calendar.in_season(in_it, season) and not calendar.in_season(not_in_it, season)


def test_every_day_is_named_everywhere():
    schema_days = SCHEMA["$defs"]["days"]["items"]["enum"]
    assert list(DAYS) == schema_days and tuple(WEEK) == vocabulary.WEEK and set(DAY_ORDER) == set(DAYS)
    assert set(DAYS) <= set(query.DAY_LABELS) and set(WEEK) == set(vocabulary.BYDAY)
    assert set(results.CSV_DAY_COLUMNS) == {*DAYS, "unknown_day"}


def test_the_weeks_of_the_month_are_the_schemas():
    assert list(vocabulary.MONTH_WEEKS) == SCHEMA["$defs"]["month_week"]["enum"]
    page_schema = json.loads((PACKAGE / "schemas" / "page.schema.json").read_text(encoding="utf-8"))
    assert list(vocabulary.MONTH_WEEKS) == page_schema["$defs"]["month_week"]["enum"]
    assert set(reading._MONTH_WEEK.values()) <= set(vocabulary.MONTH_WEEKS)
    assert set(reading._DAY_STEM.values()) == set(WEEK)


def test_monthly_labels_agree_with_the_days_gender():
    assert monthly_label(1, ["fri"]) == "w pierwszy piątek miesiąca"
    assert monthly_label(1, ["sat"]) == "w pierwszą sobotę miesiąca"
    assert monthly_label(-1, ["sun"]) == "w ostatnią niedzielę miesiąca"
    assert monthly_label(3, ["wed"]) == "w trzecią środę miesiąca"
    assert monthly_label(1, ["thu", "fri", "sat"]) == "w pierwszy czwartek, piątek i sobotę miesiąca"
    assert all(monthly_label(w, [d]) for w in vocabulary.MONTH_WEEKS for d in WEEK)


def test_a_season_of_several_stretches_is_known_to_every_side():
    """ "V, VI, X, XII: 18:00" is one Mass held in three stretches of the year: the rules write it, the
    schema takes it, the calendar holds it on those days only, the parish page and the CSV show each."""
    season = reading.season_in("V, VI, X, XII: 18:00")
    assert season == "05-01..06-30,10-01..10-31,12-01..12-31"
    assert season_spans(season) == (((5, 1), (6, 30)), ((10, 1), (10, 31)), ((12, 1), (12, 31)))
    assert dated_season(season_spans(season)) == season and season_range(season) is None
    assert Draft202012Validator(SCHEMA["$defs"]["season"]).is_valid(season)
    assert not Draft202012Validator(SCHEMA["$defs"]["season"]).is_valid(season + ",")
    held = [m for m in range(1, 13) if calendar.in_season(dt.date(2026, m, 15), season)]
    assert held == [5, 6, 10, 12]
    assert query.season_label(season) == "od 01.05 do 30.06, od 01.10 do 31.10, od 01.12 do 31.12"
    assert results.season_label(season) == "01.05–30.06, 01.10–31.10, 01.12–31.12"
    assert calendar.season_bounds("05-01..06-30,02-30..03-31") is None  # one impossible bound: no dates
    assert not calendar.in_season(dt.date(2026, 5, 15), "05-01..06-30,02-30..03-31")
