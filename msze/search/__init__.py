"""The Mass-times search: results database, loader, search, JSON-LD, and the Flask web app with its API.

db.py (tables, engine), query.py (the parish search, one parish), upcoming.py (the next Masses near a point)
and reports.py (visitors' corrections) hold the SQL; params.py reads the request parameters; loader.py fills
the database from the pipeline's outputs. app.py is the factory (`create_app`): configuration, security
headers, error pages, and the Blueprints views.py (HTML pages), api.py (JSON API, OpenAPI from openapi.json,
CSV) and corrections.py (visitors' reports and their review), which share web.py (the request's connection,
cached aggregates). cli.py is `python -m msze search serve|load|corrections`.
"""
