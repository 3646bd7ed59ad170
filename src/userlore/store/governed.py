"""The governed store: the one write API every producer goes through, and the lifecycle.

Each public method is one transaction: it either completes or leaves the database unchanged.
Secret and regulated content is refused before any row is written; evidence is stored redacted;
candidates are deduplicated by canonical key (or normalized content) within a scope; a new value
for a key supersedes the old one as a new version instead of overwriting it.

The store is assembled from one module per concern: ``core`` (transactions), ``traces``,
``consent``, ``transitions`` (the state table), ``records`` (write building blocks), ``moves``
(approve/reject/update/forget/restore/pin) and ``reads``. This module adds
:meth:`GovernedStore.govern` and re-exports the names other packages import from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import groupby

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError, RecordNotFoundError
from userlore.models import (
    CandidateInput,
    RecordState,
    UserState,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import Assessment, FloorVerdict
from userlore.store.admission import PRODUCER_SOURCE
from userlore.store.concurrency import hold_write_lock
from userlore.store.core import Clock, IdFactory
from userlore.store.moves import LifecycleMoves
from userlore.store.reads import RecordReads
from userlore.store.record_batch import EvidenceText, FreshRecord
from userlore.store.revisions import HeldRevisions, held_key_skipped, held_rows
from userlore.store.schema import KnowledgeSourceItem, MemoryEvidence, MemoryRecord
from userlore.store.text import content_key, normalize_value
from userlore.store.transitions import LIVE_STATES, TRANSITIONS
from userlore.store.views import VersionView, path_clause, record_view, under_path
from userlore.validation import bounded, validate_path, validate_scope

__all__ = [
    "LIVE_STATES",
    "PRODUCER_SOURCE",
    "TRANSITIONS",
    "Clock",
    "GovernedStore",
    "IdFactory",
    "VersionView",
    "bounded",
    "path_clause",
    "record_view",
    "under_path",
    "validate_path",
    "validate_scope",
]

# Old private names, kept until the learning package (owned elsewhere) switches to the public ones.


class GovernedStore(LifecycleMoves, HeldRevisions, RecordReads):
    """Governed writes, lifecycle transitions, consent and traces over one database."""

    def write(self, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Govern one candidate in its own transaction."""
        with self.transaction(scope) as session:
            return self.govern(session, scope, candidate)

    def govern(
        self,
        session: Session,
        scope: str,
        candidate: CandidateInput,
        *,
        judged: FloorVerdict | None = None,
    ) -> WriteOutcome:
        """Sensitivity, dedupe, evidence and promotion for one candidate, inside ``session``.

        Args:
            judged: The floor's verdict on this candidate, when the caller already ran it: the
                floor (and the quote's redaction) does not run again on the texts it read.

        Raises:
            InvalidInputError: empty or oversized content, bad kind or path.
        """
        validate_scope(scope)
        verdict = self.admit(session, scope, candidate, judged)
        if isinstance(verdict, WriteOutcome):
            return verdict
        hold_write_lock(session, scope)  # what the scope holds is read below: no race with it
        now = self.clock()
        evidence_item_id = self._evidence_item(session, scope, candidate, judged)
        ckey = candidate.canonical_key
        key_filter = (
            MemoryRecord.canonical_key == ckey
            if ckey
            else MemoryRecord.content_key == content_key(candidate.content)
        )
        same_key = list(
            session.scalars(
                select(MemoryRecord)
                .where(MemoryRecord.scope == scope, key_filter)
                .order_by(MemoryRecord.seq.desc())
            )
        )
        if ckey and any(r.user_state == UserState.FORGOTTEN.value for r in same_key):
            return WriteOutcome(WriteAction.SKIPPED, reason="forgotten")
        live = [r for r in same_key if r.state in LIVE_STATES]
        new_value = normalize_value(candidate.value if candidate.value else candidate.content)
        for row in live:
            old_value = normalize_value(row.value if row.value else row.content)
            if old_value == new_value or not ckey:
                return self._reinforce(session, row, candidate, evidence_item_id, now)
        pending = next((r for r in live if r.state == RecordState.CANDIDATE.value), None)
        current = next((r for r in live if r.state != RecordState.CANDIDATE.value), None)
        if pending is not None:
            # A not-yet-approved value for this key is simply replaced by the newer statement.
            self._new_version(session, pending, candidate.content, candidate.value, candidate, now)
            self.link_evidence(session, pending, evidence_item_id, now)
            self._maybe_activate(session, pending, now)
            return WriteOutcome(
                WriteAction.SUPERSEDING,
                record_view(pending),
                superseded_record_id=pending.supersedes_record_id,
            )
        supersedes = (
            self._own_record_id(session, scope, candidate.supersedes_record_id)
            if candidate.supersedes_record_id
            else (current.id if current else None)
        )
        row = self._insert(
            session,
            scope,
            candidate,
            verdict.sensitivity,
            verdict.category,
            verdict.disclosure,
            now,
            supersedes=supersedes,
            version=(current.version + 1) if current else 1,
            parent=current,
        )
        self.link_evidence(session, row, evidence_item_id, now)
        self._maybe_activate(session, row, now)
        action = WriteAction.SUPERSEDING if supersedes else WriteAction.CREATED
        return WriteOutcome(action, record_view(row), superseded_record_id=supersedes)

    def govern_batch(
        self,
        session: Session,
        scope: str,
        candidates: Sequence[CandidateInput],
        *,
        verdicts: Sequence[FloorVerdict] | None = None,
    ) -> list[WriteOutcome]:
        """:meth:`govern` for many candidates inside ``session``, fresh keys in a few statements.

        The outcome of each candidate is the one :meth:`govern` gives it when the candidates
        are governed one after another in this order. A keyed candidate whose key nothing in
        ``scope`` ever held (and that names no record to supersede or item of its own) is
        written by :meth:`insert_fresh`, its quote stored by :meth:`evidence_items`; every other
        candidate (a key held before, even one deleted; a repeat of a key of this batch; no
        key) comes after the fresh ones, in order: consecutive plain edits of held keys
        (:meth:`_plain_edits`) as one run through the same two methods (:meth:`_edit_run`),
        the rest through :meth:`govern` itself.

        Args:
            verdicts: The floor's :class:`~userlore.policy.govern.FloorVerdict` of each
                candidate, when the caller has just run :meth:`validate_candidate` and
                :func:`~userlore.policy.govern.judge` over the batch: mode and sources are
                still checked here, the fields, the floor and the quote's redaction are not run
                twice. A verdict made for other texts than its candidate's, or a refused one,
                goes through :meth:`admit` (the floor runs).

        Raises:
            InvalidInputError: a candidate is malformed (nothing of the batch is written by
                this call; the caller's transaction decides the rest).
        """
        validate_scope(scope)
        if verdicts is not None and len(verdicts) != len(candidates):
            raise InvalidInputError("govern_batch needs one verdict per candidate")
        outcomes: list[WriteOutcome | None] = [None] * len(candidates)
        admitted: dict[int, Assessment] = {}
        for n, c in enumerate(candidates):
            known = None if verdicts is None else verdicts[n].of(c)
            gate = (
                self.admit(session, scope, c)
                if known is None or known.refused is not None
                else self._gate(c, known)
            )
            if isinstance(gate, WriteOutcome):
                outcomes[n] = gate
            else:
                admitted[n] = gate
        if not admitted:
            return [o for o in outcomes if o is not None]
        hold_write_lock(session, scope)  # which keys the scope holds is read below
        keys = sorted({c.canonical_key for c in candidates if c.canonical_key})
        # A batch that may hold plain edits reads the held keys' rows (which keys are held, and
        # what _plain_edits reads of them) in one query; any other batch only the keys.
        rows_of = held_rows(session, scope, keys) if _keyed_only(candidates) else None
        held = set(rows_of) if rows_of is not None else _held_keys(session, scope, keys)
        fresh: list[int] = []
        slow: list[int] = []
        for n in admitted:
            c = candidates[n]
            if (
                not c.canonical_key
                or c.canonical_key in held
                or c.supersedes_record_id
                or c.source_item_id
            ):
                slow.append(n)
                continue
            held.add(c.canonical_key)  # a repeat of the key in this batch revises this record
            fresh.append(n)
        quoted = [n for n in fresh if candidates[n].evidence_text]
        item_ids = self.evidence_items(
            session,
            scope,
            [
                EvidenceText(
                    str(candidates[n].evidence_text),
                    candidates[n].producer.value,
                    candidates[n].pipeline,
                    # The floor refused nothing blocking in the content, so redacting a quote
                    # that is the content changes nothing: no second classification.
                    redacted=(
                        candidates[n].content
                        if candidates[n].evidence_text == candidates[n].content
                        else None
                    ),
                )
                for n in quoted
            ],
        )
        links = dict(zip(quoted, item_ids, strict=True))
        rows = self.insert_fresh(
            session,
            scope,
            [
                FreshRecord(
                    candidates[n],
                    admitted[n],
                    ((links[n], "stated_in"),) if n in links else (),
                )
                for n in fresh
            ],
            self.clock(),
        )
        for n, row in zip(fresh, rows, strict=True):
            outcomes[n] = WriteOutcome(WriteAction.CREATED, record_view(row))
        replaced = (
            {}
            if rows_of is None
            else self._plain_edits(session, scope, candidates, slow, rows_of, verdicts)
        )
        for plain, group in groupby(slow, key=lambda n: n in replaced):
            run = list(group)
            judged = [None if verdicts is None else verdicts[n] for n in run]
            if not plain:
                for n, verdict in zip(run, judged, strict=True):
                    outcomes[n] = self.govern(session, scope, candidates[n], judged=verdict)
                continue
            edits = [(candidates[n], admitted[n], *replaced[n]) for n in run]
            done = self._edit_run(session, scope, edits, judged)
            for n, outcome in zip(run, done, strict=True):
                outcomes[n] = outcome
        return [o for o in outcomes if o is not None]

    def _plain_edits(
        self,
        session: Session,
        scope: str,
        candidates: Sequence[CandidateInput],
        slow: Sequence[int],
        held: Mapping[str, list[MemoryRecord]],
        verdicts: Sequence[FloorVerdict] | None,
    ) -> dict[int, tuple[MemoryRecord, bool]]:
        """The candidates of ``slow`` whose key has one live record, active, that
        :meth:`govern` would either write as that record's next version (a changed value:
        ``True``) or only reinforce with a quote it already links (the same value and quote:
        ``False``, nothing written), with that record.

        Only for a batch of :func:`_keyed_only` candidates (no two meet but through a key),
        whose held keys' records (:func:`~userlore.store.revisions.held_rows`) are ``held``,
        and only for a key the batch names once: each then reads what it would read governed
        alone, in order. The others take :meth:`govern`.
        """
        names = Counter(c.canonical_key for c in candidates)
        once = [n for n in slow if names[candidates[n].canonical_key] == 1]
        out: dict[int, tuple[MemoryRecord, bool]] = {}
        repeats: dict[int, tuple[MemoryRecord, tuple[str, str]]] = {}  # record, quote's item
        for n in once:
            c = candidates[n]
            rows = held.get(str(c.canonical_key), [])
            live = [r for r in rows if r.state in LIVE_STATES]
            if (
                not c.evidence_text
                or held_key_skipped(rows) is not None
                or len(live) != 1
                or live[0].state != RecordState.ACTIVE.value
                or not self.promotes(c.pipeline.value, c.producer.value)
            ):
                continue
            old = live[0]
            new_value = normalize_value(c.value if c.value else c.content)
            if normalize_value(old.value if old.value else old.content) != new_value:
                out[n] = (old, True)
                continue
            clean = None if verdicts is None else verdicts[n].clean_quote(c)
            quote = EvidenceText(c.evidence_text, c.producer.value, c.pipeline, redacted=clean)
            repeats[n] = (old, self.quote_item(scope, quote)[0])
        if repeats:
            items = self._item_ids(session, scope, list({key for _, key in repeats.values()}))
            linked = self._links(session, scope, [old.id for old, _ in repeats.values()])
            for n, (old, key) in repeats.items():
                item = items.get(key)
                if item is not None and (item, "stated_in") in linked.get(old.id, set()):
                    out[n] = (old, False)
        return out

    def _edit_run(
        self,
        session: Session,
        scope: str,
        edits: Sequence[tuple[CandidateInput, Assessment, MemoryRecord, bool]],
        verdicts: Sequence[FloorVerdict | None],
    ) -> list[WriteOutcome]:
        """:meth:`govern` of consecutive plain edits and repeats (:meth:`_plain_edits`) in a few
        statements: the edits' quotes by :meth:`evidence_items`, their new versions by
        :meth:`insert_fresh`; a repeat writes nothing. Ids are made in :meth:`govern`'s order
        (each put's item id, even a repeat's, then an edit's record id)."""
        item_ids: list[str] = []
        record_ids: list[str] = []
        quotes: list[EvidenceText] = []
        for (c, _, _, edit), verdict in zip(edits, verdicts, strict=True):
            item_id = self.new_id("src")
            if not edit:
                continue
            item_ids.append(item_id)
            record_ids.append(self.new_id("mem"))
            clean = None if verdict is None else verdict.clean_quote(c)
            quotes.append(
                EvidenceText(str(c.evidence_text), c.producer.value, c.pipeline, redacted=clean)
            )
        items = self.evidence_items(session, scope, quotes, ids=item_ids)
        rows = iter(
            self.insert_fresh(
                session,
                scope,
                [
                    FreshRecord(c, verdict, ((item, "stated_in"),), replaces=old, record_id=rid)
                    for (c, verdict, old, _), item, rid in zip(
                        [e for e in edits if e[3]], items, record_ids, strict=True
                    )
                ],
                self.clock(),
            )
        )
        return [
            WriteOutcome(
                WriteAction.SUPERSEDING, record_view(next(rows)), superseded_record_id=old.id
            )
            if edit
            else WriteOutcome(WriteAction.REINFORCED, record_view(old))
            for _, _, old, edit in edits
        ]

    def _gate(self, c: CandidateInput, verdict: Assessment) -> Assessment | WriteOutcome:
        """:meth:`admit` for a candidate already validated and assessed (not refused)."""
        mode = self.config.memory.mode
        if mode is MemoryMode.OFF:
            return WriteOutcome(WriteAction.SKIPPED, reason="memory_off")
        if mode is MemoryMode.READ_ONLY:
            return WriteOutcome(WriteAction.SKIPPED, reason="read_only")
        if not self.source_enabled(c.producer):
            return WriteOutcome(WriteAction.SKIPPED, reason="source_disabled")
        return verdict

    def govern_upsert(
        self,
        session: Session,
        scope: str,
        candidate: CandidateInput,
        *,
        evidence: Sequence[str] = (),
        evidence_relation: str = "stated_in",
    ) -> WriteOutcome:
        """Govern a keyed candidate that revises its own record in place.

        For producers that own one key for the life of an upstream object (a connected source
        item, its daily note): the policy of :meth:`govern` (mode, sources, refusal of secret and
        regulated content, forgotten keys), but changed content becomes version n+1 of the *same*
        record, leaving an immutable snapshot of version n, instead of a new superseding record.
        Unchanged content only links the evidence. A key whose latest record the user deleted
        is left alone, so a tombstone is not undone by the next upstream edit.

        Args:
            evidence: Further source item ids to link (every item a daily note summarizes).
            evidence_relation: Relation of those further links.

        Raises:
            InvalidInputError: no canonical key, or the candidate fails :meth:`govern`'s checks.
            RecordNotFoundError: an evidence item is not in ``scope``.
        """
        validate_scope(scope)
        if not candidate.canonical_key:
            raise InvalidInputError("govern_upsert needs a canonical_key")
        verdict = self.admit(session, scope, candidate)
        if isinstance(verdict, WriteOutcome):
            return verdict
        hold_write_lock(session, scope)
        now = self.clock()
        rows = list(
            session.scalars(
                select(MemoryRecord)
                .where(
                    MemoryRecord.scope == scope,
                    MemoryRecord.canonical_key == candidate.canonical_key,
                )
                .order_by(MemoryRecord.seq.desc())
            )
        )
        skipped = held_key_skipped(rows)
        if skipped is not None:
            return skipped
        item_id = self._evidence_item(session, scope, candidate)
        live = next((r for r in rows if r.state in LIVE_STATES), None)
        if live is None:
            row = self._insert(
                session,
                scope,
                candidate,
                verdict.sensitivity,
                verdict.category,
                verdict.disclosure,
                now,
                supersedes=None,
                version=1,
                parent=None,
            )
            action = WriteAction.CREATED
        else:
            row, action = live, self._revise_live(session, live, candidate, verdict, now)
        fresh = not rows  # nothing ever held this key: no links to look up, nothing to archive
        if fresh and item_id is not None:
            session.add(
                MemoryEvidence(
                    scope=scope,
                    record_id=row.id,
                    source_item_id=item_id,
                    relation="stated_in",
                    created_at=now,
                )
            )
            row.evidence_count += 1
        else:
            self.link_evidence(session, row, item_id, now)
        extra = set(evidence) - {item_id}
        if extra:
            found = set(
                session.scalars(
                    select(KnowledgeSourceItem.id).where(
                        KnowledgeSourceItem.id.in_(extra), KnowledgeSourceItem.scope == scope
                    )
                )
            )
            if found != extra:
                raise RecordNotFoundError("an evidence item is not in this scope")
            linked: set[str] = (
                set()
                if fresh
                else set(
                    session.scalars(
                        select(MemoryEvidence.source_item_id).where(
                            MemoryEvidence.scope == scope,
                            MemoryEvidence.record_id == row.id,
                            MemoryEvidence.relation == evidence_relation,
                        )
                    )
                )
            )
            for extra_id in sorted(found - linked):
                session.add(
                    MemoryEvidence(
                        scope=scope,
                        record_id=row.id,
                        source_item_id=extra_id,
                        relation=evidence_relation,
                        created_at=now,
                    )
                )
                row.evidence_count += 1
        if fresh and self._promotes(row):
            self.transition(row, RecordState.ACTIVE, now)
            row.valid_from = row.valid_from or now
        else:
            self._maybe_activate(session, row, now)
        return WriteOutcome(action, record_view(row))


def _keyed_only(candidates: Sequence[CandidateInput]) -> bool:
    """Whether every candidate has a key and names no record or item: the batches whose held
    keys :meth:`GovernedStore._plain_edits` may write as one run."""
    return all(
        c.canonical_key and not c.supersedes_record_id and not c.source_item_id for c in candidates
    )


def _held_keys(session: Session, scope: str, keys: Sequence[str]) -> set[str | None]:
    """Which of ``keys`` (sorted) any record of ``scope`` ever held."""
    held: set[str | None] = set()
    for at in range(0, len(keys), 500):
        held.update(
            session.scalars(
                select(MemoryRecord.canonical_key)
                .where(
                    MemoryRecord.scope == scope,
                    MemoryRecord.canonical_key.in_(keys[at : at + 500]),
                )
                .distinct()
            )
        )
    return held
