"""The gateway's OpenAPI schema states the core's own input rules, from the same constants.

A request the schema allows is one the core accepts; a request it forbids is refused before the
core runs (422 invalid_request), and a malformed record id in a path is a 404 like an unknown one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from tests.conftest import FakeClock, sequential_ids
from userlore import ConsentCategory, Userlore
from userlore.config import UserContextConfig
from userlore.memory import MAX_QUERY_CHARS, MAX_RECALL_K
from userlore.server import create_app
from userlore.server.schemas import HTTP_PATH_PATTERN, HTTP_PREFIX_PATTERN, MAX_CONTENT_CHARS
from userlore.validation import (
    IDENTIFIER_PATTERN,
    MAX_ID_CHARS,
    MAX_KEY_CHARS,
    MAX_NAME_CHARS,
    NON_BLANK_PATTERN,
)

TOKEN = "schema-rules-token-" + "7" * 16
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def client() -> Iterator[TestClient]:
    lore = Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto"}}, clock=FakeClock(), ids=sequential_ids()
    )
    try:
        with TestClient(create_app(lore, {TOKEN: {"scope": "rules", "agentId": "t"}})) as c:
            yield c
    finally:
        lore.close()


def _remember(client: TestClient, path: str = "projects/x") -> dict[str, Any]:
    made = client.post(
        "/api/user-context/memories",
        headers=HEADERS,
        json={"content": "Standup is at 9:30.", "path": path, "memoryType": "semantic"},
    )
    assert made.status_code == 200, made.text
    body: dict[str, Any] = made.json()
    return body


def _schema(spec: dict[str, Any], name: str) -> dict[str, Any]:
    schema: dict[str, Any] = spec["components"]["schemas"][name]
    return schema


def _string_of(prop: dict[str, Any]) -> dict[str, Any]:
    """The string branch of a property (optional ones are ``anyOf: [string, null]``)."""
    for branch in prop.get("anyOf", [prop]):
        if branch.get("type") == "string":
            return dict(branch)
    raise AssertionError(f"no string branch in {prop}")


def _param(spec: dict[str, Any], path: str, method: str, name: str) -> dict[str, Any]:
    for param in spec["paths"][path][method]["parameters"]:
        if param["name"] == name:
            return dict(param)
    raise AssertionError(f"{method} {path} has no parameter {name}")


def test_schema_constraints_are_the_cores_constants(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    recall = _schema(spec, "RecallIn")["properties"]
    session_key = _string_of(recall["sessionKey"])
    assert session_key["pattern"] == IDENTIFIER_PATTERN
    assert session_key["maxLength"] == MAX_KEY_CHARS
    assert _string_of(recall["path"])["pattern"] == HTTP_PREFIX_PATTERN
    assert recall["query"]["maxLength"] == MAX_QUERY_CHARS
    assert recall["k"]["maximum"] == MAX_RECALL_K
    assert _string_of(_schema(spec, "PlanIn")["properties"]["sessionKey"]) == session_key
    assert _string_of(_schema(spec, "PurgeIn")["properties"]["pathPrefix"])["pattern"] == (
        HTTP_PREFIX_PATTERN
    )

    remember = _schema(spec, "RememberIn")["properties"]
    assert remember["path"]["pattern"] == HTTP_PATH_PATTERN
    assert remember["content"]["pattern"] == NON_BLANK_PATTERN
    assert remember["content"]["maxLength"] == MAX_CONTENT_CHARS
    assert UserContextConfig().max_content_chars == MAX_CONTENT_CHARS

    record_id = _param(spec, "/api/user-context/memories/{record_id}", "get", "record_id")
    assert record_id["schema"]["pattern"] == IDENTIFIER_PATTERN
    assert record_id["schema"]["maxLength"] == MAX_ID_CHARS
    assert "404" in spec["paths"]["/api/user-context/memories/{record_id}/pin"]["post"]["responses"]

    kind = _string_of(_param(spec, "/api/user-context/memories", "get", "kind")["schema"])
    event = _string_of(_param(spec, "/api/user-context/traces", "get", "eventType")["schema"])
    for name in (kind, event):
        assert name["pattern"] == IDENTIFIER_PATTERN and name["maxLength"] == MAX_NAME_CHARS

    grant = "/api/user-context/consents/{category}/grant"
    category = _param(spec, grant, "post", "category")["schema"]
    assert category["enum"] == sorted(c.value for c in ConsentCategory)


@pytest.mark.parametrize(
    "record_id",
    ["\x0cH\u00be", "a\x1fb", "\u0085x", "   ", "x" * (MAX_ID_CHARS + 1)],
    ids=["form-feed", "unit-separator", "c1-next-line", "blank", "too-long"],
)
def test_a_malformed_record_id_in_a_path_is_404_like_an_unknown_one(
    client: TestClient, record_id: str
) -> None:
    _remember(client)
    encoded = quote(record_id, safe="")
    calls = [
        ("GET", ""),
        ("PATCH", ""),
        ("DELETE", ""),
        ("POST", "/restore"),
        ("GET", "/history"),
        ("GET", "/evidence"),
        ("POST", "/pin"),
        ("POST", "/unpin"),
    ]
    for method, suffix in calls:
        response = client.request(
            method,
            f"/api/user-context/memories/{encoded}{suffix}",
            headers=HEADERS,
            json={"content": "New text."} if method == "PATCH" else None,
        )
        assert response.status_code == 404, (method, suffix, response.text)
        assert response.json()["error"]["code"] == "not_found"
    for action in ("approve", "reject"):
        response = client.post(f"/api/user-context/candidates/{encoded}/{action}", headers=HEADERS)
        assert response.status_code == 404, (action, response.text)


def test_a_well_formed_id_of_the_longest_length_is_looked_up(client: TestClient) -> None:
    response = client.get(f"/api/user-context/memories/{'x' * MAX_ID_CHARS}", headers=HEADERS)
    assert response.status_code == 404
    found = client.get(f"/api/user-context/memories/{_remember(client)['id']}", headers=HEADERS)
    assert found.status_code == 200


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/user-context/memories/recall", "sessionKey"),
        ("/api/user-context/plan", "sessionKey"),
    ],
)
def test_a_session_key_the_core_refuses_is_refused_by_the_schema(
    client: TestClient, url: str, field: str
) -> None:
    for bad in ("a\x07b", " \u3000 ", "k" * (MAX_KEY_CHARS + 1)):
        response = client.post(url, headers=HEADERS, json={"query": "standup", field: bad})
        assert response.status_code == 422, (bad, response.text)
        error = response.json()["error"]
        assert error["code"] == "invalid_request" and field in error["message"]
    longest = client.post(
        url, headers=HEADERS, json={"query": "standup", field: "k" * MAX_KEY_CHARS}
    )
    assert longest.status_code == 200, longest.text


def test_path_filters_follow_the_path_rule(client: TestClient) -> None:
    _remember(client, "projects/x")
    for prefix in ("projects", "//projects/x/", "", "/"):
        listed = client.get(
            "/api/user-context/memories", headers=HEADERS, params={"pathPrefix": prefix}
        )
        assert listed.status_code == 200, (prefix, listed.text)
        recalled = client.post(
            "/api/user-context/memories/recall",
            headers=HEADERS,
            json={"query": "standup", "path": prefix},
        )
        assert recalled.status_code == 200, (prefix, recalled.text)
    assert listed.json()["count"] == 1
    # Surrounding spaces, empty segments and characters outside the rule are schema errors.
    for prefix in (" //  ", "a//b", "\u00af6", "projects/ x", "caf\u00e9"):
        listed = client.get(
            "/api/user-context/memories", headers=HEADERS, params={"pathPrefix": prefix}
        )
        assert listed.status_code == 422, (prefix, listed.text)
        assert listed.json()["error"]["code"] == "invalid_request"
        purged = client.post(
            "/api/user-context/purge", headers=HEADERS, json={"confirm": True, "pathPrefix": prefix}
        )
        assert purged.status_code == 422, (prefix, purged.text)
    assert client.get("/api/user-context/memories", headers=HEADERS).json()["count"] == 1


def test_blank_content_is_a_schema_error_naming_the_field(client: TestClient) -> None:
    response = client.post(
        "/api/user-context/memories",
        headers=HEADERS,
        json={"content": " \t\u2003 ", "path": "projects/x", "memoryType": "semantic"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "invalid_request"
    assert "content" in response.json()["error"]["message"]
    record = _remember(client)
    patched = client.patch(
        f"/api/user-context/memories/{record['id']}", headers=HEADERS, json={"content": "\u3000"}
    )
    assert patched.status_code == 422 and "content" in patched.json()["error"]["message"]
    longest = client.patch(
        f"/api/user-context/memories/{record['id']}",
        headers=HEADERS,
        json={"content": "Standup moved to 10:00. " + "z" * (MAX_CONTENT_CHARS - 24)},
    )
    assert longest.status_code == 200, longest.text


def test_filters_as_long_as_the_core_allows_are_accepted(client: TestClient) -> None:
    name = "n" * MAX_NAME_CHARS
    traces = client.get("/api/user-context/traces", headers=HEADERS, params={"eventType": name})
    assert traces.status_code == 200 and traces.json()["count"] == 0
    listed = client.get("/api/user-context/memories", headers=HEADERS, params={"kind": name})
    assert listed.status_code == 200 and listed.json()["count"] == 0
    for params in ({"eventType": "iU\x1f"}, {"eventType": name + "n"}):
        refused = client.get("/api/user-context/traces", headers=HEADERS, params=params)
        assert refused.status_code == 422, params


def test_every_consent_category_of_the_schema_can_be_granted(client: TestClient) -> None:
    for category in ConsentCategory:
        granted = client.post(f"/api/user-context/consents/{category.value}/grant", headers=HEADERS)
        assert granted.status_code == 200, (category, granted.text)
        assert granted.json()["granted"] is True
