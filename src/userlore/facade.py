"""``Userlore``: the one obvious entry point over the governed store and the planner.

Every async method is the sync method run in a worker thread (``asyncio.to_thread``): one body of
logic, no hand-copied twin that could drift.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from userlore.config import MemoryMode, UserContextConfig
from userlore.errors import ConfigError, InvalidInputError, StorageError
from userlore.extract.explicit import Statement, extract_statements
from userlore.feedback import (
    CorrectionResult,
    FeedbackResult,
    FeedbackService,
    QualityReport,
    ResponseFeedback,
)
from userlore.learning.producers.explicit import observe_statements
from userlore.memory import Author, MemoryReceipt, MemoryService, RecallResult
from userlore.models import (
    CandidateInput,
    ConsentCategory,
    ContextPlan,
    ObserveResult,
    Producer,
    RecordState,
    RecordView,
    UserState,
    WriteOutcome,
)
from userlore.planner.planner import ContextPlanner
from userlore.store.engine import create_store_engine, default_database_url, setup
from userlore.store.governed import (
    Clock,
    GovernedStore,
    IdFactory,
    VersionView,
)
from userlore.store.ids import derived_id
from userlore.store.lifecycle import ImportReceipt, PurgeReceipt, export_scope, import_scope
from userlore.store.lifecycle import purge as purge_scope
from userlore.validation import (
    MAX_KEY_CHARS,
    MAX_NAME_CHARS,
    enum_field,
    enum_list,
    identifier,
    int_field,
    mapping_field,
    optional_identifier,
    optional_text,
    text_field,
    validate_path,
    validate_scope,
)

if TYPE_CHECKING:  # connected sources load on first use (they pull in langchain_core models)
    from langchain_core.language_models import BaseChatModel

    from userlore.learning import CacheRebuilt, Facet, FacetCache, FacetClass
    from userlore.sources import (
        KnowledgeSourceAdapter,
        KnowledgeSources,
        PipelineReport,
        SourceCoordinator,
        SyncReport,
    )
    from userlore.sources.ingestion import ProgressCallback

__all__ = ["Userlore"]

P = ParamSpec("P")
R = TypeVar("R")

ROLES = frozenset({"user", "assistant", "system", "tool"})
MAX_TURN_CHARS = 32_000


def _to_thread(fn: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """Async twin of a sync method, sharing its body."""

    @functools.wraps(fn)
    async def twin(*args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(fn, *args, **kwargs)

    twin.__doc__ = f"Async twin of :meth:`{fn.__name__}`."
    return twin


def _config(
    config: UserContextConfig | Mapping[str, Any] | str | Path | None,
) -> UserContextConfig:
    if config is None:
        return UserContextConfig()
    if isinstance(config, UserContextConfig):
        return config
    if isinstance(config, Mapping):
        return UserContextConfig.from_dict(config)
    if isinstance(config, (str, Path)):
        return UserContextConfig.from_json(config)
    raise ConfigError(
        "config must be a UserContextConfig, a mapping or a JSON file path, "
        f"not {type(config).__name__}"
    )


def _database_name(url: str) -> str:
    """The database a URL names, for messages: the file path, or the URL without password."""
    try:
        parsed = make_url(url)
    except Exception:  # the URL parsed once already; never fail while describing a failure
        return "the database"
    if parsed.get_backend_name() == "sqlite":
        return f"database file {parsed.database!r}" if parsed.database else "in-memory database"
    return f"database {parsed.render_as_string(hide_password=True)!r}"


def _ref(record_id: object, scope: object) -> None:
    """Check the arguments of an id-taking call (the record id and an optional scope)."""
    identifier(record_id, "record_id")
    if scope is not None:
        validate_scope(scope)


class Userlore:
    """Governed user understanding over one database.

    Example:
        >>> lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
        >>> _ = lore.observe(scope="u1", role="user", content="Always answer in bullet points.")
        >>> "bullet" in lore.plan_context(scope="u1", query="how do I deploy?").text
        True
    """

    def __init__(self, store: GovernedStore) -> None:
        self.store = store
        self.planner = ContextPlanner(store)

    @classmethod
    def open(
        cls,
        url: str | None = None,
        *,
        config: UserContextConfig | Mapping[str, Any] | str | Path | None = None,
        clock: Clock | None = None,
        ids: IdFactory | None = None,
    ) -> Userlore:
        """Open (and migrate) a database; no URL means the embedded SQLite file.

        Args:
            url: SQLAlchemy URL; ``sqlite://`` is an in-memory database.
            config: A ``UserContextConfig``, a ``userContext`` dict, or a JSON file path.
            clock: Returns the current UTC time (tests pass a fixed clock).
            ids: Makes new ids from a prefix (tests pass a deterministic factory).

        Raises:
            ConfigError: ``config`` is not a config, mapping or path, or does not validate; the
                URL is not a string or names an unknown dialect.
            StorageError: the database (named in the message) is unreachable, not a database
                (a corrupt file), or written by a newer userlore.
        """
        cfg = _config(config)
        if url is not None and not isinstance(url, str):
            raise ConfigError(f"url must be a str, not {type(url).__name__}")
        if url is not None and "\x00" in url:
            raise ConfigError("url must not contain NUL characters")
        target = url or default_database_url()
        engine = create_store_engine(target)
        try:
            setup(engine)
        except (StorageError, SQLAlchemyError, OSError, ValueError) as exc:
            engine.dispose()
            reason = exc.orig if isinstance(exc, DBAPIError) else exc
            raise StorageError(f"cannot open {_database_name(target)}: {reason}") from None
        return cls(GovernedStore(engine, cfg, clock=clock, ids=ids))

    @property
    def config(self) -> UserContextConfig:
        return self.store.config

    def close(self) -> None:
        """Release database connections."""
        if "learning" in self.__dict__:
            self.learning.stop()  # the periodic facet rebuild, if it was started
        self.store.engine.dispose()

    def __enter__(self) -> Userlore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- write path ---------------------------------------------------------------------------

    def observe(
        self,
        scope: str,
        role: str,
        content: str,
        session_key: str | None = None,
        *,
        turn_id: str | None = None,
        agent_id: str | None = None,
        client: str | None = None,
        device: str | None = None,
    ) -> ObserveResult:
        """Record one conversation turn and govern the explicit statements it makes.

        The turn is stored redacted as evidence; each explicit statement of a user turn becomes a
        typed candidate through the governed write. ``turn_id`` makes replays idempotent.

        Raises:
            InvalidInputError: unknown role; content that is not ``str``, empty, oversized or
                holds NUL characters or unpaired surrogates; a malformed id or author field.
            ScopeError: malformed scope.
        """
        validate_scope(scope)
        optional_identifier(session_key, "session_key", max_chars=MAX_KEY_CHARS)
        if not isinstance(role, str) or role not in ROLES:
            raise InvalidInputError(f"role must be one of {sorted(ROLES)}, got {role!r}")
        text_field(content, "content", max_chars=MAX_TURN_CHARS)
        optional_identifier(turn_id, "turn_id", max_chars=500)
        for name, value in (("agent_id", agent_id), ("client", client), ("device", device)):
            optional_identifier(value, name)
        if self.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return ObserveResult(None, ())
        statements = extract_statements(content, role=role)
        store = self.store
        with store.transaction(scope) as session:
            item = store.add_source_item(
                session,
                scope=scope,
                source_instance_id=derived_id("conversation", scope, session_key or "default"),
                external_id=turn_id or store.new_id("turn"),
                text=content,
                meta={"role": role, "session_key": session_key},
            )
            outcomes = tuple(
                store.govern(
                    session,
                    scope,
                    _candidate(st, item.id, session_key, agent_id, client, device),
                )
                for st in statements
            )
            # seed 002 producer (a): each governed facet statement is Explicit evidence.
            facet_evidence = observe_statements(
                session, scope, statements, outcomes, item.id, store.clock()
            )
        if facet_evidence and "learning" in self.__dict__:
            self.learning.notify(scope)  # event-driven rebuild, once the cache is in use
        return ObserveResult(item.id, outcomes)

    def write(self, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Govern a typed candidate from any producer (reviewer, source, tool).

        Raises:
            RecordNotFoundError: ``supersedes_record_id`` or ``source_item_id`` names no row of
                ``scope`` (the same error whether it exists in another scope or nowhere).
        """
        validate_scope(scope)
        if not isinstance(candidate, CandidateInput):
            raise InvalidInputError(
                f"candidate must be a CandidateInput, not {type(candidate).__name__}"
            )
        return self.store.write(scope, candidate)

    # -- read path ----------------------------------------------------------------------------

    def plan_context(
        self, scope: str, query: str, session_key: str | None = None, *, budget: int | None = None
    ) -> ContextPlan:
        """Build the fenced ``<user-context>`` block for one turn and write its trace."""
        validate_scope(scope)
        text_field(query, "query", max_chars=None, allow_empty=True)  # read only, never stored
        optional_identifier(session_key, "session_key", max_chars=MAX_KEY_CHARS)
        if budget is not None:
            int_field(budget, "budget", lo=200, hi=200_000)
        return self.planner.plan(scope, query, session_key=session_key, budget=budget)

    def records(
        self,
        scope: str,
        state: RecordState | str | Sequence[RecordState | str] | None = None,
        *,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> list[RecordView]:
        """List records of a scope (every non-deleted state when ``state`` is ``None``).

        ``state`` takes a :class:`RecordState`, its value (``"active"``) or a list of them.
        """
        validate_scope(scope)
        states = None if state is None else list(enum_list(RecordState, state, "state"))
        optional_identifier(kind, "kind", max_chars=MAX_NAME_CHARS)
        if path_prefix is not None:
            validate_path(
                path_prefix.strip("/") if isinstance(path_prefix, str) else path_prefix,
                "path_prefix",
            )
        int_field(limit, "limit", lo=1, hi=100_000)
        return self.store.list_records(
            scope, state=states, kind=kind, path_prefix=path_prefix, limit=limit
        )

    def get(self, record_id: str, *, scope: str | None = None) -> RecordView:
        _ref(record_id, scope)
        return self.store.get(scope, record_id)

    def trash(self, scope: str) -> list[RecordView]:
        """Tombstoned records, restorable with :meth:`restore`."""
        validate_scope(scope)
        return self.store.list_records(scope, state=RecordState.DELETED)

    def history(self, record_id: str, *, scope: str | None = None) -> list[VersionView]:
        _ref(record_id, scope)
        return self.store.history(scope, record_id)

    def evidence(self, record_id: str, *, scope: str | None = None) -> list[dict[str, Any]]:
        _ref(record_id, scope)
        return self.store.evidence(scope, record_id)

    def traces(
        self, scope: str, *, event_type: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        validate_scope(scope)
        optional_identifier(event_type, "event_type", max_chars=MAX_NAME_CHARS)
        int_field(limit, "limit", lo=1, hi=100_000)
        return self.store.traces(scope, event_type=event_type, limit=limit)

    # -- lifecycle ----------------------------------------------------------------------------

    def approve(
        self, record_id: str, *, scope: str | None = None, content: str | None = None
    ) -> RecordView:
        """Activate a candidate; with ``content``, approve an edited version of it."""
        _ref(record_id, scope)
        optional_text(content, "content", max_chars=self.config.max_content_chars)
        return self.store.approve(scope, record_id, content=content)

    def reject(self, record_id: str, *, scope: str | None = None) -> RecordView:
        _ref(record_id, scope)
        return self.store.reject(scope, record_id)

    def update(self, record_id: str, content: str, *, scope: str | None = None) -> RecordView:
        """Correct a record: version n+1 goes live, version n stays as a snapshot."""
        _ref(record_id, scope)
        text_field(content, "content", max_chars=self.config.max_content_chars)
        return self.store.update(scope, record_id, content)

    def forget(self, record_id: str, *, scope: str | None = None) -> RecordView:
        """Tombstone a record (out of context at once, restorable from the trash)."""
        _ref(record_id, scope)
        return self.store.forget(scope, record_id)

    def restore(self, record_id: str, *, scope: str | None = None) -> RecordView:
        _ref(record_id, scope)
        return self.store.restore(scope, record_id)

    def pin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        _ref(record_id, scope)
        return self.store.set_user_state(scope, record_id, UserState.PINNED)

    def unpin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        _ref(record_id, scope)
        return self.store.set_user_state(scope, record_id, UserState.AUTO)

    def grant_consent(self, scope: str, category: ConsentCategory | str) -> None:
        """Let records of a special category (``health``...) into context.

        Raises:
            InvalidInputError: ``category`` is not a :class:`ConsentCategory` (or its value).
        """
        validate_scope(scope)
        self.store.grant_consent(scope, _consent_category(category))

    def revoke_consent(self, scope: str, category: ConsentCategory | str) -> None:
        validate_scope(scope)
        self.store.revoke_consent(scope, _consent_category(category))

    def consents(self, scope: str) -> frozenset[str]:
        validate_scope(scope)
        return self.store.consented(scope)

    # -- seed 002 facet cache -----------------------------------------------------------------

    @functools.cached_property
    def learning(self) -> FacetCache:
        """The self-learning facet cache over this store (created on first use).

        Configure it with ``lore.learning.set_workspace(dir)`` (``PROFILE.md``) and
        ``lore.learning.start()`` (periodic rebuilds); see ``docs/learning.md``.
        """
        from userlore.learning import FacetCache

        return FacetCache(self.store)

    def list_facets(self, scope: str, facet_class: FacetClass | str | None = None) -> list[Facet]:
        """Active and provisional facets of a scope, optionally of one class."""
        return self.learning.list_facets(scope, facet_class)

    def get_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.learning.get_facet(scope, facet_class, key)

    def update_facet(
        self, scope: str, facet_class: FacetClass | str, key: str, value: str
    ) -> Facet:
        """Overwrite a facet's value as the user; it is activated and pinned."""
        text_field(value, "value", max_chars=self.config.max_content_chars)
        return self.learning.update_facet(scope, facet_class, key, value)

    def pin_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.learning.pin_facet(scope, facet_class, key)

    def unpin_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        return self.learning.unpin_facet(scope, facet_class, key)

    def forget_facet(self, scope: str, facet_class: FacetClass | str, key: str) -> Facet:
        """Drop a facet from context and ``PROFILE.md`` and block its re-promotion."""
        return self.learning.forget_facet(scope, facet_class, key)

    def reset_cache(self, scope: str) -> int:
        """Clear the automatically learned facets (pinned stay); returns how many."""
        return self.learning.reset_cache(scope)

    def rebuild_cache(self, scope: str) -> CacheRebuilt:
        return self.learning.rebuild_cache(scope)

    def cache_stats(self, scope: str) -> dict[str, Any]:
        return self.learning.cache_stats(scope)

    def about_me(self, scope: str) -> list[dict[str, Any]]:
        """ "What do you know about me?": each active facet with its evidence receipts."""
        return self.learning.about(scope)

    # -- seed 003 memory operations (receipts) -------------------------------------------------

    @functools.cached_property
    def memory(self) -> MemoryService:
        """Receipt-returning seed 003 operations; shares the planner's term statistics."""
        return MemoryService(self.store, self.planner.term_stats)

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
        """Write a durable memory (content, path and type required) through the governed write."""
        author = Author(agent_id, client, device, instance)
        return self.memory.remember(
            scope,
            content,
            path=path,
            memory_type=memory_type,
            author=author,
            session_key=session_key,
        )

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
        """Cite the live versions (``id@vN``) matching ``query`` under ``path`` and type."""
        return self.memory.recall(
            scope, query, path=path, memory_type=memory_type, k=k, session_key=session_key
        )

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
        """Correct a memory: v(n+1) live, v(n) a superseded snapshot; the receipt has the diff."""
        _ref(record_id, scope)
        author = Author(agent_id, client, device, instance)
        return self.memory.update(scope, record_id, content, author=author)

    def purge(self, scope: str, path_prefix: str | None = None) -> PurgeReceipt:
        """Hard-delete a scope (or a path in it); the receipt counts residual rows (0)."""
        validate_scope(scope)
        if path_prefix is not None:
            validate_path(
                path_prefix.strip("/") if isinstance(path_prefix, str) else path_prefix,
                "path_prefix",
            )
        receipt = purge_scope(self.store, scope, path_prefix)
        self.planner.term_stats.clear()
        return receipt

    def export(self, scope: str) -> dict[str, Any]:
        """The whole scope as a ``userlore.export`` v1 JSON document."""
        validate_scope(scope)
        return export_scope(self.store, scope)

    def import_(self, data: dict[str, Any], scope: str) -> ImportReceipt:
        """Restore an export document into an empty scope (refused otherwise)."""
        validate_scope(scope)
        mapping_field(data, "data")
        receipt = import_scope(self.store, data, scope)
        self.planner.term_stats.clear()
        return receipt

    # -- feedback, corrections and quality (seed 000) -----------------------------------------

    @functools.cached_property
    def feedback(self) -> FeedbackService:
        """Response feedback attribution, explicit corrections, remediation and quality."""
        return FeedbackService(self.store)

    def get_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime
    ) -> ResponseFeedback:
        """The rating recorded for the response given at ``response_at`` in ``session_key``."""
        return self.feedback.get_response_feedback(scope, session_key, response_at)

    def set_response_feedback(
        self, scope: str, session_key: str | None, response_at: datetime, rating: str
    ) -> FeedbackResult:
        """Record or replace ``helpful`` / ``not_helpful`` for one response.

        The rating is attributed to the most recent inject trace at or before ``response_at``;
        the result carries the remediation outcome (``result.queued_for_review`` is true when
        related understanding was paused and queued for review).
        """
        return self.feedback.set_response_feedback(scope, session_key, response_at, rating)

    def handle_correction(
        self,
        scope: str,
        content: str,
        session_key: str | None = None,
        *,
        turn_id: str | None = None,
        at: datetime | None = None,
    ) -> CorrectionResult:
        """Handle a user turn that may explicitly correct the understanding; call it *before*
        planning that turn (the graph and the middleware do). Anything else writes nothing."""
        return self.feedback.handle_correction(scope, content, session_key, turn_id=turn_id, at=at)

    def quality(self, scope: str, window_days: int = 30) -> QualityReport:
        """Candidate funnel, record states, acceptance, recall helpfulness and the cadence."""
        return self.feedback.quality(scope, window_days)

    # -- connected sources --------------------------------------------------------------------

    @functools.cached_property
    def sources(self) -> KnowledgeSources:
        """Read-only views of connected sources: items, ledger changes, sync runs, watermarks."""
        from userlore.sources.service import KnowledgeSources

        return KnowledgeSources(self.store)

    def ingest(
        self,
        adapter: KnowledgeSourceAdapter,
        *,
        scope: str,
        synthesize: bool = True,
        model: BaseChatModel | None = None,
        progress: ProgressCallback | None = None,
    ) -> SyncReport:
        """Sync one connected source into ``scope`` (incremental, idempotent, recorded).

        With ``synthesize`` (the default) that source's pending items are turned into workspace
        facts and daily notes before returning, so the call is synchronous for the caller.
        Connected knowledge must be enabled: ``"connected"`` in ``memory.sources``.

        Raises:
            MemoryDisabledError: memory mode ``off``/``readOnly``, or connected sources disabled.
            ScopeError: malformed scope.
            SourceSyncError: the adapter failed (the run is recorded as failed).
        """
        coordinator = self.coordinator(model=model)
        if synthesize:
            report = coordinator.sync_now(scope, adapter, progress=progress)
        else:
            report = coordinator.ingestion.sync(scope, adapter, progress=progress)
        self.planner.term_stats.clear()
        return report

    def sync_pending(
        self,
        *,
        scope: str | None = None,
        source_instance_id: str | None = None,
        max_items: int | None = None,
        model: BaseChatModel | None = None,
    ) -> PipelineReport:
        """Process pending connected-source items now (leased; failures retried with backoff).

        ``scope=None`` drains every scope, as the coordinator of ``serve``/``worker`` does.
        """
        if scope is not None:
            validate_scope(scope)
        optional_identifier(source_instance_id, "source_instance_id", max_chars=MAX_KEY_CHARS)
        if max_items is not None:
            int_field(max_items, "max_items", lo=1, hi=10_000_000)
        report = self.coordinator(model=model).pipeline.drain(
            scope=scope, source_instance_id=source_instance_id, max_items=max_items
        )
        if report.claimed:
            self.planner.term_stats.clear()
        return report

    def coordinator(
        self,
        *,
        interval_seconds: float = 60.0,
        model: BaseChatModel | None = None,
        worker_id: str | None = None,
        lease_seconds: float = 300.0,
    ) -> SourceCoordinator:
        """A coordinator that drains pending synthesis now and every ``interval_seconds``.

        ``serve`` and ``worker`` run one (``coordinator.start()`` / ``run_forever()``); several
        may share a database, leases keep them from processing an item twice. A crashed
        worker's items wait at most ``lease_seconds`` (none when it ran on this host).
        """
        from userlore.sources.coordinator import SourceCoordinator
        from userlore.sources.pipeline import ConnectedKnowledgePipeline

        pipeline = ConnectedKnowledgePipeline(
            self.store, model=model, worker_id=worker_id, lease_seconds=lease_seconds
        )
        return SourceCoordinator(
            pipeline,
            interval_seconds=interval_seconds,
            on_drain=lambda _report: self.planner.term_stats.clear(),
        )

    # -- async twins --------------------------------------------------------------------------

    aobserve = _to_thread(observe)
    awrite = _to_thread(write)
    aplan_context = _to_thread(plan_context)
    arecords = _to_thread(records)
    aget = _to_thread(get)
    atrash = _to_thread(trash)
    ahistory = _to_thread(history)
    aevidence = _to_thread(evidence)
    atraces = _to_thread(traces)
    aapprove = _to_thread(approve)
    areject = _to_thread(reject)
    aupdate = _to_thread(update)
    aforget = _to_thread(forget)
    arestore = _to_thread(restore)
    apin = _to_thread(pin)
    aunpin = _to_thread(unpin)
    agrant_consent = _to_thread(grant_consent)
    arevoke_consent = _to_thread(revoke_consent)
    aremember = _to_thread(remember)
    arecall = _to_thread(recall)
    aupdate_memory = _to_thread(update_memory)
    apurge = _to_thread(purge)
    aexport = _to_thread(export)
    aimport_ = _to_thread(import_)
    alist_facets = _to_thread(list_facets)
    aget_facet = _to_thread(get_facet)
    aupdate_facet = _to_thread(update_facet)
    apin_facet = _to_thread(pin_facet)
    aunpin_facet = _to_thread(unpin_facet)
    aforget_facet = _to_thread(forget_facet)
    areset_cache = _to_thread(reset_cache)
    arebuild_cache = _to_thread(rebuild_cache)
    acache_stats = _to_thread(cache_stats)
    aabout_me = _to_thread(about_me)
    aingest = _to_thread(ingest)
    async_pending = _to_thread(sync_pending)
    aget_response_feedback = _to_thread(get_response_feedback)
    aset_response_feedback = _to_thread(set_response_feedback)
    ahandle_correction = _to_thread(handle_correction)
    aquality = _to_thread(quality)


def _consent_category(category: object) -> str:
    """A consent category by member or value (case and surrounding spaces ignored)."""
    if isinstance(category, str) and not isinstance(category, ConsentCategory):
        category = category.strip().lower()
    return enum_field(ConsentCategory, category, "category").value


def _candidate(
    st: Statement,
    item_id: str,
    session_key: str | None,
    agent_id: str | None,
    client: str | None,
    device: str | None,
) -> CandidateInput:
    return CandidateInput(
        kind=st.kind,
        content=st.content,
        canonical_key=st.canonical_key,
        value=st.value,
        memory_type=st.memory_type,
        confidence=st.confidence,
        importance=st.importance,
        durability=st.durability,
        producer=Producer.EXPLICIT,
        source_item_id=item_id,
        session_key=session_key,
        author_agent_id=agent_id,
        author_client=client,
        author_device=device,
    )
