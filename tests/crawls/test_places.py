"""directory.places_api (queries, both flavours' JSON, outcomes) and `scrapy crawl places` against the fake.

The crawl tests serve testing.places_server on 127.0.0.1:0 with a directory of the first parishes of the
thesis's deon.fixed.tsv (read by path, GPL-3.0 data; skipped when the file is absent) and run `scrapy crawl`
as a subprocess.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, proxy_env

from msze.directory.deon_parser import PARISH_COLUMNS, parish_key, read_records, write_tsv
from msze.directory.places_api import (
    AMBIGUOUS,
    BAD_REQUEST,
    FOUND,
    INVALID_KEY,
    NOT_FOUND,
    OK,
    QUOTA,
    TRANSIENT,
    ZERO,
    ChurchCap,
    Place,
    church_records,
    lookup_key,
    outcome,
    parse_legacy_details,
    parse_legacy_search,
    parse_new_search,
    place_record,
    queries_for,
    read_results,
    redact,
    street_of,
)
from msze.items import PlaceItem
from msze.testing.deon_site import DEFAULT_TSV, sample_rows
from msze.testing.places_server import VALID_KEY, FakePlaces, directory_for
from msze.testing.sample import SAMPLE_TSV

PARISH = {
    "name": "Św. Wojciecha",
    "city": "Dębina",
    "address": ["Św. Wojciecha", "ul. Kościelna 5", "62-001 Dębina", "woj. wielkopolskie"],
}


# --- pure functions -------------------------------------------------------------------------------------


def test_queries_full_then_fallback():
    assert street_of(PARISH) == "ul. Kościelna 5"
    assert queries_for(PARISH) == ["Św. Wojciecha ul. Kościelna 5 Dębina", "Św. Wojciecha Dębina"]


def test_village_address_counts_as_street_and_no_street_means_one_query():
    village = {"name": "Św. Anny", "city": "Lipka", "address": "Św. Anny|Lipka 12|77-400 Lipka"}
    assert queries_for(village) == ["Św. Anny Lipka 12 Lipka", "Św. Anny Lipka"]
    bare = {
        "name": "Chrystusa Króla",
        "city": "Ostrów",
        "address": ["Chrystusa Króla", "Ostrów", "woj. łódzkie"],
    }
    assert queries_for(bare) == ["Chrystusa Króla Ostrów"]


def test_outcomes():
    one, two = Place("a"), Place("b")
    assert (outcome([one]), outcome([one, two]), outcome([])) == (OK, AMBIGUOUS, NOT_FOUND)


def test_new_api_shapes():
    body = json.dumps(
        {
            "places": [
                {
                    "id": "P1",
                    "displayName": {"text": "Parafia Św. Wojciecha", "languageCode": "pl"},
                    "formattedAddress": "Kościelna 5, 62-001 Dębina, Polska",
                    "websiteUri": "https://wojciech.example/",
                },
                {"id": "P2", "displayName": {"text": "Kościół"}},
            ]
        }
    )
    answer = parse_new_search(200, body)
    assert answer.kind == FOUND
    assert [p.place_id for p in answer.places] == ["P1", "P2"]
    assert answer.places[0].website == "https://wojciech.example/"
    assert answer.places[1].website == ""
    assert parse_new_search(200, "{}").kind == ZERO
    assert parse_new_search(200, "<html>oops</html>").kind == TRANSIENT


@pytest.mark.parametrize(
    ("status", "error", "kind"),
    [
        (429, {"code": 429, "status": "RESOURCE_EXHAUSTED", "message": "Quota exceeded"}, QUOTA),
        (403, {"code": 403, "status": "PERMISSION_DENIED", "message": "blocked"}, INVALID_KEY),
        (
            400,
            {"code": 400, "status": "INVALID_ARGUMENT", "message": "API key not valid. Please pass..."},
            INVALID_KEY,
        ),
        (
            400,
            {"code": 400, "status": "INVALID_ARGUMENT", "message": "FieldMask is a required parameter"},
            BAD_REQUEST,
        ),
        (503, {"code": 503, "status": "UNAVAILABLE", "message": "try again"}, TRANSIENT),
    ],
)
def test_new_api_errors(status, error, kind):
    answer = parse_new_search(status, json.dumps({"error": error}))
    assert answer.kind == kind
    assert answer.message == error["message"]


@pytest.mark.parametrize(
    ("api_status", "kind"),
    [
        ("ZERO_RESULTS", ZERO),
        ("OVER_QUERY_LIMIT", QUOTA),
        ("REQUEST_DENIED", INVALID_KEY),
        ("UNKNOWN_ERROR", TRANSIENT),
        ("INVALID_REQUEST", BAD_REQUEST),
    ],
)
def test_legacy_statuses(api_status, kind):
    body = json.dumps({"results": [], "status": api_status, "error_message": "x"})
    assert parse_legacy_search(200, body).kind == kind


def test_legacy_search_and_details():
    body = {"results": [{"place_id": "A", "name": "Parafia", "formatted_address": "Dębina"}], "status": "OK"}
    answer = parse_legacy_search(200, json.dumps(body))
    assert answer.kind == FOUND and answer.places[0].place_id == "A" and answer.places[0].website is None
    assert (answer.places[0].lat, answer.places[0].lng) == (None, None)
    body["results"][0]["geometry"] = {"location": {"lat": 52.2297, "lng": 21.0122}}
    assert parse_legacy_search(200, json.dumps(body)).places[0].lat == 52.2297


def test_coordinates_of_the_new_api_and_what_is_no_coordinate():
    place = {"id": "A", "location": {"latitude": 50.06, "longitude": 19.94}}
    [found] = parse_new_search(200, json.dumps({"places": [place]})).places
    assert (found.lat, found.lng) == (50.06, 19.94)
    for bad in ({"latitude": "50", "longitude": 19.9}, {"latitude": 91, "longitude": 19.9}, "x"):
        [odd] = parse_new_search(200, json.dumps({"places": [{"id": "A", "location": bad}]})).places
        assert odd.lat is None
    record = place_record(PARISH, [found], "", "q")
    assert (record["lat"], record["lng"]) == (50.06, 19.94)
    assert parse_legacy_details(200, '{"result": {"website": "http://w.example/"}, "status": "OK"}') == (
        parse_legacy_details(200, '{"result": {}, "status": "OK"}')[0],
        "http://w.example/",
    )
    assert parse_legacy_details(200, '{"result": {}, "status": "OK"}')[1] == ""


def test_place_record_and_redact():
    record = place_record(PARISH, [Place("P1"), Place("P2")], "http://w.example/", "q")
    assert (
        record["status"] == AMBIGUOUS and record["place_id"] == "P1" and record["url"] == "http://w.example/"
    )
    assert record["address"] == PARISH["address"] and record["query"] == "q"
    assert redact("GET /x?key=SeCrEt&q=1", "SeCrEt") == "GET /x?key=<GOOGLE_MAPS_API_KEY>&q=1"


def test_fake_answers_classify_as_the_real_ones():
    fake = FakePlaces(
        {"Św. Wojciecha Dębina": [{"id": "P1", "name": "P", "address": "", "website": ""}]},
        blocked_keys=["blocked"],
        quota=1,
    )
    body = json.dumps({"textQuery": "Św. Wojciecha Dębina"}).encode()
    mask = "places.id,places.websiteUri"
    assert parse_new_search(*_encoded(fake.answer_new("blocked", mask, body))).kind == INVALID_KEY
    assert parse_new_search(*_encoded(fake.answer_new("nope", mask, body))).kind == INVALID_KEY
    assert parse_new_search(*_encoded(fake.answer_new(VALID_KEY, "", body))).kind == BAD_REQUEST
    found = parse_new_search(*_encoded(fake.answer_new(VALID_KEY, mask, body)))
    assert found.kind == FOUND and found.places[0].name == ""  # displayName was not in the field mask
    assert parse_new_search(*_encoded(fake.answer_new(VALID_KEY, mask, body))).kind == QUOTA
    legacy = fake.answer_legacy_search({"query": "x", "key": "nope"})
    assert parse_legacy_search(200, json.dumps(legacy)).kind == INVALID_KEY


def _encoded(answer: tuple[int, dict[str, Any]]) -> tuple[int, str]:
    return answer[0], json.dumps(answer[1])


# --- crawls against the fake ------------------------------------------------------------------------------

# the thesis's rows where ../shared has them, else the bundled sample of invented parishes
ROWS = DEFAULT_TSV if DEFAULT_TSV.is_file() else SAMPLE_TSV

FAST = (
    "LOG_LEVEL=DEBUG",
    "TELNETCONSOLE_ENABLED=False",
    "BACKOFF_MAX_WAIT=0.05",
    "BACKOFF_REPEAT_LIMIT=2",
    "DOWNLOAD_TIMEOUT=5",
)


@dataclass
class Run:
    returncode: int
    log: str
    stats: dict[str, Any]
    tsv: list[dict[str, Any]]
    jsonl: list[dict[str, Any]]


def outputs(tmp_path: Path) -> tuple[Path, Path, Path]:
    return tmp_path / "places.tsv", tmp_path / "places.jsonl", tmp_path / "stats.json"


def places_command(
    tmp_path: Path,
    fake: FakePlaces,
    parishes: Path,
    *settings: str,
    key: str = VALID_KEY,
    api: str = "new",
    given: str = "parishes",
) -> tuple[list[str], dict[str, str]]:
    """`scrapy crawl places` against the fake, appending to tmp_path/places.{tsv,jsonl}, and its env."""
    out_tsv, out_jsonl, stats_file = outputs(tmp_path)
    command = [sys.executable, "-m", "scrapy", "crawl", "places", "-a", f"{given}={parishes}"]
    command += ["-o", f"{out_tsv}:tsv", "-o", f"{out_jsonl}:jsonl"]
    for setting in (
        *FAST,
        f"PLACES_API={api}",
        f"PLACES_NEW_URL={fake.new_url}",
        f"PLACES_LEGACY_TEXTSEARCH_URL={fake.legacy_search_url}",
        f"PLACES_LEGACY_DETAILS_URL={fake.legacy_details_url}",
        f"STATS_FILE={stats_file}",
        *settings,
    ):
        command += ["-s", setting]
    env = proxy_env(None)
    env["GOOGLE_MAPS_API_KEY"] = key
    return command, env


def crawl_places(tmp_path: Path, fake: FakePlaces, parishes: Path, *settings: str, **options: str) -> Run:
    """places_command (its `key`, `api` and `given` options too) run to the end, and its outputs read."""
    out_tsv, out_jsonl, stats_file = outputs(tmp_path)
    stats_file.unlink(missing_ok=True)
    command, env = places_command(tmp_path, fake, parishes, *settings, **options)
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    stats = json.loads(stats_file.read_text(encoding="utf-8")) if stats_file.is_file() else {}
    tsv = list(read_records(out_tsv)) if out_tsv.is_file() else []
    jsonl = list(read_records(out_jsonl)) if out_jsonl.is_file() else []
    return Run(done.returncode, done.stderr + done.stdout, stats, tsv, jsonl)


@pytest.fixture(scope="module")
def sample() -> tuple[list[dict[str, Any]], dict[str, list[dict[str, str]]], list[dict[str, Any]]]:
    rows = sample_rows(ROWS, 20, with_missing_cell=False)
    directory, expected = directory_for(rows)
    return rows, directory, expected


@pytest.fixture
def parishes_file(tmp_path, sample) -> Path:
    path = tmp_path / "parishes.tsv"
    write_tsv(path, sample[0], PARISH_COLUMNS)
    return path


def assert_resolved(records: list[dict[str, Any]], expected: list[dict[str, Any]], with_query: bool) -> None:
    by_key = {parish_key(r): r for r in records}
    assert len(by_key) == len(records) == len(expected)
    for want in expected:
        got = by_key[parish_key(want["row"])]
        assert (got["status"], got["url"], got["place_id"]) == (want["status"], want["url"], want["place_id"])
        for field in ("name", "city", "address", "diocese", "decanate", "voivodeship"):
            assert got[field] == want["row"][field]
        if want["place_id"]:  # the place's coordinates, in Poland (TSV cells are text, JSONL numbers)
            assert 49.0 <= float(got["lat"]) <= 54.8 and 14.1 <= float(got["lng"]) <= 24.1
        else:
            assert got["lat"] in (None, "") and got["lng"] in (None, "")
        if with_query:
            assert got["query"] == want["query"]


@pytest.mark.parametrize("api", ["new", "legacy"])
def test_places_resolves_sample_with_fallback_and_outcomes(tmp_path, sample, parishes_file, api):
    rows, directory, expected = sample
    secret = VALID_KEY
    if api == "legacy":  # the deon JSONL works as input too
        parishes_file = tmp_path / "parishes.jsonl"
        parishes_file.write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
        )
    with FakePlaces(directory, key=secret) as fake:
        run = crawl_places(tmp_path, fake, parishes_file, api=api)
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["finish_reason"] == "finished"
    assert_resolved(run.jsonl, expected, with_query=True)
    # Every PlaceItem field except deon_url (a TSV input has none) is in every item.
    assert all(set(r) == set(PlaceItem.fields) - {"deon_url"} for r in run.jsonl)
    assert_resolved(run.tsv, expected, with_query=False)
    counts = {s: sum(1 for e in expected if e["status"] == s) for s in (OK, AMBIGUOUS, NOT_FOUND)}
    for status, count in counts.items():
        assert run.stats.get(f"msze/places/status/{status}", 0) == count
    # Fallback "name city" asked exactly for the parishes not found by "name street city".
    fallbacks = [
        e
        for e in expected
        if len(queries_for(e["row"])) > 1
        and (e["status"] == NOT_FOUND or e["query"] != queries_for(e["row"])[0])
    ]
    assert any(e["status"] == OK and e["query"] == queries_for(e["row"])[1] for e in fallbacks)
    assert run.stats["msze/places/fallback_queries"] == len(fallbacks)
    searches = [r for r in fake.requests if r["path"] != "/maps/api/place/details/json"]
    assert len(searches) == len(rows) + len(fallbacks)
    if api == "legacy":
        details = [r for r in fake.requests if r["path"] == "/maps/api/place/details/json"]
        assert len(details) == counts[OK] + counts[AMBIGUOUS]
    assert secret not in run.log  # DEBUG logs every legacy URL, which carries ?key=...: redacted
    if api == "legacy":
        assert "key=<GOOGLE_MAPS_API_KEY>" in run.log


@pytest.mark.parametrize("api", ["new", "legacy"])
def test_quota_stops_cleanly_and_rerun_resumes(tmp_path, sample, parishes_file, api):
    rows, directory, expected = sample
    with FakePlaces(directory, quota=8) as fake:
        first = crawl_places(tmp_path, fake, parishes_file, api=api)
    assert first.returncode == 0, first.log[-3000:]
    assert first.stats["finish_reason"] == "quota_exhausted"
    assert first.log.count("Places quota exhausted") == 1
    assert "Run the same command again later" in first.log
    if api == "new":  # HTTP 429: ExponentialBackoffMiddleware retried, gave up, and passed the 429 on
        assert first.stats["msze/backoff/retries"] >= 1 and first.stats["msze/backoff/gave_up"] >= 1
    else:  # OVER_QUERY_LIMIT comes as HTTP 200: the spider backs off itself
        assert first.stats["msze/places/backoff_retries"] >= 1
    assert 0 < len(first.tsv) < len(rows)
    assert [parish_key(r) for r in first.tsv] == [parish_key(r) for r in first.jsonl]
    with FakePlaces(directory) as fake:
        second = crawl_places(tmp_path, fake, parishes_file, api=api)
    assert second.returncode == 0, second.log[-3000:]
    assert second.stats["finish_reason"] == "finished"
    assert second.stats["msze/places/skipped_done"] == len(first.tsv)
    assert f"Resuming: {len(first.tsv)} parishes" in second.log
    # Only the parishes missing from the first run were asked for the second time.
    done_queries = {q for r in first.jsonl for q in queries_for(r)}
    asked = {r["query"] for r in fake.requests if r.get("query")}
    assert not asked & done_queries
    assert_resolved(second.tsv, expected, with_query=False)
    assert_resolved(second.jsonl, expected, with_query=True)
    assert (tmp_path / "places.tsv").read_text(encoding="utf-8").count("Parafia\t") == 1  # one header


@pytest.mark.parametrize(
    ("api", "key", "blocked", "message"),
    [
        ("new", "wrong-key-123", (), "API key not valid"),
        ("legacy", "wrong-key-789", (), "The provided API key is invalid"),
    ],
)
def test_invalid_key_stops_at_first_request(tmp_path, sample, parishes_file, api, key, blocked, message):
    _, directory, _ = sample
    with FakePlaces(directory, blocked_keys=blocked) as fake:
        run = crawl_places(tmp_path, fake, parishes_file, key=key, api=api)
    assert run.returncode == 2, run.log[-3000:]
    assert run.stats["finish_reason"] == "invalid_api_key"
    assert len(fake.requests) == 1
    assert message in run.log and "GOOGLE_MAPS_API_KEY" in run.log
    assert key not in run.log
    assert run.tsv == [] and run.jsonl == []


def test_transient_503_is_retried_by_the_backoff_middleware(tmp_path, sample, parishes_file):
    _, directory, expected = sample
    with FakePlaces(directory, unavailable=1) as fake:
        run = crawl_places(tmp_path, fake, parishes_file)
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["msze/backoff/retries"] == 1 and run.stats["msze/backoff/reason/http_503"] == 1
    assert_resolved(run.jsonl, expected, with_query=True)


def test_killed_run_loses_nothing_and_rerun_completes(tmp_path, sample, parishes_file):
    _, directory, expected = sample
    out_tsv, out_jsonl, _ = outputs(tmp_path)
    with FakePlaces(directory, delay=0.15) as fake:
        command, env = places_command(tmp_path, fake, parishes_file, "CONCURRENT_REQUESTS=1")
        process = subprocess.Popen(
            command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                if out_jsonl.is_file() and out_jsonl.read_text(encoding="utf-8").count("\n") >= 4:
                    break
                time.sleep(0.05)
            process.send_signal(signal.SIGKILL)  # no clean shutdown: only the per-item flushes saved anything
        finally:
            process.wait(timeout=30)
    killed_tsv, killed_jsonl = list(read_records(out_tsv)), list(read_records(out_jsonl))
    assert 4 <= len(killed_jsonl) < len(expected)
    assert [parish_key(r) for r in killed_tsv] == [parish_key(r) for r in killed_jsonl]
    with FakePlaces(directory) as fake:
        run = crawl_places(tmp_path, fake, parishes_file)
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["msze/places/skipped_done"] == len(killed_jsonl)
    assert_resolved(run.jsonl, expected, with_query=True)
    assert_resolved(run.tsv, expected, with_query=False)


CHURCHES = [
    {"name": "Kaplica w Borkach", "address": "ul. Leśna 5, 62-010 Borki", "url": "http://p.test/msze"},
    {"name": "Kaplica w Woli", "address": "Wola 12", "url": "http://p.test/msze"},
    {"name": "Kaplica w Lesie", "address": "ul. Nieznana 1", "url": "http://p.test/msze"},
]


def test_church_queries_fall_back_to_the_address_alone():
    [borki, *_] = church_records([{"start_url": "http://p.test/", "churches": CHURCHES}])
    assert borki["church"] == "Kaplica w Borkach" and borki["start_url"] == "http://p.test/"
    assert queries_for(borki) == ["Kaplica w Borkach ul. Leśna 5, 62-010 Borki", "ul. Leśna 5, 62-010 Borki"]
    assert list(church_records([{"start_url": "http://p.test/", "churches": None}])) == []
    bad: list[str] = []
    hostile = [{"start_url": "http://p.test/", "churches": "x"}, {"churches": [7, None, {"name": 3}]}]
    assert list(church_records(hostile, bad.append)) == []
    assert bad == ["a church is int, not an object", "a church is NoneType, not an object",
                   "church 3: its name or address is no string"]  # fmt: skip
    # the same chapel name and street in two parishes: two lookups
    other = [*church_records([{"start_url": "http://q.test/", "churches": CHURCHES[:1]}])]
    assert lookup_key(borki) != lookup_key(other[0]) and lookup_key(borki)[0] == "http://p.test/"


DEEP = "[" * 100_000 + "]" * 100_000  # json.loads raises RecursionError, no ValueError
BAD_LINES = [
    (DEEP, "JSON nested deeper than the parser allows"),
    ('{"start_url": "http://p.test/", "churches": [', "not JSON"),
    ("[1, 2]", "a JSON list, not an object"),
    ('"x"', "a JSON str, not an object"),
    ('{"start_url": 5}', "start_url is int, not a string"),
    ('{"churches": []}', "start_url is NoneType, not a string"),
    ('{"start_url": "http://p.test/", "churches": {"name": "x"}}', "churches is dict, not a list"),
]


def test_each_bad_results_line_is_told_and_the_lines_after_it_are_read():
    good = {"start_url": "http://p.test/", "churches": CHURCHES}
    lines = [json.dumps(good), "", *(line for line, _ in BAD_LINES), json.dumps(good) + "\n"]
    bad: list[tuple[int, str]] = []
    got = list(read_results(lines, lambda number, why: bad.append((number, why))))
    assert got == [(1, good), (len(lines), good)]
    assert [n for n, _ in bad] == list(range(3, 3 + len(BAD_LINES)))
    assert all(why.startswith(want) for (_, why), (_, want) in zip(bad, BAD_LINES, strict=True))


def test_the_church_cap_keeps_the_first_churches_of_each_parish():
    cap = ChurchCap(2)
    p = [*church_records([{"start_url": "http://p.test/", "churches": CHURCHES}])]
    q = [*church_records([{"start_url": "http://q.test/", "churches": CHURCHES}])]
    assert [cap.admits(r) for r in (p[0], q[0], p[1], p[2], p[0], q[1], p[2])] == [
        True, True, True, False, True, True, False]  # fmt: skip
    assert cap.cut == {"http://p.test/": 2}
    assert all(ChurchCap(0).admits(r) for r in p) and ChurchCap(1).admits({"name": "a parish"})


@pytest.mark.parametrize("api", ["new", "legacy"])
def test_a_parish_s_other_churches_are_located_by_their_addresses(tmp_path, api):
    results = tmp_path / "results.jsonl"
    lines = [{"start_url": "http://p.test/", "churches": CHURCHES}, {"start_url": "http://q.test/"}]
    results.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    place = {"name": "Kaplica", "address": "", "website": "", "lat": 52.1, "lng": 17.2}
    directory = {
        "Kaplica w Borkach ul. Leśna 5, 62-010 Borki": [{**place, "id": "B"}],
        "Wola 12": [{**place, "id": "W", "lat": 52.3}],  # found by the address alone
    }
    with FakePlaces(directory) as fake:
        run = crawl_places(tmp_path, fake, results, api=api, given="churches")
        asked = [r.get("query") for r in fake.requests]
        paths = {r["path"] for r in fake.requests}
        again = crawl_places(tmp_path, fake, results, api=api, given="churches")
    assert run.returncode == 0, run.log[-3000:]
    for records in (run.jsonl, run.tsv):
        got = {r["church"]: (r["status"], r["place_id"], r["lat"] and float(r["lat"])) for r in records}
        assert got == {"Kaplica w Borkach": (OK, "B", 52.1), "Kaplica w Woli": (OK, "W", 52.3),
                       "Kaplica w Lesie": (NOT_FOUND, "", None if records is run.jsonl else "")}  # fmt: skip
        assert {r["start_url"] for r in records} == {"http://p.test/"}
    assert "Kaplica w Lesie" not in asked  # never the name alone
    assert not any("details" in path for path in paths)  # no website asked for a church
    assert again.stats.get("msze/places/skipped_done") == 3 and len(again.jsonl) == 3


def test_bad_lines_of_the_results_are_skipped_and_every_later_church_is_looked_up(tmp_path):
    results = tmp_path / "results.jsonl"
    first = {"start_url": "http://p.test/", "churches": CHURCHES[:1]}
    mixed = {"start_url": "http://q.test/", "churches": [{"name": ["x"], "address": "Wola 1"}, CHURCHES[1]]}
    lines = [json.dumps(first), *(line for line, _ in BAD_LINES), json.dumps(mixed, ensure_ascii=False)]
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    place = {"name": "Kaplica", "address": "", "website": "", "lat": 52.1, "lng": 17.2}
    directory = {
        "Kaplica w Borkach ul. Leśna 5, 62-010 Borki": [{**place, "id": "B"}],
        "Kaplica w Woli Wola 12": [{**place, "id": "W"}],
    }
    with FakePlaces(directory) as fake:
        run = crawl_places(tmp_path, fake, results, given="churches")
    assert run.returncode == 0, run.log[-3000:]
    assert run.stats["finish_reason"] == "finished"  # not start_error
    assert {(r["start_url"], r["church"], r["place_id"]) for r in run.jsonl} == {
        ("http://p.test/", "Kaplica w Borkach", "B"),
        ("http://q.test/", "Kaplica w Woli", "W"),  # after every bad line
    }
    assert run.stats["msze/places/bad_lines"] == len(BAD_LINES)
    assert run.stats["msze/places/bad_churches"] == 1
    for number, (_, why) in enumerate(BAD_LINES, 2):
        assert f"{results} line {number}: line skipped: {why}" in run.log
    assert f"{results} line {len(lines)}: church skipped: church ['x']: its name or address" in run.log
    assert "Traceback" not in run.log


def test_a_parish_s_churches_beyond_the_cap_are_not_looked_up(tmp_path):
    results = tmp_path / "results.jsonl"
    chapels = [{"name": f"Kaplica {i}", "address": f"ul. Polna {i}"} for i in range(25)]
    lines = [
        {"start_url": "http://wielka.test/", "churches": chapels},
        {"start_url": "http://mala.test/", "churches": chapels[:2]},
    ]
    results.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    with FakePlaces({}) as fake:
        run = crawl_places(tmp_path, fake, results, given="churches")
        asked = len(fake.requests)
        again = crawl_places(tmp_path, fake, results, given="churches")
        asked_again = len(fake.requests) - asked
        (tmp_path / "one").mkdir()
        one = crawl_places(
            tmp_path / "one", fake, results, "PLACES_MAX_CHURCHES_PER_PARISH=1", given="churches"
        )
    assert run.returncode == 0, run.log[-3000:]
    # PLACES_MAX_CHURCHES_PER_PARISH's default: the first 20 of the big parish, both of the small one
    got = [(r["start_url"], r["church"]) for r in run.jsonl]
    assert sorted(got) == sorted(
        [("http://wielka.test/", f"Kaplica {i}") for i in range(20)]
        + [("http://mala.test/", f"Kaplica {i}") for i in range(2)]
    )
    assert asked == 2 * 22  # "name address", then the address alone: nothing is found
    assert run.stats["msze/places/churches_over_cap"] == 5
    assert run.stats["msze/places/parishes_over_cap"] == 1
    assert run.log.count("http://wielka.test/ lists more than PLACES_MAX_CHURCHES_PER_PARISH=20") == 1
    # a resumed run counts the churches done toward the cap: the same 20, none asked again
    assert again.stats["msze/places/skipped_done"] == 22 and asked_again == 0
    assert again.stats["msze/places/churches_over_cap"] == 5
    assert [r["church"] for r in one.jsonl] == ["Kaplica 0", "Kaplica 0"]  # the setting: one per parish
    assert one.stats["msze/places/churches_over_cap"] == 24 + 1


def test_missing_key_or_input_is_a_clear_error(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GOOGLE_MAPS_API_KEY"}
    parishes = tmp_path / "p.tsv"
    write_tsv(parishes, [PARISH], PARISH_COLUMNS)
    command = [sys.executable, "-m", "scrapy", "crawl", "places", "-s", "TELNETCONSOLE_ENABLED=False"]
    done = subprocess.run(
        [*command, "-a", f"parishes={parishes}"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2  # a usage error, before the crawl starts
    assert "places: set the API key in the environment variable GOOGLE_MAPS_API_KEY" in done.stderr
    assert "Traceback" not in done.stderr
    env["GOOGLE_MAPS_API_KEY"] = "k"
    done = subprocess.run(
        [*command, "-a", "parishes=/nonexistent.tsv"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "places: parishes file not found: /nonexistent.tsv" in done.stderr
