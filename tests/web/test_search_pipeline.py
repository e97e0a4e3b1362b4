"""The contract chain into the search: extraction -> batch summary -> loader -> API.

Page text is our own, in the style of a parish "porządek Mszy" page.
"""

from __future__ import annotations

from msze.batch import results
from msze.extraction import page as extraction
from msze.extraction.parish import summarize
from msze.search.app import create_app
from msze.search.db import create_schema, make_engine
from msze.search.loader import load

PAGE_TEXT = (
    "Porządek Mszy świętych\n"
    "Niedziele i święta: 7.30, 9.00, 11.00, 18.00\n"
    "Dni powszednie: 7.00 i 18.00\n"
    "Kancelaria parafialna czynna 16.00-17.00"
)


def test_extracted_times_reach_the_api_with_their_page_and_sentence(tmp_path):
    page_url = "https://parafia-wojciech.pl/porzadek-mszy"
    page = {
        "url": page_url,
        "start_url": "https://parafia-wojciech.pl/",
        "domain": "parafia-wojciech.pl",
        "html": "<p>…</p>",
        "text": PAGE_TEXT,
        "hours": extraction.extract(PAGE_TEXT).hours,
    }
    summary = summarize(
        [page], "https://parafia-wojciech.pl/", "parafia-wojciech.pl", crawled_at="2026-11-29T10:00:00Z"
    )
    results_path = tmp_path / "results.jsonl"
    results.append_result(results_path, summary)
    places = tmp_path / "places.tsv"
    places.write_text(
        "Parafia\tMiejscowość\turl\tAdres\tDiecezja\tDekanat\tWojewództwo\n"
        "św. Wojciecha\tGniezno\thttp://www.parafia-wojciech.pl\tul. Kościelna 1|62-200 Gniezno\t"
        "gnieźnieńska\tGniezno\twielkopolskie\n",
        encoding="utf-8",
    )
    engine = make_engine(tmp_path / "search.sqlite")
    create_schema(engine)
    report = load(engine, places_path=places, results_path=results_path)
    assert report.results_loaded == 1 and report.results_unmatched == 0

    client = create_app(str(tmp_path / "search.sqlite")).test_client()
    body = client.get("/api/parishes?city=Gniezno&day=niedziela&from=17:00&to=20:00").get_json()
    assert body["total"] == 1
    [evening] = body["parishes"][0]["times"]
    assert evening["time"] == "18:00" and evening["day"] == "sun"
    assert evening["source_url"] == page_url
    assert "18.00" in evening["context"]
    everything = client.get(f"/api/parishes/{body['parishes'][0]['id']}").get_json()
    assert "16:00" not in {t["time"] for t in everything["times"]}  # office hours are not a Mass
