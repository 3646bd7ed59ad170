"""Agent events: a coding agent's shell, tool and task events as typed memory candidates.

Seed 003's SDK example, in Python::

    event = normalize_agent_event(
        {"type": "command_completed", "command": "pytest", "exit_code": 0, "output": "12 passed"},
        source="shell",
        default_agent_id="codex",
    )
    to_memory_candidate(event).memory_type  # MemoryType.EPISODIC

Raw tool output is not memory (seed 003): normalization keeps a *bounded* excerpt (the tail, where
test runners and compilers print their verdict), scrubs secrets with the same detectors the
governed write uses, and drops every field it does not know, so arguments, environments and
payloads never reach storage. The candidate still goes through the governed write, which checks
sensitivity again and deduplicates.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from userlore.errors import InvalidInputError
from userlore.models import CandidateInput, Explicitness, MemoryType, Producer
from userlore.policy.sensitivity import redact
from userlore.store.governed import validate_path

__all__ = [
    "EVENT_MEMORY_TYPES",
    "MAX_OUTPUT_CHARS",
    "AgentEvent",
    "normalize_agent_event",
    "to_memory_candidate",
]

MAX_OUTPUT_CHARS = 500
_MAX_FIELD_CHARS = 300
_MAX_CONTENT_CHARS = 1_000

EVENT_MEMORY_TYPES: dict[str, MemoryType] = {
    # things that happened at one moment of a task or session
    "command_completed": MemoryType.EPISODIC,
    "command_failed": MemoryType.EPISODIC,
    "tool_completed": MemoryType.EPISODIC,
    "tool_failed": MemoryType.EPISODIC,
    "test_run": MemoryType.EPISODIC,
    "build_completed": MemoryType.EPISODIC,
    "deploy_completed": MemoryType.EPISODIC,
    "file_edited": MemoryType.EPISODIC,
    "commit_created": MemoryType.EPISODIC,
    "error": MemoryType.EPISODIC,
    "task_completed": MemoryType.EPISODIC,
    # the live state of the task in progress
    "command_started": MemoryType.WORKING,
    "task_started": MemoryType.WORKING,
    "task_progress": MemoryType.WORKING,
    "handoff": MemoryType.WORKING,
    # durable facts and decisions
    "decision": MemoryType.SEMANTIC,
    "fact": MemoryType.SEMANTIC,
    "note": MemoryType.SEMANTIC,
    # how work is done in this project
    "convention": MemoryType.PROCEDURAL,
    "procedure": MemoryType.PROCEDURAL,
    # about the owner or the agent itself
    "identity": MemoryType.IDENTITY,
}
"""Memory type per event type; an unknown event type is ``episodic`` (an event happened)."""

_DURABILITY = {
    MemoryType.EPISODIC: "event",
    MemoryType.WORKING: "session",
    MemoryType.SEMANTIC: "durable",
    MemoryType.PROCEDURAL: "durable",
    MemoryType.IDENTITY: "durable",
}
_NAME = re.compile(r"[a-z][a-z0-9_.-]{0,39}")
_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")
_SEGMENT = re.compile(r"[^\w.-]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class AgentEvent:
    """A normalized, bounded, scrubbed agent event.

    Attributes:
        type: Snake-case event type (``command_completed``).
        source: Where it came from (``shell``, ``tool``, ``ide``...).
        memory_type: Seed 003 memory type the event should be stored as.
        status: ``succeeded``, ``failed`` or ``None`` when unknown.
        output: Tail of the output, at most ``MAX_OUTPUT_CHARS`` characters, secrets redacted.
        redacted: Whether scrubbing removed anything.
    """

    type: str
    source: str
    memory_type: MemoryType
    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    instance: str | None = None
    command: str | None = None
    tool: str | None = None
    exit_code: int | None = None
    status: str | None = None
    summary: str | None = None
    output: str | None = None
    path: str | None = None
    session_id: str | None = None
    thread_id: str | None = None
    run_id: str | None = None
    occurred_at: datetime | None = None
    redacted: bool = False

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form (what is stored, redacted, as the candidate's evidence)."""
        return {
            "type": self.type,
            "source": self.source,
            "memory_type": self.memory_type.value,
            "agent_id": self.agent_id,
            "client": self.client,
            "command": self.command,
            "tool": self.tool,
            "exit_code": self.exit_code,
            "status": self.status,
            "summary": self.summary,
            "output": self.output,
            "path": self.path,
            "session_id": self.session_id,
            "occurred_at": self.occurred_at.isoformat() if self.occurred_at else None,
        }


def _pick(event: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if name in event and event[name] is not None:
            return event[name]
    return None


def _text(value: Any, name: str, limit: int, *, tail: bool = False) -> tuple[str | None, bool]:
    """Scrub and bound one text field; returns the text and whether anything was redacted."""
    if value is None:
        return None, False
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise InvalidInputError(f"event field {name!r} must be text")
    raw = str(value).replace("\r\n", "\n").strip()
    if not raw:
        return None, False
    # Scrub before cutting, so a secret straddling the cut cannot survive half-redacted.
    clean = redact(raw)
    changed = clean != raw
    if len(clean) > limit:
        clean = "…" + clean[-(limit - 1) :] if tail else clean[: limit - 1] + "…"
    return clean, changed


def _ident(value: Any, name: str) -> str | None:
    text, _ = _text(value, name, 200)
    return text


def _snake(name: str) -> str:
    return _CAMEL.sub(r"_\1", name).lower().replace("-", "_").replace(" ", "_")


def _when(value: Any) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        when = value
    elif isinstance(value, int | float) and not isinstance(value, bool):
        # Epoch seconds, or milliseconds as JavaScript clients send them.
        seconds = value / 1000 if value > 10**11 else value
        try:
            when = datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            raise InvalidInputError("event timestamp is out of range") from None
    elif isinstance(value, str):
        try:
            when = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInputError("event timestamp must be ISO 8601 or epoch") from None
    else:
        raise InvalidInputError("event timestamp must be ISO 8601 or epoch")
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def normalize_agent_event(
    event: Mapping[str, Any],
    *,
    source: str,
    default_agent_id: str | None = None,
    max_output_chars: int = MAX_OUTPUT_CHARS,
) -> AgentEvent:
    """Normalize one raw agent event (snake_case or camelCase keys) into an :class:`AgentEvent`.

    Args:
        event: The raw event, e.g. ``{"type": "command_completed", "command": "pytest",
            "exit_code": 0, "output": "12 passed"}``. Unknown keys are dropped.
        source: Where the event comes from (``shell``, ``tool``, ``ide``...).
        default_agent_id: Agent id used when the event names none.
        max_output_chars: Bound on the output excerpt kept (its tail).

    Raises:
        InvalidInputError: no type, malformed fields, bad source or path.
    """
    if not isinstance(event, Mapping):
        raise InvalidInputError("an agent event must be a mapping")
    if not isinstance(source, str) or not _NAME.fullmatch(source.strip().lower()):
        raise InvalidInputError(f"invalid event source {source!r}")
    if not 20 <= max_output_chars <= 10_000:
        raise InvalidInputError("max_output_chars must be within [20, 10000]")
    raw_type = _pick(event, "type", "event", "event_type", "eventType")
    if not isinstance(raw_type, str) or not raw_type.strip():
        raise InvalidInputError("an agent event needs a 'type'")
    etype = _snake(raw_type.strip())
    if not _NAME.fullmatch(etype):
        raise InvalidInputError(f"invalid event type {raw_type!r}")

    exit_code = _pick(event, "exit_code", "exitCode", "returncode", "return_code")
    if exit_code is not None and (isinstance(exit_code, bool) or not isinstance(exit_code, int)):
        raise InvalidInputError("exit_code must be an integer")
    status: str | None = None
    if exit_code is not None:
        status = "succeeded" if exit_code == 0 else "failed"
    elif etype.endswith(("_failed", "_error")) or etype == "error":
        status = "failed"
    elif etype.endswith(("_completed", "_succeeded")):
        status = "succeeded"

    mt = _pick(event, "memory_type", "memoryType")
    if mt is not None:
        try:
            mtype = MemoryType(mt)
        except ValueError:
            raise InvalidInputError(f"invalid memory_type {mt!r}") from None
    else:
        mtype = EVENT_MEMORY_TYPES.get(etype, MemoryType.EPISODIC)

    out_parts = [
        _pick(event, "output", "stdout", "result"),
        _pick(event, "stderr", "error_output", "errorOutput"),
    ]
    for part in out_parts:
        if part is not None and not isinstance(part, str):
            raise InvalidInputError("event output must be text")
    output_raw = "\n".join(p for p in out_parts if p is not None and p.strip()) or None
    command, c1 = _text(_pick(event, "command", "cmd"), "command", _MAX_FIELD_CHARS)
    tool, c2 = _text(_pick(event, "tool", "tool_name", "toolName", "name"), "tool", 100)
    summary, c3 = _text(
        _pick(event, "summary", "message", "text", "content"), "summary", _MAX_FIELD_CHARS
    )
    output, c4 = _text(output_raw, "output", max_output_chars, tail=True)

    path = _pick(event, "path", "memory_path", "memoryPath")
    if path is not None:
        if not isinstance(path, str):
            raise InvalidInputError("event path must be a string")
        path = validate_path(path.strip().strip("/")) or None

    agent = _ident(_pick(event, "agent_id", "agentId", "agent"), "agent_id") or default_agent_id
    return AgentEvent(
        type=etype,
        source=source.strip().lower(),
        memory_type=mtype,
        agent_id=agent,
        client=_ident(_pick(event, "client", "client_name", "clientName"), "client"),
        device=_ident(_pick(event, "device", "hostname"), "device"),
        instance=_ident(_pick(event, "instance", "instance_id", "instanceId"), "instance"),
        command=command,
        tool=tool,
        exit_code=exit_code,
        status=status,
        summary=summary,
        output=output,
        path=path,
        session_id=_ident(_pick(event, "session_id", "sessionId"), "session_id"),
        thread_id=_ident(_pick(event, "thread_id", "threadId"), "thread_id"),
        run_id=_ident(_pick(event, "run_id", "runId"), "run_id"),
        occurred_at=_when(_pick(event, "timestamp", "occurred_at", "occurredAt", "ts")),
        redacted=c1 or c2 or c3 or c4,
    )


def _default_path(event: AgentEvent) -> str:
    agent = _SEGMENT.sub("-", event.agent_id or "unknown").strip("-.") or "unknown"
    return f"agents/{agent[:60]}/{event.source}"


def _content(event: AgentEvent) -> str:
    subject = f"`{event.command}`" if event.command else (event.tool or event.type)
    head = f"{event.source}: {subject}"
    if event.status is not None:
        head += f" {event.status}"
    elif event.command or event.tool:
        head += f" ({event.type.replace('_', ' ')})"
    if event.exit_code is not None:
        head += f" (exit {event.exit_code})"
    body = event.summary or ""
    if event.output:
        last = [line.strip() for line in event.output.splitlines() if line.strip()]
        verdict = last[-1] if last else ""
        body = f"{body} — {verdict}" if body and verdict else (body or verdict)
    text = f"{head}: {body}" if body else head
    return text if len(text) <= _MAX_CONTENT_CHARS else text[: _MAX_CONTENT_CHARS - 1] + "…"


def to_memory_candidate(event: AgentEvent) -> CandidateInput:
    """The typed candidate for one normalized event; hand it to ``Userlore.write``.

    The content is one readable line (``shell: `pytest` succeeded (exit 0): 12 passed``); the
    bounded, scrubbed event is kept as redacted evidence; the path defaults to
    ``agents/<agent id>/<source>``.
    """
    failed = event.status == "failed"
    return CandidateInput(
        kind="agent_event",
        content=_content(event),
        memory_type=event.memory_type,
        path=event.path or _default_path(event),
        explicitness=Explicitness.EXPLICIT,
        confidence=0.9 if event.exit_code is not None else 0.75,
        importance=0.6 if failed else 0.3,
        durability=_DURABILITY[event.memory_type],
        producer=Producer.TOOL,
        evidence_text=json.dumps(event.as_dict(), ensure_ascii=False, sort_keys=True),
        session_key=event.session_id,
        author_agent_id=event.agent_id,
        author_client=event.client,
        author_device=event.device,
        author_instance=event.instance,
        thread_id=event.thread_id,
        run_id=event.run_id,
    )
