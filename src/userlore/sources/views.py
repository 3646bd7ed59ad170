"""Read-only views of connected-source state, and the reports of a sync and a pipeline pass."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any

__all__ = [
    "SYNTHESIS_STATES",
    "PipelineReport",
    "SourceChangeView",
    "SourceItemView",
    "SourceStateView",
    "SyncCounts",
    "SyncReport",
    "SyncRunView",
]

SYNTHESIS_STATES = ("pending", "running", "done", "skipped", "refused", "failed")
"""The states of a source item's synthesis (:attr:`SourceItemView.synthesis_state`)."""


@dataclass(slots=True)
class SyncCounts:
    """Counts of one ingestion run.

    Attributes:
        seen: Items the adapter yielded.
        added: New items (or items back after an upstream deletion).
        modified: Items whose normalized content changed.
        deleted: Items deleted upstream.
        unchanged: Items whose content hash matched; nothing was written for them.
        skipped: Items left out: by the adapter (joins, empty messages), empty after
            normalization, or repeated within one pull.
        blocked: Added or modified items holding secret or regulated content; stored redacted
            and never synthesized.
        truncated: Items cut to the size bound.
        pending: Items of the source still waiting for synthesis when the sync finished
            (pending, or waiting for a retry); all its changes when synthesis was not asked for.
        running: Items of the source leased by a worker when the sync finished (another
            worker is processing them, or a crashed worker's lease has not run out yet).
    """

    seen: int = 0
    added: int = 0
    modified: int = 0
    deleted: int = 0
    unchanged: int = 0
    skipped: int = 0
    blocked: int = 0
    truncated: int = 0
    pending: int = 0
    running: int = 0

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @property
    def changed(self) -> int:
        return self.added + self.modified + self.deleted


@dataclass(slots=True)
class PipelineReport:
    """What one or more pipeline passes did.

    Attributes:
        claimed: Items leased for processing.
        created: Workspace facts created.
        revised: Workspace facts that got a new version.
        unchanged: Items whose fact already said the same.
        archived: Records archived because their item was deleted or became blocked.
        notes: Daily notes written or revised.
        statements: Records governed from items routed to user understanding.
        skipped: Items not synthesized (blocked content, or skipped by policy: a forgotten or
            deleted key, memory mode).
        refused: Items whose fact (or one of whose statements) the sensitivity floor refused;
            the item is left ``refused`` with a fixed reason code in ``last_error``.
        retried: Items that failed and were scheduled for another attempt.
        failed: Items that failed for the last time.
        lost: Items whose lease expired and was taken over before this worker finished.
        released: Items handed back to pending unprocessed (the worker was stopped).
    """

    claimed: int = 0
    created: int = 0
    revised: int = 0
    unchanged: int = 0
    archived: int = 0
    notes: int = 0
    statements: int = 0
    skipped: int = 0
    refused: int = 0
    retried: int = 0
    failed: int = 0
    lost: int = 0
    released: int = 0

    def add(self, other: PipelineReport) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def as_dict(self) -> dict[str, int]:
        return asdict(self)

    @property
    def processed(self) -> int:
        return self.claimed - self.retried - self.failed - self.lost - self.released


@dataclass(frozen=True, slots=True)
class SyncReport:
    """Receipt of one sync: the run's counts and, when synthesis ran, what it produced.

    ``status`` is ``succeeded`` when the source was pulled and (if synthesis ran) nothing of it
    is left to synthesize; ``partial`` when synthesis ran but ``counts.pending`` or
    ``counts.running`` items are still waiting (leased by another worker, or due for a retry);
    ``failed`` runs raise :class:`~userlore.errors.SourceSyncError` instead of returning.
    """

    run_id: str
    scope: str
    source_instance_id: str
    status: str
    counts: SyncCounts
    warnings: tuple[str, ...]
    error: str | None
    started_at: datetime
    finished_at: datetime | None
    duration_ms: float
    synthesis: PipelineReport | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "scope": self.scope,
            "source_instance_id": self.source_instance_id,
            "status": self.status,
            "counts": self.counts.as_dict(),
            "warnings": list(self.warnings),
            "error": self.error,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "duration_ms": self.duration_ms,
            "synthesis": self.synthesis.as_dict() if self.synthesis else None,
        }


@dataclass(frozen=True, slots=True)
class SourceItemView:
    """One stored (normalized, redacted) source item."""

    id: str
    scope: str
    source_instance_id: str
    external_id: str
    title: str | None
    text: str
    meta: dict[str, Any]
    occurred_at: datetime | None
    pipeline: str
    blocked: bool
    synthesis_state: str
    synthesis_attempts: int
    next_attempt_at: datetime | None
    lease_owner: str | None
    lease_expires_at: datetime | None
    last_error: str | None
    deleted_at: datetime | None
    content_hash: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class SourceChangeView:
    """One entry of the change ledger."""

    sequence: int
    scope: str
    source_instance_id: str
    source_item_id: str
    external_id: str
    change_type: str
    content_hash: str | None
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SyncRunView:
    """One recorded ingestion run (``running``, ``succeeded``, ``partial`` or ``failed``)."""

    id: str
    scope: str
    source_instance_id: str
    status: str
    counts: dict[str, int]
    warnings: tuple[str, ...]
    error: str | None
    started_at: datetime
    finished_at: datetime | None

    @property
    def duration_ms(self) -> float | None:
        if self.finished_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds() * 1000


@dataclass(frozen=True, slots=True)
class SourceStateView:
    """A connected source of a scope: cursor state, item counts and its latest run."""

    source_instance_id: str
    scope: str
    kind: str
    label: str
    items: int
    pending: int
    updated_at: datetime
    latest_run: SyncRunView | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    refused: int = 0
    """Items whose record the sensitivity floor refused (state ``refused``)."""
