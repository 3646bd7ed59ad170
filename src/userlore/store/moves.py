"""User- and reviewer-driven lifecycle operations: approve, reject, update, forget, restore, pin."""

from __future__ import annotations

from sqlalchemy import select

from userlore.errors import InvalidTransitionError
from userlore.models import CandidateInput, RecordState, RecordView, UserState
from userlore.store.records import RecordWriter
from userlore.store.schema import MemoryRecord, ReviewDecision
from userlore.store.transitions import LIVE_STATES
from userlore.store.views import record_view

__all__ = ["LifecycleMoves"]


class LifecycleMoves(RecordWriter):
    """One transaction per operation; every state change goes through the transition table."""

    def approve(
        self,
        scope: str | None,
        record_id: str,
        *,
        content: str | None = None,
        reviewer: str | None = None,
    ) -> RecordView:
        """Activate a candidate (or a paused record); ``content`` approves an edited version."""
        self.require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            now = self.clock()
            if RecordState(row.state) not in (RecordState.CANDIDATE, RecordState.NEEDS_REVIEW):
                raise InvalidTransitionError(f"cannot approve a record in state {row.state}")
            decision = "approve"
            if content is not None and content.strip() != row.content:
                self._checked_edit(session, row, content, None, now)
                decision = "edit"
            self.activate(session, row, now)
            session.add(
                ReviewDecision(
                    scope=row.scope,
                    record_id=row.id,
                    decision=decision,
                    producer=row.producer,
                    reviewer=reviewer,
                    created_at=now,
                )
            )
            return record_view(row)

    def reject(
        self, scope: str | None, record_id: str, *, reviewer: str | None = None
    ) -> RecordView:
        """Reject a candidate; the decision is kept for the acceptance rate."""
        self.require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            now = self.clock()
            if row.state != RecordState.CANDIDATE.value:
                raise InvalidTransitionError(f"cannot reject a record in state {row.state}")
            self.transition(row, RecordState.REJECTED, now)
            session.add(
                ReviewDecision(
                    scope=row.scope,
                    record_id=row.id,
                    decision="reject",
                    producer=row.producer,
                    reviewer=reviewer,
                    created_at=now,
                )
            )
            return record_view(row)

    def update(
        self,
        scope: str | None,
        record_id: str,
        content: str,
        *,
        value: str | None = None,
        author: CandidateInput | None = None,
    ) -> RecordView:
        """Write version n+1 of a live record; version n stays as an immutable snapshot."""
        self.require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if RecordState(row.state) not in LIVE_STATES:
                raise InvalidTransitionError(f"cannot update a record in state {row.state}")
            self._checked_edit(session, row, content, value, self.clock(), author)
            return record_view(row)

    def forget(self, scope: str | None, record_id: str) -> RecordView:
        """Tombstone: out of every recall and plan at once, restorable from the trash."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if row.state == RecordState.DELETED.value:
                raise InvalidTransitionError(f"record {record_id} is already deleted")
            previous = row.state
            self.transition(row, RecordState.DELETED, self.clock())
            row.state_before_delete = previous
            return record_view(row)

    def restore(self, scope: str | None, record_id: str) -> RecordView:
        """Bring a tombstoned record back to the state it had, unchanged."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if row.state != RecordState.DELETED.value:
                raise InvalidTransitionError(f"record {record_id} is not deleted")
            target = row.state_before_delete or RecordState.ARCHIVED.value
            if target == RecordState.ACTIVE.value and row.canonical_key:
                clash = session.scalar(
                    select(MemoryRecord.id).where(
                        MemoryRecord.scope == row.scope,
                        MemoryRecord.canonical_key == row.canonical_key,
                        MemoryRecord.state == RecordState.ACTIVE.value,
                    )
                )
                if clash is not None:
                    raise InvalidTransitionError(
                        f"cannot restore: {clash} is now active for key {row.canonical_key!r}"
                    )
            self.transition(row, RecordState(target), self.clock())
            row.state_before_delete = None
            return record_view(row)

    def set_user_state(
        self, scope: str | None, record_id: str, user_state: UserState
    ) -> RecordView:
        """Pin, unpin or forget (seed 002 user overrides)."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if row.state == RecordState.DELETED.value:
                raise InvalidTransitionError("cannot change a deleted record; restore it first")
            row.user_state = user_state.value
            row.updated_at = self.clock()
            return record_view(row)
