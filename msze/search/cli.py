"""`python -m msze search serve|load|corrections`: run the search app and fill its database.

python -m msze search serve                       # bundled demo data on http://127.0.0.1:8080/
python -m msze search serve --db results.sqlite --port 8080 --base-url https://msze.example.org
python -m msze search load --parishes deon.tsv --places places.tsv --results results.jsonl --db results.sqlite
python -m msze search corrections --db results.sqlite > labels.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from flask import Flask
    from waitress.server import BaseWSGIServer

DEFAULT_DB = "output/search.sqlite"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    serve = sub.add_parser("serve", help="serve the search pages and JSON API (waitress)")
    serve.add_argument("--db", help="database URL or SQLite path; without it the bundled demo data is served")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    serve.add_argument("--threads", type=int, default=8, help="waitress worker threads (default 8)")
    serve.add_argument(
        "--base-url",
        help="public root of the site (https://msze.example.org): API and JSON-LD links are absolute "
        "under it; without it they are relative (env MSZE_SEARCH_BASE_URL)",
    )

    load = sub.add_parser("load", help="load parishes, websites and batch results into the database")
    load.add_argument("--parishes", help="deon stage output: TSV (thesis layout) or JSONL of ParishItem")
    load.add_argument("--places", help="places stage output: TSV like extended.tsv or JSONL of PlaceItem")
    load.add_argument("--results", help="batch results.jsonl (one object per parish crawl)")
    load.add_argument("--db", default=DEFAULT_DB, help=f"database URL or SQLite path (default {DEFAULT_DB})")

    corr = sub.add_parser("corrections", help="print visitors' corrections as JSONL training labels")
    corr.add_argument("--db", default=DEFAULT_DB, help=f"database URL or SQLite path (default {DEFAULT_DB})")


def run(args: argparse.Namespace) -> int:
    if args.action == "serve":
        return _serve(args)
    if args.action == "load":
        return _load(args)
    return _corrections(args)


def make_server(app: Flask, host: str, port: int, threads: int) -> BaseWSGIServer:
    """The waitress server `serve` runs: a body longer than the app's MAX_CONTENT_LENGTH is answered 413 from
    its Content-Length alone, before waitress reads (and buffers) any of it."""
    from waitress.server import create_server

    limit = app.config["MAX_CONTENT_LENGTH"]
    # waitress refuses a Content-Length >= max_request_body_size; the app takes up to MAX_CONTENT_LENGTH.
    return create_server(app, host=host, port=port, threads=threads, max_request_body_size=limit + 1)


def _serve(args: argparse.Namespace) -> int:
    from msze.search.app import create_app

    try:
        app = create_app(args.db, config={"BASE_URL": args.base_url} if args.base_url else None)
    except ValueError as exc:  # a bad setting: one line, not a traceback
        print(f"search serve: {exc}", file=sys.stderr)
        return 2
    server = make_server(app, args.host, args.port, args.threads)
    where = f"http://{server.effective_host}:{server.effective_port}/"
    print(f"msze search: serving {'demo data' if not args.db else args.db} on {where}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def _load(args: argparse.Namespace) -> int:
    from pathlib import Path

    from msze.search.db import create_schema, database_url, make_engine
    from msze.search.loader import load

    if not (args.parishes or args.places or args.results):
        print("search load: give at least one of --parishes, --places, --results", file=sys.stderr)
        return 2
    for path in (args.parishes, args.places, args.results):
        if path and not Path(path).is_file():
            print(f"search load: no such file: {path}", file=sys.stderr)
            return 2
    url = database_url(args.db)
    if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    engine = make_engine(url)
    create_schema(engine)
    try:
        report = load(engine, args.parishes, args.places, args.results)
    except (ValueError, OSError) as exc:  # a TSV without its columns, a file that cannot be read
        print(f"search load: {exc} (nothing was changed)", file=sys.stderr)
        return 1
    for line in report.bad_lines:
        print(f"skipped {line}", file=sys.stderr)
    print(json.dumps(report.as_dict(), ensure_ascii=False))
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
    from sqlalchemy import select

    from msze.search.db import corrections, create_schema, make_engine, mass_times, parishes
    from msze.search.urls import safe_url

    engine = make_engine(args.db)
    create_schema(engine)
    with engine.connect() as conn:
        rows = conn.execute(
            select(corrections, parishes.c.website, mass_times.c.source_url, mass_times.c.context)
            .join(parishes, parishes.c.id == corrections.c.parish_id)
            .outerjoin(
                mass_times,
                (mass_times.c.parish_id == corrections.c.parish_id)
                & (mass_times.c.day == corrections.c.day)
                & (mass_times.c.time == corrections.c.time),
            )
            .order_by(corrections.c.id)
        )
        for row in rows:
            label = {
                "parish_id": row.parish_id,
                "website": safe_url(row.website),
                "time": row.time,
                "day": row.day,
                "label": "other" if row.kind == "wrong" else "mass",
                "source_url": safe_url(row.source_url),
                "context": row.context,
                "comment": row.comment,
                "reported_at": row.created_at.isoformat() if row.created_at else None,
                "status": row.status,
            }
            print(json.dumps(label, ensure_ascii=False))
    return 0
