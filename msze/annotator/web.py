"""What the annotator's Blueprints share: the current app's engine, random source, clock and serving knobs.

Kept on the app (`app.extensions`, `app.config`) rather than in module globals, so that every app built by
`create_app` (tests build many) has its own database and settings, read at request time.
"""

from __future__ import annotations

import random
from datetime import datetime

from flask import Flask, current_app, request
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from msze.annotator.db import describe, make_engine, utcnow
from msze.annotator.serving import ServingConfig
from msze.annotator.settings import serving_config

ENGINE = "msze_annotator_engine"  # app.extensions keys
RNG = "msze_annotator_rng"
API_PREFIX = "/api"


def init_app(app: Flask) -> None:
    """Open the database (DatabaseProblem if it is unusable) and seed the gold draw for this app."""
    app.extensions[ENGINE] = make_engine(app.config["ANNOTATOR_DATABASE_URL"])
    app.extensions[RNG] = random.Random(app.config.get("ANNOTATOR_RANDOM_SEED"))


def engine() -> Engine:
    return current_app.extensions[ENGINE]


def rng() -> random.Random:
    return current_app.extensions[RNG]


def now() -> datetime:
    """The time of this request (ANNOTATOR_CLOCK lets tests move it)."""
    return (current_app.config.get("ANNOTATOR_CLOCK") or utcnow)()


def config() -> ServingConfig:
    """The serving knobs from the app's config as it is now (tests and admins may change it)."""
    return serving_config(current_app.config)


def is_api_request() -> bool:
    """Whether the request is for the JSON API (also when no route matched: /api/nope wants JSON)."""
    return request.path == API_PREFIX or request.path.startswith(API_PREFIX + "/")


def log_database_error(exc: DBAPIError) -> None:
    current_app.logger.error("database unavailable on %s: %s", request.path, describe(exc))
