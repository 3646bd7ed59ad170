"""The About You page's server side without a browser: its endpoints, scope confinement, the
CSRF rule, the page's headers and the "sync now" source registry."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import FakeClock, sequential_ids
from userlore import ConfigError, Userlore
from userlore.server import create_app
from userlore.server.web_api import connect_source, load_source_specs
from userlore.server.web_page import CONTENT_SECURITY_POLICY, CsrfMiddleware
from userlore.sources.adapters import MarkdownVaultAdapter
from userlore.sources.base import PullResult

TOKEN_A = "web-api-token-a-" + "0" * 20
TOKEN_B = "web-api-token-b-" + "1" * 20
GRANTS = {TOKEN_A: {"scope": "alice", "agentId": "page"}, TOKEN_B: "bob"}
A = {"Authorization": f"Bearer {TOKEN_A}"}
B = {"Authorization": f"Bearer {TOKEN_B}"}
CONNECTED: dict[str, Any] = {"sources": ["session", "curated", "connected"]}


@pytest.fixture
def lore(clock: FakeClock) -> Iterator[Userlore]:
    cfg = {"memory": {"mode": "auto", **CONNECTED}}
    with Userlore.open("sqlite://", config=cfg, clock=clock, ids=sequential_ids()) as opened:
        yield opened


@pytest.fixture
def client(lore: Userlore) -> Iterator[TestClient]:
    with TestClient(create_app(lore, GRANTS)) as c:
        yield c


def notes(tmp_path: Path, name: str = "notes", **files: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for file, text in (files or {"a.md": "# A\nThe build uses Bazel."}).items():
        (folder / file).write_text(text)
    return folder


def test_whoami_names_the_tokens_scope_and_the_csrf_contract(client: TestClient) -> None:
    body = client.get("/api/user-context/whoami", headers=A).json()
    assert body == {
        "scope": "alice",
        "agent_id": "page",
        "client": None,
        "csrf_header": "X-Userlore-CSRF",
        "csrf_cookie": "userlore_csrf",
    }
    assert client.get("/api/user-context/whoami").status_code == 401


def test_consent_lists_times_and_what_a_grant_makes_visible(
    client: TestClient, lore: Userlore, clock: FakeClock
) -> None:
    health = lore.memory.remember("alice", "I have asthma.", path="health", memory_type="identity")
    lore.memory.remember("bob", "I have diabetes.", path="health", memory_type="identity")
    before = client.get("/api/user-context/consents", headers=A).json()
    assert before["granted"] == []
    card = next(c for c in before["categories"] if c["category"] == "health")
    assert card["granted"] is False and card["granted_at"] is None and card["visible"] == 1
    assert [(r["id"], r["enters_context"]) for r in card["records"]] == [(health.id, True)]
    assert "diabetes" not in json.dumps(before)  # bob's record stays in bob's scope
    assert {"religion", "biometric", "trade_union"} <= {c["category"] for c in before["categories"]}

    granted = client.post("/api/user-context/consents/health/grant", headers=A).json()
    assert granted["granted"] is True and granted["granted_at"] == "2026-01-05T09:00:00Z"
    plan = client.post("/api/user-context/plan", headers=A, json={"query": "asthma"}).json()
    assert health.id in [s["id"] for s in plan["selected"]]
    clock.advance(hours=1)
    revoked = client.post("/api/user-context/consents/Health/revoke", headers=A).json()
    assert revoked["granted"] is False and revoked["revoked_at"] == "2026-01-05T10:00:00Z"
    assert len(revoked["history"]) == 1
    assert lore.consent.list("bob") == frozenset()
    bad = client.post("/api/user-context/consents/hobbies/grant", headers=A)
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "invalid_input"


def test_pin_and_unpin_stay_in_scope(client: TestClient, lore: Userlore) -> None:
    rid = lore.memory.remember(
        "alice", "Deploys on Tuesdays.", path="ops", memory_type="semantic"
    ).id
    pinned = client.post(f"/api/user-context/memories/{rid}/pin", headers=A).json()
    assert pinned["user_state"] == "pinned"
    assert client.post(f"/api/user-context/memories/{rid}/pin", headers=B).status_code == 404
    assert client.post(f"/api/user-context/memories/{rid}/unpin", headers=B).status_code == 404
    unpinned = client.post(f"/api/user-context/memories/{rid}/unpin", headers=A).json()
    assert unpinned["user_state"] == "auto"


def test_source_cards_and_sync_now(client: TestClient, lore: Userlore, tmp_path: Path) -> None:
    folder = notes(tmp_path)
    adapter = MarkdownVaultAdapter(folder, source_instance_id="notes:a", label="Notes")
    assert client.get("/api/knowledge/sources", headers=A).json() == {"sources": []}
    connect_source(client.app, "alice", adapter)  # type: ignore[arg-type]
    [card] = client.get("/api/knowledge/sources", headers=A).json()["sources"]
    assert (card["items"], card["syncable"], card["latest_run"]) == (0, True, None)
    assert client.get("/api/knowledge/sources", headers=B).json() == {"sources": []}

    first = client.post(
        "/api/knowledge/sources/sync", headers=A, json={"sourceInstanceId": "notes:a"}
    )
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["status"] == "succeeded" and body["counts"]["added"] == 1
    assert body["source"]["items"] == 1 and body["source"]["latest_run"]["status"] == "succeeded"
    assert body["synthesis"]["created"] == 1
    (folder / "b.md").write_text("# B\nStandups are at 10:00.")
    second = client.post(
        "/api/knowledge/sources/sync", headers=A, json={"source_instance_id": "notes:a"}
    ).json()
    assert (second["counts"]["seen"], second["counts"]["added"]) == (1, 1)  # only the new file
    assert second["source"]["items"] == 2

    # another scope can neither sync it nor read its items
    refused = client.post(
        "/api/knowledge/sources/sync", headers=B, json={"sourceInstanceId": "notes:a"}
    )
    assert refused.status_code == 404
    item_id = client.get("/api/knowledge/source-items", headers=A).json()["items"][0]["id"]
    item = client.get(f"/api/knowledge/source-items/{item_id}", headers=A).json()
    assert item["source_instance_id"] == "notes:a" and "lease_owner" not in item
    assert client.get(f"/api/knowledge/source-items/{item_id}", headers=B).status_code == 404
    with pytest.raises(ConfigError, match="another scope"):
        connect_source(client.app, "bob", adapter)  # type: ignore[arg-type]


class _Broken:
    source_instance_id = "broken:1"
    kind = "broken"
    label = "Broken"

    def pull(self, cursor: str | None) -> PullResult:
        raise OSError("upstream unreachable")


def test_a_failed_sync_is_reported_on_the_card(client: TestClient) -> None:
    connect_source(client.app, "alice", _Broken())  # type: ignore[arg-type]
    body = client.post(
        "/api/knowledge/sources/sync", headers=A, json={"sourceInstanceId": "broken:1"}
    ).json()
    assert body["status"] == "failed" and "upstream unreachable" in body["error"]
    assert body["source"]["latest_run"]["status"] == "failed"


def test_sync_now_needs_connected_sources_enabled(make_lore: Any, tmp_path: Path) -> None:
    lore = make_lore("auto")  # memory.sources without "connected"
    with TestClient(create_app(lore, GRANTS)) as c:
        connect_source(
            c.app, "alice", MarkdownVaultAdapter(notes(tmp_path), source_instance_id="n")
        )  # type: ignore[arg-type]
        answer = c.post("/api/knowledge/sources/sync", headers=A, json={"sourceInstanceId": "n"})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "memory_disabled"


def test_sources_file_connects_sources_for_serve(
    lore: Userlore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = notes(tmp_path)
    spec = tmp_path / "sources.json"
    spec.write_text(
        json.dumps(
            {
                "sources": [
                    {"scope": "alice", "kind": "markdown", "path": str(folder), "id": "vault"}
                ]
            }
        )
    )
    [(scope, adapter)] = load_source_specs(spec)
    assert (scope, adapter.source_instance_id) == ("alice", "vault")
    monkeypatch.setenv("USERLORE_SOURCES_FILE", str(spec))
    with TestClient(create_app(lore, GRANTS)) as c:
        [card] = c.get("/api/knowledge/sources", headers=A).json()["sources"]
    assert card["source_instance_id"] == "vault" and card["syncable"]
    for bad in (
        {"sources": [{"scope": "alice"}]},
        {"nope": 1},
        {"sources": [{"scope": "a b", "kind": "markdown", "path": str(folder)}]},
        {"sources": [{"scope": "alice", "kind": "markdown", "path": str(tmp_path / "missing")}]},
    ):
        with pytest.raises(ConfigError):
            load_source_specs(bad)
    with pytest.raises(ConfigError):
        load_source_specs(tmp_path / "missing.json")


def test_page_and_assets_carry_the_security_headers(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/ui/app.js">' in page.text
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert page.headers["referrer-policy"] == "no-referrer"
    assert "userlore_csrf=" in page.headers["set-cookie"]
    js = client.get("/ui/app.js")
    assert js.headers["content-type"].startswith("text/javascript")
    assert js.headers["x-content-type-options"] == "nosniff"
    assert client.get("/ui/index.html").status_code == 404
    assert client.get("/ui/missing.css").status_code == 404
    paths = client.get("/openapi.json").json()["paths"]
    assert "/" not in paths and "/api/user-context/consents" in paths


def _scope(method: str, headers: dict[str, str], path: str = "/api/x") -> dict[str, Any]:
    return {
        "type": "http",
        "method": method,
        "path": path,
        "scheme": "http",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }


@pytest.mark.parametrize(
    ("headers", "refused"),
    [
        ({}, False),  # an agent or SDK: no browser headers, bearer token only
        ({"Authorization": "Bearer t"}, False),
        ({"Host": "h:1", "Origin": "http://h:1"}, True),  # browser without the proof
        ({"Host": "h:1", "Cookie": "userlore_csrf=abc"}, True),
        ({"Host": "h:1", "Cookie": "userlore_csrf=abc", "X-Userlore-CSRF": "abd"}, True),
        ({"Host": "h:1", "Sec-Fetch-Site": "same-origin", "X-Userlore-CSRF": "abc"}, True),
        (
            {
                "Host": "h:1",
                "Origin": "http://h:1",
                "Cookie": "x=1; userlore_csrf=abc",
                "X-Userlore-CSRF": "abc",
            },
            False,
        ),
        (
            {
                "Host": "h:1",
                "Origin": "https://h:1",
                "Cookie": "userlore_csrf=abc",
                "X-Userlore-CSRF": "abc",
            },
            False,
        ),  # TLS-terminating proxy: same host and port
        (
            {
                "Host": "h:1",
                "Origin": "http://evil:1",
                "Cookie": "userlore_csrf=abc",
                "X-Userlore-CSRF": "abc",
            },
            True,
        ),
        (
            {
                "Host": "h:1",
                "Origin": "null",
                "Cookie": "userlore_csrf=abc",
                "X-Userlore-CSRF": "abc",
            },
            True,
        ),
        (
            {
                "Host": "h:1",
                "Sec-Fetch-Site": "cross-site",
                "Cookie": "userlore_csrf=abc",
                "X-Userlore-CSRF": "abc",
            },
            True,
        ),
    ],
)
def test_csrf_rule(headers: dict[str, str], refused: bool) -> None:
    assert (CsrfMiddleware.problem(_scope("POST", headers)) is not None) is refused


def test_csrf_middleware_answers_403_json_and_lets_reads_through(client: TestClient) -> None:
    browser = {"Origin": "http://testserver", **A}
    rid_body = {"content": "x", "path": "p", "memoryType": "semantic"}
    refused = client.post("/api/user-context/memories", headers=browser, json=rid_body)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "csrf_failed"
    assert client.get("/api/user-context/memories", headers=browser).status_code == 200
    page = client.get("/")  # the cookie the page gets
    proof = {**browser, "X-Userlore-CSRF": page.cookies["userlore_csrf"]}
    assert (
        client.post("/api/user-context/memories", headers=proof, json=rid_body).status_code == 200
    )


def test_source_cards_count_refused_items(
    client: TestClient, lore: Userlore, tmp_path: Path
) -> None:
    from sqlalchemy import select

    from userlore.store.schema import KnowledgeSourceItem

    adapter = MarkdownVaultAdapter(notes(tmp_path), source_instance_id="notes:r", label="Notes")
    lore.sources.ingest("alice", adapter)
    [card] = client.get("/api/knowledge/sources", headers=A).json()["sources"]
    assert card["refused"] == 0
    with lore.store.transaction() as session:  # what the pipeline leaves when the floor refuses
        row = session.scalars(select(KnowledgeSourceItem)).one()
        row.synthesis_state, row.last_error = "refused", "refused:secret"
    [card] = client.get("/api/knowledge/sources", headers=A).json()["sources"]
    assert card["refused"] == 1 and card["pending"] == 0
    items = client.get("/api/knowledge/source-items", headers=A).json()["items"]
    assert [(i["synthesis_state"], i["last_error"]) for i in items] == [
        ("refused", "refused:secret")
    ]
