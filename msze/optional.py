"""Components that are off by default (WARC, language, re-crawl state, the stats file) say so at INFO.

Scrapy logs a `NotConfigured` that carries arguments as a WARNING "Disabled …" line; every crawl would print
several of them for components nobody asked for, hiding the warnings that matter. A component switched off
by its setting raises `SwitchedOff(cls, reason)` instead: the same line at INFO, and an exception without
arguments, which Scrapy drops silently (its `str()` is still the reason). A setting with a wrong value still
raises `NotConfigured(message)`: a warning.
"""

from __future__ import annotations

import logging

from scrapy.exceptions import NotConfigured

logger = logging.getLogger("scrapy.middleware")  # where Scrapy writes its own "Enabled/Disabled" lines


class SwitchedOff(NotConfigured):
    """NotConfigured for a component its setting turns off: "Disabled <component>: <reason>" at INFO."""

    def __init__(self, component: type, reason: str) -> None:
        super().__init__()  # no args: Scrapy's middleware manager logs nothing for it
        self.reason = reason
        logger.info("Disabled %s.%s: %s", component.__module__, component.__qualname__, reason)

    def __str__(self) -> str:
        return self.reason
