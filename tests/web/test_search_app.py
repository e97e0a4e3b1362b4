"""The search web app over a fixture database: JSON API, HTML escaping, CSV, JSON-LD, OpenAPI, corrections."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from search_fixtures import load_database, post_reports_at_once, results, running, write_inputs
from sqlalchemy import event, func, select, update

from msze.search.api import csv_cell
from msze.search.app import create_app
from msze.search.db import corrections, create_schema, make_engine, mass_times, monthly_masses, parishes
from msze.search.loader import load
from msze.search.query import distance_km
from msze.search.reports import correction_rows, training_labels
from msze.search.urls import safe_url


@pytest.fixture
def app(tmp_path, monkeypatch):
    db = tmp_path / "app.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    # the next-Masses tests ask for December 2026: a clock frozen there keeps them within MOMENT_YEARS of now
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    app = create_app(str(db), config={"TESTING": True, "CORRECTIONS_PER_WINDOW": 2, "NOW": now})
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def jozef_id(client) -> int:
    return client.get("/api/parishes?q=józefa").get_json()["parishes"][0]["id"]


def test_api_search_with_filters_and_pagination(client):
    response = client.get("/api/parishes?city=Łódź&day=sunday&from=17:00&to=20:00&per_page=1")
    assert response.status_code == 200
    body = response.get_json()
    assert body["total"] == 2 and body["pages"] == 2 and body["page"] == 1
    first = body["parishes"][0]
    assert first["name"] == "Matki Bożej Różańcowej"
    assert [t["time"] for t in first["times"]] == ["19:30"]
    assert first["url"].endswith(f"/api/parishes/{first['id']}")
    assert "page=2" in body["next"]
    second = client.get(body["next"]).get_json()
    assert second["parishes"][0]["name"] == "Świętego Józefa"
    assert "next" not in second


def test_api_parish_detail_and_404(client):
    pid = jozef_id(client)
    body = client.get(f"/api/parishes/{pid}").get_json()
    assert body["city"] == "Łódź"
    assert body["times"][0] == {
        "time": "07:00",
        "day": "sun",
        "source_url": "http://www.jozef-lodz.pl/porzadek-mszy",
        "context": "Msze św. w niedziele: 07.00, 10.30, 18.00",
        "source": "rules",
        "score": 1.0,
        "church": None,
        "season": None,
        "vigil": False,
        "tags": [],
    }
    assert body["jsonld"]["@type"] == "Church"
    missing = client.get("/api/parishes/9999")
    assert missing.status_code == 404 and "error" in missing.get_json()


@pytest.mark.parametrize(
    "query",
    ["from=25:00", "from=abc", "to=7pm", "from=20:00&to=08:00", "day=ponidzialek", "page=0", "per_page=x"],
)
def test_bad_parameters_are_400_with_a_message(client, query):
    api = client.get(f"/api/parishes?{query}")
    assert api.status_code == 400
    assert api.get_json()["error"]
    page = client.get(f"/?{query}")
    assert page.status_code == 400
    assert 'class="error"' in page.get_data(as_text=True)
    assert client.get(f"/eksport.csv?{query}").status_code == 400


def test_html_search_lists_times_with_source_links_and_escaped_context(client):
    page = client.get("/?city=lodz&day=sobota").get_data(as_text=True)
    assert "Świętego Józefa" in page
    assert "07:30" in page
    # The context sentence (hover title, tap-open <details>) is escaped: no live <script> from a parish page.
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert 'href="http://www.jozef-lodz.pl/porzadek-mszy"' in page
    assert "odczytał program" in page  # freshness note: times were read by software


def test_javascript_source_urls_are_not_links(client):
    page = client.get("/?city=lodz&day=sunday&from=19:00").get_data(as_text=True)
    assert "19:30" in page
    assert "javascript:" not in page
    assert safe_url("javascript:alert(1)") is None
    assert safe_url(" https://a.pl/x ") == "https://a.pl/x"


def test_query_text_is_escaped_in_the_form(client):
    page = client.get('/?q="><script>alert(1)</script>').get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&#34;&gt;&lt;script&gt;" in page


def test_a_past_one_off_is_history_never_upcoming(app, client):
    """The funeral Mass of 26 November is the next one-off on the 20th, and history on 1 December."""
    pid = jozef_id(client)
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)  # 1 December
    assert "Najbliższe msze okolicznościowe" not in page
    history = page[page.index('<details class="history">') :]
    assert "Minione msze okolicznościowe" in history and "26 listopada 2026 <b>11:00</b>" in history
    app.config["NOW"] = datetime(2026, 11, 20, 12, tzinfo=UTC)
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    upcoming = page[page.index("Najbliższe msze okolicznościowe") : page.index("Spowiedź")]
    assert "26 listopada 2026 <b>11:00</b>" in upcoming and "Minione msze okolicznościowe" not in page


def test_parish_page_schedule_jsonld_and_escaping(client):
    pid = jozef_id(client)
    response = client.get(f"/parafia/{pid}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "ul. Ogrodowa 22" in page and "http://www.jozef-lodz.pl/" in page
    # by day, Monday–Friday as one row, the vigil on its own, the summer time labelled, the chapel apart
    assert re.findall(r"<dt>([^<]+?)(?: <span| ?</dt>)", page) == [
        "Niedziela",
        "Poniedziałek–Piątek",
        "Sobota",
        "Sobota (Msza wigilijna)",
        "Niedziela",
        "Niedziela",
    ]
    assert '<span class="season">(latem)</span>' in page
    assert '<h3 class="church">Kaplica w Julianowie</h3>' in page
    assert "Spowiedź" in page and "Sobota 17:00–18:00" in page
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1  # the "</script>" in a context sentence did not end the block early
    data = json.loads(blocks[0])
    assert data["@context"] == "https://schema.org" and data["@type"] == "Church"
    saturday = [
        e for e in data["event"] if e.get("eventSchedule", {}).get("byDay") == ["https://schema.org/Saturday"]
    ]
    assert saturday[0]["eventSchedule"]["startTime"] == "07:30"
    assert client.get("/parafia/9999").status_code == 404


def test_csv_export_of_a_query(client):
    response = client.get("/eksport.csv?city=Łódź&day=sunday&to=19:00")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    # Sunday's times up to 19:00 at every church, and the Saturday vigil, which counts for Sunday
    assert {(r["parafia"], r["dzien"], r["godzina"]) for r in rows} == {
        ("Świętego Józefa", "sun", "07:00"),
        ("Świętego Józefa", "sun", "09:00"),
        ("Świętego Józefa", "sun", "10:30"),
        ("Świętego Józefa", "sun", "18:00"),
        ("Świętego Józefa", "sat", "19:00"),
        ("Matki Bożej Różańcowej", "sun", "08:00"),
    }
    assert csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"


def test_openapi_describes_the_api(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    params = {p["name"] for p in spec["paths"]["/api/parishes"]["get"]["parameters"]}
    names = ("q", "city", "diocese", "day", "near", "radius", "from", "to", "lang", "page", "per_page")
    assert params == set(names)
    assert "/api/parishes/{id}" in spec["paths"]
    assert "400" in spec["paths"]["/api/parishes"]["get"]["responses"]


def test_healthz_and_security_headers(client):
    response = client.get("/healthz")
    assert response.get_data(as_text=True) == "ok\n"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def csrf_token(client, pid: int) -> str:
    page = client.get(f"/parafia/{pid}").get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def test_correction_needs_csrf_token(app, client):
    pid = jozef_id(client)
    response = client.post(
        f"/parafia/{pid}/zgloszenie", data={"kind": "wrong", "day": "sunday", "time": "07:00"}
    )
    assert response.status_code == 400
    assert "Formularz" in response.get_data(as_text=True)
    with app.extensions["msze_engine"].connect() as conn:
        assert conn.execute(select(corrections)).all() == []


def moderator_client(app):
    """A test client logged in as a moderator made for the test (msze/search/admin.py)."""
    from msze.search.accounts import add_user

    with app.extensions["msze_engine"].begin() as conn:
        add_user(conn, "moderator", "haslo-moderatora-1", "moderator", None, datetime.now(UTC))
    client = app.test_client()
    page = client.get("/logowanie").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "username": "moderator", "password": "haslo-moderatora-1"}
    assert client.post("/logowanie", data=form).status_code == 303
    return client


def test_correction_is_stored_rate_limited_escaped_and_exported(app, client):
    pid = jozef_id(client)
    token = csrf_token(client, pid)
    evil = "<img src=x onerror=alert(1)> zła godzina"
    form = {"csrf_token": token, "kind": "wrong", "day": "sunday", "time": "7:00", "comment": evil}
    first = client.post(f"/parafia/{pid}/zgloszenie", data=form)
    assert first.status_code == 303
    assert "Dziękujemy" in client.get(first.headers["Location"]).get_data(as_text=True)
    missing = {**form, "kind": "missing", "time": "21:00", "comment": ""}
    assert client.post(f"/parafia/{pid}/zgloszenie", data=missing).status_code == 303
    limited = client.post(f"/parafia/{pid}/zgloszenie", data=form)
    assert limited.status_code == 429 and "Retry-After" in limited.headers
    # Another address has its own allowance.
    other = client.post(f"/parafia/{pid}/zgloszenie", data=form, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 303
    with app.extensions["msze_engine"].connect() as conn:
        stored = conn.execute(select(corrections).order_by(corrections.c.id)).all()
    assert [(r.kind, r.time) for r in stored] == [
        ("wrong", "07:00"),
        ("missing", "21:00"),
        ("wrong", "07:00"),
    ]
    assert stored[0].comment == evil  # stored as written ...
    assert "127.0.0.1" not in stored[0].client  # ... the IP only as a salted hash

    # The review queue needs a moderator's login and escapes what visitors wrote.
    assert client.get("/admin/").status_code == 302
    moderator = moderator_client(app)
    review = moderator.get("/admin/").get_data(as_text=True)
    assert "<img src=x" not in review and "&lt;img src=x onerror=alert(1)&gt;" in review
    labels = moderator.get("/admin/zgloszenia.jsonl").get_data(as_text=True).splitlines()
    parsed = [json.loads(line) for line in labels]
    by_time = {(p["label"], p["time"]) for p in parsed}
    assert ("other", "07:00") in by_time and ("mass", "21:00") in by_time
    wrong = next(p for p in parsed if p["label"] == "other")
    assert (
        wrong["context"] == "Msze św. w niedziele: 07.00, 10.30, 18.00"
    )  # the sentence the bad time came from


def test_a_report_from_a_time_is_pre_filled_and_a_changed_time_is_two_labels(app, client):
    """ "Zgłoś" beside 07:00 on Sunday: the form names that time; "Msza jest o innej godzinie" with 07:30
    is "other" for 07:00 (with the sentence it came from) and "mass" for 07:30."""
    pid = jozef_id(client)
    page = client.get(f"/parafia/{pid}")
    link = re.search(r'href="([^"]*godzina=07:00[^"]*dzien=sun[^"]*)#zglos"', page.get_data(as_text=True))
    pre_filled = client.get(link.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert "Zgłaszasz godzinę <b>07:00</b> (niedziela)" in pre_filled
    assert (
        'name="time" type="time" value="07:00"' in pre_filled
        and '<option value="sun" selected>' in pre_filled
    )
    hostile = client.get(f"/parafia/{pid}?godzina=<script>&dzien=x").get_data(as_text=True)
    assert "Zgłaszasz" not in hostile and "<script>&" not in hostile
    token = csrf_token(client, pid)
    form = {"csrf_token": token, "kind": "changed", "day": "sun", "time": "07:00", "new_time": "7:30"}
    done = client.post(f"/parafia/{pid}/zgloszenie", data=form)
    assert done.status_code == 303 and done.headers["Location"].endswith("#dziekujemy")
    thanks = client.get(done.headers["Location"]).get_data(as_text=True)
    assert '<p class="flash" role="status" id="dziekujemy">Dziękujemy!' in thanks
    assert thanks.count("Dziękujemy!") == 1  # in the report section only
    with app.extensions["msze_engine"].connect() as conn:  # what the moderators' label export writes
        parsed = [label for row in correction_rows(conn) for label in training_labels(row)]
    assert [(p["time"], p["label"], p["kind"]) for p in parsed] == [
        ("07:00", "other", "changed"),
        ("07:30", "mass", "changed"),
    ]
    assert {p["context"] for p in parsed} == {"Msze św. w niedziele: 07.00, 10.30, 18.00"}


@pytest.mark.parametrize(
    "form",
    [
        {"kind": "changed", "day": "sunday", "time": "07:00"},  # no correct time
        {"kind": "changed", "day": "sunday", "time": "07:00", "new_time": "07:00"},  # the same time
        {"kind": "bad", "day": "sunday", "time": "07:00"},
        {"kind": "wrong", "day": "weekday", "time": "07:00"},
        {"kind": "wrong", "day": "sunday", "time": "7 rano"},
        {"kind": "wrong", "day": "sunday", "time": "07:00", "comment": "x" * 1001},
    ],
)
def test_invalid_correction_is_400(client, form):
    pid = jozef_id(client)
    response = client.post(f"/parafia/{pid}/zgloszenie", data={**form, "csrf_token": csrf_token(client, pid)})
    assert response.status_code == 400


def test_rate_limit_uses_forwarded_ip_only_behind_a_configured_proxy(tmp_path):
    db = tmp_path / "p.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    app = create_app(str(db), config={"CORRECTIONS_PER_WINDOW": 1, "PROXY_HOPS": 1})
    client = app.test_client()
    pid = jozef_id(client)
    form = {"csrf_token": csrf_token(client, pid), "kind": "missing", "day": "saturday", "time": "19:00"}
    for forwarded in ("203.0.113.1", "203.0.113.2"):
        headers = {"X-Forwarded-For": forwarded}
        assert client.post(f"/parafia/{pid}/zgloszenie", data=form, headers=headers).status_code == 303
    headers = {"X-Forwarded-For": "203.0.113.1"}
    assert client.post(f"/parafia/{pid}/zgloszenie", data=form, headers=headers).status_code == 429


def test_the_factory_takes_the_database_from_its_config(tmp_path):
    app = create_app(config={"DATABASE_URL": load_database(tmp_path), "TESTING": True})
    assert app.config["DEMO"] is False
    assert app.test_client().get("/api/parishes?city=Łódź").get_json()["total"] == 2
    assert sorted(app.blueprints) == ["admin", "api", "corrections", "views"]


def test_demo_app_serves_generated_data():
    demo = create_app(config={"TESTING": True}).test_client()
    page = demo.get("/?city=Kraków&day=niedziela").get_data(as_text=True)
    assert "Dane demonstracyjne" in page
    body = demo.get("/api/parishes?city=krakow").get_json()
    assert body["total"] == 10
    assert all(p["website"].endswith(".example/") for p in body["parishes"])


@pytest.mark.parametrize(
    "query",
    [
        "page=%C2%B2",  # "²".isdigit() is True, int("²") raises
        "per_page=%C2%B2",
        "page=%D9%A3",  # Arabic-Indic 3: int() reads it, but it is no page number anyone typed
        "page=" + "9" * 5000,  # int() of 5 000 digits raises
        "per_page=" + "9" * 5000,
        "page=1000001",  # past the last page that can exist
        "page=1.0",
        "page=%2B1",
    ],
)
def test_integer_parameters_are_ascii_digits_in_bounds(client, query):
    for path in ("/api/parishes", "/", "/eksport.csv"):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, path
    assert "liczbą całkowitą od 1 do" in client.get(f"/api/parishes?{query}").get_json()["error"]


@pytest.mark.parametrize(
    "path",
    [
        "/parafia/99999999999999999999",  # too large for the database driver
        "/api/parishes/99999999999999999999",
        "/parafia/2147483648",  # one past a PostgreSQL INTEGER
        "/parafia/%D9%A1",  # Arabic-Indic 1: int() would read parish 1
        "/api/parishes/%D9%A1",
        "/parafia/0",
    ],
)
def test_parish_ids_that_cannot_exist_are_404(client, path):
    assert client.get(path).status_code == 404
    assert client.post(path + "/zgloszenie", data={"kind": "wrong"}).status_code == 404


def test_big_request_body_is_413(client):
    pid = jozef_id(client)
    form = {"csrf_token": csrf_token(client, pid), "kind": "wrong", "day": "sunday", "time": "07:00"}
    big = client.post(f"/parafia/{pid}/zgloszenie", data={**form, "comment": "x" * 200_000})
    assert big.status_code == 413
    assert "najwyżej 64 kB" in big.get_data(as_text=True)
    upload = client.post(f"/parafia/{pid}/zgloszenie", data={**form, "file": (io.BytesIO(b"x" * 10**6), "a")})
    assert upload.status_code == 413


def test_pages_cannot_be_framed_and_the_session_cookie_is_same_site(client):
    response = client.get(f"/parafia/{jozef_id(client)}")
    assert response.headers["X-Frame-Options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "strict-origin-when-cross-origin"
    cookie = response.headers["Set-Cookie"]  # the session that holds the report form's CSRF token
    assert "SameSite=Lax" in cookie and "HttpOnly" in cookie
    assert "Secure" not in cookie  # no BASE_URL: the demo is served over plain http on 127.0.0.1


def test_the_host_header_is_never_written_into_a_url(client):
    host = {"Host": "evil.example"}
    pid = jozef_id(client)
    search = client.get("/api/parishes?per_page=1", headers=host).get_json()
    assert search["next"] == "/api/parishes?page=2&per_page=1"
    assert search["parishes"][0]["url"] == f"/api/parishes/{search['parishes'][0]['id']}"
    for path in ("/api/parishes?per_page=1", f"/api/parishes/{pid}", "/api/openapi.json", f"/parafia/{pid}"):
        assert "evil.example" not in client.get(path, headers=host).get_data(as_text=True), path
    assert client.get("/api/openapi.json", headers=host).get_json()["servers"] == [{"url": "/"}]
    page = client.get(f"/parafia/{pid}", headers=host).get_data(as_text=True)  # the cookie is evil.example's
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"csrf_token": token, "kind": "wrong", "day": "sunday", "time": "07:00"}
    posted = client.post(f"/parafia/{pid}/zgloszenie", data=form, headers=host)
    assert posted.status_code == 303 and posted.headers["Location"] == f"/parafia/{pid}#dziekujemy"


def test_base_url_makes_api_and_jsonld_links_absolute(tmp_path):
    db = load_database(tmp_path)
    app = create_app(db, config={"TESTING": True, "BASE_URL": "https://msze.example.org/"})
    client = app.test_client()
    host = {"Host": "evil.example"}
    body = client.get("/api/parishes?per_page=1", headers=host).get_json()
    pid = body["parishes"][0]["id"]
    assert body["parishes"][0]["url"] == f"https://msze.example.org/api/parishes/{pid}"
    assert body["next"] == "https://msze.example.org/api/parishes?page=2&per_page=1"
    detail = client.get(f"/api/parishes/{pid}", headers=host).get_json()
    assert detail["jsonld"]["@id"] == detail["html_url"] == f"https://msze.example.org/parafia/{pid}"
    spec = client.get("/api/openapi.json", headers=host).get_json()
    assert spec["servers"] == [{"url": "https://msze.example.org"}]
    assert "Secure" in client.get(f"/parafia/{pid}").headers["Set-Cookie"]  # served over https
    for bad in ("javascript:alert(1)", "msze.example.org", "https://msze.example.org/?x=1"):
        with pytest.raises(ValueError, match="BASE_URL"):
            create_app(db, config={"BASE_URL": bad})


def test_only_absolute_http_urls_are_published(tmp_path):
    """Rows with bad URLs, as a loader before this check stored them: no output publishes them."""
    db = load_database(tmp_path)
    engine = make_engine(db)
    with engine.begin() as conn:
        pid = conn.execute(select(parishes.c.id).where(parishes.c.name == "Świętego Józefa")).scalar_one()
        conn.execute(update(parishes).where(parishes.c.id == pid).values(website="javascript:alert(1)"))
        bad = ["data:text/html,<b>x</b>", "//evil.example/x", "http://[::1", "JAVASCRIPT:alert(2)"]
        ids = conn.execute(select(mass_times.c.id).where(mass_times.c.parish_id == pid)).scalars().all()
        for mass_id, url in zip(ids, bad, strict=False):
            conn.execute(update(mass_times).where(mass_times.c.id == mass_id).values(source_url=url))
    client = create_app(db, config={"TESTING": True, "BASE_URL": "https://msze.example.org"}).test_client()
    detail = client.get(f"/api/parishes/{pid}").get_json()
    assert detail["website"] is None and "sameAs" not in detail["jsonld"]
    assert [t["source_url"] for t in detail["times"]].count(None) == 4
    event_urls = [event.get("url") for event in detail["jsonld"]["event"]]
    assert event_urls.count(None) == 3  # Sunday's and Monday's 18:00 lost their URL alike: one event
    assert all(url is None or url.startswith("http://www.jozef-lodz.pl/") for url in event_urls)
    outputs = [
        client.get("/api/parishes?city=Łódź").get_data(as_text=True),
        client.get(f"/parafia/{pid}").get_data(as_text=True),
        client.get("/?city=Łódź").get_data(as_text=True),
        client.get("/eksport.csv?city=Łódź").get_data(as_text=True),
    ]
    for text in outputs:
        for fragment in ("javascript:", "data:text", "//evil.example", "[::1"):
            assert fragment not in text.lower()


def test_parallel_reports_store_exactly_the_limit(tmp_path):
    app = create_app(load_database(tmp_path), config={"CORRECTIONS_PER_WINDOW": 5})
    with running(app, threads=20) as root:
        pid = jozef_id(app.test_client())
        statuses = post_reports_at_once(root, pid, 20)
    assert sorted(statuses) == [303] * 5 + [429] * 15
    with app.extensions["msze_engine"].connect() as conn:
        assert conn.execute(select(func.count()).select_from(corrections)).scalar_one() == 5


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://a.pl/x?y=1", "https://a.pl/x?y=1"),
        (" HTTP://A.pl ", "HTTP://A.pl"),
        ("javascript:alert(1)", None),
        ("data:text/html,x", None),
        ("//evil.example/x", None),  # relative: its scheme would be the page's
        ("/parafia/1", None),
        ("http://[::1", None),  # urlsplit raises
        ("http://a.pl:port/", None),
        ("http:///x", None),  # no host
        ("http://a.pl/\nx", None),  # urlsplit would silently drop the newline
        (42, None),
    ],
)
def test_safe_url_accepts_only_absolute_http_urls(value, expected):
    assert safe_url(value) == expected


def parish_id_named(client, words: str) -> int:
    return client.get(f"/api/parishes?q={words}").get_json()["parishes"][0]["id"]


def page_text(client, path: str) -> str:
    """The page's text as a reader sees it: tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", client.get(path).get_data(as_text=True)).split())


@pytest.mark.parametrize(
    ("words", "sentence"),
    [
        # No website was found for it: nothing could be crawled.
        ("ducha", "Brak godzin Mszy w danych. Nie znamy strony internetowej tej parafii."),
        # Its only crawl failed: the page names the day of the attempt (the data date).
        (
            "trojcy",
            "Brak godzin Mszy w danych. Nie udało się pobrać strony parafii (próba z 20 listopada 2026).",
        ),
    ],
)
def test_a_parish_without_times_says_so_in_plain_polish(client, words, sentence):
    text = page_text(client, f"/parafia/{parish_id_named(client, words)}")
    assert sentence in text
    assert "Zgłoś brakującą godzinę" in text
    assert "nieznana data" not in text and "kliknij godzinę" not in text and "Stan na" not in text


def test_a_parish_crawled_without_times_names_the_crawl_date(tmp_path):
    crawls = results()
    crawls[2].update(status="finished", error=None)  # Opole's site was read, and no time was found on it
    db = tmp_path / "empty.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    paths = write_inputs(tmp_path, crawls)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    client = create_app(str(db), config={"TESTING": True}).test_client()
    text = page_text(client, f"/parafia/{parish_id_named(client, 'trojcy')}")
    expected = "Brak godzin Mszy w danych. Na stronie parafii pobranej 20 listopada 2026 program nie znalazł"
    assert expected in text and "nieznana data" not in text and "kliknij godzinę" not in text
    jozef = page_text(client, f"/parafia/{jozef_id(client)}")  # a parish with times keeps its note
    assert "Stan na 20 listopada 2026: godziny odczytał program ze strony parafii; kliknij godzinę" in jozef
    assert "Brak godzin" not in jozef


def test_the_corrections_list_is_one_query_whatever_its_length(app, client):  # the review queue reads it
    """Each correction shows the page and sentence of the time it names: joined in, not one query per row.
    A time stored twice (two seasons) still gives one row per correction."""
    engine = app.extensions["msze_engine"]
    pid = jozef_id(client)
    with engine.begin() as conn:
        conn.execute(
            mass_times.insert().values(
                parish_id=pid,
                day="sun",
                minute=420,
                time="07:00",
                source_url="http://www.jozef-lodz.pl/lato",
                context="Latem 7.00",
                start_date="2026-07-01",
                end_date="2026-08-31",
            )
        )
        now = datetime.now(UTC)
        conn.execute(
            corrections.insert(),
            [{"parish_id": pid, "created_at": now - timedelta(minutes=n), "client": f"c{n}", "kind": "wrong",
              "day": "sun", "time": time_, "comment": f"uwaga {n}", "status": "new"}
             for n, time_ in enumerate(["07:00", "10:30", "18:00", "21:00"])],
        )  # fmt: skip
    statements = []
    event.listen(engine, "before_cursor_execute", lambda *args: statements.append(args[2]))
    with engine.connect() as conn:
        labels = [label for row in correction_rows(conn) for label in training_labels(row)]
    assert len(statements) == 1, statements
    assert [label["comment"] for label in labels] == [f"uwaga {n}" for n in range(4)]
    assert [label["time"] for label in labels] == ["07:00", "10:30", "18:00", "21:00"]  # newest first
    assert labels[0]["context"] == "Msze św. w niedziele: 07.00, 10.30, 18.00"  # the first stored 07:00
    assert labels[3]["context"] is None and labels[3]["source_url"] is None  # no 21:00 is stored


def test_blueprint_modules_hold_no_sql():
    """Views call msze.search.query, upcoming and reports; SQL (statements, the tables) lives in those and
    db.py only: the web modules take from SQLAlchemy and db.py nothing but type names, day names and the
    engine set-up."""
    import ast
    from pathlib import Path

    import msze.search

    allowed = {
        "sqlalchemy": {"Connection", "Engine"},
        "msze.search.db": {"DAYS", "create_schema", "make_engine", "run_transaction"},
    }
    package = Path(msze.search.__file__).parent
    for name in ("views.py", "api.py", "corrections.py", "web.py", "app.py", "admin.py"):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not [a.name for a in node.names if a.name.startswith("sqlalchemy")], name
            module = getattr(node, "module", None) or ""
            if isinstance(node, ast.ImportFrom) and module.startswith(("sqlalchemy", "msze.search.db")):
                taken = {alias.name for alias in node.names}
                assert taken <= allowed.get(module, set()), (name, module, taken)


def test_near_me_lists_the_nearest_parishes_with_their_distance(client):
    body = client.get("/api/parishes?near=51.7592,19.4560&radius=5").get_json()
    assert [(p["name"], p["distance_km"]) for p in body["parishes"]] == [
        ("Świętego Józefa", 2.3),
        ("Matki Bożej Różańcowej", 2.63),
    ]
    page = client.get("/?near=51.7592,19.4560&radius=5").get_data(as_text=True)
    assert page.index("Świętego Józefa") < page.index("Matki Bożej Różańcowej")
    assert '<span class="distance">· 2,3 km</span>' in page
    assert client.get("/api/parishes?near=nowhere").status_code == 400


def test_the_next_masses_near_a_point_soonest_first(client):
    # Saturday 5 December 2026, 17:00 in Łódź: Józef's vigil at 19:00, then Sunday morning
    got = client.get("/api/masses?near=51.7592,19.4560&radius=5&from=2026-12-05T17:00").get_json()
    starts = [(m["start"], m["parish"], m["church"]) for m in got["masses"]]
    assert starts[0] == ("2026-12-05T19:00:00+01:00", "Świętego Józefa", None)
    assert starts == sorted(starts)
    assert ("2026-12-06T08:00:00+01:00", "Matki Bożej Różańcowej", None) in starts
    assert ("2026-12-06T09:00:00+01:00", "Świętego Józefa", "Kaplica w Julianowie") in starts
    assert all(s < "2026-12-06T12:00:01+01:00" for s, _, _ in starts)  # up to the next noon
    first = got["masses"][0]
    assert first["distance_km"] == 2.3 and first["source_url"] == "http://www.jozef-lodz.pl/porzadek-mszy"
    # Christmas Day: the holy-day times (Józef gives none: its Sunday ones), no weekday 18:00
    christmas = client.get("/api/masses?near=51.7592,19.4560&from=2026-12-25T06:00&to=2026-12-25T23:00")
    times = sorted(m["time"] for m in christmas.get_json()["masses"] if m["parish"] == "Świętego Józefa")
    assert times == ["07:00", "09:00", "10:30", "18:00"]
    assert client.get("/api/masses?radius=5").status_code == 400
    assert client.get("/api/masses?near=51,19&from=jutro").status_code == 400


def test_a_chapel_located_apart_is_as_far_as_it_stands(app, tmp_path):
    located = tmp_path / "churches.jsonl"
    chapel = {"name": "Kaplica w Julianowie", "city": "", "address": ["ul. Julianowska 3"], "status": "OK",
              "lat": 51.8, "lng": 19.45, "church": "Kaplica w Julianowie", "start_url": "http://jozef-lodz.pl/",
              "url": "", "place_id": "J", "query": "Kaplica w Julianowie ul. Julianowska 3"}  # fmt: skip
    elsewhere = {**chapel, "start_url": "http://nobody.test/"}
    far = {
        **chapel,
        "church": "Kaplica cmentarna",
        "lat": 50.06,
        "lng": 19.94,
    }  # a street of that name in Kraków
    lines = [chapel, elsewhere, far]
    located.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    report = load(make_engine(tmp_path / "app.sqlite"), churches_path=located)
    assert (report.churches_located, report.churches_unmatched, report.churches_far) == (1, 1, 1)
    url = "/api/masses?near=51.7592,19.4560&radius={}&from=2026-12-06T08:30&to=2026-12-06T11:00"
    client = app.test_client()
    got = {(m["time"], m["church"]): m["distance_km"] for m in client.get(url.format(5)).get_json()["masses"]}
    assert got[("09:00", "Kaplica w Julianowie")] == round(distance_km((51.7592, 19.456), (51.8, 19.45)), 2)
    assert got[("09:00", "Kaplica w Julianowie")] > 4 > got[("10:30", None)] == 2.3  # the parish church
    near = {(m["time"], m["church"]) for m in client.get(url.format(3)).get_json()["masses"]}
    assert ("09:00", "Kaplica w Julianowie") not in near and ("10:30", None) in near


def test_the_next_masses_come_page_by_page(client):
    url = "/api/masses?near=51.7592,19.4560&radius=5&from=2026-12-05T17:00"
    whole = client.get(url).get_json()
    assert whole["pages"] == 1 and "next" not in whole and whole["total"] == len(whole["masses"]) > 3
    seen, link = [], url + "&per_page=2&x=<script>"
    while link:
        page = client.get(link).get_json()
        assert page["total"] == whole["total"] and page["per_page"] == 2 and len(page["masses"]) <= 2
        seen += page["masses"]
        link = page.get("next")
        assert link is None or ("x=" not in link and "from=2026-12-05T17" in link)
    assert seen == whole["masses"]
    assert client.get(url + "&page=0").status_code == 400
    # without `from` the pages keep the moment of the first: "now" does not move on between them
    first = client.get("/api/masses?near=51.7592,19.4560&radius=50&per_page=1").get_json()
    assert first["pages"] == 1 or "from=" in first["next"]
    assert client.get(url + "&to=2026-12-05T16:00").status_code == 400  # before `from`
    assert client.get(url + "&to=2027-01-05T16:00").status_code == 400  # a month: longer than asked for


def test_the_next_confession_near_a_point(client):
    got = client.get("/api/masses?near=51.7592,19.4560&from=2026-12-05T09:00&service=confession").get_json()
    assert [(m["start"], m["end"], m["parish"], m["service"]) for m in got["masses"]] == [
        ("2026-12-05T17:00:00+01:00", "18:00", "Świętego Józefa", "confession")
    ]
    page = client.get("/?near=51.7592,19.4560&when=2026-12-05T09:00&service=confession").get_data(
        as_text=True
    )
    assert "Najbliższa spowiedź" in page and '<b class="hour">17:00–18:00</b>' in page
    # the next times alone, with a way back to the nearby parishes and their schedules
    assert 'class="parish"' not in page and 'href="/?near=51.75920,19.45600">Parafie w pobliżu' in page
    assert client.get("/api/masses?near=51,19&service=chrzest").status_code == 400


def test_a_parish_page_says_how_fresh_its_times_are_and_warns_when_they_are_old(tmp_path):
    db = load_database(tmp_path)
    fresh = create_app(db, config={"TESTING": True, "STALE_DAYS": 100_000}).test_client()  # whatever today is
    pid = jozef_id(fresh)
    page = fresh.get(f"/parafia/{pid}").get_data(as_text=True)
    assert 'class="warning"' not in page and "Godziny ostatnio się zmieniły: 20 listopada 2026" in page
    assert page.count("Zgłoś błąd tej godziny") == page.count('<details class="time">') > 0
    old = create_app(db, config={"TESTING": True, "STALE_DAYS": 5}).test_client()
    warned = old.get(f"/parafia/{pid}").get_data(as_text=True)
    assert re.search(
        r'<p class="warning" role="status">Uwaga: godziny odczytano ze strony parafii \d+ dni temu', warned
    )


def test_map_tiles_and_routes_are_settings_the_csp_follows(tmp_path):
    db = load_database(tmp_path)
    default = create_app(db, config={"TESTING": True}).test_client().get("/")
    assert (
        "img-src 'self' data: https://tile.openstreetmap.org;" in default.headers["Content-Security-Policy"]
    )
    tiles = "https://{s}.tiles.example.org/{z}/{x}/{y}.png"
    app = create_app(db, config={"TESTING": True, "MAP_TILES": tiles})
    assert (
        "img-src 'self' data: https://*.tiles.example.org;"
        in app.test_client().get("/").headers["Content-Security-Policy"]
    )
    for bad in (
        "javascript:alert(1)//{z}{x}{y}",
        "https://tiles.example.org/tile.png",
        "https://a b/{z}/{x}/{y}",
    ):
        with pytest.raises(ValueError, match="MAP_TILES"):
            create_app(db, config={"MAP_TILES": bad})
    with pytest.raises(ValueError, match="DIRECTIONS_URL"):
        create_app(db, config={"DIRECTIONS_URL": "javascript:alert('{lat}')"})
    page = create_app(db, config={"TESTING": True}).test_client().get("/parafia/1").get_data(as_text=True)
    assert re.search(r'href="https://www.openstreetmap.org/directions\?route=%3B[0-9.]+%2C[0-9.]+"', page)


def test_the_manifest_and_the_service_worker_are_served_for_the_whole_app(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.mimetype == "application/manifest+json"
    body = json.loads(manifest.data)
    assert body["start_url"] == "/" and body["display"] == "standalone" and len(body["icons"]) == 2
    for icon in body["icons"]:
        assert client.get(icon["src"]).data[:8] == b"\x89PNG\r\n\x1a\n"
    worker = client.get("/sw.js")
    assert worker.mimetype == "text/javascript" and worker.headers["Cache-Control"] == "no-cache"
    assert b"X-Msze-Saved" in worker.data  # the last answer is kept with the time it came at
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page and 'data-sw="/sw.js"' in page


def test_the_demo_data_has_chapels_seasons_vigils_one_offs_and_confession():
    """The bundled demo (msze/search/demo, made by its generate.py) in the consolidated results format, with
    monthly Masses."""
    from msze.search.query import get_parish

    app = create_app(config={"TESTING": True, "NOW": datetime(2026, 12, 5, 14, tzinfo=UTC)})
    with app.extensions["msze_engine"].connect() as conn:
        demo = [get_parish(conn, pid) for pid in range(1, 121)]
    times = [t for p in demo for t in p["times"]]
    assert sum(1 for t in times if t["church"]) >= 20 and sum(1 for t in times if t["vigil"]) >= 30
    assert {t["season"] for t in times} >= {"summer", "school-year", "advent"}
    assert all(p["confession"] for p in demo)
    dates = {o["date"] for p in demo for o in p["one_off"]}
    assert dates == {"2026-12-24", "2026-12-31", "2026-11-11"}  # two coming, one held already
    monthly = [(m["label"], m["time"], m["church"]) for p in demo for m in p["monthly"]]
    assert sum(1 for m in monthly if m[0] == "w pierwszy piątek miesiąca") >= 20
    assert sum(1 for m in monthly if m[0] == "w pierwszą sobotę miesiąca") >= 10
    assert [m for m in monthly if m[0] == "w ostatnią niedzielę miesiąca"] == [
        ("w ostatnią niedzielę miesiąca", "15:00", "Kaplica w Zalesiu")
    ]
    client = app.test_client()
    confession = client.get("/?place=Łódź&when=now&service=confession").get_data(as_text=True)
    assert "Najbliższa spowiedź — Łódź" in confession and '<b class="hour">17:00–18:00</b>' in confession


def test_the_committed_demo_is_what_generate_py_writes_and_search_load_shows_its_monthly_masses(tmp_path):
    """The demo's files are the script's output (no hand edit), valid results lines; `search load` of them
    puts a parish's first Friday on its page."""
    from schema_check import check

    from msze.search.app import DEMO_DIR

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=60)

    made = run("msze.search.demo.generate", str(tmp_path))
    assert made.returncode == 0, made.stderr
    for name in ("parishes.tsv", "places.tsv", "results.jsonl"):
        assert (tmp_path / name).read_bytes() == (DEMO_DIR / name).read_bytes(), name
    for line in (DEMO_DIR / "results.jsonl").read_text(encoding="utf-8").splitlines():
        check(json.loads(line), "result")
    db = tmp_path / "demo.sqlite"
    args = ["--parishes", str(DEMO_DIR / "parishes.tsv"), "--places", str(DEMO_DIR / "places.tsv")]
    loaded = run(
        "msze", "search", "load", *args, "--results", str(DEMO_DIR / "results.jsonl"), "--db", str(db)
    )
    assert loaded.returncode == 0, loaded.stderr
    with make_engine(db).connect() as conn:
        m = monthly_masses.c
        pid, time = conn.execute(select(m.parish_id, m.time).where(m.week == 1, m.days == "fri")).first()
    page = create_app(str(db), config={"TESTING": True}).test_client().get(f"/parafia/{pid}")
    assert f"w pierwszy piątek miesiąca: <b>{time}</b>" in page.get_data(as_text=True)


def test_language_and_rite_tags_are_labels_and_filters(tmp_path):
    """A Mass in English and one in the Latin form (the extractor's tags in results.jsonl): labelled on the
    page, and `lang` finds them in the search page and the API; an unknown one is a 400 naming the field."""
    from search_fixtures import results as fixture_results
    from search_fixtures import weekly

    items = fixture_results()
    jozef = "http://www.jozef-lodz.pl/porzadek-mszy"
    items[0]["schedule"] += [
        weekly("12:00", ["sun"], jozef, "Niedziela 12.00 Msza św. po angielsku", tags=["en", "students"]),
        weekly("16:00", ["sun"], jozef, "16.00 Msza trydencka", tags=["latin", "tridentine"]),
    ]
    paths = write_inputs(tmp_path, items)
    db = tmp_path / "tags.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    client = create_app(str(db), config={"TESTING": True}).test_client()
    english = client.get("/api/parishes?lang=en").get_json()
    assert [(p["name"], [(t["time"], t["tags"]) for t in p["times"]]) for p in english["parishes"]] == [
        ("Świętego Józefa", [("12:00", ["en"])])  # only the tags the search knows
    ]
    latin = client.get("/api/parishes?lang=tridentine,uk").get_json()["parishes"]
    assert [t["time"] for p in latin for t in p["times"]] == ["16:00"]
    assert '12:00 <small class="tag">po angielsku</small>' in client.get("/?lang=en").get_data(as_text=True)
    page = client.get("/?city=Łódź&lang=en").get_data(as_text=True)
    assert '12:00 <small class="tag">po angielsku</small>' in page and ">07:00<" not in page
    parish = client.get(f"/parafia/{english['parishes'][0]['id']}").get_data(as_text=True)
    assert '<small class="tag">po łacinie</small> <small class="tag">forma nadzwyczajna</small>' in parish
    sunday = client.get("/?near=51.7795,19.4497&when=2026-12-06T11:30").get_data(as_text=True)  # the answer
    assert '<b class="hour">12:00</b> <small class="tag">po angielsku</small>' in sunday
    bad = client.get("/?lang=klingon")
    assert bad.status_code == 400 and "Pole „Język lub ryt”" in bad.get_data(as_text=True)
    assert "Parametr „lang”" in client.get("/api/parishes?lang=klingon").get_json()["error"]
