"""The batch driver on the fixture web: outcomes, re-runs, kill -9 and resume, WARC matching the JSONL."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import FAST_SETTINGS
from schema_check import check
from webserver import FixtureWeb, slow

from msze.archive.warc import iter_responses
from msze.batch.jobs import JobDB

ROOT = Path(__file__).resolve().parents[2]

# Fast, deterministic crawls: the fixture crawl settings, and no throttling at all.
FAST = [arg for setting in (*FAST_SETTINGS, "AUTOTHROTTLE_ENABLED=0") for arg in ("-s", setting)]

PAGE = '<html><head><meta charset="utf-8"><title>{title}</title></head><body>{body}</body></html>\n'

SITES = {
    "parafia-a.test": {
        "index.html": (
            "Parafia św. Wojciecha",
            '<a href="/msze.html">Msze święte</a> <a href="/kontakt.html">Kontakt</a>',
        ),
        "msze.html": ("Msze", "<h2>Porządek Mszy św.</h2><p>Niedziele i święta: 7.00, 9.30, 11.00</p>"),
        "kontakt.html": ("Kontakt", "<p>Kancelaria parafialna czynna 16.00-17.30</p>"),
    },
    "parafia-b.test": {
        "index.html": (
            "Parafia MB Częstochowskiej",
            '<a href="/nabozenstwa.html">Nabożeństwa</a> <a href="/ogloszenia.html">Ogłoszenia</a>',
        ),
        "nabozenstwa.html": (
            "Nabożeństwa",
            "<p>W niedziele Msze św. o godz. 8<sup>00</sup> i 10<sup>30</sup></p>",
        ),
        "historia.html": ("Historia", "<p>Kościół zbudowano w 1910 r.</p>"),
    },
    # A parish on a subdomain of another parish's domain (as *.opoka.org.pl parishes are): its own crawl.
    "c.parafia-a.test": {
        "index.html": ("Parafia Ducha Świętego", '<a href="msze-swiete.html">Msze</a>'),
        "msze-swiete.html": ("Msze", "<p>Dni powszednie: 6.30 i 18.00</p>"),
    },
}
# parafia-b's announcements page answers slowly, so a batch can be killed while that parish is crawling.
SLOW_PAGE = PAGE.format(title="Ogłoszenia", body='<p>Ogłoszenia</p><a href="/historia.html">Historia</a>')
EXPECTED_PAGES = {
    "parafia-a.test": {"/", "/msze.html", "/kontakt.html"},
    "parafia-b.test": {"/", "/nabozenstwa.html", "/ogloszenia.html", "/historia.html"},
    "c.parafia-a.test": {"/", "/msze-swiete.html"},
}


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def web(tmp_path):
    root = tmp_path / "sites"
    for host, pages in SITES.items():
        (root / host).mkdir(parents=True)
        for name, (title, body) in pages.items():
            (root / host / name).write_text(PAGE.format(title=title, body=body), encoding="utf-8")
    web = FixtureWeb(root=root)
    web.route("parafia-b.test", "/ogloszenia.html", slow(0.1, SLOW_PAGE.encode()))
    with web:
        yield web


def _env(web: FixtureWeb) -> dict[str, str]:
    env = dict(os.environ)
    env.update(http_proxy=web.proxy, no_proxy="127.0.0.1,localhost", PYTHONPATH=str(ROOT))
    env.pop("https_proxy", None)
    return env


def _driver_cmd(urls_file: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "msze",
        "crawl-all",
        str(urls_file),
        "--out",
        str(out),
        "--progress-interval",
        "0.5",
        *extra,
        *FAST,
    ]


def _run(web, urls_file, out, *extra, timeout=90):
    return subprocess.run(
        _driver_cmd(urls_file, out, *extra),
        env=_env(web),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def _pages(out: Path, host: str, folder: str = "pages") -> list[dict]:
    path = out / folder / f"{host}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _assert_pages_exactly_once(out: Path) -> None:
    for domain, paths in EXPECTED_PAGES.items():
        urls = [p["url"] for p in _pages(out, domain)]
        assert len(urls) == len(set(urls)), f"{domain}: a page written twice: {urls}"
        assert set(urls) == {f"http://{domain}{p}" for p in paths}


def test_batch_outcomes_rerun_and_warc(web, tmp_path):
    refused = f"http://127.0.0.1:{_closed_port()}/"
    urls = tmp_path / "urls.txt"
    urls.write_text(
        "# parish URLs\nhttp://parafia-a.test/\nhttp://parafia-b.test/\nhttp://c.parafia-a.test/\n"
        f"http://zamknieta.test/\n{refused}\nnie-adres\nhttp://parafia-a.test/\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    result = _run(web, urls, out, "--jobs", "3", "--warc")
    assert result.returncode == 1, result.stderr  # two parishes failed
    assert "nie-adres" in result.stderr
    assert "5 URLs (5 new)" in result.stderr
    assert "ETA" in result.stderr
    db = JobDB(out / "jobs.sqlite3")
    assert db.counts() == {"queued": 0, "running": 0, "finished": 3, "failed": 2}
    for domain, paths in EXPECTED_PAGES.items():
        row = db.get(f"http://{domain}/")
        assert (row["state"], row["pages"], row["attempts"], row["error"]) == (
            "finished",
            len(paths),
            1,
            None,
        )
        assert row["bytes"] > 0 and row["started_at"] <= row["ended_at"]
        assert Path(row["log_path"]).read_text(encoding="utf-8").count("Spider closed") == 1
    # A site whose server answers only errors, and one that refuses connections, end failed with the reason.
    assert "HTTP 502" in db.get("http://zamknieta.test/")["error"]
    assert "ConnectionRefused" in db.get(refused)["error"]
    _assert_pages_exactly_once(out)
    status = subprocess.run(
        [sys.executable, "-m", "msze", "crawl-all", "--status", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert status.stdout.splitlines()[0] == "queued 0 running 0 finished 3 failed 2"
    assert "failed\thttp://zamknieta.test/\tattempts 1\tno pages: HTTP 502" in status.stdout

    results = [json.loads(x) for x in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert {r["start_url"]: r["status"] for r in results} == {
        "http://parafia-a.test/": "finished",
        "http://parafia-b.test/": "finished",
        "http://c.parafia-a.test/": "finished",
        "http://zamknieta.test/": "failed",
        refused: "failed",
    }
    assert all(r["crawled_at"].endswith("Z") for r in results)
    for r in results:
        check(r, "result")
    # The extraction pipelines' Mass times reach the summary with their page and source; office hours do not.
    parish_a = next(r for r in results if r["start_url"] == "http://parafia-a.test/")
    # Same registered domain, separate parishes: each has its own summary and pages file.
    parish_c = next(r for r in results if r["start_url"] == "http://c.parafia-a.test/")
    assert parish_a["domain"] == parish_c["domain"] == "parafia-a.test"
    assert parish_c["pages"] == 2
    found = {(m["day"], m["time"]) for m in parish_a["masses"]}
    assert {("sunday", "07:00"), ("sunday", "09:30"), ("sunday", "11:00")} <= found
    assert not {t for _, t in found} & {"16:00", "17:30"}
    assert {m["url"] for m in parish_a["masses"]} == {"http://parafia-a.test/msze.html"}
    assert db.get("http://parafia-a.test/")["masses"] == len(parish_a["masses"])
    assert (out / "results.csv").read_text(encoding="utf-8").count("\n") == 6

    # WARC read back with warcio: every JSONL page has its 200 response, with the same body.
    for domain in EXPECTED_PAGES:
        responses = {r.url: r for r in iter_responses(out / "warc" / f"{domain}.warc.gz")}
        assert f"http://{domain}/robots.txt" in responses  # everything fetched is archived, not only pages
        for page in _pages(out, domain):
            record = responses[page["url"]]
            assert record.status == 200
            assert record.body.decode("utf-8") == page["html"]

    # Second run, failed ones not retried: nothing to do, nothing fetched, nothing rewritten.
    web.clear()
    before = {r["url"]: (r["ended_at"], r["attempts"]) for r in db.rows()}
    again = _run(web, urls, out, "--jobs", "3", "--no-retry-failed")
    assert again.returncode == 0, again.stderr
    assert "0 to crawl now" in again.stderr
    assert web.fetched() == []
    assert {r["url"]: (r["ended_at"], r["attempts"]) for r in db.rows()} == before

    # Third run with the default (retry failed): only the two failed parishes are tried again.
    third = _run(web, urls, out, "--jobs", "3", "--max-attempts", "3")
    assert third.returncode == 1
    assert "2 to crawl now" in third.stderr
    assert {u.split("/")[2] for u in web.fetched()} == {"zamknieta.test"}  # refused never reaches the server
    assert db.get(refused)["attempts"] == 2
    assert db.get("http://parafia-a.test/")["attempts"] == 1


def _start_batch_to_stop(web, tmp_path, urls_text: str) -> tuple[subprocess.Popen, Path, Path]:
    """(driver process, URL file, --out) of a one-job batch started in its own session; parafia-b's slow
    page holds its crawl open long enough to stop the batch in the middle of it."""
    web.route("parafia-b.test", "/ogloszenia.html", slow(4.0, SLOW_PAGE.encode()))
    urls = tmp_path / "urls.txt"
    urls.write_text(urls_text, encoding="utf-8")
    out = tmp_path / "out"
    proc = subprocess.Popen(
        _driver_cmd(urls, out, "--jobs", "1"),
        env=_env(web),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    return proc, urls, out


def test_killed_batch_resumes_without_redoing_or_duplicating(web, tmp_path):
    proc, urls, out = _start_batch_to_stop(
        web, tmp_path, "http://parafia-a.test/\nhttp://parafia-b.test/\nhttp://c.parafia-a.test/\n"
    )
    db_path = out / "jobs.sqlite3"
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            if db_path.exists():
                db = JobDB(db_path)
                row = db.get("http://parafia-b.test/")
                if db.counts()["finished"] >= 1 and row and row["state"] == "running" and _pages_written(out):
                    break
                db.close()
            time.sleep(0.1)
        else:
            pytest.fail("the first parish never finished")
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    # GNU parallel runs jobs in their own process groups; the wrappers notice the dead driver and stop.
    deadline = time.monotonic() + 10
    while _crawl_processes(out) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _crawl_processes(out)
    db = JobDB(db_path)
    assert db.get("http://parafia-a.test/")["state"] == "finished"
    assert db.get("http://parafia-b.test/")["state"] == "running"  # what kill -9 leaves behind
    # The cut-short crawl's pages are in its work directory; pages/ holds complete parishes only.
    partial = _pages(out, "parafia-b.test", folder="work/parafia-b.test")
    assert 0 < len(partial) < len(EXPECTED_PAGES["parafia-b.test"])
    assert not (out / "pages" / "parafia-b.test.jsonl").exists()

    unfinished = [r["url"] for r in db.rows() if r["state"] != "finished"]
    finished = [r["url"] for r in db.rows() if r["state"] == "finished"]
    web.route("parafia-b.test", "/ogloszenia.html", slow(0.1, SLOW_PAGE.encode()))
    web.clear()
    result = _run(web, urls, out, "--jobs", "1")
    assert result.returncode == 0, result.stderr
    assert f"{len(unfinished)} to crawl now" in result.stderr
    assert db.counts() == {"queued": 0, "running": 0, "finished": 3, "failed": 0}
    for url in finished:  # finished work is not redone
        assert db.get(url)["attempts"] == 1
        assert web.fetched(url.split("/")[2]) == []
    assert db.get("http://parafia-b.test/")["attempts"] == 2
    _assert_pages_exactly_once(out)
    # Everything finished: a further run with the default options does nothing at all.
    web.clear()
    before = db.rows()
    idle = _run(web, urls, out, "--jobs", "1")
    assert idle.returncode == 0 and "0 to crawl now" in idle.stderr
    assert web.fetched() == [] and db.rows() == before


def _pages_written(out: Path) -> bool:
    path = out / "work" / "parafia-b.test" / "parafia-b.test.jsonl"
    return path.exists() and path.stat().st_size > 0


def test_remote_mode_reports_over_stdout(web, tmp_path):
    """--sshlogin jobs cannot reach the local SQLite file: they report events that the driver applies.
    GNU parallel's ":" login is the local machine, so this runs the remote code path offline."""
    urls = tmp_path / "urls.txt"
    urls.write_text("http://c.parafia-a.test/\n", encoding="utf-8")
    out = tmp_path / "out"
    result = _run(web, urls, out, "--sshlogin", ":", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    row = JobDB(out / "jobs.sqlite3").get("http://c.parafia-a.test/")
    assert (row["state"], row["pages"], row["attempts"]) == ("finished", 2, 1)
    assert row["host"] == socket.gethostname()  # recorded by the driver on the job's behalf
    assert row["pid"] is None  # cleared at the end
    # A later batch over the same parishes (--recrawl) crawls finished ones again, replacing their pages.
    again = _run(web, urls, out, "--jobs", "1", "--recrawl")
    assert again.returncode == 0 and "1 to crawl now" in again.stderr
    row = JobDB(out / "jobs.sqlite3").get("http://c.parafia-a.test/")
    assert (row["state"], row["attempts"]) == ("finished", 2)
    assert len(_pages(out, "c.parafia-a.test")) == 2


def _crawl_all(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m msze crawl-all ARGS` without the fixture web (argument errors, a lone --run-one)."""
    return subprocess.run(
        [sys.executable, "-m", "msze", "crawl-all", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def _usage_error(result: subprocess.CompletedProcess[str]) -> str:
    """The one stderr line of a usage error (exit status 2, no traceback)."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_bad_arguments(tmp_path):
    missing = _crawl_all(str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o"))
    assert "cannot read URL file" in _usage_error(missing)
    assert not (tmp_path / "o").exists()
    bad_setting = _crawl_all("x.txt", "-s", "NOEQUALS")
    assert bad_setting.returncode == 2 and "NAME=VALUE" in bad_setting.stderr
    no_parallel = _crawl_all("x.txt", "--out", str(tmp_path / "o"), env={**os.environ, "PATH": str(tmp_path)})
    assert no_parallel.returncode == 2 and "GNU parallel is not installed" in no_parallel.stderr
    no_db = _crawl_all("--status", "--out", str(tmp_path / "none"))
    assert no_db.returncode == 2 and "no job database" in no_db.stderr
    assert not (tmp_path / "none").exists()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--jobs", "0", "crawl-all: --jobs must be at least 1, got 0"),
        ("--max-attempts", "-1", "crawl-all: --max-attempts must be 0 (never give up) or more, got -1"),
        ("--progress-interval", "0", "crawl-all: --progress-interval must be more than 0 seconds, got 0.0"),
    ],
)
def test_bad_numbers_are_one_line_and_start_nothing(tmp_path, option, value, message):
    urls = tmp_path / "urls.txt"
    urls.write_text("http://parafia-a.test/\n", encoding="utf-8")
    result = _crawl_all(str(urls), "--out", str(tmp_path / "o"), option, value)
    assert _usage_error(result) == message
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no parish URL in {path} (one http(s) URL a line)"),
        ("# only a comment\n\n", "no parish URL in {path} (one http(s) URL a line)"),
        (
            "parafia-a.test\nnie adres\n",
            "no parish URL in {path}: 2 lines are not http(s) URLs (line 1: 'parafia-a.test')",
        ),
    ],
)
def test_url_file_without_urls_is_one_error(tmp_path, text, message):
    urls = tmp_path / "urls.txt"
    urls.write_text(text, encoding="utf-8")
    result = _crawl_all(str(urls), "--out", str(tmp_path / "o"))
    assert _usage_error(result) == "crawl-all: " + message.format(path=urls)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("spider", "message"),
    [
        ("nosuch", "crawl-all: no spider 'nosuch'; parish spiders: parish"),
        # deon crawls the parish directory, parishes a URL file in one process: neither takes -a url=URL.
        (
            "deon",
            "crawl-all: spider 'deon' does not crawl one parish URL (-a url=URL); parish spiders: parish",
        ),
        (
            "parishes",
            "crawl-all: spider 'parishes' does not crawl one parish URL (-a url=URL); parish spiders: parish",
        ),
    ],
)
def test_unusable_spider_is_one_error_before_any_job(tmp_path, spider, message):
    urls = tmp_path / "urls.txt"
    urls.write_text("http://parafia-a.test/\nhttp://parafia-b.test/\n", encoding="utf-8")
    out = tmp_path / "o"
    result = _crawl_all(str(urls), "--out", str(out), "--spider", spider)
    assert _usage_error(result) == message
    assert not out.exists()  # no job database, no job started


def test_run_one_records_why_scrapy_did_not_run(tmp_path):
    out = tmp_path / "out"
    db_path = out / "jobs.sqlite3"
    done = _crawl_all(
        "--run-one", "http://parafia-x.test/", "--out", str(out), "--db", str(db_path), "--spider", "nosuch"
    )
    assert done.returncode == 1
    row = JobDB(db_path).get("http://parafia-x.test/")
    assert row["state"] == "failed" and row["attempts"] == 1
    assert "Spider not found: nosuch" in row["error"]
    assert row["log_path"] == str(out / "logs" / "parafia-x.test.log")


def test_ctrl_c_requeues_the_interrupted_parish(web, tmp_path):
    """SIGINT to the driver's group (Ctrl-C): GNU parallel stops the jobs, the cut-short parish goes back to
    the queue (not failed, no attempt lost against --max-attempts), and no crawl is left running."""
    proc, urls, out = _start_batch_to_stop(web, tmp_path, "http://parafia-b.test/\n")
    deadline = time.monotonic() + 60
    while not _pages_written(out) and time.monotonic() < deadline:
        time.sleep(0.1)
    os.killpg(proc.pid, signal.SIGINT)
    assert proc.wait(timeout=30) == 1
    row = JobDB(out / "jobs.sqlite3").get("http://parafia-b.test/")
    assert row["state"] == "queued"
    assert row["error"].startswith("crawl interrupted by SIGTERM")
    assert not _crawl_processes(out)
    assert not (out / "pages" / "parafia-b.test.jsonl").exists()  # a cut-short crawl publishes nothing
    web.route("parafia-b.test", "/ogloszenia.html", slow(0.1, SLOW_PAGE.encode()))
    again = _run(web, urls, out, "--jobs", "1", "--max-attempts", "1")
    assert again.returncode == 0, again.stderr
    assert JobDB(out / "jobs.sqlite3").get("http://parafia-b.test/")["state"] == "finished"
    assert len(_pages(out, "parafia-b.test")) == len(EXPECTED_PAGES["parafia-b.test"])


def _crawl_processes(out: Path) -> list[str]:
    listing = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    return [line for line in listing.splitlines() if str(out) in line and "ps -eo" not in line]
