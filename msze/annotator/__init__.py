"""The labelling web app: volunteers say whether a highlighted hour on a parish page is a Mass start.

`create_app()` (app.py) builds the Flask app from settings.py (every setting, its default and why) and two
Blueprints: views.py (the HTML pages) and api.py (the JSON API the page calls); web.py is what they share.
The logic they call lives in small modules that tests use directly: db.py (schema, transactions), identity.py
(device cookie, fingerprint, address group), serving.py (devices, what to show next, answers, undo),
cheaters.py (gold agreement, linked identities), gold.py (the rules' known "no" answers), importer.py (hour
candidates in), export.py (labels out, stats), admin.py (admin gold answers, unflagging). cli.py is
`python -m msze annotator ...`.
"""
