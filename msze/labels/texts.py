"""Where labelled texts are found: the realpages/realsites files of ../shared/data and of a local folder."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from msze.archive.jsonl import read_objects

SHARED_TEXTS = "../shared/data"
LOCAL_TEXTS = "../data"  # pages labelled here whose text is not in ../shared yet
DATA_DIR = "data"  # the repository's labels, from its root
TEXTS_ENV = "MSZE_TEXTS"  # folders of texts, os.pathsep-separated, instead of the two above


def sha256(text: str) -> str:
    """The key of a labelled text: SHA-256 of its exact UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def default_roots() -> list[str]:
    """The text folders: $MSZE_TEXTS, else ../shared/data then ../data (the shared copy wins)."""
    listed = os.environ.get(TEXTS_ENV)
    return [p for p in listed.split(os.pathsep) if p] if listed else [SHARED_TEXTS, LOCAL_TEXTS]


@dataclass
class JoinReport:
    """How the labels of one set met their texts."""

    labels: int = 0
    joined: dict[str, int] = field(default_factory=dict)  # text folder -> labels joined from it
    missing: list[str] = field(default_factory=list)  # "id url": no text with that URL
    changed: list[str] = field(default_factory=list)  # "id url": a text with that URL, another hash
    held_out: list[str] = field(default_factory=list)  # labels of a held-out host or row: never used

    def as_dict(self) -> dict:
        return {
            "labels": self.labels,
            "joined": dict(self.joined),
            "missing": len(self.missing),
            "changed": len(self.changed),
            "held_out": len(self.held_out),
        }


class TextStore:
    """Texts by (URL, SHA-256) from the `realpages/*.jsonl` and `realsites/*.jsonl` of each folder."""

    def __init__(self, roots: Sequence[str | os.PathLike[str]] | None = None) -> None:
        self.roots = [str(r) for r in (default_roots() if roots is None else roots)]
        self._texts: dict[tuple[str, str], tuple[str, str]] = {}  # (url, hash) -> (text, root)
        self._hashes: dict[str, set[str]] = {}  # url -> hashes seen
        for root in self.roots:
            for url, text in _texts_under(Path(root)):
                key = (url, sha256(text))
                self._texts.setdefault(key, (text, root))
                self._hashes.setdefault(url, set()).add(key[1])

    def get(self, label_id: str, url: str, digest: str, report: JoinReport) -> str | None:
        """The text labelled as (url, digest); None (listed in `report`) when it is missing or changed."""
        found = self._texts.get((url, digest))
        if found is not None:
            report.joined[found[1]] = report.joined.get(found[1], 0) + 1
            return found[0]
        (report.changed if url in self._hashes else report.missing).append(f"{label_id} {url}")
        return None


def _texts_under(root: Path) -> Iterable[tuple[str, str]]:
    for path in sorted(root.glob("realpages/*.jsonl")):
        for record in read_objects(path):
            if isinstance(record.get("url"), str) and isinstance(record.get("text"), str):
                yield record["url"], record["text"]
    for path in sorted(root.glob("realsites/*.jsonl")):
        for record in read_objects(path):
            for page in record.get("pages") or ():
                if (
                    isinstance(page, dict)
                    and isinstance(page.get("url"), str)
                    and isinstance(page.get("text"), str)
                ):
                    yield page["url"], page["text"]
