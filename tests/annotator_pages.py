"""Hand-written parish-page snippets and JSONL builders for the annotator tests (no real page text)."""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import func, select
from werkzeug.serving import make_server

from msze.annotator.cli import make_server as make_waitress
from msze.annotator.db import assignments, events, hours, transaction

CONTEXT_CHARS = 40

SCHEDULE_URL = "https://parafia-sw-jana.example.pl/porzadek-mszy"
SCHEDULE_TEXT = (
    "Parafia pw. św. Jana Chrzciciela w Dąbrówce\n\n"
    "Porządek Mszy świętych\n"
    "Niedziele i święta: 7:00, 9:30, 11:00, 18:00\n"
    "Dni powszednie: 7:00, 18:00\n\n"
    "Kancelaria parafialna czynna we wtorki 16:00–17:30.\n"
    "Spowiedź pół godziny przed każdą Mszą św."
)
# (hour as written, occurrence, label, source): the first four are the rule extractor's (gold) hours.
SCHEDULE_HOURS = [
    ("7:00", 0, "mass", "rules"),
    ("9:30", 0, "mass", "rules"),
    ("11:00", 0, "mass", "rules"),
    ("18:00", 0, "mass", "rules"),
    ("7:00", 1, "mass", "classifier"),
    ("18:00", 1, "mass", "classifier"),
    ("16:00", 0, "other", "classifier"),
    ("17:30", 0, "other", "classifier"),
]

NEWS_URL = "https://parafia-mb.example.pl/ogloszenia?id=3"
NEWS_TEXT = (
    "Ogłoszenia duszpasterskie, XV niedziela zwykła\n"
    "1. W czwartek Msza św. o 18.oo zostaje odwołana z powodu rekolekcji kapłanów.\n"
    "2. Nabożeństwo majowe codziennie o 19:00 <script>alert('x')</script> przy kapliczce.\n"
    "3. Różaniec o 17:30, po nim Msza św. o 8:15 w kaplicy <b>bocznej</b>."
)
NEWS_HOURS = [
    ("18.oo", 0, "other", "classifier"),
    ("19:00", 0, "other", "classifier"),
    ("17:30", 0, "other", "classifier"),
    ("8:15", 0, "mass", "classifier"),
]


def _time(written: str) -> str:
    hh, mm = written.replace(".", ":").split(":")
    return f"{int(hh):02d}:{mm.replace('o', '0')}"


def hour_dicts(text: str, spec: list[tuple[str, int, str, str]]) -> list[dict]:
    """Hour dicts as the pipelines write them (PageItem["hours"]) for the given hours of `text`."""
    out = []
    for written, occurrence, label, source in spec:
        start = -1
        for _ in range(occurrence + 1):
            start = text.index(written, start + 1)
        end = start + len(written)
        cstart = max(0, start - CONTEXT_CHARS)
        context = text[cstart : end + CONTEXT_CHARS]
        out.append(
            {
                "text": written,
                "time": _time(written),
                "start": start,
                "end": end,
                "context": context,
                "context_start": cstart,
                "label": label,
                "score": 1.0 if source == "rules" else 0.5,
                "source": source,
                "day": None,
            }
        )
    return out


def page_item(url: str, text: str, spec: list[tuple[str, int, str, str]]) -> dict:
    hours = hour_dicts(text, spec)
    masses = sorted({h["time"] for h in hours if h["label"] == "mass"})
    return {"url": url, "domain": url.split("/")[2], "text": text, "hours": hours, "masses": masses}


def extract_line(path: str, text: str, spec: list[tuple[str, int, str, str]]) -> dict:
    """A `python -m msze extract` output line: no page text, only the hours with their contexts."""
    hours = hour_dicts(text, spec)
    return {
        "path": path,
        "masses": sorted({h["time"] for h in hours if h["label"] == "mass"}),
        "hours": hours,
    }


def write_jsonl(path: Path, objects: list[dict]) -> Path:
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objects), encoding="utf-8")
    return path


def pages_jsonl(path: Path) -> Path:
    """Both pages as crawl output (12 candidates, 4 of them gold)."""
    return write_jsonl(
        path,
        [page_item(SCHEDULE_URL, SCHEDULE_TEXT, SCHEDULE_HOURS), page_item(NEWS_URL, NEWS_TEXT, NEWS_HOURS)],
    )


# A generated parish page for the cheater simulations (many hours): 4 rule Mass hours (gold "yes"), 3 hours
# the rules are sure are not a Mass (gold "no": office hours, rosary), 6 unlabelled hours (2 of them Masses).
PARISH_LINES = [
    "Parafia pw. św. Jana Chrzciciela, wspólnota nr {k}",
    "Msze święte w niedziele: 7:00, 9:30, 11:00, 18:00",
    "W tygodniu o 7:00 i 18:00",
    "Kancelaria parafialna czynna we wtorki 16:00–17:30.",
    "Różaniec codziennie o 17:15",
    "Ognisko parafialne w sobotę o 15:00 w ogrodzie.",
    "Zapraszamy na ognisko o 10:00 i 12:00 przed kościołem.",
    "Autokar na pielgrzymkę odjeżdża o 6:45.",
]
PARISH_HOURS = [
    ("7:00", 0, "mass", "rules"),
    ("9:30", 0, "mass", "rules"),
    ("11:00", 0, "mass", "rules"),
    ("18:00", 0, "mass", "rules"),
    ("7:00", 1, "mass", "classifier"),
    ("18:00", 1, "mass", "classifier"),
    ("16:00", 0, "other", "classifier"),
    ("17:30", 0, "other", "classifier"),
    ("17:15", 0, "other", "classifier"),
    ("15:00", 0, "other", "classifier"),
    ("10:00", 0, "other", "classifier"),
    ("12:00", 0, "other", "classifier"),
    ("6:45", 0, "other", "classifier"),
]


def parish_pages_jsonl(path: Path, n: int) -> Path:
    """`n` generated parish pages as crawl output (13 hours each: 4 gold "yes", 3 gold "no", 6 unlabelled)."""
    return write_jsonl(
        path,
        [
            page_item(f"https://parafia-{k}.example.pl/", "\n".join(PARISH_LINES).format(k=k), PARISH_HOURS)
            for k in range(n)
        ],
    )


CSRF_RE = re.compile(r'<meta name="csrf-token" content="([^"]+)">')


@contextmanager
def serve(app) -> Iterator[str]:
    """The app on a threaded werkzeug server at 127.0.0.1 (free port), for clients that are real HTTP."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        thread.join(10)


@contextmanager
def serve_waitress(app) -> Iterator[str]:
    """The app on waitress (what `annotator serve` runs) at 127.0.0.1 (free port)."""
    server = make_waitress(app, "127.0.0.1", 0, threads=2)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        server.close()
        thread.join(10)


class Device:
    """One browser against the Flask test client: its own cookie jar, CSRF token and screen facts."""

    def __init__(
        self, app, ip: str = "10.0.0.1", screen: dict | None = None, user_agent: str = "TestPhone/1.0"
    ):
        self.client = app.test_client()
        self.environ = {"REMOTE_ADDR": ip, "HTTP_USER_AGENT": user_agent, "HTTP_ACCEPT_LANGUAGE": "pl-PL,pl"}
        self.screen = (
            screen if screen is not None else {"sw": 360, "sh": 640, "dpr": 2, "tz": "Europe/Warsaw"}
        )
        page = self.client.get("/", environ_base=self.environ)
        self.csrf = CSRF_RE.search(page.get_data(as_text=True)).group(1)

    def post(self, path: str, payload: dict | None = None, **kwargs):
        body = {"fp": self.screen, **(payload or {})}
        headers = {"X-CSRFToken": self.csrf, **kwargs.pop("headers", {})}
        return self.client.post(path, json=body, headers=headers, environ_base=self.environ, **kwargs)

    def ok(self, path: str, payload: dict | None = None) -> dict:
        response = self.post(path, payload)
        assert response.status_code == 200, (response.status_code, response.get_json())
        return response.get_json()

    def current(self) -> dict:
        return self.ok("/api/current")

    def answer(self, item: int, answer: str) -> dict:
        return self.ok("/api/answer", {"item": item, "answer": answer})

    def undo(self) -> dict:
        return self.ok("/api/undo")


class HttpDevice:
    """A browser over real HTTP: cookie jar, CSRF token from the page."""

    def __init__(self, base: str, width: int, jar: http.cookiejar.CookieJar | None = None) -> None:
        self.base = base
        self.jar = jar if jar is not None else http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        html = self.opener.open(base + "/", timeout=30).read().decode()
        self.csrf = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
        self.screen = {"sw": width, "sh": 640}

    def post(self, path: str, payload: dict | None = None) -> tuple[int, dict]:
        return self.post_raw(path, json.dumps({"fp": self.screen, **(payload or {})}).encode())

    def post_raw(self, path: str, data: bytes | Iterable[bytes]) -> tuple[int, dict]:
        """POST `data` as JSON; an iterable of chunks goes out chunked (no Content-Length)."""
        request = urllib.request.Request(
            self.base + path,
            data=data,
            headers={"Content-Type": "application/json", "X-CSRFToken": self.csrf},
            method="POST",
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            body = exc.read()
            is_json = exc.headers.get_content_type() == "application/json"
            return exc.code, json.loads(body) if is_json else {"text": body.decode("utf-8", "replace")}


def check_parallel_annotators(server: str, engine, n_devices: int, per_device: int) -> None:
    """Devices answer in parallel threads over HTTP; nothing is lost, double-counted or served twice."""

    def annotate(width: int) -> list[int]:
        device = HttpDevice(server, width)
        status, state = device.post("/api/current")
        assert status == 200
        done = []
        for i in range(per_device):
            item = state["item"]["id"]
            status, state = device.post("/api/answer", {"item": item, "answer": "yes" if i % 2 else "no"})
            assert status == 200, state
            done.append(item)
        return done

    with ThreadPoolExecutor(n_devices) as pool:
        results = list(pool.map(annotate, range(1, n_devices + 1)))
    for done in results:
        assert len(set(done)) == per_device  # never the same hour twice to one device
    with transaction(engine) as conn:
        answered = conn.execute(select(func.count()).where(assignments.c.answer.is_not(None))).scalar_one()
        served = conn.execute(select(func.count()).select_from(assignments)).scalar_one()
        counters = conn.execute(select(func.sum(hours.c.n_answers), func.sum(hours.c.n_served))).one()
        per_hour = dict(
            conn.execute(
                select(assignments.c.hour_id, func.count())
                .where(assignments.c.answer.is_not(None))
                .group_by(assignments.c.hour_id)
            ).all()
        )
        n_events = conn.execute(select(func.count()).select_from(events)).scalar_one()
    assert answered == n_devices * per_device == n_events
    assert served == n_devices * (per_device + 1)  # each device also holds one pending item
    assert tuple(counters) == (answered, served)
    for hour_id, n in per_hour.items():
        with transaction(engine) as conn:
            assert conn.execute(select(hours.c.n_answers).where(hours.c.id == hour_id)).scalar_one() == n


def check_parallel_clicks(server: str, engine) -> None:
    """Eight simultaneous Tak clicks of one device count once; four simultaneous Cofnij undo once."""
    device = HttpDevice(server, 360)
    status, state = device.post("/api/current")
    item = state["item"]["id"]
    with ThreadPoolExecutor(8) as pool:
        statuses = sorted(
            s
            for s, _ in pool.map(
                lambda _: device.post("/api/answer", {"item": item, "answer": "yes"}), range(8)
            )
        )
    assert statuses == [200] + [409] * 7
    with ThreadPoolExecutor(4) as pool:
        undo_statuses = sorted(s for s, _ in pool.map(lambda _: device.post("/api/undo"), range(4)))
    assert undo_statuses == [200, 409, 409, 409]  # one answer to undo, undone exactly once
    with transaction(engine) as conn:
        assert conn.execute(select(hours.c.n_answers).where(hours.c.id == item)).scalar_one() == 0
