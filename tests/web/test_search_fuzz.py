"""Every route of the search app with hostile query strings, paths and forms: never a 5xx.

TESTING is on, so an exception in a view reaches the test instead of becoming a 500 page; Hypothesis then
shrinks it to the smallest request that fails. The values mix arbitrary text, raw bytes (percent-encoded,
so also invalid UTF-8), numbers too large for any column and the characters that broke the app before
("²", Arabic-Indic digits, NUL).
"""

from __future__ import annotations

from urllib.parse import quote, quote_from_bytes

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from search_fixtures import load_database

from msze.search.app import create_app

PARAMETERS = ["q", "city", "diocese", "day", "from", "to", "page", "per_page", "token"]
TRICKY = ["²", "١", "٣", "9" * 5000, "-1", "0", "00", "1e3", " 7 ", "\x00", "%", "18:00", "niedziela,sobota"]
GET_ROUTES = ["/", "/api/parishes", "/eksport.csv", "/api/openapi.json", "/healthz", "/admin/", "/logowanie",
              "/zaproszenie", "/admin/zgloszenia.jsonl", "/static/style.css"]  # fmt: skip
ID_ROUTES = ["/parafia/{}", "/api/parishes/{}", "/parafia/{}/zgloszenie"]

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)
# Every character str.isdigit() accepts (superscripts, circled and Arabic-Indic digits…): int() refuses some
# and reads others, so none of them may reach int() unchecked.
UNICODE_DIGITS = [chr(code) for code in range(0x110000) if chr(code).isdigit() and not chr(code).isascii()]
digits = st.text(
    alphabet=st.sampled_from(UNICODE_DIGITS) | st.sampled_from("0123456789"), min_size=1, max_size=12
)
encoded = st.one_of(
    text.map(lambda value: quote(value, safe="")),
    st.binary(max_size=30).map(quote_from_bytes),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    digits.map(lambda value: quote(value, safe="")),
    st.sampled_from(TRICKY).map(lambda value: quote(value, safe="")),
)
# The integer and time parameters get number-like values more often than the text ones.
numeric = st.one_of(
    digits.map(lambda value: quote(value, safe="")),
    st.sampled_from(TRICKY).map(lambda value: quote(value, safe="")),
    encoded,
)
NUMERIC = ("page", "per_page", "from", "to")
# Each known parameter present or not, plus a few with made-up names.
known = st.fixed_dictionaries(
    {}, optional={name: numeric if name in NUMERIC else encoded for name in PARAMETERS}
)
other = st.lists(st.tuples(text.map(lambda name: quote(name, safe="")), encoded), max_size=3)
query_strings = st.tuples(known, other).map(
    lambda both: "&".join(f"{name}={value}" for name, value in [*both[0].items(), *both[1]])
)
FUZZ = settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = load_database(tmp_path_factory.mktemp("fuzz"))
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "CORRECTIONS_PER_WINDOW": 10**6}
    return create_app(db, config=config).test_client()


@FUZZ
@given(route=st.sampled_from(GET_ROUTES), query=query_strings)
@example(route="/api/parishes", query="page=%C2%B2")  # the attack run's 500s, always tried first
@example(route="/", query="page=" + "9" * 5000)
@example(route="/eksport.csv", query="per_page=%C2%B2")
def test_query_parameters_of_every_route(client, route, query):
    response = client.get(f"{route}?{query}")
    assert response.status_code < 500


@FUZZ
@given(route=st.sampled_from(ID_ROUTES), segment=encoded | st.sampled_from(["1", "2", "3", "4"]))
@example(route="/parafia/{}", segment="99999999999999999999")
def test_parish_ids_in_paths(client, route, segment):
    path = route.format(segment)
    response = client.post(path) if path.endswith("/zgloszenie") else client.get(path)
    assert response.status_code < 500


@FUZZ
@given(
    segment=st.sampled_from(["1", "2", "99999999999999999999", "١"]),
    form=st.dictionaries(st.sampled_from(["kind", "day", "time", "comment", "csrf_token"]), text, max_size=5),
    query=query_strings,
)
def test_correction_form_fields(client, segment, form, query):
    response = client.post(f"/parafia/{quote(segment)}/zgloszenie?{query}", data=form)
    assert response.status_code < 500
