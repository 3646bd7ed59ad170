"""The 0.1 root methods of ``Userlore``, kept for one release behind ``DeprecationWarning``.

Each shim maps the old argument order (``lore.approve(id, scope=...)``) onto its namespace
(``lore.records.approve(scope, id)``); ``docs/migrating.md`` lists them. Remove in 0.3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from userlore.api.twins import deprecated, twin
from userlore.errors import ScopeError
from userlore.memory import Author, MemoryReceipt
from userlore.models import RecordState, RecordView
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
    from userlore.learning import FacetCache
    from userlore.sources import (
        KnowledgeSourceAdapter,
        PipelineReport,
        SyncReport,
    )
    from userlore.sources.ingestion import ProgressCallback
    from userlore.store.lifecycle import ImportReceipt


def moved(old: str, new: str) -> Any:
    """A deprecated root name that forwards its arguments unchanged to ``lore.<new>``."""
    namespace, name = new.split(".")

    @deprecated(old, new)
    def shim(self: Any, *args: Any, **kwargs: Any) -> Any:
        return getattr(getattr(self, namespace), name)(*args, **kwargs)

    shim.__name__ = shim.__qualname__ = old
    return shim


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
            scope,
            content,
            path=path,
            memory_type=memory_type,
            author=author,
            session_key=session_key,
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

    @deprecated("import_", "scopes.import_")
    def import_(self, data: dict[str, Any], scope: str) -> ImportReceipt:
        return self.scopes.import_(scope, data)

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

    # Same arguments as their namespace method: forwarded as they are.
    trash = moved("trash", "records.trash")
    atrash = moved("atrash", "records.atrash")
    grant_consent = moved("grant_consent", "consent.grant")
    agrant_consent = moved("agrant_consent", "consent.agrant")
    revoke_consent = moved("revoke_consent", "consent.revoke")
    arevoke_consent = moved("arevoke_consent", "consent.arevoke")
    consents = moved("consents", "consent.list")
    list_facets = moved("list_facets", "facets.list")
    alist_facets = moved("alist_facets", "facets.alist")
    get_facet = moved("get_facet", "facets.get")
    aget_facet = moved("aget_facet", "facets.aget")
    update_facet = moved("update_facet", "facets.update")
    aupdate_facet = moved("aupdate_facet", "facets.aupdate")
    pin_facet = moved("pin_facet", "facets.pin")
    apin_facet = moved("apin_facet", "facets.apin")
    unpin_facet = moved("unpin_facet", "facets.unpin")
    aunpin_facet = moved("aunpin_facet", "facets.aunpin")
    forget_facet = moved("forget_facet", "facets.forget")
    aforget_facet = moved("aforget_facet", "facets.aforget")
    reset_cache = moved("reset_cache", "facets.reset")
    areset_cache = moved("areset_cache", "facets.areset")
    rebuild_cache = moved("rebuild_cache", "facets.rebuild")
    arebuild_cache = moved("arebuild_cache", "facets.arebuild")
    cache_stats = moved("cache_stats", "facets.stats")
    acache_stats = moved("acache_stats", "facets.astats")
    about_me = moved("about_me", "facets.about")
    aabout_me = moved("aabout_me", "facets.aabout")
    recall = moved("recall", "memory.recall")
    arecall = moved("arecall", "memory.arecall")
    purge = moved("purge", "scopes.purge")
    apurge = moved("apurge", "scopes.apurge")
    export = moved("export", "scopes.export")
    aexport = moved("aexport", "scopes.aexport")
    get_response_feedback = moved("get_response_feedback", "feedback.get_response_feedback")
    aget_response_feedback = moved("aget_response_feedback", "feedback.aget_response_feedback")
    set_response_feedback = moved("set_response_feedback", "feedback.set_response_feedback")
    aset_response_feedback = moved("aset_response_feedback", "feedback.aset_response_feedback")
    handle_correction = moved("handle_correction", "feedback.handle_correction")
    ahandle_correction = moved("ahandle_correction", "feedback.ahandle_correction")
    quality = moved("quality", "feedback.quality")
    aquality = moved("aquality", "feedback.aquality")
    coordinator = moved("coordinator", "sources.coordinator")

    aget = twin(get)
    ahistory = twin(history)
    aevidence = twin(evidence)
    aapprove = twin(approve)
    areject = twin(reject)
    aupdate = twin(update)
    aforget = twin(forget)
    arestore = twin(restore)
    apin = twin(pin)
    aunpin = twin(unpin)
    aremember = twin(remember)
    aupdate_memory = twin(update_memory)
    aimport_ = twin(import_)
    aingest = twin(ingest)
    async_pending = twin(sync_pending)
