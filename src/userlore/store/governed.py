"""The governed store: the one write API every producer goes through, and the lifecycle.

Each public method is one transaction: it either completes or leaves the database unchanged.
Secret and regulated content is refused before any row is written; evidence is stored redacted;
candidates are deduplicated by canonical key (or normalized content) within a scope; a new value
for a key supersedes the old one as a new version instead of overwriting it.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    bindparam,
    func,
    insert,
    or_,
    select,
)
from sqlalchemy import text as sql_text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, sessionmaker

from userlore.config import MemoryMode, UserContextConfig
from userlore.errors import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    StorageError,
)
from userlore.models import (
    CandidateInput,
    Disclosure,
    Explicitness,
    MemoryType,
    Pipeline,
    Producer,
    RecordKind,
    RecordState,
    RecordView,
    Sensitivity,
    UserState,
    WriteAction,
    WriteOutcome,
)
from userlore.policy.govern import POLICY_REV, assess
from userlore.policy.sensitivity import redact
from userlore.store.ids import derived_id, scoped_digest
from userlore.store.schema import (
    ConsentGrant,
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryRelation,
    MemoryTraceEvent,
    ReviewDecision,
)
from userlore.store.text import content_key, normalize_value, search_text
from userlore.validation import (
    bounded,
    enum_field,
    identifier,
    optional_identifier,
    optional_instant,
    optional_text,
    text_field,
    unit_interval,
    validate_path,
    validate_scope,
)

__all__ = [
    "Clock",
    "GovernedStore",
    "IdFactory",
    "VersionView",
    "bounded",
    "record_view",
    "validate_path",
    "validate_scope",
]

Clock = Callable[[], datetime]
IdFactory = Callable[[str], str]

LIVE_STATES = (RecordState.CANDIDATE, RecordState.ACTIVE, RecordState.NEEDS_REVIEW)

# Allowed lifecycle moves; ``deleted`` is left only by ``restore``.
_TRANSITIONS: dict[RecordState, frozenset[RecordState]] = {
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
    RecordState.DELETED: frozenset(),
}

_PRODUCER_SOURCE = {
    Producer.EXPLICIT: "session",
    Producer.REVIEWER: "session",
    Producer.FACET: "session",
    Producer.TOOL: "curated",
    Producer.USER: "curated",
    Producer.SOURCE: "connected",
}


_ENUM_FIELDS: tuple[tuple[type[StrEnum], str], ...] = (
    (MemoryType, "memory_type"),
    (Explicitness, "explicitness"),
    (Producer, "producer"),
    (Pipeline, "pipeline"),
    (Disclosure, "disclosure"),
)


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:24]}"


_BOUNDED_FIELDS = (
    "author_agent_id",
    "author_client",
    "author_device",
    "author_instance",
    "thread_id",
    "run_id",
)


def under_path(path: str | None, prefix: str) -> bool:
    """Whether ``path`` is ``prefix`` or below it (``projects/x`` holds ``projects/x/notes``)."""
    prefix = prefix.strip("/")
    return not prefix or (path is not None and (path == prefix or path.startswith(prefix + "/")))


def path_clause(prefix: str | None) -> list[ColumnElement[bool]]:
    """:func:`under_path` as a SQL condition (none for an empty prefix)."""
    prefix = (prefix or "").strip("/")
    if not prefix:
        return []
    return [
        or_(
            MemoryRecord.path == prefix,
            MemoryRecord.path.startswith(prefix + "/", autoescape=True),
        )
    ]


def record_view(row: MemoryRecord) -> RecordView:
    """Freeze an ORM row into the public read-only view."""
    return RecordView(
        id=row.id,
        scope=row.scope,
        kind=row.kind,
        content=row.content,
        canonical_key=row.canonical_key,
        value=row.value,
        memory_type=MemoryType(row.memory_type),
        path=row.path,
        state=RecordState(row.state),
        user_state=UserState(row.user_state),
        version=row.version,
        explicitness=Explicitness(row.explicitness),
        confidence=row.confidence,
        importance=row.importance,
        durability=row.durability,
        disclosure=Disclosure(row.disclosure),
        sensitivity=Sensitivity(row.sensitivity),
        sensitivity_category=row.sensitivity_category,
        pipeline=Pipeline(row.pipeline),
        producer=Producer(row.producer),
        valid_from=row.valid_from,
        valid_until=row.valid_until,
        review_after=row.review_after,
        supersedes_record_id=row.supersedes_record_id,
        conflict_group=row.conflict_group,
        stability=row.stability,
        evidence_count=row.evidence_count,
        created_at=row.created_at,
        updated_at=row.updated_at,
        author_agent_id=row.author_agent_id,
        author_client=row.author_client,
        author_device=row.author_device,
    )


@dataclass(frozen=True, slots=True)
class VersionView:
    """One immutable version snapshot; ``live`` is false once a newer version exists."""

    record_id: str
    version: int
    parent_version: int | None
    content: str
    value: str | None
    diff: str | None
    live: bool
    created_at: datetime
    author_agent_id: str | None
    author_client: str | None
    author_device: str | None
    author_instance: str | None


_BIND_SCOPE = sql_text("SELECT set_config('userlore.scope', :scope, true)")
_REFUSED_WRITE = (
    "the database refused the write: it refers to a row that is not in this scope, or "
    "duplicates one that is"
)

# Built once: the read path asks for every plan, and building the statement cost more than
# running it.
_CONSENTED = select(ConsentGrant.category).where(
    ConsentGrant.scope == bindparam("scope"), ConsentGrant.revoked_at.is_(None)
)


class GovernedStore:
    """Governed writes, lifecycle transitions, consent and traces over one database."""

    def __init__(
        self,
        engine: Engine,
        config: UserContextConfig,
        *,
        clock: Clock | None = None,
        ids: IdFactory | None = None,
    ) -> None:
        self.engine = engine
        self.config = config
        self.clock: Clock = clock or _utcnow
        self.new_id: IdFactory = ids or _new_id
        self._sessions = sessionmaker(engine, expire_on_commit=False)
        # An in-memory SQLite database is one shared connection: serialize access to it.
        self._lock: threading.RLock | None = (
            threading.RLock()
            if engine.dialect.name == "sqlite" and engine.url.database in (None, "", ":memory:")
            else None
        )

    # -- transactions -------------------------------------------------------------------------

    @contextmanager
    def transaction(self, scope: str | None = None) -> Iterator[Session]:
        """One unit of work: committed on success, rolled back entirely on any error.

        Args:
            scope: The one scope this unit of work touches. On PostgreSQL it is bound to the
                transaction (``userlore.scope``), so row-level security hides and refuses every
                other scope's rows even if a query forgot its scope filter. Leave it out for
                work that spans scopes (workers claiming across scopes, migrations).

        Raises:
            StorageError: the database failed.
            InvalidInputError: the database refused the write (a reference outside the scope, a
                duplicate); the message never names the rows involved.
        """
        if self._lock is not None:
            self._lock.acquire()
        try:
            with self._sessions() as session, session.begin():
                if scope is not None:
                    self._bind_scope(session, scope)
                yield session
        except OperationalError as exc:
            raise StorageError(f"database error: {exc.orig}") from None
        except IntegrityError:
            raise InvalidInputError(_REFUSED_WRITE) from None
        finally:
            if self._lock is not None:
                self._lock.release()

    @contextmanager
    def connection(self, scope: str | None = None) -> Iterator[Connection]:
        """A Core connection in one transaction, for the read path's hot loop (no ORM).

        ``scope`` binds row-level security as in :meth:`transaction`.
        """
        if self._lock is not None:
            self._lock.acquire()
        try:
            with self.engine.begin() as conn:
                if scope is not None:
                    self._bind_scope(conn, scope)
                yield conn
        except OperationalError as exc:
            raise StorageError(f"database error: {exc.orig}") from None
        except IntegrityError:
            raise InvalidInputError(_REFUSED_WRITE) from None
        finally:
            if self._lock is not None:
                self._lock.release()

    def _bind_scope(self, executor: Session | Connection, scope: str) -> None:
        """``SET LOCAL userlore.scope`` on PostgreSQL (the row-level security key); no-op else."""
        validate_scope(scope)
        if self.engine.dialect.name == "postgresql":
            executor.execute(_BIND_SCOPE, {"scope": scope})

    # -- source items (evidence) --------------------------------------------------------------

    def add_source_item(
        self,
        session: Session,
        *,
        scope: str,
        source_instance_id: str,
        external_id: str,
        text: str,
        pipeline: Pipeline = Pipeline.USER_UNDERSTANDING,
        title: str | None = None,
        meta: dict[str, Any] | None = None,
        occurred_at: datetime | None = None,
        synthesis_state: str = "done",
    ) -> KnowledgeSourceItem:
        """Store (or find) one redacted, content-addressed evidence item."""
        bounded("source_instance_id", source_instance_id, 300)
        bounded("external_id", external_id, 500)
        now = self.clock()
        clean = redact(text)
        blocked = clean != text
        digest = hashlib.sha256(clean.encode("utf-8")).hexdigest()
        existing = session.scalars(
            select(KnowledgeSourceItem).where(
                KnowledgeSourceItem.scope == scope,
                KnowledgeSourceItem.source_instance_id == source_instance_id,
                KnowledgeSourceItem.external_id == external_id,
            )
        ).one_or_none()
        if existing is not None:
            if existing.content_hash != digest:
                existing.text, existing.content_hash, existing.updated_at = clean, digest, now
            return existing
        item = KnowledgeSourceItem(
            id=self.new_id("src"),
            scope=scope,
            source_instance_id=source_instance_id,
            external_id=external_id,
            content_hash=digest,
            title=redact(title)[:500] if title else None,
            text=clean,
            meta=meta or {},
            occurred_at=occurred_at or now,
            pipeline=pipeline.value,
            blocked=blocked,
            synthesis_state=synthesis_state,
            synthesis_attempts=0,
            created_at=now,
            updated_at=now,
        )
        session.add(item)
        session.flush()
        return item

    # -- the governed write -------------------------------------------------------------------

    def write(self, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Govern one candidate in its own transaction."""
        with self.transaction(scope) as session:
            return self.govern(session, scope, candidate)

    def govern(self, session: Session, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Sensitivity, dedupe, evidence and promotion for one candidate, inside ``session``.

        Raises:
            InvalidInputError: empty or oversized content, bad kind or path.
        """
        validate_scope(scope)
        self._validate_candidate(candidate)
        mode = self.config.memory.mode
        if mode is MemoryMode.OFF:
            return WriteOutcome(WriteAction.SKIPPED, reason="memory_off")
        if mode is MemoryMode.READ_ONLY:
            return WriteOutcome(WriteAction.SKIPPED, reason="read_only")
        if _PRODUCER_SOURCE[candidate.producer] not in self.config.memory.sources:
            return WriteOutcome(WriteAction.SKIPPED, reason="source_disabled")
        now = self.clock()
        verdict = assess(candidate)
        if verdict.refused is not None:
            self._trace(
                session,
                scope,
                "governance",
                reason_code=verdict.refused,
                session_key=candidate.session_key,
                payload={"producer": candidate.producer.value, "kind": candidate.kind},
            )
            return WriteOutcome(WriteAction.REFUSED, reason=verdict.refused)
        evidence_item_id = self._evidence_item(session, scope, candidate)
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
            self._link_evidence(session, pending, evidence_item_id, now)
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
        self._link_evidence(session, row, evidence_item_id, now)
        self._maybe_activate(session, row, now)
        action = WriteAction.SUPERSEDING if supersedes else WriteAction.CREATED
        return WriteOutcome(action, record_view(row), superseded_record_id=supersedes)

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
        self._validate_candidate(candidate)
        mode = self.config.memory.mode
        if mode is MemoryMode.OFF:
            return WriteOutcome(WriteAction.SKIPPED, reason="memory_off")
        if mode is MemoryMode.READ_ONLY:
            return WriteOutcome(WriteAction.SKIPPED, reason="read_only")
        if _PRODUCER_SOURCE[candidate.producer] not in self.config.memory.sources:
            return WriteOutcome(WriteAction.SKIPPED, reason="source_disabled")
        verdict = assess(candidate)
        if verdict.refused is not None:
            self._trace(
                session,
                scope,
                "governance",
                reason_code=verdict.refused,
                session_key=candidate.session_key,
                payload={"producer": candidate.producer.value, "kind": candidate.kind},
            )
            return WriteOutcome(WriteAction.REFUSED, reason=verdict.refused)
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
        if any(r.user_state == UserState.FORGOTTEN.value for r in rows):
            return WriteOutcome(WriteAction.SKIPPED, reason="forgotten")
        if rows and rows[0].state == RecordState.DELETED.value:
            return WriteOutcome(WriteAction.SKIPPED, reason="deleted")
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
        elif live.content == candidate.content.strip() and live.value == candidate.value:
            row, action = live, WriteAction.REINFORCED
        else:
            row, action = live, WriteAction.SUPERSEDING
            self._new_version(session, row, candidate.content, candidate.value, candidate, now)
            row.sensitivity = verdict.sensitivity.value
            row.sensitivity_category = verdict.category
            if row.disclosure != Disclosure.NEVER.value:
                row.disclosure = verdict.disclosure.value
            row.valid_from = candidate.valid_from or row.valid_from
            row.importance, row.confidence = candidate.importance, candidate.confidence
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
            self._link_evidence(session, row, item_id, now)
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
            row.state = RecordState.ACTIVE.value
            row.valid_from = row.valid_from or now
        else:
            self._maybe_activate(session, row, now)
        return WriteOutcome(action, record_view(row))

    def archive_key(
        self, session: Session, scope: str, canonical_key: str, *, reason: str
    ) -> list[str]:
        """Archive the live records holding ``canonical_key``: their upstream object is gone.

        Versions and evidence stay (history, not deletion) and validity closes now; ``reason``
        is a fixed code written to a ``governance`` trace. Returns the archived record ids.
        """
        validate_scope(scope)
        self._require_writable()
        now = self.clock()
        archived: list[str] = []
        for row in session.scalars(
            select(MemoryRecord).where(
                MemoryRecord.scope == scope,
                MemoryRecord.canonical_key == canonical_key,
                MemoryRecord.state.in_([s.value for s in LIVE_STATES]),
            )
        ):
            self._move(row, RecordState.ARCHIVED, now)
            row.valid_until = now
            archived.append(row.id)
            self._trace(
                session,
                scope,
                "governance",
                reason_code=reason,
                payload={"record_id": row.id, "v": row.version, "operation": "archive"},
            )
        return archived

    def _validate_candidate(self, c: CandidateInput) -> None:
        """Every field of a candidate, typed, before anything is written (``validation``)."""
        limit = self.config.max_content_chars
        text_field(c.content, "content", max_chars=limit)
        optional_text(c.value, "value", max_chars=limit)
        enum_field(RecordKind, c.kind, "kind")
        for enum_type, name in _ENUM_FIELDS:
            enum_field(enum_type, getattr(c, name), name)
        validate_path(c.path)
        optional_identifier(c.canonical_key, "canonical_key", max_chars=300)
        unit_interval(c.confidence, "confidence")
        unit_interval(c.importance, "importance")
        valid_from = optional_instant(c.valid_from, "valid_from")
        valid_until = optional_instant(c.valid_until, "valid_until")
        if valid_from and valid_until and valid_until <= valid_from:
            raise InvalidInputError("valid_until must be after valid_from")
        for name in _BOUNDED_FIELDS:
            bounded(name, getattr(c, name), 200)
        bounded("session_key", c.session_key, 300)
        bounded("conflict_group", c.conflict_group, 300)
        bounded("sensitivity_claim", c.sensitivity_claim, 40)
        identifier(c.durability, "durability", max_chars=20)
        optional_identifier(c.supersedes_record_id, "supersedes_record_id")
        optional_identifier(c.source_item_id, "source_item_id")
        optional_text(c.evidence_text, "evidence_text", max_chars=None)

    @staticmethod
    def _own_record_id(session: Session, scope: str, record_id: str) -> str:
        """``record_id`` if it names a record of ``scope``; the error is the same whether the id
        exists in another scope or nowhere, so it reveals nothing outside the caller's scope."""
        found = session.scalar(
            select(MemoryRecord.id).where(MemoryRecord.scope == scope, MemoryRecord.id == record_id)
        )
        if found is None:
            raise RecordNotFoundError(
                f"supersedes_record_id {record_id!r} names no record in this scope"
            )
        return found

    def _evidence_item(self, session: Session, scope: str, c: CandidateInput) -> str | None:
        if c.source_item_id is not None:
            found = session.scalar(
                select(KnowledgeSourceItem.id).where(
                    KnowledgeSourceItem.scope == scope,
                    KnowledgeSourceItem.id == c.source_item_id,
                )
            )
            if found is None:
                raise RecordNotFoundError(
                    f"source_item_id {c.source_item_id!r} names no source item in this scope"
                )
            return found
        if not c.evidence_text:
            return None
        digest = scoped_digest(scope, redact(c.evidence_text))
        item = self.add_source_item(
            session,
            scope=scope,
            source_instance_id=derived_id(c.producer.value, scope),
            external_id=digest,
            text=c.evidence_text,
            pipeline=c.pipeline,
        )
        return item.id

    def _insert(
        self,
        session: Session,
        scope: str,
        c: CandidateInput,
        sensitivity: Sensitivity,
        category: str | None,
        disclosure: Disclosure,
        now: datetime,
        *,
        supersedes: str | None,
        version: int,
        parent: MemoryRecord | None,
    ) -> MemoryRecord:
        row = MemoryRecord(
            id=self.new_id("mem"),
            scope=scope,
            path=c.path,
            memory_type=c.memory_type.value,
            kind=c.kind,
            canonical_key=c.canonical_key,
            content_key=content_key(c.content),
            content=c.content.strip(),
            value=c.value,
            search_text=search_text(scope, c.content, c.value, c.canonical_key, c.path),
            explicitness=c.explicitness.value,
            durability=c.durability,
            importance=c.importance,
            confidence=c.confidence,
            disclosure=disclosure.value,
            sensitivity=sensitivity.value,
            sensitivity_category=category,
            valid_from=c.valid_from,
            valid_until=c.valid_until,
            review_after=None,
            conflict_group=c.conflict_group,
            pipeline=c.pipeline.value,
            producer=c.producer.value,
            state=RecordState.CANDIDATE.value,
            user_state=UserState.AUTO.value,
            version=version,
            supersedes_record_id=supersedes,
            stability=0.0,
            policy_rev=POLICY_REV,
            evidence_count=0,
            author_agent_id=c.author_agent_id,
            author_client=c.author_client,
            author_device=c.author_device,
            author_instance=c.author_instance,
            thread_id=c.thread_id,
            run_id=c.run_id,
            created_at=now,
            updated_at=now,
        )
        session.add(row)
        session.flush()
        diff = _diff(parent.content, row.content) if parent is not None else None
        self._snapshot(session, row, parent.version if parent else None, diff, now)
        if supersedes:
            self._relate(session, scope, row.id, supersedes, "supersedes", now)
        return row

    def _snapshot(
        self,
        session: Session,
        row: MemoryRecord,
        parent: int | None,
        diff: str | None,
        now: datetime,
    ) -> None:
        session.add(
            MemoryRecordVersion(
                record_id=row.id,
                scope=row.scope,
                version=row.version,
                parent_version=parent,
                content=row.content,
                value=row.value,
                diff=diff,
                author_agent_id=row.author_agent_id,
                author_client=row.author_client,
                author_device=row.author_device,
                author_instance=row.author_instance,
                created_at=now,
            )
        )

    def _relate(
        self, session: Session, scope: str, src: str, dst: str, kind: str, now: datetime
    ) -> None:
        exists = session.scalar(
            select(MemoryRelation.id).where(
                MemoryRelation.scope == scope,
                MemoryRelation.from_record_id == src,
                MemoryRelation.to_record_id == dst,
                MemoryRelation.relation_type == kind,
            )
        )
        if exists is None:
            session.add(
                MemoryRelation(
                    scope=scope,
                    from_record_id=src,
                    to_record_id=dst,
                    relation_type=kind,
                    created_at=now,
                )
            )

    def _link_evidence(
        self,
        session: Session,
        row: MemoryRecord,
        item_id: str | None,
        now: datetime,
        relation: str = "stated_in",
    ) -> bool:
        if item_id is None:
            return False
        exists = session.scalar(
            select(MemoryEvidence.id).where(
                MemoryEvidence.scope == row.scope,
                MemoryEvidence.record_id == row.id,
                MemoryEvidence.source_item_id == item_id,
                MemoryEvidence.relation == relation,
            )
        )
        if exists is not None:
            return False
        session.add(
            MemoryEvidence(
                scope=row.scope,
                record_id=row.id,
                source_item_id=item_id,
                relation=relation,
                created_at=now,
            )
        )
        row.evidence_count += 1
        return True

    def _reinforce(
        self,
        session: Session,
        row: MemoryRecord,
        c: CandidateInput,
        item_id: str | None,
        now: datetime,
    ) -> WriteOutcome:
        added = self._link_evidence(session, row, item_id, now)
        if added or item_id is None:
            bump = 0.05 if c.explicitness is Explicitness.EXPLICIT else 0.02
            row.confidence = round(min(0.99, max(row.confidence, c.confidence) + bump), 4)
            row.importance = max(row.importance, c.importance)
            if c.explicitness is Explicitness.EXPLICIT:
                row.explicitness = Explicitness.EXPLICIT.value
            row.updated_at = now
        self._maybe_activate(session, row, now)
        return WriteOutcome(WriteAction.REINFORCED, record_view(row))

    def _promotes(self, row: MemoryRecord) -> bool:
        """Whether a candidate activates without review under the current memory mode."""
        # Connected knowledge is a receipt of the user's own documents, not an inference about
        # them: it activates in confirmWrite too (off/readOnly never reach this point).
        receipt = (
            row.pipeline == Pipeline.CONNECTED_KNOWLEDGE.value
            and row.producer == Producer.SOURCE.value
        )
        return self.config.memory.mode is MemoryMode.AUTO or receipt

    def _maybe_activate(self, session: Session, row: MemoryRecord, now: datetime) -> None:
        if row.state == RecordState.CANDIDATE.value and self._promotes(row):
            self._activate(session, row, now)

    def _activate(self, session: Session, row: MemoryRecord, now: datetime) -> None:
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
            old.state = RecordState.ARCHIVED.value
            old.valid_until = now
            old.updated_at = now
        session.flush()
        row.state = RecordState.ACTIVE.value
        row.valid_from = row.valid_from or now
        row.updated_at = now
        try:
            session.flush()
        except IntegrityError:
            raise InvalidTransitionError(
                f"another active record already holds key {row.canonical_key!r}"
            ) from None

    # -- lifecycle ----------------------------------------------------------------------------

    def get_row(self, session: Session, scope: str | None, record_id: str) -> MemoryRecord:
        """Load a record (of ``scope`` when given) or raise :class:`RecordNotFoundError`.

        ``scope=None`` is for the trusted in-process facade only; every service surface passes
        the caller's scope so nothing outside it can be found.
        """
        stmt = select(MemoryRecord).where(MemoryRecord.id == record_id)
        if scope is not None:
            stmt = stmt.where(MemoryRecord.scope == validate_scope(scope))
        row = session.scalars(stmt).one_or_none()
        if row is None:
            where = f" in scope {scope!r}" if scope is not None else ""
            raise RecordNotFoundError(f"no record {record_id!r}{where}")
        return row

    def _require_writable(self) -> None:
        if self.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(
                f"memory mode {self.config.memory.mode.value!r} forbids writes"
            )

    def _move(self, row: MemoryRecord, target: RecordState, now: datetime) -> None:
        current = RecordState(row.state)
        if target not in _TRANSITIONS[current]:
            raise InvalidTransitionError(
                f"cannot move record {row.id} from {current.value} to {target.value}"
            )
        row.state = target.value
        row.updated_at = now

    def approve(
        self,
        scope: str | None,
        record_id: str,
        *,
        content: str | None = None,
        reviewer: str | None = None,
    ) -> RecordView:
        """Activate a candidate (or a paused record); ``content`` approves an edited version."""
        self._require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            now = self.clock()
            if RecordState(row.state) not in (RecordState.CANDIDATE, RecordState.NEEDS_REVIEW):
                raise InvalidTransitionError(f"cannot approve a record in state {row.state}")
            decision = "approve"
            if content is not None and content.strip() != row.content:
                self._checked_edit(session, row, content, None, now)
                decision = "edit"
            self._activate(session, row, now)
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
        self._require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            now = self.clock()
            if row.state != RecordState.CANDIDATE.value:
                raise InvalidTransitionError(f"cannot reject a record in state {row.state}")
            self._move(row, RecordState.REJECTED, now)
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
        self._require_writable()
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if RecordState(row.state) not in LIVE_STATES:
                raise InvalidTransitionError(f"cannot update a record in state {row.state}")
            self._checked_edit(session, row, content, value, self.clock(), author)
            return record_view(row)

    def _checked_edit(
        self,
        session: Session,
        row: MemoryRecord,
        content: str,
        value: str | None,
        now: datetime,
        author: CandidateInput | None = None,
    ) -> None:
        probe = CandidateInput(
            kind=row.kind,
            content=content,
            value=value,
            canonical_key=row.canonical_key,
            path=row.path,
        )
        self._validate_candidate(probe)
        verdict = assess(probe)
        if verdict.refused is not None:
            self._trace(
                session,
                row.scope,
                "governance",
                reason_code=verdict.refused,
                payload={"record_id": row.id, "operation": "update"},
            )
            raise PolicyViolationError(f"update refused: content is {verdict.refused}")
        source = author or CandidateInput(kind=row.kind, content=content)
        self._new_version(session, row, content, value, source, now)
        row.sensitivity = verdict.sensitivity.value
        row.sensitivity_category = verdict.category
        if verdict.disclosure is not Disclosure.NORMAL:
            row.disclosure = verdict.disclosure.value

    def _new_version(
        self,
        session: Session,
        row: MemoryRecord,
        content: str,
        value: str | None,
        author: CandidateInput,
        now: datetime,
    ) -> None:
        old = row.content
        parent = row.version
        row.content = content.strip()
        row.value = value if value is not None else (row.value if not row.canonical_key else value)
        row.content_key = content_key(row.content)
        row.search_text = search_text(
            row.scope, row.content, row.value, row.canonical_key, row.path
        )
        row.version = parent + 1
        row.policy_rev = POLICY_REV
        row.updated_at = now
        who = (
            author.author_agent_id,
            author.author_client,
            author.author_device,
            author.author_instance,
        )
        # A named author owns the whole attribution of the new version; an anonymous edit
        # (an approval with edits) keeps the previous one rather than inventing fields.
        if any(who):
            (row.author_agent_id, row.author_client, row.author_device, row.author_instance) = who
        session.flush()
        self._snapshot(session, row, parent, _diff(old, row.content), now)

    def forget(self, scope: str | None, record_id: str) -> RecordView:
        """Tombstone: out of every recall and plan at once, restorable from the trash."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            if row.state == RecordState.DELETED.value:
                raise InvalidTransitionError(f"record {record_id} is already deleted")
            previous = row.state
            self._move(row, RecordState.DELETED, self.clock())
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
            row.state = target
            row.state_before_delete = None
            row.updated_at = self.clock()
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

    # -- reads --------------------------------------------------------------------------------

    def get(self, scope: str | None, record_id: str) -> RecordView:
        with self.transaction(scope) as session:
            return record_view(self.get_row(session, scope, record_id))

    def list_records(
        self,
        scope: str,
        *,
        state: RecordState | Sequence[RecordState] | None = None,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> list[RecordView]:
        """Records of a scope, newest first; ``state=None`` lists every non-deleted record."""
        validate_scope(scope)
        stmt = select(MemoryRecord).where(MemoryRecord.scope == scope)
        if state is None:
            stmt = stmt.where(MemoryRecord.state != RecordState.DELETED.value)
        else:
            states = [state] if isinstance(state, RecordState) else list(state)
            stmt = stmt.where(MemoryRecord.state.in_([s.value for s in states]))
        if kind is not None:
            stmt = stmt.where(MemoryRecord.kind == kind)
        stmt = stmt.where(*path_clause(path_prefix))
        stmt = stmt.order_by(MemoryRecord.seq.desc()).limit(limit)
        with self.transaction(scope) as session:
            return [record_view(r) for r in session.scalars(stmt)]

    def history(self, scope: str | None, record_id: str) -> list[VersionView]:
        """Every version of a record, oldest first, following the records it superseded."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            chain = [row]
            while chain[-1].supersedes_record_id and len(chain) < 1000:
                older = session.scalars(
                    select(MemoryRecord).where(
                        MemoryRecord.id == chain[-1].supersedes_record_id,
                        MemoryRecord.scope == row.scope,
                    )
                ).one_or_none()
                if older is None or older in chain:
                    break
                chain.append(older)
            snaps = session.scalars(
                select(MemoryRecordVersion)
                .where(
                    MemoryRecordVersion.scope == row.scope,
                    MemoryRecordVersion.record_id.in_([r.id for r in chain]),
                )
                .order_by(MemoryRecordVersion.version, MemoryRecordVersion.id)
            )
            return [
                VersionView(
                    s.record_id,
                    s.version,
                    s.parent_version,
                    s.content,
                    s.value,
                    s.diff,
                    s.record_id == row.id and s.version == row.version,
                    s.created_at,
                    s.author_agent_id,
                    s.author_client,
                    s.author_device,
                    s.author_instance,
                )
                for s in snaps
            ]

    def evidence(self, scope: str | None, record_id: str) -> list[dict[str, Any]]:
        """Redacted evidence items linked to a record (the receipts)."""
        with self.transaction(scope) as session:
            row = self.get_row(session, scope, record_id)
            rows = session.execute(
                select(MemoryEvidence.relation, KnowledgeSourceItem)
                .join(
                    KnowledgeSourceItem,
                    (KnowledgeSourceItem.scope == MemoryEvidence.scope)
                    & (KnowledgeSourceItem.id == MemoryEvidence.source_item_id),
                )
                .where(MemoryEvidence.record_id == row.id, MemoryEvidence.scope == row.scope)
                .order_by(MemoryEvidence.id)
            )
            return [
                {
                    "source_item_id": item.id,
                    "relation": rel,
                    "text": item.text,
                    "source": item.source_instance_id,
                    "external_id": item.external_id,
                    "occurred_at": item.occurred_at,
                }
                for rel, item in rows
            ]

    def count(self, scope: str) -> int:
        with self.transaction(scope) as session:
            return int(
                session.scalar(
                    select(func.count())
                    .select_from(MemoryRecord)
                    .where(MemoryRecord.scope == scope)
                )
                or 0
            )

    # -- consent ------------------------------------------------------------------------------

    def grant_consent(self, scope: str, category: str) -> None:
        """Allow records of a special category into context (recorded, revocable)."""
        validate_scope(scope)
        category = _category(category)
        with self.transaction(scope) as session:
            if category in self._consented(session, scope):
                return
            now = self.clock()
            session.add(
                ConsentGrant(scope=scope, category=category, granted_at=now, revoked_at=None)
            )
            self._trace(
                session, scope, "consent", reason_code="granted", payload={"category": category}
            )

    def revoke_consent(self, scope: str, category: str) -> None:
        """Withdraw consent; records of that category leave context at the next plan."""
        validate_scope(scope)
        category = _category(category)
        with self.transaction(scope) as session:
            now = self.clock()
            for grant in session.scalars(
                select(ConsentGrant).where(
                    ConsentGrant.scope == scope,
                    ConsentGrant.category == category,
                    ConsentGrant.revoked_at.is_(None),
                )
            ):
                grant.revoked_at = now
            self._trace(
                session, scope, "consent", reason_code="revoked", payload={"category": category}
            )

    def consented(self, scope: str) -> frozenset[str]:
        with self.transaction(scope) as session:
            return self._consented(session, scope)

    def _consented(self, session: Session | Connection, scope: str) -> frozenset[str]:
        return frozenset(session.scalars(_CONSENTED, {"scope": scope}))

    # -- traces -------------------------------------------------------------------------------

    def _trace(
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

    def record_trace(
        self,
        scope: str,
        event_type: str,
        *,
        reason_code: str | None = None,
        session_key: str | None = None,
        payload: dict[str, Any] | None = None,
        chars: int = 0,
        parent: str | None = None,
    ) -> str:
        """Write one trace event (ids, versions and reason codes only; never user text)."""
        with self.transaction(scope) as session:
            return self._trace(
                session,
                scope,
                event_type,
                reason_code=reason_code,
                session_key=session_key,
                payload=payload,
                chars=chars,
                parent=parent,
            )

    def traces(
        self, scope: str, *, event_type: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        validate_scope(scope)
        stmt = select(MemoryTraceEvent).where(MemoryTraceEvent.scope == scope)
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

    # -- TEMPORARY aliases (issue 16, w2-read) --------------------------------------------------
    # The public names the store-API branch adds; the integrator drops this block at merge.
    trace = _trace
    consents_in = _consented
    # -- end of TEMPORARY aliases ---------------------------------------------------------------


def _category(category: str) -> str:
    cleaned = category.strip().lower()
    if not re.fullmatch(r"[a-z_]{2,40}", cleaned):
        raise InvalidInputError(f"invalid consent category {category!r}")
    return cleaned


def _diff(old: str, new: str) -> str:
    """A short, readable word-level diff: ``-old words`` / ``+new words``."""
    a, b = old.split(), new.split()
    parts: list[str] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            parts.append("-" + " ".join(a[i1:i2]))
        if tag in ("replace", "insert"):
            parts.append("+" + " ".join(b[j1:j2]))
    return " ".join(parts) if parts else "(no change)"
