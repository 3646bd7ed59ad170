"""``UserloreRetriever``: a LangChain ``BaseRetriever`` over a user's governed memory.

Built once, it serves any number of users: each invocation resolves its user from the run
(``config["configurable"]["user_id"]``, the LangGraph Server identity, then ``default_scope``; the
rule of :mod:`userlore.integrations.scope`). A run that names no user raises ``ScopeError``.

Documents are active records that pass the same policy filter as the context planner (no
candidates, no expired or forgotten records, nothing secret, no special category without
consent), ranked by full-text score. Each retrieval writes a trace naming the returned record ids
and versions and a reason code for every record kept out.
"""

from __future__ import annotations

import asyncio
import functools
import warnings
from contextvars import ContextVar
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig, ensure_config
from pydantic import ConfigDict, Field

from userlore.errors import InvalidInputError
from userlore.facade import Userlore
from userlore.integrations.scope import DEFAULT_SCOPE_KEY, ScopeResolver
from userlore.planner.visible import MAX_VISIBLE, VisibleRecord, search_visible

__all__ = ["UserloreRetriever"]

# The scope ``invoke`` resolved from its config, read by the search it starts (``BaseRetriever``
# does not hand the config to ``_get_relevant_documents``).
_RUN_SCOPE: ContextVar[str | None] = ContextVar("userlore_retriever_scope", default=None)


class UserloreRetriever(BaseRetriever):
    """Retrieve the calling user's records as ``Document``s.

    ``page_content`` is the record content; ``metadata`` holds ``record_id``, ``version``,
    ``kind``, ``path``, ``state``, ``canonical_key``, ``memory_type``, ``explicitness``,
    ``score`` and ``evidence_ids`` (source item ids, the receipts). ``k`` may be overridden per
    call: ``retriever.invoke("query", k=2)``. The user comes from the run's config.

    Example:
        >>> lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
        >>> _ = lore.observe(scope="u1", role="user", content="I use pnpm.")
        >>> retriever = UserloreRetriever(lore=lore)
        >>> docs = retriever.invoke("pnpm", config={"configurable": {"user_id": "u1"}})
        >>> docs[0].metadata["kind"]
        'tooling'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    lore: Userlore
    """The ``Userlore`` to read from."""
    default_scope: str | None = None
    """Explicit fallback for runs that name no user; ``None`` makes such a run raise."""
    scope_key: str = DEFAULT_SCOPE_KEY
    """Name of the user field in ``config["configurable"]``."""
    k: int = Field(default=4, ge=1, le=MAX_VISIBLE)
    """Documents to return."""
    path_prefix: str | None = None
    """Only records at or below this logical path (``projects/x``)."""
    session_key: str | None = None
    """Recorded on the retrieval trace."""

    def __init__(self, **data: Any) -> None:
        if "scope" in data:
            warnings.warn(
                "UserloreRetriever(scope=...) is deprecated and will be removed in 0.3: the "
                "user is resolved per call from the run; pass default_scope= for a fallback",
                DeprecationWarning,
                stacklevel=2,
            )
            if data.get("default_scope") is not None:
                raise InvalidInputError("pass default_scope only; scope= is its deprecated name")
            data["default_scope"] = data.pop("scope")
        # A typed ScopeError rather than pydantic's ValidationError wrapper.
        key = data.get("scope_key", DEFAULT_SCOPE_KEY)
        ScopeResolver(key=key, default=data.get("default_scope"))
        super().__init__(**data)

    def _resolver(self) -> ScopeResolver:
        return ScopeResolver(key=self.scope_key, default=self.default_scope)

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve for the user the run names (see the class docstring)."""
        config = ensure_config(config)
        token = _RUN_SCOPE.set(self._resolver().resolve(config=config))
        try:
            return super().invoke(input, config, **kwargs)
        finally:
            _RUN_SCOPE.reset(token)

    async def ainvoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of :meth:`invoke`; the search runs in a worker thread."""
        config = ensure_config(config)
        token = _RUN_SCOPE.set(self._resolver().resolve(config=config))
        try:
            return await super().ainvoke(input, config, **kwargs)
        finally:
            _RUN_SCOPE.reset(token)

    def _search(self, query: str, k: int) -> list[Document]:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_VISIBLE:
            raise InvalidInputError(f"k must be an integer within [1, {MAX_VISIBLE}], got {k!r}")
        scope = _RUN_SCOPE.get() or self._resolver().resolve(config=ensure_config())
        hits = search_visible(
            self.lore.memory.store,
            scope,
            query,
            limit=k,
            stats=self.lore.memory.term_stats,
            path_prefix=self.path_prefix,
            with_evidence=True,
            trace_event="retrieve",
            session_key=self.session_key,
        )
        return [_document(hit) for hit in hits]

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        return self._search(query, kwargs.get("k", self.k))

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        search = functools.partial(self._search, query, kwargs.get("k", self.k))
        return await asyncio.to_thread(search)


def _document(hit: VisibleRecord) -> Document:
    r = hit.record
    return Document(
        id=r.id,
        page_content=r.content,
        metadata={
            "record_id": r.id,
            "version": r.version,
            "kind": r.kind,
            "path": r.path,
            "state": r.state.value,
            "canonical_key": r.canonical_key,
            "memory_type": r.memory_type.value,
            "explicitness": r.explicitness.value,
            "score": hit.score,
            "evidence_ids": list(hit.evidence_ids),
        },
    )
