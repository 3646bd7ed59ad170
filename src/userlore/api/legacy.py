"""The 0.1 root methods of ``Userlore``, kept for one release behind ``DeprecationWarning``.

Each shim maps the old argument order (``lore.approve(id, scope=...)``) onto its namespace
(``lore.records.approve(scope, id)``); ``docs/migrating.md`` lists them. Remove in 0.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from userlore.api.twins import deprecated, twin
from userlore.errors import ScopeError
from userlore.memory import Author, MemoryReceipt, RecallResult
from userlore.models import ConsentCategory, RecordState, RecordView
from userlore.store.governed import VersionView

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from userlore.api.consent import Consent
    from userlore.api.facets import Facets
    from userlore.api.feedback import Feedback
    from userlore.api.memory import Memory
    from userlore.api.records import Records
    from userlore.api.scopes import Scopes
    from userlore.api.sources import Sources
    from userlore.api.traces import Traces
    from userlore.feedback import CorrectionResult, FeedbackResult, QualityReport, ResponseFeedback
    from userlore.learning import CacheRebuilt, Facet, FacetCache, FacetClass
    from userlore.sources import (
        KnowledgeSourceAdapter,
        PipelineReport,
        SourceCoordinator,
        SyncReport,
    )
    from userlore.sources.ingestion import ProgressCallback
    from userlore.store.lifecycle import ImportReceipt, PurgeReceipt


def _scope(scope: str | None) -> str:
    """0.1 let ``scope=None`` mean "any scope"; 0.2 refuses it."""
    if scope is None:
        raise ScopeError("scope is required: pass the scope the record belongs to")
    return scope


class LegacyRoot:
    """Deprecated root methods; each forwards to its namespace."""

    if TYPE_CHECKING:  # the namespaces Userlore wires
        records: Records
        consent: Consent
        memory: Memory
        facets: Facets
        feedback: Feedback
        traces: Traces
        scopes: Scopes

        @property
        def sources(self) -> Sources: ...

    @property
    @deprecated("learning", "facets.cache")
    def learning(self) -> FacetCache:
        return self.facets.cache

    @deprecated("arecords", "records.alist")
    async def arecords(
        self,
        scope: str,
        state: RecordState | str | Sequence[RecordState | str] | None = None,
        *,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> list[RecordView]:
        return await self.records.alist(
            scope, state, kind=kind, path_prefix=path_prefix, limit=limit
        )

    @deprecated("atraces", "traces.alist")
    async def atraces(
        self, scope: str, *, event_type: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        return await self.traces.alist(scope, event_type=event_type, limit=limit)

    @deprecated("get", "records.get")
    def get(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.get(_scope(scope), record_id)

    @deprecated("trash", "records.trash")
    def trash(self, scope: str) -> list[RecordView]:
        return self.records.trash(scope)

    @deprecated("history", "records.history")
    def history(self, record_id: str, *, scope: str | None = None) -> list[VersionView]:
        return self.records.history(_scope(scope), record_id)

    @deprecated("evidence", "records.evidence")
    def evidence(self, record_id: str, *, scope: str | None = None) -> list[dict[str, Any]]:
        return self.records.evidence(_scope(scope), record_id)

    @deprecated("approve", "records.approve")
    def approve(
        self, record_id: str, *, scope: str | None = None, content: str | None = None
    ) -> RecordView:
        return self.records.approve(_scope(scope), record_id, content=content)

    @deprecated("reject", "records.reject")
    def reject(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.reject(_scope(scope), record_id)

    @deprecated("update", "records.update")
    def update(self, record_id: str, content: str, *, scope: str | None = None) -> RecordView:
        return self.records.update(_scope(scope), record_id, content)

    @deprecated("forget", "records.forget")
    def forget(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.forget(_scope(scope), record_id)

    @deprecated("restore", "records.restore")
    def restore(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.restore(_scope(scope), record_id)

    @deprecated("pin", "records.pin")
    def pin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.pin(_scope(scope), record_id)

    @deprecated("unpin", "records.unpin")
    def unpin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.records.unpin(_scope(scope), record_id)

    @deprecated("grant_consent", "consent.grant")
    def grant_consent(self, scope: str, category: ConsentCategory | str) -> None:
        self.consent.grant(scope, category)

    @deprecated("revoke_consent", "consent.revoke")
    def revoke_consent(self, scope: str, category: ConsentCategory | str) -> None:
        self.consent.revoke(scope, category)

    @deprecated("consents", "consent.list")
    def consents(self, scope: str) -> frozenset[str]:
        return self.consent.list(scope)

    @deprecated("list_facets", "facets.list")
    def list_facets(self, scope: str, facet_class: FacetClass | str | None = None) -> list[Facet]:
        return self.facets.list(scope, facet_class)

    @deprecated("get_facet", "facets.get")
    def get_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.facets.get(scope, facet_class, key)

    @deprecated("update_facet", "facets.update")
    def update_facet(
        self, scope: str, facet_class: FacetClass | str, key: str, value: str
    ) -> Facet:
        return self.facets.update(scope, facet_class, key, value)

    @deprecated("pin_facet", "facets.pin")
    def pin_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.facets.pin(scope, facet_class, key)

    @deprecated("unpin_facet", "facets.unpin")
    def unpin_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.facets.unpin(scope, facet_class, key)

    @deprecated("forget_facet", "facets.forget")
    def forget_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.facets.forget(scope, facet_class, key)

    @deprecated("reset_cache", "facets.reset")
    def reset_cache(self, scope: str) -> int:
        return self.facets.reset(scope)

    @deprecated("rebuild_cache", "facets.rebuild")
    def rebuild_cache(self, scope: str) -> CacheRebuilt:
        return self.facets.rebuild(scope)

    @deprecated("cache_stats", "facets.stats")
    def cache_stats(self, scope: str) -> dict[str, Any]:
        return self.facets.stats(scope)

    @deprecated("about_me", "facets.about")
    def about_me(self, scope: str) -> list[dict[str, Any]]:
        return self.facets.about(scope)

    @deprecated("remember", "memory.remember")
    def remember(
        self,
        scope: str,
        content: str,
        *,
        path: str,
        memory_type: str,
        agent_id: str | None = None,
        client: str | None = None,
        device: str | None = None,
        instance: str | None = None,
        session_key: str | None = None,
    ) -> MemoryReceipt:
        author = Author(agent_id, client, device, instance)
        return self.memory.remember(
            scope, content, path=path, memory_type=memory_type, author=author,
            session_key=session_key,
        )  # fmt: skip

    @deprecated("recall", "memory.recall")
    def recall(
        self,
        scope: str,
        query: str,
        *,
        path: str | None = None,
        memory_type: str | None = None,
        k: int = 5,
        session_key: str | None = None,
    ) -> RecallResult:
        return self.memory.recall(
            scope, query, path=path, memory_type=memory_type, k=k, session_key=session_key
        )

    @deprecated("update_memory", "memory.update")
    def update_memory(
        self,
        record_id: str,
        content: str,
        *,
        scope: str,
        agent_id: str | None = None,
        client: str | None = None,
        device: str | None = None,
        instance: str | None = None,
    ) -> MemoryReceipt:
        author = Author(agent_id, client, device, instance)
        return self.memory.update(scope, record_id, content, author=author)

    @deprecated("purge", "scopes.purge")
    def purge(self, scope: str, path_prefix: str | None = None) -> PurgeReceipt:
        return self.scopes.purge(scope, path_prefix)

    @deprecated("export", "scopes.export")
    def export(self, scope: str) -> dict[str, Any]:
        return self.scopes.export(scope)

    @deprecated("import_", "scopes.import_")
    def import_(self, data: dict[str, Any], scope: str) -> ImportReceipt:
        return self.scopes.import_(scope, data)

    @deprecated("get_response_feedback", "feedback.get_response_feedback")
    def get_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime
    ) -> ResponseFeedback:
        return self.feedback.get_response_feedback(scope, session_key, response_at)

    @deprecated("set_response_feedback", "feedback.set_response_feedback")
    def set_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime, rating: str
    ) -> FeedbackResult:
        return self.feedback.set_response_feedback(scope, session_key, response_at, rating)

    @deprecated("handle_correction", "feedback.handle_correction")
    def handle_correction(
        self,
        scope: str,
        content: str,
        session_key: str | None = None,
        *,
        turn_id: str | None = None,
        at: datetime | None = None,
    ) -> CorrectionResult:
        return self.feedback.handle_correction(scope, content, session_key, turn_id=turn_id, at=at)

    @deprecated("quality", "feedback.quality")
    def quality(self, scope: str, window_days: int = 30) -> QualityReport:
        return self.feedback.quality(scope, window_days)

    @deprecated("ingest", "sources.ingest")
    def ingest(
        self,
        adapter: KnowledgeSourceAdapter,
        *,
        scope: str,
        synthesize: bool = True,
        model: BaseChatModel | None = None,
        progress: ProgressCallback | None = None,
    ) -> SyncReport:
        return self.sources.ingest(
            scope, adapter, synthesize=synthesize, model=model, progress=progress
        )

    @deprecated("sync_pending", "sources.sync_pending")
    def sync_pending(
        self,
        *,
        scope: str | None = None,
        source_instance_id: str | None = None,
        max_items: int | None = None,
        model: BaseChatModel | None = None,
    ) -> PipelineReport:
        if scope is not None:
            return self.sources.sync_pending(
                scope, source_instance_id=source_instance_id, max_items=max_items, model=model
            )
        pipeline = self.sources.coordinator(model=model).pipeline  # 0.1: None drained every scope
        report = pipeline.drain(source_instance_id=source_instance_id, max_items=max_items)
        if report.claimed:
            self.memory.term_stats.clear()  # the term statistics every read shares
        return report

    @deprecated("coordinator", "sources.coordinator")
    def coordinator(
        self,
        *,
        interval_seconds: float = 60.0,
        model: BaseChatModel | None = None,
        worker_id: str | None = None,
        lease_seconds: float = 300.0,
    ) -> SourceCoordinator:
        return self.sources.coordinator(
            interval_seconds=interval_seconds,
            model=model,
            worker_id=worker_id,
            lease_seconds=lease_seconds,
        )

    aget = twin(get)
    atrash = twin(trash)
    ahistory = twin(history)
    aevidence = twin(evidence)
    aapprove = twin(approve)
    areject = twin(reject)
    aupdate = twin(update)
    aforget = twin(forget)
    arestore = twin(restore)
    apin = twin(pin)
    aunpin = twin(unpin)
    agrant_consent = twin(grant_consent)
    arevoke_consent = twin(revoke_consent)
    aremember = twin(remember)
    arecall = twin(recall)
    aupdate_memory = twin(update_memory)
    apurge = twin(purge)
    aexport = twin(export)
    aimport_ = twin(import_)
    alist_facets = twin(list_facets)
    aget_facet = twin(get_facet)
    aupdate_facet = twin(update_facet)
    apin_facet = twin(pin_facet)
    aunpin_facet = twin(unpin_facet)
    aforget_facet = twin(forget_facet)
    areset_cache = twin(reset_cache)
    arebuild_cache = twin(rebuild_cache)
    acache_stats = twin(cache_stats)
    aabout_me = twin(about_me)
    aingest = twin(ingest)
    async_pending = twin(sync_pending)
    aget_response_feedback = twin(get_response_feedback)
    aset_response_feedback = twin(set_response_feedback)
    ahandle_correction = twin(handle_correction)
    aquality = twin(quality)
