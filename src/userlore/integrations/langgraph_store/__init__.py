"""``UserloreStore``: a LangGraph ``BaseStore`` over the governed store that cannot pool users.

Pass it as ``store=`` to any LangGraph graph or ``create_agent``; every operation goes through
the same governance as the rest of userlore, and every operation works for exactly one user.

Whose item is it? Each operation asks, in order:

1. **The run.** Inside a graph run the user comes from :mod:`userlore.integrations.scope`'s one
   rule (``runtime.context``, ``configurable["user_id"]`` or the resolver's key, the LangGraph
   Server identity, the resolver's explicit default). The namespace is then only a path:
   ``("memories", user_id)``, ``(user_id, "memories")`` and Deep Agents' ``("filesystem",)``
   all work per user. A label equal to the user id is dropped from the stored path and its
   position remembered (see :mod:`.namespaces`), so every layout round-trips and lists as
   written; a label naming some *other* user is just a path label of the run's user.
2. **The layout.** Outside a run (a script, a worker, the server's store API) the constructor's
   ``namespace_template`` says which label is the user, e.g. ``("memories", "{user_id}")``.
3. Otherwise the store refuses with :class:`~userlore.errors.ScopeError`; it never guesses.

Searches with a short prefix (even ``()``) and ``list_namespaces()`` without a prefix answer for
the resolved user only, never across users.

- A ``put`` is a governed write (producer ``tool``, source ``curated``): content is the value's
  ``content``/``text``/``memory`` string (or its JSON), the value itself is kept as canonical
  JSON, and a second ``put`` of the same key is a new version (v2 live, v1 kept as a snapshot),
  not an overwrite. Secret or regulated values are refused before anything in the batch is
  written. In ``confirmWrite`` mode a put creates a candidate that reads return once approved.
- A ``delete`` (``put`` of ``None``) is a tombstone: the record leaves every read at once and can
  be restored from the trash.
- ``get`` and ``search`` go through the policy filter (active, valid, not forgotten, nothing
  secret, special categories only with consent). ``search`` uses the full-text index when a
  ``query`` is given (newest first otherwise) and supports LangGraph's ``filter`` operators
  (``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``) on value fields.
- Records written by other producers (extraction, the reviewer, tools) are visible too, under
  ``(user, *path)`` and keyed by record id, with a value of ``{"content", "kind",
  "canonical_key", "value", "memory_type", "record_id", "version"}``.
- TTL (``supports_ttl = True``): LangGraph's ``TTLConfig`` maps onto the record's validity
  window, see :mod:`.ttl`. ``index`` is LangGraph's ``IndexConfig`` (see :mod:`.index`).
"""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    GetOp,
    IndexConfig,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)

from userlore.errors import InvalidInputError
from userlore.integrations.scope import ScopeResolver
from userlore.models import MemoryType
from userlore.planner.visible import MAX_VISIBLE
from userlore.policy.govern import BatchFloor

from .index import StoreIndex, attach_index
from .namespaces import STORE_KEY_PREFIX, Location, NamespaceTemplate
from .puts import PUT_CHUNK, PutOps, _Put
from .reads import _Read
from .surface import ItemStatus, SurfaceOps
from .ttl import TTLSweeper, check_ttl_config, sweep_ttl

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = [
    "PUT_CHUNK",
    "STORE_KEY_PREFIX",
    "ItemStatus",
    "TTLSweeper",
    "UserloreStore",
    "sweep_ttl",
]


class UserloreStore(PutOps, SurfaceOps):
    """LangGraph ``BaseStore`` backed by userlore's governed store, one user per operation.

    Args:
        lore: The ``Userlore`` to read from and write to.
        namespace_template: Which label is the user when the run does not say, e.g.
            ``("memories", "{user_id}")``; exactly one ``{placeholder}``.
        scope: How a run names its user (default: ``ScopeResolver()``, key ``user_id``).
        ttl: LangGraph ``TTLConfig``, every key it declares (``default_ttl`` and
            ``sweep_interval_minutes`` in minutes, fractional allowed; ``refresh_on_read``;
            ``omit_expired``, which always holds here).
        kind: Record kind of values put through the store.
        memory_type: Memory type of values put through the store.
        namespace_prefix: Deprecated 0.x layout ``(*prefix, user, *path)`` kept for existing
            data; the label after the prefix is always the user. Use ``namespace_template``.
        index: LangGraph ``IndexConfig`` (``dims``, ``embed``, ``fields``): stored vectors for
            semantic ``search(query=...)`` (hybrid with full text), from the named fields of each
            value; a put's ``index=False`` / field list overrides (see ``index.py``). Without it
            the store uses whatever embeddings the ``Userlore`` was opened with, if any.
    """

    supports_ttl = True

    def __init__(
        self,
        lore: Userlore,
        *,
        namespace_template: Sequence[str] | None = None,
        scope: ScopeResolver | None = None,
        ttl: TTLConfig | None = None,
        kind: str = "note",
        memory_type: MemoryType = MemoryType.SEMANTIC,
        namespace_prefix: tuple[str, ...] | None = None,
        index: IndexConfig | None = None,
    ) -> None:
        self._legacy: tuple[str, ...] | None = None
        if namespace_prefix is not None:
            if namespace_template is not None:
                raise InvalidInputError("pass namespace_template or namespace_prefix, not both")
            for label in namespace_prefix:
                if not isinstance(label, str) or not label or "." in label:
                    raise InvalidInputError(f"invalid namespace prefix label {label!r}")
            warnings.warn(
                "UserloreStore(namespace_prefix=...) is deprecated: the run's user or "
                "namespace_template=(*prefix, '{user_id}') says whose an item is "
                "(see docs/migrating.md)",
                DeprecationWarning,
                stacklevel=2,
            )
            self._legacy = tuple(namespace_prefix)
        self.template = (
            None if namespace_template is None else NamespaceTemplate.parse(namespace_template)
        )
        self.scope = scope if scope is not None else ScopeResolver()
        self.ttl_config = check_ttl_config(ttl)
        self.lore = lore
        self.kind = kind
        self.memory_type = memory_type
        self._sweeper: TTLSweeper | None = None
        self._async_sweeper: asyncio.Task[None] | None = None
        self._index: StoreIndex | None = None if index is None else attach_index(lore, index)
        self.index_config: IndexConfig | None = None
        """LangGraph's mapping (``dims``, ``embed``, ``fields``), as its stores expose it."""
        if index is not None and self._index is not None:
            self.index_config = IndexConfig(
                dims=self._index.dims, embed=index["embed"], fields=list(self._index.fields)
            )
        vectors = lore.memory.store.vectors
        self.embeddings: Embeddings | None = None if vectors is None else vectors.embeddings
        """The model behind stored vectors (the ``Userlore``'s or ``index``'s), else ``None``."""

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops in order. Every op is validated (and every put policy-checked) first.

        Consecutive puts of one user are written together, up to :data:`PUT_CHUNK` per
        transaction (one commit, one embedding call), each still through the governed write.
        """
        places: dict[tuple[str, ...], Location] = {}  # a batch's puts share their namespace
        prepared: list[_Put | _Read] = []
        failed: Exception | None = None
        for op in list(ops):
            try:
                prepared.append(self._prepare(op, places))
            except Exception as exc:  # raised after the floor judged the ops before it
                failed = exc
                break
        # The batch's texts classified once each (a shared path), every put in op order: a
        # refused put raises before a malformed op after it, as when each op was judged in turn.
        prepared = self._judge_puts(prepared, BatchFloor())
        if failed is not None:
            raise failed
        results: list[Result] = [None] * len(prepared)
        at = 0
        while at < len(prepared):
            ready = prepared[at]
            if isinstance(ready, _Put) and ready.candidate is not None:
                end = at + 1
                while end < len(prepared) and end - at < PUT_CHUNK:
                    nxt = prepared[end]
                    if not (
                        isinstance(nxt, _Put)
                        and nxt.candidate is not None
                        and nxt.where.scope == ready.where.scope
                    ):
                        break
                    end += 1
                self._put_many(ready.where.scope, prepared[at:end])  # type: ignore[arg-type]
                at = end
            else:
                results[at] = self._run(ready)
                at += 1
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async twin of :meth:`batch` (same body, in a worker thread that keeps the run)."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _prepare(
        self, op: Op, places: dict[tuple[str, ...], Location] | None = None
    ) -> _Put | _Read:
        """Validate ``op``; a put's candidate is built, not yet judged (:meth:`_judge_puts`)."""
        validate_op_namespace(op)
        if isinstance(op, GetOp):
            where = self._locate(op.namespace)
            return _Read(where.scope, op, where=where)
        if isinstance(op, SearchOp):
            if not isinstance(op.limit, int) or not isinstance(op.offset, int):
                raise InvalidInputError("limit and offset must be integers")
            if op.limit < 0 or op.offset < 0 or op.limit + op.offset > MAX_VISIBLE:
                raise InvalidInputError(f"limit + offset must be within [0, {MAX_VISIBLE}]")
            scope, _ = self._scope_of(op.namespace_prefix, whole=False)
            return _Read(scope, op, path_hint=self._path_hint(op.namespace_prefix, scope))
        if isinstance(op, ListNamespacesOp):
            return _Read(self._listing_scope(op), op)
        if isinstance(op, PutOp):
            return self._draft_put(op, places)
        raise InvalidInputError(f"unknown store operation {type(op).__name__}")

    def _run(self, ready: _Put | _Read) -> Result:
        if isinstance(ready, _Read):
            if isinstance(ready.op, GetOp):
                assert ready.where is not None
                return self._get(ready.where, ready.op)
            if isinstance(ready.op, SearchOp):
                return self._search(ready.scope, ready.path_hint, ready.op)
            return self._list_namespaces(ready.scope, ready.op)
        if ready.candidate is None:
            self._delete(ready.where, ready.op.key)
        else:
            self._put_many(ready.where.scope, [ready])
        return None
