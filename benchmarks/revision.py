"""The code of another git revision beside this tree, for the benchmarks and checks that compare the two.

`exported_tree(rev)` writes REV's `msze` package (`git archive`) to a temporary folder; a child process with
that folder as PYTHONPATH imports REV's code, one with the repository root imports this tree's.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def exported_tree(rev: str) -> Iterator[Path]:
    """A temporary folder holding ``rev``'s msze package, removed on exit."""
    with tempfile.TemporaryDirectory(prefix="msze-rev-") as tmp:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", rev, "msze"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        yield Path(tmp)
