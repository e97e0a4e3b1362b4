"""Cheater detection end to end: a 95 %-Tak device, a cheater rotating identities, honest annotators.

Simulated through the Flask app (cookies, CSRF, the app's default thresholds and gold share) on generated
parish pages with both kinds of gold; plus the judging rules one by one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest
from annotator_pages import Device, parish_pages_jsonl
from sqlalchemy import insert, select

from msze.annotator import cheaters, identity, serving
from msze.annotator.app import create_app
from msze.annotator.db import devices, hours, make_engine, transaction, utcnow
from msze.annotator.importer import import_file
from msze.cli import main

PHONE = {"sw": 393, "sh": 873, "dpr": 2.75, "tz": "Europe/Warsaw", "langs": "pl-PL,pl", "touch": 5}


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "ANNOTATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}",
            "ANNOTATOR_RANDOM_SEED": 11,
            "SECRET_KEY": "test",
        },
        instance_path=str(tmp_path / "instance"),
    )
    stats = import_file(app.extensions["msze_annotator_engine"], parish_pages_jsonl(tmp_path / "p.jsonl", 40))
    assert (stats.added, stats.gold_added) == (520, 280)  # 160 gold "yes", 120 gold "no", 240 unlabelled
    return app


def db(app):
    return transaction(app.extensions["msze_annotator_engine"])


def truth(app) -> dict[int, str]:
    """The right answer to every hour: its gold label, else the label the generated page gave it."""
    with db(app) as conn:
        rows = conn.execute(select(hours.c.id, hours.c.gold_label, hours.c.import_label)).all()
    return {r.id: r.gold_label or ("yes" if r.import_label == "mass" else "no") for r in rows}


def honest(answers: dict[int, str], mistake_every: int = 25) -> Callable[[int], str]:
    """Right answers, but every `mistake_every`-th one wrong (honest slips)."""
    counter = itertools.count(1)
    flip = {"yes": "no", "no": "yes"}
    return lambda hour_id: flip[answers[hour_id]] if next(counter) % mistake_every == 0 else answers[hour_id]


def annotate(device: Device, n: int, choose: Callable[[int], str]) -> list[str]:
    """`n` answers from `device`, each chosen by `choose(hour id)`; returns them."""
    state, given = device.current(), []
    for _ in range(n):
        given.append(choose(state["item"]["id"]))
        state = device.answer(state["item"]["id"], given[-1])
    return given


def flag(app, device: Device) -> tuple[bool, str | None]:
    token = device.client.get_cookie(identity.COOKIE_NAME).value
    with db(app) as conn:
        row = conn.execute(
            select(devices.c.flagged, devices.c.flag_reason).where(devices.c.token == token)
        ).one()
    return bool(row.flagged), row.flag_reason


def device_id(app, device: Device) -> int:
    token = device.client.get_cookie(identity.COOKIE_NAME).value
    with db(app) as conn:
        return conn.execute(select(devices.c.id).where(devices.c.token == token)).scalar_one()


def test_95_percent_tak_device_is_flagged_an_honest_annotator_is_not(app):
    every_20th = itertools.count(1)
    clicker = Device(app, ip="10.1.0.1", screen={**PHONE, "sw": 412})
    given = annotate(clicker, 200, lambda _hour: "no" if next(every_20th) % 20 == 0 else "yes")
    assert given.count("yes") == 190  # 95 % Tak
    volunteer = Device(app, ip="10.2.0.1", screen={**PHONE, "sw": 390})
    answers = annotate(volunteer, 200, honest(truth(app)))
    assert 100 < answers.count("no") < 170  # a real mix: mostly Nie, as the pool is
    assert flag(app, clicker) == (True, cheaters.GOLD)
    assert flag(app, volunteer) == (False, None)
    ids = [device_id(app, clicker), device_id(app, volunteer)]
    with db(app) as conn:
        clicked, right = (cheaters.tallies(conn, ids)[i] for i in ids)
    assert (
        clicked.gold_yes >= 5 and clicked.agree_yes / clicked.gold_yes > 0.7
    )  # the "yes" gold it passes ...
    assert clicked.gold_no >= 5 and clicked.agree_no / clicked.gold_no < 0.3  # ... the "no" gold it fails
    assert cheaters.failure(right, cheaters.Rules()) is None and right.gold >= 10  # judged, and passing


@pytest.mark.parametrize(
    "link",
    ["same browser, new address each time", "same address group, new screen facts each time"],
)
def test_rotating_cheater_is_flagged_as_a_whole_an_honest_neighbour_is_not(app, link):
    """18 identities x 40 random answers; an honest volunteer shares the link and must come out clean."""
    by_browser = link.startswith("same browser")
    clicks = random.Random(5)
    neighbour = Device(
        app, ip="10.77.0.1" if by_browser else "10.66.0.200", screen=PHONE if by_browser else {}
    )
    volunteer = honest(truth(app))
    identities = []
    for i in range(18):
        ip = f"10.{100 + i}.0.1" if by_browser else f"10.66.0.{i + 1}"
        cheater = Device(app, ip=ip, screen=PHONE if by_browser else {**PHONE, "sw": 300 + i})
        annotate(cheater, 40, lambda _hour: clicks.choice(serving.ANSWERS))
        identities.append(cheater)
        if i >= 3:  # the neighbour annotates alongside, 150 answers in all
            annotate(neighbour, 10, volunteer)
    with db(app) as conn:
        fingerprints = set(conn.execute(select(devices.c.fingerprint).where(devices.c.id > 1)).scalars())
    assert len(fingerprints) == (1 if by_browser else 18)  # the link is the one named, not the other
    flags = [flag(app, cheater) for cheater in identities]
    assert all(flagged for flagged, _ in flags), flags  # all 18, the first ones too
    assert {reason for _, reason in flags} <= {cheaters.GROUP, cheaters.GOLD}
    assert flag(app, neighbour) == (False, None)  # cleared by its own gold, the group flag lifted


def test_new_identity_of_a_flagged_device_inherits_the_flag(app):
    cheater = Device(app, ip="10.5.0.1", screen=PHONE)
    given = annotate(cheater, 120, lambda _hour: "yes")
    assert flag(app, cheater)[0] and given
    again = Device(app, ip="10.9.0.1", screen=PHONE)  # cookie cleared, another network: a new identity
    annotate(again, 1, lambda _hour: "no")
    assert flag(app, again) == (True, cheaters.GROUP)
    stats = app.test_client().get("/api/stats").get_json()
    assert stats["devices_flagged"] == 2 and stats["devices_flagged_group"] == 1


def test_unflag_vouches_against_group_flags(app, capsys):
    cheater = Device(app, ip="10.5.0.1", screen=PHONE)
    annotate(cheater, 120, lambda _hour: "yes")
    friend = Device(app, ip="10.5.0.2", screen={"sw": 1})
    annotate(friend, 1, lambda _hour: "no")
    assert flag(app, friend) == (True, cheaters.GROUP)
    with db(app) as conn:
        friend_id = conn.execute(select(devices.c.id).where(devices.c.ip == "10.5.0.2")).scalar_one()
    db_url = app.config["ANNOTATOR_DATABASE_URL"]
    assert main(["annotator", "unflag", "--db", db_url, str(friend_id)]) == 0
    annotate(friend, 3, lambda _hour: "no")
    assert flag(app, friend) == (False, cheaters.ADMIN)
    annotate(cheater, 1, lambda _hour: "yes")  # the group is judged again: the vouched device stays out
    assert flag(app, friend) == (False, cheaters.ADMIN)


def test_a_device_under_a_group_flag_is_served_more_gold(app):
    app.config.update(ANNOTATOR_GOLD_FRACTION=1.0, ANNOTATOR_PROBATION_GOLD_FRACTION=1.0)
    annotate(Device(app, ip="10.5.0.1", screen=PHONE), 12, lambda _hour: "yes")  # fails the "no" gold
    app.config["ANNOTATOR_GOLD_FRACTION"] = 0.0
    linked_one = Device(app, ip="10.5.0.2", screen={"sw": 1})  # the same /24
    unlinked = Device(app, ip="10.8.0.1", screen={"sw": 2})
    served = {}
    for device in (linked_one, unlinked):
        state, kinds = device.current(), []
        for _ in range(6):
            state = device.answer(state["item"]["id"], "no")
            kinds.append(is_gold(app, state["item"]["id"]))
        served[device] = kinds
    assert flag(app, linked_one) == (True, cheaters.GROUP) and flag(app, unlinked) == (False, None)
    # Flagged with its first answer (the item after it was chosen before): gold from then on.
    assert served[linked_one] == [False] + [True] * 5 and served[unlinked] == [False] * 6


def is_gold(app, hour_id: int) -> bool:
    with db(app) as conn:
        return conn.execute(select(hours.c.gold_label).where(hours.c.id == hour_id)).scalar_one() is not None


# --- The rules ------------------------------------------------------------------------------------------

RULES = cheaters.Rules(min_gold=5, min_agreement=0.7, same_min_answers=50, same_max_share=0.98)


@pytest.mark.parametrize(
    ("tally", "reason"),
    [
        (cheaters.Tally(gold_yes=4, agree_yes=0, answers=4), None),  # too few gold answers to judge
        (cheaters.Tally(gold_yes=5, agree_yes=3, answers=5, yes=3), cheaters.GOLD),
        (cheaters.Tally(gold_yes=10, agree_yes=10, gold_no=5, agree_no=0, answers=40, yes=30), cheaters.GOLD),
        (
            cheaters.Tally(gold_yes=10, agree_yes=10, gold_no=4, agree_no=0, answers=40, yes=30),
            None,
        ),  # 4 "no"
        (cheaters.Tally(gold_yes=10, agree_yes=9, gold_no=5, agree_no=4, answers=40, yes=12), None),
        (cheaters.Tally(gold_yes=4, agree_yes=4, answers=50, yes=50), cheaters.SAME),
        (cheaters.Tally(gold_yes=4, agree_yes=4, answers=50, yes=48), None),
    ],
)
def test_failure(tally, reason):
    assert cheaters.failure(tally, RULES) == reason


def test_cleared_needs_enough_gold_of_both_labels_nearly_all_right():
    good = cheaters.Tally(gold_yes=10, agree_yes=10, gold_no=10, agree_no=9, answers=100, yes=40)
    assert cheaters.cleared(good, RULES)
    assert not cheaters.cleared(cheaters.Tally(gold_yes=30, agree_yes=30, gold_no=9, agree_no=9), RULES)
    assert not cheaters.cleared(good + cheaters.Tally(gold_no=10, agree_no=0), RULES)
    # Passing is not being cleared: 8 of 10 is above the flagging bar (0.7), below the clearing one (0.85).
    lucky = cheaters.Tally(gold_yes=10, agree_yes=10, gold_no=10, agree_no=8, answers=80, yes=40)
    assert cheaters.failure(lucky, RULES) is None and not cheaters.cleared(lucky, RULES)


def test_tallies_count_current_answers_per_gold_label(tmp_path):
    engine = make_engine(f"sqlite:///{tmp_path / 'a.sqlite3'}")
    import_file(engine, parish_pages_jsonl(tmp_path / "p.jsonl", 1))
    with transaction(engine) as conn:
        now = utcnow()
        device = conn.execute(
            insert(devices).values(token="t" * 40, fingerprint="f", ip="1", created_at=now, last_seen=now)
        ).inserted_primary_key[0]
    cfg = serving.ServingConfig(gold_fraction=1.0, same_min_answers=0)
    with transaction(engine) as conn:
        state = serving.current(conn, device, True, cfg)
    for answer in ["yes", "yes", "no", "yes"]:  # gold served yes, no, yes, no: right, wrong, wrong, wrong
        with transaction(engine) as conn:
            state = serving.answer(conn, device, state["item"]["id"], answer, True, cfg)
    with transaction(engine) as conn:
        got = cheaters.tallies(conn, [device, 999])
    assert got[device] == cheaters.Tally(gold_yes=2, agree_yes=1, gold_no=2, agree_no=0, answers=4, yes=3)
    assert got[999] == cheaters.Tally()
