"""Seed 003's six-state walkthrough, written once and driven through every surface.

A *surface* (facade, MCP client, HTTP client) maps the operation names below to calls made as
agent A (Claude Desktop) or agent B (Codex CLI). :func:`walk` returns the receipts of every step;
:func:`normalized` replaces ids, trace ids and timestamps by placeholders so the receipts of two
surfaces can be compared for equality.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

from userlore import Userlore, UserloreError

SCOPE = "demo"
PATH = "projects/memory-os/meetings"
V1 = "Weekly sync with the design team is in Room Orion at 10:00."
V2 = "Weekly sync with the design team is in Room Polaris at 11:00."

AGENT_A = {
    "agent_id": "claude-desktop",
    "client": "Claude Desktop",
    "device": "MacBook",
    "instance": "04f9b8c2",
}
AGENT_B = {
    "agent_id": "codex",
    "client": "Codex CLI",
    "device": "Workstation",
    "instance": "e81d7a31",
}

# call(agent, operation, arguments) -> receipt dict, or {"error": code} for a refused call.
Call = Callable[[str, str, dict[str, Any]], Awaitable[dict[str, Any]]]


async def walk(call: Call) -> list[tuple[str, dict[str, Any]]]:
    """Run the six states; assert the seed's contract at every step; return the receipts."""
    steps: list[tuple[str, dict[str, Any]]] = []

    # STATE 1: agent A creates v1 (active), with immutable author metadata.
    created = await call("A", "remember", {"content": V1, "path": PATH, "memory_type": "semantic"})
    steps.append(("1_created", created))
    mem = created["id"]
    assert created["version"] == 1 and created["state"] == "active"
    assert created["citation"] == f"{mem}@v1"
    assert created["author"] == AGENT_A

    # STATE 2: agent B, another client in the same scope, recalls it citing v1.
    cited = await call("B", "recall", {"query": "where is the weekly design sync?"})
    steps.append(("2_recalled_v1", cited))
    assert cited["citations"] == [f"{mem}@v1"]
    assert cited["memories"][0]["author"] == AGENT_A

    # STATE 3: a correction makes v2 live; v1 becomes an immutable superseded snapshot.
    updated = await call("B", "update_memory", {"id": mem, "content": V2})
    steps.append(("3_updated_v2", updated))
    assert (updated["id"], updated["version"], updated["parent_version"]) == (mem, 2, 1)
    assert updated["parent_state"] == "superseded"
    assert "-Orion +Polaris" in updated["diff"]
    assert updated["author"] == AGENT_B

    # STATE 4: recall selects v2 only; the superseded v1 is kept out.
    live = await call("A", "recall", {"query": "weekly design sync room"})
    steps.append(("4_recalled_v2", live))
    assert live["citations"] == [f"{mem}@v2"]
    assert {"citation": f"{mem}@v1", "reason": "superseded"} in live["excluded"]
    stale = await call("A", "recall", {"query": "Orion"})
    steps.append(("4_old_text_gone", stale))
    assert stale["citations"] == []
    history = await call("A", "history", {"id": mem})
    steps.append(("4_history", history))
    versions = history["versions"]
    assert [(v["version"], v["state"]) for v in versions] == [(1, "superseded"), (2, "active")]
    assert versions[0]["author"] == AGENT_A and versions[1]["author"] == AGENT_B
    assert versions[0]["content"] == V1 and "-Orion +Polaris" in versions[1]["diff"]

    # STATE 5: forget tombstones it: out of recall at once, in the trash, restorable.
    forgotten = await call("B", "forget", {"id": mem})
    steps.append(("5_forgotten", forgotten))
    assert forgotten["state"] == "deleted" and forgotten["restorable"] is True
    gone = await call("A", "recall", {"query": "weekly design sync"})
    steps.append(("5_recall_after_forget", gone))
    assert gone["count"] == 0 and {"id": mem, "reason": "deleted"} in gone["excluded"]
    trash = await call("B", "trash", {})
    steps.append(("5_trash", trash))
    assert [m["id"] for m in trash["memories"]] == [mem]
    restored = await call("B", "restore", {"id": mem})
    steps.append(("5_restored", restored))
    assert (restored["state"], restored["version"]) == ("active", 2)
    back = await call("A", "recall", {"query": "weekly design sync"})
    assert back["citations"] == [f"{mem}@v2"]
    again = await call("B", "forget", {"id": mem})
    steps.append(("5_forgotten_again", again))

    # STATE 6: the disposable scope is purged to exactly 0 residual rows.
    purged = await call("B", "purge", {})
    steps.append(("6_purged", purged))
    assert purged["status"] == "purged" and purged["residual_rows"] == 0
    assert purged["deleted"]["memory_records"] == 1
    assert purged["deleted"]["memory_record_versions"] == 2
    after = await call("A", "recall", {"query": "weekly design sync"})
    steps.append(("6_recall_after_purge", after))
    assert after["count"] == 0 and after["excluded"] == []
    missing = await call("A", "history", {"id": mem})
    steps.append(("6_history_after_purge", missing))
    assert missing == {"error": "not_found"}
    return steps


_ID = re.compile(r"\b(mem|trc|src)_[0-9a-z]+\b")
_TIME_KEYS = frozenset({"created_at", "updated_at"})


def normalized(value: Any) -> Any:
    """Ids → ``<mem>``/``<trc>``, timestamps → ``<time>``; everything else kept as is."""
    if isinstance(value, dict):
        return {
            k: ("<time>" if k in _TIME_KEYS and v is not None else normalized(v))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [normalized(v) for v in value]
    if isinstance(value, str):
        return _ID.sub(lambda m: f"<{m.group(1)}>", value)
    return value


ERROR_CODES = {
    "RecordNotFoundError": "not_found",
    "InvalidTransitionError": "conflict",
    "InvalidInputError": "invalid_input",
    "PolicyViolationError": "policy_violation",
    "ScopeError": "invalid_scope",
    "MemoryDisabledError": "memory_disabled",
}


def facade_surface(lore: Userlore, scope: str = SCOPE) -> Call:
    """The walkthrough's operations as facade calls made by agent A or B."""
    people = {"A": AGENT_A, "B": AGENT_B}

    async def call(agent: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        who = people[agent]
        try:
            if op == "remember":
                return lore.remember(scope, **args, **who).as_dict()
            if op == "recall":
                return lore.recall(scope, **args).as_dict()
            if op == "update_memory":
                return lore.update_memory(args["id"], args["content"], scope=scope, **who).as_dict()
            if op == "forget":
                return lore.memory.forget(scope, args["id"]).as_dict()
            if op == "restore":
                return lore.memory.restore(scope, args["id"]).as_dict()
            if op == "history":
                versions = lore.memory.history(scope, args["id"])
                return {"id": args["id"], "versions": [v.as_dict() for v in versions]}
            if op == "trash":
                return {"memories": [r.as_dict() for r in lore.memory.trash(scope)]}
            if op == "purge":
                return lore.scopes.purge(scope, args.get("path_prefix")).as_dict()
        except UserloreError as exc:
            return {"error": ERROR_CODES[type(exc).__name__]}
        raise AssertionError(op)

    return call


_ROUTES: dict[str, tuple[str, str]] = {
    "remember": ("POST", "/api/user-context/memories"),
    "recall": ("POST", "/api/user-context/memories/recall"),
    "update_memory": ("PATCH", "/api/user-context/memories/{id}"),
    "forget": ("DELETE", "/api/user-context/memories/{id}"),
    "restore": ("POST", "/api/user-context/memories/{id}/restore"),
    "history": ("GET", "/api/user-context/memories/{id}/history"),
    "trash": ("GET", "/api/user-context/trash"),
    "purge": ("POST", "/api/user-context/purge"),
}


def http_surface(client: Any, tokens: dict[str, str]) -> Call:
    """The operations as gateway requests; ``client`` is a TestClient or an ``httpx.Client``."""

    async def call(agent: str, op: str, args: dict[str, Any]) -> dict[str, Any]:
        method, route = _ROUTES[op]
        body = {k: v for k, v in args.items() if k != "id"}
        if op == "purge":
            body = {"confirm": True, **body}
        response = client.request(
            method,
            route.format(id=args.get("id", "")),
            headers={"Authorization": f"Bearer {tokens[agent]}"},
            json=body if method in ("POST", "PATCH") else None,
        )
        payload: dict[str, Any] = response.json()
        if response.status_code >= 400:
            assert response.status_code < 500, payload
            return {"error": payload["error"]["code"]}
        return payload

    return call


def mcp_error(text: str) -> dict[str, Any]:
    """``{"error": code}`` from an MCP tool error message naming the userlore error."""
    for name, code in ERROR_CODES.items():
        if name in text:
            return {"error": code}
    raise AssertionError(f"unexpected MCP tool error: {text}")
