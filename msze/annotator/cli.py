"""`python -m msze annotator serve|import|export|stats|gold|unflag`: the labelling app and its data."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sqlalchemy import select, update

DEFAULT_DB = "sqlite:///annotator.sqlite3"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = __doc__
    db_default = os.environ.get("ANNOTATOR_DATABASE_URL", DEFAULT_DB)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--db",
        default=db_default,
        help=f"SQLAlchemy database URL (env ANNOTATOR_DATABASE_URL; default {DEFAULT_DB})",
    )
    sub = parser.add_subparsers(dest="action", required=True)

    serve = sub.add_parser("serve", parents=[common], help="serve the web app (threaded werkzeug server)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--instance", default=None, help="folder for the generated secret key (default: Flask's)"
    )
    serve.add_argument("--threads", type=int, default=8, help="waitress worker threads (default 8)")
    serve.add_argument(
        "--debug",
        action="store_true",
        help="werkzeug's server with the debugger and reloader (never in production)",
    )

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


def _engine(url: str):  # noqa: ANN202 - sqlalchemy Engine
    from msze.annotator.db import make_engine

    return make_engine(url)


def _serve(args: argparse.Namespace) -> int:
    from msze.annotator.app import create_app

    try:
        app = create_app({"ANNOTATOR_DATABASE_URL": args.db}, instance_path=args.instance)
    except ValueError as exc:  # a malformed setting in the environment
        print(f"annotator: {exc}", file=sys.stderr)
        return 2
    print(f"annotator: http://{args.host}:{args.port}/  (database {args.db})", file=sys.stderr, flush=True)
    if args.debug:
        from werkzeug.serving import run_simple

        run_simple(args.host, args.port, app, threaded=True, use_debugger=True, use_reloader=True)
    else:
        import waitress  # a production WSGI server (pure Python, threads), already used by the search app

        waitress.serve(app, host=args.host, port=args.port, threads=args.threads, ident="msze-annotator")
    return 0


def _import(args: argparse.Namespace) -> int:
    from msze.annotator.importer import import_file

    engine = _engine(args.db)
    status = 0
    for path in args.files:
        if not path.is_file():
            print(f"{path}: no such file", file=sys.stderr)
            status = 1
            continue
        try:
            stats = import_file(engine, path)
        except OSError as exc:
            print(f"{path}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
            continue
        for message in stats.messages[:50]:
            print(message, file=sys.stderr)
        if len(stats.messages) > 50:
            print(f"... and {len(stats.messages) - 50} more problems", file=sys.stderr)
        print(f"{path}: {stats.summary()}")
    return status


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


def _setting(name: str) -> int | float:
    """An app setting from the environment, else its default (the admin commands run without the app)."""
    from msze.annotator.app import DEFAULTS, env_value

    return env_value(name, DEFAULTS[name])


def _cheater_rules():  # noqa: ANN202 - cheaters.Rules, imported lazily
    """The cheater thresholds from the environment, else the app's defaults."""
    from msze.annotator.serving import ServingConfig

    return ServingConfig(
        min_gold=int(_setting("ANNOTATOR_CHEATER_MIN_GOLD")),
        min_agreement=float(_setting("ANNOTATOR_CHEATER_MIN_AGREEMENT")),
        same_min_answers=int(_setting("ANNOTATOR_CHEATER_SAME_MIN_ANSWERS")),
        same_max_share=float(_setting("ANNOTATOR_CHEATER_SAME_MAX_SHARE")),
        clear_min_gold=int(_setting("ANNOTATOR_CHEATER_CLEAR_MIN_GOLD")),
        clear_agreement=float(_setting("ANNOTATOR_CHEATER_CLEAR_AGREEMENT")),
        group_window=int(_setting("ANNOTATOR_GROUP_WINDOW")),
    ).cheater_rules


def _gold(args: argparse.Namespace) -> int:
    from msze.annotator import cheaters
    from msze.annotator.db import hours, transaction

    label = None if args.label == "clear" else args.label
    with transaction(_engine(args.db)) as conn:
        if conn.execute(select(hours.c.id).where(hours.c.id == args.hour_id)).first() is None:
            print(f"no hour with id {args.hour_id}", file=sys.stderr)
            return 1
        conn.execute(
            update(hours)
            .where(hours.c.id == args.hour_id)
            .values(gold_label=label, gold_origin="admin")  # cleared stays cleared on re-import
        )
        flagged = cheaters.recheck_all(conn, _cheater_rules())
    print(f"hour {args.hour_id}: gold={label or '-'}; flagged devices now {flagged}")
    return 0


def _unflag(args: argparse.Namespace) -> int:
    from msze.annotator.db import devices, transaction

    with transaction(_engine(args.db)) as conn:
        done = conn.execute(
            update(devices)
            .where(devices.c.id == args.device_id)
            .values(flagged=False, flagged_at=None, flag_reason="admin")  # vouched: no group flag again
        )
    if done.rowcount != 1:
        print(f"no device with id {args.device_id}", file=sys.stderr)
        return 1
    print(f"device {args.device_id}: flag cleared")
    return 0


def _bench(args: argparse.Namespace) -> int:
    from msze.annotator.bench import run_bench

    print(json.dumps(run_bench(args.files, args.devices, args.answers)))
    return 0
