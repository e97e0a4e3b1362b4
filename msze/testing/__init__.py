"""Local fakes of the remote services the directory stages talk to (deon.pl, Google Places).

Used by the tests (started in a thread on 127.0.0.1, port 0) and by hand through scripts/fake_deon.py and
scripts/fake_places.py, for demos and benchmarks without network or an API key.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class FakeServer:
    """HTTP server in a daemon thread; logs (time, method, path, status) per request."""

    handler_class: type[BaseHTTPRequestHandler]

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._base_url = ""  # kept after stop(), for assertions on what was served

    @property
    def base_url(self) -> str:
        assert self._base_url, "server not started"
        return self._base_url

    def log(self, method: str, path: str, status: int, **extra: Any) -> None:
        with self._lock:
            self.requests.append(
                {"time": time.monotonic(), "method": method, "path": path, "status": status, **extra}
            )

    def start(self) -> FakeServer:
        fake = self

        class Handler(self.handler_class):  # type: ignore[misc,valid-type]
            server_fake = fake

        self._server = ThreadingHTTPServer((self.host, self.port), Handler)
        self._server.daemon_threads = True
        self._base_url = f"http://{self.host}:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def serve_forever(self) -> None:
        """Run in the foreground (scripts) until Ctrl-C."""
        if self._server is None:
            self.start()
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
        finally:
            self.stop()

    def __enter__(self) -> FakeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class QuietHandler(BaseHTTPRequestHandler):
    """No per-request stderr noise; `server_fake` is the FakeServer that owns this handler."""

    server_fake: Any = None
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - BaseHTTPRequestHandler's signature
        pass

    def send_body(
        self, status: int, body: bytes, content_type: str, headers: dict[str, str] | None = None
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
