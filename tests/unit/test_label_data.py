"""The label sets of data/ as files: every parish and row named once, and no page text copied in (labels
join their texts by URL and SHA-256, data/realsites/README.md)."""

from __future__ import annotations

import json
import re
from collections import Counter

from msze.labels.sets import label_files


def _records(kind: str) -> list[tuple[str, dict]]:
    return [(path, json.loads(line)) for path in label_files(kind) for line in open(path, encoding="utf-8")]


def test_every_web_parish_has_an_id_of_its_own_across_the_sets():
    ids = Counter(record["id"] for _, record in _records("realsites"))
    assert [name for name, n in ids.items() if n > 1] == []


def test_every_diocesan_row_is_labelled_once():
    sources = Counter(record["source"] for _, record in _records("diocesan"))
    assert [name for name, n in sources.items() if n > 1] == []


def test_the_web_labels_keep_each_page_s_url_and_digest_never_its_text():
    for path, record in _records("realsites"):
        for page in record["pages"]:
            assert set(page) == {"url", "sha256"}, (path, record["id"])
            assert re.fullmatch(r"[0-9a-f]{64}", page["sha256"]), (path, record["id"])
