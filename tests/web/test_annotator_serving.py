"""Serving order, never-twice, undo, cheater flagging: the annotator's core on a real SQLite database."""

from __future__ import annotations

import pytest
from annotator_pages import pages_jsonl
from sqlalchemy import func, insert, select

from msze.annotator import cheaters, identity, serving
from msze.annotator.db import assignments, devices, events, hours, make_engine, transaction, utcnow
from msze.annotator.importer import import_file

CFG = serving.ServingConfig(gold_fraction=0.0, min_gold=3, min_agreement=0.7, window_chars=300)


@pytest.fixture
def engine(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    import_file(engine, pages_jsonl(tmp_path / "pages.jsonl"))
    return engine


def new_device(engine, name: str = "d") -> int:
    with transaction(engine) as conn:
        now = utcnow()
        return conn.execute(
            insert(devices).values(
                token=identity.new_token(), fingerprint=name, ip="10.0.0.1", created_at=now, last_seen=now
            )
        ).inserted_primary_key[0]


def gold_ids(engine) -> set[int]:
    with transaction(engine) as conn:
        return set(conn.execute(select(hours.c.id).where(hours.c.gold_label.is_not(None))).scalars())


def current(engine, device, prefer_gold=False):
    with transaction(engine) as conn:
        return serving.current(conn, device, prefer_gold, CFG)


def answer(engine, device, hour_id, label, prefer_gold=False):
    with transaction(engine) as conn:
        return serving.answer(conn, device, hour_id, label, prefer_gold, CFG)


def undo(engine, device):
    with transaction(engine) as conn:
        return serving.undo(conn, device, CFG)


def n_answers(engine, hour_id):
    with transaction(engine) as conn:
        return conn.execute(select(hours.c.n_answers).where(hours.c.id == hour_id)).scalar_one()


def test_device_gets_every_hour_once_unlabelled_pool_first(engine):
    device = new_device(engine)
    gold = gold_ids(engine)
    served = []
    state = current(engine, device)
    while state["item"] is not None:
        served.append(state["item"]["id"])
        state = answer(engine, device, state["item"]["id"], "no")
    assert len(served) == 12 and len(set(served)) == 12  # all hours, none twice
    unlabelled = 12 - len(gold)  # gold only when nothing else is left
    assert set(served[:unlabelled]).isdisjoint(gold) and set(served[unlabelled:]) == gold
    assert state == {"item": None, "answered": 12, "can_undo": True}


def test_prefer_gold_serves_known_answers(engine):
    device = new_device(engine)
    assert current(engine, device, prefer_gold=True)["item"]["id"] in gold_ids(engine)


def gold_label(engine, hour_id: int) -> str | None:
    with transaction(engine) as conn:
        return conn.execute(select(hours.c.gold_label).where(hours.c.id == hour_id)).scalar_one()


def test_gold_comes_yes_and_no_in_turn(engine):
    """Every device meets both kinds of gold, so one answer to everything fails half of it."""
    device = new_device(engine)
    state, labels = current(engine, device, prefer_gold=True), []
    for _ in range(7):  # the pages have 4 "yes" and 3 "no" gold hours
        labels.append(gold_label(engine, state["item"]["id"]))
        state = answer(engine, device, state["item"]["id"], "yes", prefer_gold=True)
    assert labels == ["yes", "no", "yes", "no", "yes", "no", "yes"]
    assert gold_label(engine, state["item"]["id"]) is None  # gold used up: the unlabelled pool


def test_next_hour_is_least_served(engine):
    first, second = new_device(engine, "a"), new_device(engine, "b")
    seen_by_first = []
    state = current(engine, first)
    for _ in range(3):
        seen_by_first.append(state["item"]["id"])
        state = answer(engine, first, state["item"]["id"], "yes")
    pending_first = state["item"]["id"]
    # The second device starts on hours nobody has been served yet, not on the first device's hours.
    got = current(engine, second)["item"]["id"]
    assert got not in seen_by_first + [pending_first]
    with transaction(engine) as conn:
        served = dict(conn.execute(select(hours.c.id, hours.c.n_served)).all())
    assert served[got] == 1 and min(served.values()) == 0


def test_current_is_stable_until_answered(engine):
    device = new_device(engine)
    first = current(engine, device)["item"]["id"]
    assert current(engine, device)["item"]["id"] == first
    with transaction(engine) as conn:
        assert conn.execute(select(func.count()).select_from(assignments)).scalar_one() == 1


def test_undo_many_times_then_reanswer(engine):
    device = new_device(engine)
    state = current(engine, device)
    answered = []
    for label in ["yes", "no", "yes", "no"]:
        answered.append((state["item"]["id"], label))
        state = answer(engine, device, state["item"]["id"], label)
    fifth = state["item"]["id"]
    assert state["can_undo"]

    # Cofnij four times walks back h4, h3, h2, h1, each showing the answer it had.
    for hour_id, label in reversed(answered):
        state = undo(engine, device)
        assert state["item"]["id"] == hour_id
        assert state["item"]["previous_answer"] == label
        assert n_answers(engine, hour_id) == 0
    assert state["answered"] == 0 and not state["can_undo"]
    with pytest.raises(serving.NothingToUndo):
        undo(engine, device)
    assert current(engine, device)["item"]["id"] == answered[0][0]

    # Re-answering goes forward through the same hours, then on to the pending fifth one.
    for hour_id, _ in answered:
        state = answer(engine, device, hour_id, "yes")
    assert state["item"]["id"] == fifth and state["answered"] == 4
    for hour_id, _ in answered:
        assert n_answers(engine, hour_id) == 1
    with transaction(engine) as conn:
        answers = dict(
            conn.execute(
                select(assignments.c.hour_id, assignments.c.answer).where(assignments.c.answer.is_not(None))
            ).all()
        )
        clicks = conn.execute(select(func.count()).select_from(events)).scalar_one()
    assert answers == {hour_id: "yes" for hour_id, _ in answered}
    assert clicks == 4 + 4 + 4  # answers, undos, re-answers: the audit trail keeps all of them


def test_undo_in_the_middle_keeps_later_answers(engine):
    device = new_device(engine)
    state = current(engine, device)
    ids = []
    for _ in range(3):
        ids.append(state["item"]["id"])
        state = answer(engine, device, state["item"]["id"], "yes")
    undo(engine, device)
    undo(engine, device)  # now at ids[1]; ids[2] is pending again, ids[0] still answered
    state = answer(engine, device, ids[1], "no")
    assert state["item"]["id"] == ids[2]
    assert state["can_undo"] and state["answered"] == 2


def test_refused_answers(engine):
    first, second = new_device(engine, "a"), new_device(engine, "b")
    item = current(engine, first)["item"]["id"]
    with pytest.raises(serving.UnknownItem):
        answer(engine, first, 999_999, "yes")
    with pytest.raises(serving.NotServed):
        answer(engine, second, item, "yes")
    for bad_label in ["maybe", None, 1, "YES"]:
        with pytest.raises(serving.ServingError):
            answer(engine, first, item, bad_label)
    for bad_item in ["1", True, -1, 0, 1.0, None, [1], 2**70]:
        with pytest.raises(serving.ServingError):
            answer(engine, first, bad_item, "yes")
    answer(engine, first, item, "yes")
    with pytest.raises(serving.AlreadyAnswered):
        answer(engine, first, item, "no")
    assert n_answers(engine, item) == 1


def test_cheater_flagged_after_enough_wrong_gold_answers(engine):
    cheater, honest = new_device(engine, "c"), new_device(engine, "h")
    opposite = {"yes": "no", "no": "yes"}
    for device, wrong in [(cheater, True), (honest, False)]:
        state = current(engine, device, prefer_gold=True)
        for _ in range(3):
            right = gold_label(engine, state["item"]["id"])
            label = opposite[right] if wrong else right
            state = answer(engine, device, state["item"]["id"], label, prefer_gold=True)
    with transaction(engine) as conn:
        flags = dict(conn.execute(select(devices.c.id, devices.c.flagged)).all())
        counts = dict(conn.execute(select(devices.c.id, devices.c.gold_agree)).all())
    assert flags == {cheater: True, honest: False}
    assert counts == {cheater: 0, honest: 3}
    # Flags are sticky: undoing the wrong answers does not clear them; the answers themselves stay stored.
    undo(engine, cheater)
    with transaction(engine) as conn:
        assert conn.execute(select(devices.c.flagged).where(devices.c.id == cheater)).scalar_one()
        kept = conn.execute(
            select(func.count()).where(assignments.c.device_id == cheater, assignments.c.answer.is_not(None))
        ).scalar_one()
    assert kept == 2


def test_too_few_gold_answers_never_flag(engine):
    device = new_device(engine)
    state = current(engine, device, prefer_gold=True)
    for wrong in ["no", "yes"]:  # gold "yes", then gold "no": both wrong
        state = answer(engine, device, state["item"]["id"], wrong, prefer_gold=True)
    with transaction(engine) as conn:
        assert not conn.execute(select(devices.c.flagged).where(devices.c.id == device)).scalar_one()
        tally = cheaters.tallies(conn, [device])[device]
    assert (tally.gold, tally.agree) == (2, 0)


@pytest.mark.parametrize(
    ("gold", "agree", "flag"),
    [(0, 0, False), (4, 0, False), (5, 3, True), (5, 4, False), (10, 7, False), (10, 6, True)],
)
def test_is_cheater(gold, agree, flag):
    assert cheaters.is_cheater(gold, agree, min_gold=5, min_agreement=0.7) is flag


def test_text_window_cuts_at_whitespace():
    text = "Porządek Mszy świętych w parafii: niedziela 9:30 oraz 11:00 i wieczorem 18:00"
    start = text.index("9:30")
    fragment, hl_start, hl_end, cut_before, cut_after = serving.text_window(text, start, start + 4, 15)
    assert fragment[hl_start:hl_end] == "9:30"
    assert cut_before and cut_after
    assert fragment == "niedziela 9:30 oraz 11:00 i"  # no word cut in half
    whole = serving.text_window(text, start, start + 4, 1000)
    assert whole == (text, start, start + 4, False, False)


def test_identity_helpers():
    token = identity.new_token()
    assert identity.valid_token(token) and token != identity.new_token()
    assert (
        not identity.valid_token("")
        and not identity.valid_token("x' OR 1=1 --")
        and not identity.valid_token(None)
    )
    a = identity.fingerprint("UA", "pl", {"sw": 360, "sh": 640})
    assert a == identity.fingerprint("UA", "pl", {"sh": 640, "sw": 360})  # key order does not matter
    assert a != identity.fingerprint("UA", "pl", {"sw": 390, "sh": 844})
    assert a != identity.fingerprint("UA2", "pl", {"sw": 360, "sh": 640})
    assert identity.may_create_identity(1, 2) and not identity.may_create_identity(2, 2)
    assert identity.may_create_identity(100, 0)  # 0 = no limit


def test_always_tak_device_is_flagged_even_where_all_gold_is_yes(engine):
    """Without "no" gold (an `extract` import, an old database) the same-answer check still catches it."""
    with transaction(engine) as conn:
        conn.execute(hours.update().where(hours.c.gold_label == "no").values(gold_label=None))
    cfg = serving.ServingConfig(gold_fraction=0.0, min_gold=3, min_agreement=0.7, same_min_answers=6)
    clicker, honest = new_device(engine, "c"), new_device(engine, "h")
    for device, labels in [(clicker, ["yes"] * 6), (honest, ["yes", "yes", "yes", "yes", "no", "no"])]:
        with transaction(engine) as conn:
            state = serving.current(conn, device, True, cfg)
        for label in labels:
            with transaction(engine) as conn:
                state = serving.answer(conn, device, state["item"]["id"], label, True, cfg)
    with transaction(engine) as conn:
        flags = dict(conn.execute(select(devices.c.id, devices.c.flagged)).all())
        tally = cheaters.tallies(conn, [clicker])[clicker]
    assert (tally.gold, tally.agree) == (4, 4)  # perfect agreement with the rule gold ...
    assert flags == {clicker: True, honest: False}  # ... yet six Tak out of six is flagged


@pytest.mark.parametrize(
    ("answers", "yes", "flag"),
    [(49, 49, False), (50, 50, True), (50, 0, True), (50, 49, True), (50, 48, False), (100, 97, False)],
)
def test_is_constant_clicker(answers, yes, flag):
    assert cheaters.is_constant_clicker(answers, yes, min_answers=50, max_share=0.98) is flag
    assert not cheaters.is_constant_clicker(answers, yes, min_answers=0, max_share=0.98)  # 0 = off


def test_least_annotated_beats_merely_served(engine):
    """An hour served to an absent device (never answered) comes before an hour that already has an answer."""
    cfg = serving.ServingConfig(gold_fraction=0.0)
    devs = [new_device(engine, name) for name in "abc"]
    with transaction(engine) as conn:  # only two unlabelled hours left to choose from
        conn.execute(hours.update().where(hours.c.id > 6, hours.c.gold_label.is_(None)).values(n_answers=9))
    with transaction(engine) as conn:
        answered = serving.current(conn, devs[0], False, cfg)["item"]["id"]
        serving.answer(conn, devs[0], answered, "yes", False, cfg)  # devs[0] now also holds a pending hour
    with transaction(engine) as conn:
        pending = conn.execute(
            select(assignments.c.hour_id).where(
                assignments.c.device_id == devs[0], assignments.c.answer.is_(None)
            )
        ).scalar_one()
        assert serving.current(conn, devs[1], False, cfg)["item"]["id"] == pending  # 0 answers, 1 serving
    with transaction(engine) as conn:
        query = select(hours.c.id, hours.c.n_answers).where(hours.c.id.in_([answered, pending]))
        counts = dict(conn.execute(query).all())
    assert counts == {answered: 1, pending: 0}
