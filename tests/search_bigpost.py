"""Measure what eight parallel 50 MB posts do to `search serve`: its RSS before, at the peak, and the answers.

    .venv/bin/python tests/search_bigpost.py      # from the repository root; about ten seconds

Not a test (memory depends on the machine): the tests prove the mechanism (413 from the Content-Length
alone, tests/web/test_search_cli.py); this prints the numbers behind it.
"""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

POSTS, SIZE = 8, 50 * 1024 * 1024


def rss_mb(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)) // 1024


def post(host: str, port: int, answers: list[str]) -> None:
    """One report post of SIZE bytes; the body is sent only as far as the server reads it."""
    with socket.create_connection((host, port), timeout=120) as sock:
        sock.sendall(
            b"POST /parafia/1/zgloszenie HTTP/1.1\r\nHost: x\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n" % SIZE
        )
        with contextlib.suppress(OSError):  # the server answered and closed without reading the body
            sock.sendall(b"comment=" + b"x" * (SIZE - 8))
        answers.append(sock.recv(100).split(b"\r\n")[0].decode())


def main() -> None:
    root = Path(__file__).resolve().parent.parent
    server = subprocess.Popen(
        [sys.executable, "-m", "msze", "search", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=root,
    )
    try:
        host, port = re.search(r"http://([\d.]+):(\d+)/", server.stdout.readline()).groups()
        before, answers = rss_mb(server.pid), []
        threads = [threading.Thread(target=post, args=(host, int(port), answers)) for _ in range(POSTS)]
        for thread in threads:
            thread.start()
        peak = before
        while any(thread.is_alive() for thread in threads):
            peak = max(peak, rss_mb(server.pid))
            time.sleep(0.05)
        print(f"RSS before {before} MB, peak {peak} MB, after {rss_mb(server.pid)} MB; answers: {answers}")
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
