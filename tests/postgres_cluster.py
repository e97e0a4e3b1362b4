"""A throwaway local PostgreSQL cluster for the tests that run the same code on PostgreSQL as on SQLite.

initdb in a fresh /tmp folder (pytest's tmp_path is private to root, and initdb refuses root, so it runs as
`postgres` then), listening on 127.0.0.1 at a free port, stopped and removed afterwards. Tests skip with a
reason when the server binaries or the psycopg driver are missing.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

INITDB = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))), shutil.which("initdb"))
requires_postgres = pytest.mark.postgres  # runs everywhere: scripts/setup.sh installs PostgreSQL


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def postgres_cluster(name: str, max_connections: int = 20) -> Iterator[str]:
    """Yield the SQLAlchemy URL of a cluster of our own; fail with the reason when one cannot be made here."""
    if INITDB is None:
        pytest.fail("PostgreSQL server binaries (initdb) are missing: scripts/setup.sh installs them")
    base = Path(tempfile.mkdtemp(prefix=f"msze-{name}-pg-"))
    bindir = Path(INITDB).parent
    prefix: list[str] = []
    if os.geteuid() == 0:
        import pwd

        try:
            user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.fail("running as root and there is no 'postgres' user for initdb (postgresql makes one)")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", _free_port()

    def run(*cmd: str) -> None:
        subprocess.run([*prefix, *cmd], check=True, capture_output=True, timeout=120)

    run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "msze", "-E", "UTF8", "--no-sync")
    options = (
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections={max_connections}"
    )
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
