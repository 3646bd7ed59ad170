"""Revising many held keys at once: the batch form of ``govern_upsert``'s revise branch.

A connected source revises what the scope already holds: a daily note gets the items of its
day's next batch, a changed item a new version of its fact. One at a time, each cost a savepoint
and about eight round trips (on PostgreSQL most of synthesis's statements at 10,000 items).
:meth:`HeldRevisions.revise_held` does the same for many keys in a few statements: the keys'
records are read by the caller in one statement, the existing evidence links in one, and the
new versions, snapshots and links are written by one flush and one insert. Every decision is
:meth:`GovernedStore.govern_upsert`'s, in the same order, so what is stored is the same.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from sqlalchemy import Table, select
from sqlalchemy.orm import Session

from userlore.errors import RecordNotFoundError, UserloreError
from userlore.models import (
    CandidateInput,
    Disclosure,
    RecordState,
    UserState,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import Assessment
from userlore.store.concurrency import dialect_insert
from userlore.store.records import RecordWriter
from userlore.store.schema import MemoryEvidence, MemoryRecord
from userlore.store.transitions import LIVE_STATES
from userlore.store.views import record_view

__all__ = ["HeldRevisions", "Revision", "held_key_skipped"]

_EVIDENCE = cast(Table, MemoryEvidence.__table__)
_PART = 1_000
"""Record ids per ``IN`` list (under SQLite's bound-parameter limit)."""


@dataclass(frozen=True, slots=True)
class Revision:
    """An admitted keyed candidate for a key the scope holds, with the records of that key
    (newest first) and every evidence item it names, already known to be in the scope or not."""

    candidate: CandidateInput
    verdict: Assessment
    rows: Sequence[MemoryRecord]
    evidence: tuple[str, ...] = ()
    evidence_relation: str = "stated_in"
    missing: bool = False
    """An evidence item (its own or a further one) is not in the scope."""


class HeldRevisions(RecordWriter):
    """:meth:`revise_held`, the batched revise branch of ``govern_upsert``."""

    def revise_held(
        self, session: Session, scope: str, revisions: Sequence[Revision]
    ) -> list[WriteOutcome | UserloreError | None]:
        """Revise (or reinforce) the live record of each revision's key, in a few statements.

        The outcome of each, in order: a :class:`WriteOutcome`, the typed error that refuses it
        alone (nothing of it is written), or ``None`` when its key has no live record, which
        :meth:`govern_upsert` must decide (it creates a new one). Keys must be distinct; the
        caller holds the scope's write lock and has checked ``candidate.source_item_id`` and
        ``evidence`` against the scope (``missing``).
        """
        now = self.clock()
        out: list[WriteOutcome | UserloreError | None] = []
        live: list[tuple[int, MemoryRecord]] = []
        for n, rev in enumerate(revisions):
            rows = rev.rows
            skipped = held_key_skipped(rows)
            if skipped is not None:
                out.append(skipped)
                continue
            row = next((r for r in rows if r.state in LIVE_STATES), None)
            if rev.missing:
                out.append(RecordNotFoundError("an evidence item is not in this scope"))
            elif row is None:
                out.append(None)
            else:
                out.append(None)
                live.append((n, row))
        linked = self._links(session, scope, [row.id for _, row in live])
        links: list[dict[str, Any]] = []
        for n, row in live:
            rev = revisions[n]
            c = rev.candidate
            action = self._revise_live(session, row, c, rev.verdict, now, flush=False)
            wanted = [(c.source_item_id, "stated_in")] if c.source_item_id else []
            wanted += [
                (i, rev.evidence_relation) for i in sorted(set(rev.evidence) - {c.source_item_id})
            ]
            have = linked.get(row.id, set())
            for item_id, relation in wanted:
                if (item_id, relation) not in have:
                    have.add((item_id, relation))
                    links.append(
                        {
                            "scope": scope,
                            "record_id": row.id,
                            "source_item_id": item_id,
                            "relation": relation,
                            "created_at": now,
                        }
                    )
                    row.evidence_count += 1
            self._maybe_activate(session, row, now)
            out[n] = WriteOutcome(action, record_view(row))
        session.flush()
        if links:
            # Insert-or-nothing as link_evidence's; under the scope's write lock, so exactly
            # the links counted above are new.
            session.execute(
                dialect_insert(session, _EVIDENCE).on_conflict_do_nothing(
                    index_elements=["record_id", "source_item_id", "relation"]
                ),
                links,
            )
        return out

    def _revise_live(
        self,
        session: Session,
        row: MemoryRecord,
        candidate: CandidateInput,
        verdict: Assessment,
        now: datetime,
        *,
        flush: bool = True,
    ) -> WriteAction:
        """Reinforce ``row`` (same content and value) or make the candidate its next version,
        with the verdict's sensitivity; a disclosure the user set to never stays never."""
        if row.content == candidate.content.strip() and row.value == candidate.value:
            return WriteAction.REINFORCED
        self._new_version(
            session, row, candidate.content, candidate.value, candidate, now, flush=flush
        )
        row.sensitivity = verdict.sensitivity.value
        row.sensitivity_category = verdict.category
        if row.disclosure != Disclosure.NEVER.value:
            row.disclosure = verdict.disclosure.value
        row.valid_from = candidate.valid_from or row.valid_from
        row.importance, row.confidence = candidate.importance, candidate.confidence
        return WriteAction.SUPERSEDING

    @staticmethod
    def _links(
        session: Session, scope: str, record_ids: Sequence[str]
    ) -> dict[str, set[tuple[str, str]]]:
        """The (item id, relation) evidence links of each record."""
        out: dict[str, set[tuple[str, str]]] = {}
        e = MemoryEvidence
        for at in range(0, len(record_ids), _PART):
            for record_id, item_id, relation in session.execute(
                select(e.record_id, e.source_item_id, e.relation).where(
                    e.scope == scope, e.record_id.in_(record_ids[at : at + _PART])
                )
            ):
                out.setdefault(record_id, set()).add((item_id, relation))
        return out


def held_key_skipped(rows: Sequence[MemoryRecord]) -> WriteOutcome | None:
    """Why a keyed revision of ``rows`` (newest first) is skipped, if it is: the user forgot
    the key, or deleted its latest record (a tombstone is not undone by an upstream edit)."""
    if any(r.user_state == UserState.FORGOTTEN.value for r in rows):
        return WriteOutcome(WriteAction.SKIPPED, reason="forgotten")
    if rows and rows[0].state == RecordState.DELETED.value:
        return WriteOutcome(WriteAction.SKIPPED, reason="deleted")
    return None


def held_rows(
    session: Session, scope: str, keys: Sequence[str]
) -> Mapping[str, list[MemoryRecord]]:
    """The records of each of ``keys`` in ``scope``, newest first (keys nothing held are
    absent): one statement per thousand keys."""
    out: dict[str, list[MemoryRecord]] = {}
    ordered = sorted(keys)
    for at in range(0, len(ordered), _PART):
        for row in session.scalars(
            select(MemoryRecord)
            .where(
                MemoryRecord.scope == scope,
                MemoryRecord.canonical_key.in_(ordered[at : at + _PART]),
            )
            .order_by(MemoryRecord.seq.desc())
        ):
            out.setdefault(cast(str, row.canonical_key), []).append(row)
    return out
