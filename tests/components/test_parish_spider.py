"""ParishSpider's callbacks on fake responses (no crawl): items, link texts, what is followed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from conftest import project_crawler
from scrapy.http import HtmlResponse, Request

from msze.items import PageItem
from msze.spiders.parish import SITE_META, ParishSpider

START = "http://www.parafia.test/"
MENU = """<html><body>
<a href="/msze.html"><img src="/img/msze.gif" alt="Msze  święte"></a>
<a href="/ogloszenia.html" title="Ogłoszenia parafialne"></a>
<a href="/kontakt.html">Kontakt <b>i</b> kancelaria</a>
<a href="/plik.pdf">Plik</a>
<a href="https://www.facebook.com/parafia">FB</a>
<a href="http://inna.test/">Sąsiedzi</a>
</body></html>"""


def spider() -> ParishSpider:
    crawler = project_crawler(ParishSpider)
    return ParishSpider.from_crawler(crawler, url=START)


HEADERS = {"Date": "Tue, 01 Dec 2026 09:30:00 GMT", "Last-Modified": "Sun, 29 Nov 2026 18:00:00 GMT"}


def response_for(request: Request, body: str, url: str | None = None) -> HtmlResponse:
    return HtmlResponse(
        url or request.url, body=body.encode(), encoding="utf-8", request=request, headers=HEADERS
    )


def test_start_page_item_and_links() -> None:
    s = spider()
    site = s.make_site(START)
    request = s.site_request(site, START)
    out: list[Any] = list(s.parse(response_for(request, MENU)))
    item = out[0]
    assert isinstance(item, PageItem)
    fetched = datetime.fromisoformat(item.pop("crawled_at"))
    assert abs(datetime.now(UTC) - fetched) < timedelta(minutes=1)  # when the page was fetched, in UTC
    assert dict(item) == {
        "url": START,
        "previous_url": None,
        "start_url": START,
        "domain": "parafia.test",
        "depth": 0,
        "button_text": None,
        "html": MENU,
        "http_date": HEADERS["Date"],
        "last_modified": HEADERS["Last-Modified"],
    }
    followed = {r.url: r.meta["msze_button_text"] for r in out[1:]}
    assert followed == {
        "http://www.parafia.test/msze.html": "Msze święte",  # image alt
        "http://www.parafia.test/ogloszenia.html": "Ogłoszenia parafialne",  # link title
        "http://www.parafia.test/kontakt.html": "Kontakt i kancelaria",
        "http://www.parafia.test/plik.pdf": "Plik",  # a PDF link: tests/crawls/test_pdf_crawl.py
    }
    assert all(r.meta[SITE_META] is site and r.meta["msze_previous_url"] == START for r in out[1:])
    stats = s.crawler.stats
    assert stats.get_value("msze/links/pdf") == 1
    assert stats.get_value("msze/links/blacklisted") == 1
    assert stats.get_value("msze/links/offsite") == 1


def test_page_redirected_off_the_site_is_dropped() -> None:
    s = spider()
    site = s.make_site(START)
    request = s.site_request(site, START + "stara", previous_url=START, button_text="Stara strona")
    assert list(s.parse(response_for(request, MENU, url="http://hosting.test/konto-zawieszone"))) == []
    assert s.crawler.stats.get_value("msze/parish/dropped/offsite_redirect") == 1


FRAMESET = """<html><head><title>Parafia</title></head>
<frameset cols="200,*">
  <frame src="menu.html" name="menu">
  <frame src="glowna.html" name="glowna" title="Strona główna">
  <noframes><body>Twoja przeglądarka nie obsługuje ramek.</body></noframes>
</frameset></html>"""

OLD_MENU = """<html><body>
<iframe src="/msze.html" title="Porządek Mszy świętych" width="600"></iframe>
<iframe src="https://www.youtube.com/embed/xyz"></iframe>
<div class="m" onclick="location.href='ogloszenia.html'">Ogłoszenia</div>
<td onClick="window.open('/intencje.html','okno','width=400')">Intencje mszalne</td>
<a href="javascript:window.location='kontakt.html'">Kontakt</a>
<a href="#" onclick="document.location.href = &quot;historia.html&quot;; return false;">Historia</a>
<button onclick="alert('Szczęść Boże')">Pozdrowienie</button>
<span onclick="window.open('http://inna.test/')">Sąsiedzi</span>
</body></html>"""


def followed_from(body: str, url: str = START) -> dict[str, str | None]:
    s = spider()
    site = s.make_site(START)
    request = s.site_request(site, url, previous_url=START if url != START else None)
    return {r.url: r.meta["msze_button_text"] for r in list(s.parse(response_for(request, body)))[1:]}


def test_frameset_frames_are_followed_with_their_names_as_link_text() -> None:
    assert followed_from(FRAMESET) == {
        "http://www.parafia.test/menu.html": "menu",
        "http://www.parafia.test/glowna.html": "Strona główna",
    }


def test_iframes_and_script_navigation_are_followed_on_the_site() -> None:
    followed = followed_from(OLD_MENU)
    followed.pop(START)  # href="#": the page itself (the dupefilter drops it)
    assert followed == {
        "http://www.parafia.test/msze.html": "Porządek Mszy świętych",  # iframe title
        "http://www.parafia.test/ogloszenia.html": "Ogłoszenia",  # onclick location.href
        "http://www.parafia.test/intencje.html": "Intencje mszalne",  # window.open
        "http://www.parafia.test/kontakt.html": "Kontakt",  # javascript: href
        "http://www.parafia.test/historia.html": "Historia",
    }


def candidates_of(body: str) -> tuple[set[str], dict[str, Any]]:
    """The OCR candidate images collect_images keeps from one page, and the msze/ocr stats it counted."""
    s = spider()
    site = s.make_site(START)
    s.collect_images(site, response_for(s.site_request(site, START), body))
    stats = {k: v for k, v in s.crawler.stats.get_stats().items() if k.startswith("msze/ocr/")}
    return set(s.ocr_candidates.get(START, {})), stats


def test_a_large_uncued_image_of_a_schedule_page_without_times_is_a_candidate() -> None:
    page = (
        '<html><head><title>Porządek Mszy</title></head><body>{}<img src="/a.jpg" width="800"></body></html>'
    )
    assert candidates_of(page.format("<p>Zapraszamy.</p>")) == (
        {START + "a.jpg"},
        {"msze/ocr/candidates": 1},
    )
    # its text gives times: the image is not needed
    assert candidates_of(page.format("<p>Niedziela 9:00</p>")) == (set(), {"msze/ocr/skipped_no_cue": 1})
