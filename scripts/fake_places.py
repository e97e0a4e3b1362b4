"""Serve a fake Google Places API (both flavours): `python scripts/fake_places.py --port 8002 --sample 25`.

Its directory is built from the first parishes of the same TSV as scripts/fake_deon.py (the bundled sample,
or `--tsv` the thesis's) so that the deon sample resolves with every outcome (found, fallback, AMBIGUOUS,
NOT_FOUND, no website). Each parish's website is a small site it serves on its own port of 127.0.0.1
(msze.testing.sample.site_pages; `--no-sites`: http://parafia-N.test/ names that nothing serves). Then:

    GOOGLE_MAPS_API_KEY=fake-valid-key msze crawl places -a parishes=parishes.tsv -o places.tsv:tsv \
        -s PLACES_NEW_URL=http://127.0.0.1:8002/v1/places:searchText
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msze.testing.deon_site import sample_rows  # noqa: E402
from msze.testing.places_server import VALID_KEY, FakePlaces, directory_for  # noqa: E402
from msze.testing.sample import SAMPLE_TSV, ParishSite  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8002)
    parser.add_argument(
        "--tsv", default=str(SAMPLE_TSV), help="parishes in the deon layout (default: the bundled sample)"
    )
    parser.add_argument(
        "--sample", type=int, default=25, help="parishes the fake knows (default: %(default)s)"
    )
    parser.add_argument("--key", default=VALID_KEY, help="the one valid API key (default: %(default)s)")
    parser.add_argument("--quota", type=int, default=None, help="searches answered before quota errors")
    parser.add_argument(
        "--sites", action=argparse.BooleanOptionalAction, default=True, help="serve the parishes' sites"
    )
    args = parser.parse_args()
    rows = sample_rows(args.tsv, args.sample)
    sites = [ParishSite(row, host=args.host).start() for row in rows] if args.sites else []
    directory, _ = directory_for(rows, [site.base_url + "/" for site in sites])
    if sites:
        ports = ", ".join(site.base_url.rsplit(":", 1)[-1] for site in sites)
        print(f"fake places: {len(sites)} parish sites on {args.host}, ports {ports}", flush=True)
    fake = FakePlaces(directory, key=args.key, quota=args.quota, host=args.host, port=args.port).start()
    print(f"fake places: {len(directory)} queries known; key {args.key!r}", flush=True)
    print(f"  -s PLACES_NEW_URL={fake.new_url}", flush=True)
    print(f"  -s PLACES_API=legacy -s PLACES_LEGACY_TEXTSEARCH_URL={fake.legacy_search_url}", flush=True)
    print(f"  -s PLACES_LEGACY_DETAILS_URL={fake.legacy_details_url}", flush=True)
    fake.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
