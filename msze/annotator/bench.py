"""`annotator bench`: time the answer endpoint on a throwaway database of real candidates ("fast").

Imports FILES into a temporary SQLite database, then simulated devices answer through the Flask test client
(CSRF, cookies and all), and the latency of each Tak/Nie request (answer + serving the next hour) is reported.
"""

from __future__ import annotations

import re
import statistics
import tempfile
import time
from pathlib import Path

from msze.annotator.app import create_app
from msze.annotator.importer import import_file
from msze.annotator.web import ENGINE

_CSRF_RE = re.compile(r'name="csrf-token" content="([^"]+)"')


def run_bench(files: list[Path], n_devices: int, n_answers: int) -> dict:
    """Latency figures (ms) of `n_devices` x `n_answers` sequential answers."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"ANNOTATOR_DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "ANNOTATOR_NEW_DEVICES_PER_IP": 0},
            instance_path=f"{tmp}/instance",
        )
        engine = app.extensions[ENGINE]
        candidates = sum(import_file(engine, path).added for path in files)
        times: list[float] = []
        for k in range(n_devices):
            client = app.test_client()
            csrf = _CSRF_RE.search(client.get("/").get_data(as_text=True)).group(1)
            headers = {"X-CSRFToken": csrf}
            state = client.post("/api/current", json={"fp": {"bench": k}}, headers=headers).get_json()
            for i in range(n_answers):
                if state["item"] is None:
                    break
                answer = "yes" if i % 3 else "no"
                payload = {"fp": {"bench": k}, "item": state["item"]["id"], "answer": answer}
                start = time.perf_counter()
                response = client.post("/api/answer", json=payload, headers=headers)
                times.append(time.perf_counter() - start)
                state = response.get_json()
        engine.dispose()
    times.sort()
    return {
        "candidates": candidates,
        "answers": len(times),
        "median_ms": round(1000 * statistics.median(times), 1) if times else None,
        "p95_ms": round(1000 * times[int(0.95 * (len(times) - 1))], 1) if times else None,
        "max_ms": round(1000 * times[-1], 1) if times else None,
    }
