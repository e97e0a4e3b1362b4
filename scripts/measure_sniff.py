"""What a 50 MB video served as text/html costs a parish crawl, with and without BinarySniffMiddleware.

    .venv/bin/python scripts/measure_sniff.py

Serves the fixture web (tests/sites), crawls the video with `scrapy crawl parish`, and prints the bytes the
server actually sent and the crawl's downloader/response_bytes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from conftest import make_fixture_web, run_crawl  # noqa: E402

URL = "http://swwojciech.test/film/rekolekcje.html"


def main() -> int:
    for enabled in (True, False):
        web = make_fixture_web()
        video = web.routes[("swwojciech.test", "/film/rekolekcje.html")]
        with tempfile.TemporaryDirectory() as tmp:
            result = run_crawl(URL, Path(tmp), f"BINARY_SNIFF_ENABLED={enabled}", proxy=web.proxy)
        web.stop()
        print(
            f"BINARY_SNIFF_ENABLED={enabled!s:5}: "
            f"server sent {video.bytes_sent:>10,} of {video.size:,} bytes; "
            f"downloader/response_bytes={result.stats.get('downloader/response_bytes', 0):,}; "
            f"dropped={result.stats.get('msze/binary_sniff/dropped', 0)}; pages stored={len(result.items)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
