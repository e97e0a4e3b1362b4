"""`python -m msze annotator serve|import|export|stats|gold|unflag`: the labelling app and its data."""

from __future__ import annotations

import argparse
import errno
import json
import os
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from sqlalchemy import Engine
    from waitress.server import BaseWSGIServer

    from msze.annotator.importer import ImportStats

DEFAULT_DB = "sqlite:///annotator.sqlite3"
MAX_MESSAGES = 50  # problems shown per imported file
MAX_MESSAGES_UNUSABLE = 3  # ... when none of it was usable: a few examples, then the one line that says so


def _port(text: str) -> int:
    """A TCP port for argparse (0 = any free one)."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {port} is not in 0-65535")
    return port


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        default=os.environ.get("ANNOTATOR_DATABASE_URL", DEFAULT_DB),
        help="SQLite file path or SQLAlchemy database URL "
        f"(env ANNOTATOR_DATABASE_URL; default {DEFAULT_DB})",
    )
    sub = parser.add_subparsers(dest="action", required=True)
    _add_serve(sub.add_parser("serve", parents=[common], help="serve the web app (waitress)"))
    imp = sub.add_parser("import", parents=[common], help="import hour candidates from JSONL files")
    imp.add_argument(
        "files", nargs="+", type=Path, help="PageItem JSONL (crawl output) or `msze extract` output"
    )
    exp = sub.add_parser("export", parents=[common], help="export labels (flagged devices excluded)")
    exp.add_argument("--tsv", type=Path, help="TSV: id, url, time, hour_text, context, yes, no, label")
    exp.add_argument("--fasttext", type=Path, help="fastText training lines: __label__mass|other FEATURES")
    exp.add_argument("--min-votes", type=int, default=1, help="only hours with at least this many answers")
    st = sub.add_parser("stats", parents=[common], help="labelled hours, devices, agreement")
    st.add_argument("--json", action="store_true", help="print JSON instead of text")
    gold = sub.add_parser("gold", parents=[common], help="set an admin (known) answer for an hour")
    gold.add_argument("hour_id", type=int)
    gold.add_argument("label", choices=["yes", "no", "clear"])
    unflag = sub.add_parser(
        "unflag",
        parents=[common],
        help="clear a device's cheater flag and vouch for it (no group flag again)",
    )
    unflag.add_argument("device_id", type=int)
    bench = sub.add_parser("bench", help="time Tak/Nie requests on a throwaway database of FILES")
    bench.add_argument("files", nargs="+", type=Path)
    bench.add_argument("--devices", type=int, default=5)
    bench.add_argument("--answers", type=int, default=100, help="answers per device")


def _add_serve(serve: argparse.ArgumentParser) -> None:
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)")
    serve.add_argument(
        "--instance", default=None, help="folder for the generated secret key (default: Flask's)"
    )
    serve.add_argument("--threads", type=int, default=8, help="waitress worker threads (default 8)")
    serve.add_argument(
        "--debug",
        action="store_true",
        help="werkzeug's server with the debugger and reloader (never in production)",
    )


def run(args: argparse.Namespace) -> int:
    """Run one action; an unusable database is one line on stderr and exit status 1, never a traceback."""
    from sqlalchemy.exc import DBAPIError

    from msze.annotator.db import DatabaseProblem, describe

    action = {
        "serve": _serve,
        "import": _import,
        "export": _export,
        "stats": _stats,
        "gold": _gold,
        "unflag": _unflag,
        "bench": _bench,
    }[args.action]
    try:
        return action(args)
    except DatabaseProblem as exc:  # refused when opened: damaged, not a database, another schema
        print(f"annotator: {exc}", file=sys.stderr)
    except DBAPIError as exc:  # failed in the middle of the command
        print(f"annotator: {getattr(args, 'db', '')}: {describe(exc)}", file=sys.stderr)
    return 1


def _engine(url: str) -> Engine:
    from msze.annotator.db import make_engine

    return make_engine(url)


def make_server(app: Flask, host: str, port: int, threads: int) -> BaseWSGIServer:
    """The waitress server `serve` runs, listening already (OSError when it cannot: port in use, bad host).

    A body longer than the app's MAX_CONTENT_LENGTH is answered 413 from its Content-Length alone (a chunked
    one once that much has come), before waitress reads it: its default limit is 1 GB, spooled to temp files.
    """
    from waitress.server import create_server  # production WSGI server (pure Python, threads), as in search

    limit = app.config["MAX_CONTENT_LENGTH"]
    # waitress refuses a Content-Length >= max_request_body_size; the app takes up to MAX_CONTENT_LENGTH.
    return create_server(
        app, host=host, port=port, threads=threads, ident="msze-annotator", max_request_body_size=limit + 1
    )


def _cannot_listen(host: str, port: int, exc: OSError) -> int:
    """One line for an address the server cannot listen on, exit status 2."""
    if exc.errno == errno.EADDRINUSE:
        reason = "the port is in use by another program (stop it, or choose another with --port)"
    else:
        reason = exc.strerror or str(exc)
    print(f"annotator: cannot listen on {host}:{port}: {reason}", file=sys.stderr)
    return 2


def _serve(args: argparse.Namespace) -> int:
    from msze.annotator.app import create_app
    from msze.annotator.web import ENGINE

    try:
        app = create_app({"ANNOTATOR_DATABASE_URL": args.db}, instance_path=args.instance)
    except ValueError as exc:  # a malformed setting in the environment
        print(f"annotator: {exc}", file=sys.stderr)
        return 2
    try:
        if args.debug:
            return _serve_debug(app, args.host, args.port)
        try:
            server = make_server(app, args.host, args.port, args.threads)
        except OSError as exc:
            return _cannot_listen(args.host, args.port, exc)
        where = f"http://{server.effective_host}:{server.effective_port}/"
        print(f"annotator: {where}  (database {args.db})", file=sys.stderr, flush=True)
        try:
            server.run()
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
        return 0
    finally:
        app.extensions[ENGINE].dispose()


def _serve_debug(app: Flask, host: str, port: int) -> int:
    """werkzeug's development server; the address is tried first (werkzeug prints a paragraph and exits 1)."""
    from werkzeug.serving import is_running_from_reloader, run_simple

    if not is_running_from_reloader():  # the reloader's child gets the parent's socket, bound already
        try:
            family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
            with socket.create_server((host, port), family=family):
                pass
        except OSError as exc:
            return _cannot_listen(host, port, exc)
    print(f"annotator: http://{host}:{port}/  (debug)", file=sys.stderr, flush=True)
    run_simple(host, port, app, threaded=True, use_debugger=True, use_reloader=True)
    return 0


def _import(args: argparse.Namespace) -> int:
    from msze.annotator.importer import import_file

    engine = _engine(args.db)
    status = 0
    for path in args.files:
        if not path.is_file():
            print(f"{path}: {'not a file' if path.exists() else 'no such file'}", file=sys.stderr)
            status = 1
            continue
        try:
            stats = import_file(engine, path)
        except OSError as exc:
            print(f"{path}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
            continue
        if not _report_import(path, stats):
            status = 1
    return status


def _report_import(path: Path, stats: ImportStats) -> bool:
    """Print an import's problems (the first few) and its summary; False when nothing in it was usable."""
    unusable = stats.unusable()
    shown = MAX_MESSAGES_UNUSABLE if unusable else MAX_MESSAGES
    for message in stats.messages[:shown]:
        print(message, file=sys.stderr)
    if len(stats.messages) > shown:
        print(f"... and {len(stats.messages) - shown} more problems", file=sys.stderr)
    if unusable:
        print(f"{path}: nothing imported: {unusable}", file=sys.stderr)
        return False
    print(f"{path}: {stats.summary()}")
    return True


def _export(args: argparse.Namespace) -> int:
    from msze.annotator import export
    from msze.annotator.db import transaction

    if not args.tsv and not args.fasttext:
        print("give --tsv PATH and/or --fasttext PATH", file=sys.stderr)
        return 2
    engine = _engine(args.db)
    with transaction(engine) as conn:
        if args.tsv:
            with args.tsv.open("w", encoding="utf-8") as out:
                n = export.write_tsv(export.label_rows(conn, args.min_votes), out)
            print(f"{args.tsv}: {n} hours")
        if args.fasttext:
            with args.fasttext.open("w", encoding="utf-8") as out:
                n = export.write_fasttext(export.label_rows(conn, args.min_votes), out)
            print(f"{args.fasttext}: {n} lines")
    return 0


def _stats(args: argparse.Namespace) -> int:
    from msze.annotator import export
    from msze.annotator.db import transaction

    with transaction(_engine(args.db)) as conn:
        figures = export.stats(conn)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
    else:
        for key, value in figures.items():
            shown = f"{value:.3f}" if isinstance(value, float) else ("-" if value is None else value)
            print(f"{key}\t{shown}")
    return 0


def _gold(args: argparse.Namespace) -> int:
    from msze.annotator import admin, settings
    from msze.annotator.db import transaction

    try:  # the cheater thresholds the app uses: the environment's, else the defaults
        rules = settings.serving_config(settings.from_environment()).cheater_rules
    except ValueError as exc:
        print(f"annotator: {exc}", file=sys.stderr)
        return 2
    label = None if args.label == "clear" else args.label
    with transaction(_engine(args.db)) as conn:
        flagged = admin.set_gold(conn, args.hour_id, label, rules)
    if flagged is None:
        print(f"no hour with id {args.hour_id}", file=sys.stderr)
        return 1
    print(f"hour {args.hour_id}: gold={label or '-'}; flagged devices now {flagged}")
    return 0


def _unflag(args: argparse.Namespace) -> int:
    from msze.annotator import admin
    from msze.annotator.db import transaction

    with transaction(_engine(args.db)) as conn:
        found = admin.unflag(conn, args.device_id)
    if not found:
        print(f"no device with id {args.device_id}", file=sys.stderr)
        return 1
    print(f"device {args.device_id}: flag cleared")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from msze.annotator.bench import run_bench

    print(json.dumps(run_bench(args.files, args.devices, args.answers)))
    return 0
