"""The annotator's settings: each one's default and why, read from the environment by the app and the admin
commands alike, and the serving knobs made from them."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from msze.annotator.serving import ServingConfig

# Every setting, its default, and why. Each can be set in the environment under the same name.
DEFAULTS: dict[str, Any] = {
    # Where labels live: a file path (SQLite) or any SQLAlchemy URL (postgresql+psycopg://...), same code.
    "ANNOTATOR_DATABASE_URL": "sqlite:///annotator.sqlite3",
    # Share of served hours taken from the gold pool (known answers) to measure each device's agreement.
    "ANNOTATOR_GOLD_FRACTION": 0.1,
    # A device is judged only after this many gold answers (a single slip must not flag anyone) ...
    "ANNOTATOR_CHEATER_MIN_GOLD": 5,
    # ... and flagged when it agrees with fewer than this share of them.
    "ANNOTATOR_CHEATER_MIN_AGREEMENT": 0.7,
    # A device is cleared of suspicion by association (see below) with this many gold answers of each label
    # and this agreement on each.
    "ANNOTATOR_CHEATER_CLEAR_MIN_GOLD": 10,
    "ANNOTATOR_CHEATER_CLEAR_AGREEMENT": 0.85,
    # Also flagged: this many answers (0 = off) of which at least this share are the same answer (honest
    # answers on the mostly-"Nie" pool are mixed).
    "ANNOTATOR_CHEATER_SAME_MIN_ANSWERS": 50,
    "ANNOTATOR_CHEATER_SAME_MAX_SHARE": 0.98,
    # Identities created within this many seconds of each other with the same fingerprint or from the same
    # address group are judged together (cheaters.py): rotating identities does not shed a flag.
    "ANNOTATOR_GROUP_WINDOW": 86400,
    # Share of gold served to a device flagged only as one of such a group: its answers do not count while
    # flagged anyway, and its own gold (enough "yes" and "no", passing) clears it.
    "ANNOTATOR_PROBATION_GOLD_FRACTION": 0.5,
    # New device identities one address group (IPv4 /24, IPv6 /64) may create per window (stops
    # cookie-clearing loops; 0 = no limit).
    "ANNOTATOR_NEW_DEVICES_PER_IP": 20,
    "ANNOTATOR_NEW_DEVICES_WINDOW": 3600,
    # Device cookie lifetime in seconds (volunteers come back months later).
    "ANNOTATOR_COOKIE_MAX_AGE": 5 * 365 * 24 * 3600,
    # Characters of page text shown on each side of the hour (day headings above it decide the answer).
    "ANNOTATOR_WINDOW_CHARS": 300,
    # Reverse proxies in front of the app whose X-Forwarded-For is trusted for the client IP (0 = none).
    "ANNOTATOR_PROXY_COUNT": 0,
}


def env_value(name: str, default: Any) -> Any:
    """The environment's `name` as the type of `default`, else `default` (the app and the admin commands)."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        return type(default)(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r}: expected {type(default).__name__}, like {default!r}") from None


def from_environment() -> dict[str, Any]:
    """Every setting: the environment's value, else the default; ValueError (one line) for a malformed one."""
    return {name: env_value(name, default) for name, default in DEFAULTS.items()}


def serving_config(settings: Mapping[str, Any]) -> ServingConfig:
    """The serving and cheater knobs from settings (the app's config, or `from_environment()`)."""
    return ServingConfig(
        gold_fraction=float(settings["ANNOTATOR_GOLD_FRACTION"]),
        min_gold=int(settings["ANNOTATOR_CHEATER_MIN_GOLD"]),
        min_agreement=float(settings["ANNOTATOR_CHEATER_MIN_AGREEMENT"]),
        same_min_answers=int(settings["ANNOTATOR_CHEATER_SAME_MIN_ANSWERS"]),
        same_max_share=float(settings["ANNOTATOR_CHEATER_SAME_MAX_SHARE"]),
        clear_min_gold=int(settings["ANNOTATOR_CHEATER_CLEAR_MIN_GOLD"]),
        clear_agreement=float(settings["ANNOTATOR_CHEATER_CLEAR_AGREEMENT"]),
        window_chars=int(settings["ANNOTATOR_WINDOW_CHARS"]),
        group_window=int(settings["ANNOTATOR_GROUP_WINDOW"]),
    )
