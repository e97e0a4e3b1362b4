"""Places by name from the directory itself (msze/search/gazetteer.py): towns, districts, streets and
postcodes as the centre of their parishes; the suggestions endpoint and the home page's `place`."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from msze.search.app import create_app
from msze.search.gazetteer import Gazetteer

ROWS = [  # (city, address, voivodeship, lat, lng)
    ("Łódź", "Św. Wojciecha\nul. Lipowa 4\n90-001 Łódź", "łódzkie", 51.76, 19.45),
    ("Łódź", "Św. Rodziny\nul. Polna 9\n90-002 Łódź", "łódzkie", 51.78, 19.47),
    ("Kraków", "Św. Jana\nul. Szkolna 1\n30-001 Kraków", "małopolskie", 50.06, 19.93),
    ("Kraków-Bieńczyce", "Arka Pana\nos. Kalinowe 3/5\n31-001 Kraków", "małopolskie", 50.08, 20.02),
    ("Nowa Wieś", "Św. Anny", "mazowieckie", 52.0, 21.0),
    ("Nowa Wieś", "Św. Jakuba", "pomorskie", 54.0, 18.0),
    ("Bielsko-Biała", "Św. Mikołaja\nul. Lipowa 1\n43-300 Bielsko-Biała", "śląskie", 49.8, 19.0),
    ("Gdzieś", "bez współrzędnych\n99-999 Gdzieś", "lubuskie", None, None),
]


@pytest.fixture(scope="module")
def places():
    return Gazetteer.from_rows(ROWS)


@pytest.mark.parametrize(
    ("typed", "label", "kind", "where", "count"),
    [
        ("Łódź", "Łódź", "town", (51.77, 19.46), 2),  # the centre of its two parishes
        ("lodz", "Łódź", "town", (51.77, 19.46), 2),
        ("90-001", "90-001 Łódź", "postcode", (51.76, 19.45), 1),
        ("90001 Łódź", "90-001 Łódź", "postcode", (51.76, 19.45), 1),
        ("ul. Lipowa 4, Łódź", "ul. Lipowa, Łódź", "street", (51.76, 19.45), 1),
        ("Bieńczyce", "Kraków-Bieńczyce", "district", (50.08, 20.02), 1),
        ("Kraków-Bieńczyce", "Kraków-Bieńczyce", "district", (50.08, 20.02), 1),
        ("KRAKÓW", "Kraków", "town", (50.07, 19.975), 2),  # a district's parish counts for its town
        ("Bielsko-Biała", "Bielsko-Biała", "town", (49.8, 19.0), 1),  # "Bielsko" is no town: not a district
        ("Nowa Wieś (woj. pomorskie)", "Nowa Wieś (woj. pomorskie)", "town", (54.0, 18.0), 1),
    ],
)
def test_a_typed_place_is_the_centre_of_its_parishes(places, typed, label, kind, where, count):
    found = places.find(typed)
    assert (found.label, found.kind, (found.lat, found.lng), found.parishes) == (label, kind, where, count)


@pytest.mark.parametrize("typed", ["Atlantyda", "99-999", "Gdzieś", "", "ul.", "12"])
def test_an_unknown_place_or_one_without_coordinates_is_none(places, typed):
    assert places.find(typed) is None


def test_a_name_in_two_voivodeships_is_told_apart(places):
    assert [p.label for p in places.suggest("nowa")] == [
        "Nowa Wieś (woj. mazowieckie)",
        "Nowa Wieś (woj. pomorskie)",
    ]
    assert places.find("Nowa Wieś").label.startswith("Nowa Wieś (woj.")


def test_suggestions_start_with_what_is_typed_towns_first(places):
    assert [p.label for p in places.suggest("kr")] == ["Kraków", "Kraków-Bieńczyce"]
    assert [p.label for p in places.suggest("lip")] == ["ul. Lipowa, Bielsko-Biała", "ul. Lipowa, Łódź"]
    assert [p.label for p in places.suggest("90-")] == ["90-001 Łódź", "90-002 Łódź"]
    assert places.suggest("k") == []  # one letter is no question yet
    for place in places.suggest("l") + places.suggest("ło") + places.suggest("9"):
        assert places.find(place.label) == place  # a suggestion, submitted, is that place


@given(st.text(max_size=60))
def test_any_text_is_a_place_or_none(text):
    places = Gazetteer.from_rows(ROWS)
    found = places.find(text)
    assert found is None or found.parishes >= 1
    assert len(places.suggest(text)) <= 8


@pytest.fixture(scope="module")
def client():
    app = create_app(config={"TESTING": True, "NOW": datetime(2026, 12, 5, 14, 0, tzinfo=UTC)})  # the demo
    return app.test_client()


def test_the_suggestions_endpoint_answers_json(client):
    body = client.get("/api/miejsca?q=kra").get_json()
    assert body["places"][0]["label"] == "Kraków" and body["places"][0]["kind"] == "miejscowość"
    assert body["places"][0]["parishes"] == 10
    assert client.get("/api/miejsca?q=<script>").get_json() == {"places": []}
    assert client.get("/api/miejsca").get_json() == {"places": []}


def test_the_home_page_takes_a_place_by_name(client):
    page = client.get("/?place=Łódź&when=now")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Najbliższe Msze — Łódź" in text and text.count('<li class="mass">') >= 5
    unknown = client.get("/?place=<b>Atlantyda</b>&when=now")
    assert unknown.status_code == 400
    text = unknown.get_data(as_text=True)
    assert "Nie znamy miejsca &#39;&lt;b&gt;Atlantyda&lt;/b&gt;&#39;" in text and "<b>Atlantyda" not in text
