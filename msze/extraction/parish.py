"""The parish stage: a parish's pages → its results line (summarize) and its re-crawl record (ParishStage).

One stage for every driver: the crawl's RecrawlPipeline, `msze process` over stored JSONL or WARC, and the
batch driver's per-parish summary. A parish is its start URL (utils.urls.parish_url), never a host or a
registered domain: four parishes of one diocesan portal (`parafia.php?id=1…4`) are four parishes. Its crawl
time is when its pages were fetched (each page's `crawled_at`), never a file's modification time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from msze.extraction.churches import church_addresses
from msze.extraction.schedule import consolidate
from msze.recrawl.changes import NEW, NOT_MODIFIED, UNCHANGED
from msze.utils.time import format_timestamp, parse_timestamp
from msze.utils.urls import domain_of, parish_url

DAY_ORDER = {"sunday": 0, "holiday": 1, "saturday": 2, "weekday": 3, None: 4}
# "template": the blocks a page repeats from the site's earlier pages (a sidebar's schedule is the site's)
PAGE_FIELDS = ("url", "text", "hours", "confessions", "has_schedule_hint", "change", "crawled_at", "template")


class ParishRecorder(Protocol):
    """What the stage needs of the re-crawl state (msze.recrawl.state.RecrawlState)."""

    def record_parish(
        self, start_url: str, masses: list[dict[str, Any]], page_changes: dict[str, str]
    ) -> Any: ...


def _mass_key(mass: dict[str, Any]) -> tuple[Any, ...]:
    return (DAY_ORDER.get(mass["day"], 4), mass["time"])


def latest_fetch(pages: Iterable[dict[str, Any]]) -> str | None:
    """When the parish was crawled: the latest `crawled_at` of its pages, None when none says."""
    times = [t for t in (parse_timestamp(page.get("crawled_at")) for page in pages) if t is not None]
    return format_timestamp(max(times)) if times else None


def summarize(
    pages: Iterable[dict[str, Any]],
    start_url: str,
    domain: str,
    status: str = "finished",
    error: str | None = None,
    crawled_at: str | None = None,
    bytes_: int | None = None,
) -> dict[str, Any]:
    """The results.jsonl object of one parish.

    Every hour labelled "mass" on any page counts. A site repeats its sidebar schedule on many pages, so each
    (time, day) appears once, with the evidence of highest score (rules before classifier on a tie, then the
    first page crawled). `crawled_at` is the latest fetch time of the pages, else the caller's (a crawl that
    stored no page: when it was tried). `bytes_` defaults to the UTF-8 size of the pages' HTML. `schedule`,
    `one_off`, `monthly`, `confession` and `conflicts` are the parish's consolidated schedule
    (extraction.schedule); `churches` the addresses its pages give for its other churches
    (extraction.churches).
    """
    best: dict[tuple[str, str | None], dict[str, Any]] = {}
    n_bytes = 0
    pages = list(pages)
    for page in pages:
        if bytes_ is None:  # only measured when the caller has no byte count of its own
            n_bytes += len((page.get("html") or "").encode("utf-8"))
        for hour in page.get("hours") or ():
            if hour.get("label") != "mass" or not hour.get("time"):
                continue
            mass = {
                "time": hour["time"],
                "day": hour.get("day"),
                "url": page.get("url"),
                "context": hour.get("context", ""),
                "source": hour.get("source"),
                "score": hour.get("score"),
            }
            key = (mass["time"], mass["day"])
            old = best.get(key)
            if old is None or _better(mass, old):
                best[key] = mass
    schedule = consolidate(pages)
    return {
        "start_url": start_url,
        "domain": domain,
        "status": status,
        "error": error,
        "pages": len(pages),
        "bytes": n_bytes if bytes_ is None else bytes_,
        "crawled_at": latest_fetch(pages) or crawled_at,
        "masses": sorted(best.values(), key=_mass_key),
        **schedule,
        "churches": church_addresses(pages, {e["church"] for e in schedule["schedule"] if e["church"]}),
    }


def _better(new: dict[str, Any], old: dict[str, Any]) -> bool:
    new_score = new["score"] if new["score"] is not None else 0.0
    old_score = old["score"] if old["score"] is not None else 0.0
    if new_score != old_score:
        return new_score > old_score
    return new["source"] == "rules" and old["source"] != "rules"


@dataclass
class _Parish:
    start_url: str
    domain: str
    pages: list[dict[str, Any]] = field(default_factory=list)
    bytes: int = 0


class ParishStage:
    """Pages collected under their parish (its start URL, normalised), then one summary per parish.

    With a re-crawl state, each parish's Mass times are compared with its previous run's and stored, keyed
    by its start URL (the summary gets the change as `change`). A page without a start URL (a foreign WARC)
    belongs to `default_start_url`, else to its own URL.
    """

    def __init__(self, state: ParishRecorder | None = None, default_start_url: str | None = None) -> None:
        self.state = state
        self.default_start_url = default_start_url
        self._parishes: dict[str, _Parish] = {}

    def add(self, page: dict[str, Any], html_bytes: int | None = None) -> None:
        start_url = page.get("start_url") or self.default_start_url or page["url"]
        key = parish_url(start_url) or start_url
        parish = self._parishes.get(key)
        if parish is None:
            domain = page.get("domain") or domain_of(start_url)
            parish = self._parishes[key] = _Parish(start_url, domain)
        parish.pages.append({k: page.get(k) for k in PAGE_FIELDS})
        if html_bytes is None:
            html_bytes = len((page.get("html") or "").encode("utf-8", "surrogatepass"))
        parish.bytes += html_bytes

    def __len__(self) -> int:
        return len(self._parishes)

    def summaries(self) -> Iterator[dict[str, Any]]:
        """One results.jsonl object per parish, in the order first seen; recorded in the state if any."""
        for parish in self._parishes.values():
            summary = summarize(parish.pages, parish.start_url, parish.domain, bytes_=parish.bytes)
            if self.state is not None:
                changes = {p["url"]: _page_change(p.get("change")) for p in parish.pages}
                summary["change"] = self.state.record_parish(
                    parish.start_url, summary["masses"], changes
                ).to_dict()
            yield summary
        self._parishes.clear()


def _page_change(status: str | None) -> str:
    """A 304 is an unchanged page for the parish's record; a page never compared is new."""
    return UNCHANGED if status == NOT_MODIFIED else status or NEW
