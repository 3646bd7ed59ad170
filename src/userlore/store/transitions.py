"""The record state machine: one table of legal moves, and activation.

Every change of ``memory_records.state`` goes through :meth:`Transitions.transition`, which
refuses any move the table does not list with :class:`InvalidTransitionError`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidTransitionError
from userlore.models import Pipeline, Producer, RecordState
from userlore.store.consent import ConsentLedger
from userlore.store.schema import MemoryRecord
from userlore.validation import validate_scope

__all__ = ["LIVE_STATES", "TRANSITIONS", "Transitions"]

LIVE_STATES = (RecordState.CANDIDATE, RecordState.ACTIVE, RecordState.NEEDS_REVIEW)

# Every legal move of ``MemoryRecord.state``; anything else is refused. ``deleted`` is left only
# by ``restore``, back to the state the record had when it was tombstoned.
TRANSITIONS: dict[RecordState, frozenset[RecordState]] = {
    RecordState.CANDIDATE: frozenset(
        {RecordState.ACTIVE, RecordState.REJECTED, RecordState.DELETED, RecordState.ARCHIVED}
    ),
    RecordState.ACTIVE: frozenset(
        {RecordState.NEEDS_REVIEW, RecordState.ARCHIVED, RecordState.DELETED}
    ),
    RecordState.NEEDS_REVIEW: frozenset(
        {RecordState.ACTIVE, RecordState.ARCHIVED, RecordState.DELETED}
    ),
    RecordState.ARCHIVED: frozenset({RecordState.DELETED}),
    RecordState.SUPERSEDED: frozenset({RecordState.DELETED}),
    RecordState.REJECTED: frozenset({RecordState.DELETED}),
    RecordState.DELETED: frozenset(
        {
            RecordState.CANDIDATE,
            RecordState.ACTIVE,
            RecordState.NEEDS_REVIEW,
            RecordState.ARCHIVED,
            RecordState.SUPERSEDED,
            RecordState.REJECTED,
        }
    ),
}


class Transitions(ConsentLedger):
    """State moves of records; the only code that writes ``MemoryRecord.state``."""

    def transition(self, row: MemoryRecord, target: RecordState, now: datetime) -> None:
        """Move ``row`` to ``target`` if :data:`TRANSITIONS` allows it.

        Raises:
            InvalidTransitionError: the table has no such move.
        """
        current = RecordState(row.state)
        if target not in TRANSITIONS[current]:
            raise InvalidTransitionError(
                f"cannot move record {row.id} from {current.value} to {target.value}"
            )
        row.state = target.value
        row.updated_at = now

    def _promotes(self, row: MemoryRecord) -> bool:
        """Whether a candidate activates without review under the current memory mode."""
        return self.promotes(row.pipeline, row.producer)

    def promotes(self, pipeline: str, producer: str) -> bool:
        """:meth:`_promotes` from a record's pipeline and producer (for rows not yet loaded)."""
        # Connected knowledge is a receipt of the user's own documents, not an inference about
        # them: it activates in confirmWrite too (off/readOnly never reach this point).
        receipt = (
            pipeline == Pipeline.CONNECTED_KNOWLEDGE.value and producer == Producer.SOURCE.value
        )
        return self.config.memory.mode is MemoryMode.AUTO or receipt

    def _maybe_activate(self, session: Session, row: MemoryRecord, now: datetime) -> None:
        if row.state == RecordState.CANDIDATE.value and self._promotes(row):
            self.activate(session, row, now)

    def activate(self, session: Session, row: MemoryRecord, now: datetime) -> None:
        """Make ``row`` live; archive whatever it replaces and close that one's validity."""
        replaced: list[MemoryRecord] = []
        if row.supersedes_record_id:
            old = session.scalars(
                select(MemoryRecord).where(
                    MemoryRecord.scope == row.scope, MemoryRecord.id == row.supersedes_record_id
                )
            ).one_or_none()
            if old is not None and old.state in (
                RecordState.ACTIVE.value,
                RecordState.NEEDS_REVIEW.value,
            ):
                replaced.append(old)
        if row.canonical_key:
            replaced.extend(
                session.scalars(
                    select(MemoryRecord).where(
                        MemoryRecord.scope == row.scope,
                        MemoryRecord.canonical_key == row.canonical_key,
                        MemoryRecord.state == RecordState.ACTIVE.value,
                        MemoryRecord.id != row.id,
                    )
                )
            )
        for old in {r.id: r for r in replaced}.values():
            self.transition(old, RecordState.ARCHIVED, now)
            old.valid_until = now
        session.flush()
        if row.state != RecordState.ACTIVE.value:
            self.transition(row, RecordState.ACTIVE, now)
        row.valid_from = row.valid_from or now
        row.updated_at = now
        try:
            session.flush()
        except IntegrityError:
            raise InvalidTransitionError(
                f"another active record already holds key {row.canonical_key!r}"
            ) from None

    def archive_key(
        self, session: Session, scope: str, canonical_key: str, *, reason: str
    ) -> list[str]:
        """Archive the live records holding ``canonical_key``: their upstream object is gone.

        Versions and evidence stay (history, not deletion) and validity closes now; ``reason``
        is a fixed code written to a ``governance`` trace. Returns the archived record ids.
        """
        validate_scope(scope)
        self.require_writable()
        now = self.clock()
        archived: list[str] = []
        for row in session.scalars(
            select(MemoryRecord).where(
                MemoryRecord.scope == scope,
                MemoryRecord.canonical_key == canonical_key,
                MemoryRecord.state.in_([s.value for s in LIVE_STATES]),
            )
        ):
            self.transition(row, RecordState.ARCHIVED, now)
            row.valid_until = now
            archived.append(row.id)
            self.trace(
                session,
                scope,
                "governance",
                reason_code=reason,
                payload={"record_id": row.id, "v": row.version, "operation": "archive"},
            )
        return archived
