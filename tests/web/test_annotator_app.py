"""The annotator's web layer: page, JSON API, CSRF, forged posts, identity, IP limit, concurrency."""

from __future__ import annotations

import ast
import contextlib
import http.cookiejar
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from datetime import timedelta
from pathlib import Path

import pytest
from annotator_pages import (
    NEWS_TEXT,
    NEWS_URL,
    SCHEDULE_URL,
    Device,
    HttpDevice,
    check_parallel_annotators,
    check_parallel_clicks,
    pages_jsonl,
    serve,
    serve_waitress,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, func, select
from sqlalchemy.exc import OperationalError

from msze.annotator import export
from msze.annotator.app import create_app
from msze.annotator.db import assignments, devices, events, hours, transaction, utcnow
from msze.annotator.importer import import_file, import_lines
from msze.cli import main


class Clock:
    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self):
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def app(tmp_path, clock):
    app = create_app(
        {
            "ANNOTATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}",
            "ANNOTATOR_GOLD_FRACTION": 0.0,
            "ANNOTATOR_NEW_DEVICES_PER_IP": 100,
            "ANNOTATOR_CLOCK": clock,
        },
        instance_path=str(tmp_path / "instance"),
    )
    import_file(app.extensions["msze_annotator_engine"], pages_jsonl(tmp_path / "pages.jsonl"))
    return app


def db(app):
    return transaction(app.extensions["msze_annotator_engine"])


def test_page_is_polish_and_loads_only_local_assets(app):
    response = app.test_client().get("/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    for text in ['lang="pl"', ">Tak<", ">Nie<", ">Cofnij<", ">Instrukcja<", 'name="viewport"']:
        assert text in html
    # The design's rules: unsure / partial highlight / devotions ... -> Nie; a cancelled Mass -> Tak.
    for rule in [
        "nie masz pewności",
        "tylko część godziny",
        "różańca",
        "spowiedzi",
        "adoracji",
        "kancelarii",
    ]:
        assert rule in html
    assert "odwołana" in html and 'id="help-end"' in html
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "/static/annotator.css",
        "/static/annotator.js",
    ]  # no CDN
    assert "<script>" not in html  # no inline script (the CSP forbids it)
    assert "script-src" not in response.headers["Content-Security-Policy"]  # default-src 'self' covers it
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    for asset in ["/static/annotator.js", "/static/annotator.css"]:
        assert app.test_client().get(asset).status_code == 200


def test_items_imported_from_extract_output_never_show_the_servers_file_path(app, tmp_path, capsys):
    """`msze extract` names its input by its path on the server: volunteers see no address for it at all."""
    page = tmp_path / "strony" / "kosciol-lokalny.html"
    page.parent.mkdir()
    page.write_text("<html><body><p>Msze św. w niedziele: 8:00, 10:30 i 18:00.</p></body></html>", "utf-8")
    assert main(["extract", "--no-model", str(page)]) == 0
    extracted = tmp_path / "extract.jsonl"
    extracted.write_text(capsys.readouterr().out, encoding="utf-8")
    assert json.loads(extracted.read_text(encoding="utf-8"))["path"] == str(page)
    engine = app.extensions["msze_annotator_engine"]
    assert import_file(engine, extracted).added == 3
    crawled = {"url": "javascript:alert(1)//", "text": "Msza o 7:00", "hours": []}  # not an address either
    crawled["hours"] = [{"start": 7, "end": 11, "text": "7:00", "time": "07:00", "context": "Msza o 7:00",
                         "context_start": 0}]  # fmt: skip
    assert import_lines(engine, [json.dumps(crawled)]).added == 1
    device, sources, from_files = Device(app), set(), 0
    response = device.post("/api/current")
    while response.get_json()["item"] is not None:
        body, item = response.get_data(as_text=True), response.get_json()["item"]
        assert str(tmp_path) not in body and "kosciol-lokalny" not in body and "javascript" not in body
        sources.add(item["source"])
        from_files += "w niedziele" in item["before"] + item["after"]
        response = device.post("/api/answer", {"item": item["id"], "answer": "no"})
    assert from_files == 3
    assert sources == {None, NEWS_URL, SCHEDULE_URL}  # crawled pages keep their address


def test_every_kind_of_answer_has_the_security_headers(app, monkeypatch):
    """Pages, static files, the API, its refusals and the error pages: none can be framed or sniffed."""
    device = Device(app)
    client = device.client
    answers = {
        "page": client.get("/"),
        "stats page": client.get("/statystyki"),
        "static": client.get("/static/annotator.js"),
        "api get": client.get("/api/stats"),
        "api post": device.post("/api/current"),
        "api refusal": client.post("/api/current", json={}),  # no CSRF token
        "api 404": client.get("/api/nope"),
        "api 405": client.get("/api/current"),
        "api 413": device.post("/api/current", {"fp": "x" * 20_000}),
        "page 404": client.get("/nope"),
        "page 405": client.post("/statystyki"),
    }
    broken = OperationalError("SELECT", {}, Exception("disk I/O error"))
    monkeypatch.setattr(export, "stats", lambda conn: (_ for _ in ()).throw(broken))
    answers["page 503"], answers["api 503"] = client.get("/statystyki"), client.get("/api/stats")
    codes = {kind: response.status_code for kind, response in answers.items()}
    assert [codes[k] for k in ("page", "stats page", "static", "api get", "api post")] == [200] * 5
    assert [codes[k] for k in ("api refusal", "api 404", "api 405", "api 413")] == [400, 404, 405, 413]
    assert [codes[k] for k in ("page 404", "page 405", "page 503", "api 503")] == [404, 405, 503, 503]
    for kind, response in answers.items():
        headers = response.headers
        assert headers["X-Frame-Options"] == "DENY", kind
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], kind
        assert "form-action 'self'" in headers["Content-Security-Policy"], kind
        assert headers["X-Content-Type-Options"] == "nosniff", kind
        assert headers["Referrer-Policy"] == "same-origin", kind


def test_api_returns_page_text_as_plain_strings(app):
    device = Device(app)
    with db(app) as conn:
        conn.execute(
            hours.update().values(n_served=5).where(hours.c.document_id == 1)
        )  # serve the news page first
    item = device.current()["item"]
    assert item["source"] == NEWS_URL and item["hour"] == "18.oo"
    # Raw text in JSON, never HTML: the page builds text nodes from it (the browser test checks the display).
    assert "<script>alert('x')</script>" in item["after"]
    assert item["before"] + item["hour"] + item["after"] == NEWS_TEXT


def test_tak_nie_cofnij_change_the_database(app):
    device = Device(app)
    first = device.current()
    assert first["answered"] == 0 and not first["can_undo"]
    after_yes = device.answer(first["item"]["id"], "yes")
    after_no = device.answer(after_yes["item"]["id"], "no")
    assert after_no["answered"] == 2 and after_no["can_undo"]
    with db(app) as conn:
        got = dict(conn.execute(select(assignments.c.hour_id, assignments.c.answer)).all())
    assert got == {first["item"]["id"]: "yes", after_yes["item"]["id"]: "no", after_no["item"]["id"]: None}
    back = device.undo()
    assert back["item"]["id"] == after_yes["item"]["id"] and back["item"]["previous_answer"] == "no"
    back = device.undo()
    assert back["item"]["id"] == first["item"]["id"] and not back["can_undo"]
    with db(app) as conn:
        assert conn.execute(select(func.count()).where(assignments.c.answer.is_not(None))).scalar_one() == 0
        assert conn.execute(select(func.sum(hours.c.n_answers))).scalar_one() == 0
    device.answer(first["item"]["id"], "no")
    with db(app) as conn:
        assert (
            conn.execute(
                select(assignments.c.answer).where(assignments.c.hour_id == first["item"]["id"])
            ).scalar_one()
            == "no"
        )


def test_forged_and_malformed_posts_get_4xx(app):
    device = Device(app)
    item = device.current()["item"]["id"]
    client = device.client
    cases = [
        device.post("/api/answer", {"item": 999_999, "answer": "yes"}),  # unknown item -> 404
        device.post("/api/answer", {"item": _not_served(app, device), "answer": "yes"}),  # not served -> 403
        device.post("/api/answer", {"item": item, "answer": "tak<script>"}),
        device.post("/api/answer", {"item": str(item), "answer": "yes"}),
        device.post("/api/answer", {"item": [item], "answer": "yes"}),
        device.post("/api/answer", {"item": 10**30, "answer": "yes"}),
        device.post("/api/answer", {"answer": "yes"}),
        client.post("/api/answer", data="{not json", headers={"X-CSRFToken": device.csrf}),
        client.post(
            "/api/answer",
            data="[1, 2]",
            headers={"X-CSRFToken": device.csrf, "Content-Type": "application/json"},
        ),
        client.post(
            "/api/answer",
            data="null",
            headers={"X-CSRFToken": device.csrf, "Content-Type": "application/json"},
        ),
        client.post(
            "/api/answer",
            data="x" * 20_000,
            headers={"X-CSRFToken": device.csrf, "Content-Type": "application/json"},
        ),
        client.post("/api/answer", json={"item": item, "answer": "yes"}),  # no CSRF token
        client.post("/api/answer", json={"item": item, "answer": "yes"}, headers={"X-CSRFToken": "forged"}),
        client.get("/api/answer"),  # wrong method
        client.put("/api/current", json={}),
        client.delete("/api/undo"),
        client.get("/api/nope"),
        device.post("/api/undo"),  # nothing to undo yet -> 409
    ]
    codes = [r.status_code for r in cases]
    assert all(400 <= c < 500 for c in codes), codes
    assert codes[0] == 404 and codes[1] == 403 and codes[-1] == 409 and 405 in codes and 413 in codes
    assert all(r.is_json and "error" in r.get_json() for r in cases)
    # A device that never loaded the page (no cookie, unknown fingerprint) cannot answer.
    stranger = Device(app, ip="10.0.0.3", screen={"sw": 1})
    assert stranger.post("/api/answer", {"item": item, "answer": "yes"}).status_code == 403
    # Nothing was recorded by any of it.
    with db(app) as conn:
        assert conn.execute(select(func.count()).select_from(events)).scalar_one() == 0


def _not_served(app, device) -> int:
    with db(app) as conn:
        served = set(conn.execute(select(assignments.c.hour_id)).scalars())
        return next(h for h in conn.execute(select(hours.c.id)).scalars() if h not in served)


def test_double_click_counts_once(app):
    device = Device(app)
    item = device.current()["item"]["id"]
    assert device.post("/api/answer", {"item": item, "answer": "yes"}).status_code == 200
    assert device.post("/api/answer", {"item": item, "answer": "yes"}).status_code == 409
    with db(app) as conn:
        assert conn.execute(select(hours.c.n_answers).where(hours.c.id == item)).scalar_one() == 1


def test_cookie_keeps_device_and_lost_cookie_means_a_new_identity(app):
    phone = Device(app)
    item = phone.current()["item"]["id"]
    phone.answer(item, "yes")
    cookie = phone.client.get_cookie("msze_device")
    assert cookie is not None and cookie.http_only and cookie.max_age and cookie.max_age > 365 * 24 * 3600
    assert phone.current()["answered"] == 1  # the cookie keeps the device
    phone.client.delete_cookie("msze_device")
    state = phone.current()  # same UA, language and screen, no cookie: a new identity, never the old token
    assert state["answered"] == 0
    assert phone.client.get_cookie("msze_device").value != cookie.value
    with db(app) as conn:
        rows = conn.execute(select(devices.c.token, devices.c.fingerprint).order_by(devices.c.id)).all()
    assert len(rows) == 2 and rows[0].token == cookie.value
    assert rows[0].fingerprint == rows[1].fingerprint  # linked for cheater detection, nothing more


def test_same_fingerprint_never_hands_out_another_devices_identity(app):
    """Take-over: a cookie-less client copying a device's UA, languages and screen facts is a stranger."""
    victim = Device(app)
    state = victim.current()
    first = state["item"]["id"]
    state = victim.answer(first, "yes")
    pending = state["item"]["id"]
    token = victim.client.get_cookie("msze_device").value
    attacker = Device(app, ip="10.6.6.6")  # same User-Agent, Accept-Language and screen facts
    # Before loading an item it is an unknown device: it can neither answer nor undo the victim's items.
    assert attacker.post("/api/answer", {"item": pending, "answer": "no"}).status_code == 403
    assert attacker.post("/api/undo").status_code == 403
    assert attacker.client.get_cookie("msze_device") is None
    own = attacker.current()
    assert own["answered"] == 0 and not own["can_undo"]
    assert attacker.client.get_cookie("msze_device").value != token
    attacker.answer(own["item"]["id"], "no")  # its answers are its own
    with db(app) as conn:
        victims = dict(
            conn.execute(
                select(assignments.c.hour_id, assignments.c.answer).where(
                    assignments.c.device_id
                    == select(devices.c.id).where(devices.c.token == token).scalar_subquery()
                )
            ).all()
        )
    assert victims == {first: "yes", pending: None}  # nothing of the victim's changed


def test_new_identities_per_ip_are_limited(app, clock):
    app.config.update(ANNOTATOR_NEW_DEVICES_PER_IP=2, ANNOTATOR_NEW_DEVICES_WINDOW=600)
    known = [Device(app, screen={"sw": width}) for width in (1, 2)]
    for device in known:
        assert device.post("/api/current").status_code == 200
    blocked = Device(app, screen={"sw": 3})
    response = blocked.post("/api/current")
    assert response.status_code == 429 and "too many" in response.get_json()["error"]
    assert Device(app, ip="10.9.9.9", screen={"sw": 3}).post("/api/current").status_code == 200
    # A known device (its cookie) is not a new identity: it still works from the limited IP ...
    assert known[0].post("/api/current").status_code == 200
    # ... but the same screen facts without the cookie are one, and so is another address of the same /24.
    assert Device(app, screen={"sw": 1}).post("/api/current").status_code == 429
    assert Device(app, ip="10.0.0.254", screen={"sw": 4}).post("/api/current").status_code == 429
    clock.now += timedelta(seconds=601)
    assert blocked.post("/api/current").status_code == 200


def test_new_identities_are_limited_per_ipv6_64(app):
    app.config.update(ANNOTATOR_NEW_DEVICES_PER_IP=2)
    for host in (1, 2):  # one household's /64: any number of addresses
        assert Device(app, ip=f"2001:db8:1:2::{host}").post("/api/current").status_code == 200
    assert Device(app, ip="2001:db8:1:2:ffff::9").post("/api/current").status_code == 429
    assert Device(app, ip="2001:db8:1:3::1").post("/api/current").status_code == 200  # another /64


def test_stats_page_and_api(app):
    device = Device(app)
    item = device.current()["item"]["id"]
    device.answer(item, "yes")
    stats = app.test_client().get("/api/stats").get_json()
    assert stats["labelled_hours"] == 1 and stats["devices"] == 1 and stats["labelled_mass"] == 1
    html = app.test_client().get("/statystyki").get_data(as_text=True)
    assert "Statystyki anotacji" in html and "Godzin z odpowiedziami" in html


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    monkeypatch.delenv("ANNOTATOR_SECRET_KEY", raising=False)
    config = {"ANNOTATOR_DATABASE_URL": f"sqlite:///{tmp_path / 'a.sqlite3'}"}
    first = create_app(config, instance_path=str(tmp_path / "inst"))
    second = create_app(config, instance_path=str(tmp_path / "inst"))
    assert first.secret_key == second.secret_key and len(first.secret_key) == 64
    assert os.stat(tmp_path / "inst" / "secret_key").st_mode & 0o777 == 0o600
    monkeypatch.setenv("ANNOTATOR_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("ANNOTATOR_GOLD_FRACTION", "0.25")
    third = create_app(config, instance_path=str(tmp_path / "inst"))
    assert third.secret_key == "from-the-environment" and third.config["ANNOTATOR_GOLD_FRACTION"] == 0.25
    monkeypatch.setenv("ANNOTATOR_CHEATER_MIN_GOLD", "five")
    with pytest.raises(ValueError, match="ANNOTATOR_CHEATER_MIN_GOLD='five': expected int"):
        create_app(config, instance_path=str(tmp_path / "inst"))


# --- Concurrency, through a real threaded HTTP server -------------------------------------------------------


@pytest.fixture
def server(app):
    app.config["ANNOTATOR_GOLD_FRACTION"] = 0.3
    with serve(app) as url:
        yield url


@pytest.mark.parametrize(("n_devices", "per_device"), [(6, 8), (8, 11)])  # (8, 11): every device ends up
def test_parallel_annotators_lose_and_double_count_nothing(
    app, server, n_devices, per_device
):  # with all 12 hours served: no room to skip
    check_parallel_annotators(server, app.extensions["msze_annotator_engine"], n_devices, per_device)


def test_parallel_clicks_of_one_device_count_once(app, server):
    check_parallel_clicks(server, app.extensions["msze_annotator_engine"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.sampled_from(["/api/current", "/api/answer", "/api/undo"]),
    body=st.dictionaries(st.sampled_from(["item", "answer", "fp", "x"]), json_values, max_size=4),
)
def test_random_json_never_causes_500(app, path, body):
    device = getattr(app, "_fuzz_device", None) or Device(app, ip="10.7.7.7")
    app._fuzz_device = device
    response = device.client.post(
        path, json=body, headers={"X-CSRFToken": device.csrf}, environ_base=device.environ
    )
    assert response.status_code < 500, (response.status_code, response.get_data(as_text=True))
    assert response.is_json


def test_documented_serve_command_starts_and_keeps_data(tmp_path):
    """`python -m msze annotator serve --db ... --port N` (waitress) answers; data survives a restart."""
    db_url = f"sqlite:///{tmp_path / 'served.sqlite3'}"
    root = Path(__file__).resolve().parents[2]
    jar = http.cookiejar.CookieJar()  # the browser keeps its cookie across the restart (cookies ignore ports)
    for _run in range(2):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        command = [sys.executable, "-m", "msze", "annotator", "serve", "--db", db_url, "--port", str(port)]
        command += ["--instance", str(tmp_path / "instance")]
        proc = subprocess.Popen(command, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
                    break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()
                    time.sleep(0.2)
            assert ">Tak<" in page
            device = HttpDevice(f"http://127.0.0.1:{port}", 360, jar)
            status, state = device.post("/api/current")
            assert status == 200 and state == {"item": None, "answered": 0, "can_undo": False}  # empty DB
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    engine = create_engine(db_url)
    with engine.connect() as conn:
        # The second run recognised the first run's cookie: the device row survived the restart.
        assert conn.execute(select(func.count()).select_from(devices)).scalar_one() == 1
    engine.dispose()


@pytest.mark.parametrize(
    "raw",
    [
        "[" * 5000 + "]" * 5000,  # the attack: RecursionError in the JSON parser, a 500
        '{"fp":' + '{"a":' * 2000 + "1" + "}" * 2001,
        '{"fp": {"a": [[[1]]]}}',
        "[" * 5000,  # not even closed
    ],
)
def test_deeply_nested_json_is_refused_with_a_clear_400(app, raw):
    device = Device(app)
    response = device.client.post(
        "/api/current",
        data=raw,
        headers={"X-CSRFToken": device.csrf, "Content-Type": "application/json"},
        environ_base=device.environ,
    )
    assert response.status_code == 400
    assert response.get_json() == {"error": "JSON nested too deeply: at most 3 levels"}
    with db(app) as conn:
        assert conn.execute(select(func.count()).select_from(devices)).scalar_one() == 0


def test_brackets_inside_json_strings_are_not_nesting(app):
    device = Device(app, screen={"tz": '[[[[{{{{\\"[[[[', "sw": 360})
    assert device.post("/api/current").status_code == 200


@pytest.mark.parametrize("server", [serve, serve_waitress])  # werkzeug (`serve --debug`), waitress (`serve`)
def test_chunked_body_over_the_size_limit_is_413(app, server):
    """No Content-Length is no way around MAX_CONTENT_LENGTH (werkzeug alone would cut the body silently):
    the app refuses it in JSON, or waitress does itself (in text) once more than the limit has come."""
    with server(app) as url:
        device = HttpDevice(url, 360)
        status, answer = _refused_post(device, server is serve_waitress)
        assert status == 413
        assert answer["error"] if server is serve else "Request Entity Too Large" in answer["text"]
        status, _ = device.post_raw("/api/current", iter([b'{"fp": ', b'{"sw": 360}}']))
        assert status == 200  # a small chunked body is fine


def _refused_post(device: HttpDevice, may_reset: bool, tries: int = 10) -> tuple[int, dict]:
    """The answer to a chunked body over the limit. waitress answers 413 and closes with the rest of the
    body unread, so the kernel may reset the connection before the client reads the answer: a race of TCP,
    not of the server, so a reset is tried again (each try wins it most of the time)."""
    for _ in range(tries - 1):
        try:
            return device.post_raw("/api/current", iter([b'{"fp": "', b"x" * 20_000, b'"}']))
        except urllib.error.URLError as exc:
            if not (may_reset and isinstance(exc.reason, ConnectionResetError)):
                raise
    return device.post_raw("/api/current", iter([b'{"fp": "', b"x" * 20_000, b'"}']))


BIG_POST = (
    b"POST /api/current HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 52428800\r\n\r\n"
)  # 50 MB declared


def test_serve_answers_a_big_body_413_before_reading_it(app):
    with serve_waitress(app) as url, socket.create_connection(_address(url), timeout=30) as sock:
        sock.sendall(BIG_POST)  # only the headers: a server that waited for the 50 MB would never answer
        assert sock.recv(100).startswith(b"HTTP/1.1 413 ")


def test_serve_spools_nothing_of_a_big_body_to_disk(app, tmp_path, monkeypatch):
    """waitress buffers a body past 512 kB in a temp file: a refused one must never get that far."""
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))  # where waitress's TemporaryFile goes
    with serve_waitress(app) as url, socket.create_connection(_address(url), timeout=30) as sock:
        with contextlib.suppress(OSError):  # refused: the server may close before taking it all
            sock.sendall(BIG_POST + b"x" * (2 * 1024 * 1024))
        # Another request answered: the server's loop has been through what it took of the first one.
        assert urllib.request.urlopen(url + "/", timeout=30).status == 200
        assert _files_open_under(spool) == [] and list(spool.iterdir()) == []


def _address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def _files_open_under(folder: Path) -> list[str]:
    """This process's open files in `folder` (a TemporaryFile has no name there, only an open descriptor)."""
    targets = []
    for fd in Path("/proc/self/fd").iterdir():
        with contextlib.suppress(OSError):  # closed since listed
            targets.append(os.readlink(fd))
    return [target for target in targets if target.startswith(str(folder))]


def test_pages_and_api_are_blueprints_over_modules_that_hold_the_sql(app):
    """The web layer (factory, Blueprints, what they share) builds no SQL: that is serving/cheaters/export."""
    endpoints = {rule.rule: rule.endpoint for rule in app.url_map.iter_rules()}
    assert {k: v for k, v in endpoints.items() if k != "/static/<path:filename>"} == {
        "/": "views.index",
        "/statystyki": "views.stats_page",
        "/api/stats": "api.stats",
        "/api/current": "api.current",
        "/api/answer": "api.answer",
        "/api/undo": "api.undo",
    }
    package = Path(__file__).resolve().parents[2] / "msze" / "annotator"
    sql = {"select", "insert", "update", "delete", "func", "text", "and_", "or_", "exists"}
    tables = {"hours", "devices", "assignments", "events", "documents"}
    for name in ("app.py", "api.py", "views.py", "web.py"):
        tree = ast.parse((package / name).read_text(encoding="utf-8"))
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("sqlalchemy", "msze"))
            for alias in node.names
        }
        assert not imported & (sql | tables), (name, imported & (sql | tables))
