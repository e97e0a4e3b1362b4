"""`pip install .` gives a working `msze` command with its package data (model, blacklist, web templates).

The wheel is built offline from the checkout (no build isolation: setuptools comes from requirements.txt) and
installed with --target into a temporary folder, then run from another folder, so nothing is read from the
checkout.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PAGE = "<html><body><h1>Porządek Mszy świętych</h1><p>Niedziele: 7:30, 10:00, 18:00</p></body></html>"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(REPO)],
        check=True, cwd=build, capture_output=True, text=True, env=dict(os.environ, TMPDIR=str(build)),
    )  # fmt: skip
    return target


def run(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(installed))
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    return subprocess.run(
        [str(installed / "bin" / "msze"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_package_data_is_installed(installed: Path) -> None:
    package = installed / "msze"
    for relative in (
        "models/hours.ftz",
        "models/hours.json",
        "data/domain-blacklist.txt",
        "annotator/templates/index.html",
        "annotator/static/annotator.js",
        "search/templates/index.html",
        "search/demo/results.jsonl",
    ):
        assert (package / relative).is_file(), relative


def test_console_script_runs_from_another_folder(installed: Path, tmp_path: Path) -> None:
    page = tmp_path / "msze.html"
    page.write_text(PAGE, encoding="utf-8")
    done = run(installed, tmp_path, "extract", str(page))  # the packaged model labels what the rules leave
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[0])["masses"] == ["07:30", "10:00", "18:00"]
    where = subprocess.run(
        [sys.executable, "-c", "import msze, sys; print(msze.__file__)"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(installed)), capture_output=True, text=True,
    )  # fmt: skip
    assert where.stdout.strip().startswith(str(installed))
