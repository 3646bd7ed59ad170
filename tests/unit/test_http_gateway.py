"""The HTTP gateway: auth, scope confinement on every endpoint, errors, seed 000 endpoints."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.conftest import FakeClock
from tests.walkthrough import AGENT_A, AGENT_B, SCOPE, http_surface, walk
from userlore import CandidateInput, ConfigError, Userlore
from userlore.server import create_app, load_tokens
from userlore.store.schema import KnowledgeSourceChange, KnowledgeSyncRun

TOKEN_A = "tok-agent-a-" + "0" * 20
TOKEN_B = "tok-agent-b-" + "1" * 20
TOKEN_OTHER = "tok-other-scope-" + "2" * 20


def grants() -> dict[str, Any]:
    def grant(scope: str, who: dict[str, str]) -> dict[str, Any]:
        return {
            "scope": scope,
            "agentId": who["agent_id"],
            "client": who["client"],
            "device": who["device"],
            "instance": who["instance"],
        }

    return {
        TOKEN_A: grant(SCOPE, AGENT_A),
        TOKEN_B: grant(SCOPE, AGENT_B),
        TOKEN_OTHER: {"scope": "other-team", "agentId": "intruder"},
    }


@pytest.fixture
def client(auto_lore: Userlore) -> Iterator[TestClient]:
    with TestClient(create_app(auto_lore, grants())) as c:
        yield c


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_six_state_walkthrough_over_http(client: TestClient) -> None:
    steps = await walk(http_surface(client, {"A": TOKEN_A, "B": TOKEN_B}))
    assert len(steps) == 14


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer wrong-token-wrong-token"},
        {"Authorization": f"Basic {TOKEN_A}"},
        {"Authorization": f"bearer {TOKEN_A}x"},
    ],
)
def test_no_token_no_data(client: TestClient, headers: dict[str, str]) -> None:
    for method, path in (
        ("GET", "/api/user-context/memories"),
        ("GET", "/api/user-context/quality"),
        ("GET", "/api/knowledge/source-items"),
        ("GET", "/api/user-context/export"),
        ("POST", "/api/user-context/purge"),
    ):
        response = client.request(method, path, headers=headers, json={"confirm": True})
        assert response.status_code == 401, (method, path)
        assert response.json()["error"]["code"] == "unauthorized"
        assert response.headers["www-authenticate"] == "Bearer"


def test_without_configured_tokens_nothing_is_served(
    auto_lore: Userlore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("USERLORE_TOKENS", raising=False)
    monkeypatch.delenv("USERLORE_TOKENS_FILE", raising=False)
    auto_lore.memory.remember(SCOPE, "A fact.", path="x", memory_type="semantic")
    with TestClient(create_app(auto_lore)) as c:
        assert c.get("/api/user-context/memories", headers=auth(TOKEN_A)).status_code == 401
        assert c.get("/api/health").json()["status"] == "ok"


def test_token_configuration_is_validated(tmp_path: Any) -> None:
    with pytest.raises(ConfigError, match="at least 16"):
        load_tokens({"short": "u1"})
    with pytest.raises(ConfigError):
        load_tokens({TOKEN_A: {"agentId": "no-scope"}})
    with pytest.raises(ConfigError):
        load_tokens({TOKEN_A: "bad scope!"})
    path = tmp_path / "tokens.json"
    path.write_text(json.dumps({"tokens": {TOKEN_A: "team-a"}}))
    assert load_tokens(path)[TOKEN_A].scope == "team-a"
    with pytest.raises(ConfigError):
        load_tokens(tmp_path / "missing.json")


def seed_scope_a(lore: Userlore, clock: FakeClock) -> dict[str, str]:
    """Scope ``demo`` data of every kind the gateway serves."""
    active = lore.memory.remember(
        SCOPE, "Alpha VPN is WireGuard.", path="infra", memory_type="semantic"
    )
    trashed = lore.memory.remember(SCOPE, "Alpha wiki moved.", path="infra", memory_type="semantic")
    lore.memory.forget(SCOPE, trashed.id)
    with lore.store.transaction() as s:
        out = lore.store.govern(s, SCOPE, CandidateInput(kind="note", content="Alpha pending."))
        assert out.record is not None
        pending = out.record.id
        # auto mode activated it; put it back in the inbox for the review endpoints
        lore.store.get_row(s, SCOPE, pending).state = "candidate"
        item = lore.store.add_source_item(
            s,
            scope=SCOPE,
            source_instance_id="notion:alpha",
            external_id="page-1",
            text="Alpha roadmap page",
        )
        s.add(
            KnowledgeSourceChange(
                scope=SCOPE,
                source_instance_id="notion:alpha",
                source_item_id=item.id,
                external_id="page-1",
                change_type="added",
                content_hash=item.content_hash,
                created_at=clock.now,
            )
        )
        s.add(
            KnowledgeSyncRun(
                id="run_alpha",
                scope=SCOPE,
                source_instance_id="notion:alpha",
                status="succeeded",
                counts={"added": 1},
                warnings={"messages": ["skipped 1 page without text"]},
                error=None,
                started_at=clock.now,
                finished_at=clock.now,
            )
        )
    plan = lore.plan_context(scope=SCOPE, query="what VPN do we use")
    assert plan.trace_id is not None
    return {
        "active": active.id,
        "trashed": trashed.id,
        "pending": pending,
        "trace": plan.trace_id,
        "item": item.id,
    }


def test_another_scopes_token_can_never_reach_scope_a(
    client: TestClient, auto_lore: Userlore, clock: FakeClock
) -> None:
    ids = seed_scope_a(auto_lore, clock)
    before = json.dumps(auto_lore.scopes.export(SCOPE)["records"], sort_keys=True)
    other = auth(TOKEN_OTHER)
    for method, path, body in (
        ("GET", f"/api/user-context/memories/{ids['active']}", None),
        ("PATCH", f"/api/user-context/memories/{ids['active']}", {"content": "Owned."}),
        ("DELETE", f"/api/user-context/memories/{ids['active']}", None),
        ("POST", f"/api/user-context/memories/{ids['trashed']}/restore", None),
        ("GET", f"/api/user-context/memories/{ids['active']}/history", None),
        ("GET", f"/api/user-context/memories/{ids['active']}/evidence", None),
        ("POST", f"/api/user-context/candidates/{ids['pending']}/approve", None),
        ("POST", f"/api/user-context/candidates/{ids['pending']}/edit", {"content": "Owned."}),
        ("POST", f"/api/user-context/candidates/{ids['pending']}/reject", None),
    ):
        response = client.request(method, path, headers=other, json=body)
        assert response.status_code == 404, (method, path, response.text)
        assert response.json()["error"]["code"] == "not_found"
    for path in (
        "/api/user-context/memories",
        "/api/user-context/candidates",
        "/api/user-context/trash",
        "/api/user-context/traces",
        "/api/user-context/quality",
        "/api/user-context/export",
        "/api/knowledge/source-items",
        "/api/knowledge/source-changes?afterSequence=0",
        "/api/knowledge/sync-runs",
    ):
        response = client.get(path, headers=other)
        assert response.status_code == 200, path
        text = response.text
        assert "Alpha" not in text and not any(v in text for v in ids.values()), path
    recall = client.post(
        "/api/user-context/memories/recall", headers=other, json={"query": "Alpha VPN WireGuard"}
    )
    assert recall.json()["count"] == 0 and recall.json()["excluded"] == []
    plan = client.post("/api/user-context/plan", headers=other, json={"query": "Alpha VPN"})
    assert plan.json()["selected"] == [] and "Alpha" not in plan.json()["text"]
    purge = client.post("/api/user-context/purge", headers=other, json={"confirm": True})
    assert purge.json()["scope"] == "other-team" and purge.json()["residual_rows"] == 0
    assert json.dumps(auto_lore.scopes.export(SCOPE)["records"], sort_keys=True) == before
    # scope A's own token still sees everything
    mine = client.get("/api/user-context/memories", headers=auth(TOKEN_A)).json()
    assert ids["active"] in {m["id"] for m in mine["memories"]}


def test_knowledge_views_are_scoped_and_paged(
    client: TestClient, auto_lore: Userlore, clock: FakeClock
) -> None:
    ids = seed_scope_a(auto_lore, clock)
    items = client.get(
        "/api/knowledge/source-items?sourceInstanceId=notion:alpha", headers=auth(TOKEN_A)
    ).json()
    assert [i["id"] for i in items["items"]] == [ids["item"]]
    changes = client.get(
        "/api/knowledge/source-changes?afterSequence=0", headers=auth(TOKEN_A)
    ).json()
    assert changes["count"] == 1 and changes["changes"][0]["source_item_id"] == ids["item"]
    after = changes["next_after_sequence"]
    rest = client.get(
        f"/api/knowledge/source-changes?afterSequence={after}", headers=auth(TOKEN_A)
    ).json()
    assert rest == {"changes": [], "count": 0, "next_after_sequence": after}
    runs = client.get("/api/knowledge/sync-runs", headers=auth(TOKEN_A)).json()
    assert [r["id"] for r in runs["runs"]] == ["run_alpha"]
    assert runs["runs"][0]["counts"] == {"added": 1}
    # the same view as the library and the About You page: warning messages as a list
    assert runs["runs"][0]["warnings"] == ["skipped 1 page without text"]


def test_candidates_inbox_approve_edit_reject(make_lore: Any) -> None:
    lore = make_lore("confirmWrite")
    with TestClient(create_app(lore, grants())) as c:
        ids = [
            c.post(
                "/api/user-context/memories",
                headers=auth(TOKEN_A),
                json={"content": text, "path": "team", "memoryType": "semantic"},
            ).json()["id"]
            for text in ("Standup at 9:30.", "Retro on Fridays.", "Lunch at noon.")
        ]
        inbox = c.get("/api/user-context/candidates", headers=auth(TOKEN_B)).json()
        assert {m["id"] for m in inbox["memories"]} == set(ids)
        ok = c.post(f"/api/user-context/candidates/{ids[0]}/approve", headers=auth(TOKEN_B))
        assert ok.status_code == 200 and ok.json()["state"] == "active"
        edited = c.post(
            f"/api/user-context/candidates/{ids[1]}/edit",
            headers=auth(TOKEN_B),
            json={"content": "Retro on Thursdays."},
        )
        assert edited.json()["content"] == "Retro on Thursdays." and edited.json()["version"] == 2
        no = c.post(f"/api/user-context/candidates/{ids[2]}/reject", headers=auth(TOKEN_B))
        assert no.json()["state"] == "rejected"
        again = c.post(f"/api/user-context/candidates/{ids[2]}/reject", headers=auth(TOKEN_B))
        assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"
        quality = c.get("/api/user-context/quality?windowDays=30", headers=auth(TOKEN_A)).json()
        assert quality["scope"] == SCOPE and quality["window_days"] == 30
        assert quality["acceptance_rate"] == pytest.approx(2 / 3, abs=1e-3)
        assert quality["states"]["active"] == 2 and quality["states"]["rejected"] == 1
        assert quality["funnel"]["proposed"] == 3


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/user-context/quality?windowDays=0", None),
        ("GET", "/api/user-context/quality?windowDays=abc", None),
        ("GET", "/api/knowledge/source-changes?afterSequence=-1", None),
        ("GET", "/api/knowledge/source-changes?afterSequence=99999999999999999999999", None),
        ("GET", "/api/user-context/memories?state=zombie", None),
        ("GET", "/api/user-context/memories?limit=100000", None),
        (
            "POST",
            "/api/user-context/memories",
            {"content": "x", "path": "", "memoryType": "semantic"},
        ),
        (
            "POST",
            "/api/user-context/memories",
            {"content": "x", "path": "a//b", "memoryType": "semantic"},
        ),
        (
            "POST",
            "/api/user-context/memories",
            {"content": "x", "path": "p", "memoryType": "eternal"},
        ),
        (
            "POST",
            "/api/user-context/memories",
            {"content": "x", "path": "p", "memoryType": "semantic", "scope": "someone-else"},
        ),
        ("POST", "/api/user-context/memories/recall", {"query": "x", "k": 0}),
        ("POST", "/api/user-context/purge", {"confirm": False}),
        ("POST", "/api/user-context/purge", {}),
        ("POST", "/api/user-context/import", {"format": "nope"}),
        # a lone surrogate, as JSON escapes allow it
        (
            "POST",
            "/api/user-context/memories",
            '{"content": "\\ud800", "path": "p", "memoryType": "semantic"}',
        ),
        ("POST", "/api/user-context/memories", "{not json"),
    ],
)
def test_bad_input_is_a_clear_4xx(
    client: TestClient, method: str, path: str, body: dict[str, Any] | str | None
) -> None:
    if isinstance(body, str):
        headers = {**auth(TOKEN_A), "Content-Type": "application/json"}
        response = client.request(method, path, headers=headers, content=body.encode())
    else:
        response = client.request(method, path, headers=auth(TOKEN_A), json=body)
    assert 400 <= response.status_code < 500, response.text
    error = response.json()["error"]
    assert error["code"] and error["message"]


def test_secret_is_refused_with_422(client: TestClient, auto_lore: Userlore) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    response = client.post(
        "/api/user-context/memories",
        headers=auth(TOKEN_A),
        json={"content": f"deploy token {token}", "path": "ops", "memoryType": "semantic"},
    )
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "policy_violation"
    assert token not in response.text and auto_lore.records.list(SCOPE) == []


def test_response_and_trace_feedback_routes(
    client: TestClient, auto_lore: Userlore, clock: FakeClock
) -> None:
    mem = auto_lore.memory.remember(
        SCOPE, "Alpha VPN is WireGuard.", path="infra", memory_type="semantic"
    )
    plan = client.post(
        "/api/user-context/plan",
        headers=auth(TOKEN_A),
        json={"query": "which VPN do we use", "sessionKey": "s1"},
    ).json()
    assert [s["id"] for s in plan["selected"]] == [mem.id]
    clock.advance(seconds=5)
    at = clock.now.isoformat()
    before = client.get(
        "/api/user-context/understanding/response-feedback",
        params={"sessionKey": "s1", "responseAt": at},
        headers=auth(TOKEN_A),
    ).json()
    assert before["resolved"] is True and before["trace_id"] == plan["trace_id"]
    assert before["feedback"] is None
    rated = client.patch(
        "/api/user-context/understanding/response-feedback",
        headers=auth(TOKEN_A),
        json={"sessionKey": "s1", "responseAt": at, "feedback": "helpful"},
    )
    assert rated.status_code == 200, rated.text
    assert rated.json()["feedback"] == "helpful" and rated.json()["selected"] == [mem.id]
    by_trace = client.patch(
        f"/api/user-context/traces/{plan['trace_id']}/feedback",
        headers=auth(TOKEN_A),
        json={"feedback": "not_helpful"},
    )
    assert by_trace.status_code == 200, by_trace.text
    assert (by_trace.json()["previous"], by_trace.json()["feedback"]) == ("helpful", "not_helpful")
    traces = client.get("/api/user-context/traces?eventType=plan", headers=auth(TOKEN_A)).json()
    assert traces["traces"][0]["feedback"] == "not_helpful"
    # another scope can neither read nor rate this response or trace
    other = client.get(
        "/api/user-context/understanding/response-feedback",
        params={"sessionKey": "s1", "responseAt": at},
        headers=auth(TOKEN_OTHER),
    ).json()
    assert other["resolved"] is False and other["trace_id"] is None
    for response in (
        client.patch(
            "/api/user-context/understanding/response-feedback",
            headers=auth(TOKEN_OTHER),
            json={"sessionKey": "s1", "responseAt": at, "feedback": "helpful"},
        ),
        client.patch(
            f"/api/user-context/traces/{plan['trace_id']}/feedback",
            headers=auth(TOKEN_OTHER),
            json={"feedback": "helpful"},
        ),
    ):
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    naive = client.get(
        "/api/user-context/understanding/response-feedback",
        params={"sessionKey": "s1", "responseAt": "2026-01-05T09:00:00"},
        headers=auth(TOKEN_A),
    )
    assert naive.status_code == 422


def test_export_then_import_over_http(client: TestClient, auto_lore: Userlore) -> None:
    auto_lore.memory.remember(
        SCOPE, "Alpha VPN is WireGuard.", path="infra", memory_type="semantic"
    )
    doc = client.get("/api/user-context/export", headers=auth(TOKEN_A)).json()
    assert doc["scope"] == SCOPE and doc["counts"]["records"] == 1
    refused = client.post("/api/user-context/import", headers=auth(TOKEN_A), json=doc)
    assert refused.status_code == 409
    done = client.post("/api/user-context/import", headers=auth(TOKEN_OTHER), json=doc)
    assert done.status_code == 200 and done.json()["remapped"] is True
    recall = client.post(
        "/api/user-context/memories/recall", headers=auth(TOKEN_OTHER), json={"query": "VPN"}
    ).json()
    assert recall["count"] == 1


def test_openapi_documents_every_endpoint_with_bearer_auth(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    paths = spec["paths"]
    for path in (
        "/api/user-context/quality",
        "/api/user-context/understanding/response-feedback",
        "/api/user-context/memories",
        "/api/user-context/traces",
        "/api/user-context/traces/{trace_id}/feedback",
        "/api/knowledge/source-items",
        "/api/knowledge/source-changes",
        "/api/knowledge/sync-runs",
        "/api/user-context/candidates",
        "/api/user-context/memories/recall",
        "/api/user-context/memories/{record_id}/history",
        "/api/user-context/purge",
        "/api/user-context/export",
    ):
        assert path in paths, path
    security = spec["components"]["securitySchemes"]
    assert any(s.get("scheme") == "bearer" for s in security.values())
    quality = paths["/api/user-context/quality"]["get"]
    assert quality["security"] and "401" in quality["responses"]
