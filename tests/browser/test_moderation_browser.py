"""Real browser, desktop and phone (390×844): a moderator logs in and accepts a report, and the parish page
shows the corrected time as verified; a parish office joins by its invite link and confirms its schedule; a
newer crawl that changes a verified time queues the parish and leaves the published time alone.

Debian's chromium through Playwright; the search app runs in a thread on 127.0.0.1:0 over the fixture
database (tests/search_fixtures.py).
"""

from __future__ import annotations

import re
import threading
from datetime import UTC, datetime

import pytest
from argon2 import PasswordHasher
from search_fixtures import results, write_inputs, write_results
from werkzeug.serving import make_server

from msze.search import accounts
from msze.search.app import create_app
from msze.search.db import create_schema, make_engine
from msze.search.loader import load

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
PASSWORD = "haslo-moderatora-42"
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


@pytest.fixture
def served(tmp_path, monkeypatch):
    monkeypatch.setattr(accounts, "_HASHER", PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))
    engine = make_engine(tmp_path / "search.sqlite")
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"], now=NOW)
    with engine.begin() as conn:
        accounts.add_user(conn, "anna", PASSWORD, "moderator", None, NOW)
    app = create_app(engine=engine, config={"NOW": NOW})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    pid = app.test_client().get("/api/parishes?q=józefa").get_json()["parishes"][0]["id"]
    yield f"http://127.0.0.1:{server.server_port}", engine, pid, tmp_path
    server.shutdown()
    engine.dispose()


@pytest.fixture(params=sorted(VIEWPORTS))
def page(request, browser):
    context = browser.new_context(locale="pl-PL", **VIEWPORTS[request.param])
    page = context.new_page()
    page.viewport_name = request.param
    yield page
    context.close()


def log_in(page, root: str, name: str = "anna", password: str = PASSWORD) -> None:
    page.goto(root + "/logowanie")
    page.get_by_label("Nazwa użytkownika").fill(name)
    page.get_by_label("Hasło").fill(password)
    page.get_by_role("button", name="Zaloguj").click()
    page.wait_for_url("**/admin/")


def sunday_times(page, root: str, pid: int) -> list[str]:
    page.goto(f"{root}/parafia/{pid}")
    return page.locator("dl.schedule dt:has-text('Niedziela') + dd summary").all_inner_texts()


def test_a_moderator_accepts_a_report_and_the_parish_page_shows_the_verified_time(served, page, artifacts):
    root, _, pid, _ = served
    assert "07:00" in sunday_times(page, root, pid)
    page.locator("#zglos").get_by_text("to nie jest Msza").click()
    page.locator("#r-day").select_option("sun")
    page.locator("#r-time").fill("07:00")
    page.get_by_role("button", name="Wyślij zgłoszenie").click()
    page.wait_for_url(f"**/parafia/{pid}#dziekujemy")

    log_in(page, root)
    report = page.locator("section.report", has_text="Niedziela 07:00")
    assert "Msze św. w niedziele: 07.00, 10.30, 18.00" in report.inner_text()  # the crawl's sentence
    report.get_by_role("button", name="Przyjmij").click()
    page.wait_for_url("**/admin/")
    assert page.locator("section.report").count() == 0

    times = sunday_times(page, root, pid)
    assert "07:00" not in times and "10:30" in times
    label = page.locator("p.verified").inner_text()
    assert label == "✔ Godziny potwierdzone przez moderatora 1 grudnia 2026."
    page.screenshot(path=str(artifacts / f"verified-{page.viewport_name}.png"), full_page=True)


def test_a_parish_office_joins_by_invite_and_confirms_its_schedule(served, page, browser, artifacts):
    root, _, pid, _ = served
    log_in(page, root)
    page.goto(f"{root}/admin/parafia/{pid}")
    page.get_by_role("button", name="Zaproś parafię").click()
    link = page.locator("#invite-link").inner_text()
    assert re.fullmatch(r"/zaproszenie#kod=[A-Za-z0-9_-]{20,}", link)

    office = browser.new_context(locale="pl-PL", **VIEWPORTS[page.viewport_name]).new_page()
    office.goto(root + link)
    assert office.get_by_label("Kod zaproszenia", exact=False).input_value() == link.split("#kod=")[1]
    assert "#" not in office.url  # the code is out of the address bar (and the history)
    office.get_by_label("Nazwa użytkownika").fill("kancelaria")
    office.get_by_label("Hasło").fill("haslo-parafii-1234")
    office.get_by_role("button", name="Załóż konto").click()
    office.wait_for_url(f"**/admin/parafia/{pid}")
    evidence = office.locator("table.masses tr", has=office.locator("input[value='10:30']"))
    assert "Msze św. w niedziele: 07.00, 10.30, 18.00" in evidence.first.inner_text()
    office.get_by_role("button", name="Zapisz i potwierdź porządek").click()
    office.wait_for_url(f"**/admin/parafia/{pid}")
    assert "Zapisano" in office.locator("p.flash").inner_text()

    office.goto(f"{root}/parafia/{pid}")
    assert "potwierdzone przez parafię" in office.locator("p.verified").inner_text()
    office.screenshot(path=str(artifacts / f"invite-{page.viewport_name}.png"), full_page=True)
    office.goto(root + link)  # the same link again
    office.get_by_label("Nazwa użytkownika").fill("ktos-inny")
    office.get_by_label("Hasło").fill("haslo-parafii-5678")
    office.get_by_role("button", name="Załóż konto").click()
    assert "nieważne" in office.locator("p.error").inner_text()
    office.context.close()


def test_a_crawl_that_changes_a_verified_time_queues_the_parish_and_leaves_it(served, page, artifacts):
    root, engine, pid, tmp_path = served
    log_in(page, root)
    page.goto(f"{root}/admin/parafia/{pid}")
    page.get_by_role("button", name="Zapisz i potwierdź porządek").click()
    page.wait_for_url(f"**/admin/parafia/{pid}")
    before = sunday_times(page, root, pid)
    assert "07:00" in before

    crawl = results("2026-11-30T08:00:00Z", ("08:00", "10:30", "18:00"))
    newer = write_results(tmp_path / "newer.jsonl", crawl)
    assert load(engine, results_path=newer, now=NOW).verified_queued == 1
    assert sunday_times(page, root, pid) == before  # published as verified

    page.goto(root + "/admin/")
    item = page.locator("section.crawl")
    assert "dodano Niedziela 08:00" in item.inner_text() and "usunięto Niedziela 07:00" in item.inner_text()
    page.screenshot(path=str(artifacts / f"queue-{page.viewport_name}.png"), full_page=True)
    item.get_by_role("button", name="Zostaw potwierdzony").click()
    page.wait_for_url("**/admin/")
    assert page.locator("section.crawl").count() == 0
    assert sunday_times(page, root, pid) == before
