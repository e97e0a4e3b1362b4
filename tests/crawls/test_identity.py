"""A parish is its start URL, end to end: parishes sharing a host, a domain or a machine never get each
other's Mass times, through crawl-all (with WARC and a re-crawl state), `msze process` over the JSONL and the
WARC files, and `search load`; a copied page folder keeps its crawl dates."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import FAST_SETTINGS
from webserver import FixtureWeb, RequestHandler

from msze.search.app import create_app
from msze.search.db import create_schema, make_engine
from msze.search.loader import load
from msze.utils.time import parse_timestamp

ROOT = Path(__file__).resolve().parents[2]
FAST = [arg for setting in (*FAST_SETTINGS, "AUTOTHROTTLE_ENABLED=0") for arg in ("-s", setting)]
PAGE = '<html><head><meta charset="utf-8"><title>{title}</title></head><body>{body}</body></html>\n'
HOME = '<h1>{name}</h1><p>Zapraszamy do naszej parafii.</p><a href="{schedule}">Msze święte</a>'
SCHEDULE = "<h2>Porządek Mszy świętych</h2><p>Niedziele i święta: {times}</p>"

# Four real shapes of the Polish parish web: the parishes of a diocesan portal (one host, told apart by the
# query), parishes on sibling subdomains of one domain, and two sites on ports of one machine (below); plus
# a crawled site that no parish in the directory gives as its website.
PORTAL = {1: ("Parafia św. Anny", "7.00, 10.00"), 2: ("Parafia św. Jana", "8.00, 11.00")}
SUBDOMAINS = {
    "a.dekanat.test": ("Parafia św. Piotra", "7.30, 9.30"),
    "b.dekanat.test": ("Parafia św. Pawła", "8.30, 10.30"),
    "c.dekanat.test": ("Kaplica bez parafii", "6.00"),  # crawled, in no parish's directory row
}
PORTS = (("Parafia św. Marka", "11.30"), ("Parafia św. Łukasza", "12.30"))


def _sunday(times: str) -> set[str]:
    return {f"{int(t.split('.')[0]):02d}:{t.split('.')[1]}" for t in times.split(", ")}


def _portal(handler: RequestHandler, query: str) -> None:
    params = dict(pair.split("=", 1) for pair in query.split("&") if "=" in pair)
    name, times = PORTAL[int(params.get("id", "0"))] if params.get("id", "0") in ("1", "2") else ("?", "")
    if params.get("strona") == "msze":
        body = SCHEDULE.format(times=times)
    else:
        body = HOME.format(name=name, schedule=f"parafia.php?id={params.get('id')}&amp;strona=msze")
    handler.send_body(PAGE.format(title=name, body=body).encode())


def _write_site(root: Path, name: str, times: str) -> None:
    root.mkdir(parents=True)
    (root / "index.html").write_text(
        PAGE.format(title=name, body=HOME.format(name=name, schedule="/msze.html")), encoding="utf-8"
    )
    (root / "msze.html").write_text(
        PAGE.format(title="Msze", body=SCHEDULE.format(times=times)), encoding="utf-8"
    )


@pytest.fixture(scope="module")
def webs(tmp_path_factory) -> Iterator[tuple[FixtureWeb, list[FixtureWeb]]]:
    root = tmp_path_factory.mktemp("sites")
    for host, (name, times) in SUBDOMAINS.items():
        _write_site(root / "shared" / host, name, times)
    (root / "shared" / "diecezja.test").mkdir()
    shared = FixtureWeb(root=root / "shared")
    shared.route("diecezja.test", "/parafia.php", _portal)
    machines = []
    for number, (name, times) in enumerate(PORTS):
        _write_site(root / f"port{number}" / "localhost", name, times)
        machines.append(FixtureWeb(root=root / f"port{number}"))
    with shared, machines[0], machines[1]:
        yield shared, machines


@pytest.fixture(scope="module")
def parishes(webs) -> dict[str, tuple[str, set[str]]]:
    """start URL -> (parish name, its Sunday times) of every parish crawled, the unknown site included."""
    _, machines = webs
    out = {f"http://diecezja.test/parafia.php?id={n}": (name, _sunday(t)) for n, (name, t) in PORTAL.items()}
    out |= {f"http://{host}/": (name, _sunday(t)) for host, (name, t) in SUBDOMAINS.items()}
    out |= {
        f"http://127.0.0.1:{m.port}/": (name, _sunday(t))
        for m, (name, t) in zip(machines, PORTS, strict=True)
    }
    return out


def _env(web: FixtureWeb) -> dict[str, str]:
    env = dict(os.environ, http_proxy=web.proxy, no_proxy="127.0.0.1,localhost", PYTHONPATH=str(ROOT))
    env.pop("https_proxy", None)
    return env


def _msze(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "msze", *args]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=180)


def _results(path: Path) -> dict[str, dict]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_start = {line["start_url"]: line for line in lines}
    assert len(by_start) == len(lines), "a parish has two results lines"
    return by_start


def _sundays(result: dict) -> set[str]:
    return {e["time"] for e in result["schedule"] if "sun" in e["days"]}


def _assert_own_times(results: dict[str, dict], parishes: dict[str, tuple[str, set[str]]]) -> None:
    assert set(results) == set(parishes)
    for start_url, (name, sunday) in parishes.items():
        assert _sundays(results[start_url]) == sunday, f"{name} ({start_url})"


@pytest.fixture(scope="module")
def batch(webs, parishes, tmp_path_factory) -> Path:
    """One crawl-all over every parish, with WARC and a re-crawl state."""
    shared, _ = webs
    work = tmp_path_factory.mktemp("batch")
    (work / "urls.txt").write_text("".join(f"{url}\n" for url in parishes), encoding="utf-8")
    state = work / "state.sqlite"
    args = ["crawl-all", str(work / "urls.txt"), "--out", str(work / "out"), "--jobs", "4", "--warc", *FAST]
    done = _msze(_env(shared), *args, "-s", f"RECRAWL_STATE={state}")
    assert done.returncode == 0, done.stderr[-3000:]
    return work


def test_crawl_all_gives_each_parish_of_a_shared_host_its_own_times(batch, parishes):
    results = _results(batch / "out" / "results.jsonl")
    _assert_own_times(results, parishes)
    pages = [json.loads(line) for f in (batch / "out" / "pages").glob("*.jsonl") for line in f.open()]
    assert all(parse_timestamp(page["crawled_at"]) is not None for page in pages)  # each page's fetch time
    for result in results.values():
        fetched = [parse_timestamp(p["crawled_at"]) for p in pages if p["start_url"] == result["start_url"]]
        assert parse_timestamp(result["crawled_at"]) == max(fetched)


def test_a_rerun_with_the_state_finds_every_parish_unchanged(batch, webs, parishes):
    shared, _ = webs
    again = batch / "again"
    args = ["crawl-all", str(batch / "urls.txt"), "--out", str(again), "--jobs", "4", *FAST]
    done = _msze(_env(shared), *args, "-s", f"RECRAWL_STATE={batch / 'state.sqlite'}")
    assert done.returncode == 0, done.stderr[-3000:]
    stats = [json.loads(f.read_text()) for f in (again / "stats").glob("*.json")]
    assert len(stats) == len(parishes)
    assert all(s.get("msze/recrawl/parishes/unchanged") == 1 for s in stats), stats
    assert not any(s.get("msze/recrawl/parishes/changed") for s in stats)
    _assert_own_times(_results(again / "results.jsonl"), parishes)


@pytest.mark.parametrize("folder", ["pages", "warc"])
def test_process_over_jsonl_and_warc_keeps_the_parishes_apart(batch, webs, parishes, folder):
    shared, _ = webs
    out = batch / f"processed-{folder}"
    state = batch / f"process-{folder}.sqlite"
    command = ["process", str(batch / "out" / folder), "--out", str(out), "--state", str(state)]
    done = _msze(_env(shared), *command)
    assert done.returncode == 0, done.stderr[-3000:]
    results = _results(out / "results.jsonl")
    (out / "results.jsonl").unlink()
    done = _msze(_env(shared), *command)  # the same files again, with the state: nothing changed
    assert done.returncode == 0, done.stderr[-3000:]
    _assert_own_times(results, parishes)
    rerun = _results(out / "results.jsonl")
    assert {r["change"]["status"] for r in rerun.values()} == {"unchanged"}
    assert (out / "results.csv").read_text(encoding="utf-8").count("\n") == len(parishes) + 1


def test_search_load_puts_each_result_on_its_own_parish_and_names_the_unmatched(batch, parishes, tmp_path):
    places = tmp_path / "places.tsv"
    rows = ["Parafia\tMiejscowość\turl\tAdres\tDiecezja\tDekanat\tWojewództwo\tlat\tlng"]
    known = {url: value for url, value in parishes.items() if not url.startswith("http://c.")}
    for number, (url, (name, _)) in enumerate(known.items()):
        rows.append(
            f"{name}\tDębina\t{url}\tul. Kościelna {number}|00-001 Dębina\tx\tx\tx\t50.0{number}\t19.0"
        )
    places.write_text("\n".join(rows) + "\n", encoding="utf-8")
    db = tmp_path / "search.sqlite"
    done = _msze(dict(os.environ), "search", "load", "--places", str(places), "--results",
                 str(batch / "out" / "results.jsonl"), "--db", str(db))  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["results_loaded"] == len(known) and report["results_unmatched"] == 1
    assert "unmatched result http://c.dekanat.test/: no parish has this website" in done.stderr
    app = create_app(str(db), config={"TESTING": True})
    with app.test_client() as client:
        found = client.get("/api/parishes?per_page=50").get_json()["parishes"]
        assert len(found) == len(known)
        for parish in found:
            detail = client.get(f"/api/parishes/{parish['id']}").get_json()
            sunday = {t["time"] for t in detail["times"] if t["day"] == "sun"}
            assert sunday == parishes[detail["website"]][1], detail["name"]


def test_two_parishes_giving_one_website_are_ambiguous_not_guessed(batch, parishes, tmp_path):
    portal = "http://diecezja.test/parafia.php?id=1"
    places = tmp_path / "places.tsv"
    places.write_text(
        "Parafia\tMiejscowość\turl\nParafia św. Anny\tDębina\t"
        + portal
        + "\nParafia NMP\tDębina\t"
        + portal.replace("http://", "HTTP://www.")
        + "#msze\n",
        encoding="utf-8",
    )
    engine = make_engine(tmp_path / "db.sqlite")
    create_schema(engine)
    report = load(engine, places_path=places, results_path=batch / "out" / "results.jsonl")
    assert report.results_loaded == 0 and report.results_ambiguous == 1
    assert report.ambiguous_results == [f"{portal}: Parafia św. Anny (Dębina), Parafia NMP (Dębina)"]


def test_a_copied_page_folder_keeps_its_crawl_dates(batch, webs, parishes, tmp_path):
    shared, _ = webs
    copy = tmp_path / "restored"
    shutil.copytree(batch / "out" / "pages", copy)
    later = time.time() + 86400 * 30
    for path in copy.iterdir():
        os.utime(path, (later, later))  # a restore from backup: every file looks written a month from now
    out = tmp_path / "processed"
    done = _msze(_env(shared), "process", str(copy), "--out", str(out))
    assert done.returncode == 0, done.stderr[-3000:]
    original = _results(batch / "out" / "results.jsonl")
    restored = _results(out / "results.jsonl")
    assert {u: r["crawled_at"] for u, r in restored.items()} == {
        u: r["crawled_at"] for u, r in original.items()
    }

    places = tmp_path / "places.tsv"
    url = "http://a.dekanat.test/"
    places.write_text(f"Parafia\tMiejscowość\turl\n{parishes[url][0]}\tDębina\t{url}\n", encoding="utf-8")
    engine = make_engine(tmp_path / "db.sqlite")
    create_schema(engine)
    load(engine, places_path=places, results_path=out / "results.jsonl")
    crawled = parse_timestamp(restored[url]["crawled_at"])
    for days_later, warned in ((30, False), (91, True)):
        app = create_app(engine=engine, config={"TESTING": True, "NOW": crawled + timedelta(days=days_later)})
        page = app.test_client().get("/parafia/1").get_data(as_text=True)
        assert ("dni temu" in page) is warned, days_later
        if warned:
            assert f"{days_later} dni temu" in page


def test_scrapy_crawl_parish_runs_into_one_folder_keep_every_parish(webs, parishes, tmp_path):
    """The GNU-parallel-by-hand way: one `scrapy crawl parish` per URL, every run into the same PAGES_DIR and
    WARC_DIR. The portal's two parishes and the sibling subdomains each keep their own pages and WARC; none
    truncates another's, and `msze process` over the folder gives each its own times."""
    shared, _ = webs
    portal_and_subdomains = {u: v for u, v in parishes.items() if not u.startswith("http://127.")}
    pages, warcs = tmp_path / "pages", tmp_path / "warc"
    for url in portal_and_subdomains:
        command = [sys.executable, "-m", "scrapy", "crawl", "parish", "-a", f"url={url}", *FAST,
                   "-s", f"PAGES_DIR={pages}", "-s", "WARC_ENABLED=1", "-s", f"WARC_DIR={warcs}"]  # fmt: skip
        done = subprocess.run(
            command, env=_env(shared), cwd=ROOT, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stderr[-3000:]
    assert (
        len(list(pages.glob("*.jsonl"))) == len(list(warcs.glob("*.warc.gz"))) == len(portal_and_subdomains)
    )
    for folder in (pages, warcs):
        out = tmp_path / f"processed-{folder.name}"
        done = _msze(_env(shared), "process", str(folder), "--out", str(out))
        assert done.returncode == 0, done.stderr[-3000:]
        _assert_own_times(_results(out / "results.jsonl"), portal_and_subdomains)
