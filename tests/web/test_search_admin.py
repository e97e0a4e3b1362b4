"""Accounts, invites, the review queue and the verified schedule (msze/search/admin.py, accounts.py,
verified.py), on SQLite and on a throwaway PostgreSQL: every flow and every refusal through the app."""

from __future__ import annotations

import json
import logging
import re
import sys
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from hypothesis import given, settings
from hypothesis import strategies as st
from postgres_cluster import postgres_cluster
from search_fixtures import results, write_inputs, write_results
from sqlalchemy import select

from msze.classifier.dataset import from_corrections
from msze.search import accounts, schedule_form, verified
from msze.search.app import create_app
from msze.search.db import audit_log, create_schema, invites, make_engine, metadata, users
from msze.search.loader import load

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)
MOD_PASSWORD = "moderator-haslo-123"
ED_PASSWORD = "edytor-parafii-456"


@pytest.fixture(autouse=True)
def cheap_hashes(request, monkeypatch):
    """argon2id at 8 MiB and one pass in these tests (each login would take 64 MiB and three): the same code,
    a cheaper profile; test_passwords_are_stored_as_argon2id_hashes_only checks the real one."""
    if "real_profile" not in request.keywords:
        monkeypatch.setattr(accounts, "_HASHER", PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1))


@pytest.fixture(scope="module")
def pg_url():
    with postgres_cluster("admin", max_connections=20) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def engine(request, tmp_path):
    if request.param == "sqlite":
        engine = make_engine(tmp_path / "admin.sqlite")
    else:
        engine = make_engine(request.getfixturevalue("pg_url"))
        metadata.drop_all(engine)
    create_schema(engine)
    paths = write_inputs(tmp_path)
    load(engine, paths["parishes"], paths["places"], paths["results"], now=NOW - timedelta(days=5))
    yield engine
    engine.dispose()


@pytest.fixture
def app(engine):
    return create_app(engine=engine, config={"TESTING": True, "NOW": NOW})


def parish_ids(engine) -> dict[str, int]:
    from msze.search.db import parishes

    with engine.connect() as conn:
        return {row.name: row.id for row in conn.execute(select(parishes.c.id, parishes.c.name))}


def add(engine, name: str, password: str, role: str, parish_id: int | None = None) -> accounts.Account:
    with engine.begin() as conn:
        return accounts.add_user(conn, name, password, role, parish_id, NOW)


def csrf(client, path: str = "/logowanie") -> str:
    page = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def login(client, name: str, password: str, **environ):
    token = csrf(client)
    form = {"csrf_token": token, "username": name, "password": password}
    return client.post("/logowanie", data=form, environ_base=environ)


def post(client, path: str, data: dict | None = None, page: str = "/admin/"):
    return client.post(path, data={"csrf_token": csrf(client, page), **(data or {})})


@pytest.fixture
def ids(engine):
    return parish_ids(engine)


@pytest.fixture
def moderator(engine, app):
    add(engine, "anna", MOD_PASSWORD, "moderator")
    client = app.test_client()
    assert login(client, "anna", MOD_PASSWORD).status_code == 303
    return client


def jozef_times(client, pid: int) -> list[str]:
    return sorted(f"{t['day']} {t['time']}" for t in client.get(f"/api/parishes/{pid}").get_json()["times"])


def report(client, pid: int, kind: str, day: str, time: str, comment: str = "", new_time: str = "") -> None:
    token = csrf(client, f"/parafia/{pid}")
    form = {
        "csrf_token": token,
        "kind": kind,
        "day": day,
        "time": time,
        "comment": comment,
        "new_time": new_time,
    }
    assert client.post(f"/parafia/{pid}/zgloszenie", data=form).status_code == 303


# --- accounts ---------------------------------------------------------------------------------------------


@pytest.mark.real_profile
def test_passwords_are_stored_as_argon2id_hashes_only(engine):
    add(engine, "anna", MOD_PASSWORD, "moderator")
    with engine.connect() as conn:
        stored = conn.execute(select(users.c.password_hash)).scalar_one()
    assert stored.startswith("$argon2id$") and MOD_PASSWORD not in stored
    assert "m=65536" in stored  # memory-hard: 64 MiB per hash
    with engine.begin() as conn, pytest.raises(accounts.AccountError):
        accounts.add_user(conn, "krotkie", "za-krotkie", "moderator", None, NOW)
    with engine.begin() as conn, pytest.raises(accounts.AccountError):
        accounts.add_user(conn, "ed", ED_PASSWORD, "editor", 999999, NOW)  # no such parish


def test_cli_user_add_reads_the_password_from_stdin(engine, tmp_path, monkeypatch, capsys):
    import io

    from msze.search import cli

    url = engine.url.render_as_string(hide_password=False)
    parser = __import__("argparse").ArgumentParser()
    cli.add_arguments(parser)
    monkeypatch.setattr("sys.stdin", io.StringIO(ED_PASSWORD + "\n"))
    pid = parish_ids(engine)["Świętego Józefa"]
    argv = ["user", "add", "kancelaria", "--role", "editor", "--parish", str(pid), "--db", url]
    args = parser.parse_args([*argv, "--password-stdin"])
    assert cli.run(args) == 0
    assert "added kancelaria (editor of parish" in capsys.readouterr().out
    args = parser.parse_args(["user", "add", "x", "--role", "editor", "--db", url, "--password-stdin"])
    assert cli.run(args) == 2  # an editor without --parish
    client = create_app(engine=engine, config={"NOW": NOW}).test_client()
    assert login(client, "kancelaria", ED_PASSWORD).status_code == 303


def test_every_admin_route_without_login_redirects_to_the_login_page(app, ids):
    client = app.test_client()
    token = csrf(client)
    pid = ids["Świętego Józefa"]
    open_routes = {"admin.login", "admin.invite"}
    rules = [r for r in app.url_map.iter_rules() if r.endpoint.startswith("admin.")]
    assert len(rules) >= 10
    for rule in rules:
        if rule.endpoint in open_routes:
            continue
        path = rule.rule.replace("<id:parish_id>", str(pid)).replace("<id:item_id>", "1")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            response = client.open(path, method=method, data={"csrf_token": token, "parish_id": str(pid)})
            assert response.status_code in (302, 403), (method, path, response.status_code)
            if response.status_code == 302:
                assert response.headers["Location"].startswith("/logowanie"), path
                assert "next=" not in response.headers["Location"]  # nothing of the page asked for in the URL
    assert client.get("/admin/zgloszenia?token=sekret").status_code in (
        302,
        405,
    )  # the old token view is gone


def test_login_changes_the_session_id_and_logout_ends_it_on_the_server(engine, app):
    add(engine, "anna", MOD_PASSWORD, "moderator")
    client = app.test_client()
    csrf(client)
    with client.session_transaction() as sess:
        before = dict(sess)
    login(client, "anna", MOD_PASSWORD)
    with client.session_transaction() as sess:
        first = sess["_user_id"]
        assert sess.get("csrf_token") != before.get("csrf_token")  # the anonymous session's state is dropped
    cookie = client.get_cookie("session").value
    other = app.test_client()
    login(other, "anna", MOD_PASSWORD)
    with other.session_transaction() as sess:
        assert sess["_user_id"] != first  # each login a new random session id
    assert client.get("/admin/").status_code == 200
    assert post(client, "/wyloguj").status_code == 303
    replay = app.test_client()
    replay.set_cookie("session", cookie)  # the cookie of before the logout, sent again
    assert replay.get("/admin/").status_code == 302


def test_login_lockout_per_account_and_per_client(engine, app):
    add(engine, "anna", MOD_PASSWORD, "moderator")
    client = app.test_client()
    for _ in range(5):
        assert login(client, "anna", "zle-haslo-123456").status_code == 401
    locked = login(client, "anna", MOD_PASSWORD)  # the right password, but the account is locked
    assert locked.status_code == 429 and "zablokowane" in locked.get_data(as_text=True)
    later = create_app(engine=engine, config={"NOW": NOW + timedelta(minutes=16)}).test_client()
    assert login(later, "anna", MOD_PASSWORD).status_code == 303  # the lockout ends

    add(engine, "basia", MOD_PASSWORD, "moderator")
    guesser = app.test_client()
    for i in range(20):  # one address, many names
        assert login(guesser, f"nikt{i}", "zgadywane-haslo", REMOTE_ADDR="10.0.0.9").status_code == 401
    assert login(guesser, "basia", MOD_PASSWORD, REMOTE_ADDR="10.0.0.9").status_code == 429
    assert login(app.test_client(), "basia", MOD_PASSWORD, REMOTE_ADDR="10.0.0.10").status_code == 303


def test_every_form_needs_its_csrf_token(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    anonymous = app.test_client()
    assert (
        anonymous.post("/logowanie", data={"username": "anna", "password": MOD_PASSWORD}).status_code == 400
    )
    assert (
        anonymous.post("/zaproszenie", data={"code": "x", "username": "a", "password": "b"}).status_code
        == 400
    )
    forms = [
        "/wyloguj",
        "/admin/zgloszenia",
        "/admin/przeglad/1",
        f"/admin/parafia/{pid}",
        f"/admin/parafia/{pid}/cofnij",
        f"/admin/parafia/{pid}/wycofaj",
        f"/admin/parafia/{pid}/zaproszenie",
    ]
    posts = {
        r.rule for r in app.url_map.iter_rules() if r.endpoint.startswith("admin.") and "POST" in r.methods
    }
    assert len(posts) == len(forms) + 2  # every POST route of the Blueprint is here (and login, invite above)
    for path in forms:
        response = moderator.post(
            path, data={"parish_id": str(pid), "decision": "accept", "m0_time": "07:00"}
        )
        assert response.status_code == 400, path
        assert "Błąd formularza" in response.get_data(as_text=True)
    assert moderator.get("/admin/").status_code == 200  # still logged in: nothing was done


# --- the review queue and the verified schedule -------------------------------------------------------------


def test_moderator_accepts_a_report_and_every_reader_publishes_the_corrected_schedule(
    engine, app, moderator, ids
):
    pid = ids["Świętego Józefa"]
    visitor = app.test_client()
    report(visitor, pid, "wrong", "sun", "07:00", "<b>nie ma już tej mszy</b>")
    report(app.test_client(), pid, "wrong", "sun", "07:00")
    report(visitor, pid, "missing", "sun", "12:00")
    queue = moderator.get("/admin/").get_data(as_text=True)
    assert "(2 zgł.)" in queue  # the two reports of one time are one decision
    assert "&lt;b&gt;nie ma już tej mszy&lt;/b&gt;" in queue
    assert "Msze św. w niedziele: 07.00, 10.30, 18.00" in queue  # the crawl's sentence beside the report
    assert "sun 07:00" in jozef_times(visitor, pid)

    form = {"parish_id": str(pid), "day": "sun", "time": "07:00", "kind": "wrong", "decision": "accept"}
    assert post(moderator, "/admin/zgloszenia", form).status_code == 303
    form = {"parish_id": str(pid), "day": "sun", "time": "12:00", "kind": "missing", "decision": "reject"}
    assert post(moderator, "/admin/zgloszenia", form).status_code == 303

    times = jozef_times(visitor, pid)
    assert "sun 07:00" not in times and "sun 10:30" in times and "sun 12:00" not in times
    page = visitor.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "potwierdzone przez moderatora 1 grudnia 2026" in page
    assert "07:00" not in page.split('<details class="history"')[0]
    detail = visitor.get(f"/api/parishes/{pid}").get_json()
    assert detail["verified"] == {"by": "moderator", "label": "potwierdzone przez moderatora",
                                  "verified_at": "2026-12-01T12:00:00Z"}  # fmt: skip
    sundays = {e["eventSchedule"]["startTime"] for e in detail["jsonld"]["event"]
               if "https://schema.org/Sunday" in e.get("eventSchedule", {}).get("byDay", [])}  # fmt: skip
    assert "07:00" not in sundays and "10:30" in sundays
    ics = visitor.get(f"/parafia/{pid}.ics").get_data(as_text=True)
    assert "T070000" not in ics and "T103000" in ics
    csv_text = visitor.get("/eksport.csv?q=józefa").get_data(as_text=True)
    assert "07:00" not in csv_text and "10:30" in csv_text
    found = visitor.get("/api/parishes?q=józefa&day=sun&from=06:30&to=07:30").get_json()
    assert found["total"] == 0  # the search reads the published schedule too
    with_evidence = next(t for t in detail["times"] if t["time"] == "10:30" and t["day"] == "sun")
    assert (
        with_evidence["context"] == "Msze św. w niedziele: 07.00, 10.30, 18.00"
    )  # the crawl's sentence stays

    labels = [
        json.loads(line)
        for line in moderator.get("/admin/zgloszenia.jsonl").get_data(as_text=True).split("\n")
        if line
    ]
    meaning = {(lab["time"], lab["status"]): lab["label"] for lab in labels}
    assert meaning == {("07:00", "accepted"): "other", ("12:00", "rejected"): "other"}
    examples, skipped = from_corrections(labels)  # what `msze dataset --corrections` reads
    assert [(e.label, e.text[e.start : e.end]) for e in examples] == [("other", "07.00")] * 2  # two reports
    assert skipped == 1  # the rejected missing 12:00 has no sentence to learn from
    assert "(2 zgł.)" not in moderator.get("/admin/").get_data(as_text=True)  # settled: out of the queue


def test_an_accepted_changed_time_moves_the_mass_and_teaches_both_times(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    visitor = app.test_client()
    report(visitor, pid, "changed", "sun", "10:30", new_time="11:00")
    assert "Msza jest o 11:00" in moderator.get("/admin/").get_data(as_text=True)
    form = {"parish_id": str(pid), "day": "sun", "time": "10:30", "kind": "changed", "decision": "accept"}
    assert post(moderator, "/admin/zgloszenia", form).status_code == 400  # which new time is settled: unsaid
    assert post(moderator, "/admin/zgloszenia", {**form, "new_time": "11:00"}).status_code == 303
    times = jozef_times(visitor, pid)
    assert "sun 11:00" in times and "sun 10:30" not in times and "sun 07:00" in times
    labels = [
        json.loads(line)
        for line in moderator.get("/admin/zgloszenia.jsonl").get_data(as_text=True).split("\n")
        if line
    ]
    assert {(lab["time"], lab["label"]) for lab in labels} == {("10:30", "other"), ("11:00", "mass")}


def test_the_schedule_form_edits_in_the_schedules_terms_and_shows_the_evidence(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    page = moderator.get(f"/admin/parafia/{pid}").get_data(as_text=True)
    assert "Msze św. w niedziele: 07.00, 10.30, 18.00" in page and 'value="Kaplica w Julianowie"' in page
    assert 'name="m0_vigil"' in page and 'name="o0_date"' in page and 'name="c0_days"' in page
    form = {
        "m0_day": "sun", "m0_time": "9.15", "m0_church": "", "m0_season": "07-01..08-31",
        "m1_day": "sat", "m1_time": "18:00", "m1_vigil": "1",
        "m2_day": "fri", "m2_time": "17:00",
        "m3_day": "mon", "m3_time": "25:00",  # a bad row: named, nothing saved
        "o0_date": "2026-12-24", "o0_time": "22:00", "o0_note": "Pasterka",
        "c0_days": ["sat", "sun"], "c0_start": "17:00", "c0_end": "17:45",
    }  # fmt: skip
    bad = post(moderator, f"/admin/parafia/{pid}", form, page=f"/admin/parafia/{pid}")
    assert bad.status_code == 400 and "Msza 4" in bad.get_data(as_text=True)
    assert "sun 07:00" in jozef_times(moderator, pid)
    del form["m3_time"]
    assert post(moderator, f"/admin/parafia/{pid}", form, page=f"/admin/parafia/{pid}").status_code == 303
    detail = moderator.get(f"/api/parishes/{pid}").get_json()
    by_time = {t["time"]: t for t in detail["times"]}
    assert sorted(by_time) == ["09:15", "17:00", "18:00"]
    assert by_time["09:15"]["season"] == "07-01..08-31" and by_time["18:00"]["vigil"] is True
    assert "monthly" not in by_time["17:00"]  # a weekly Mass: no flag of another concept
    parish_page = moderator.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "Pasterka" in parish_page and "17:00–17:45" in parish_page


def test_a_verified_first_friday_mass_recurs_once_a_month_everywhere(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    page = f"/admin/parafia/{pid}"
    assert 'name="r0_week"' in moderator.get(page).get_data(as_text=True)
    bad = post(moderator, page, {"r0_week": "5", "r0_day": "fri", "r0_time": "16:30"}, page=page)
    assert bad.status_code == 400 and "Msza raz w miesiącu 1" in bad.get_data(as_text=True)
    form = {"m0_day": "sun", "m0_time": "10:30", "r0_week": "1", "r0_day": "fri", "r0_time": "16.30"}
    assert post(moderator, page, form, page=page).status_code == 303
    assert jozef_times(moderator, pid) == ["sun 10:30"]  # not a weekly Friday Mass
    assert "w pierwszy piątek miesiąca" in moderator.get(f"/parafia/{pid}").get_data(as_text=True)
    again = moderator.get(page).get_data(as_text=True)  # the form starts from the saved recurrence
    assert re.search(r'name="r0_week".*?<option value="1" selected>pierwszy', again, re.S)
    assert 'name="r0_time" value="16:30"' in again

    def fridays(day: str) -> list[str]:
        url = f"/api/masses?near=51.7795,19.4497&radius=2&from={day}T08:00&to={day}T23:00"
        return [m["start"] for m in moderator.get(url).get_json()["masses"]]

    assert fridays("2026-12-04") == ["2026-12-04T16:30:00+01:00"]  # the first Friday of December
    assert fridays("2026-12-11") == [] and fridays("2026-12-18") == []
    assert fridays("2027-02-05") == ["2027-02-05T16:30:00+01:00"]  # (1 January is a holiday: Sunday times)
    feed = moderator.get(f"/parafia/{pid}.ics").get_data(as_text=True)
    assert "RRULE:FREQ=MONTHLY;BYDAY=1FR" in feed
    assert "BYDAY=FR" not in feed.replace("BYDAY=1FR", "")  # no weekly Friday rule beside it


def with_monthly(crawled_at: str, time: str) -> list[dict]:
    """The fixture's results, Józef's page also reading a first-Friday Mass at `time`."""
    lines = results(crawled_at)
    context = f"W pierwsze piątki miesiąca o {time.replace(':', '.')}"
    evidence = [{"url": "http://www.jozef-lodz.pl/porzadek-mszy", "context": context, "source": "rules"}]
    lines[0]["monthly"] = [{"week": 1, "days": ["fri"], "time": time, "note": context, "evidence": evidence}]
    return lines


def test_the_crawls_monthly_masses_start_the_form_and_their_differences_are_reviewed(
    engine, app, moderator, ids, tmp_path
):
    pid = ids["Świętego Józefa"]
    page = f"/admin/parafia/{pid}"
    load(
        engine,
        results_path=write_results(tmp_path / "a.jsonl", with_monthly("2026-11-25T08:00:00Z", "16:30")),
    )
    form_page = moderator.get(page).get_data(as_text=True)  # not verified yet: the crawl's reading
    assert re.search(r'name="r0_week".*?<option value="1" selected>pierwszy', form_page, re.S)
    assert 'name="r0_time" value="16:30"' in form_page and 'name="r1_time" value=""' in form_page
    form = {"m0_day": "sun", "m0_time": "10:30", "r0_week": "1", "r0_day": "fri", "r0_time": "16:30"}
    assert post(moderator, page, form, page=page).status_code == 303

    newer = write_results(tmp_path / "b.jsonl", with_monthly("2026-11-30T08:00:00Z", "17:00"))
    assert load(engine, results_path=newer, now=NOW).verified_queued == 1
    queue = moderator.get("/admin/").get_data(as_text=True)
    assert "dodano <b>w pierwszy piątek miesiąca 17:00</b>" in queue
    assert "usunięto <b>w pierwszy piątek miesiąca 16:30</b>" in queue
    shown = moderator.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "w pierwszy piątek miesiąca: <b>16:30</b>" in shown  # the verified one stays published
    item = re.findall(r'action="/admin/przeglad/(\d+)"', queue)[0]
    assert post(moderator, f"/admin/przeglad/{item}", {"decision": "accept"}).status_code == 303
    shown = moderator.get(f"/parafia/{pid}").get_data(as_text=True)
    assert "w pierwszy piątek miesiąca: <b>17:00</b>" in shown and "<b>16:30</b>" not in shown
    same = write_results(tmp_path / "c.jsonl", with_monthly("2026-11-30T09:00:00Z", "17:00"))
    assert load(engine, results_path=same, now=NOW).verified_queued == 0  # read as verified: no review


def test_a_load_that_disagrees_queues_the_parish_and_leaves_the_published_schedule(
    engine, app, moderator, ids, tmp_path
):
    pid = ids["Świętego Józefa"]
    page = f"/admin/parafia/{pid}"
    form = {
        "m0_day": "sun",
        "m0_time": "07:00",
        "m1_day": "sun",
        "m1_time": "10:30",
        "m2_day": "sun",
        "m2_time": "18:00",
    }
    assert post(moderator, page, form, page=page).status_code == 303
    published = jozef_times(moderator, pid)
    assert published == ["sun 07:00", "sun 10:30", "sun 18:00"]

    newer = write_results(
        tmp_path / "newer.jsonl", results("2026-11-30T08:00:00Z", ("08:00", "10:30", "18:00"))
    )
    report_ = load(engine, results_path=newer, now=NOW)
    assert report_.verified_queued == 1
    assert jozef_times(moderator, pid) == published  # the crawl never overwrites a verified schedule
    queue = moderator.get("/admin/").get_data(as_text=True)
    assert "dodano <b>Niedziela 08:00</b>" in queue and "usunięto <b>Niedziela 07:00</b>" in queue
    assert "Msze św. w niedziele: 08.00, 10.30, 18.00" in queue  # the new evidence
    again = load(
        engine,
        results_path=write_results(
            tmp_path / "same.jsonl", results("2026-11-30T09:00:00Z", ("08:00", "10:30", "18:00"))
        ),
        now=NOW,
    )
    assert again.verified_queued == 1
    item = re.findall(r'action="/admin/przeglad/(\d+)"', moderator.get("/admin/").get_data(as_text=True))
    assert len(set(item)) == 1  # the older disagreement is superseded: one item per parish

    assert post(moderator, f"/admin/przeglad/{item[0]}", {"decision": "keep"}).status_code == 303
    assert jozef_times(moderator, pid) == published
    assert "/admin/przeglad/" not in moderator.get("/admin/").get_data(as_text=True)
    kept = results("2026-11-30T09:30:00Z", ("08:00", "10:30", "18:00"))  # the difference kept just now
    assert (
        load(engine, results_path=write_results(tmp_path / "kept.jsonl", kept), now=NOW).verified_queued == 0
    )

    load(
        engine,
        results_path=write_results(
            tmp_path / "n3.jsonl", results("2026-11-30T10:00:00Z", ("08:00", "10:30", "19:00"))
        ),
        now=NOW,
    )
    item = re.findall(r'action="/admin/przeglad/(\d+)"', moderator.get("/admin/").get_data(as_text=True))[0]
    assert post(moderator, f"/admin/przeglad/{item}", {"decision": "accept"}).status_code == 303
    assert "sun 08:00" in jozef_times(moderator, pid) and "sun 07:00" not in jozef_times(moderator, pid)
    assert post(moderator, f"/admin/przeglad/{item}", {"decision": "accept"}).status_code == 400  # settled
    assert moderator.get(f"/api/parishes/{pid}").get_json()["crawled_at"] == "2026-11-20T08:00:00Z"
    assert post(moderator, f"{page}/wycofaj", page=page).status_code == 303  # the latest crawl, published
    detail = moderator.get(f"/api/parishes/{pid}").get_json()
    assert detail["verified"] is None and detail["crawled_at"] == "2026-11-30T10:00:00Z"
    assert "sun 08:00" in jozef_times(moderator, pid)


def test_a_time_of_no_known_day_must_be_given_its_day_before_the_form_saves(engine, app, moderator, ids):
    pid = ids["Matki Bożej Różańcowej"]  # its 06:30 was read without a day
    page = moderator.get(f"/admin/parafia/{pid}").get_data(as_text=True)
    row = re.search(r'<select name="(m\d+)_day"[^>]*><option value="" selected>— dzień\? —</option>', page)
    assert row is not None
    form = dict(re.findall(r'name="(m\d+_(?:time|church))" value="([^"]*)"', page))
    chosen = r'name="m(\d+)_day"[^>]*>(?:<option[^>]*>[^<]*</option>)*?<option value="(\w+)" selected'
    form |= {f"m{i}_day": day for i, day in re.findall(chosen, page)}
    answer = post(moderator, f"/admin/parafia/{pid}", form, page=f"/admin/parafia/{pid}")
    assert answer.status_code == 400 and "podaj dzień" in answer.get_data(as_text=True)
    assert moderator.get(f"/api/parishes/{pid}").get_json()["verified"] is None  # nothing was saved
    form[f"{row.group(1)}_day"] = "mon"
    assert post(moderator, f"/admin/parafia/{pid}", form, page=f"/admin/parafia/{pid}").status_code == 303
    assert "mon 06:30" in jozef_times(moderator, pid)


def test_every_change_is_audited_exportable_and_can_be_undone(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    crawl = jozef_times(moderator, pid)
    page = f"/admin/parafia/{pid}"
    assert post(moderator, page, {"m0_day": "sun", "m0_time": "11:00"}, page=page).status_code == 303
    assert post(moderator, page, {"m0_day": "sun", "m0_time": "12:00"}, page=page).status_code == 303
    log = [
        json.loads(line)
        for line in moderator.get(f"{page}/dziennik.jsonl").get_data(as_text=True).splitlines()
    ]
    assert [e["action"] for e in log] == ["edit", "edit"] and {e["username"] for e in log} == {"anna"}
    assert log[1]["before"] is None and log[0]["before"]["masses"][0]["time"] == "11:00"
    assert log[0]["after"]["masses"][0]["time"] == "12:00"
    assert post(moderator, f"{page}/cofnij", {"entry": str(log[0]["id"])}, page=page).status_code == 303
    assert jozef_times(moderator, pid) == ["sun 11:00"]
    assert post(moderator, f"{page}/cofnij", {"entry": str(log[1]["id"])}, page=page).status_code == 303
    assert jozef_times(moderator, pid) == crawl  # back to the crawl's reading, its evidence with it
    assert moderator.get(f"/api/parishes/{pid}").get_json()["verified"] is None
    assert "odczytał program" in moderator.get(f"/parafia/{pid}").get_data(as_text=True)
    with engine.connect() as conn:
        assert len(conn.execute(select(audit_log)).all()) == 4


def test_a_first_save_that_meets_another_is_run_again_as_an_edit_of_it(
    engine, app, moderator, ids, monkeypatch, caplog
):
    """Two first saves of one parish at once: the later one read "no verified schedule" before the other
    committed, so its insert meets the other's row. It is run again as an edit, not a server error."""
    pid = ids["Świętego Józefa"]
    page = f"/admin/parafia/{pid}"
    assert post(moderator, page, {"m0_day": "sun", "m0_time": "11:00"}, page=page).status_code == 303
    real, stale = verified.verified_row, []

    def read_before_the_other_committed(conn, parish_id):
        if sys._getframe(1).f_code.co_name == "save" and not stale:
            stale.append(parish_id)
            return None
        return real(conn, parish_id)

    monkeypatch.setattr(verified, "verified_row", read_before_the_other_committed)
    with caplog.at_level(logging.INFO, logger="msze.search.db"):
        assert post(moderator, page, {"m0_day": "sun", "m0_time": "12:00"}, page=page).status_code == 303
    assert stale == [pid] and "save met a concurrent write" in caplog.text
    assert jozef_times(moderator, pid) == ["sun 12:00"]
    with engine.connect() as conn:
        entries = conn.execute(select(audit_log).order_by(audit_log.c.id)).all()
    assert [e.action for e in entries] == ["edit", "edit"]
    assert json.loads(entries[1].before)["masses"][0]["time"] == "11:00"  # an edit of the first save


# --- invites and parish editors -----------------------------------------------------------------------------


def issue_invite(moderator, pid: int) -> str:
    page = post(moderator, f"/admin/parafia/{pid}/zaproszenie", page=f"/admin/parafia/{pid}")
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    return re.search(r"/zaproszenie#kod=([A-Za-z0-9_-]+)", page.get_data(as_text=True)).group(1)


def accept(client, code: str, name: str, password: str = ED_PASSWORD):
    token = csrf(client, "/zaproszenie")
    return client.post(
        "/zaproszenie", data={"csrf_token": token, "code": code, "username": name, "password": password}
    )


def test_an_invite_is_single_use_expiring_and_stored_as_a_hash(engine, app, moderator, ids):
    pid = ids["Świętego Józefa"]
    code = issue_invite(moderator, pid)
    with engine.connect() as conn:
        stored = conn.execute(select(invites.c.token_hash)).scalar_one()
    assert code not in stored and stored == accounts.sha256(code)
    editor = app.test_client()
    joined = accept(editor, code, "kancelaria")
    assert joined.status_code == 303 and joined.headers["Location"] == f"/admin/parafia/{pid}"
    assert editor.get(f"/admin/parafia/{pid}").status_code == 200
    again = accept(app.test_client(), code, "ktos-inny")
    assert again.status_code == 400 and "nieważne" in again.get_data(as_text=True)

    old = issue_invite(moderator, pid)
    expired = create_app(engine=engine, config={"NOW": NOW + timedelta(days=15)}).test_client()
    assert accept(expired, old, "spozniony").status_code == 400
    with engine.connect() as conn:
        assert conn.execute(select(users.c.id).where(users.c.username == "spozniony")).first() is None


def test_an_editor_of_one_parish_cannot_read_or_change_another(engine, app, moderator, ids, tmp_path):
    a, b = ids["Świętego Józefa"], ids["Matki Bożej Różańcowej"]
    editor = app.test_client()
    assert accept(editor, issue_invite(moderator, a), "kancelaria").status_code == 303
    report(app.test_client(), b, "wrong", "sun", "08:00")
    post(moderator, f"/admin/parafia/{b}", {"m0_day": "sun", "m0_time": "08:00"}, page=f"/admin/parafia/{b}")
    load(engine, results_path=write_results(tmp_path / "n.jsonl", results("2026-11-30T08:00:00Z")), now=NOW)
    b_item = re.findall(r'action="/admin/przeglad/(\d+)"', moderator.get("/admin/").get_data(as_text=True))[0]
    b_entry = (
        moderator.get(f"/admin/parafia/{b}/dziennik.jsonl")
        .get_data(as_text=True)
        .split('"id": ')[1]
        .split(",")[0]
    )

    queue = editor.get("/admin/").get_data(as_text=True)
    assert "Różańcowej" not in queue  # B's reports and review items are not shown
    assert editor.get(f"/admin/parafia/{b}").status_code == 403  # by id
    assert editor.get(f"/admin/parafia/{b}/dziennik.jsonl").status_code == 403
    page = f"/admin/parafia/{a}"
    assert (
        post(editor, f"/admin/parafia/{b}", {"m0_day": "sun", "m0_time": "06:00"}, page=page).status_code
        == 403
    )
    form = {"parish_id": str(b), "day": "sun", "time": "08:00", "kind": "wrong", "decision": "accept"}
    assert post(editor, "/admin/zgloszenia", form).status_code == 403  # by form field
    assert post(editor, f"/admin/przeglad/{b_item}", {"decision": "accept"}).status_code == 403
    assert post(editor, f"/admin/parafia/{a}/cofnij", {"entry": b_entry}, page=page).status_code == 404
    assert post(editor, f"/admin/parafia/{b}/wycofaj", page=page).status_code == 403
    assert post(editor, f"/admin/parafia/{a}/zaproszenie", page=page).status_code == 403  # moderators only
    assert editor.get("/admin/zgloszenia.jsonl").status_code == 403
    assert editor.get("/admin/dziennik.jsonl").status_code == 403
    assert jozef_times(editor, b) == ["sun 08:00"]  # B as the moderator left it

    assert post(editor, page, {"m0_day": "sun", "m0_time": "10:30"}, page=page).status_code == 303
    detail = editor.get(f"/api/parishes/{a}").get_json()
    assert detail["verified"]["by"] == "editor"
    assert "potwierdzone przez parafię" in editor.get(f"/parafia/{a}").get_data(as_text=True)


def test_no_password_or_hash_in_logs_or_exports(engine, app, moderator, ids, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    pid = ids["Świętego Józefa"]
    code = issue_invite(moderator, pid)
    editor = app.test_client()
    accept(editor, code, "kancelaria")
    login(app.test_client(), "anna", "zle-haslo-xyz-999")
    post(editor, f"/admin/parafia/{pid}", {"m0_day": "sun", "m0_time": "10:30"}, page=f"/admin/parafia/{pid}")
    with engine.connect() as conn:
        hashes = [h for (h,) in conn.execute(select(users.c.password_hash))]
    exports = "".join(
        moderator.get(path).get_data(as_text=True)
        for path in (
            "/admin/dziennik.jsonl",
            f"/admin/parafia/{pid}/dziennik.jsonl",
            "/admin/zgloszenia.jsonl",
        )
    )
    from msze.search import cli

    parser = __import__("argparse").ArgumentParser()
    cli.add_arguments(parser)
    cli.run(parser.parse_args(["corrections", "--db", engine.url.render_as_string(hide_password=False)]))
    written = caplog.text + exports + capsys.readouterr().out
    assert "kancelaria" in exports  # the audit export names who
    for secret in (MOD_PASSWORD, ED_PASSWORD, "zle-haslo-xyz-999", code, *hashes, "$argon2"):
        assert secret not in written


# --- the form as a pure function ----------------------------------------------------------------------------


def test_the_form_keeps_good_rows_and_names_bad_ones():
    from werkzeug.datastructures import MultiDict

    form = MultiDict([("m0_day", "sun"), ("m0_time", "7.30"), ("m1_day", "xyz"), ("m1_time", "8:00"),
                      ("m2_day", "mon"), ("m2_time", ""), ("m3_day", "sun"), ("m3_time", "9:00"),
                      ("m3_season", "pory deszczowe"), ("m4_day", "tue"), ("m4_time", "6:00"),
                      ("m4_vigil", "1"),  # only a Saturday's Mass is a vigil
                      ("c0_start", "17:00"), ("c0_days", "sat"), ("c0_days", "nie-dzien")])  # fmt: skip
    schedule, problems = schedule_form.parse(form)
    assert [(m["day"], m["time"], m["vigil"]) for m in schedule["masses"]] == [
        ("sun", "07:30", False),
        ("tue", "06:00", False),
    ]
    assert len(problems) == 2 and problems[0].startswith("Msza 2") and problems[1].startswith("Msza 4")
    assert schedule["confession"] == [
        {"days": ["sat"], "start": "17:00", "end": None, "church": None, "season": None}
    ]


FIELD_NAMES = r"[moc][0-9]{1,2}_(time|day|season|start|end|vigil|date|note|church|start_date)"


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.from_regex(FIELD_NAMES, fullmatch=True), st.text(max_size=20), max_size=12))
def test_any_form_gives_a_valid_schedule_or_names_its_rows(fields):
    from werkzeug.datastructures import MultiDict

    schedule, problems = schedule_form.parse(MultiDict(fields))
    for mass in schedule["masses"]:
        assert re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", mass["time"]) and mass["day"] in schedule_form.DAYS
    row_key = r"[mo](0|[1-9]\d*)_time|c(0|[1-9]\d*)_start"  # "m01_time" is no row of the form
    rows = sum(1 for key, value in fields.items() if re.fullmatch(row_key, key) and value.strip())
    assert (
        len(schedule["masses"]) + len(schedule["one_off"]) + len(schedule["confession"]) + len(problems)
        == rows
    )
