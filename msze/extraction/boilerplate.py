"""Site templates: text blocks a site repeats on its pages, learned page by page as pages stream.

A block is a line of the page text (html2text writes one paragraph, list item or heading per line), compared
after collapsing whitespace. The first page that has a block processes it like its own content; every later
page of the same site that repeats the block gets it marked *repeated*, and its hours are not extracted again.
So a sidebar schedule is found once (on the first page that showed it) and a footer's office hours are not
counted on every page, while each page's hours come from its own content. A block on at least ``min_pages``
pages and ``min_share`` of the pages seen so far is reported as *template* (menu, footer, sidebar).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field

MIN_BLOCK_CHARS = 4  # shorter lines ("•", "A A A") are ignored: too common to mean anything


@dataclass(slots=True)  # not frozen: one per line of every page, and frozen is slower to build
class Block:
    start: int
    end: int
    key: bytes


@dataclass
class TemplateSplit:
    """What the site model says about one page's text."""

    repeated: list[tuple[int, int]] = field(default_factory=list)  # spans seen on an earlier page of the site
    template: list[tuple[int, int]] = field(default_factory=list)  # spans that are the site's template
    blocks: int = 0

    def covers(self, start: int, end: int) -> bool:
        """Whether text[start:end] lies inside a repeated block."""
        return any(a <= start and end <= b for a, b in self.repeated)


def iter_blocks(text: str) -> Iterator[Block]:
    """The page's lines with their spans and a short hash of their normalised text."""
    pos = 0
    for line in text.split("\n"):
        end = pos + len(line)
        norm = " ".join(line.split())  # whitespace runs → one space, ends stripped (faster than a regex)
        if len(norm) >= MIN_BLOCK_CHARS:
            lead = len(line) - len(line.lstrip())
            trail = len(line) - len(line.rstrip())
            key = hashlib.blake2b(norm.casefold().encode("utf-8", "replace"), digest_size=8).digest()
            yield Block(pos + lead, end - trail, key)
        pos = end + 1


class SiteTemplate:
    """Block frequencies of one site, updated as its pages arrive (pure: no Scrapy, no I/O)."""

    def __init__(self, min_pages: int = 3, min_share: float = 0.5, max_blocks: int = 20_000) -> None:
        self.min_pages = min_pages
        self.min_share = min_share
        self.max_blocks = max_blocks  # memory bound: blocks beyond it are not remembered (still processed)
        self.pages = 0
        self.counts: dict[bytes, int] = {}

    def is_template(self, key: bytes) -> bool:
        n = self.counts.get(key, 0)
        return n >= self.min_pages and n >= self.min_share * self.pages

    def observe(self, text: str) -> TemplateSplit:
        """Split a new page of the site into repeated / template blocks, then learn its blocks."""
        split = TemplateSplit()
        self.pages += 1
        seen_here: set[bytes] = set()
        for block in iter_blocks(text):
            split.blocks += 1
            if block.key in seen_here:
                continue  # a line repeated within one page is the page's own content
            seen_here.add(block.key)
            n = self.counts.get(block.key)
            if n:
                split.repeated.append((block.start, block.end))
                self.counts[block.key] = n + 1
            elif len(self.counts) < self.max_blocks:
                self.counts[block.key] = 1
            if self.is_template(block.key):
                split.template.append((block.start, block.end))
        return split

    def template_share(self) -> float:
        """Share of the distinct blocks seen so far that are template (for stats and reports)."""
        if not self.counts:
            return 0.0
        return sum(1 for k in self.counts if self.is_template(k)) / len(self.counts)


class SiteTemplates:
    """One SiteTemplate per site, at most ``max_sites`` kept (the least recently used is dropped), so a
    crawl or re-processing run over thousands of parishes stays bounded in memory."""

    def __init__(
        self, max_sites: int = 200, min_pages: int = 3, min_share: float = 0.5, max_blocks: int = 20_000
    ) -> None:
        self.max_sites = max(1, max_sites)
        self.min_pages, self.min_share, self.max_blocks = min_pages, min_share, max_blocks
        self.sites: OrderedDict[str, SiteTemplate] = OrderedDict()
        self.evicted = 0

    def observe(self, site: str, text: str) -> TemplateSplit:
        """SiteTemplate.observe on the model of ``site``, made (and perhaps another evicted) when new."""
        model = self.sites.get(site)
        if model is None:
            if len(self.sites) >= self.max_sites:
                self.sites.popitem(last=False)
                self.evicted += 1
            model = self.sites[site] = SiteTemplate(self.min_pages, self.min_share, self.max_blocks)
        else:
            self.sites.move_to_end(site)
        return model.observe(text)
