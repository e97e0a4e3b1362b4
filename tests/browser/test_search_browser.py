"""Real browser, phone viewport: search a city, filter Sunday evening, open a time's sentence, follow it to
its source page; read a parish page; find the next Masses near the phone's location.

Debian's chromium through Playwright (never a downloaded browser). The search app and a fake parish site both
run in threads on 127.0.0.1:0; the Mass times in the fixture database point at the fake site's page.
"""

from __future__ import annotations

import json
import re
import struct
import threading
import time
import zlib
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from axe import serious_violations
from search_fixtures import WORKDAYS, weekly
from werkzeug.serving import make_server

from msze.search.app import create_app
from msze.search.db import create_schema, make_engine
from msze.search.loader import load
from msze.search.reports import correction_rows, training_labels

# Our own page in the style of a parish "porządek Mszy" page.
SOURCE_PAGE = """<!doctype html><html lang="pl"><head><meta charset="utf-8">
<title>Porządek Mszy św.</title></head><body><h1>Porządek Mszy świętych</h1>
<p>Niedziele i święta: 7.30, 9.00, 11.00, 18.00</p>
<p>Dni powszednie: 7.00 i 18.00</p></body></html>"""


def _png() -> bytes:
    """A 1×1 grey PNG: the stub's answer to every map tile."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\0\xcc"))
        + chunk(b"IEND", b"")
    )


TILE = _png()
TILES_ASKED: list[str] = []  # the paths of the tiles the map asked the stub for


class _SourceSite(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        if self.path.startswith("/tiles/"):  # the map's tile server, a stub
            TILES_ASKED.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(TILE)))
            self.end_headers()
            self.wfile.write(TILE)
            return
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
    found = [  # (name, city, address, path of its site, lat, lng)
        (
            "Świętego Wojciecha",
            "Łódź",
            ["Świętego Wojciecha", "ul. Lipowa 4", "90-001 Łódź"],
            "/",
            51.7687,
            19.4570,
        ),
        (
            "Świętej Rodziny",
            "Łódź",
            ["Świętej Rodziny", "ul. Polna 9", "90-002 Łódź"],
            "/rodzina/",
            51.7420,
            19.4300,
        ),
        (
            "Świętego Jana",
            "Kraków",
            ["Świętego Jana", "ul. Szkolna 1", "30-001 Kraków"],
            "/krakow/",
            50.0614,
            19.9366,
        ),
    ]
    places.write_text(
        "".join(
            json.dumps(
                {"name": name, "city": city, "address": address, "url": site + path, "lat": lat, "lng": lng},
                ensure_ascii=False,
            )
            + "\n"
            for name, city, address, path, lat, lng in found
        ),
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
    others = [  # one Sunday morning Mass each at the other two parishes' sites
        {
            **result,
            "start_url": site + path,
            "masses": [],
            "schedule": [weekly(t, ["sun"], site + path, f"Niedziela {t}")],
        }
        for path, t in (("/rodzina/", "08:30"), ("/krakow/", "08:00"))
    ]
    results.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in (result, *others)), encoding="utf-8"
    )

    db = tmp_path / "search.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    load(engine, deon, places, results)
    # Saturday 5 December 2026, 15:00 in Łódź: the vigil, then Sunday morning ("now" frozen: at a real 19:00
    # on a Friday nothing would be left before the next noon)
    now = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)
    tiles = site + "/tiles/{z}/{x}/{y}.png"
    app = create_app(str(db), config={"NOW": now, "MAP_TILES": tiles})
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
    assert cards.count() == 2  # the two Łódź parishes, nearest first; Kraków is farther than 10 km
    assert "Świętego Wojciecha · 1,1 km" in cards.first.inner_text()
    page.get_by_role("button", name="Teraz", exact=True).tap()
    page.wait_for_url("**when=now**")
    items = page.locator("li.mass")
    texts = items.all_inner_texts()
    assert len(texts) >= 2
    assert "par. Świętego Wojciecha" in texts[0] and "1,1 km" in texts[0]
    page.screenshot(path=str(artifacts / "near-now-phone.png"), full_page=True)
    items.first.locator("summary", has_text="skąd ta godzina").tap()
    items.first.get_by_role("link", name="źródło").tap()
    page.wait_for_url(f"{site}/**")
    assert (artifacts / "near-now-phone.png").stat().st_size > 5000


PHONE = {"width": 390, "height": 844}
HERE = {"latitude": 51.7592, "longitude": 19.4560}  # the centre of Łódź


def phone_390(browser, **options):
    """A page in a 390×844 touch context, Polish locale (`options`: geolocation, java_script_enabled)."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="pl-PL", **options)
    return context.new_page()


def inside_first_screen(box: dict | None) -> bool:
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_one_tap_near_now_fills_the_first_screen_with_the_next_masses(servers, browser, artifacts):
    """Saturday 15:00 in Łódź: the vigil today, then Sunday morning; the form is folded under "Zmień"."""
    app_url, _ = servers
    page = phone_390(browser, geolocation=HERE, permissions=["geolocation"])
    page.goto(app_url + "/")
    page.get_by_role("button", name="Msze w pobliżu — teraz").tap()
    page.wait_for_url("**when=now**")
    boxes = page.locator("li.mass")
    assert inside_first_screen(boxes.first.bounding_box())
    shown = [i for i in range(boxes.count()) if inside_first_screen(boxes.nth(i).bounding_box())]
    assert len(shown) >= 4  # the first screen is the answer, not the form
    first, second = boxes.nth(0).inner_text(), boxes.nth(1).inner_text()
    assert "16:00" in first and "dziś" in first and "wigilijna: liczy się jako niedzielna" in first
    assert "par. Świętego Wojciecha" in first and "1,1 km" in first
    assert "07:30" in second and "jutro" in second and "wigilijna" not in second
    hours = boxes.locator(".hour").all_inner_texts()
    assert hours == ["16:00", "07:30", "08:30", "09:00", "10:00", "11:00"]  # soonest first, up to Sunday noon
    assert "Kaplica w Rudzie" in boxes.nth(4).inner_text() and "Świętej Rodziny" in boxes.nth(2).inner_text()
    assert not page.locator("form.search").is_visible()
    page.screenshot(path=str(artifacts / "near-now-first-screen.png"))
    page.get_by_text("Zmień", exact=True).tap()
    assert page.locator("form.search").is_visible()
    assert (artifacts / "near-now-first-screen.png").stat().st_size > 5000


def test_without_script_the_same_answer_after_one_submit(servers, browser):
    app_url, _ = servers
    answers = []
    for script in (True, False):
        page = phone_390(browser, java_script_enabled=script)
        page.goto(app_url + "/")
        page.get_by_label("Gdzie jesteś?").fill("Łódź")
        page.get_by_role("button", name="Msze w pobliżu — teraz").click()
        page.wait_for_url("**when=now**")
        assert page.locator("h1").inner_text() == "Najbliższe Msze — Łódź"
        answers.append(page.locator("li.mass").all_inner_texts())
    assert answers[0] == answers[1] and len(answers[0]) >= 5
    # without a place and without script: a message naming the field, never a URL parameter
    page.goto(app_url + "/")
    page.get_by_role("button", name="Msze w pobliżu — teraz").click()
    error = page.get_by_role("alert").inner_text()
    assert "„Miejsce”" in error and "near" not in error and "place" not in error


def test_a_town_and_a_postcode_give_the_nearest_parishes(servers, browser, artifacts):
    app_url, _ = servers
    page = phone_390(browser)
    page.goto(app_url + "/")
    page.get_by_label("Gdzie jesteś?").press_sequentially("Kra")
    page.locator('#place-list option[value="Kraków"]').wait_for(state="attached")  # a suggestion
    page.get_by_label("Gdzie jesteś?").fill("Kraków")
    page.get_by_role("button", name="Msze w pobliżu — teraz").tap()
    page.wait_for_url("**when=now**")
    texts = page.locator("li.mass").all_inner_texts()
    assert len(texts) == 1 and "08:00" in texts[0] and "par. Świętego Jana, Kraków" in texts[0]
    assert "0,0 km" in texts[0]  # the town is the centre of its parishes: here its one parish

    page.goto(app_url + "/")
    page.get_by_label("Miejsce (miejscowość, ulica, kod pocztowy)").fill("90-002")
    page.get_by_role("button", name="Szukaj").tap()
    page.wait_for_url("**place=90-002**")
    cards = page.locator("article.parish h2").all_inner_texts()
    assert cards == ["Świętej Rodziny · 0,0 km", "Świętego Wojciecha · 3,5 km"]
    page.screenshot(path=str(artifacts / "place-postcode.png"), full_page=True)

    page.goto(app_url + "/")
    page.get_by_label("Gdzie jesteś?").fill("Atlantyda")
    page.get_by_role("button", name="Msze w pobliżu — teraz").tap()
    assert "Nie znamy miejsca 'Atlantyda'" in page.get_by_role("alert").inner_text()


def test_the_near_now_answer_weighs_at_most_30_kb(servers, browser):
    app_url, _ = servers
    page = phone_390(browser)
    sizes = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body())))
    page.goto(app_url + "/?place=Łódź&when=now", wait_until="networkidle")
    assert page.locator("li.mass").count() >= 5
    assert any(url.endswith(".css") for url in sizes) and any(url.endswith(".js") for url in sizes)
    assert sum(sizes.values()) <= 30 * 1024, sizes


def test_a_changed_time_reported_from_zglos_gives_the_two_right_labels(servers, browser, artifacts, tmp_path):
    """ "Zgłoś" beside 11:00 in the near-now answer: the form names 11:00 on Sunday; "Msza jest o innej
    godzinie" 11:30 -> the thank-you in view, and the export: 11:00 "other", 11:30 "mass"."""
    app_url, _ = servers
    page = phone_390(browser)
    page.goto(app_url + "/?place=90-001&when=now")
    eleven = page.locator("li.mass", has_text="11:00")
    eleven.get_by_role("link", name="Zgłoś").tap()
    page.wait_for_url("**godzina=11:00**#zglos")
    assert page.get_by_label("Godzina", exact=True).input_value() == "11:00"
    assert page.get_by_label("Dzień").input_value() == "sun"
    assert inside_first_screen(page.locator("#zglos h2").bounding_box())  # the form, not the page top
    page.get_by_role("radio", name="Msza jest o innej godzinie").check()
    page.get_by_label("Prawidłowa godzina").fill("11:30")
    page.get_by_role("button", name="Wyślij zgłoszenie").tap()
    page.wait_for_url("**#dziekujemy")
    thanks = page.get_by_role("status")
    assert "Dziękujemy" in thanks.inner_text() and inside_first_screen(thanks.bounding_box())
    page.screenshot(path=str(artifacts / "report-thanks-phone.png"))
    engine = make_engine(tmp_path / "search.sqlite")  # the servers fixture's database
    with (
        engine.connect() as conn
    ):  # what the moderators' label export writes (tests/web/test_search_admin.py)
        labels = [label for row in correction_rows(conn) for label in training_labels(row)]
    engine.dispose()
    assert [(label["day"], label["time"], label["label"]) for label in labels] == [
        ("sun", "11:00", "other"),
        ("sun", "11:30", "mass"),
    ]
    assert labels[0]["context"] == "Niedziele i święta: 7.30, 9.00, 11.00, 18.00"


def test_the_map_shows_a_marker_per_church_with_tiles_from_the_configured_server(servers, browser, artifacts):
    """The list is the answer; "Pokaż na mapie" loads the vendored Leaflet, draws a marker per church of the
    answer and the place asked about, and asks the stub (MAP_TILES) for its tiles; "trasa" per box."""
    app_url, site = servers
    page = phone_390(browser)
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(app_url + "/?place=90-001&when=now")
    assert not any("leaflet" in url for url in asked)  # not loaded before the map is asked for
    routes = page.locator("li.mass a.route")
    assert routes.count() == page.locator("li.mass").count()
    assert "51.76870%2C19.45700" in routes.first.get_attribute("href")  # Świętego Wojciecha's place
    TILES_ASKED.clear()
    page.get_by_role("button", name="Pokaż na mapie").tap()
    page.locator(".leaflet-tile-loaded").first.wait_for()
    churches = page.locator("path.church")
    # Świętego Wojciecha, its chapel (where the parish stands: the directory locates it nowhere else), Rodzina
    assert churches.count() == 3 and page.locator("path.here").count() == 1
    assert TILES_ASKED and all(path.endswith(".png") for path in TILES_ASKED)
    assert all(url.startswith(("http://127.0.0.1", "data:")) for url in asked), asked
    assert "© OpenStreetMap" in page.locator(".leaflet-control-attribution").inner_text()
    assert any(url.endswith("/static/vendor/leaflet/leaflet.js") for url in asked)
    page.screenshot(path=str(artifacts / "map-phone.png"), full_page=True)
    churches.first.dispatch_event("click")
    assert "par. Świętego Wojciecha" in page.locator(".leaflet-popup-content").inner_text()


def _wait_until(page, function: str, timeout: float = 30.0) -> None:
    """Poll a JavaScript function until it is true. Not ``page.wait_for_function``: when its first try fails
    it polls by evaluating a string, which the page's CSP (``script-src 'self'``) rightly refuses."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(function):
        assert time.monotonic() < deadline, f"still false after {timeout:.0f} s: {function}"
        page.wait_for_timeout(100)


def test_installable_and_offline_the_last_answer_is_shown_marked_with_its_time(servers, browser, artifacts):
    app_url, _ = servers
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="pl-PL")
    page = context.new_page()
    page.goto(app_url + "/")
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert page.request.get(app_url + icon["src"]).headers["content-type"] == "image/png"
    _wait_until(page, "() => navigator.serviceWorker.controller !== null")  # installed, controlling the page
    page.get_by_label("Gdzie jesteś?").fill("Łódź")
    page.get_by_role("button", name="Msze w pobliżu — teraz").tap()
    page.wait_for_url("**when=now**")
    online = page.locator("li.mass").all_inner_texts()
    assert online
    saved = "async () => !!(await (await caches.open('msze-last-answer-v1')).match('/ostatnia-odpowiedz'))"
    _wait_until(page, saved)
    context.set_offline(True)
    page.reload()
    note = page.locator("p.offline")
    assert re.search(r"Bez połączenia: ostatnia odpowiedź, pobrana .*\d{1,2}:\d{2}", note.inner_text())
    assert page.locator("li.mass").all_inner_texts() == online  # the same answer, with its own "od 15:00"
    assert page.locator(".asof").inner_text() == "od 15:00, dziś"
    assert inside_first_screen(page.locator("li.mass").first.bounding_box())
    page.screenshot(path=str(artifacts / "offline-last-answer-phone.png"))
    context.close()


def test_no_serious_accessibility_violations_on_home_answer_and_parish_page(servers, browser, artifacts):
    """axe-core on the home page, the near-now answer (its "Zmień" form open too) and a parish page."""
    app_url, _ = servers
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, locale="pl-PL", bypass_csp=True
    )
    page = context.new_page()
    for path in ("/", "/?place=90-001&when=now", "/parafia/1", "/parafia/1?godzina=11:00&dzien=sun#zglos"):
        page.goto(app_url + path)
        if "when=now" in path:
            page.get_by_text("Zmień", exact=True).click()
        assert serious_violations(page) == [], path
    # the check sees what it should: an image without a text alternative is critical
    page.evaluate(
        "document.querySelector('main').append(Object.assign(new Image(), {src: '/static/icon-192.png'}))"
    )
    assert any("image-alt" in line for line in serious_violations(page))
    context.close()
