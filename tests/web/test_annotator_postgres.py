"""The same annotator code on PostgreSQL: a throwaway local cluster (initdb in tmp, 127.0.0.1, a free port).

Skipped with a reason when PostgreSQL's server binaries or the psycopg driver are missing. Covers what differs
from SQLite: row locks (`FOR UPDATE`, `SKIP LOCKED`) under parallel annotators, RETURNING ids, booleans, sums.
"""

from __future__ import annotations

import pytest
from annotator_pages import Device, check_parallel_annotators, check_parallel_clicks, pages_jsonl, serve
from postgres_cluster import postgres_cluster, requires_postgres
from sqlalchemy import create_engine, select, text

from msze.annotator import export
from msze.annotator.app import create_app
from msze.annotator.db import DatabaseProblem, devices, make_engine, metadata, transaction
from msze.annotator.importer import import_file

pytestmark = requires_postgres


@pytest.fixture(scope="module")
def pg_url():
    with postgres_cluster("annotator", max_connections=50) as url:
        yield url


@pytest.fixture
def app(pg_url, tmp_path):
    engine = create_engine(pg_url)
    metadata.drop_all(engine)  # a clean schema per test; create_app creates it again
    engine.dispose()
    app = create_app(
        {"ANNOTATOR_DATABASE_URL": pg_url, "ANNOTATOR_GOLD_FRACTION": 0.3, "SECRET_KEY": "test"},
        instance_path=str(tmp_path / "instance"),
    )
    engine = app.extensions["msze_annotator_engine"]
    assert engine.dialect.name == "postgresql"
    path = pages_jsonl(tmp_path / "pages.jsonl")
    assert import_file(engine, path).added == 12
    assert import_file(engine, path).added == 0  # idempotent here too
    yield app
    engine.dispose()


@pytest.fixture
def server(app):
    with serve(app) as url:
        yield url


def test_flow_undo_and_cheater_flag_on_postgresql(app):
    app.config.update(ANNOTATOR_GOLD_FRACTION=1.0, ANNOTATOR_CHEATER_MIN_GOLD=3)
    engine = app.extensions["msze_annotator_engine"]
    cheater = Device(app)
    state = cheater.current()
    ids = []
    for _ in range(3):  # gold "yes", "no", "yes": Nie to all agrees with one of three
        ids.append(state["item"]["id"])
        state = cheater.answer(ids[-1], "no")
    for expected in reversed(ids):
        back = cheater.undo()
        assert back["item"]["id"] == expected and back["item"]["previous_answer"] == "no"
    assert cheater.post("/api/undo").status_code == 409
    for hour_id in ids:
        cheater.answer(hour_id, "no")
    with transaction(engine) as conn:
        assert conn.execute(select(devices.c.flagged)).scalar_one() is True
        figures = export.stats(conn)
        assert conn.execute(text("select count(*) from events")).scalar_one() == 3 + 3 + 3
    assert figures["devices_flagged"] == 1 and figures["answers"] == 0 and figures["answers_all_devices"] == 3


@pytest.mark.parametrize(("n_devices", "per_device"), [(6, 8), (8, 11)])  # (8, 11): every device ends up
def test_parallel_annotators_on_postgresql(
    app, server, n_devices, per_device
):  # with all 12 hours served: no room to skip
    check_parallel_annotators(server, app.extensions["msze_annotator_engine"], n_devices, per_device)


def test_parallel_clicks_on_postgresql(app, server):
    check_parallel_clicks(server, app.extensions["msze_annotator_engine"])


def test_older_schema_gets_the_new_columns_and_a_partial_one_is_refused(pg_url):
    engine = create_engine(pg_url)
    metadata.drop_all(engine)
    metadata.create_all(engine)
    with engine.begin() as conn:
        conn.execute(text("ALTER TABLE devices DROP COLUMN ip_group"))
        conn.execute(text("ALTER TABLE devices DROP COLUMN flag_reason"))
        conn.execute(
            text(
                "INSERT INTO devices (token, fingerprint, ip, created_at, last_seen, flagged, gold_answers,"
                " gold_agree) VALUES ('t', 'f', '2001:db8:5:6::7', now(), now(), false, 0, 0)"
            )
        )
    upgraded = make_engine(pg_url)
    with upgraded.connect() as conn:
        assert conn.execute(select(devices.c.ip_group, devices.c.flag_reason)).one() == (
            "2001:db8:5:6::/64",
            None,
        )
    upgraded.dispose()
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE events"))
    with pytest.raises(DatabaseProblem, match="missing tables: events$"):
        make_engine(pg_url)
    metadata.drop_all(engine)
    engine.dispose()
