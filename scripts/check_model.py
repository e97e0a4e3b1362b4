"""Re-train the packaged hour classifier from the repository's labels and check it is the shipped one byte
for byte: `.venv/bin/python scripts/check_model.py` (from the repository root, ../shared/data beside it).
The recipe is msze/models/README.md's: `msze train` over its default sources (data/realpages with their texts
joined from ../shared/data, and 300 hours of the thesis's annotated texts, held-out rows and hosts left out),
threshold 0.9, retrained on everything, quantised. Exit 0 when hours.ftz and hours.json come out identical,
1 when either differs (the labels, the texts, the features or the library changed: retrain and commit).
"""

from __future__ import annotations

import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECIPE = ["train", "--threshold", "0.9", "--final", "--quantize", "yes"]


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "hours.ftz"
        done = subprocess.run([sys.executable, "-m", "msze", *RECIPE, "--out", str(out)], cwd=REPO, text=True,
                              capture_output=True)  # fmt: skip
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            return 2
        differ = [
            name
            for name in ("hours.ftz", "hours.json")
            if not filecmp.cmp(Path(tmp) / name, REPO / "msze" / "models" / name, shallow=False)
        ]
    if differ:
        print(f"check_model: re-training gave another {' and '.join(differ)} than msze/models/")
        return 1
    print("check_model: re-training from data/ gave msze/models/hours.ftz and hours.json byte for byte")
    return 0


if __name__ == "__main__":
    sys.exit(main())
