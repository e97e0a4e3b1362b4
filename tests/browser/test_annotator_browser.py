"""Real browser, phone viewport 360x640: instructions, Tak/Nie/Cofnij and the database, highlight, escaping.

Debian's chromium through Playwright (never a downloaded browser); the annotator runs in a thread on
127.0.0.1:0.
Screenshots go to test-artifacts/annotator-phone*.png.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect
from sqlalchemy import select

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests/annotator_pages.py

from annotator_pages import page_item, serve, write_jsonl  # noqa: E402

from msze.annotator.app import create_app  # noqa: E402
from msze.annotator.db import assignments, hours, transaction  # noqa: E402
from msze.annotator.importer import import_file  # noqa: E402

# Our own announcements page, long enough to scroll on a phone, with markup a page might carry as text.
URL = "https://parafia-sw-anny.example.pl/ogloszenia"
TEXT = "\n".join(
    [
        "Ogłoszenia parafialne — XXIII Niedziela Zwykła",
        "1. Dziś po Mszy św. o 9:30 zbiórka do puszek na potrzeby misji. Bóg zapłać za każdy dar serca.",
        "2. Msze święte w niedziele: 7:00, 9:30, 11:00 (z udziałem dzieci) i 18:00.",
        "3. W tygodniu Msze św. o 7:00 i 18:00; w sobotę o 7:00 i 17:00 (z liturgii niedzielnej).",
        "4. Różaniec w październiku codziennie o 17:30 <script>window.__xss = 1</script> w kościele.",
        "5. Kancelaria parafialna czynna we wtorki i czwartki 16:00–18:00, w soboty nieczynna.",
        "6. W piątek spowiedź od 17:00, adoracja Najświętszego Sakramentu do 21:00.",
        "7. Próba scholi w środę o 19:00 w salce pod <b>plebanią</b>; zapraszamy nowe osoby.",
        "8. W czwartek Msza św. o 18:00 zostaje odwołana z powodu rekolekcji kapłanów dekanatu.",
        "9. Pielgrzymka parafialna do sanktuarium w sobotę: wyjazd spod kościoła o 6:30, powrót ok. 20:00.",
        "10. Zapisy na kurs przedmałżeński w zakrystii po każdej Mszy św. Informacje na stronie parafii.",
    ]
)
SPEC = [
    ("9:30", 1, "mass", "classifier"),  # the Sunday list's 9:30, not the one in line 1
    ("17:30", 0, "other", "classifier"),
    ("16:00", 0, "other", "classifier"),
    ("19:00", 0, "other", "classifier"),
]


@pytest.fixture
def served(tmp_path):
    app = create_app(
        {
            "ANNOTATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}",
            "ANNOTATOR_GOLD_FRACTION": 0.0,
            "ANNOTATOR_WINDOW_CHARS": 600,
        },
        instance_path=str(tmp_path / "instance"),
    )
    engine = app.extensions["msze_annotator_engine"]
    import_file(engine, write_jsonl(tmp_path / "pages.jsonl", [page_item(URL, TEXT, SPEC)]))
    with transaction(engine) as conn:  # rule gold "no" (lines 4, 5, 7) off: one pool, served by answers alone
        conn.execute(hours.update().values(gold_label=None, gold_origin=None))
    with serve(app) as url:
        yield url, engine


def answers(engine) -> dict[str, str | None]:
    """{hour as written: current answer} of every served hour."""
    with transaction(engine) as conn:
        rows = conn.execute(
            select(hours.c.hour_text, assignments.c.answer).select_from(
                assignments.join(hours, hours.c.id == assignments.c.hour_id)
            )
        ).all()
    return dict(rows)


def test_phone_annotation_flow(served, browser, artifacts):
    base, engine = served
    page = browser.new_page(viewport={"width": 360, "height": 640}, device_scale_factor=2, is_mobile=True)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(base + "/")

    # First visit: instructions shown; they cannot be closed before they are scrolled to the end.
    help_box, close = page.locator("#help"), page.locator("#btn-close-help")
    expect(help_box).to_be_visible()
    expect(close).to_be_disabled()
    page.screenshot(path=str(artifacts / "annotator-phone-instructions.png"))
    close.click(force=True)
    page.keyboard.press("Escape")
    expect(help_box).to_be_visible()
    page.locator("#help-body").evaluate("e => { e.scrollTop = e.scrollHeight / 3; }")
    page.wait_for_timeout(100)
    expect(close).to_be_disabled()
    page.locator("#help-body").evaluate("e => { e.scrollTop = e.scrollHeight; }")
    expect(close).to_be_enabled()
    close.click()
    expect(help_box).to_be_hidden()

    # The highlighted hour is the right one: the second "9:30" on the page, in its own line.
    mark = page.locator("#item mark")
    expect(mark).to_have_text("9:30")
    before = page.evaluate(
        "() => { const r = document.createRange(); const box = document.getElementById('item');"
        " r.setStart(box, 0); r.setEndBefore(document.getElementById('hl')); return r.toString(); }"
    )
    assert before.endswith("2. Msze święte w niedziele: 7:00, ")
    # Page text is shown as text: the <script> and <b> of the page are characters, not elements.
    item_text = page.locator("#item").text_content()
    assert "<script>window.__xss = 1</script>" in item_text and "<b>plebanią</b>" in item_text
    assert page.locator("#item script, #item b").count() == 0
    assert page.evaluate("() => window.__xss") is None and dialogs == []

    # Count the page's scrollTo calls: Tak/Nie scroll to the bottom, Cofnij never scrolls.
    page.evaluate(
        "() => { window.__scrolls = 0; const o = window.scrollTo.bind(window);"
        " window.scrollTo = (...a) => { window.__scrolls++; return o(...a); }; }"
    )
    page.locator("#btn-yes").click()
    expect(mark).to_have_text("17:30")
    assert answers(engine) == {"9:30": "yes", "17:30": None}
    assert page.evaluate("() => window.__scrolls") == 1
    at_bottom = "() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2"
    assert page.evaluate(at_bottom)
    # The long text scrolls inside its box: the highlighted hour and the buttons are both on screen.
    expect(mark).to_be_in_viewport()
    expect(page.locator("#btn-yes")).to_be_in_viewport()
    page.screenshot(path=str(artifacts / "annotator-phone.png"))

    page.locator("#btn-no").click()
    expect(mark).to_have_text("16:00")
    assert answers(engine) == {"9:30": "yes", "17:30": "no", "16:00": None}
    assert page.evaluate("() => window.__scrolls") == 2 and page.evaluate(at_bottom)
    expect(mark).to_be_in_viewport()
    expect(page.locator("#progress")).to_have_text("Twoje odpowiedzi: 2")

    # Cofnij twice: back to 17:30, then 9:30, each showing its earlier answer; no scrolling.
    page.locator("#btn-undo").click()
    expect(mark).to_have_text("17:30")
    expect(page.locator("#previous")).to_have_text("Poprzednia odpowiedź: Nie. Wybierz ponownie.")
    assert answers(engine) == {"9:30": "yes", "17:30": None, "16:00": None}
    page.locator("#btn-undo").click()
    expect(mark).to_have_text("9:30")
    expect(page.locator("#btn-undo")).to_be_disabled()
    assert answers(engine) == {"9:30": None, "17:30": None, "16:00": None}
    assert page.evaluate("() => window.__scrolls") == 2

    # Re-answer forward: 9:30 now Nie, 17:30 Tak (keyboard shortcut), then on to 16:00 again.
    page.locator("#btn-no").click()
    expect(mark).to_have_text("17:30")
    page.keyboard.press("t")
    expect(mark).to_have_text("16:00")
    assert answers(engine) == {"9:30": "no", "17:30": "yes", "16:00": None}

    # A reload keeps the device (cookie) and does not show the instructions again.
    page.reload()
    expect(mark).to_have_text("16:00")
    expect(help_box).to_be_hidden()
    expect(page.locator("#progress")).to_have_text("Twoje odpowiedzi: 2")
    # The page fits the phone's width: no horizontal scrolling.
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")

    # Desktop: a second browser (new device) gets the least-served hour, not the phone's current one.
    desktop = browser.new_page(viewport={"width": 1280, "height": 800})
    desktop.goto(base + "/")
    desktop.locator("#help-body").evaluate("e => { e.scrollTop = e.scrollHeight; }")
    desktop.locator("#btn-close-help").click()
    expect(desktop.locator("#item mark")).to_have_text("19:00")
    expect(desktop.locator("#item mark")).to_be_in_viewport()
    desktop.screenshot(path=str(artifacts / "annotator-desktop.png"))


def test_no_serious_accessibility_violations_in_the_annotator(served, browser):
    """axe-core (tests/axe.py) on the annotator's page, its instructions open and then closed."""
    from axe import serious_violations

    base, _ = served
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, bypass_csp=True)
    page = context.new_page()
    page.goto(base + "/")
    expect(page.locator("#help")).to_be_visible()
    assert serious_violations(page) == []
    page.locator("#help-body").evaluate("e => { e.scrollTop = e.scrollHeight; }")
    page.locator("#btn-close-help").click()
    expect(page.locator("#item mark")).to_be_visible()
    assert serious_violations(page) == []
    context.close()
