"""The misses page's rows (msze.cli.misses)."""

from __future__ import annotations

from msze.cli.misses import site_misses

WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat"]


def _row(i: int) -> dict:
    """A diocesan row as join_diocesan gives it: no host, one page."""
    text = f"Msze św. w niedziele: 9:{i}0, 11:00\nMsze św. w dni powszednie: 18:00"
    return {
        "id": f"rows.tsv:{i}",
        "host": "",
        "pages": [{"url": f"rows.tsv:{i}", "text": text}],
        "masses": [
            {"days": ["sun"], "time": f"09:{i}0"},
            {"days": ["sun"], "time": "11:00"},
            {"days": WEEKDAYS, "time": "18:00"},
        ],
    }


def test_parishes_without_a_host_are_read_each_on_its_own():
    """Rows of one file share no site: the lines they all have are not a site template to skip."""
    assert site_misses([_row(i) for i in range(5)], None) == []
