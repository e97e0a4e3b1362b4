"""Pure helpers of the batch driver: URL lists, crawl verdicts, progress line, GNU parallel argv."""

from __future__ import annotations

import re

from msze.batch.plan import (
    crawl_error,
    format_duration,
    job_name,
    parallel_command,
    parish_paths,
    parse_url_list,
    progress_line,
    spider_error,
    spread_by_domain,
)


def test_parse_url_list_names_every_parish_uniquely():
    lines = [
        "# comment",
        "",
        "https://www.parafia-a.pl/",
        "Parafia św. Anny\tKraków\thttps://anna.example.pl/msze\tul. Długa 1",
        "to nie jest adres",
        "https://www.parafia-a.pl/",
        "http://matulewicz.kielce.opoka.org.pl/",
        "http://wojciech.opoka.org.pl/",
        "http://portal.diecezja.pl/parafia.php?id=5",
        "http://portal.diecezja.pl/parafia.php?id=6",
    ]
    parsed = parse_url_list(lines)
    assert parsed.urls == [
        "https://www.parafia-a.pl/",
        "https://anna.example.pl/msze",
        "http://matulewicz.kielce.opoka.org.pl/",
        "http://wojciech.opoka.org.pl/",
        "http://portal.diecezja.pl/parafia.php?id=5",
        "http://portal.diecezja.pl/parafia.php?id=6",
    ]
    assert parsed.invalid == [(5, "to nie jest adres")]
    # Parishes on subdomains of one registered domain: one domain, separate names (files).
    assert parsed.domains["http://wojciech.opoka.org.pl/"] == "opoka.org.pl"
    assert parsed.names["http://matulewicz.kielce.opoka.org.pl/"] == "matulewicz.kielce.opoka.org.pl"
    assert parsed.names["https://www.parafia-a.pl/"] == "parafia-a.pl"
    # Pages of one portal host: the first keeps the host name, the others get a hash of their URL.
    assert parsed.names["http://portal.diecezja.pl/parafia.php?id=5"] == "portal.diecezja.pl"
    assert re.fullmatch(
        r"portal\.diecezja\.pl~[0-9a-f]{8}", parsed.names["http://portal.diecezja.pl/parafia.php?id=6"]
    )
    assert len(set(parsed.names.values())) == len(parsed.urls)
    assert parsed.shared_host == 2


def test_names_are_stable_across_runs():
    first = parse_url_list(["http://portal.pl/p?id=1", "http://portal.pl/p?id=2"])
    # Next run: the list comes in another order; names already in the job DB are kept.
    again = parse_url_list(["http://portal.pl/p?id=2", "http://portal.pl/p?id=1"], known_names=first.names)
    assert again.names == first.names
    assert job_name("http://www.X.pl:8080/", set()) == "x.pl"


def test_crawl_error_verdicts():
    ok = {"finish_reason": "finished", "downloader/response_status_count/200": 3}
    assert crawl_error(ok, pages=3, returncode=0) is None
    refused = {
        "finish_reason": "finished",
        "downloader/exception_type_count/twisted.internet.error.ConnectionRefusedError": 3,
    }
    assert crawl_error(refused, 0, 0) == "no pages: ConnectionRefusedError x3"
    errors = {
        "finish_reason": "finished",
        "downloader/response_status_count/404": 1,
        "downloader/response_status_count/500": 3,
    }
    assert crawl_error(errors, 0, 0) == "no pages: HTTP 404 x1, HTTP 500 x3"
    assert crawl_error({"finish_reason": "finished"}, 0, 0) == "no pages: finish reason finished"
    assert "interrupted" in crawl_error({"finish_reason": "shutdown"}, 5, 0)
    assert crawl_error(None, 0, 1).startswith("crawl ended without stats")
    assert crawl_error(None, 0, -9) == "crawl killed by signal 9"
    assert crawl_error({"finish_reason": "finished"}, 0, 2) == "scrapy exit code 2; see the parish log"


def test_progress_line_and_eta():
    counts = {"queued": 6, "running": 2, "finished": 10, "failed": 2}
    line = progress_line(counts, done_this_run=4, todo_this_run=12, elapsed=120.0)
    assert "4/12 done" in line and "failed 2" in line and "running 2" in line
    assert "ETA 4m00s" in line and "2.0 parishes/min" in line
    assert "ETA ?" in progress_line(counts, 0, 12, 5.0)
    assert format_duration(3725) == "1h02m"


def test_parallel_command_quotes_everything_but_the_url():
    cmd = parallel_command(
        ["/opt/py thon", "-m", "msze", "--run-one", "{1}", "--name", "{2}", "-s", "A=b c"],
        jobs=100,
        joblog="/out/joblog.txt",
        arg_file="/out/pending.txt",
        sshlogins=["8/user@host", ":"],
    )
    assert cmd[:7] == [
        "parallel",
        "--will-cite",
        "--jobs",
        "100",
        "--joblog",
        "+/out/joblog.txt",
        "--line-buffer",
    ]
    assert cmd[cmd.index("--termseq") + 1] == "TERM,5000,KILL,25"
    assert cmd.count("--sshlogin") == 2
    assert cmd[cmd.index("--colsep") + 1] == "\t"
    assert cmd[-1] == "'/opt/py thon' -m msze --run-one {1} --name {2} -s 'A=b c'"


def test_parish_paths():
    paths = parish_paths("/out", "parafia.pl")
    assert paths.work == "/out/work/parafia.pl"
    assert paths.pages == "/out/pages/parafia.pl.jsonl"
    assert paths.warc == "/out/warc/parafia.pl.warc.gz"
    assert paths.log == "/out/logs/parafia.pl.log"


def test_spread_by_domain_spaces_a_shared_host_evenly():
    urls = [f"http://p{i}.opoka.pl/" for i in range(4)] + [f"http://s{i}.pl/" for i in range(8)]
    domains = {u: "opoka.pl" if "opoka" in u else u.split("/")[2] for u in urls}
    spread = spread_by_domain(urls, domains)
    assert sorted(spread) == sorted(urls)
    where = [i for i, u in enumerate(spread) if "opoka" in u]
    assert min(b - a for a, b in zip(where, where[1:], strict=False)) >= 2  # never two together
    assert where[0] <= 2 and where[-1] >= 8  # over the whole run, not bunched at one end
    assert [u for u in spread if "opoka" in u] == [
        f"http://p{i}.opoka.pl/" for i in range(4)
    ]  # list order kept
    assert spread_by_domain([], {}) == []


def test_spider_error_names_the_parish_spiders():
    spiders = {"deon": False, "parish": True, "parishes": False, "mine": True}
    assert spider_error("parish", spiders) is None
    assert spider_error("mine", spiders) is None
    assert spider_error("nosuch", spiders) == "no spider 'nosuch'; parish spiders: mine, parish"
    assert spider_error("deon", spiders) == (
        "spider 'deon' does not crawl one parish URL (-a url=URL); parish spiders: mine, parish"
    )
    assert spider_error("x", {}) == "no spider 'x'; parish spiders: none"
