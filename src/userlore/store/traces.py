"""Trace events: ids, versions and reason codes of what the store did (never user text)."""

from __future__ import annotations

from typing import Any, TypedDict, Unpack

from sqlalchemy import Connection, insert, select
from sqlalchemy.orm import Session

from userlore.store.core import StoreCore
from userlore.store.schema import MemoryTraceEvent
from userlore.validation import validate_scope

__all__ = ["TraceFields", "TraceLog"]


class TraceFields(TypedDict, total=False):
    """The optional fields of a trace event (see :meth:`TraceLog.trace`)."""

    reason_code: str | None
    session_key: str | None
    payload: dict[str, Any] | None
    chars: int
    parent: str | None


class TraceLog(StoreCore):
    """Writes and lists ``memory_trace_events``."""

    def trace(
        self,
        executor: Session | Connection,
        scope: str,
        event_type: str,
        *,
        reason_code: str | None = None,
        session_key: str | None = None,
        payload: dict[str, Any] | None = None,
        chars: int = 0,
        parent: str | None = None,
    ) -> str:
        """Write one trace event inside ``executor``'s unit of work; returns its id.

        Traces hold ids, versions, counts and fixed reason codes, never user text.
        """
        trace_id = self.new_id("trc")
        executor.execute(
            insert(MemoryTraceEvent),
            {
                "id": trace_id,
                "scope": scope,
                "event_type": event_type,
                "session_key": session_key,
                "parent_trace_id": parent,
                "reason_code": reason_code,
                "feedback": None,
                "payload": payload or {},
                "chars": chars,
                "created_at": self.clock(),
            },
        )
        return trace_id

    def record_trace(self, scope: str, event_type: str, **fields: Unpack[TraceFields]) -> str:
        """:meth:`trace` in its own transaction."""
        with self.transaction(scope) as session:
            return self.trace(session, scope, event_type, **fields)

    def traces(
        self,
        scope: str,
        *,
        event_type: str | None = None,
        limit: int = 100,
        trace_id: str | None = None,
    ) -> list[dict[str, Any]]:
        validate_scope(scope)
        stmt = select(MemoryTraceEvent).where(MemoryTraceEvent.scope == scope)
        if trace_id is not None:
            stmt = stmt.where(MemoryTraceEvent.id == trace_id)
        if event_type:
            stmt = stmt.where(MemoryTraceEvent.event_type == event_type)
        stmt = stmt.order_by(MemoryTraceEvent.created_at.desc(), MemoryTraceEvent.id.desc()).limit(
            limit
        )
        with self.transaction(scope) as session:
            return [
                {
                    "id": t.id,
                    "event_type": t.event_type,
                    "session_key": t.session_key,
                    "reason_code": t.reason_code,
                    "feedback": t.feedback,
                    "payload": t.payload,
                    "chars": t.chars,
                    "created_at": t.created_at,
                    "parent_trace_id": t.parent_trace_id,
                }
                for t in session.scalars(stmt)
            ]
