"""The search app in production: several worker processes under gunicorn, as one Python process (GIL-bound)
answers only so many phones at once.

    MSZE_SEARCH_DATABASE_URL=output/search.sqlite gunicorn --workers 2 --bind 127.0.0.1:8080 --preload \\
        --no-control-socket 'msze.search.wsgi:create_app_from_environment()'

or `msze search serve --db output/search.sqlite --workers 2`, which runs the same server (`run_gunicorn`) and
refuses a bad `--db` or port in one line before any worker starts. Every process opens its own database
connections and keeps its own caches: no connection crosses a fork. The app is built once, before the fork
(`--preload`), so that every worker has the same secret (without MSZE_SEARCH_SECRET_KEY a random one is drawn
per app): another's would refuse a report form opened from this one and count its client under another hash.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gunicorn.app.base import BaseApplication

if TYPE_CHECKING:
    from flask import Flask


def create_app_from_environment() -> Flask:
    """The app over MSZE_SEARCH_DATABASE_URL (a SQLAlchemy URL or SQLite path; unset: the demo data), checked
    as `search serve --db` checks it (cli.Refused for a missing file); the other settings are read from the
    environment by `create_app` (docs/settings.md)."""
    from msze.search.app import create_app
    from msze.search.cli import open_database

    url = os.environ.get("MSZE_SEARCH_DATABASE_URL", "").strip()
    app = create_app(engine=open_database(url) if url else None)
    app.extensions["msze_engine"].dispose()  # built before the fork (--preload): no connection crosses it
    return app


class _Gunicorn(BaseApplication):
    """gunicorn's documented way to embed it: settings as a dict, and the app each worker serves."""

    def __init__(self, app: Flask, settings: dict[str, Any]) -> None:
        self.app, self.settings = app, settings
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.settings.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.app


def run_gunicorn(
    app: Flask, listener: socket.socket, workers: int, threads: int, on_ready: Callable[[], None]
) -> None:
    """Serve `app`, built in this process, from `workers` forked processes of `threads` threads each on the
    already bound `listener`, until SIGINT/SIGTERM (gunicorn owns the socket from here and closes it);
    `on_ready` once gunicorn listens (a request sent before the workers are up waits in the socket's queue).
    The app's engine must hold no connection: each worker opens its own.

    gthread workers keep a phone's connection open between requests (the sync ones close it after each). No
    control socket: its default path is shared by every gunicorn of the user."""
    settings = {
        "bind": [f"fd://{listener.detach()}"],
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "control_socket_disable": True,
        "when_ready": lambda _arbiter: on_ready(),
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
    }
    _Gunicorn(app, settings).run()
