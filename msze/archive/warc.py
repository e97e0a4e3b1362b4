"""WARC files of raw HTTP exchanges, written with warcio; no Scrapy imports.

One gzip member per record (warcio's default), flushed after each exchange, so a killed crawl leaves a file
whose complete records all read back. Bodies are stored as received (still Content-Encoded, e.g. gzip); the
transfer coding is already undone by the HTTP client, so `Transfer-Encoding` is kept only as
`X-Archive-Orig-Transfer-Encoding` and `Content-Length` is set to the stored body, as pywb/warcprox do.
"""

from __future__ import annotations

import io
import logging
import os
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.recordloader import ArcWarcRecord
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

SOFTWARE = "msze (Scrapy parish crawler)"
logger = logging.getLogger(__name__)
_HOP_BY_HOP = {"transfer-encoding", "content-length"}


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return ""


def _response_headers(headers: Iterable[tuple[str, str]], body_len: int) -> list[tuple[str, str]]:
    out = []
    for name, value in headers:
        low = name.lower()
        if low == "transfer-encoding":
            out.append(("X-Archive-Orig-Transfer-Encoding", value))
        elif low not in _HOP_BY_HOP:
            out.append((name, value))
    out.append(("Content-Length", str(body_len)))
    return out


# The parish a record belongs to: a field of the warcinfo record (its payload, "start_url: URL") for a file of
# one parish crawl, and of each response record in a file of several (the `parishes` spider). Not "WARC-"
# prefixed: that prefix is the standard's own.
START_URL_FIELD = "Msze-Start-URL"
INFO_START_URL = "start_url"


class WarcFile:
    """Append request/response record pairs to one .warc.gz file (created or truncated on open)."""

    def __init__(self, path: str | os.PathLike[str], info: dict[str, str] | None = None) -> None:
        self.path = os.fspath(path)
        os.makedirs(os.path.dirname(os.path.abspath(self.path)), exist_ok=True)
        self._f: BinaryIO = open(self.path, "wb")  # noqa: SIM115 (kept open for the crawl's lifetime)
        self._writer = WARCWriter(self._f, gzip=True)
        fields = {"software": SOFTWARE, "format": "WARC File Format 1.0"}
        fields.update(info or {})
        record = self._writer.create_warcinfo_record(os.path.basename(self.path), fields)
        self._writer.write_record(record)
        self._f.flush()
        self.records = 1

    def write_exchange(
        self,
        url: str,
        status: int,
        response_headers: Iterable[tuple[str, str]],
        body: bytes,
        method: str = "GET",
        request_headers: Iterable[tuple[str, str]] = (),
        request_body: bytes = b"",
        protocol: str = "HTTP/1.1",
        ip_address: str | None = None,
        truncated: str | None = None,
        start_url: str | None = None,
    ) -> None:
        """Write the request record and its response record (linked by WARC-Concurrent-To). `truncated`
        (WARC-Truncated: "length", "time", "disconnect", "unspecified") marks a body the client cut short;
        `start_url` names the parish of a response in a file of several parishes (START_URL_FIELD; a file of
        one parish says it once, in its warcinfo record)."""
        protocol = protocol or "HTTP/1.1"
        status_line = f"{status} {_reason(status)}".strip()
        resp_http = StatusAndHeaders(
            status_line, _response_headers(response_headers, len(body)), protocol=protocol
        )
        warc_headers: dict[str, str] = {}
        if ip_address:
            warc_headers["WARC-IP-Address"] = ip_address
        if truncated:
            warc_headers["WARC-Truncated"] = truncated
        if start_url:
            warc_headers[START_URL_FIELD] = start_url
        response = self._writer.create_warc_record(
            url,
            "response",
            payload=io.BytesIO(body),
            length=len(body),
            http_headers=resp_http,
            warc_headers_dict=warc_headers,
        )
        parts = urlsplit(url)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        req_headers = list(request_headers)
        if not any(n.lower() == "host" for n, _ in req_headers):
            req_headers.insert(0, ("Host", parts.netloc))
        if request_body:
            req_headers.append(("Content-Length", str(len(request_body))))
        req_http = StatusAndHeaders(f"{method} {target} {protocol}", req_headers, is_http_request=True)
        request = self._writer.create_warc_record(
            url,
            "request",
            payload=io.BytesIO(request_body),
            length=len(request_body),
            http_headers=req_http,
            warc_headers_dict={
                "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID"),
                "WARC-Date": response.rec_headers.get_header("WARC-Date"),
            },
        )
        # The request first, as wget and Heritrix write them; it names its response (WARC-Concurrent-To).
        self._writer.write_record(request)
        self._writer.write_record(response)
        self._f.flush()
        self.records += 2

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()


@dataclass(frozen=True)
class WarcResponse:
    """One response record, content decoded (chunking and Content-Encoding undone)."""

    url: str
    status: int
    headers: list[tuple[str, str]]
    body: bytes
    date: str
    record_id: str


class WarcReader:
    """The records of an open WARC file that notice a file cut short (a killed crawl, a partial copy).

    warcio ends quietly at a torn gzip member or record, and fails on a torn header; here the records before
    are kept and `truncated` says how far the file read (None for a whole file). A file with no readable
    record at all still raises: that is not a torn WARC but not a WARC.
    """

    def __init__(self, f: BinaryIO, arc2warc: bool = False) -> None:
        self._f = f
        self.iterator = ArchiveIterator(f, arc2warc=arc2warc)
        self.records = 0
        self.truncated: str | None = None
        self._start = 0  # offset of the last record read whole
        self._end = 0  # where it ends

    def __iter__(self) -> Iterator[ArcWarcRecord]:
        short = None
        try:
            for record in self.iterator:
                self.records += 1
                yield record
                self._start = self.iterator.get_record_offset()  # reads the rest of the record
                self._end = self._start + self.iterator.get_record_length()
                if _cut_short(record):
                    short = record.rec_headers.get_header("WARC-Target-URI") or "no URL"
        except Exception as exc:  # noqa: BLE001 - warcio fails on torn headers with any error (AttributeError, ...)
            if not self.records:
                raise
            self.truncated = (
                f"unreadable after record {self.records}, at byte {self._end} of {self._size()} "
                f"({type(exc).__name__}); the records before it read"
            )
            return
        if short is not None:
            self.truncated = f"cut short at byte {self._size()}, in record {self.records} ({short})"
        else:
            self.truncated = self._torn_tail()

    def get_record_offset(self) -> int:
        return self.iterator.get_record_offset()

    def _size(self) -> int:
        return os.fstat(self._f.fileno()).st_size

    def _torn_tail(self) -> str | None:
        """What is wrong after the last whole record: bytes that form no record (an uncompressed WARC may end
        in blank lines) or a gzip member without its end; None when nothing is."""
        fd, size = self._f.fileno(), self._size()
        if os.pread(fd, 2, 0) == _GZIP_MAGIC:
            if _gzip_members_whole(fd, self._start, size):
                return None
            return f"truncated after record {self.records}: its gzip data ends unfinished at byte {size}"
        if size - self._end <= 4096 and not os.pread(fd, 4096, self._end).strip():
            return None
        return f"truncated after record {self.records}: bytes {self._end}-{size} form no whole record"


_GZIP_MAGIC = b"\x1f\x8b"


def _cut_short(record: ArcWarcRecord) -> bool:
    """A record read to its end with fewer bytes than its Content-Length, or torn before that header."""
    if record.format == "warc" and record.rec_headers.get_header("Content-Length") is None:
        return True
    return getattr(record.raw_stream, "limit", 0) > 0


def _gzip_members_whole(fd: int, start: int, size: int) -> bool:
    """Whether the gzip members from `start` to the end of the file all reach their end-of-stream marker."""
    member = zlib.decompressobj(wbits=31)
    started = False
    pos = start
    try:
        while pos < size:
            data = os.pread(fd, 1 << 16, pos)
            if not data:
                break
            pos += len(data)
            while data:
                started = True
                member.decompress(data, 1 << 20)
                while member.unconsumed_tail:  # bounded output: a gzip bomb is not inflated into memory
                    member.decompress(member.unconsumed_tail, 1 << 20)
                if not member.eof:
                    break
                data, member, started = member.unused_data, zlib.decompressobj(wbits=31), False
    except zlib.error:  # bytes that are not gzip after the last member
        return False
    return not started


def iter_responses(path: str | os.PathLike[str], only_status: int | None = None) -> Iterator[WarcResponse]:
    """Response records of any WARC / WARC.gz file (ours, wget's, Heritrix's, ...); a file cut short is
    read up to where it breaks, with a warning."""
    with open(path, "rb") as f:
        reader = WarcReader(f)
        for record in reader:
            if record.rec_type != "response" or record.http_headers is None:
                continue
            try:
                status = int(record.http_headers.get_statuscode() or 0)
            except ValueError:
                status = 0
            if only_status is not None and status != only_status:
                continue
            yield WarcResponse(
                url=record.rec_headers.get_header("WARC-Target-URI") or "",
                status=status,
                headers=list(record.http_headers.headers),
                body=record.content_stream().read(),
                date=record.rec_headers.get_header("WARC-Date") or "",
                record_id=record.rec_headers.get_header("WARC-Record-ID") or "",
            )
        if reader.truncated:
            logger.warning("%s: %s", os.fspath(path), reader.truncated)


def count_records(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Number of records by WARC-Type (a quick check that a file reads end to end; "truncated" says how far
    it got when it does not)."""
    counts: dict[str, Any] = {}
    with open(path, "rb") as f:
        reader = WarcReader(f)
        for record in reader:
            counts[record.rec_type] = counts.get(record.rec_type, 0) + 1
    if reader.truncated:
        counts["truncated"] = reader.truncated
    return counts
