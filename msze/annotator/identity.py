"""Device identity without login: a long-lived random cookie, and a fingerprint that only links identities.

The cookie is the only thing that identifies a device: a client without it always gets a new identity. The
fingerprint is a hash of what the browser tells anyway (User-Agent, Accept-Language) plus screen facts the
page's script sends (size, pixel ratio, time zone, ...). Anyone can send another browser's facts, so it never
authenticates; it only links identities for cheater detection (identities sharing it are judged together, see
cheaters.py). New identities are rate-limited per address group so clearing cookies in a loop does not mint
devices.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import re
import secrets

COOKIE_NAME = "msze_device"
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{20,64}$")
_MAX_INFO_CHARS = 2000  # a fingerprint payload bigger than this is junk; it is cut, not trusted


def new_token() -> str:
    """A random, unguessable device token (256 bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def valid_token(value: str | None) -> bool:
    """Whether a cookie value looks like a token we issued (anything else is ignored, never looked up)."""
    return bool(value) and bool(_TOKEN_RE.match(value))


def fingerprint(user_agent: str, accept_language: str, screen_info: object) -> str:
    """sha256 of the browser's UA, languages and the screen facts sent by the page (any JSON value)."""
    try:
        info = json.dumps(screen_info, sort_keys=True, ensure_ascii=False)[:_MAX_INFO_CHARS]
    except (TypeError, ValueError):
        info = ""
    raw = "\x1f".join([user_agent[:500], accept_language[:200], info])
    return hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()


def may_create_identity(recent_from_ip: int, limit: int) -> bool:
    """Whether an IP that created `recent_from_ip` devices in the current window may create one more."""
    return limit <= 0 or recent_from_ip < limit


def ip_group(ip: str) -> str:
    """The address block one household, office or phone usually has: IPv4 /24, IPv6 /64 (else `ip` itself).

    An IPv6 client gets a whole /64 and an IPv4 one often several addresses of a /24: limits and cheater
    groups keyed on the single address would be dodged by changing it.
    """
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip[:64]
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    prefix = 24 if address.version == 4 else 64
    return str(ipaddress.ip_network(f"{address}/{prefix}", strict=False))
