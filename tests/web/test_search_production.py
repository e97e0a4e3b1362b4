"""The search app in production: gunicorn with 2 worker processes on 127.0.0.1, started as docs/search.md
says (`search serve --workers`, and gunicorn's own command on the WSGI factory), answering real requests."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from search_fixtures import load_database, post_reports_at_once

NEAR = "/api/masses?near=51.7592,19.4560&radius=5&from=2026-12-05T17:00"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> str:
    return load_database(tmp_path_factory.mktemp("production"))


@contextmanager
def started(command: list[str], pattern: str, env: dict | None = None) -> Iterator[tuple[str, int]]:
    """`command` running until the block ends; yields (root URL, server pid) once a line matches `pattern`."""
    env = {**os.environ, **(env or {})}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    try:
        lines = []
        for line in process.stdout:
            lines.append(line)
            match = re.search(pattern, line)
            if match:
                yield match.group(1), process.pid
                break
        else:
            pytest.fail("the server did not start:\n" + "".join(lines))
    finally:
        process.terminate()
        process.wait(timeout=30)


def serve_command(db: str, port: int = 0) -> list[str]:
    serve = ["search", "serve", "--db", db, "--port", str(port)]
    return [sys.executable, "-m", "msze", *serve, "--workers", "2"]


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode()


def children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def assert_answers(root: str) -> None:
    """/healthz, the next Masses near Łódź's centre, and reports of one visitor to 8 connections at once: all
    taken by either worker (the same secret checks their forms), 5 stored and the rest refused (the limit
    counts them across the processes)."""
    assert get(root + "/healthz") == (200, "ok\n")
    status, body = get(root + NEAR)
    masses = json.loads(body)["masses"]
    assert status == 200
    assert (masses[0]["start"], masses[0]["parish"], masses[0]["distance_km"]) == (
        "2026-12-05T19:00:00+01:00",
        "Świętego Józefa",
        2.3,
    )
    assert all(json.loads(get(root + NEAR)[1])["masses"] == masses for _ in range(6))  # from either worker
    assert sorted(post_reports_at_once(root, 1, 8)) == [303] * 5 + [429] * 3


def test_serve_with_workers_runs_gunicorn_with_that_many_processes(db):
    with started(serve_command(db), r"on (http://127\.0\.0\.1:\d+)/ \(2 gunicorn workers\)") as (root, pid):
        assert_answers(root)
        assert len(children(pid)) == 2


def test_the_documented_gunicorn_command_serves_the_app_factory(db):
    with socket.socket() as probe:  # a free port: gunicorn's own command line names one
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "gunicorn", "--workers", "2", "--bind", f"127.0.0.1:{port}", "--preload",
               "--no-control-socket", "msze.search.wsgi:create_app_from_environment()"]  # fmt: skip
    env = {"MSZE_SEARCH_DATABASE_URL": db}
    with started(command, r"Listening at: (http://127\.0\.0\.1:\d+)", env) as (root, pid):
        assert_answers(root)
        assert len(children(pid)) == 2


def test_serve_with_workers_refuses_a_port_in_use_in_one_line(db):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(serve_command(db, port), capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == f"search serve: port {port} is in use: pick another with --port\n"


def test_serve_with_workers_answers_a_big_body_413_before_reading_it(db):
    with (
        started(serve_command(db), r"on http://127\.0\.0\.1:(\d+)/") as (port, _pid),
        socket.create_connection(("127.0.0.1", int(port)), timeout=30) as sock,
    ):
        # Only the headers: a server that waited for the 50 MB would never answer.
        sock.sendall(
            b"POST /parafia/1/zgloszenie HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 52428800\r\n\r\n"
        )
        assert sock.recv(100).startswith(b"HTTP/1.1 413 ")
        with pytest.raises(OSError):  # and it does not read the rest either: the connection is closed
            for _ in range(200):
                sock.sendall(b"a" * 65536)
