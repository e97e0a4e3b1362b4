"""The packaged classifier is what the repository's labels train (scripts/check_model.py), byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_retraining_from_data_gives_the_shipped_model_byte_for_byte() -> None:
    done = subprocess.run(
        [sys.executable, "scripts/check_model.py"], cwd=REPO, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert "byte for byte" in done.stdout
