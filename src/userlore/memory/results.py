"""What the seed 003 operations return: receipts, recall's citations and episodes, history.

Every surface (the facade, the tools, MCP, HTTP) serialises these with ``as_dict``, so an agent,
an MCP client and an HTTP caller all see the same evidence of what happened: the version an
operation touched (id, version, state, parent version, diff, author) and recall's live versions
cited as ``mem_x@v2``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from userlore.models import MemoryType, RecordState
from userlore.validation import optional_identifier

__all__ = [
    "Author",
    "Citation",
    "Episode",
    "MemoryReceipt",
    "RecallResult",
    "VersionEntry",
    "cite",
]

_AUTHOR_CHARS = 200


def cite(record_id: str, version: int) -> str:
    """A citation of one version, ``id@vN``: how receipts, recall and history name a version."""
    return f"{record_id}@v{version}"


@dataclass(frozen=True, slots=True)
class _Version:
    """One version of a record: what a receipt, a recall citation and a history entry name."""

    id: str
    version: int

    @property
    def citation(self) -> str:
        """This version cited as ``id@vN`` (:func:`cite`)."""
        return cite(self.id, self.version)

    def _cited(self) -> dict[str, Any]:
        """The ``citation``, ``id`` and ``version`` keys an ``as_dict`` opens with."""
        return {"citation": self.citation, "id": self.id, "version": self.version}


@dataclass(frozen=True, slots=True)
class Author:
    """Who wrote a version: agent id, client name, device and instance hash.

    Stored immutably on every version snapshot; a service surface fills it from its own
    configuration, never from arguments a model could change.
    """

    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    instance: str | None = None

    def __post_init__(self) -> None:
        for name in ("agent_id", "client", "device", "instance"):
            optional_identifier(getattr(self, name), f"author {name}", max_chars=_AUTHOR_CHARS)

    def as_dict(self) -> dict[str, str | None]:
        return {
            "agent_id": self.agent_id,
            "client": self.client,
            "device": self.device,
            "instance": self.instance,
        }


@dataclass(frozen=True, slots=True)
class MemoryReceipt(_Version):
    """What one lifecycle operation did, described by the version it left live.

    Attributes:
        id: Record id.
        version: The record's current version.
        state: The record's lifecycle state after the operation.
        action: ``created``, ``reinforced``, ``superseding``, ``updated``, ``forgotten`` or
            ``restored``.
        parent_version: The version this one replaced (now a superseded snapshot), if any.
        diff: Word diff from the parent version (``-Orion +Polaris``), if any.
        author: Attribution stored on this version.
        superseded_record_id: A different record this write replaced (canonical-key writes).
    """

    state: RecordState
    action: str
    memory_type: MemoryType
    path: str
    parent_version: int | None
    diff: str | None
    author: Author
    superseded_record_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form, the same on every surface (facade, tools, MCP, HTTP)."""
        return {
            "id": self.id,
            "version": self.version,
            "citation": self.citation,
            "state": self.state.value,
            "action": self.action,
            "memory_type": self.memory_type.value,
            "path": self.path,
            "parent_version": self.parent_version,
            "parent_state": None if self.parent_version is None else "superseded",
            "diff": self.diff,
            "restorable": self.state is RecordState.DELETED,
            "author": self.author.as_dict(),
            "superseded_record_id": self.superseded_record_id,
        }


@dataclass(frozen=True, slots=True)
class Citation(_Version):
    """One live version returned by recall."""

    content: str
    memory_type: MemoryType
    path: str
    kind: str
    score: float
    author: Author
    updated_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            **self._cited(),
            "content": self.content,
            "memory_type": self.memory_type.value,
            "path": self.path,
            "kind": self.kind,
            "score": round(self.score, 6),
            "author": self.author.as_dict(),
            "updated_at": self.updated_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Episode:
    """One thing the user said (a redacted turn or source item) that recall found."""

    item_id: str
    text: str
    occurred_at: datetime | None
    score: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.item_id,
            "text": self.text,
            "occurred_at": self.occurred_at.isoformat() if self.occurred_at else None,
            "score": round(self.score, 6),
        }


@dataclass(frozen=True, slots=True)
class RecallResult:
    """Recall's answer: live citations, plus what matched but was kept out and why.

    ``excluded`` holds ``{"citation" | "id", "reason"}`` entries: older versions of a cited
    record (``superseded``) and records the policy filter refused (``deleted``, ``not_active``,
    ``consent_required``...). Excluded entries carry no content.
    """

    memories: tuple[Citation, ...]
    excluded: tuple[dict[str, str], ...] = ()
    trace_id: str | None = None
    episodes: tuple[Episode, ...] = ()
    """What the user said that matches, when asked for (``episodes=``), best first."""

    @property
    def citations(self) -> tuple[str, ...]:
        return tuple(m.citation for m in self.memories)

    def as_dict(self) -> dict[str, Any]:
        """The seed 003 recall result; ``episodes`` only when some were asked for and found."""
        out: dict[str, Any] = {
            "citations": list(self.citations),
            "count": len(self.memories),
            "memories": [m.as_dict() for m in self.memories],
            "excluded": [dict(e) for e in self.excluded],
            "trace_id": self.trace_id,
        }
        if self.episodes:
            out["episodes"] = [e.as_dict() for e in self.episodes]
        return out


@dataclass(frozen=True, slots=True)
class VersionEntry(_Version):
    """One version of a record in :meth:`MemoryService.history`."""

    parent_version: int | None
    state: str
    content: str
    diff: str | None
    author: Author
    created_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            **self._cited(),
            "parent_version": self.parent_version,
            "state": self.state,
            "content": self.content,
            "diff": self.diff,
            "author": self.author.as_dict(),
            "created_at": self.created_at.isoformat(),
        }
