"""Export (TSV, fastText lines with the classifier's features), stats, and the admin CLI (gold, unflag)."""

from __future__ import annotations

import csv
import io

import pytest
from annotator_pages import SCHEDULE_TEXT, SCHEDULE_URL, pages_jsonl
from sqlalchemy import insert, select

from msze.annotator import export, identity, serving
from msze.annotator.db import assignments, devices, hours, make_engine, transaction, utcnow
from msze.annotator.importer import import_file
from msze.classifier.features import hour_features
from msze.cli import main

CFG = serving.ServingConfig(gold_fraction=0.0, min_gold=2, min_agreement=0.7)


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    import_file(engine, pages_jsonl(tmp_path / "pages.jsonl"))
    return engine


def hour_id(engine, text: str, nth: int = 0) -> int:
    with transaction(engine) as conn:
        return (
            conn.execute(select(hours.c.id).where(hours.c.hour_text == text).order_by(hours.c.id))
            .scalars()
            .all()[nth]
        )


def label(engine, answers: dict[int, str]) -> int:
    """A new device answers exactly `answers` ({hour id: yes|no}) by serving them in turn; returns its id."""
    with transaction(engine) as conn:
        now = utcnow()
        device = conn.execute(
            insert(devices).values(
                token=identity.new_token(),
                fingerprint=identity.new_token(),  # a browser of its own: not linked to the others
                ip="1",
                created_at=now,
                last_seen=now,
            )
        ).inserted_primary_key[0]
    with transaction(engine) as conn:  # serve exactly these hours, in this order
        for hid in answers:
            conn.execute(insert(assignments).values(device_id=device, hour_id=hid, served_at=utcnow()))
    for hid, answer in answers.items():
        with transaction(engine) as conn:
            serving.answer(conn, device, hid, answer, False, CFG)
    return device


def labelled(engine):
    """9:30 (gold): 2 yes; weekday 7:00: 1 yes 2 no; weekday 18:00: 1 yes 1 no (tie); a cheater: no to 2 gold.

    The weekday hours (the schedule's second 7:00 and 18:00) are not gold: the classifier labelled them.
    """
    h930, h700b, h1800b, h700 = (
        hour_id(engine, "9:30"),
        hour_id(engine, "7:00", 1),
        hour_id(engine, "18:00", 1),
        hour_id(engine, "7:00"),
    )
    label(engine, {h930: "yes", h700b: "no", h1800b: "yes"})
    label(engine, {h930: "yes", h700b: "no", h1800b: "no"})
    label(engine, {h700b: "yes"})
    cheater = label(engine, {h930: "no", h700: "no", h700b: "yes", h1800b: "yes"})
    return {"9:30": h930, "7:00b": h700b, "18:00b": h1800b, "7:00": h700, "cheater": cheater}


def test_flagged_device_is_excluded_but_kept(engine):
    ids = labelled(engine)
    with transaction(engine) as conn:
        assert conn.execute(select(devices.c.flagged).where(devices.c.id == ids["cheater"])).scalar_one()
        rows = {r.id: r for r in export.label_rows(conn)}
        stats = export.stats(conn)
    assert set(rows) == {ids["9:30"], ids["7:00b"], ids["18:00b"]}  # the cheater's 7:00 answer is not counted
    assert (rows[ids["9:30"]].yes, rows[ids["9:30"]].no, rows[ids["9:30"]].label) == (2, 0, "mass")
    assert (rows[ids["7:00b"]].yes, rows[ids["7:00b"]].no, rows[ids["7:00b"]].label) == (1, 2, "other")
    assert (rows[ids["18:00b"]].yes, rows[ids["18:00b"]].no, rows[ids["18:00b"]].label) == (1, 1, "")
    assert stats["answers"] == 7 and stats["answers_all_devices"] == 11
    assert stats["devices"] == 4 and stats["devices_answering"] == 3 and stats["devices_flagged"] == 1
    assert stats["labelled_hours"] == 3 and stats["labelled_mass"] == 1 and stats["labelled_tie"] == 1
    # pairs: 9:30 1 of 1 agree, weekday 7:00 1 of 3, weekday 18:00 0 of 1
    assert stats["pairwise_agreement"] == pytest.approx(2 / 5)
    assert stats["gold_answers"] == 4 and stats["gold_agreement"] == pytest.approx(2 / 4)


def test_tsv_export(engine):
    ids = labelled(engine)
    out = io.StringIO()
    with transaction(engine) as conn:
        assert export.write_tsv(export.label_rows(conn), out) == 3
        assert export.write_tsv(export.label_rows(conn, min_votes=3), io.StringIO()) == 1
    rows = list(csv.reader(io.StringIO(out.getvalue()), delimiter="\t"))
    assert rows[0] == ["id", "url", "time", "hour_text", "hour_start", "context", "yes", "no", "label"]
    first = rows[1]
    assert first[:4] == [str(ids["9:30"]), SCHEDULE_URL, "09:30", "9:30"]
    assert "\n" not in first[5] and "Niedziele i święta: 7:00, 9:30" in first[5]
    for row in rows[1:]:  # the offset points at the hour inside the one-line context
        assert row[5][int(row[4]) : int(row[4]) + len(row[3])] == row[3]
    assert [r[6:] for r in rows[1:]] == [["2", "0", "mass"], ["1", "2", "other"], ["1", "1", ""]]


def test_tsv_is_read_back_by_the_dataset_builder(engine, tmp_path):
    from msze.classifier.dataset import from_annotator_tsv

    labelled(engine)
    out = io.StringIO()
    with transaction(engine) as conn:
        export.write_tsv(export.label_rows(conn), out)
    examples, skipped = from_annotator_tsv(csv.DictReader(io.StringIO(out.getvalue()), delimiter="\t"))
    assert len(examples) == 2 and skipped == 1  # the tie has no label


def test_tsv_context_keeps_offsets():
    context = "Msze:\tniedziela\r\n9:30\u2028i\x0c11:00"
    flat = export.tsv_context(context)
    assert len(flat) == len(context) and flat.splitlines() == [flat] and "\t" not in flat


def test_fasttext_export_uses_issue6_features_on_page_text(engine):
    labelled(engine)
    out = io.StringIO()
    with transaction(engine) as conn:
        assert export.write_fasttext(export.label_rows(conn), out) == 2  # the tie is left out
    lines = out.getvalue().splitlines()
    start = SCHEDULE_TEXT.index("9:30")
    assert lines[0] == "__label__mass " + hour_features(SCHEDULE_TEXT, start, start + 4)
    start = SCHEDULE_TEXT.index("7:00", SCHEDULE_TEXT.index("Dni powszednie"))
    assert lines[1] == "__label__other " + hour_features(SCHEDULE_TEXT, start, start + 4)


def test_fasttext_line_falls_back_to_context():
    row = export.LabelRow(
        id=1,
        url="p",
        time="18:00",
        hour_text="18:00",
        context="Msza św. o 18:00 w kaplicy",
        start=111,
        end=116,
        context_start=100,
        page_text=None,
        yes=1,
        no=0,
    )
    seen = []
    line = export.fasttext_line(row, lambda text, s, e: seen.append(text[s:e]) or "feats")
    assert line == "__label__mass feats" and seen == ["18:00"]


def test_pairwise_agreement():
    assert export.pairwise_agreement([]) is None
    assert export.pairwise_agreement([(1, 0)]) is None  # one answer: no pair
    assert export.pairwise_agreement([(3, 0), (1, 1)]) == pytest.approx(3 / 4)


def test_cli_export_stats_gold_unflag(engine, tmp_path, capsys):
    ids = labelled(engine)
    db = str(engine.url)
    tsv, ft = tmp_path / "labels.tsv", tmp_path / "train.txt"
    assert main(["annotator", "export", "--db", db, "--tsv", str(tsv), "--fasttext", str(ft)]) == 0
    assert len(tsv.read_text(encoding="utf-8").splitlines()) == 4 and len(ft.read_text().splitlines()) == 2
    assert main(["annotator", "stats", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "labelled_hours\t3" in out and "devices_flagged\t1" in out
    # An admin says weekday 7:00 is not a Mass: the third device (yes to it, its only gold answer) is not
    # judged yet.
    assert main(["annotator", "gold", "--db", db, str(ids["7:00b"]), "no"]) == 0
    with transaction(engine) as conn:
        gold = conn.execute(
            select(hours.c.gold_label, hours.c.gold_origin).where(hours.c.id == ids["7:00b"])
        ).one()
    assert tuple(gold) == ("no", "admin")
    assert main(["annotator", "gold", "--db", db, "999999", "yes"]) == 1
    assert main(["annotator", "unflag", "--db", db, str(ids["cheater"])]) == 0
    with transaction(engine) as conn:
        assert not conn.execute(select(devices.c.flagged).where(devices.c.id == ids["cheater"])).scalar_one()
        assert len(list(export.label_rows(conn))) == 4  # the cheater's 7:00 answer counts again
    assert main(["annotator", "export", "--db", db]) == 2
