"""What a user sees of a crawl on stderr: one line when it stored nothing (exit status 1, the traceback only
in the log), and no WARNING lines for the components that are off by default."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from conftest import REPO, run_crawl

from msze.commands.crawl import nothing_stored

QUICK = ("-s", "AUTOTHROTTLE_START_DELAY=0", "-s", "BACKOFF_MAX_WAIT=0.2", "-s", "RETRY_TIMES=1")


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def msze(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "SCRAPY_SETTINGS_MODULE"}
    command = [sys.executable, "-m", "msze", *args]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_unreachable_site_is_one_line_and_exit_status_1(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/"
    done = msze(tmp_path, "crawl", "parish", "-a", f"url={url}", "-s", f"PAGES_DIR={tmp_path / 'p'}", *QUICK)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("crawl parish: nothing stored (no pages: DownloadConnectionRefusedError x")
    assert lines[0].endswith("details in output/logs/parish.log")
    log = (tmp_path / "output" / "logs" / "parish.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "Connection was refused" in log


def test_scrapy_crawl_ends_with_the_same_line(tmp_path: Path) -> None:
    """`scrapy crawl` logs to stderr (that is its log), then says why in its last line, exit status 1."""
    url = f"http://127.0.0.1:{closed_port()}/"
    done = run_crawl(url, tmp_path)
    assert done.returncode == 1
    assert done.log.rstrip().splitlines()[-1].startswith("crawl parish: nothing stored (no pages: ")


def test_a_crawl_that_stored_pages_exits_0(fixture_web, tmp_path: Path) -> None:
    done = run_crawl("http://swwojciech.test/", tmp_path, "DEPTH_LIMIT=1", "TEMPLATE_MIN_PAGES=0",
                     proxy=fixture_web.proxy)  # fmt: skip
    assert done.returncode == 0 and done.items
    assert "nothing stored" not in done.log
    # The components off by default say so at INFO; a wrong value is still a warning.
    assert "INFO: Disabled msze.extensions.WarcExtension: WARC_ENABLED is off" in done.log
    assert "INFO: Disabled msze.pipelines.LanguagePipeline: LANGUAGE_ENABLED is off" in done.log
    assert "INFO: Disabled msze.pipelines.RecrawlPipeline: RECRAWL_STATE is empty" in done.log
    disabled_warnings = [
        line.split("] ", 1)[1] for line in done.log.splitlines() if "WARNING: Disabled" in line
    ]
    assert disabled_warnings == [
        "WARNING: Disabled msze.pipelines.SiteTemplatePipeline: "
        "TEMPLATE_MIN_PAGES must be >= 1 and TEMPLATE_MIN_SHARE in [0, 1]"
    ]


def test_nothing_stored_reasons() -> None:
    refused = {"finish_reason": "finished", "downloader/exception_type_count/x.DNSLookupError": 2}
    assert nothing_stored(refused) == "no pages: DNSLookupError x2"
    assert nothing_stored({"finish_reason": "finished", "item_scraped_count": 3}) is None
    # a resumed places run with every parish done, a quota stop: not "nothing stored"
    assert nothing_stored({"finish_reason": "finished", "msze/places/skipped_done": 25}) is None
    assert nothing_stored({"finish_reason": "quota_exhausted"}) is None
    assert nothing_stored({"finish_reason": "finished"}) == "no pages: finish reason finished"


def test_version_is_the_package_metadata() -> None:
    from importlib.metadata import version

    done = msze(REPO, "--version")
    assert done.returncode == 0 and done.stdout.strip() == f"msze {version('msze')}"
