"""Helpers every part of msze shares: one clock format, one SQLite set-up, one text fold, one URL host."""
