"""What the system did and has still to do: trace events (ids and codes, never text) and the
durable work queue."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import ForeignKeyConstraint, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column

from userlore.store.schema.base import Base

__all__ = ["MemoryTraceEvent", "WorkItem"]


class MemoryTraceEvent(Base):
    """Plans, feedback, corrections, remediation, governance refusals and consent changes.

    Never holds user text: only ids, versions, fixed reason codes and counts.
    """

    __tablename__ = "memory_trace_events"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    event_type: Mapped[str] = mapped_column(String(30))
    session_key: Mapped[str | None] = mapped_column(String(300))
    parent_trace_id: Mapped[str | None] = mapped_column(String(40))
    reason_code: Mapped[str | None] = mapped_column(String(60))
    feedback: Mapped[str | None] = mapped_column(String(20))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    chars: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime]

    __table_args__ = (
        Index("ix_traces_scope_session", "scope", "session_key", "created_at"),
        Index("ix_traces_scope_type", "scope", "event_type", "created_at"),
        Index(
            "ix_traces_scope_parent",
            "scope",
            "parent_trace_id",
            postgresql_where=text("parent_trace_id IS NOT NULL"),
            sqlite_where=text("parent_trace_id IS NOT NULL"),
        ),
        UniqueConstraint("scope", "id", name="uq_traces_scope_id"),
        ForeignKeyConstraint(
            ["scope", "parent_trace_id"],
            ["memory_trace_events.scope", "memory_trace_events.id"],
            name="fk_traces_parent",
        ),
    )


class WorkItem(Base):
    """A job the turn handed off (an observation or a review), run by a worker, not the turn.

    Durable until done: a queued review survives a restart. Claimed with a lease like source
    items (``userlore.work.queue``). The payload holds redacted text only, and is cleared when
    the job is done; the row stays so the same job (``dedupe_key``) never runs twice.
    """

    __tablename__ = "work_items"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    scope: Mapped[str] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(20))
    dedupe_key: Mapped[str] = mapped_column(String(500))
    payload: Mapped[dict[str, Any]] = mapped_column(default=dict)
    state: Mapped[str] = mapped_column(String(20), default="pending")
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None]
    lease_owner: Mapped[str | None] = mapped_column(String(200))
    lease_expires_at: Mapped[datetime | None]
    last_error: Mapped[str | None] = mapped_column(String(200))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]

    __table_args__ = (
        UniqueConstraint("scope", "kind", "dedupe_key", name="uq_work_job"),
        Index("ix_work_due", "state", "next_attempt_at"),
        Index("ix_work_scope", "scope", "state"),
    )
