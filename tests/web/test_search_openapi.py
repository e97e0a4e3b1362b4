"""The OpenAPI document (msze/search/openapi.json, completed at runtime) against the app it describes: it
parses, every path it documents is a route with that method, every API route is documented, every `$ref`
resolves, and what it says a parameter accepts the API does accept."""

from __future__ import annotations

import json
import re

import pytest
from search_fixtures import load_database

from msze.search import params
from msze.search.app import create_app
from msze.search.db import DAYS
from msze.search.openapi import SPEC_FILE, openapi_document

UNDOCUMENTED = {"api.openapi"}  # the document does not describe itself


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(load_database(tmp_path_factory.mktemp("openapi")), config={"TESTING": True})


@pytest.fixture(scope="module")
def spec(app) -> dict:
    return app.test_client().get("/api/openapi.json").get_json()


def routes(app) -> dict[str, tuple[str, set[str]]]:
    """URL rule in OpenAPI's spelling ("/api/parishes/{id}") -> (endpoint, methods)."""
    found = {}
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:\w+:)?(\w+)>", "{}", rule.rule)
        found[path] = (rule.endpoint, {method.lower() for method in rule.methods})
    return found


def test_the_file_is_json_and_openapi_3_1():
    data = json.loads(SPEC_FILE.read_text(encoding="utf-8"))
    assert data["openapi"] == "3.1.0" and data["info"]["title"] and data["paths"]
    assert "servers" not in data  # the server is the deployment's BASE_URL, added at runtime


def test_every_documented_path_is_a_route_with_that_method(app, spec):
    known = routes(app)
    for path, operations in spec["paths"].items():
        rule = re.sub(r"\{\w+\}", "{}", path)
        assert rule in known, path
        assert set(operations) <= known[rule][1], path


def test_every_api_route_is_documented(app, spec):
    documented = {re.sub(r"\{\w+\}", "{}", path) for path in spec["paths"]}
    api_routes = {path for path, (endpoint, _) in routes(app).items() if endpoint.startswith("api.")}
    assert api_routes, "the api Blueprint has routes"
    missing = {path for path in api_routes - documented if routes(app)[path][0] not in UNDOCUMENTED}
    assert not missing


def test_path_parameters_match_the_template(spec):
    for path, operations in spec["paths"].items():
        in_path = set(re.findall(r"\{(\w+)\}", path))
        for operation in operations.values():
            declared = {p["name"] for p in operation.get("parameters", []) if p["in"] == "path"}
            assert declared == in_path, path


def test_every_ref_resolves(spec):
    def refs(node):
        if isinstance(node, dict):
            if "$ref" in node:
                yield node["$ref"]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    found = list(refs(spec))
    assert found
    for ref in found:
        target = spec
        for part in ref.removeprefix("#/").split("/"):
            target = target[part]
        assert isinstance(target, dict), ref


def test_runtime_values_come_from_the_code(spec):
    parameters = {p["name"]: p for p in spec["paths"]["/api/parishes"]["get"]["parameters"]}
    assert parameters["per_page"]["schema"]["maximum"] == params.MAX_PER_PAGE
    assert parameters["per_page"]["schema"]["default"] == params.DEFAULT_PER_PAGE
    assert spec["components"]["schemas"]["MassTime"]["properties"]["day"]["enum"][:-1] == list(DAYS)
    csv_names = {p["name"] for p in spec["paths"]["/eksport.csv"]["get"]["parameters"]}
    assert csv_names == set(parameters) - {"page", "per_page"}
    assert openapi_document("https://msze.example.org")["servers"] == [{"url": "https://msze.example.org"}]


def test_documented_values_are_accepted(app, spec):
    client = app.test_client()
    parameters = {p["name"]: p for p in spec["paths"]["/api/parishes"]["get"]["parameters"]}
    for day in parameters["day"]["schema"]["enum"]:
        assert client.get(f"/api/parishes?day={day}").status_code == 200, day
    for name in ("from", "to"):
        example = parameters[name]["schema"]["example"]
        assert client.get(f"/api/parishes?{name}={example}").status_code == 200, name
    per_page = parameters["per_page"]["schema"]
    assert client.get(f"/api/parishes?per_page={per_page['maximum']}").status_code == 200
    assert client.get(f"/api/parishes?page={parameters['page']['schema']['minimum'] - 1}").status_code == 400
    assert (
        client.get("/eksport.csv?day=niedziela").mimetype
        in spec["paths"]["/eksport.csv"]["get"]["responses"]["200"]["content"]
    )
