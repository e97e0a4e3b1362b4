"""Link-following decisions: site domains, blacklist, non-page files, calendars, canonical URLs, caps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scrapy.http import Request
from scrapy.linkextractors import IGNORED_EXTENSIONS

from msze.crawling.links import (
    NON_PAGE_EXTENSIONS,
    PDF_PRIORITY_CUED,
    PDF_PRIORITY_OTHER,
    Site,
    canonical_url,
    domain_of,
    is_blacklisted,
    is_calendar_like,
    is_valid_start_url,
    load_blacklist,
    non_page_extension,
    pages_filename,
    pdf_priority,
    script_targets,
    site_host,
)
from msze.testing.deon_site import SHARED_DATA


@pytest.mark.parametrize(
    ("url", "domain"),
    [
        ("http://www.parafia-debina.pl/msze.html", "parafia-debina.pl"),
        ("https://PARAFIA.Debina.PL:8080/", "debina.pl"),
        ("http://www.swwojciech.katowice.pl/", "swwojciech.katowice.pl"),  # regional suffix
        ("http://parafia.blogspot.com/", "parafia.blogspot.com"),  # private suffix: its own site
        ("http://127.0.0.1:8000/x", "127.0.0.1"),
        ("http://localhost:5000/", "localhost"),
        ("http://www.swwojciech.test/", "swwojciech.test"),  # unknown suffix: last two labels
        ("not a url", ""),
    ],
)
def test_domain_of(url: str, domain: str) -> None:
    assert domain_of(url) == domain


def test_pages_filename_is_the_parish_not_its_host() -> None:
    assert pages_filename("https://www.parafia.pl/") == "parafia.pl.jsonl"
    assert pages_filename("http://parafia.pl") == pages_filename("https://parafia.pl/") == "parafia.pl.jsonl"
    assert pages_filename("http://127.0.0.1:8080/") == "127.0.0.1_8080.jsonl"
    assert pages_filename("http://sw-jan.opoka.org.pl/") == "sw-jan.opoka.org.pl.jsonl"  # not the domain's
    first, second = (
        pages_filename("http://portal.pl/p.php?id=1"),
        pages_filename("http://portal.pl/p.php?id=2"),
    )
    assert first != second and first.startswith("portal.pl~") and first.endswith(".jsonl")
    assert pages_filename("http://portal.pl/p.php?id=1&utm_source=x") == first  # one parish, one file
    assert "/" not in pages_filename("http://portal.pl/a/b/")


@pytest.mark.parametrize(
    ("url", "valid"),
    [
        ("https://parafia.pl/", True),
        ("http://127.0.0.1:8000/x?y=1", True),
        ("parafia.pl", False),
        ("ftp://parafia.pl/", False),
        ("http://", False),
        ("http://bad port:99999/", False),
        ("", False),
    ],
)
def test_is_valid_start_url(url: str, valid: bool) -> None:
    assert is_valid_start_url(url) is valid


def test_packaged_blacklist_is_the_thesis_list() -> None:
    blacklist = load_blacklist()
    assert {"facebook.com", "google.com", "youtube.com", "wikipedia.org"} <= blacklist
    thesis = SHARED_DATA / "thesis" / "domain-blacklist.txt"
    if thesis.is_file():
        assert blacklist == {line.strip() for line in thesis.read_text().splitlines() if line.strip()}
    assert not any(entry.startswith("#") for entry in blacklist)


def test_custom_blacklist_file(tmp_path: Path) -> None:
    file = tmp_path / "black.txt"
    file.write_text("# parish aggregators\nExample.COM  # trailing comment\n\nparafie.test\n")
    assert load_blacklist(file) == {"example.com", "parafie.test"}


@pytest.mark.parametrize(
    ("url", "blocked"),
    [
        ("https://www.facebook.com/parafia", True),
        ("https://pl-pl.facebook.com/parafia", True),
        ("http://facebook.com", True),
        ("https://notfacebook.com/", False),
        ("https://facebook.com.parafia.pl/", False),
        ("https://parafia.pl/facebook.com", False),
        ("m.youtube.com", True),
        ("http://user:haslo@www.facebook.com:8080/x", True),  # port and credentials are no part of the host
        ("FACEBOOK.com.", True),
        ("http://[::1]:8080/", False),
        ("mailto:ks@parafia.pl", False),
    ],
)
def test_is_blacklisted_with_subdomains(url: str, blocked: bool) -> None:
    assert is_blacklisted(url, load_blacklist()) is blocked


@pytest.mark.parametrize(
    ("url", "ext"),
    [
        ("http://p.pl/pliki/ogloszenia.PDF", "pdf"),
        ("http://p.pl/film.mp4?x=1", "mp4"),
        ("http://p.pl/zdjecie.jpg", "jpg"),
        ("http://p.pl/druk.docx", "docx"),
        ("http://p.pl/msze.html", None),
        ("http://p.pl/index.php?id=3", None),
        ("http://p.pl/kontakt", None),
        ("http://p.pl/v1.2/", None),
        ("http://p.pl/plakat.eps", "eps"),  # from Scrapy's IGNORED_EXTENSIONS
        ("http://p.pl/kalendarz.ics", "ics"),  # one of ours
        ("http://p.pl/cgi-bin/msze.py", None),  # a server script answers with a page
        ("http://p.pl/index.sh?p=2", None),
    ],
)
def test_non_page_extension(url: str, ext: str | None) -> None:
    assert non_page_extension(url) == ext


def test_non_page_extensions_start_from_scrapys() -> None:
    assert set(IGNORED_EXTENSIONS) - NON_PAGE_EXTENSIONS == {"py", "rb", "sh"}
    assert {"pdf", "jpg", "mp4", "zip", "txt", "json", "woff2"} <= NON_PAGE_EXTENSIONS


@pytest.mark.parametrize(
    ("url", "calendar"),
    [
        ("http://p.pl/kalendarz.php?data=2026-11-30", True),
        ("http://p.pl/index.php?option=com_jevents&task=day.listevents&year=2026&month=11&day=30", True),
        ("http://p.pl/kalendarz.php?miesiac=2027-01", True),
        ("http://p.pl/wydarzenia/?tribe-bar-date=2026-12-01", True),
        ("http://p.pl/?rok=2024", True),
        ("http://p.pl/kalendarz/2026-11-30", True),
        ("http://p.pl/wydarzenia/2026-11-30/", True),
        ("http://p.pl/2026/11/", True),  # month archive
        ("http://p.pl/2026/11/30/", True),  # day archive
        ("http://p.pl/2026/11/30/odpust-parafialny/", False),  # a post
        ("http://p.pl/ogloszenia/2026-11-22.html", False),  # weekly announcements
        ("http://p.pl/index.php?id=5", False),
        ("http://p.pl/index.php?option=com_content&view=article&id=12&Itemid=3", False),
        ("http://p.pl/aktualnosci?page=2", False),
    ],
)
def test_is_calendar_like(url: str, calendar: bool) -> None:
    assert is_calendar_like(url) is calendar


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("HTTP://WWW.Parafia.PL:80/msze.html#niedziela", "http://www.parafia.pl/msze.html"),
        ("https://parafia.pl:443", "https://parafia.pl/"),
        ("http://parafia.pl:8080/a?b=1", "http://parafia.pl:8080/a?b=1"),
        ("http://parafia.pl/a?utm_source=fb&id=3&fbclid=xyz", "http://parafia.pl/a?id=3"),
        ("http://parafia.pl/a?PHPSESSID=abc", "http://parafia.pl/a"),
    ],
)
def test_canonical_url(url: str, canonical: str) -> None:
    assert canonical_url(url) == canonical


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("http://parafia.pl/msze.jsp;jsessionid=A1B2C3.node1", "http://parafia.pl/msze.jsp"),
        ("http://parafia.pl/;JSESSIONID=A1B2?id=3", "http://parafia.pl/?id=3"),
        ("http://parafia.pl/a;jsessionid=x/b;sid=y/c", "http://parafia.pl/a/b/c"),
        ("http://parafia.pl/index.php;phpsessid=abc;type=a", "http://parafia.pl/index.php;type=a"),
        ("http://parafia.pl/(S(lit3py55t21z5v55vlm25s55))/msze.aspx", "http://parafia.pl/msze.aspx"),
        ("http://parafia.pl/(X(1)S(abc))/(S(def))/a/", "http://parafia.pl/a/"),
        ("http://parafia.pl/plan;type=a", "http://parafia.pl/plan;type=a"),  # not a session: kept
        ("http://parafia.pl/(S)/msze", "http://parafia.pl/(S)/msze"),
    ],
)
def test_canonical_url_drops_session_path_parameters(url: str, canonical: str) -> None:
    """Java/PHP servers put the session in the path (;jsessionid=...), ASP.NET in a segment ((S(...))): one
    page under a new URL per visit, 1 830 copies of one page on a real site."""
    assert canonical_url(url) == canonical


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("http://user:pass@parafia.pl/msze", "http://parafia.pl/msze"),
        ("http://admin@parafia.pl:8080/", "http://parafia.pl:8080/"),
        ("https://ks.jan@wp.pl@parafia.pl/", "https://parafia.pl/"),
        ("http://:@parafia.pl/a", "http://parafia.pl/a"),
    ],
)
def test_canonical_url_drops_userinfo(url: str, canonical: str) -> None:
    """Credentials in a link are never sent (nor stored): the page is fetched as any visitor sees it."""
    assert canonical_url(url) == canonical


@pytest.mark.parametrize(
    ("url", "canonical"),
    [
        ("http://parafia.pl/Msze Święte.html", "http://parafia.pl/Msze%20%C5%9Awi%C4%99te.html"),
        ("http://parafia.pl/Msze%20%C5%9Awi%C4%99te.html", "http://parafia.pl/Msze%20%C5%9Awi%C4%99te.html"),
        ("http://Parafia-Zażółć.PL/a?q=ą b", "http://xn--parafia-za-pbb4vk2akz.pl/a?q=%C4%85%20b"),
        ("http://parafia.pl/a\\b", "http://parafia.pl/a/b"),
    ],
)
def test_canonical_url_is_the_url_scrapy_requests(url: str, canonical: str) -> None:
    """One page is one URL whether a link spells it raw or percent-encoded (w3lib's safe_url_string), and
    it is what Scrapy's Request sends, so the query cap counts what is fetched."""
    assert canonical_url(url) == canonical == Request(canonical).url


def make_site(**kwargs: object) -> Site:
    return Site("http://www.parafia.pl/", blacklist=load_blacklist(), **kwargs)  # type: ignore[arg-type]


def test_site_decisions() -> None:
    site = make_site()
    assert site.domain == "parafia.pl" and site.hosts == {"parafia.pl"}
    assert site.decide("http://parafia.pl/msze.html#x") == ("http://parafia.pl/msze.html", "follow")
    assert site.decide("http://kancelaria.parafia.pl/") == ("http://kancelaria.parafia.pl/", "follow")
    assert site.decide("https://www.facebook.com/parafia") == (None, "blacklisted")
    assert site.decide("http://inna-parafia.pl/") == (None, "offsite")
    assert site.decide("http://parafia.pl/plik.pdf") == (None, "extension")
    assert site.decide("http://parafia.pl/k.php?data=2026-11-30") == (None, "calendar")
    assert site.decide("mailto:ks@parafia.pl") == (None, "scheme")
    assert site.decide("javascript:void(0)") == (None, "scheme")
    assert site.decide("http://[broken/x") == (None, "invalid")


def test_a_site_that_follows_pdfs_follows_its_own_pdf_links_only() -> None:
    site = Site("http://parafia.pl/", blacklist=frozenset({"facebook.com"}), follow_pdfs=True)
    assert site.decide("http://parafia.pl/pliki/Ogloszenia.PDF#s=2") == (
        "http://parafia.pl/pliki/Ogloszenia.PDF",
        "pdf",
    )
    assert site.decide("http://inna-parafia.pl/msze.pdf") == (None, "offsite")
    assert site.decide("https://www.facebook.com/plik.pdf") == (None, "blacklisted")
    assert site.decide("http://parafia.pl/zdjecie.jpg") == (None, "extension")
    assert site.decide("http://parafia.pl/msze.html") == ("http://parafia.pl/msze.html", "follow")


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("http://p.pl/pliki/ogloszenia-2024-11-17.pdf", None),
        ("http://p.pl/pliki/porzadek-mszy.pdf", None),
        ("http://p.pl/pliki/Og%C5%82oszenia.pdf", None),  # percent-encoded "Ogłoszenia"
        ("http://p.pl/pliki/doc12.pdf", "Intencje mszalne"),
        ("http://p.pl/pliki/doc13.pdf", "Nabożeństwa majowe"),
        ("http://p.pl/pliki/doc14.pdf", "Msze św. w wakacje"),
    ],
)
def test_pdf_links_that_name_masses_or_announcements_come_first(url: str, text: str | None) -> None:
    assert pdf_priority(url, text) == PDF_PRIORITY_CUED > 0 > PDF_PRIORITY_OTHER


def test_other_pdf_links_come_after_the_pages() -> None:
    assert pdf_priority("http://p.pl/pliki/historia-parafii.pdf", "Historia parafii") == PDF_PRIORITY_OTHER
    assert pdf_priority("http://p.pl/pliki/plakat.pdf") == PDF_PRIORITY_OTHER


def test_query_cap_per_path_shape() -> None:
    site = make_site(max_queries_per_path=3)
    followed = [site.decide(f"http://parafia.pl/galeria.php?zdjecie={n}")[1] for n in range(1, 6)]
    assert followed == ["follow", "follow", "follow", "query_cap", "query_cap"]
    # the same URL again is not a new variant (the dupefilter drops it later)
    assert site.decide("http://parafia.pl/galeria.php?zdjecie=2")[1] == "follow"
    # another path, or another parameter set, has its own cap
    assert site.decide("http://parafia.pl/index.php?id=1")[1] == "follow"
    assert site.decide("http://parafia.pl/galeria.php?album=wielkanoc")[1] == "follow"
    assert site.decide("http://parafia.pl/galeria.php")[1] == "follow"  # no query: never capped


def test_no_query_cap_unless_given() -> None:
    """The cap is the spider's (LINKS_MAX_QUERIES_PER_PATH, written once in settings.py), not Site's."""
    site = make_site()
    assert {site.decide(f"http://parafia.pl/galeria.php?zdjecie={n}")[1] for n in range(200)} == {"follow"}


def test_learn_redirect() -> None:
    site = make_site()
    assert site.learn_redirect("http://www.parafia.pl/start") is None  # same domain
    assert site.learn_redirect("https://nowa-parafia.pl/") == "nowa-parafia.pl"
    assert site.decide("https://nowa-parafia.pl/msze")[1] == "follow"
    assert site.learn_redirect("https://www.facebook.com/parafia") is None  # never learnt
    assert site.decide("https://www.facebook.com/x")[1] == "blacklisted"
    assert site.domain == "parafia.pl"  # the parish keeps its start domain


urls = st.builds(
    lambda scheme, host, path, query, frag: f"{scheme}://{host}/{path}?{query}#{frag}",
    st.sampled_from(["http", "https", "HTTP"]),
    st.sampled_from(
        [
            "parafia.pl",
            "WWW.Parafia.PL",
            "a.b.katowice.pl",
            "127.0.0.1:8080",
            "x.test",
            "[::1]:80",
            "u:p@parafia.pl",
        ]
    ),
    st.text(alphabet="abcząś/-._0123456789;=()S", max_size=30),
    st.text(alphabet="abc=&_0123456789-utm", max_size=30),
    st.text(max_size=10),
)


session_paths = st.lists(
    st.sampled_from(
        ["/a", "/", ";jsessionid=1", ";sid=", ";SID=x;", "(S(ab))", "/(S(a))", "(X(1)S(b))/", ";x"]
    ),
    max_size=8,
).map("".join)


@given(urls)
def test_canonical_url_is_idempotent_and_decide_never_raises(url: str) -> None:
    canonical = canonical_url(url)
    assert canonical_url(canonical) == canonical and "#" not in canonical
    assert Request(canonical).url == canonical
    make_site().decide(url)


@given(session_paths)
def test_canonical_url_without_session_parts_is_idempotent(path: str) -> None:
    canonical = canonical_url("http://parafia.pl/" + path)
    assert canonical_url(canonical) == canonical
    assert ";jsessionid=" not in canonical and not re.search(r"/\(S\(\w*\)\)(/|$)", canonical)


@given(st.text(max_size=200))
def test_arbitrary_text_never_raises(text: str) -> None:
    text = "http://[" + text if text.startswith("a") else text
    domain_of(text)
    is_valid_start_url(text)
    is_calendar_like(text)
    non_page_extension(text)


def test_parishes_on_one_hosting_domain_are_separate_sites() -> None:
    site = Site("http://matulewicz.kielce.opoka.org.pl/", blacklist=load_blacklist())
    assert site.domain == "opoka.org.pl"  # the output file name
    assert site.decide("http://www.matulewicz.kielce.opoka.org.pl/msze")[1] == "follow"
    assert site.decide("http://wojciech.kielce.opoka.org.pl/")[1] == "offsite"
    assert site.decide("http://opoka.org.pl/")[1] == "offsite"


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("http://www.parafia.pl/x", "parafia.pl"),
        ("http://WWW.Parafia.PL:8080/", "parafia.pl"),
        ("http://www.pl/", "www.pl"),
        ("http://kancelaria.parafia.pl/", "kancelaria.parafia.pl"),
        ("http://127.0.0.1:8000/", "127.0.0.1"),
        ("nonsense", ""),
    ],
)
def test_site_host(url: str, host: str) -> None:
    assert site_host(url) == host


@pytest.mark.parametrize(
    ("code", "targets"),
    [
        ("location.href='ogloszenia.html'", ["ogloszenia.html"]),
        ('window.location = "msze.php?id=3";', ["msze.php?id=3"]),
        ("javascript:window.open('msze.html','okno','width=400')", ["msze.html"]),
        ("self.location.replace('/a.html'); top.location.assign(\"/b.html\")", ["/a.html", "/b.html"]),
        ("document.location.href='x.html'; return false", ["x.html"]),
        ("alert('Szczęść Boże')", []),
        ("window.open(url)", []),  # a variable: nothing to follow
        ("location.href='javascript:void(0)'", []),
        ("", []),
    ],
)
def test_script_targets(code: str, targets: list[str]) -> None:
    assert script_targets(code) == targets
