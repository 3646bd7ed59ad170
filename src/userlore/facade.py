"""``Userlore``: the one obvious entry point over the governed store and the planner.

Every async method is the sync method run in a worker thread (``asyncio.to_thread``): one body of
logic, no hand-copied twin that could drift.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from userlore.config import MemoryMode, UserContextConfig
from userlore.errors import InvalidInputError
from userlore.extract.explicit import Statement, extract_statements
from userlore.models import (
    CandidateInput,
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
from userlore.store.governed import Clock, GovernedStore, IdFactory, VersionView, validate_scope

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


def _config(config: UserContextConfig | dict[str, Any] | str | Path | None) -> UserContextConfig:
    if config is None:
        return UserContextConfig()
    if isinstance(config, UserContextConfig):
        return config
    if isinstance(config, dict):
        return UserContextConfig.from_dict(config)
    return UserContextConfig.from_json(config)


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
        config: UserContextConfig | dict[str, Any] | str | Path | None = None,
        clock: Clock | None = None,
        ids: IdFactory | None = None,
    ) -> Userlore:
        """Open (and migrate) a database; no URL means the embedded SQLite file.

        Args:
            url: SQLAlchemy URL; ``sqlite://`` is an in-memory database.
            config: A ``UserContextConfig``, a ``userContext`` dict, or a JSON file path.
            clock: Returns the current UTC time (tests pass a fixed clock).
            ids: Makes new ids from a prefix (tests pass a deterministic factory).
        """
        cfg = _config(config)
        engine = create_store_engine(url or default_database_url())
        setup(engine)
        return cls(GovernedStore(engine, cfg, clock=clock, ids=ids))

    @property
    def config(self) -> UserContextConfig:
        return self.store.config

    def close(self) -> None:
        """Release database connections."""
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
            InvalidInputError: unknown role, empty or oversized content.
            ScopeError: malformed scope.
        """
        validate_scope(scope)
        if role not in ROLES:
            raise InvalidInputError(f"role must be one of {sorted(ROLES)}, got {role!r}")
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("content must not be empty")
        if len(content) > MAX_TURN_CHARS:
            raise InvalidInputError(
                f"turn is {len(content)} characters; the limit is {MAX_TURN_CHARS}"
            )
        if self.config.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            return ObserveResult(None, ())
        statements = extract_statements(content, role=role)
        store = self.store
        with store.transaction() as session:
            item = store.add_source_item(
                session,
                scope=scope,
                source_instance_id=f"conversation:{scope}:{session_key or 'default'}",
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
            return ObserveResult(item.id, outcomes)

    def write(self, scope: str, candidate: CandidateInput) -> WriteOutcome:
        """Govern a typed candidate from any producer (reviewer, source, tool)."""
        return self.store.write(scope, candidate)

    # -- read path ----------------------------------------------------------------------------

    def plan_context(
        self, scope: str, query: str, session_key: str | None = None, *, budget: int | None = None
    ) -> ContextPlan:
        """Build the fenced ``<user-context>`` block for one turn and write its trace."""
        if not isinstance(query, str):
            raise InvalidInputError("query must be a string")
        return self.planner.plan(scope, query, session_key=session_key, budget=budget)

    def records(
        self,
        scope: str,
        state: RecordState | Sequence[RecordState] | None = None,
        *,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> list[RecordView]:
        """List records of a scope (every non-deleted state when ``state`` is ``None``)."""
        return self.store.list_records(
            scope, state=state, kind=kind, path_prefix=path_prefix, limit=limit
        )

    def get(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.store.get(scope, record_id)

    def trash(self, scope: str) -> list[RecordView]:
        """Tombstoned records, restorable with :meth:`restore`."""
        return self.store.list_records(scope, state=RecordState.DELETED)

    def history(self, record_id: str, *, scope: str | None = None) -> list[VersionView]:
        return self.store.history(scope, record_id)

    def evidence(self, record_id: str, *, scope: str | None = None) -> list[dict[str, Any]]:
        return self.store.evidence(scope, record_id)

    def traces(
        self, scope: str, *, event_type: str | None = None, limit: int = 100
    ) -> list[dict[str, Any]]:
        return self.store.traces(scope, event_type=event_type, limit=limit)

    # -- lifecycle ----------------------------------------------------------------------------

    def approve(
        self, record_id: str, *, scope: str | None = None, content: str | None = None
    ) -> RecordView:
        """Activate a candidate; with ``content``, approve an edited version of it."""
        return self.store.approve(scope, record_id, content=content)

    def reject(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.store.reject(scope, record_id)

    def update(self, record_id: str, content: str, *, scope: str | None = None) -> RecordView:
        """Correct a record: version n+1 goes live, version n stays as a snapshot."""
        return self.store.update(scope, record_id, content)

    def forget(self, record_id: str, *, scope: str | None = None) -> RecordView:
        """Tombstone a record (out of context at once, restorable from the trash)."""
        return self.store.forget(scope, record_id)

    def restore(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.store.restore(scope, record_id)

    def pin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.store.set_user_state(scope, record_id, UserState.PINNED)

    def unpin(self, record_id: str, *, scope: str | None = None) -> RecordView:
        return self.store.set_user_state(scope, record_id, UserState.AUTO)

    def grant_consent(self, scope: str, category: str) -> None:
        """Let records of a special category (``health``...) into context."""
        self.store.grant_consent(scope, category)

    def revoke_consent(self, scope: str, category: str) -> None:
        self.store.revoke_consent(scope, category)

    def consents(self, scope: str) -> frozenset[str]:
        return self.store.consented(scope)

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
