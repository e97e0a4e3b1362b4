"""The same annotator code on PostgreSQL: a throwaway local cluster (initdb in tmp, 127.0.0.1, a free port).

Skipped with a reason when PostgreSQL's server binaries or the psycopg driver are missing. Covers what differs
from SQLite: row locks (`FOR UPDATE`, `SKIP LOCKED`) under parallel annotators, RETURNING ids, booleans, sums.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from annotator_pages import Device, check_parallel_annotators, check_parallel_clicks, pages_jsonl
from sqlalchemy import create_engine, select, text
from werkzeug.serving import make_server

from msze.annotator import export
from msze.annotator.app import create_app
from msze.annotator.db import devices, metadata, transaction
from msze.annotator.importer import import_file

psycopg = pytest.importorskip("psycopg", reason="psycopg (requirements.txt) is not installed")
INITDB = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))), shutil.which("initdb"))
pytestmark = pytest.mark.skipif(
    INITDB is None, reason="PostgreSQL server binaries (initdb) are not installed"
)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def pg_url():
    """A PostgreSQL cluster of our own for this module; initdb refuses root, so run it as `postgres` then.

    Its folder is a fresh /tmp directory, not pytest's tmp_path (that one is private to root).
    """
    base = Path(tempfile.mkdtemp(prefix="msze-annotator-pg-"))
    bindir = Path(INITDB).parent
    prefix: list[str] = []
    if os.geteuid() == 0:
        import pwd

        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user for initdb")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", _free_port()
    run = lambda *cmd: subprocess.run([*prefix, *cmd], check=True, capture_output=True, timeout=120)  # noqa: E731
    run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "msze", "-E", "UTF8", "--no-sync")
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
    run(str(bindir / "pg_ctl"), "-D", str(data), "-o", options, "-l", str(base / "log"), "-w", "start")
    try:
        yield f"postgresql+psycopg://msze@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*prefix, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            timeout=60,
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


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
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    thread.join(10)


def test_flow_undo_and_cheater_flag_on_postgresql(app):
    app.config.update(ANNOTATOR_GOLD_FRACTION=1.0, ANNOTATOR_CHEATER_MIN_GOLD=3)
    engine = app.extensions["msze_annotator_engine"]
    cheater = Device(app)
    state = cheater.current()
    ids = []
    for _ in range(3):  # the gold answer is "yes" for all of them
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
