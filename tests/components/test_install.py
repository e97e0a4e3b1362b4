"""`pip install .` gives a working `msze` command with its package data (model, blacklist, web templates).

The wheel is built offline from the checkout (no build isolation: setuptools comes from requirements.txt) and
installed with --target into a temporary folder, then run from another folder, so nothing is read from the
checkout (no scrapy.cfg either): `msze --version`, `msze extract`, `msze crawl parish` of a site served here,
`msze process` of that crawl, `msze search serve`. The dependencies are the test environment's (--no-deps);
what `pip install .` pulls itself is counted in docs/layout.md#installing. One install per module: ~10 s.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import threading
import tomllib
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
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


def installed_env(installed: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(installed))
    env.pop("SCRAPY_SETTINGS_MODULE", None)
    return env


def run(installed: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(installed / "bin" / "msze"), *args],
        cwd=cwd,
        env=installed_env(installed),
        capture_output=True,
        text=True,
        timeout=120,
    )


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        pass


@pytest.fixture(scope="module")
def demo_site() -> Iterator[str]:
    """The bundled demo parish site on 127.0.0.1."""
    handler = functools.partial(Quiet, directory=str(REPO / "demo" / "site"))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        yield f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()


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
        "testing/data/deon-sample.tsv",
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


def test_version_is_the_installed_distributions(installed: Path, tmp_path: Path) -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    done = run(installed, tmp_path, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"msze {project['version']}"


def test_a_spider_runs_and_its_crawl_is_processed_from_another_folder(
    installed: Path, demo_site: str, tmp_path: Path
) -> None:
    crawl = run(installed, tmp_path, "crawl", "parish", "-a", f"url={demo_site}",
                "-s", "AUTOTHROTTLE_START_DELAY=0", "-s", "TELNETCONSOLE_ENABLED=False")  # fmt: skip
    assert crawl.returncode == 0, crawl.stderr
    said = "crawl parish: 7 items stored (finished); details in output/logs/parish.log"
    assert crawl.stderr.strip() == said
    port = demo_site.rstrip("/").rsplit(":", 1)[1]
    pages = tmp_path / "output" / "pages" / f"127.0.0.1_{port}.jsonl"  # settings' PAGES_DIR, here
    assert len(pages.read_text(encoding="utf-8").splitlines()) == 7
    done = run(installed, tmp_path, "process", str(pages.parent), "--out", "processed", "--workers", "1")
    assert done.returncode == 0, done.stderr
    result = json.loads((tmp_path / "processed" / "results.jsonl").read_text(encoding="utf-8"))
    sunday = sorted({m["time"] for m in result["masses"] if m["day"] == "sunday"})
    assert sunday == ["07:30", "09:00", "10:30", "12:00", "18:00"]


def test_search_serve_answers_from_another_folder(installed: Path, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [str(installed / "bin" / "msze"), "search", "serve", "--port", "0"],
        cwd=tmp_path, env=installed_env(installed), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("msze search: serving demo data on http://127.0.0.1:"), line
        with urllib.request.urlopen(line.split(" on ", 1)[1].strip() + "parafia/1", timeout=30) as page:
            body = page.read().decode("utf-8")
        assert page.status == 200 and "Najświętszego Serca Pana Jezusa" in body
    finally:
        server.terminate()
        server.wait(timeout=30)
