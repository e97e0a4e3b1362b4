"""Which parish a crawl result or a located church belongs to: the one whose website is its start URL.

A parish is its start URL (utils.urls.parish_url), never a host or a registered domain: the parishes of a
diocesan portal (`parafia.php?id=1…4`), of sibling subdomains and of sites on ports of one machine are each
their own. A result matching no parish, or several (two parishes giving one website), is reported by its start
URL and the parishes' names (LoadReport.unmatched), and loaded onto none of them.

A database loaded by an older msze, which joined by host and then registered domain, may hold one parish's
times under others: `load` refuses it (LegacyDatabase) until `repair` has cleared the times of every parish
that such a join could have reached, so the next load of the results puts each back where it belongs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import Connection, delete, func, insert, select, update

from msze.search.db import (
    churches,
    confession_times,
    loader_meta,
    mass_times,
    monthly_masses,
    one_off_masses,
    parishes,
)
from msze.utils.urls import host_of, parish_url

IDENTITY = ("identity", "start_url")  # the loader_meta row of a database joined by start URL


class LegacyDatabase(ValueError):
    """A database whose results were joined by host or domain: loading more would mix the two rules."""


@dataclass(frozen=True)
class Site:
    """A parish with a website, as the join needs it."""

    id: int
    name: str
    city: str
    lat: float | None
    lng: float | None
    attempted_at: object
    crawled_at: object

    @property
    def label(self) -> str:
        return f"{self.name} ({self.city})"


class Sites:
    """The parishes with a website, by the identity of that website."""

    def __init__(self, conn: Connection) -> None:
        p = parishes.c
        query = select(p.id, p.name, p.city, p.website, p.lat, p.lng, p.attempted_at, p.crawled_at)
        self.by_key: dict[str, list[Site]] = {}
        for row in conn.execute(query.where(p.website.is_not(None))):
            site = Site(row.id, row.name, row.city, row.lat, row.lng, row.attempted_at, row.crawled_at)
            self.by_key.setdefault(parish_url(row.website), []).append(site)
        self.by_key.pop("", None)  # a website an older loader stored unparsable joins nothing

    def match(self, start_url: str) -> list[Site]:
        """Every parish whose website is `start_url`: one for a result to load, none or several to report."""
        return self.by_key.get(parish_url(start_url), []) if start_url else []

    def all(self) -> list[Site]:
        return [site for sites in self.by_key.values() for site in sites]


def check_identity(conn: Connection, repair: bool = False) -> int:
    """Refuse (LegacyDatabase) or, with `repair`, mend a database whose results were joined by host or
    domain; mark it joined by start URL. Returns how many parishes had their crawled times cleared."""
    if conn.execute(select(loader_meta.c.value).where(loader_meta.c.key == IDENTITY[0])).first():
        return 0
    crawled = conn.execute(select(func.count()).where(parishes.c.attempted_at.is_not(None))).scalar_one()
    located = conn.execute(select(func.count()).select_from(churches)).scalar_one()
    cleared = 0
    if crawled or located:
        if not repair:
            raise LegacyDatabase(
                f"this database holds crawl results of {crawled} parishes loaded by an older msze, which "
                "joined results to parishes by host or domain (parishes sharing a host may show each other's "
                "times); run `msze search load --repair` once to clear the times such a join could have "
                "misplaced, then load the results again"
            )
        cleared = _clear_misjoined(conn)
    conn.execute(insert(loader_meta).values(key=IDENTITY[0], value=IDENTITY[1]))
    return cleared


def _clear_misjoined(conn: Connection) -> int:
    """Clear every located church, and the crawled times of every parish the old join may have given another
    parish's: those sharing a registered domain with another parish, and those holding times read on a host
    not their own."""
    p = parishes.c
    rows = conn.execute(select(p.id, p.website, p.domain).where(p.attempted_at.is_not(None))).all()
    per_domain = Counter(
        row.domain for row in conn.execute(select(p.domain).where(p.domain.is_not(None))).all()
    )
    suspect = {row.id for row in rows if row.domain and per_domain[row.domain] > 1}
    hosts = {row.id: _host(row.website) for row in rows}
    sources = select(mass_times.c.parish_id, mass_times.c.source_url).distinct()
    for parish_id, source_url in conn.execute(sources):
        if parish_id in hosts and source_url and _host(source_url) != hosts[parish_id]:
            suspect.add(parish_id)
    conn.execute(delete(churches))  # located by the old join too: `search load --churches` again
    ids = sorted(suspect)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for table in (mass_times, one_off_masses, monthly_masses, confession_times):
            conn.execute(delete(table).where(table.c.parish_id.in_(chunk)))
        conn.execute(
            update(parishes)
            .where(p.id.in_(chunk))
            .values(crawled_at=None, attempted_at=None, crawl_status=None, crawl_error=None)
        )
    return len(ids)


def _host(url: str | None) -> str:
    try:
        return host_of(url)
    except ValueError:
        return ""
