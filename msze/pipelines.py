"""Item pipelines, in the order of ITEM_PIPELINES: convert → template → filter → hours → rules → classify → store.

Each class is a thin adapter over a pure module (text.py, template.py, filters.py, hours.py, rules.py,
classifier.py); the decisions live there.
"""

from __future__ import annotations

# --- Extraction (text, template, filter, hours, rules) ---------------------------------------------

# --- Classification --------------------------------------------------------------------------------

# --- Storage ---------------------------------------------------------------------------------------
