# Over 400 lines: one sync (run, chunks, deletes, cursor state, finish) reads best as one class.
"""``KnowledgeIngestionService``: incremental, idempotent pulls into ``knowledge_source_items``.

One sync = one recorded run. Items are unique by (scope, source instance, external id); a normalized
item whose content hash matches what is stored costs a dictionary lookup and nothing else, so an
unchanged source re-syncs in O(items pulled) CPU and O(changes) writes (and adapters with a
cursor pull only what changed). New, modified and deleted items are written redacted, appended
to the change ledger, and queued for synthesis. The raw connector payload never reaches the
database: adapters hand over extracted text, which is normalized, bounded and redacted here.

Items are written in chunks, each its own transaction, so a long sync never holds the write lock
for long. A failed run keeps the items it already stored (each is complete, and the next run
recognises them by hash); its cursor is not advanced, so the next run pulls the same range again.

A run records the process that runs it (:mod:`userlore.sources.holder`). A run left ``running``
by a process that was killed is marked ``failed`` with a fixed reason when the next sync of that
source starts: at once when its process is certainly gone (same host), otherwise once it is older
than ``stale_run_seconds``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import case, func, insert, select, update
from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError, MemoryDisabledError, SourceSyncError, UserloreError
from userlore.policy.sensitivity import classify, redact
from userlore.sources.base import KnowledgeSourceAdapter, SourceItem
from userlore.sources.batches import (
    _KIND,
    ABANDONED_GONE,
    ABANDONED_STALE,
    MAX_ERROR_CHARS,
    STALE_RUN_SECONDS,
    _batched,
    _chunk_ids,
    _groups,
    _Known,
    _redact_meta,
    _Warnings,
    connected_enabled,
)
from userlore.sources.holder import holder_gone, this_holder
from userlore.sources.ledger import ChangeLedger
from userlore.sources.normalize import (
    MAX_ITEM_CHARS,
    NormalizedItem,
    bound,
    normalize_external_id,
    normalize_item,
    one_line,
)
from userlore.sources.views import PipelineReport, SyncCounts, SyncReport
from userlore.store.episodic_index import index_rows
from userlore.store.governed import GovernedStore, validate_scope
from userlore.store.planner_stats import stats_watch
from userlore.store.schema import KnowledgeSourceItem, KnowledgeSourceState, KnowledgeSyncRun

__all__ = ["KnowledgeIngestionService", "ProgressCallback", "connected_enabled"]

ProgressCallback = Callable[[int, int | None], None]
"""Called after every chunk with (items seen so far, expected total or ``None``)."""


class KnowledgeIngestionService:
    """Pulls a :class:`~userlore.sources.base.KnowledgeSourceAdapter` into the store.

    Args:
        store: The governed store (its config decides whether connected sources may write).
        chunk_size: Items per write transaction.
        max_item_chars: Bound on the text of one item; longer text is cut and counted.
        stale_run_seconds: Age after which a ``running`` run of another host (or of an older
            version) counts as abandoned when the next sync of its source starts.
    """

    def __init__(
        self,
        store: GovernedStore,
        *,
        chunk_size: int = 500,
        max_item_chars: int = MAX_ITEM_CHARS,
        stale_run_seconds: float = STALE_RUN_SECONDS,
    ) -> None:
        if chunk_size < 1 or max_item_chars < 16:
            raise InvalidInputError("chunk_size must be >= 1 and max_item_chars >= 16")
        if stale_run_seconds <= 0:
            raise InvalidInputError("stale_run_seconds must be positive")
        self.stale_run = timedelta(seconds=stale_run_seconds)
        self.store = store
        self.ledger = ChangeLedger(store)
        self.chunk_size = chunk_size
        self.max_item_chars = max_item_chars

    def sync(
        self,
        scope: str,
        adapter: KnowledgeSourceAdapter,
        *,
        progress: ProgressCallback | None = None,
    ) -> SyncReport:
        """Pull ``adapter`` from its persisted cursor and record the run.

        Raises:
            MemoryDisabledError: the memory mode or ``memory.sources`` forbids connected sources.
            ScopeError: malformed scope.
            InvalidInputError: the adapter's instance id or kind is malformed.
            SourceSyncError: the adapter failed while pulling (the run is recorded as failed).
        """
        validate_scope(scope)
        blocked = connected_enabled(self.store)
        if blocked is not None:
            raise MemoryDisabledError(blocked)
        instance, kind, label = self._identity(adapter)
        store = self.store
        started = store.clock()
        t0 = time.perf_counter()
        with store.transaction() as session:
            cursor = self._check_owner(session, scope, instance)
            self._fail_abandoned(session, scope, instance, started)
            run_id = store.new_id("run")
            session.add(
                KnowledgeSyncRun(
                    id=run_id,
                    scope=scope,
                    source_instance_id=instance,
                    status="running",
                    counts={},
                    warnings={"holder": this_holder()},
                    error=None,
                    started_at=started,
                    finished_at=None,
                )
            )
        counts = SyncCounts()
        warnings = _Warnings()
        try:
            pull = adapter.pull(cursor)
            # A complete snapshot needs every stored id (what is missing was deleted); a delta
            # only needs the ids it names, so re-syncing through a cursor costs O(changes).
            snapshot = pull.complete
            existing = self._index(scope, instance) if snapshot else {}
            seen: set[str] = set()
            for chunk in _batched(pull.items, self.chunk_size):
                if not snapshot:
                    existing.update(self._index(scope, instance, _chunk_ids(chunk)))
                self._write_chunk(scope, instance, chunk, existing, seen, counts, warnings)
                if progress is not None:
                    progress(counts.seen, pull.total)
            counts.skipped += max(0, int(pull.skipped))
            for message in pull.warnings:
                warnings.add(message)
            unreadable = {i for i in map(normalize_external_id, pull.unreadable) if i}
            gone: list[tuple[str, _Known]] = []
            if not snapshot and pull.deleted:
                named = {i for i in map(normalize_external_id, pull.deleted) if i}
                existing.update(self._index(scope, instance, named - existing.keys()))
            if snapshot and pull.complete:  # an adapter may lower ``complete`` while iterating
                gone = [
                    (eid, k)
                    for eid, k in existing.items()
                    if not k.deleted and eid not in seen and eid not in unreadable
                ]
            for raw in pull.deleted:
                eid = normalize_external_id(raw)
                k = existing.get(eid) if eid else None
                if eid and k is not None and not k.deleted and eid not in seen:
                    gone.append((eid, k))
            finished = store.clock()
            with store.transaction() as session:
                self._delete(session, scope, instance, dict(gone), counts)
                self._save_state(session, scope, instance, kind, label, pull.cursor)
                self._backlog(session, scope, instance, counts)
                self._finish_run(session, run_id, "succeeded", counts, warnings, None, finished)
        except BaseException as exc:
            error = bound(redact(one_line(f"{type(exc).__name__}: {exc}")), MAX_ERROR_CHARS)[0]
            try:
                with store.transaction() as session:
                    self._finish_run(
                        session, run_id, "failed", counts, warnings, error, store.clock()
                    )
            except Exception:  # the original failure matters more than recording it
                pass
            if isinstance(exc, UserloreError) or not isinstance(exc, Exception):
                raise
            raise SourceSyncError(f"sync of {instance!r} failed: {error}", run_id) from exc
        if progress is not None:
            progress(counts.seen, counts.seen)
        return SyncReport(
            run_id=run_id,
            scope=scope,
            source_instance_id=instance,
            status="succeeded",
            counts=counts,
            warnings=tuple(warnings.messages),
            error=None,
            started_at=started,
            finished_at=finished,
            duration_ms=(time.perf_counter() - t0) * 1000,
        )

    def finish_synthesis(self, report: SyncReport, synthesis: PipelineReport) -> SyncReport:
        """Record what is left after synthesizing a synced source: ``partial`` while items wait.

        Updates the run's ``pending``/``running`` counts and its status (``succeeded`` when
        nothing is left, else ``partial``) and returns the report with both and ``synthesis``.
        """
        counts = dataclasses.replace(report.counts)
        with self.store.transaction() as session:
            self._backlog(session, report.scope, report.source_instance_id, counts)
            status = "partial" if counts.pending or counts.running else "succeeded"
            session.execute(
                update(KnowledgeSyncRun)
                .where(
                    KnowledgeSyncRun.id == report.run_id,
                    KnowledgeSyncRun.scope == report.scope,
                )
                .values(status=status, counts=counts.as_dict())
            )
        return dataclasses.replace(report, status=status, counts=counts, synthesis=synthesis)

    # -- steps --------------------------------------------------------------------------------

    def _fail_abandoned(self, session: Session, scope: str, instance: str, now: datetime) -> None:
        """Mark runs of this source that can no longer finish ``failed``, with a fixed reason."""
        r = KnowledgeSyncRun
        for run in session.scalars(
            select(r).where(
                r.scope == scope, r.source_instance_id == instance, r.status == "running"
            )
        ):
            holder = (run.warnings or {}).get("holder") if isinstance(run.warnings, dict) else None
            if holder_gone(holder if isinstance(holder, str) else None):
                reason = ABANDONED_GONE
            elif run.started_at <= now - self.stale_run:
                reason = ABANDONED_STALE.format(seconds=self.stale_run.total_seconds())
            else:
                continue  # another process may still be syncing this source
            run.status = "failed"
            run.error = reason
            run.finished_at = now
            run.warnings = {"messages": [], "dropped": 0}

    @staticmethod
    def _backlog(session: Session, scope: str, instance: str, counts: SyncCounts) -> None:
        """Count the source's items still waiting for synthesis (pending) or leased (running)."""
        t = KnowledgeSourceItem
        # Walk the (small) backlog through the synthesis-state index, not every item of the
        # source: ``|| ''`` keeps the planner off the (scope, source) indexes.
        pending, running = session.execute(
            select(
                func.sum(case((t.synthesis_state == "pending", 1), else_=0)),
                func.sum(case((t.synthesis_state == "running", 1), else_=0)),
            ).where(
                t.synthesis_state.in_(("pending", "running")),
                (t.scope + "") == scope,
                (t.source_instance_id + "") == instance,
            )
        ).one()
        counts.pending, counts.running = int(pending or 0), int(running or 0)

    @staticmethod
    def _identity(adapter: KnowledgeSourceAdapter) -> tuple[str, str, str]:
        instance = adapter.source_instance_id
        if not isinstance(instance, str) or not instance.strip() or len(instance) > 300:
            raise InvalidInputError("source_instance_id must be 1-300 characters")
        if classify(instance).is_blocked:  # stored as a key on every item: refused, not redacted
            raise InvalidInputError("source_instance_id must not hold a secret or regulated value")
        kind = adapter.kind
        if not isinstance(kind, str) or not _KIND.fullmatch(kind):
            raise InvalidInputError(f"invalid source kind {kind!r}")
        label = bound(redact(one_line(str(getattr(adapter, "label", "") or instance))), 200)[0]
        return instance, kind, label or instance

    @staticmethod
    def _check_owner(session: Session, scope: str, instance: str) -> str | None:
        """The scope's cursor for ``instance``.

        Source instance ids are namespaced by scope (items are unique per scope, source and
        external id), so another scope using the same id neither blocks nor sees this one.
        """
        state = session.get(KnowledgeSourceState, (scope, instance))
        return state.cursor if state is not None else None

    def _index(
        self, scope: str, instance: str, external_ids: set[str] | None = None
    ) -> dict[str, _Known]:
        """What is stored for the source (or for the given external ids of it)."""
        stmt = select(
            KnowledgeSourceItem.external_id,
            KnowledgeSourceItem.id,
            KnowledgeSourceItem.content_hash,
            KnowledgeSourceItem.deleted_at,
        ).where(
            KnowledgeSourceItem.scope == scope,
            KnowledgeSourceItem.source_instance_id == instance,
        )
        if external_ids is not None and not external_ids:
            return {}
        out: dict[str, _Known] = {}
        with self.store.connection() as conn:
            groups = [None] if external_ids is None else list(_groups(sorted(external_ids), 500))
            for group in groups:
                query = (
                    stmt
                    if group is None
                    else stmt.where(KnowledgeSourceItem.external_id.in_(group))
                )
                for eid, iid, digest, deleted in conn.execute(query):
                    out[eid] = _Known(iid, digest, deleted is not None)
        return out

    def _write_chunk(
        self,
        scope: str,
        instance: str,
        chunk: list[SourceItem],
        existing: dict[str, _Known],
        seen: set[str],
        counts: SyncCounts,
        warnings: _Warnings,
    ) -> None:
        store = self.store
        now = store.clock()
        inserts: list[dict[str, Any]] = []
        updates: list[dict[str, Any]] = []
        changes: list[dict[str, Any]] = []
        duplicates = 0
        for raw in chunk:
            counts.seen += 1
            norm = normalize_item(instance, raw, max_chars=self.max_item_chars)
            if norm is None:
                counts.skipped += 1
                continue
            eid = norm.external_id
            if eid in seen:
                counts.skipped += 1
                duplicates += 1
                continue
            seen.add(eid)
            known = existing.get(eid)
            if known is not None and not known.deleted and known.content_hash == norm.content_hash:
                counts.unchanged += 1
                continue
            values = self._stored_values(scope, instance, norm, now, counts)
            if known is None:
                item_id = store.new_id("src")
                inserts.append({"id": item_id, "created_at": now, **values})
                change = "added"
            else:
                item_id = known.id
                updates.append({"id": item_id, **values})
                change = "added" if known.deleted else "modified"
            setattr(counts, change, getattr(counts, change) + 1)
            existing[eid] = _Known(item_id, norm.content_hash, False)
            changes.append(
                {
                    "scope": scope,
                    "source_instance_id": instance,
                    "source_item_id": item_id,
                    "external_id": eid,
                    "change_type": change,
                    "content_hash": norm.content_hash,
                }
            )
        if duplicates:
            warnings.add(f"{duplicates} item(s) repeated an external id within one pull")
        if not changes:
            return
        with store.transaction() as session:
            if inserts:
                session.execute(insert(KnowledgeSourceItem), inserts)
            if updates:
                session.execute(update(KnowledgeSourceItem), updates)
            index_rows(session, [*inserts, *updates])
            if store.vectors is not None:  # embedded in one batch when the pull commits
                for row in inserts:
                    store.vectors.stage(
                        session, "evidence", scope, row["id"], row["text"], now, fresh=True
                    )
                for row in updates:
                    store.vectors.stage(session, "evidence", scope, row["id"], row["text"], now)
            self.ledger.lock(session, scope)
            self.ledger.append(session, changes)
        stats_watch(store.engine).wrote("knowledge_source_items", len(inserts))

    @staticmethod
    def _stored_values(
        scope: str, instance: str, norm: NormalizedItem, now: datetime, counts: SyncCounts
    ) -> dict[str, Any]:
        text = redact(norm.text)
        title = redact(norm.title) if norm.title else None
        meta, meta_changed = _redact_meta(norm.meta)
        blocked = text != norm.text or title != norm.title or meta_changed
        counts.blocked += int(blocked)
        counts.truncated += int(norm.truncated)
        return {
            "scope": scope,
            "source_instance_id": instance,
            "external_id": norm.external_id,
            "content_hash": norm.content_hash,
            "title": title,
            "text": text,
            "meta": meta,
            "occurred_at": norm.occurred_at or now,
            "pipeline": norm.pipeline.value,
            "blocked": blocked,
            "synthesis_state": "pending",
            "synthesis_attempts": 0,
            "next_attempt_at": None,
            "lease_owner": None,
            "lease_expires_at": None,
            "last_error": None,
            "deleted_at": None,
            "updated_at": now,
        }

    def _delete(
        self,
        session: Session,
        scope: str,
        instance: str,
        gone: dict[str, _Known],
        counts: SyncCounts,
    ) -> None:
        if not gone:
            return
        now = self.store.clock()
        session.execute(
            update(KnowledgeSourceItem),
            [
                {
                    "id": k.id,
                    "deleted_at": now,
                    "synthesis_state": "pending",
                    "synthesis_attempts": 0,
                    "next_attempt_at": None,
                    "lease_owner": None,
                    "lease_expires_at": None,
                    "last_error": None,
                    "updated_at": now,
                }
                for k in gone.values()
            ],
        )
        self.ledger.lock(session, scope)
        self.ledger.append(
            session,
            [
                {
                    "scope": scope,
                    "source_instance_id": instance,
                    "source_item_id": k.id,
                    "external_id": eid,
                    "change_type": "deleted",
                    "content_hash": k.content_hash,
                }
                for eid, k in gone.items()
            ],
        )
        counts.deleted += len(gone)

    def _save_state(
        self,
        session: Session,
        scope: str,
        instance: str,
        kind: str,
        label: str,
        cursor: str | None,
    ) -> None:
        now = self.store.clock()
        state = session.get(KnowledgeSourceState, (scope, instance))
        if state is None:
            session.add(
                KnowledgeSourceState(
                    source_instance_id=instance,
                    scope=scope,
                    kind=kind,
                    cursor=cursor,
                    meta={"label": label},
                    updated_at=now,
                )
            )
            return
        state.cursor = cursor
        state.kind = kind
        state.meta = {**(state.meta or {}), "label": label}
        state.updated_at = now

    @staticmethod
    def _finish_run(
        session: Session,
        run_id: str,
        status: str,
        counts: SyncCounts,
        warnings: _Warnings,
        error: str | None,
        finished: datetime,
    ) -> None:
        session.execute(
            update(KnowledgeSyncRun)
            .where(KnowledgeSyncRun.id == run_id)
            .values(
                status=status,
                counts=counts.as_dict(),
                warnings=warnings.as_json(),
                error=error,
                finished_at=finished,
            )
        )
