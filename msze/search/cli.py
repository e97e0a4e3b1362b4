"""`python -m msze search serve|load|corrections`: run the search app and fill its database.

python -m msze search serve                       # bundled demo data on http://127.0.0.1:8080/
python -m msze search serve --db results.sqlite --port 8080 --base-url https://msze.example.org
python -m msze search serve --db results.sqlite --workers 2   # production: gunicorn, one process per core
python -m msze search load --parishes deon.tsv --places places.tsv --results results.jsonl --db results.sqlite
python -m msze search corrections --db results.sqlite > labels.jsonl
python -m msze search user add anna --role moderator --db results.sqlite        # asks for the password
python -m msze search user add kancelaria --role editor --parish 12 --password-stdin < pass.txt
"""

from __future__ import annotations

import argparse
import errno
import json
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import Engine
    from waitress.server import BaseWSGIServer

DEFAULT_DB = "output/search.sqlite"


class Refused(Exception):
    """A command that cannot run as asked; the message is one line for the user (exit 2)."""


class NoDatabase(Refused):
    """--db names a SQLite file that does not exist (`serve` adds that the demo needs no --db)."""


def _port(value: str) -> int:
    """--port: 0 (any free port) to 65535."""
    if not (value.isascii() and value.isdigit()) or int(value) > 65535:
        raise argparse.ArgumentTypeError(f"expected a port number 0-65535, got {value!r}")
    return int(value)


def _positive(value: str) -> int:
    if not (value.isascii() and value.isdigit()) or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {value!r}")
    return int(value)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    serve = sub.add_parser("serve", help="serve the search pages and JSON API (waitress, or gunicorn)")
    serve.add_argument(
        "--db",
        help="database URL or SQLite path, made by `search load`; without it the bundled demo data is served",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8080, help="port (default 8080; 0 picks a free one)")
    serve.add_argument("--threads", type=_positive, default=8, help="threads per process (default 8)")
    serve.add_argument(
        "--workers",
        type=_positive,
        help="production: this many processes under gunicorn (about one per core); without it one "
        "waitress process, for development and the demo",
    )
    serve.add_argument(
        "--base-url",
        help="public root of the site (https://msze.example.org): API and JSON-LD links are absolute "
        "under it; without it they are relative (env MSZE_SEARCH_BASE_URL)",
    )

    load = sub.add_parser("load", help="load parishes, websites and batch results into the database")
    load.add_argument("--parishes", help="deon stage output: TSV (thesis layout) or JSONL of ParishItem")
    load.add_argument("--places", help="places stage output: TSV like extended.tsv or JSONL of PlaceItem")
    load.add_argument("--results", help="batch results.jsonl (one object per parish crawl)")
    load.add_argument(
        "--churches", help="other churches located by `scrapy crawl places -a churches=results.jsonl`"
    )
    load.add_argument("--db", default=DEFAULT_DB, help=f"database URL or SQLite path (default {DEFAULT_DB})")
    load.add_argument(
        "--repair",
        action="store_true",
        help="clear the times an older msze may have put on the wrong parish (it joined results by host or "
        "domain), then load; a database loaded that way is refused without it",
    )

    corr = sub.add_parser("corrections", help="print visitors' corrections as JSONL training labels")
    corr.add_argument("--db", default=DEFAULT_DB, help=f"database URL or SQLite path (default {DEFAULT_DB})")

    user = sub.add_parser("user", help="accounts of moderators and parish editors (docs/moderation.md)")
    user_sub = user.add_subparsers(dest="user_action", metavar="USER_ACTION", required=True)
    add = user_sub.add_parser("add", help="add an account; the password is asked for, never an argument")
    add.add_argument("username")
    add.add_argument("--role", choices=("moderator", "editor"), required=True)
    add.add_argument(
        "--parish", type=_positive, help="the parish id an editor may edit (required for editor)"
    )
    add.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password from the first line of standard input",
    )
    add.add_argument("--db", default=DEFAULT_DB, help=f"database URL or SQLite path (default {DEFAULT_DB})")


def run(args: argparse.Namespace) -> int:
    commands = {"serve": _serve, "load": _load, "corrections": _corrections, "user": _user}
    try:
        return commands[args.action](args)
    except Refused as exc:
        print(f"search {args.action}: {exc}", file=sys.stderr)
        return 2


def check_database(db: str, create: bool) -> None:
    """Refuse a SQLite --db that does not exist (its folder, or the file itself): an engine would create an
    empty database there and serve nothing from it. With `create` (load) the folder is made instead."""
    from sqlalchemy.exc import ArgumentError

    from msze.search.db import sqlite_path

    try:
        path = sqlite_path(db)
    except ArgumentError as exc:
        raise Refused(f"--db {db}: not a database URL or path ({exc})") from None
    if path is None:
        return
    if path.is_dir():
        raise Refused(f"--db {db} is a folder: give the database file in it")
    if not path.parent.is_dir() and create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise Refused(f"--db {db}: cannot create the folder {path.parent}/: {exc.strerror}") from None
    if not path.parent.is_dir():
        raise Refused(f"--db {db}: no such folder {path.parent}/")
    if not create and not path.exists():
        load = f"python -m msze search load --db {db} ..."
        raise NoDatabase(f"--db {db}: no such database; create it with `{load}`")


def open_database(db: str, create: bool = False) -> Engine:
    """The engine of `--db` with its schema up to date; Refused, in one line, when it cannot be opened (not
    a database, server down, driver missing)."""
    from sqlalchemy.exc import DBAPIError, SQLAlchemyError

    from msze.search.db import create_schema, make_engine

    check_database(db, create)
    try:
        engine = make_engine(db)
        create_schema(engine)
    except ImportError as exc:  # postgresql:// without psycopg
        raise Refused(f"--db {_shown(db)}: {exc} (pip install 'msze[postgres]')") from None
    except SQLAlchemyError as exc:
        reason = exc.orig if isinstance(exc, DBAPIError) else exc
        raise Refused(f"cannot open the database {_shown(db)}: {' '.join(str(reason).split())}") from None
    return engine


def _shown(db: str) -> str:
    """`db` for a message: a URL without its password."""
    from sqlalchemy import make_url

    from msze.search.db import database_url

    return make_url(database_url(db)).render_as_string(hide_password=True) if "://" in db else db


def make_server(app: Flask, host: str, port: int, threads: int) -> BaseWSGIServer:
    """The waitress server `serve` runs: a body longer than the app's MAX_CONTENT_LENGTH is answered 413 from
    its Content-Length alone, before waitress reads (and buffers) any of it."""
    from waitress.server import create_server

    limit = app.config["MAX_CONTENT_LENGTH"]
    # waitress refuses a Content-Length >= max_request_body_size; the app takes up to MAX_CONTENT_LENGTH.
    return create_server(app, host=host, port=port, threads=threads, max_request_body_size=limit + 1)


def listen(app: Flask, host: str, port: int, threads: int) -> BaseWSGIServer:
    """`make_server`, with a port in use or an address that cannot be had as Refused."""
    try:
        return make_server(app, host, port, threads)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise Refused(f"port {port} is in use: pick another with --port") from None
        raise Refused(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _serve(args: argparse.Namespace) -> int:
    from msze.search.app import create_app

    try:
        engine = open_database(args.db) if args.db else None
    except NoDatabase as exc:
        raise Refused(f"{exc} (or leave out --db to serve the demo data)") from None
    try:
        app = create_app(engine=engine, config={"BASE_URL": args.base_url} if args.base_url else None)
    except ValueError as exc:  # a bad setting: one line, not a traceback
        raise Refused(str(exc)) from None
    what = _shown(args.db) if args.db else "demo data"
    if args.workers:
        return _serve_workers(app, what, args)
    server = listen(app, args.host, args.port, args.threads)
    where = f"http://{server.effective_host}:{server.effective_port}/"
    print(f"msze search: serving {what} on {where}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port, with a port in use or an address that cannot be had as Refused."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, backlog=2048)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise Refused(f"port {port} is in use: pick another with --port") from None
        raise Refused(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def _serve_workers(app: Flask, what: str, args: argparse.Namespace) -> int:
    """`serve --workers N`: the app built here, forked into N gunicorn workers (msze/search/wsgi.py)."""
    from msze.search.wsgi import run_gunicorn

    listener = bind(args.host, args.port)
    host, port = listener.getsockname()[:2]
    where = f"http://{f'[{host}]' if ':' in host else host}:{port}/"
    app.extensions["msze_engine"].dispose()  # no connection crosses the fork: each worker opens its own

    def ready() -> None:
        print(f"msze search: serving {what} on {where} ({args.workers} gunicorn workers)", flush=True)

    run_gunicorn(app, listener, args.workers, args.threads, ready)
    return 0


def _load(args: argparse.Namespace) -> int:
    from msze.search.loader import load

    if not (args.parishes or args.places or args.results or args.churches):
        raise Refused("give at least one of --parishes, --places, --results, --churches")
    for path in (args.parishes, args.places, args.results, args.churches):
        if path and not Path(path).is_file():
            raise Refused(f"no such file: {path}")
    engine = open_database(args.db, create=True)
    try:
        report = load(
            engine, args.parishes, args.places, args.results, churches_path=args.churches, repair=args.repair
        )
    except (ValueError, OSError) as exc:  # a TSV without its columns, a file that cannot be read
        print(f"search load: {exc} (nothing was changed)", file=sys.stderr)
        return 1
    for line in report.bad_lines:
        print(f"skipped {line}", file=sys.stderr)
    for start_url in report.unmatched_results:
        print(f"unmatched result {start_url}: no parish has this website", file=sys.stderr)
    for line in report.coordinates_dropped:
        print(f"coordinates dropped for {line}: not a place on Earth", file=sys.stderr)
    for line in report.ambiguous_results:
        print(
            f"ambiguous result {line} (several parishes give this website; loaded onto none)", file=sys.stderr
        )
    if report.parishes_repaired:
        print(
            f"search load: cleared the crawled times of {report.parishes_repaired} parishes an older load "
            "may have mixed up; load the results (and --churches) again",
            file=sys.stderr,
        )
    print(json.dumps(report.as_dict(), ensure_ascii=False))
    if args.results and report.results_unmatched and not report.results_loaded:
        missing = " and ".join(f"--{name}" for name in ("parishes", "places") if not getattr(args, name))
        hint = (
            f" (load {missing} too: a result joins the parish whose website is its start URL)"
            if missing
            else ""
        )
        print(
            f"search load: none of the {report.results_unmatched} results matched a parish in the "
            f"database{hint}",
            file=sys.stderr,
        )
        return 1
    if report.bad_lines:
        print(
            f"search load: skipped {len(report.bad_lines)} malformed line(s), loaded {report.lines_ok}",
            file=sys.stderr,
        )
        if not report.lines_ok:
            print("search load: no line could be loaded", file=sys.stderr)
            return 1
    return 0


def _corrections(args: argparse.Namespace) -> int:
    from msze.search.reports import correction_rows, training_labels

    engine = open_database(args.db)
    with engine.connect() as conn:
        for row in correction_rows(conn, newest_first=False):
            for label in training_labels(row):
                print(json.dumps(label, ensure_ascii=False))
    return 0


def _read_password(from_stdin: bool) -> str:
    if from_stdin:
        return sys.stdin.readline().rstrip("\r\n")
    import getpass

    password = getpass.getpass("Hasło: ")
    if getpass.getpass("Powtórz hasło: ") != password:
        raise Refused("the two passwords differ")
    return password


def _user(args: argparse.Namespace) -> int:
    """`search user add`: one account; the password never on the command line (ps, shell history)."""
    from datetime import UTC, datetime

    from msze.search.accounts import AccountError, add_user

    if args.role == "editor" and args.parish is None:
        raise Refused("an editor needs --parish ID (the parish it may edit)")
    engine = open_database(args.db)
    password = _read_password(args.password_stdin)
    try:
        with engine.begin() as conn:
            account = add_user(conn, args.username, password, args.role, args.parish, datetime.now(UTC))
    except AccountError as exc:
        raise Refused(str(exc)) from None
    where = f" of parish {account.parish_id}" if account.parish_id else ""
    print(f"search user: added {account.username} ({account.role}{where})")
    return 0
