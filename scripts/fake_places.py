"""Serve a fake Google Places API (both flavours): `python scripts/fake_places.py --port 8002 --sample 25`.

Its directory is built from the first parishes of the thesis TSV (read by path; GPL-3.0 thesis data) so that
the deon sample resolves with every outcome (found, fallback, AMBIGUOUS, NOT_FOUND, no website). Then:

    GOOGLE_MAPS_API_KEY=fake-valid-key scrapy crawl places -a parishes=parishes.tsv -o places.tsv:tsv \
        -s PLACES_NEW_URL=http://127.0.0.1:8002/v1/places:searchText
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msze.testing.deon_site import DEFAULT_TSV, sample_rows  # noqa: E402
from msze.testing.places_server import VALID_KEY, FakePlaces, directory_for  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument(
        "--tsv", default=str(DEFAULT_TSV), help="thesis deon.fixed.tsv (default: %(default)s)"
    )
    parser.add_argument(
        "--sample", type=int, default=25, help="parishes the fake knows (default: %(default)s)"
    )
    parser.add_argument("--key", default=VALID_KEY, help="the one valid API key (default: %(default)s)")
    parser.add_argument("--quota", type=int, default=None, help="searches answered before quota errors")
    args = parser.parse_args()
    directory, _ = directory_for(sample_rows(args.tsv, args.sample))
    fake = FakePlaces(directory, key=args.key, quota=args.quota, host=args.host, port=args.port).start()
    print(f"fake places: {len(directory)} queries known; key {args.key!r}", flush=True)
    print(f"  -s PLACES_NEW_URL={fake.new_url}", flush=True)
    print(f"  -s PLACES_API=legacy -s PLACES_LEGACY_TEXTSEARCH_URL={fake.legacy_search_url}", flush=True)
    print(f"  -s PLACES_LEGACY_DETAILS_URL={fake.legacy_details_url}", flush=True)
    fake.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
