"""The labelling web app: volunteers say whether a highlighted hour on a parish page is a Mass start.

`create_app()` (app.py) builds the Flask app; the logic it calls lives in small modules that tests use
directly: db.py (schema, transactions), identity.py (device cookie, fingerprint, address group), serving.py
(what to show next, answers, undo), cheaters.py (gold agreement, linked identities), gold.py (the rules' known
"no" answers), importer.py (hour candidates in), export.py (labels out, stats).
"""
