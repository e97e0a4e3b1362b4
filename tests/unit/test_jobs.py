"""Job-status database: states, retry rules, and many concurrent writers."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

from msze.batch.jobs import JobDB


def test_enqueue_is_idempotent_and_keeps_state(tmp_path):
    db = JobDB(tmp_path / "jobs.sqlite3")
    assert db.enqueue(["http://a.test/", "http://www.b.test/x", "http://a.test/"]) == 2
    db.start("http://a.test/", log_path="logs/a.test.log")
    db.finish(
        "http://a.test/", {"pages": 3, "bytes": 1200, "masses": [{"time": "07:00"}], "domain": "a.test"}
    )
    assert db.enqueue(["http://a.test/", "http://c.test/"]) == 1
    row = db.get("http://a.test/")
    assert row["state"] == "finished"
    assert (row["pages"], row["bytes"], row["masses"], row["attempts"]) == (3, 1200, 1, 1)
    assert row["log_path"] == "logs/a.test.log"
    assert row["started_at"].endswith("Z") and row["ended_at"] >= row["started_at"]
    assert db.get("http://www.b.test/x")["domain"] == "b.test"
    assert db.counts() == {"queued": 2, "running": 0, "finished": 1, "failed": 0}
    state, ended_at, attempts = db.brief()["http://a.test/"]
    assert (state, ended_at, attempts) == ("finished", row["ended_at"], 1)


def test_pending_skips_finished_retries_failed_and_running(tmp_path):
    db = JobDB(tmp_path / "jobs.sqlite3")
    urls = [f"http://p{i}.test/" for i in range(5)]
    db.enqueue(urls)
    db.start(urls[0])
    db.finish(urls[0], {"pages": 1})
    db.start(urls[1])
    db.fail(urls[1], "HTTP 500 on every page")
    db.start(urls[2])  # left "running" by a killed batch
    assert db.pending() == [urls[1], urls[2], urls[3], urls[4]]
    assert db.pending(retry_failed=False) == urls[2:]
    assert db.pending(max_attempts=1) == urls[2:]
    assert db.pending(max_attempts=2) == urls[1:]
    assert db.pending(include_running=False, retry_failed=False) == urls[3:]
    assert db.get(urls[1])["error"] == "HTTP 500 on every page"
    # A retry clears the old error and counts the attempt.
    db.start(urls[1])
    row = db.get(urls[1])
    assert (row["state"], row["error"], row["attempts"]) == ("running", None, 2)


def test_kinds_are_separate(tmp_path):
    path = tmp_path / "jobs.sqlite3"
    crawl = JobDB(path)
    process = JobDB(path, kind="process")
    crawl.enqueue(["http://a.test/"])
    process.enqueue(["/data/pages/a.test.jsonl"])
    assert crawl.pending() == ["http://a.test/"]
    assert process.pending() == ["/data/pages/a.test.jsonl"]
    assert process.get("/data/pages/a.test.jsonl")["domain"] == ""


def test_wal_mode_and_summaries(tmp_path):
    db = JobDB(tmp_path / "jobs.sqlite3")
    mode = sqlite3.connect(tmp_path / "jobs.sqlite3").execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
    db.enqueue(["http://a.test/", "http://b.test/", "http://c.test/"])
    db.finish("http://b.test/", {"start_url": "http://b.test/", "status": "finished", "masses": []})
    db.fail("http://a.test/", "Connection refused", {"start_url": "http://a.test/", "status": "failed"})
    assert [s["start_url"] for s in db.summaries()] == ["http://a.test/", "http://b.test/"]
    assert len(db.durations()) == 0  # never started: no duration


def _worker(path: str, worker: int, n: int) -> None:
    db = JobDB(path)
    for i in range(n):
        url = f"http://w{worker}-{i}.test/"
        db.start(url)
        db.finish(url, {"pages": i, "masses": []})


def test_many_concurrent_writers(tmp_path):
    path = str(tmp_path / "jobs.sqlite3")
    JobDB(path).close()
    # spawn, not fork: a SQLite connection must never cross fork(), and real writers are separate programs.
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_worker, args=(path, w, 40)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert JobDB(path).counts()["finished"] == 8 * 40


def test_names_and_old_database_upgrade(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.execute(
        "CREATE TABLE jobs (kind TEXT NOT NULL DEFAULT 'crawl', url TEXT NOT NULL,"
        " domain TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'queued', queued_at TEXT NOT NULL,"
        " started_at TEXT, ended_at TEXT,"
        " pages INTEGER, bytes INTEGER, masses INTEGER, error TEXT, attempts INTEGER NOT NULL DEFAULT 0,"
        " log_path TEXT, host TEXT, pid INTEGER, summary TEXT, PRIMARY KEY (kind, url))"
    )
    old.execute("INSERT INTO jobs (url, queued_at) VALUES ('http://old.test/', '2026-01-01T00:00:00Z')")
    old.commit()
    old.close()
    db = JobDB(path)
    db.enqueue(
        ["http://a.opoka.test/"],
        domains={"http://a.opoka.test/": "opoka.test"},
        names={"http://a.opoka.test/": "a.opoka.test"},
    )
    assert db.names() == {"http://a.opoka.test/": "a.opoka.test"}
    assert db.get("http://a.opoka.test/")["domain"] == "opoka.test"
    assert db.pending() == ["http://old.test/", "http://a.opoka.test/"]


def _claimer(path: str, out: str) -> None:
    db = JobDB(path)
    got = []
    while (url := db.claim()) is not None:
        got.append(url)
        db.finish(url, {"pages": 1})
    with open(out, "w") as f:
        f.write("\n".join(got))


def test_claim_next_hands_each_job_to_one_worker(tmp_path):
    path = str(tmp_path / "jobs.sqlite3")
    urls = [f"http://c{i}.test/" for i in range(120)]
    with JobDB(path) as db:
        db.enqueue(urls)
        assert db.claim("http://c0.test/") == "http://c0.test/"  # a given URL: same as start()
        assert db.get("http://c0.test/")["state"] == "running"
    ctx = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"w{i}.txt") for i in range(4)]
    procs = [ctx.Process(target=_claimer, args=(path, out)) for out in outs]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    claimed = [u for out in outs for u in Path(out).read_text().split()]
    assert sorted(claimed) == sorted(urls[1:])  # every queued job exactly once; the running one left alone
    assert JobDB(path).claim() is None
