"""What the project is measured on by others, and so never reads, labels, tunes or trains on.

../shared/data/heldout-hosts.sha256 lists SHA-256 digests of hosts (lower-case, without a leading "www.");
../shared/data/thesis/heldout-rows.txt lists diocesan rows as FILE:LINE (the header is line 1). Both lists
grow: every reader of labelled data checks them each time it runs.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from msze.labels.texts import SHARED_TEXTS
from msze.utils.urls import host_of

HOSTS_FILE = "heldout-hosts.sha256"
ROWS_FILE = "thesis/heldout-rows.txt"


@dataclass(frozen=True)
class HeldOut:
    hosts: frozenset[str]  # SHA-256 hex digests
    rows: frozenset[str]  # "annotated-poznan.tsv:21"

    @classmethod
    def load(cls, shared: str | os.PathLike[str] = SHARED_TEXTS) -> HeldOut:
        """The two lists under `shared` (empty where a list is absent)."""
        return cls(frozenset(_lines(Path(shared, HOSTS_FILE))), frozenset(_lines(Path(shared, ROWS_FILE))))

    def host(self, url: str) -> bool:
        """Whether the URL's host is held out."""
        try:
            host = host_of(url)
        except ValueError:
            return False
        return hashlib.sha256(host.encode("utf-8")).hexdigest() in self.hosts

    def row(self, source: str) -> bool:
        return source in self.rows


def _lines(path: Path) -> list[str]:
    if not path.is_file():
        return []
    lines = (line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line]
