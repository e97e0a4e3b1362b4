"""The annotator's HTML pages: the annotation page (its script calls the API) and the stats page."""

from __future__ import annotations

from flask import Blueprint, render_template

from msze.annotator import export, web
from msze.annotator.db import transaction

bp = Blueprint("views", __name__)


@bp.get("/")
def index() -> str:
    return render_template("index.html")


@bp.get("/statystyki")
def stats_page() -> str:
    with transaction(web.engine()) as conn:
        figures = export.stats(conn)
    return render_template("stats.html", s=figures)
