"""The Mass-times search: results database, loader, search, JSON-LD, and the Flask web app with its API."""
