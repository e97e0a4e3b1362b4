"""Gold "no" answers from the rules: office hours, ranges, devotions on lines without a Mass; nothing else."""

from __future__ import annotations

import pytest
from annotator_pages import NEWS_TEXT, SCHEDULE_TEXT, extract_line, pages_jsonl, write_jsonl
from sqlalchemy import select, update

from msze.annotator.db import hours, make_engine, transaction
from msze.annotator.gold import certain_no
from msze.annotator.importer import import_file
from msze.cli import main


def _certain(line: str, hour: str, nth: int = 0) -> bool:
    start = -1
    for _ in range(nth + 1):
        start = line.index(hour, start + 1)
    return certain_no(f"Parafia św. Jana\n{line}\nZapraszamy", start + 17, start + 17 + len(hour))


@pytest.mark.parametrize(
    ("line", "hour", "nth", "expected"),
    [
        ("Kancelaria parafialna czynna we wtorki 16:00–17:30.", "16:00", 0, True),
        ("Kancelaria parafialna czynna we wtorki 16:00–17:30.", "17:30", 0, True),
        ("kancelaria czynna 9:00–11:00", "9:00", 0, True),
        ("Biuro parafialne otwarte od 9:00 do 11:00", "9:00", 0, True),
        ("Różaniec w październiku codziennie o 17:30", "17:30", 0, True),
        ("Próba scholi w środę o 19:00 w salce", "19:00", 0, True),
        ("Adoracja Najświętszego Sakramentu: 15:00 – 18:00", "18:00", 0, True),
        ("Zapraszamy na festyn o 15:00 w ogrodzie", "15:00", 0, True),  # a parish event the rules know
        # A Mass on the line: the rules may be right, but not certain enough to judge volunteers by.
        ("Różaniec o 17:30, po nim Msza św. o 18:00", "17:30", 0, False),
        ("Spowiedź św. codziennie od 17:30 do rozpoczęcia Mszy wieczornej.", "17:30", 0, False),
        # Events usually held during a Mass.
        ("Bierzmowanie w sobotę o 18:00, próba w piątek o 19:00", "18:00", 0, False),
        ("Transmisja radiowa o 9:00, zaprasza chór", "9:00", 0, False),
        # No word for something else: a schedule written with dashes, an event the rules do not know.
        ("Niedziela: 7:00 - 9:00 - 11:00", "9:00", 0, False),
        ("Zapraszamy na ognisko o 15:00 w ogrodzie", "15:00", 0, False),
        # Prose.
        (
            "Spotkanie o 19:00. " + "Bardzo prosimy o liczne przybycie wszystkich chętnych parafian. " * 4,
            "19:00",
            0,
            False,
        ),
    ],
)
def test_certain_no(line, hour, nth, expected):
    assert _certain(line, hour, nth) is expected


def test_a_context_judges_only_whole_lines():
    text = "Kancelaria czynna we wtorki 16:00–17:30.\nW niedzielę Msze o 8:00"
    start = text.index("16:00")
    assert certain_no(text, start, start + 5)  # the whole page
    assert certain_no(text, start, start + 5, page_start=True, page_end=False)  # the line ends in the text
    assert not certain_no(text, start, start + 5, page_start=False, page_end=False)  # may be cut on the left
    last = "Kancelaria czynna we wtorki 16:00–17:30"
    assert not certain_no(last, 28, 33, page_start=True, page_end=False)  # may be cut on the right


def test_import_marks_certain_non_masses_gold_no(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    stats = import_file(engine, pages_jsonl(tmp_path / "pages.jsonl"))
    assert stats.gold_added == 7
    with transaction(engine) as conn:
        gold = conn.execute(
            select(hours.c.hour_text, hours.c.context, hours.c.gold_label, hours.c.gold_origin)
            .where(hours.c.gold_label == "no")
            .order_by(hours.c.id)
        ).all()
    assert [(g.hour_text, g.gold_origin) for g in gold] == [
        ("16:00", "rules"),
        ("17:30", "rules"),
        ("19:00", "rules"),
    ]
    assert "Kancelaria" in gold[0].context and "Nabożeństwo majowe" in gold[2].context
    # The news page's 17:30 ("Różaniec o 17:30, po nim Msza św. o 8:15") is not gold: a Mass is on its line.
    assert "Różaniec o 17:30" in NEWS_TEXT and "Kancelaria parafialna czynna" in SCHEDULE_TEXT


def test_extract_output_gets_gold_no_from_whole_context_lines(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    spec = [("16:00", 0, "other", "rules"), ("17:30", 0, "other", "rules")]
    stats = import_file(
        engine, write_jsonl(tmp_path / "x.jsonl", [extract_line("p.html", SCHEDULE_TEXT, spec)])
    )
    assert stats.added == 2
    with transaction(engine) as conn:
        got = dict(conn.execute(select(hours.c.hour_text, hours.c.gold_label)).all())
    # 40 characters of context each side: 16:00's holds its whole line (from the line break before
    # "Kancelaria" to the one after "17:30."); 17:30's starts mid-line, so it is not judged.
    assert got == {"16:00": "no", "17:30": None}


def test_reimport_gives_rule_gold_to_old_hours_but_not_over_an_admin(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    path = pages_jsonl(tmp_path / "pages.jsonl")
    import_file(engine, path)
    with transaction(engine) as conn:  # as imported before gold "no" existed; and an admin cleared 19:00
        conn.execute(
            update(hours).where(hours.c.gold_label == "no").values(gold_label=None, gold_origin=None)
        )
        h1900 = conn.execute(select(hours.c.id).where(hours.c.hour_text == "19:00")).scalar_one()
    db = str(engine.url)
    assert main(["annotator", "gold", "--db", db, str(h1900), "clear"]) == 0
    again = import_file(engine, path)
    assert (again.added, again.existing, again.gold_added) == (0, 12, 2)
    with transaction(engine) as conn:
        query = select(hours.c.hour_text, hours.c.gold_label).where(hours.c.document_id == 1)
        got = dict(conn.execute(query).all())
        cleared = conn.execute(
            select(hours.c.gold_label, hours.c.gold_origin).where(hours.c.id == h1900)
        ).one()
    assert got["16:00"] == got["17:30"] == "no"
    assert tuple(cleared) == (None, "admin")
    assert import_file(engine, path).gold_added == 0
