"""``UserloreRetriever``: a LangChain ``BaseRetriever`` over one user's governed memory.

Documents are active records that pass the same policy filter as the context planner (no
candidates, no expired or forgotten records, nothing secret, no special category without
consent), ranked by full-text score. Each retrieval writes a trace naming the returned record ids
and versions and a reason code for every record kept out.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field

from userlore.errors import InvalidInputError
from userlore.facade import Userlore
from userlore.planner.visible import MAX_VISIBLE, VisibleRecord, search_visible
from userlore.store.governed import validate_scope

__all__ = ["UserloreRetriever"]


class UserloreRetriever(BaseRetriever):
    """Retrieve a user's records as ``Document``s.

    ``page_content`` is the record content; ``metadata`` holds ``record_id``, ``version``,
    ``kind``, ``path``, ``state``, ``canonical_key``, ``memory_type``, ``explicitness``,
    ``score`` and ``evidence_ids`` (source item ids, the receipts). ``k`` may be overridden per
    call: ``retriever.invoke("query", k=2)``.

    Example:
        >>> lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
        >>> _ = lore.observe(scope="u1", role="user", content="I use pnpm.")
        >>> docs = UserloreRetriever(lore=lore, scope="u1").invoke("pnpm")
        >>> docs[0].metadata["kind"]
        'tooling'
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    lore: Userlore
    """The ``Userlore`` to read from."""
    scope: str
    """Whose memory; every query is filtered by it."""
    k: int = Field(default=4, ge=1, le=MAX_VISIBLE)
    """Documents to return."""
    path_prefix: str | None = None
    """Only records at or below this logical path (``projects/x``)."""
    session_key: str | None = None
    """Recorded on the retrieval trace."""

    def __init__(self, **data: Any) -> None:
        # A typed ScopeError rather than pydantic's ValidationError wrapper.
        validate_scope(data.get("scope", ""))
        super().__init__(**data)

    def _search(self, query: str, k: int) -> list[Document]:
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_VISIBLE:
            raise InvalidInputError(f"k must be an integer within [1, {MAX_VISIBLE}], got {k!r}")
        hits = search_visible(
            self.lore.memory.store,
            self.scope,
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
