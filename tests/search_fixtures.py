"""A small results database for the search tests: four parishes made up for the tests (no real page text)."""

from __future__ import annotations

import http.client
import json
import re
import threading
import urllib.parse
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

DEON_TSV = """Parafia\tMiejscowość\tAdres\tDiecezja\tDekanat\tWojewództwo
Świętego Józefa\tŁódź\tŚwiętego Józefa|ul. Ogrodowa 22|91-065 Łódź\tłódzka\tŁódź-Bałuty\tłódzkie
Matki Bożej Różańcowej\tŁódź\tMatki Bożej Różańcowej|ul. Kościelna 5|93-100 Łódź\tłódzka\tŁódź-Górna\tłódzkie
Świętej Trójcy\tOpole\tŚwiętej Trójcy|pl. Katedralny 1|45-005 Opole\topolska\tOpole\topolskie
Ducha Świętego\tZgierz\tDucha Świętego|ul. Długa 3|95-100 Zgierz\tłódzka\tZgierz\tłódzkie
"""

# the places stage's layout (extended.tsv's columns, a named status, then the place's coordinates)
PLACES_TSV = """Parafia\tMiejscowość\turl\tAdres\tDiecezja\tDekanat\tWojewództwo\tplace_id\tstatus\tlat\tlng
Świętego Józefa\tŁódź\thttp://www.jozef-lodz.pl/\tŚwiętego Józefa|ul. Ogrodowa 22|91-065 Łódź\tłódzka\tŁódź-Bałuty\tłódzkie\tP1\tOK\t51.7795\t19.4497
Matki Bożej Różańcowej\tŁódź\thttps://rozaniec.parafie.com.pl/start\tMatki Bożej Różańcowej|ul. Kościelna 5|93-100 Łódź\tłódzka\tŁódź-Górna\tłódzkie\tP2\tOK\t51.7370\t19.4690
Świętej Trójcy\tOpole\thttp://trojca.opole.example/\tŚwiętej Trójcy|pl. Katedralny 1|45-005 Opole\topolska\tOpole\topolskie\tP3\tOK\t50.6675\t17.9253
Ducha Świętego\tZgierz\t\tDucha Świętego|ul. Długa 3|95-100 Zgierz\tłódzka\tZgierz\tłódzkie\t\tNOT_FOUND\t\t
"""  # noqa: E501


def mass(
    time: str, day: str | None, url: str, context: str, source: str = "rules", score: float = 1.0
) -> dict:
    return {"time": time, "day": day, "url": url, "context": context, "source": source, "score": score}


def weekly(
    time: str,
    days: list[str],
    url: str,
    context: str,
    source: str = "rules",
    score: float = 1.0,
    **reading,
) -> dict:
    """A `schedule` entry of results.jsonl (church, season, vigil in `reading`)."""
    evidence = [{"url": url, "context": context, "source": source, "score": score}]
    return (
        {"time": time, "days": days, "church": None, "season": None, "vigil": False}
        | reading
        | {
            "evidence": evidence,
            "pages": 1,
        }
    )


WORKDAYS = ["mon", "tue", "wed", "thu", "fri"]


def results(
    crawled_at: str = "2026-11-20T08:00:00Z", jozef_times: tuple[str, ...] = ("07:00", "10:30", "18:00")
):
    """Batch results: Józef in the consolidated format (a chapel, a vigil, a summer time, a one-off and
    confession), Różańcowa in the first version's (`masses` by day category), one failed crawl, one crawl that
    matches no parish."""
    jozef = "http://www.jozef-lodz.pl/porzadek-mszy"
    sunday_context = "Msze św. w niedziele: " + ", ".join(t.replace(":", ".") for t in jozef_times)
    return [
        {
            "start_url": "http://jozef-lodz.pl/",
            "domain": "jozef-lodz.pl",
            "status": "finished",
            "error": None,
            "pages": 7,
            "bytes": 51234,
            "crawled_at": crawled_at,
            # the first version's field, still written; a loader reads `schedule` when a result has it
            "masses": [
                *(mass(t, "sunday", jozef, sunday_context) for t in jozef_times),
                mass("25:99", "sunday", jozef, ""),
            ],
            "schedule": [
                *(weekly(t, ["sun"], jozef, sunday_context) for t in jozef_times),
                weekly("18:00", WORKDAYS, jozef, "W dni powszednie o godz. 18.00"),
                weekly("7.30", ["sat"], jozef, "Sobota 7.30 <script>alert('x')</script>", "classifier", 0.71),
                weekly("19:00", ["sat"], jozef, "Niedziela: sobota 19.00 (wigilia)", vigil=True),
                weekly(
                    "09:00",
                    ["sun"],
                    jozef,
                    "Kaplica w Julianowie: niedziela 9.00",
                    church="Kaplica w Julianowie",
                ),
                weekly("20:00", ["sun"], jozef, "W wakacje także o 20.00", season="summer"),
                weekly("25:99", ["sun"], jozef, "nie godzina"),
            ],
            "one_off": [
                {
                    "date": "2026-11-26",
                    "time": "11:00",
                    "days": ["thu"],
                    "church": None,
                    "note": "W czwartek o 11.00 Msza św. pogrzebowa",
                    "evidence": [{"url": jozef, "context": "", "source": "rules", "score": 1.0}],
                }
            ],
            "confession": [
                {
                    "days": ["sat"],
                    "start": "17:00",
                    "end": "18:00",
                    "church": None,
                    "season": None,
                    "evidence": [{"url": jozef}],
                }
            ],  # fmt: skip
        },
        {
            # No website has this host: joined by the registered domain of rozaniec.parafie.com.pl.
            "start_url": "https://rozaniec.parafie.com.pl/start",
            "domain": "parafie.com.pl",
            "status": "finished",
            "error": None,
            "pages": 3,
            "bytes": 9000,
            "crawled_at": crawled_at,
            "masses": [
                mass("08:00", "sunday", "https://rozaniec.parafie.com.pl/msze", "Niedziela: 8.00, 19.30"),
                mass("19:30", "sunday", "javascript:alert(1)", "Niedziela: 8.00, 19.30", "classifier", 0.9),
                mass("17:00", "holiday", "https://rozaniec.parafie.com.pl/msze", "W święta zniesione 17.00"),
                mass("06:30", None, "https://rozaniec.parafie.com.pl/msze", "Codziennie 6.30"),
            ],
        },
        {
            "start_url": "http://trojca.opole.example/",
            "domain": "opole.example",
            "status": "failed",
            "error": "DNS lookup failed",
            "pages": 0,
            "bytes": 0,
            "crawled_at": crawled_at,
            "masses": [],
        },
        {
            "start_url": "http://unknown-parish.example/",
            "domain": "unknown-parish.example",
            "status": "finished",
            "error": None,
            "pages": 1,
            "bytes": 100,
            "crawled_at": crawled_at,
            "masses": [mass("09:00", "sunday", "http://unknown-parish.example/", "Msza 9.00")],
        },
    ]


def write_inputs(directory: Path, result_objects: list[dict] | None = None) -> dict[str, Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = {
        "parishes": directory / "deon.tsv",
        "places": directory / "places.tsv",
        "results": directory / "results.jsonl",
    }
    paths["parishes"].write_text(DEON_TSV, encoding="utf-8")
    paths["places"].write_text(PLACES_TSV, encoding="utf-8")
    write_results(paths["results"], result_objects if result_objects is not None else results())
    return paths


def write_results(path: Path, result_objects: list[dict]) -> Path:
    path.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in result_objects), encoding="utf-8"
    )
    return path


def load_database(directory: Path, db_url: str | None = None) -> str:
    """A results database (SQLite file in `directory`, or `db_url`) loaded from the fixture inputs."""
    from msze.search.db import create_schema, make_engine
    from msze.search.loader import load

    db_url = db_url or str(directory / "search.sqlite")
    engine = make_engine(db_url)
    create_schema(engine)
    paths = write_inputs(directory)
    load(engine, paths["parishes"], paths["places"], paths["results"])
    engine.dispose()
    return db_url


@contextmanager
def running(app, threads: int = 8) -> Iterator[str]:
    """`app` behind the waitress server of `search serve`, on 127.0.0.1:0 in a thread; yields its root URL."""
    from msze.search.cli import make_server

    server = make_server(app, "127.0.0.1", 0, threads)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        # Closed inside the server's own loop (its trigger runs the call there): closing it from this thread
        # while the loop is in select() would make that select fail on a closed descriptor.
        server.trigger.pull_trigger(server.close)
        thread.join(10)


def report_session(root: str, parish_id: int) -> tuple[str, str]:
    """(session cookie, CSRF token) of a visitor who opened the parish page: what a report post needs."""
    with urllib.request.urlopen(f"{root}/parafia/{parish_id}", timeout=30) as response:
        cookie = response.headers["Set-Cookie"].split(";", 1)[0]
        page = response.read().decode()
    return cookie, re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def post_reports_at_once(root: str, parish_id: int, count: int) -> list[int]:
    """HTTP statuses of `count` correction reports from one visitor, each on its own connection, all sent at
    the same moment (a barrier releases the threads together)."""
    cookie, token = report_session(root, parish_id)
    body = urllib.parse.urlencode({"csrf_token": token, "kind": "missing", "day": "sunday", "time": "21:00"})
    port = int(root.rsplit(":", 1)[1])
    barrier = threading.Barrier(count)

    def post(_index: int) -> int:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        connection.connect()
        barrier.wait()
        connection.request(
            "POST",
            f"/parafia/{parish_id}/zgloszenie",
            body=body,
            headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie},
        )
        status = connection.getresponse().status
        connection.close()
        return status

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(post, range(count)))
