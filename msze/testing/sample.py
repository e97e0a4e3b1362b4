"""The fakes' own directory sample: 25 invented parishes in the deon layout, so the offline directory chain
(docs/directory.md) runs from a fresh clone, without the thesis's deon.fixed.tsv.

Names, streets and towns come from the search demo's word lists (msze/search/demo/generate.py, the same seed):
no row is copied from deon.pl. One row has no decanate (the fake sends it without that cell), one parish has
no street (so Places can only be asked "name city"), one name has a non-breaking space. The file is
generated and committed; a test checks it is what this module writes:

    .venv/bin/python -m msze.testing.sample            # rewrites msze/testing/data/deon-sample.tsv
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from msze.search.demo.generate import CENTRES, parishes_iter
from msze.testing import FakeServer, QuietHandler

SAMPLE_TSV = Path(__file__).with_name("data") / "deon-sample.tsv"
COUNT = 25
HEADER = ("Parafia", "Miejscowość", "Adres", "Diecezja", "Dekanat", "Województwo")
NO_DECANATE = 7  # row index sent with a missing cell
NO_STREET = 11  # row index whose address is only its name and postal town (an i % 5 == 1 row: no fallback)
NBSP = 3  # row index whose name has a non-breaking space, as some of deon's do (sent as &nbsp;)


def sample_text(count: int = COUNT) -> str:
    """The sample TSV (thesis layout, excel-tab dialect as the deon exporter writes it)."""
    out = io.StringIO()
    writer = csv.writer(out, dialect="excel-tab", lineterminator="\n")
    writer.writerow(HEADER)
    for index, parish in enumerate(parishes_iter(count)):
        address = list(parish.address)
        if index == NO_STREET:
            address = [address[0], address[-1]]
        decanate = "" if index == NO_DECANATE else parish.decanate
        name = parish.name.replace(" ", "\xa0", 1) if index == NBSP else parish.name
        address[0] = name
        writer.writerow([name, parish.city, "|".join(address), parish.diocese, decanate, parish.voivodeship])
    return out.getvalue()


def town_point(row: Mapping[str, Any]) -> dict[str, float] | None:
    """A point within about 3 km of the centre of the parish's town, the same on every run; None for a town
    the sample does not know (a thesis row: then the fake Places draws a point in Poland)."""
    centre = CENTRES.get(str(row.get("city") or ""))
    if centre is None:
        return None
    rng = random.Random(hashlib.sha256(f"{row.get('name')}|{row.get('city')}".encode()).digest())
    return {
        "lat": round(centre[0] + rng.uniform(-0.025, 0.025), 6),
        "lng": round(centre[1] + rng.uniform(-0.04, 0.04), 6),
    }


SUNDAY = ["7:00", "7:30", "8:00", "9:00", "9:30", "10:30", "11:00", "12:00", "13:00", "18:00", "19:00"]
WEEKDAY = ["6:30", "7:00", "7:30", "8:00", "17:00", "18:00", "18:30", "19:00"]


def schedule_of(row: Mapping[str, Any]) -> dict[str, list[str]]:
    """The Sunday and weekday Mass times a served parish site announces, drawn from its name and town."""
    rng = random.Random(f"schedule|{row.get('name')}|{row.get('city')}")
    return {
        "sunday": sorted(rng.sample(SUNDAY, rng.randint(3, 5)), key=_minutes),
        "weekday": sorted(rng.sample(WEEKDAY, rng.randint(1, 2)), key=_minutes),
    }


def _minutes(time: str) -> int:
    hours, minutes = time.split(":")
    return int(hours) * 60 + int(minutes)


def site_pages(row: Mapping[str, Any]) -> dict[str, str]:
    """A two-page parish site: a home page whose menu links "Msze święte", and that page with the times."""
    times = schedule_of(row)
    name = row.get("name", "")
    home = (
        f'<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><title>Parafia {name}</title></head>'
        f'<body><nav><a href="/">Strona główna</a> <a href="/msze.html">Msze święte</a></nav>'
        f"<h1>Parafia {name}, {row.get('city', '')}</h1><p>Zapraszamy do wspólnej modlitwy.</p></body></html>"
    )
    masses = (
        f'<!DOCTYPE html><html lang="pl"><head><meta charset="utf-8"><title>Msze święte</title></head>'
        f'<body><nav><a href="/">Strona główna</a></nav><h1>Porządek Mszy świętych</h1>'
        f"<p>Niedziele i święta: {', '.join(times['sunday'])}</p>"
        f"<p>Dni powszednie: {', '.join(times['weekday'])}</p></body></html>"
    )
    return {"/": home, "/index.html": home, "/msze.html": masses}


class ParishSite(FakeServer):
    """One parish's site_pages() on its own port of 127.0.0.1 (the crawl tells sites apart by port there)."""

    def __init__(self, row: Mapping[str, Any], host: str = "127.0.0.1", port: int = 0) -> None:
        super().__init__(host, port)
        self.row = row
        self.pages = site_pages(row)

    class handler_class(QuietHandler):  # noqa: N801 - FakeServer's hook
        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            fake: ParishSite = self.server_fake
            path = urlsplit(self.path).path
            page = fake.pages.get(path)
            status = 200 if page is not None else 404
            fake.log("GET", path, status)
            body = (page or "<h1>404</h1>").encode("utf-8")
            self.send_body(status, body, "text/html; charset=utf-8")


def write(path: Path = SAMPLE_TSV, count: int = COUNT) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(sample_text(count), encoding="utf-8")
    return path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=SAMPLE_TSV)
    parser.add_argument("--count", type=int, default=COUNT)
    args = parser.parse_args(argv)
    print(write(args.out, args.count))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
