"""Agent events (seed 003 SDK example): normalization, bounds, scrubbing, governed write."""

from __future__ import annotations

import json
from typing import Any

import pytest

from userlore import InvalidInputError, MemoryType, RecordState, Userlore, WriteAction
from userlore.events import MAX_OUTPUT_CHARS, normalize_agent_event, to_memory_candidate

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def test_seed_example_pytest_is_episodic() -> None:
    event = normalize_agent_event(
        {"type": "command_completed", "command": "pytest", "exit_code": 0, "output": "12 passed"},
        source="shell",
        default_agent_id="codex",
    )
    candidate = to_memory_candidate(event)
    assert candidate.memory_type is MemoryType.EPISODIC and candidate.memory_type == "episodic"
    assert (event.agent_id, event.status, event.exit_code) == ("codex", "succeeded", 0)
    assert candidate.content == "shell: `pytest` succeeded (exit 0): 12 passed"
    assert candidate.path == "agents/codex/shell"
    assert candidate.author_agent_id == "codex"


def test_camel_case_keys_and_epoch_milliseconds() -> None:
    event = normalize_agent_event(
        {
            "type": "commandFailed",
            "cmd": "npm test",
            "exitCode": 1,
            "stderr": "1 failing",
            "agentId": "claude",
            "sessionId": "s-9",
            "timestamp": 1_767_600_000_000,
            "path": "projects/web/ci",
        },
        source="shell",
        default_agent_id="codex",
    )
    assert (event.type, event.status, event.agent_id, event.session_id) == (
        "command_failed",
        "failed",
        "claude",
        "s-9",
    )
    assert event.occurred_at is not None and event.occurred_at.year == 2026
    candidate = to_memory_candidate(event)
    assert candidate.path == "projects/web/ci" and candidate.importance > 0.5
    assert candidate.session_key == "s-9"


@pytest.mark.parametrize(
    ("etype", "expected"),
    [
        ("decision", MemoryType.SEMANTIC),
        ("convention", MemoryType.PROCEDURAL),
        ("task_progress", MemoryType.WORKING),
        ("identity", MemoryType.IDENTITY),
        ("something_new", MemoryType.EPISODIC),
    ],
)
def test_memory_type_follows_event_type(etype: str, expected: MemoryType) -> None:
    event = normalize_agent_event({"type": etype, "summary": "x"}, source="ide")
    assert event.memory_type is expected


def test_explicit_memory_type_wins_and_is_validated() -> None:
    event = normalize_agent_event(
        {"type": "note", "summary": "Use pnpm here", "memoryType": "procedural"}, source="ide"
    )
    assert event.memory_type is MemoryType.PROCEDURAL
    with pytest.raises(InvalidInputError):
        normalize_agent_event({"type": "note", "memory_type": "forever"}, source="ide")


def test_output_is_bounded_to_its_tail() -> None:
    noise = "\n".join(f"test_{i} PASSED" for i in range(2000))
    event = normalize_agent_event(
        {
            "type": "command_completed",
            "command": "pytest -v",
            "exit_code": 0,
            "output": noise + "\n===== 2000 passed in 9.1s =====",
        },
        source="shell",
    )
    assert event.output is not None and len(event.output) == MAX_OUTPUT_CHARS
    assert event.output.endswith("2000 passed in 9.1s =====") and event.output.startswith("…")
    candidate = to_memory_candidate(event)
    assert candidate.content.endswith("===== 2000 passed in 9.1s =====")
    assert candidate.evidence_text is not None and len(candidate.evidence_text) < 2000


def test_secrets_are_scrubbed_before_storage(auto_lore: Userlore) -> None:
    event = normalize_agent_event(
        {
            "type": "command_failed",
            "command": f"GITHUB_TOKEN={GH_TOKEN} ./deploy.sh",
            "exit_code": 1,
            "output": "deploy failed: password: hunter2xyzw rejected",
            "env": {"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"},
        },
        source="shell",
        default_agent_id="codex",
    )
    assert event.redacted
    out = auto_lore.write("u1", to_memory_candidate(event))
    assert out.action is WriteAction.CREATED and out.record is not None
    stored = json.dumps(
        [
            auto_lore.records.get("u1", out.record.id).content,
            auto_lore.records.evidence("u1", out.record.id),
        ],
        default=str,
    )
    assert GH_TOKEN not in stored and "hunter2xyzw" not in stored
    assert "wJalrXUtnFEMI" not in stored and "AWS_SECRET" not in stored
    assert "deploy.sh" in stored


def test_goes_through_the_governed_write(lore: Userlore) -> None:
    raw: dict[str, Any] = {
        "type": "command_completed",
        "command": "pytest",
        "exit_code": 0,
        "output": "12 passed",
    }
    candidate = to_memory_candidate(normalize_agent_event(raw, source="shell"))
    first = lore.write("u1", candidate)
    assert first.record is not None and first.record.state is RecordState.CANDIDATE
    again = lore.write("u1", candidate)
    assert again.action is WriteAction.REINFORCED and again.record is not None
    assert again.record.id == first.record.id


@pytest.mark.parametrize(
    "raw",
    [
        {"command": "pytest"},
        {"type": ""},
        {"type": "command_completed", "exit_code": "0"},
        {"type": "command_completed", "exit_code": True},
        {"type": "command_completed", "output": {"nested": "dict"}},
        {"type": "command_completed", "path": "../etc"},
        {"type": "command_completed", "timestamp": "yesterday"},
    ],
)
def test_malformed_events_are_refused(raw: dict[str, Any]) -> None:
    with pytest.raises(InvalidInputError):
        normalize_agent_event(raw, source="shell")


def test_bad_source_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        normalize_agent_event({"type": "note"}, source="Shell Script!")
