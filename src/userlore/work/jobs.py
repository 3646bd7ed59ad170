"""The jobs a turn hands off, and how each runs.

``observe``: one user turn through the governed write path (``Userlore.observe``; idempotent per
turn id). ``review``: one reviewer pass over the run's recent messages. A job's text stays in
process memory while it waits in the in-process queue; what goes into the durable table is the
policy's redaction of it (the same text the evidence store keeps), so no secret is stored.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from userlore.errors import ConfigError, StorageError, UserloreError
from userlore.models import TurnSafety
from userlore.policy.sensitivity import redact
from userlore.understanding import MAX_TURN_CHARS
from userlore.validation import storable

if TYPE_CHECKING:
    from userlore.extract.reviewer import LLMReviewer
    from userlore.facade import Userlore

__all__ = [
    "OBSERVE",
    "REVIEW",
    "Job",
    "mode_mismatch",
    "observe_job",
    "review_job",
    "run_job",
    "transient",
]

OBSERVE = "observe"
REVIEW = "review"


@dataclass(frozen=True, slots=True)
class Job:
    """One unit of handed-off work: its kind, scope, idempotency key and payload."""

    kind: str
    scope: str
    dedupe_key: str
    payload: dict[str, Any] = field(default_factory=dict)

    def durable_payload(self) -> dict[str, Any]:
        """The payload as the durable table may hold it: every text redacted."""
        if self.kind == OBSERVE and "text" in self.payload:
            return {**self.payload, "text": redact(str(self.payload.get("text", "")))}
        if self.kind == REVIEW:
            messages = [[role, redact(text)] for role, text in self.payload.get("messages", [])]
            return {**self.payload, "messages": messages}
        return dict(self.payload)


def observe_job(
    scope: str,
    text: str,
    *,
    turn_id: str | None,
    session_key: str | None,
    agent_id: str | None,
    at: datetime | None = None,
    mode: str | None = None,
) -> Job:
    """A user turn to observe (keyed by its message id, else unique).

    ``at`` is when the turn was said: a job run later still dates the turn by it. ``mode`` is the
    memory mode of the agent that queued it: it decides whether the turn's records become
    candidates or active, so a worker under another mode leaves it alone.
    """
    key = f"turn:{turn_id}" if turn_id else f"once:{uuid.uuid4().hex}"
    payload: dict[str, Any] = {"turn_id": turn_id, "session_key": session_key, "mode": mode}
    if at is not None:
        payload["at"] = at.isoformat()
    if len(text) > MAX_TURN_CHARS:
        payload["skip"] = "turn_too_long"  # a pasted log must not fail the turn: trace it
    elif not storable(text):
        payload["skip"] = "turn_unstorable"  # NUL or an unpaired surrogate: no backend stores it
    else:
        payload |= {"text": text, "agent_id": agent_id}
    return Job(OBSERVE, scope, key, payload)


def review_job(
    scope: str,
    messages: Sequence[BaseMessage],
    *,
    thread_id: str | None,
    user_turns: int,
    window: int,
    mode: str | None = None,
) -> Job:
    """A review pass over the last ``window`` user and assistant messages of a run.

    Keyed by thread and user-turn count, so the pass the cadence asked for is queued once.
    """
    kept: list[list[str]] = []
    for message in messages:
        role = "user" if isinstance(message, HumanMessage) else "assistant"
        if isinstance(message, HumanMessage | AIMessage) and message.text.strip():
            kept.append([role, message.text])
    key = f"{thread_id}:{user_turns}" if thread_id else f"once:{uuid.uuid4().hex}"
    payload = {
        "messages": kept[-window:],
        "thread_id": thread_id,
        "user_turns": user_turns,
        "mode": mode,
    }
    return Job(REVIEW, scope, key, payload)


def mode_mismatch(lore: Userlore, job: Job) -> str | None:
    """Why ``lore`` must not run ``job``: it was queued under another memory mode, else ``None``.

    The mode decides the outcome (``auto`` activates, ``confirmWrite`` makes candidates), so a
    turn queued by an ``auto`` agent run by a worker on the default configuration would come out
    differently from the same turn run in the agent's process.
    """
    queued = job.payload.get("mode")
    running = lore.config.memory.mode.value
    if queued is None or queued == running:
        return None
    return f"{job.kind} job queued under mode {queued!r}; this worker runs {running!r}"


def transient(exc: BaseException) -> bool:
    """Whether a failed job is worth another try: the database failed, not the input."""
    return isinstance(exc, StorageError) or not isinstance(exc, UserloreError)


def run_job(lore: Userlore, job: Job, reviewer: LLMReviewer | None) -> None:
    """Run ``job`` against ``lore``.

    Raises:
        ConfigError: a review job and no reviewer, or an unknown kind.
        UserloreError: what the write path raises (typed; storage errors are transient).
    """
    p = job.payload
    if job.kind == OBSERVE and p.get("skip"):
        lore.traces.record(
            job.scope, OBSERVE, reason_code=str(p["skip"]), session_key=p.get("session_key")
        )
    elif job.kind == OBSERVE:
        observed = lore.observe(
            job.scope,
            "user",
            str(p["text"]),
            session_key=p.get("session_key"),
            turn_id=p.get("turn_id"),
            agent_id=p.get("agent_id"),
            at=datetime.fromisoformat(str(p["at"])) if p.get("at") else None,
        )
        if observed.safety != TurnSafety():
            # Off the turn, the app learns what was redacted or withheld from this trace
            # (categories only), e.g. to tell its user to rotate a key they just pasted.
            lore.traces.record(
                job.scope,
                OBSERVE,
                reason_code="safety",
                session_key=p.get("session_key"),
                payload={
                    "source_item_id": observed.source_item_id,
                    **{k: v for k, v in asdict(observed.safety).items() if v},
                },
            )
    elif job.kind == REVIEW:
        if reviewer is None:
            raise ConfigError("a review job needs a reviewer")
        thread = p.get("thread_id")
        messages = [(str(role), str(text)) for role, text in p.get("messages", [])]
        reviewer.review(lore, job.scope, messages, session_key=thread, thread_id=thread)
    else:
        raise ConfigError(f"unknown job kind {job.kind!r}")
