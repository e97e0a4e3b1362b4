"""Downloader middlewares: adapters over sniff.py (binary bodies) and backoff.py (retry timing)."""

from __future__ import annotations
