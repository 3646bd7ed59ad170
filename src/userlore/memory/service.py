"""Seed 003 memory operations: ``remember``, ``recall``, ``update_memory``, ``forget``.

Each returns a receipt of :mod:`userlore.memory.results`. Nothing here writes around the
governed store:

* ``remember`` hands a typed candidate to :meth:`GovernedStore.govern` (sensitivity, dedupe,
  promotion by memory mode), so a ``remember`` in ``confirmWrite`` mode is a candidate until
  approved, and a secret is refused before any row is written.
* ``recall`` reads through the planner's search (:func:`userlore.planner.search.search`: the
  same full-text retrieval, term statistics and policy filter), then cites live versions only
  (``mem_x@v2``). A superseded version is a snapshot in ``memory_record_versions``
  and is never returned; a tombstoned record is excluded with reason ``deleted``.
* ``update_memory`` is :meth:`GovernedStore.update`: version n+1 goes live, version n stays as an
  immutable, superseded snapshot with a word diff.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Row, select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    MemoryDisabledError,
    PolicyViolationError,
)
from userlore.memory.results import (
    Author,
    Citation,
    Episode,
    MemoryReceipt,
    RecallResult,
    VersionEntry,
    cite,
)
from userlore.models import (
    CandidateInput,
    Explicitness,
    MemoryType,
    Producer,
    RecordState,
    WriteAction,
)
from userlore.planner.episodic import Snippet, evidence_of, nearest_evidence, search_snippets
from userlore.planner.lists import list_question
from userlore.planner.search import RECORD_COLUMNS, search
from userlore.policy.fence import neutralize
from userlore.policy.filter import RejectionReason
from userlore.policy.session_keys import checked_session_key
from userlore.store.governed import GovernedStore, validate_path, validate_scope
from userlore.store.retrieval import TermStatistics
from userlore.store.schema import MemoryRecord, MemoryRecordVersion
from userlore.understanding import govern
from userlore.validation import (
    identifier,
    int_field,
    optional_instant,
    text_field,
)

__all__ = ["MAX_QUERY_CHARS", "MAX_RECALL_K", "MemoryService", "parse_memory_type"]

MAX_RECALL_K = 50
MAX_QUERY_CHARS = 2_000
# Recall filters by path and type after retrieval; look a little deeper so filters still fill k.
_RECALL_DEPTH = 8

_DURABILITY = {
    MemoryType.SEMANTIC: "durable",
    MemoryType.PROCEDURAL: "durable",
    MemoryType.IDENTITY: "durable",
    MemoryType.EPISODIC: "event",
    MemoryType.WORKING: "session",
}


def parse_memory_type(value: MemoryType | str) -> MemoryType:
    """Turn ``"episodic"`` (or a :class:`MemoryType`) into a :class:`MemoryType`.

    Raises:
        InvalidInputError: not one of the five seed 003 types.
    """
    try:
        return MemoryType(value)
    except ValueError:
        allowed = ", ".join(t.value for t in MemoryType)
        raise InvalidInputError(f"memory_type must be one of {allowed}; got {value!r}") from None


class MemoryService:
    """The seed 003 operations over one governed store, returning receipts."""

    def __init__(self, store: GovernedStore, term_stats: TermStatistics | None = None) -> None:
        self.store = store
        # Shared with the planner so both read paths keep one document-frequency cache.
        self.term_stats = term_stats or TermStatistics()

    # -- write ---------------------------------------------------------------------------------

    def remember(
        self,
        scope: str,
        content: str,
        *,
        path: str,
        memory_type: MemoryType | str,
        author: Author | None = None,
        kind: str = "note",
        importance: float = 0.5,
        session_key: str | None = None,
        producer: Producer = Producer.TOOL,
    ) -> MemoryReceipt:
        """Write a durable memory through the governed write; ``version`` is 1 when new.

        Raises:
            InvalidInputError: empty content, empty or malformed path, unknown memory type.
            PolicyViolationError: the content is a secret or regulated value (nothing stored).
            MemoryDisabledError: the memory mode (or the disabled ``curated`` source) forbids it.
        """
        validate_scope(scope)
        mtype = parse_memory_type(memory_type)
        if not isinstance(path, str) or not path.strip("/ "):
            raise InvalidInputError("a durable memory needs a path such as projects/x/decisions")
        path = validate_path(path.strip().strip("/"))
        text_field(content, "content", max_chars=self.store.config.max_content_chars)
        checked_session_key(session_key)
        who = author or Author()
        candidate = CandidateInput(
            kind=kind,
            content=content,
            memory_type=mtype,
            path=path,
            explicitness=Explicitness.EXPLICIT,
            confidence=0.9,
            importance=importance,
            durability=_DURABILITY[mtype],
            producer=producer,
            evidence_text=content,
            session_key=session_key,
            author_agent_id=who.agent_id,
            author_client=who.client,
            author_device=who.device,
            author_instance=who.instance,
        )
        with self.store.transaction(scope) as session:
            outcome = govern(self.store, scope, candidate, session=session)
            receipt = None
            if outcome.record is not None:
                row = self.store.get_row(session, scope, outcome.record.id)
                receipt = _receipt(session, row, outcome.action.value, outcome.superseded_record_id)
        # Raised after commit so the governance trace of a refusal is kept.
        if outcome.action is WriteAction.REFUSED:
            raise PolicyViolationError(f"remember refused: content is {outcome.reason}")
        if receipt is None:
            raise MemoryDisabledError(f"remember skipped: {outcome.reason}")
        return receipt

    def update(
        self, scope: str, record_id: str, content: str, *, author: Author | None = None
    ) -> MemoryReceipt:
        """Correct a memory: v(n+1) goes live, v(n) stays as a superseded snapshot.

        Raises:
            RecordNotFoundError: no such record in ``scope``.
            InvalidTransitionError: the record is deleted, archived, rejected or superseded.
            PolicyViolationError: the new content is a secret or regulated value.
        """
        validate_scope(scope)
        identifier(record_id, "record_id")
        text_field(content, "content", max_chars=self.store.config.max_content_chars)
        who = author or Author()
        probe = CandidateInput(
            kind="note",
            content=content,
            author_agent_id=who.agent_id,
            author_client=who.client,
            author_device=who.device,
            author_instance=who.instance,
        )
        view = self.store.update(scope, record_id, probe.content, author=probe)
        return self._receipt_for(scope, view.id, "updated")

    def forget(self, scope: str, record_id: str) -> MemoryReceipt:
        """Tombstone a memory: out of recall and plans at once, listed in the trash."""
        validate_scope(scope)
        identifier(record_id, "record_id")
        view = self.store.forget(scope, record_id)
        return self._receipt_for(scope, view.id, "forgotten")

    def restore(self, scope: str, record_id: str) -> MemoryReceipt:
        """Bring a tombstoned memory back, unchanged (same id, version and content)."""
        validate_scope(scope)
        identifier(record_id, "record_id")
        view = self.store.restore(scope, record_id)
        return self._receipt_for(scope, view.id, "restored")

    # -- read ----------------------------------------------------------------------------------

    def receipt(self, scope: str, record_id: str) -> MemoryReceipt:
        """The receipt of a record's live version, without changing anything."""
        validate_scope(scope)
        identifier(record_id, "record_id")
        return self._receipt_for(scope, record_id, "read")

    def trash(self, scope: str, *, limit: int = 1000) -> list[MemoryReceipt]:
        """Tombstoned memories of a scope, newest first, each restorable."""
        validate_scope(scope)
        int_field(limit, "limit", lo=1, hi=100_000)
        with self.store.transaction(scope) as session:
            rows = session.scalars(
                select(MemoryRecord)
                .where(
                    MemoryRecord.scope == scope,
                    MemoryRecord.state == RecordState.DELETED.value,
                )
                .order_by(MemoryRecord.seq.desc())
                .limit(max(1, min(limit, 10_000)))
            )
            return [_receipt(session, row, "trashed") for row in rows]

    def history(self, scope: str, record_id: str) -> list[VersionEntry]:
        """Every version, oldest first, with its diff and author; older ones are superseded."""
        validate_scope(scope)
        identifier(record_id, "record_id")
        current = self.store.get(scope, record_id)
        return [
            VersionEntry(
                id=v.record_id,
                version=v.version,
                parent_version=v.parent_version,
                state=current.state.value if v.live else RecordState.SUPERSEDED.value,
                content=v.content,
                diff=v.diff,
                author=Author(
                    v.author_agent_id, v.author_client, v.author_device, v.author_instance
                ),
                created_at=v.created_at,
            )
            for v in self.store.history(scope, record_id)
        ]

    def recall(
        self,
        scope: str,
        query: str,
        *,
        path: str | None = None,
        memory_type: MemoryType | str | None = None,
        k: int = 5,
        session_key: str | None = None,
        valid_at: datetime | None = None,
        episodes: int = 0,
    ) -> RecallResult:
        """Cite the live versions of the memories that best match ``query``.

        ``path`` filters by prefix (``projects/x`` matches ``projects/x/decisions``) and
        ``memory_type`` by type. An empty query lists the newest live memories that pass the
        filters. ``valid_at`` recalls as of that instant; ``episodes`` also returns up to that
        many things the user said that match (the planner's episodic snippets, same policy).
        Every recall writes a ``recall`` trace with ids and versions only.

        Raises:
            InvalidInputError: bad ``k``, ``episodes``, ``path``, ``memory_type``, a naive
                ``valid_at`` or an oversized query.
        """
        validate_scope(scope)
        text_field(query, "query", max_chars=MAX_QUERY_CHARS, allow_empty=True)
        checked_session_key(session_key)
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_RECALL_K:
            raise InvalidInputError(f"k must be an integer from 1 to {MAX_RECALL_K}")
        int_field(episodes, "episodes", lo=0, hi=MAX_RECALL_K)
        optional_instant(valid_at, "valid_at")
        prefix = (
            validate_path(path.strip().strip("/") if isinstance(path, str) else path)
            if path
            else ""
        )
        mtype = parse_memory_type(memory_type) if memory_type else None
        if self.store.config.memory.mode is MemoryMode.OFF:
            return RecallResult(())
        now = valid_at or self.store.clock()
        depth = max(k * _RECALL_DEPTH, self.store.config.planner.retrieval_k)
        with self.store.connection(scope) as conn:
            consented = self.store.consents_in(conn, scope)
            found = search(
                conn,
                scope,
                query,
                read=RECORD_COLUMNS,
                k=depth,
                stats=self.term_stats,
                now=now,
                consented=consented,
                path_prefix=prefix,
                memory_type=None if mtype is None else mtype.value,
                depth=depth,
                vectors=self.store.vectors,
            )
            chosen = [_citation(c.row, c.retrieval or 0.0) for c in found.kept[:k]]
            said: list[Snippet] = []
            withheld: list[dict[str, str]] = []
            if episodes and query:
                # A cited memory's own evidence is not returned again as an episode.
                cited = evidence_of(conn, scope, [c.id for c in chosen])
                found_said = search_snippets(
                    conn,
                    scope,
                    query,
                    k=depth,
                    now=now,
                    consented=consented,
                    rankings=nearest_evidence(self.store.vectors, sentences=list_question(query)),
                    quote_uncovered=self.store.config.planner.quote_uncovered_languages,
                )
                said = [s for s in found_said.kept if s.item_id not in cited][:episodes]
                withheld = [
                    {"id": r.id, "reason": r.reason}
                    | ({"category": r.category} if r.category else {})
                    for r in found_said.rejected
                ]
            # What the user said is quoted to the model word for word: it passes the plan's
            # fence fold first (lookalike tags, escapes, control tokens), as in a plan.
            heard = tuple(
                Episode(s.item_id, neutralize(s.text), s.occurred_at, s.score) for s in said
            )
            trace_id = self.store.trace(
                conn,
                scope,
                "recall",
                session_key=session_key,
                chars=sum(len(c.content) for c in chosen),
                payload={
                    "selected": [{"id": c.id, "v": c.version} for c in chosen],
                    "rejected": [{"id": r.id, "reason": r.reason} for r in found.rejected],
                    "k": k,
                    **({"episodes": [e.item_id for e in heard]} if heard else {}),
                    **({"episodes_withheld": withheld} if withheld else {}),
                },
            )
        excluded = [{"id": r.id, "reason": r.reason} for r in found.rejected]
        excluded.extend(
            {"citation": cite(c.id, v), "reason": RejectionReason.SUPERSEDED}
            for c in chosen
            for v in range(1, c.version)
        )
        return RecallResult(tuple(chosen), tuple(excluded), trace_id, heard)

    # -- helpers -------------------------------------------------------------------------------

    def _receipt_for(self, scope: str, record_id: str, action: str) -> MemoryReceipt:
        with self.store.transaction(scope) as session:
            return _receipt(session, self.store.get_row(session, scope, record_id), action)


def _citation(r: Row[*tuple[Any, ...]], score: float) -> Citation:
    """A live version as recall cites it (``r`` holds every record column)."""
    return Citation(
        id=r.id,
        version=r.version,
        content=neutralize(r.content),
        memory_type=MemoryType(r.memory_type),
        path=r.path,
        kind=r.kind,
        score=score,
        author=Author(r.author_agent_id, r.author_client, r.author_device, r.author_instance),
        updated_at=r.updated_at,
    )


def _receipt(
    session: Session, row: MemoryRecord, action: str, superseded: str | None = None
) -> MemoryReceipt:
    snap = session.scalars(
        select(MemoryRecordVersion).where(
            MemoryRecordVersion.record_id == row.id,
            MemoryRecordVersion.version == row.version,
        )
    ).one_or_none()
    author = (
        Author(snap.author_agent_id, snap.author_client, snap.author_device, snap.author_instance)
        if snap is not None
        else Author(row.author_agent_id, row.author_client, row.author_device, row.author_instance)
    )
    return MemoryReceipt(
        id=row.id,
        version=row.version,
        state=RecordState(row.state),
        action=action,
        memory_type=MemoryType(row.memory_type),
        path=row.path,
        parent_version=snap.parent_version if snap is not None else None,
        diff=snap.diff if snap is not None else None,
        author=author,
        superseded_record_id=superseded if superseded != row.id else None,
    )
