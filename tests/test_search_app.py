"""The search web app over a fixture database: JSON API, HTML escaping, CSV, JSON-LD, OpenAPI, corrections."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from search_fixtures import write_inputs
from sqlalchemy import select

from msze.search.app import create_app, csv_cell, safe_url
from msze.search.db import corrections, create_schema, make_engine
from msze.search.loader import load


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("MSZE_SEARCH_ADMIN_TOKEN", "sekret-testowy")
    db = tmp_path / "app.sqlite"
    engine = make_engine(db)
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    app = create_app(str(db), config={"TESTING": True, "CORRECTIONS_PER_WINDOW": 2})
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
        "day": "sunday",
        "source_url": "http://www.jozef-lodz.pl/porzadek-mszy",
        "context": "Msze św. w niedziele: 07.00, 10.30, 18.00",
        "source": "rules",
        "score": 1.0,
    }
    assert body["jsonld"]["@type"] == "Church"
    missing = client.get("/api/parishes/9999")
    assert missing.status_code == 404 and "error" in missing.get_json()


@pytest.mark.parametrize(
    "query",
    ["from=25:00", "from=abc", "to=7pm", "from=20:00&to=08:00", "day=poniedzialek", "page=0", "per_page=x"],
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


def test_parish_page_schedule_jsonld_and_escaping(client):
    pid = jozef_id(client)
    response = client.get(f"/parafia/{pid}")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "ul. Ogrodowa 22" in page and "http://www.jozef-lodz.pl/" in page
    assert re.findall(r"<dt>([^<]+)</dt>", page) == ["niedziele", "sobota", "dni powszednie"]
    blocks = re.findall(r'<script type="application/ld\+json">(.*?)</script>', page, re.S)
    assert len(blocks) == 1  # the "</script>" in a context sentence did not end the block early
    data = json.loads(blocks[0])
    assert data["@context"] == "https://schema.org" and data["@type"] == "Church"
    saturday = [
        e for e in data["event"] if e["eventSchedule"].get("byDay") == ["https://schema.org/Saturday"]
    ]
    assert saturday[0]["eventSchedule"]["startTime"] == "07:30"
    assert client.get("/parafia/9999").status_code == 404


def test_csv_export_of_a_query(client):
    response = client.get("/eksport.csv?city=Łódź&day=sunday")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))
    assert {(r["parafia"], r["godzina"]) for r in rows} == {
        ("Świętego Józefa", "07:00"),
        ("Świętego Józefa", "10:30"),
        ("Świętego Józefa", "18:00"),
        ("Matki Bożej Różańcowej", "08:00"),
        ("Matki Bożej Różańcowej", "19:30"),
    }
    assert all(r["dzien"] == "sunday" for r in rows)
    assert csv_cell("=HYPERLINK(1)") == "'=HYPERLINK(1)"


def test_openapi_describes_the_api(client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.")
    params = {p["name"] for p in spec["paths"]["/api/parishes"]["get"]["parameters"]}
    assert params == {"q", "city", "diocese", "day", "from", "to", "page", "per_page"}
    assert "/api/parishes/{id}" in spec["paths"]
    assert "400" in spec["paths"]["/api/parishes"]["get"]["responses"]


def test_healthz_and_security_headers(client):
    response = client.get("/healthz")
    assert response.get_data(as_text=True) == "ok\n"
    assert "script-src 'none'" in response.headers["Content-Security-Policy"]


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

    # The review page needs the admin token and escapes what visitors wrote.
    assert client.get("/admin/zgloszenia").status_code == 404
    review = client.get("/admin/zgloszenia?token=sekret-testowy").get_data(as_text=True)
    assert "<img src=x" not in review and "&lt;img src=x onerror=alert(1)&gt;" in review
    labels = client.get("/admin/zgloszenia.jsonl?token=sekret-testowy").get_data(as_text=True).splitlines()
    parsed = [json.loads(line) for line in labels]
    by_time = {(p["label"], p["time"]) for p in parsed}
    assert ("other", "07:00") in by_time and ("mass", "21:00") in by_time
    wrong = next(p for p in parsed if p["label"] == "other")
    assert (
        wrong["context"] == "Msze św. w niedziele: 07.00, 10.30, 18.00"
    )  # the sentence the bad time came from


@pytest.mark.parametrize(
    "form",
    [
        {"kind": "bad", "day": "sunday", "time": "07:00"},
        {"kind": "wrong", "day": "monday", "time": "07:00"},
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


def test_demo_app_serves_generated_data():
    demo = create_app(config={"TESTING": True}).test_client()
    page = demo.get("/?city=Kraków&day=niedziela").get_data(as_text=True)
    assert "Dane demonstracyjne" in page
    body = demo.get("/api/parishes?city=krakow").get_json()
    assert body["total"] == 10
    assert all(p["website"].endswith(".example/") for p in body["parishes"])
