"""Old parish hosting that speaks only TLS 1.0: crawled after one legacy-TLS retry (msze/crawling/tls.py).

The servers are Python's ssl on 127.0.0.1 with a certificate made by the test; the crawls are `scrapy crawl`
subprocesses (conftest.run_crawl) going straight to https://127.0.0.1:PORT/.
"""

from __future__ import annotations

import datetime
import ssl
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import run_crawl
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from msze.crawling.tls import is_tls_version_failure

PAGES = {
    "/": '<html><body><a href="/msze.html">Msze święte</a></body></html>',
    "/msze.html": "<html><body><h1>Porządek Mszy świętych</h1><p>Niedziele: 8:00, 10:00</p></body></html>",
}


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        page = PAGES.get(self.path)
        body = (page or "nie ma").encode()
        self.send_response(200 if page else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _certificate(folder: Path) -> tuple[Path, Path]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "parafia.test")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(1)
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=1))
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return cert_file, key_file


@contextmanager
def https_server(folder: Path, tls10_only: bool) -> Iterator[str]:
    """Serve PAGES over https on 127.0.0.1; yields the site's URL."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(*_certificate(folder))
    if tls10_only:
        context.set_ciphers("DEFAULT:@SECLEVEL=0")
        with warnings.catch_warnings():  # ssl.TLSVersion.TLSv1 is deprecated: that is the point here
            warnings.simplefilter("ignore", DeprecationWarning)
            context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"https://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def old_tls_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with https_server(tmp_path_factory.mktemp("old"), tls10_only=True) as url:
        yield url


@pytest.fixture(scope="module")
def modern_tls_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with https_server(tmp_path_factory.mktemp("modern"), tls10_only=False) as url:
        yield url


def test_tls10_only_site_is_crawled_after_one_legacy_retry(old_tls_site: str, tmp_path: Path) -> None:
    result = run_crawl(old_tls_site, tmp_path)
    assert result.returncode == 0, result.log[-2000:]
    assert result.urls() == {old_tls_site, old_tls_site + "msze.html"}
    assert result.stats["msze/tls/legacy_retry"] == 1  # one host, marked once
    # the retried request (robots.txt); later requests reach the marked host with legacy TLS directly
    assert result.stats["msze/tls/legacy_ok"] == 1
    assert "retrying with legacy TLS" in result.log
    assert not any(key.startswith("msze/parish/errors") for key in result.stats)


def test_without_the_retry_a_tls10_only_site_is_lost(old_tls_site: str, tmp_path: Path) -> None:
    result = run_crawl(old_tls_site, tmp_path, "LEGACY_TLS_RETRY=False")
    assert result.urls() == set()
    assert "protocol version" in result.log


def test_modern_tls_site_needs_no_retry(modern_tls_site: str, tmp_path: Path) -> None:
    result = run_crawl(modern_tls_site, tmp_path)
    assert result.urls() == {modern_tls_site, modern_tls_site + "msze.html"}
    assert "msze/tls/legacy_retry" not in result.stats


@pytest.mark.parametrize(
    ("message", "version_failure"),
    [
        ("[('SSL routines', '', 'tlsv1 alert protocol version')]", True),
        ("[('SSL routines', '', 'unsupported protocol')]", True),
        ("[('SSL routines', '', 'no protocols available')]", True),
        ("Connection was refused by other side: 111", False),
        ("[('SSL routines', '', 'certificate verify failed')]", False),
    ],
)
def test_is_tls_version_failure(message: str, version_failure: bool) -> None:
    assert is_tls_version_failure(message) is version_failure
