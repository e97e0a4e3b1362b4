"""A second chance for parish servers that speak only TLS 1.0/1.1 (old hosting).

OpenSSL 3+ refuses TLS below 1.2 at its default security level, so such a server fails the handshake
(`tlsv1 alert protocol version`) and its parish is lost. LegacyTLSRetryMiddleware (middlewares.py) marks
the host after such a failure and retries once; this download handler then connects to marked hosts with
TLS 1.0 allowed (security level 0). The crawler never verifies certificates (Scrapy's default), so the
older protocol weakens nothing it relied on; other hosts keep Scrapy's own TLS options.
"""

from __future__ import annotations

import re
from typing import Any
from weakref import WeakKeyDictionary

from OpenSSL import SSL
from twisted.internet.interfaces import IOpenSSLClientConnectionCreator
from twisted.web.iweb import IPolicyForHTTPS
from zope.interface import implementer

# What OpenSSL says, on either side, when the two ends share no protocol version.
_VERSION_FAILURE_RE = re.compile(
    r"protocol version|unsupported protocol|no protocols available|wrong version number|"
    r"version too low|no shared cipher|sslv3 alert handshake failure",
    re.IGNORECASE,
)
_LEGACY_HOSTS: WeakKeyDictionary[Any, set[str]] = WeakKeyDictionary()


def is_tls_version_failure(message: str) -> bool:
    """True when a download error message is a TLS handshake that failed on the protocol version."""
    return bool(_VERSION_FAILURE_RE.search(message))


def legacy_tls_hosts(crawler: Any) -> set[str]:
    """The hosts of this crawl to connect to with legacy TLS (shared by the middleware and the handler)."""
    return _LEGACY_HOSTS.setdefault(crawler, set())


@implementer(IOpenSSLClientConnectionCreator)
class _LegacyTLSCreator:
    """TLS 1.0+ at OpenSSL security level 0, no certificate verification, SNI set."""

    def __init__(self, hostname: str) -> None:
        self.hostname = hostname
        self.context = SSL.Context(SSL.TLS_METHOD)
        self.context.set_min_proto_version(SSL.TLS1_VERSION)
        self.context.set_cipher_list(b"DEFAULT:@SECLEVEL=0")
        self.context.set_verify(SSL.VERIFY_NONE)

    def clientConnectionForTLS(self, tlsProtocol: Any) -> SSL.Connection:  # noqa: N802, N803 (Twisted's names)
        connection = SSL.Connection(self.context, None)
        connection.set_app_data(tlsProtocol)
        if not re.fullmatch(r"[\d.]+|\[?[0-9a-fA-F:]+\]?", self.hostname):  # SNI takes names, not addresses
            connection.set_tlsext_host_name(self.hostname.encode("idna"))
        return connection


@implementer(IPolicyForHTTPS)
class LegacyTLSPolicy:
    """Scrapy's TLS options for every host, legacy ones for the hosts in `legacy_hosts`."""

    def __init__(self, default: Any, legacy_hosts: set[str]) -> None:
        self.default = default
        self.legacy_hosts = legacy_hosts

    def creatorForNetloc(self, hostname: bytes, port: int) -> Any:  # noqa: N802 (Twisted's name)
        host = hostname.decode("ascii").lower()
        if host in self.legacy_hosts:
            return _LegacyTLSCreator(host)
        return self.default.creatorForNetloc(hostname, port)
