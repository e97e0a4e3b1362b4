"""WARC files for the re-processing tests, written with warcio the way other crawlers write them."""

from __future__ import annotations

import gzip
import io
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

SCHEDULE_HTML = (
    "<html><head><title>Parafia św. Jadwigi</title></head><body>"
    "<h2>Porządek Mszy Świętych</h2>"
    "<p>Niedziele i święta: 7.00, 9.30, 11.00, 18.00</p>"
    "<p>Dni powszednie: 7.00 i 18.00</p>"
    "<p>Kancelaria czynna we wtorki 16.00–17.30. Zapraszamy wszystkich parafian i gości.</p>"
    "</body></html>"
)
ANNOUNCEMENTS_HTML = (
    "<html><head><meta charset='iso-8859-2'></head><body><h2>Ogłoszenia duszpasterskie</h2>"
    "<p>W przyszłą niedzielę Msza św. dla dzieci o godz. 10.00. Spotkanie ministrantów w sobotę o 9.00."
    " Bóg zapłać za ofiary złożone na remont dachu kościoła.</p></body></html>"
)
ENGLISH_HTML = (
    "<html><body><h1>Welcome</h1><p>Holy Mass in English is celebrated every Sunday at 13.00 in the lower "
    "church. Everyone is welcome to join the community.</p></body></html>"
)
SITE = "http://parafia-jadwigi.pl"


def chunked(body: bytes, size: int = 40) -> bytes:
    """The body as sent with Transfer-Encoding: chunked."""
    out = b""
    for i in range(0, len(body), size):
        part = body[i : i + size]
        out += f"{len(part):x}\r\n".encode() + part + b"\r\n"
    return out + b"0\r\n\r\n"


def write_wget_style(path: Path) -> Path:
    """Like `wget --warc-file`: WARC/1.0, warcinfo, request before response, raw bodies as received
    (chunked + gzip; an ISO-8859-2 page), a redirect, an image, a revisit of an identical page under a
    second URL, and wget's log as a resource record.

    Yields 4 pages: msze.html, ogloszenia.html, en.html, and msze-kopia.html (the revisit)."""
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True, warc_version="WARC/1.0")
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "Wget/1.21.3"}))

        def exchange(url: str, status: str, headers: list[tuple[str, str]], body: bytes):  # noqa: ANN202
            request = writer.create_warc_record(
                url,
                "request",
                payload=io.BytesIO(b""),
                length=0,
                http_headers=StatusAndHeaders(
                    f"GET /{url.split('/', 3)[-1]} HTTP/1.1",
                    [("Host", "parafia-jadwigi.pl")],
                    is_http_request=True,
                ),
            )
            writer.write_record(request)
            response = writer.create_warc_record(
                url,
                "response",
                payload=io.BytesIO(body),
                length=len(body),
                http_headers=StatusAndHeaders(status, headers, protocol="HTTP/1.1"),
                warc_headers_dict={"WARC-Concurrent-To": request.rec_headers.get_header("WARC-Record-ID")},
            )
            writer.write_record(response)
            return response

        exchange(f"{SITE}/", "301 Moved Permanently", [("Location", "/msze.html")], b"")
        raw = chunked(gzip.compress(SCHEDULE_HTML.encode("utf-8")))
        first = exchange(
            f"{SITE}/msze.html",
            "200 OK",
            [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Transfer-Encoding", "chunked"),
                ("Content-Encoding", "gzip"),
                ("ETag", '"abc123"'),
            ],
            raw,
        )
        latin2 = ANNOUNCEMENTS_HTML.encode("iso-8859-2")
        exchange(
            f"{SITE}/ogloszenia.html",
            "200 OK",
            [("Content-Type", "text/html; charset=ISO-8859-2"), ("Content-Length", str(len(latin2)))],
            latin2,
        )
        exchange(f"{SITE}/logo.jpg", "200 OK", [("Content-Type", "image/jpeg")], b"\xff\xd8\xff\xe0JFIF")
        exchange(f"{SITE}/en.html", "200 OK", [("Content-Type", "text/html")], ENGLISH_HTML.encode())
        writer.write_record(
            writer.create_revisit_record(
                f"{SITE}/msze-kopia.html",
                first.rec_headers.get_header("WARC-Payload-Digest"),
                f"{SITE}/msze.html",
                first.rec_headers.get_header("WARC-Date"),
                http_headers=StatusAndHeaders(
                    "200 OK",
                    [
                        ("Content-Type", "text/html; charset=utf-8"),
                        ("Transfer-Encoding", "chunked"),
                        ("Content-Encoding", "gzip"),
                    ],
                    protocol="HTTP/1.1",
                ),
            )
        )
        # A revisit whose original is in another file cannot be resolved here.
        writer.write_record(
            writer.create_revisit_record(
                f"{SITE}/stara.html",
                "sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                f"{SITE}/stara.html",
                "2025-01-01T00:00:00Z",
                http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"),
            )
        )
        writer.write_record(
            writer.create_warc_record(
                "metadata://gnu.org/software/wget/warc/wget.log",
                "resource",
                payload=io.BytesIO(b"wget log"),
                warc_content_type="text/plain",
            )
        )
    return path


def write_project_style(path: Path) -> Path:
    """Like our own WARC (archive/warc.py) or Browsertrix: WARC/1.1, response then request, decoded body
    with its Content-Length. Yields 2 pages."""
    with open(path, "wb") as f:
        writer = WARCWriter(f, gzip=True)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "msze"}))
        for url, html in ((f"{SITE}/msze.html", SCHEDULE_HTML), (f"{SITE}/en.html", ENGLISH_HTML)):
            body = html.encode("utf-8")
            response = writer.create_warc_record(
                url,
                "response",
                payload=io.BytesIO(body),
                length=len(body),
                http_headers=StatusAndHeaders(
                    "200 OK",
                    [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
                    protocol="HTTP/1.1",
                ),
            )
            writer.write_record(response)
            writer.write_record(
                writer.create_warc_record(
                    url,
                    "request",
                    payload=io.BytesIO(b""),
                    length=0,
                    http_headers=StatusAndHeaders(
                        "GET / HTTP/1.1", [("Host", "parafia-jadwigi.pl")], is_http_request=True
                    ),
                    warc_headers_dict={
                        "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID")
                    },
                )
            )
    return path
