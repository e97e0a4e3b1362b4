"""Importing hour candidates: PageItem JSONL and `msze extract` output, idempotent, bad input counted."""

from __future__ import annotations

import json

from annotator_pages import (
    NEWS_HOURS,
    NEWS_TEXT,
    NEWS_URL,
    SCHEDULE_HOURS,
    SCHEDULE_TEXT,
    SCHEDULE_URL,
    extract_line,
    page_item,
    pages_jsonl,
    write_jsonl,
)
from sqlalchemy import event, func, insert, select

from msze.annotator import serving
from msze.annotator.db import devices, documents, hours, make_engine, transaction, utcnow
from msze.annotator.importer import candidate_key, import_file, import_lines
from msze.cli import main


def count(engine, table, *where) -> int:
    with transaction(engine) as conn:
        return conn.execute(select(func.count()).select_from(table).where(*where)).scalar_one()


def test_import_page_items_marks_rule_hours_gold(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    stats = import_file(engine, pages_jsonl(tmp_path / "pages.jsonl"))
    assert (stats.lines, stats.candidates, stats.added, stats.existing, stats.gold_added) == (2, 12, 12, 0, 7)
    assert stats.bad_lines == stats.invalid_hours == 0 and stats.messages == []
    assert count(engine, hours) == 12 and count(engine, documents) == 2
    with transaction(engine) as conn:
        gold = conn.execute(
            select(hours.c.hour_text, hours.c.gold_label, hours.c.gold_origin).where(
                hours.c.gold_label == "yes"
            )
        ).all()
        texts = conn.execute(select(documents.c.source, documents.c.text)).all()
    assert sorted(g.hour_text for g in gold) == ["11:00", "18:00", "7:00", "9:30"]
    assert {(g.gold_label, g.gold_origin) for g in gold} == {("yes", "rules")}
    assert dict(texts) == {SCHEDULE_URL: SCHEDULE_TEXT, NEWS_URL: NEWS_TEXT}


def test_reimport_adds_only_new_candidates(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    path = pages_jsonl(tmp_path / "pages.jsonl")
    import_file(engine, path)
    again = import_file(engine, path)
    assert (again.added, again.existing, again.gold_added) == (0, 12, 0)
    # A re-crawl where the news page gained a line: hours whose context changed are new candidates.
    edited = NEWS_TEXT.replace("Ogłoszenia duszpasterskie", "Ogłoszenia duszpasterskie (aktualne)")
    recrawl = write_jsonl(
        tmp_path / "recrawl.jsonl",
        [page_item(SCHEDULE_URL, SCHEDULE_TEXT, SCHEDULE_HOURS), page_item(NEWS_URL, edited, NEWS_HOURS)],
    )
    third = import_file(engine, recrawl)
    assert third.existing == 8  # the schedule page is unchanged
    assert third.added == 4  # every news hour moved
    assert count(engine, hours) == 16 and count(engine, documents) == 2


def test_candidate_key_depends_on_page_span_and_context():
    key = candidate_key("u", 1, 5, "ctx")
    assert key == candidate_key("u", 1, 5, "ctx")
    assert (
        len(
            {
                key,
                candidate_key("v", 1, 5, "ctx"),
                candidate_key("u", 2, 5, "ctx"),
                candidate_key("u", 1, 5, "c"),
            }
        )
        == 4
    )


def test_extract_output_without_page_text_shows_context(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    path = write_jsonl(tmp_path / "extract.jsonl", [extract_line("strony/mb.html", NEWS_TEXT, NEWS_HOURS)])
    stats = import_file(engine, path)
    assert (stats.added, stats.gold_added) == (4, 0)
    with transaction(engine) as conn:
        assert conn.execute(select(documents.c.source, documents.c.text)).one() == ("strony/mb.html", None)
        now = utcnow()
        device = conn.execute(
            insert(devices).values(
                token="t" * 40, fingerprint="f", ip="10.0.0.1", created_at=now, last_seen=now
            )
        ).inserted_primary_key[0]
        state = serving.current(conn, device, False, serving.ServingConfig())
    item = state["item"]
    assert item["hour"] == "18.oo"
    assert item["before"].endswith("Msza św. o ") and item["after"].startswith(" zostaje odwołana")
    assert item["source"] is None  # a file's path is the server's business, not the volunteer's


def test_bad_lines_and_hours_are_counted_and_skipped(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    good = page_item(SCHEDULE_URL, SCHEDULE_TEXT, SCHEDULE_HOURS[:2])
    shifted = dict(good["hours"][0], start=good["hours"][0]["start"] + 1, end=good["hours"][0]["end"] + 1)
    outside = dict(good["hours"][0], context_start=10_000)
    bad_time = dict(good["hours"][1], time="25:00")
    mixed = dict(good, hours=[*good["hours"], shifted, outside, bad_time, "7:00", {"start": "1"}])
    lines = [
        json.dumps(mixed, ensure_ascii=False),
        "{not json",
        json.dumps({"url": "https://x.example.pl/"}),  # no hours
        json.dumps([1, 2]),
        "",
    ]
    stats = import_lines(engine, lines, "mixed.jsonl")
    assert (stats.lines, stats.bad_lines, stats.candidates, stats.invalid_hours, stats.added) == (
        4,
        3,
        2,
        5,
        2,
    )
    assert any(m.startswith("mixed.jsonl:2: not JSON") for m in stats.messages)
    assert any("outside its context" in m for m in stats.messages)
    assert any("'25:00' is not HH:MM" in m for m in stats.messages)
    assert count(engine, hours) == 2


def test_midnight_mass_24_00_is_a_valid_time(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    text = "Pasterka w noc Bożego Narodzenia o 24:00, w dzień Msze św. jak w niedziele."
    line = page_item("https://parafia.example.pl/swieta", text, [("24:00", 0, "mass", "rules")])
    line["hours"][0]["time"] = "24:00"
    stats = import_lines(engine, [json.dumps(line, ensure_ascii=False)])
    assert (stats.added, stats.invalid_hours, stats.gold_added) == (1, 0, 1)


def test_cli_import_prints_summary(tmp_path, capsys):
    path = pages_jsonl(tmp_path / "pages.jsonl")
    db = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    assert main(["annotator", "import", "--db", db, str(path)]) == 0
    assert main(["annotator", "import", "--db", db, str(path), str(tmp_path / "missing.jsonl")]) == 1
    out, err = capsys.readouterr()
    assert "added=12 existing=0 gold_added=7" in out
    assert "added=0 existing=12" in out
    assert "missing.jsonl: no such file" in err


def test_a_pages_hours_go_in_with_a_fixed_number_of_statements(tmp_path):
    """No statement per hour: a page with 8 hours costs what one with 2 costs (a gold "yes" and a gold "no"),
    whether its hours are new or re-imported."""
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    statements: list[str] = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))

    def cost(spec, url: str) -> tuple[int, int]:
        line = json.dumps(page_item(url, SCHEDULE_TEXT, spec), ensure_ascii=False)
        counts = []
        for _ in range(2):  # new, then every hour already known (rule gold looked at again)
            statements.clear()
            import_lines(engine, [line])
            counts.append(len(statements))
        return counts[0], counts[1]

    two = [SCHEDULE_HOURS[0], SCHEDULE_HOURS[6]]  # 7:00 (the rules' Mass), 16:00 (office hours)
    assert cost(two, "https://a.example.pl/") == cost(SCHEDULE_HOURS, "https://b.example.pl/")
    assert count(engine, hours) == 10
