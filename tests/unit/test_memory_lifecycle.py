"""Seed 003 memory operations on the facade: receipts, versions, recall, trash and attribution."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from tests.walkthrough import AGENT_A, PATH, SCOPE, facade_surface, normalized, walk
from userlore import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    RecordState,
    Userlore,
)
from userlore.memory import Author
from userlore.store.schema import MemoryRecord, MemoryRecordVersion


def count(lore: Userlore, model: type[Any], **where: Any) -> int:
    stmt = select(func.count()).select_from(model)
    for key, value in where.items():
        stmt = stmt.where(getattr(model, key) == value)
    with lore.store.transaction() as s:
        return int(s.scalar(stmt) or 0)


async def test_six_state_walkthrough_on_the_facade(auto_lore: Userlore) -> None:
    steps = await walk(facade_surface(auto_lore))
    assert [name[0] for name, _ in steps] == list("12344455555666")
    assert count(auto_lore, MemoryRecord, scope=SCOPE) == 0
    # Receipts are plain JSON, so every surface can return them unchanged.
    json.dumps(normalized(steps))


def test_remember_returns_a_v1_receipt_with_attribution(auto_lore: Userlore) -> None:
    receipt = auto_lore.memory.remember(
        "u1",
        "Use OAuth for hosted ChatGPT connections.",
        path="projects/memory-os/decisions",
        memory_type="semantic",
        author=Author(agent_id="codex", client="Codex CLI", device="laptop", instance="abcd1234"),
    )
    assert (receipt.version, receipt.state, receipt.action) == (1, RecordState.ACTIVE, "created")
    assert receipt.citation == f"{receipt.id}@v1"
    assert receipt.author == Author("codex", "Codex CLI", "laptop", "abcd1234")
    view = auto_lore.records.get("u1", receipt.id)
    assert view.memory_type.value == "semantic" and view.path == "projects/memory-os/decisions"
    again = auto_lore.memory.remember(
        "u1", "use OAuth for hosted ChatGPT connections", path="projects/x", memory_type="semantic"
    )
    assert (again.id, again.action, again.version) == (receipt.id, "reinforced", 1)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"path": "", "memory_type": "semantic"}, "path"),
        ({"path": "/", "memory_type": "semantic"}, "path"),
        ({"path": "a//b", "memory_type": "semantic"}, "path"),
        ({"path": "projects/x", "memory_type": "long_term"}, "memory_type"),
        ({"path": "projects/x", "memory_type": ""}, "memory_type"),
    ],
)
def test_durable_write_needs_content_type_and_path(
    auto_lore: Userlore, kwargs: dict[str, str], fragment: str
) -> None:
    with pytest.raises(InvalidInputError, match=fragment):
        auto_lore.memory.remember("u1", "A fact worth keeping.", **kwargs)
    with pytest.raises(InvalidInputError, match="content"):
        auto_lore.memory.remember("u1", "   ", path="projects/x", memory_type="semantic")
    assert count(auto_lore, MemoryRecord) == 0


def test_confirm_write_keeps_a_remembered_memory_out_of_recall_until_approved(
    lore: Userlore,
) -> None:
    receipt = lore.memory.remember(
        "u1", "Deploys happen on Tuesdays.", path="ops", memory_type="procedural"
    )
    assert receipt.state is RecordState.CANDIDATE
    result = lore.memory.recall("u1", "when do deploys happen")
    assert result.citations == () and {"id": receipt.id, "reason": "not_active"} in result.excluded
    lore.records.approve("u1", receipt.id)
    assert lore.memory.recall("u1", "when do deploys happen").citations == (f"{receipt.id}@v1",)


def test_secret_is_refused_and_nothing_is_stored(auto_lore: Userlore) -> None:
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    with pytest.raises(PolicyViolationError, match="secret"):
        auto_lore.memory.remember(
            "u1", f"The deploy token is {token}", path="ops", memory_type="semantic"
        )
    assert count(auto_lore, MemoryRecord) == 0
    refusals = auto_lore.traces.list("u1", event_type="governance")
    assert refusals and refusals[0]["reason_code"] == "secret"
    assert token not in json.dumps(refusals, default=str)


@pytest.mark.parametrize("mode", ["off", "readOnly"])
def test_remember_is_disabled_outside_write_modes(make_lore: Any, mode: str) -> None:
    lore = make_lore(mode)
    with pytest.raises(MemoryDisabledError):
        lore.memory.remember("u1", "A fact.", path="projects/x", memory_type="semantic")


def test_recall_filters_by_path_prefix_and_memory_type(auto_lore: Userlore) -> None:
    def put(content: str, path: str, mtype: str) -> str:
        return auto_lore.memory.remember("u1", content, path=path, memory_type=mtype).id

    a = put("Release checklist: run the migrations first.", "projects/alpha/ops", "procedural")
    ab = put("Release checklist for alphabet app.", "projects/alphabet/ops", "procedural")
    note = put("Release party happened on Friday.", "projects/alpha/log", "episodic")
    assert set(auto_lore.memory.recall("u1", "release checklist", k=10).citations) == {
        f"{a}@v1",
        f"{ab}@v1",
        f"{note}@v1",
    }
    in_alpha = auto_lore.memory.recall("u1", "release", path="projects/alpha", k=10)
    assert {m.id for m in in_alpha.memories} == {a, note}
    assert {
        m.id
        for m in auto_lore.memory.recall("u1", "release", path="projects/alpha/", k=10).memories
    } == {
        a,
        note,
    }
    typed = auto_lore.memory.recall("u1", "release", path="projects", memory_type="episodic", k=10)
    assert [m.id for m in typed.memories] == [note]
    newest = auto_lore.memory.recall("u1", "", path="projects/alpha", k=1)
    assert [m.id for m in newest.memories] == [note]
    with pytest.raises(InvalidInputError):
        auto_lore.memory.recall("u1", "release", k=0)
    with pytest.raises(InvalidInputError):
        auto_lore.memory.recall("u1", "release", memory_type="feelings")


def test_recall_never_returns_a_superseded_version(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "u1", "The staging database listens on port 5433.", path="infra", memory_type="semantic"
    )
    upd = auto_lore.memory.update("u1", mem.id, "The staging database listens on port 6543.")
    assert (upd.version, upd.parent_version, upd.diff) == (2, 1, "-5433. +6543.")
    result = auto_lore.memory.recall("u1", "staging database port")
    assert result.citations == (f"{mem.id}@v2",)
    assert result.memories[0].content.endswith("6543.")
    assert {"citation": f"{mem.id}@v1", "reason": "superseded"} in result.excluded
    assert auto_lore.memory.recall("u1", "5433").citations == ()
    plan = auto_lore.plan_context(scope="u1", query="staging database port")
    assert "6543" in plan.text and "5433" not in plan.text


def test_versions_keep_their_own_author(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "u1", "Sync is in Room Orion.", path=PATH, memory_type="semantic", author=Author(**AGENT_A)
    )
    auto_lore.memory.update(
        "u1", mem.id, "Sync is in Room Polaris.", author=Author(agent_id="codex")
    )
    history = auto_lore.memory.history("u1", mem.id)
    assert history[0].author == Author(**AGENT_A)
    # A different author does not inherit A's device or instance.
    assert history[1].author == Author("codex", None, None, None)
    with auto_lore.store.transaction() as s:
        snaps = list(
            s.scalars(select(MemoryRecordVersion).where(MemoryRecordVersion.record_id == mem.id))
        )
    assert [(v.version, v.content, v.author_agent_id) for v in snaps] == [
        (1, "Sync is in Room Orion.", "claude-desktop"),
        (2, "Sync is in Room Polaris.", "codex"),
    ]


def test_forget_restore_and_invalid_transitions(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember("u1", "Lunch is at noon.", path="team", memory_type="semantic")
    gone = auto_lore.memory.forget("u1", mem.id)
    assert gone.state is RecordState.DELETED and gone.as_dict()["restorable"] is True
    assert auto_lore.plan_context(scope="u1", query="when is lunch").selected_ids == ()
    assert [r.id for r in auto_lore.memory.trash("u1")] == [mem.id]
    with pytest.raises(InvalidTransitionError):
        auto_lore.memory.update("u1", mem.id, "Lunch is at one.")
    with pytest.raises(InvalidTransitionError):
        auto_lore.memory.forget("u1", mem.id)
    back = auto_lore.memory.restore("u1", mem.id)
    assert (back.state, back.version) == (RecordState.ACTIVE, 1)
    assert auto_lore.memory.recall("u1", "lunch").citations == (f"{mem.id}@v1",)
    assert auto_lore.memory.trash("u1") == []


def test_operations_are_confined_to_their_scope(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "team-a", "Our VPN is WireGuard.", path="infra", memory_type="semantic"
    )
    with pytest.raises(RecordNotFoundError):
        auto_lore.memory.update("team-b", mem.id, "Our VPN is OpenVPN.")
    with pytest.raises(RecordNotFoundError):
        auto_lore.memory.forget("team-b", mem.id)
    with pytest.raises(RecordNotFoundError):
        auto_lore.memory.history("team-b", mem.id)
    assert auto_lore.memory.recall("team-b", "VPN WireGuard").citations == ()
    assert auto_lore.memory.recall("team-a", "VPN WireGuard").citations == (f"{mem.id}@v1",)


def test_special_category_needs_consent_before_recall(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "u1",
        "I have diabetes, so suggest low-sugar lunch places.",
        path="me",
        memory_type="identity",
    )
    result = auto_lore.memory.recall("u1", "lunch places")
    assert (
        result.citations == () and {"id": mem.id, "reason": "consent_required"} in result.excluded
    )
    auto_lore.consent.grant("u1", "health")
    assert auto_lore.memory.recall("u1", "lunch places").citations == (f"{mem.id}@v1",)


def test_recall_trace_holds_ids_not_text(auto_lore: Userlore) -> None:
    mem = auto_lore.memory.remember(
        "u1", "Grafana lives at port 3000.", path="infra", memory_type="semantic"
    )
    result = auto_lore.memory.recall("u1", "where does grafana live", session_key="s1")
    trace = auto_lore.traces.list("u1", event_type="recall")[0]
    assert trace["id"] == result.trace_id and trace["session_key"] == "s1"
    assert trace["payload"]["selected"] == [{"id": mem.id, "v": 1}]
    dumped = json.dumps(trace, default=str).lower()
    assert "grafana" not in dumped and "3000" not in dumped


async def test_async_twins_share_the_sync_logic(auto_lore: Userlore) -> None:
    mem = await auto_lore.memory.aremember(
        "u1", "Standup is at 9:30.", path="team", memory_type="semantic"
    )
    upd = await auto_lore.memory.aupdate("u1", mem.id, "Standup is at 9:45.")
    result = await auto_lore.memory.arecall("u1", "standup")
    assert upd.version == 2 and result.citations == (f"{mem.id}@v2",)


def test_a_query_before_a_write_does_not_hide_the_new_memory(auto_lore: Userlore) -> None:
    assert auto_lore.memory.recall("u1", "deploy schedule").citations == ()
    assert auto_lore.plan_context(scope="u1", query="deploy schedule").selected_ids == ()
    mem = auto_lore.memory.remember(
        "u1", "The deploy schedule is Tuesdays.", path="ops", memory_type="semantic"
    )
    assert auto_lore.memory.recall("u1", "deploy schedule").citations == (f"{mem.id}@v1",)
    assert auto_lore.plan_context(scope="u1", query="deploy schedule").selected_ids == (mem.id,)


def test_two_handles_on_one_file_share_memory_at_once(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    config = {"memory": {"mode": "auto"}}
    with Userlore.open(url, config=config) as a, Userlore.open(url, config=config) as b:
        assert b.recall("team", "deploy schedule").citations == ()
        mem = a.remember("team", "The deploy schedule is Tuesdays.", path="ops",
                         memory_type="semantic")  # fmt: skip
        assert b.recall("team", "deploy schedule").citations == (f"{mem.id}@v1",)
