"""Reads: ``get``, ``search`` (LangGraph's ranking: every item, cosine scores) and listing.

``search`` with a query ranks every visible item under the prefix that passes the filter, by
its best indexed text's cosine with vectors on (BM25 without), the rest newest first; the
planner keeps its own floor and fusion (:func:`~userlore.planner.visible.search_visible`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langgraph.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    SearchItem,
    SearchOp,
)
from sqlalchemy import or_, select

from userlore.config import MemoryMode
from userlore.models import (
    RecordState,
    RecordView,
)
from userlore.planner.visible import search_visible
from userlore.store.schema import MemoryRecord

from .filters import matches_condition, matches_filter, value_at
from .namespaces import (
    Location,
    parse_store_key,
)
from .scoping import ScopedStore
from .ttl import refresh_ttl


@dataclass(frozen=True, slots=True)
class _Read:
    scope: str
    op: Any
    where: Location | None = None  # a get's namespace
    path_hint: str = ""


class ReadOps(ScopedStore):
    """Get, search, list namespaces, and the items they return."""

    def _get(self, where: Location, op: GetOp) -> Item | None:
        record = self._visible_one(where, canonical_key=where.store_key(op.key))
        if record is None and where.position == 0:
            # Records of other producers appear under (user, *path), addressed by record id.
            record = self._visible_one(
                where,
                record_id=op.key,
                extra=lambda r: r.path == where.path and not _is_store_record(r),
            )
        if record is None:
            return None
        if op.refresh_ttl and record.valid_until is not None:  # no window, nothing to slide
            refresh_ttl(self.lore, where.scope, [record.id])
        return self._item(record)

    def _visible_one(
        self,
        where: Location,
        *,
        canonical_key: str | None = None,
        record_id: str | None = None,
        extra: Callable[[RecordView], bool] | None = None,
    ) -> RecordView | None:
        """The visible record under ``where``'s path with this store key or record id."""
        hits = search_visible(
            self.lore.memory.store,
            where.scope,
            None,
            limit=1,
            path_prefix=where.path,
            canonical_key=canonical_key,
            record_id=record_id,
            extra=extra,
        )
        return hits[0].record if hits else None

    def _search(self, scope: str, path_hint: str, op: SearchOp) -> list[SearchItem]:
        filters = dict(op.filter or {})
        prefix = tuple(op.namespace_prefix)
        # Each record's namespace and value, worked out once: the filter and the item share them.
        shown: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {}

        def namespace_value(record: RecordView) -> tuple[tuple[str, ...], dict[str, Any]]:
            made = shown.get(record.id)
            if made is None:
                made = shown[record.id] = (self.namespace_of(record), self._value(record))
            return made

        def matches(record: RecordView) -> bool:
            namespace, value = namespace_value(record)
            if namespace[: len(prefix)] != prefix:
                return False
            return all(matches_filter(value_at(value, k), v) for k, v in filters.items())

        hits = search_visible(
            self.lore.memory.store,
            scope,
            op.query,
            limit=op.limit,
            offset=op.offset,
            stats=self.lore.memory.term_stats,
            path_prefix=path_hint,
            extra=matches,
            rank_all=True,
        )
        if op.refresh_ttl:  # only items with a window: no write transaction for the rest
            refresh_ttl(
                self.lore, scope, [h.record.id for h in hits if h.record.valid_until is not None]
            )
        items = []
        for h in hits:
            namespace, value = namespace_value(h.record)
            items.append(
                SearchItem(
                    namespace=namespace,
                    key=self._key(h.record),
                    value=value,
                    created_at=h.record.created_at,
                    updated_at=h.record.updated_at,
                    score=h.score,
                )
            )
        return items

    def _list_namespaces(self, scope: str, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        if self.lore.config.memory.mode is MemoryMode.OFF:
            return []
        store = self.lore.memory.store
        now = store.clock()
        with store.transaction(scope) as session:
            rows = list(
                session.execute(
                    select(MemoryRecord.path, MemoryRecord.canonical_key)
                    .distinct()
                    .where(
                        MemoryRecord.scope == scope,
                        MemoryRecord.state == RecordState.ACTIVE.value,
                        or_(MemoryRecord.valid_until.is_(None), MemoryRecord.valid_until > now),
                    )
                )
            )
        found: set[tuple[str, ...]] = set()
        for path, canonical_key in rows:
            ns = self._namespace(scope, path, canonical_key)
            if all(matches_condition(cond, ns) for cond in op.match_conditions or ()):
                found.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        ordered = sorted(found)
        return ordered[op.offset : op.offset + op.limit]

    # -- items --------------------------------------------------------------------------------

    def _key(self, record: RecordView) -> str:
        parsed = parse_store_key(record.canonical_key)
        return record.id if parsed is None else parsed[1]

    def _value(self, record: RecordView) -> dict[str, Any]:
        if _is_store_record(record) and record.value:
            try:
                loaded = json.loads(record.value)
            except ValueError:  # pragma: no cover - written by this class as JSON
                loaded = None
            if isinstance(loaded, dict):
                return loaded
        return {
            "content": record.content,
            "kind": record.kind,
            "canonical_key": record.canonical_key,
            "value": record.value,
            "memory_type": record.memory_type.value,
            "record_id": record.id,
            "version": record.version,
        }

    def _item(self, record: RecordView) -> Item:
        return Item(
            value=self._value(record),
            key=self._key(record),
            namespace=self.namespace_of(record),
            created_at=record.created_at,
            updated_at=record.updated_at,
        )


def _is_store_record(record: RecordView) -> bool:
    return parse_store_key(record.canonical_key) is not None
