import json

import pytest
from conftest import run_crawl
from webserver import FixtureWeb

from msze.spiders.parishes import ParishesSpider, parse_url_file


def test_parse_url_file():
    starts, errors = parse_url_file(
        "# parafie dekanatu\nhttp://swwojciech.test/ 1\n\nhttps://mbcz-debina.test/\nparafia bez strony\n"
        "http://x.test/ dwa\n"
    )
    assert [(s.url, s.depth, s.line) for s in starts] == [
        ("http://swwojciech.test/", 1, 2),
        ("https://mbcz-debina.test/", None, 4),
    ]
    assert len(errors) == 2 and errors[0].startswith("line 5:") and "line 6" in errors[1]


def test_check_arguments(tmp_path):
    assert "-a urls=FILE" in ParishesSpider.check_arguments()
    assert "not found" in ParishesSpider.check_arguments(urls=str(tmp_path / "brak.txt"))
    empty = tmp_path / "empty.txt"
    empty.write_text("# nic\n")
    assert "no start URL" in ParishesSpider.check_arguments(urls=str(empty))
    good = tmp_path / "urls.txt"
    good.write_text("http://swwojciech.test/\n")
    assert ParishesSpider.check_arguments(urls=str(good)) is None
    assert "whole number" in ParishesSpider.check_arguments(urls=str(good), depth="trzy")


@pytest.fixture(scope="module")
def web():
    with FixtureWeb() as web:
        yield web


def crawl(web, tmp_path, urls_text, *args):
    urls = tmp_path / "urls.txt"
    urls.write_text(urls_text, encoding="utf-8")
    result = run_crawl(
        None,
        tmp_path,
        "AUTOTHROTTLE_ENABLED=False",
        "RETRY_ENABLED=False",
        "MEMORY_TRIM_INTERVAL=0.05",  # several trims even in a short crawl
        proxy=web.proxy,
        spider="parishes",
        args=("-a", f"urls={urls}", *args),
    )
    assert result.returncode == 0, result.log[-3000:]
    pages = {}
    for path in result.pages_dir.glob("*.jsonl"):
        pages[path.name] = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return result.stats, pages


def test_two_sites_in_one_process_with_per_site_limits(web, tmp_path):
    web.clear()
    stats, pages = crawl(
        web,
        tmp_path,
        "http://swwojciech.test/ 1\nhttp://mbcz-debina.test/\nto nie adres\nhttp://www.swwojciech.test/\n",
        "-a",
        "depth=3",
    )
    assert sorted(pages) == ["mbcz-debina.test.jsonl", "swwojciech.test.jsonl"]
    wojciech = {p["url"]: p for p in pages["swwojciech.test.jsonl"]}
    debina = {p["url"]: p for p in pages["mbcz-debina.test.jsonl"]}
    # Per-site depth: swwojciech.test stops at depth 1, mbcz-debina.test uses the default 3.
    assert max(p["depth"] for p in wojciech.values()) == 1
    assert "http://swwojciech.test/msze.html" in wojciech
    assert "http://swwojciech.test/aktualnosci/odpust-2026.html" not in wojciech
    assert not any("odpust-2026" in url for url in web.fetched("swwojciech.test"))
    assert "http://mbcz-debina.test/nabozenstwa.html" in debina
    assert debina["http://mbcz-debina.test/nabozenstwa.html"]["language"] == "pl"  # LanguagePipeline
    # Per-site domains: each file holds only its own site, whatever the other site links to.
    assert {p["domain"] for p in wojciech.values()} == {"swwojciech.test"}
    assert {p["domain"] for p in debina.values()} == {"mbcz-debina.test"}
    assert all(p["start_url"] == "http://mbcz-debina.test/" for p in debina.values())
    assert not any("facebook" in url or "youtube" in url for url in web.fetched())
    assert stats["msze/parishes/sites"] == 2
    assert stats["msze/parishes/bad_start_url"] == 1
    assert stats["msze/parishes/duplicate_site"] == 1
    assert stats["msze/parishes/depth_limited"] >= 1
    assert stats["msze/memory/trims"] >= 1  # MemoryTrimExtension ran during the crawl
    assert stats["msze/memory/released_mb"] >= 0


def test_max_pages_per_site(web, tmp_path):
    stats, pages = crawl(web, tmp_path, "http://swwojciech.test/\n", "-a", "max_pages=3")
    assert len(pages["swwojciech.test.jsonl"]) <= 3
    assert stats["msze/parishes/page_limited"] >= 1


def test_two_parishes_on_one_registered_domain(web, tmp_path):
    """Hosted parish sites (x.opoka.org.pl style) are separate sites: each keeps to its own host."""

    def page(body):
        def handle(handler, query):
            handler.send_body(f"<html><body>{body}</body></html>".encode(), "text/html; charset=utf-8")

        return handle

    web.route(
        "swjan.parafie.test",
        "/",
        page("<a href='/msze.html'>Msze</a> <a href='http://swpawel.parafie.test/'>Sąsiedzi</a>"),
    )
    web.route("swjan.parafie.test", "/msze.html", page("<p>Niedziela: 8.00, 10.00</p>"))
    web.route("swpawel.parafie.test", "/", page("<a href='/ogloszenia.html'>Ogłoszenia</a>"))
    web.route("swpawel.parafie.test", "/ogloszenia.html", page("<p>Ogłoszenia parafialne</p>"))
    for host in ("swjan.parafie.test", "swpawel.parafie.test"):
        web.route(
            host, "/robots.txt", lambda handler, query: handler.send_body(b"", "text/plain", status=404)
        )
    stats, pages = crawl(web, tmp_path, "http://swjan.parafie.test/\nhttp://swpawel.parafie.test/\n")
    assert stats["msze/parishes/sites"] == 2
    assert sorted(pages) == ["swjan.parafie.test.jsonl", "swpawel.parafie.test.jsonl"]  # a file per parish
    by_start = {}
    for p in pages["swjan.parafie.test.jsonl"] + pages["swpawel.parafie.test.jsonl"]:
        by_start.setdefault(p["start_url"], set()).add(p["url"])
    assert by_start == {
        "http://swjan.parafie.test/": {"http://swjan.parafie.test/", "http://swjan.parafie.test/msze.html"},
        "http://swpawel.parafie.test/": {
            "http://swpawel.parafie.test/",
            "http://swpawel.parafie.test/ogloszenia.html",
        },
    }


def test_two_parishes_of_one_portal_host_are_both_crawled(web, tmp_path):
    """A diocesan portal's parishes share a host and differ by the query: both are crawled, each into its own
    file; the same parish listed again with "www." and a tracking parameter is the duplicate."""
    web.clear()
    times = {"1": "7.00, 10.00", "2": "8.00, 11.00"}

    def portal(handler, query):
        params = dict(pair.split("=", 1) for pair in query.split("&") if "=" in pair)
        number = params.get("id", "")
        if params.get("strona") == "msze":
            body = f"<p>Niedziela: {times.get(number, '')}</p>"
        else:
            body = f"<a href='parafia.php?id={number}&amp;strona=msze'>Msze</a>"
        handler.send_body(f"<html><body>{body}</body></html>".encode(), "text/html; charset=utf-8")

    web.route("portal.test", "/parafia.php", portal)
    web.route(
        "portal.test", "/robots.txt", lambda handler, query: handler.send_body(b"", "text/plain", status=404)
    )
    urls = "http://portal.test/parafia.php?id=1\nhttp://portal.test/parafia.php?id=2\n"
    stats, pages = crawl(web, tmp_path, urls + "http://www.portal.test/parafia.php?id=1&utm_source=x\n")
    assert stats["msze/parishes/sites"] == 2 and stats["msze/parishes/duplicate_site"] == 1
    assert len(pages) == 2
    by_start = {lines[0]["start_url"]: {p["url"] for p in lines} for lines in pages.values()}
    assert by_start == {
        f"http://portal.test/parafia.php?id={n}": {
            f"http://portal.test/parafia.php?id={n}",
            f"http://portal.test/parafia.php?id={n}&strona=msze",
        }
        for n in ("1", "2")
    }
