"""Bundled demo data for `python -m msze search serve` without --db (generated, see generate.py)."""
