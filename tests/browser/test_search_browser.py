"""Real browser, phone viewport: search a city, filter Sunday evening, open a time's sentence, follow it to
its source page; read a parish page; find the next Masses near the phone's location.

Debian's chromium through Playwright (never a downloaded browser). The search app and a fake parish site both
run in threads on 127.0.0.1:0; the Mass times in the fixture database point at the fake site's page.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from search_fixtures import WORKDAYS, weekly
from werkzeug.serving import make_server

from msze.search.app import create_app
from msze.search.db import create_schema, make_engine
from msze.search.loader import load

# Our own page in the style of a parish "porządek Mszy" page.
SOURCE_PAGE = """<!doctype html><html lang="pl"><head><meta charset="utf-8">
<title>Porządek Mszy św.</title></head><body><h1>Porządek Mszy świętych</h1>
<p>Niedziele i święta: 7.30, 9.00, 11.00, 18.00</p>
<p>Dni powszednie: 7.00 i 18.00</p></body></html>"""


class _SourceSite(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path != "/porzadek-mszy":
            self.send_error(404)
            return
        body = SOURCE_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


@pytest.fixture
def servers(tmp_path):
    source = ThreadingHTTPServer(("127.0.0.1", 0), _SourceSite)
    threading.Thread(target=source.serve_forever, daemon=True).start()
    site = f"http://127.0.0.1:{source.server_address[1]}"

    deon = tmp_path / "deon.tsv"
    deon.write_text(
        "Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo\n"
        "Świętego Wojciecha\tŁódź\tŚwiętego Wojciecha|ul. Lipowa 4|90-001 Łódź\tłódzka\tCentrum\tłódzkie\n"
        "Świętej Rodziny\tŁódź\tŚwiętej Rodziny|ul. Polna 9|90-002 Łódź\tłódzka\tŁódź-Polesie\tłódzkie\n"
        "Świętego Jana\tKraków\tŚwiętego Jana|ul. Szkolna 1|30-001 Kraków\tkrakowska\tKraków\tmałopolskie\n",
        encoding="utf-8",
    )
    places = tmp_path / "places.jsonl"
    places.write_text(
        json.dumps(
            {
                "name": "Świętego Wojciecha",
                "city": "Łódź",
                "address": ["Świętego Wojciecha", "ul. Lipowa 4", "90-001 Łódź"],
                "url": site + "/",
                "lat": 51.7687,
                "lng": 19.4570,
            },
            ensure_ascii=False,
        )
        + "\n",
        encoding="utf-8",
    )
    context = "Niedziele i święta: 7.30, 9.00, 11.00, 18.00"
    masses = [
        {"time": t, "day": "sunday", "url": f"{site}/porzadek-mszy", "context": context, "source": "rules"}
        for t in ("07:30", "09:00", "11:00", "18:00")
    ]
    masses += [
        {
            "time": t,
            "day": "weekday",
            "url": f"{site}/porzadek-mszy",
            "context": "Dni powszednie: 7.00 i 18.00",
        }
        for t in ("07:00", "18:00")
    ]
    schedule = [weekly(m["time"], ["sun", "holiday"], m["url"], m["context"]) for m in masses[:4]]
    schedule += [weekly(m["time"], WORKDAYS, m["url"], m["context"]) for m in masses[4:]]
    schedule += [
        weekly("16:00", ["sat"], f"{site}/porzadek-mszy", "Sobota 16.00 – Msza niedzielna", vigil=True),
        weekly("06:30", WORKDAYS, f"{site}/porzadek-mszy", "W wakacje także 6.30", season="summer"),
        weekly(
            "10:00", ["sun"], f"{site}/porzadek-mszy", "Kaplica w Rudzie: 10.00", church="Kaplica w Rudzie"
        ),
    ]
    results = tmp_path / "results.jsonl"
    result = {"start_url": site + "/", "domain": "127.0.0.1", "status": "finished", "error": None,
              "pages": 2, "bytes": 900, "crawled_at": "2026-11-28T09:00:00Z", "masses": masses,
              "schedule": schedule}  # fmt: skip
    results.write_text(json.dumps(result, ensure_ascii=False) + "\n", encoding="utf-8")

    db = tmp_path / "search.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    load(engine, deon, places, results)
    # Saturday 5 December 2026, 15:00 in Łódź: the vigil, then Sunday morning ("now" frozen: at a real 19:00
    # on a Friday nothing would be left before the next noon)
    app = create_app(str(db), config={"NOW": datetime(2026, 12, 5, 14, 0, tzinfo=UTC)})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}", site
    server.shutdown()
    source.shutdown()


def phone_page(browser):
    """A page in a 360×640 touch context, Polish locale."""
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale="pl-PL"
    )
    return context.new_page()


def test_phone_search_sunday_evening_and_follow_a_time_to_its_source(servers, browser, artifacts):
    app_url, site = servers
    page = phone_page(browser)
    page.goto(app_url + "/")
    page.get_by_label("Miejscowość", exact=True).fill("Łódź")
    page.get_by_role("button", name="Szukaj").click()
    page.wait_for_url("**/?*city=*")
    results = page.locator("article.parish")
    assert results.count() == 2  # both Łódź parishes, the Kraków one not

    # Sunday evening: 17:00–21:00.
    page.get_by_label("niedziela").check()
    page.get_by_label("Od godziny").fill("17:00")
    page.get_by_label("Do godziny").fill("21:00")
    page.get_by_role("button", name="Szukaj").click()
    page.wait_for_url("**day=sun**")
    assert results.count() == 1
    card = results.first
    assert "Świętego Wojciecha" in card.inner_text()
    times = card.locator("details.time summary")
    assert times.all_inner_texts() == ["18:00"]

    # Tap the time: the sentence it was read from appears, with the link to its page.
    times.first.tap()
    sentence = card.locator("details.time .ctx q")
    sentence.wait_for(state="visible")
    assert sentence.inner_text() == "Niedziele i święta: 7.30, 9.00, 11.00, 18.00"
    assert card.locator("details.time summary").first.get_attribute("title").startswith("Niedziele")
    page.screenshot(path=str(artifacts / "search-phone.png"), full_page=True)

    card.get_by_role("link", name="strona źródłowa").tap()
    page.wait_for_url(f"{site}/porzadek-mszy")
    assert "18.00" in page.locator("body").inner_text()
    assert (artifacts / "search-phone.png").stat().st_size > 5000


def test_phone_parish_page_reads_by_day_with_the_vigil_a_chapel_and_summer(servers, browser, artifacts):
    app_url, _ = servers
    page = phone_page(browser)
    page.goto(app_url + "/?city=Łódź&q=Wojciecha")
    page.locator("article.parish a").first.tap()
    page.wait_for_url("**/parafia/*")
    rows = page.locator("dl.schedule dt")
    assert rows.all_inner_texts() == [
        "Niedziela",
        "Poniedziałek–Piątek",
        "Sobota (Msza wigilijna)",
        "Święta nakazane",
        "Poniedziałek–Piątek (latem)",
        "Niedziela",
    ]
    assert page.locator("h3.church").all_inner_texts() == ["Kaplica w Rudzie"]
    sunday = page.locator("dl.schedule dd").first.locator("details.time summary")
    assert sunday.all_inner_texts() == ["07:30", "09:00", "11:00", "18:00"]
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360  # nothing wider than the phone
    page.screenshot(path=str(artifacts / "parish-phone.png"), full_page=True)
    assert (artifacts / "parish-phone.png").stat().st_size > 5000


def test_phone_my_location_then_now_lists_the_next_masses_with_distances(servers, browser, artifacts):
    app_url, site = servers
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale="pl-PL",
        geolocation={"latitude": 51.7592, "longitude": 19.4560}, permissions=["geolocation"],
    )  # fmt: skip
    page = context.new_page()
    page.goto(app_url + "/")
    page.get_by_role("button", name="Użyj mojej lokalizacji").tap()
    page.wait_for_url("**near=51.75920%2C19.45600**")
    cards = page.locator("article.parish")
    assert cards.count() == 1 and "1,1 km" in cards.first.inner_text()  # the one Łódź parish with a place
    page.get_by_role("button", name="Teraz", exact=True).tap()
    page.wait_for_url("**when=now**")
    items = page.locator("ol.upcoming li")
    assert items.count() >= 2
    texts = items.all_inner_texts()
    assert all("1,1 km · par. Świętego Wojciecha" in t for t in texts)
    page.screenshot(path=str(artifacts / "near-now-phone.png"), full_page=True)
    items.first.get_by_role("link", name="źródło").tap()
    page.wait_for_url(f"{site}/**")
    assert (artifacts / "near-now-phone.png").stat().st_size > 5000
