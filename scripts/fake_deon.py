"""Serve the fake deon.pl directory by hand: `python scripts/fake_deon.py --port 8001 --sample 25`.

Then: `msze crawl deon -a start_url=http://127.0.0.1:8001/parafie-koscioly/ -o parishes.tsv:tsv`.
The rows come from the bundled sample (msze/testing/data/deon-sample.tsv, 25 invented parishes) or, with
`--tsv ../shared/data/thesis/deon.fixed.tsv`, from the thesis TSV (read by path; GPL-3.0 thesis data).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from msze.directory.deon_parser import read_tsv  # noqa: E402
from msze.testing.deon_site import FIELDS, FakeDeon, roundtrip, sample_rows  # noqa: E402
from msze.testing.sample import SAMPLE_TSV  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument(
        "--tsv", default=str(SAMPLE_TSV), help="parishes in the deon layout (default: the bundled sample)"
    )
    parser.add_argument(
        "--sample", type=int, default=25, help="how many parishes to serve (default: %(default)s)"
    )
    parser.add_argument("--page-size", type=int, default=10)
    parser.add_argument(
        "--fail-page", type=int, default=2, help="listing page that answers 503 first (0: none)"
    )
    parser.add_argument("--fail-times", type=int, default=2)
    parser.add_argument(
        "--check", action="store_true", help="render + parse every row of --tsv, report differences, exit"
    )
    args = parser.parse_args()
    if args.check:
        rows = list(read_tsv(args.tsv))
        differ = roundtrip(rows, args.page_size)
        for row, record in differ:
            print("differs:", {f: (row[f], record[f]) for f in FIELDS if row[f] != record[f]})
        print(f"{len(rows) - len(differ)} of {len(rows)} rows parse back exactly")
        return 0
    rows = sample_rows(args.tsv, args.sample)
    fake = FakeDeon(
        rows, args.page_size, args.fail_page or None, args.fail_times, host=args.host, port=args.port
    )
    fake.start()
    print(f"fake deon: {len(rows)} parishes, {fake.pages} listing pages at {fake.start_url}", flush=True)
    fake.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
