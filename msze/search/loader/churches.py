"""The other churches of a parish, located by `scrapy crawl places -a churches=results.jsonl`."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, delete, insert

from msze.search.db import churches
from msze.search.loader.lines import LoadReport
from msze.search.loader.parishes import ParishRecord
from msze.search.loader.sites import Sites
from msze.search.query import distance_km

CHURCH_MAX_KM = 25.0  # a chapel farther than this from its parish was found by a street name elsewhere


def load_churches(conn: Connection, records: Iterable[ParishRecord], report: LoadReport) -> None:
    """The located churches of `scrapy crawl places -a churches=` beside their parish (the one whose website
    is their `start_url`): a parish's churches in the file replace those stored for it. A place farther than
    CHURCH_MAX_KM from a parish with coordinates is another town's street of the same name: not stored."""
    sites = Sites(conn)
    replaced: set[int] = set()
    for record in records:
        if not record.church or record.lat is None:
            continue
        matched = sites.match(record.start_url)
        if len(matched) != 1:
            report.churches_unmatched += 1
            continue
        site = matched[0]
        if site.id not in replaced:
            conn.execute(delete(churches).where(churches.c.parish_id == site.id))
            replaced.add(site.id)
        home = (site.lat, site.lng) if site.lat is not None and site.lng is not None else None
        if home and distance_km(home, (record.lat, record.lng)) > CHURCH_MAX_KM:
            report.churches_far += 1
            continue
        same = (churches.c.parish_id == site.id) & (churches.c.name == record.church)
        conn.execute(delete(churches).where(same))  # a name twice in the file: the last place stands
        values = {"name": record.church, "address": record.address, "lat": record.lat, "lng": record.lng}
        conn.execute(insert(churches).values(parish_id=site.id, **values))
        report.churches_located += 1
