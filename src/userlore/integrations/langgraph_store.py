# Over 400 lines: LangGraph's BaseStore contract (batch ops, namespaces, filters) in one class.
"""``UserloreStore``: a LangGraph ``BaseStore`` over the governed store.

Pass it as ``store=`` to any LangGraph graph or ``create_agent``; every operation goes through
the same governance as the rest of userlore.

Namespace mapping::

    (*namespace_prefix, scope, *path_labels)   key
     └ fixed labels ┘   └ user ┘ └ logical path ┘

- With the default ``namespace_prefix=()``, ``("u1", "projects", "x")`` is scope ``u1``, path
  ``projects/x``; with ``namespace_prefix=("memories",)``, ``("memories", "u1")`` is scope ``u1``
  at the root path. Every operation must name the scope; a search or namespace listing without it
  is refused (no cross-user reads).
- A ``put`` is a governed write (producer ``tool``, source ``curated``): content is the value's
  ``content``/``text``/``memory`` string (or its JSON), the value itself is kept as canonical
  JSON, and the dedupe key ``store:<path>#<key>`` makes a second ``put`` of the same key a new
  version (v2 live, v1 kept as a snapshot), not an overwrite. Secret or regulated values are
  refused before anything in the batch is written. In ``confirmWrite`` mode a put creates a
  candidate that ``get``/``search`` return only once approved.
- A ``delete`` (``put`` of ``None``) is a tombstone: the record leaves every read at once and can
  be restored from the trash.
- ``get`` and ``search`` go through the policy filter (active, valid, not forgotten, nothing
  secret, special categories only with consent). ``search`` uses the full-text index when a
  ``query`` is given (newest first otherwise) and supports LangGraph's ``filter`` operators
  (``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``) on value fields.
- Records written by other producers (explicit extraction, the reviewer, tools) are visible too,
  keyed by record id, with a value of ``{"content", "kind", "canonical_key", "value",
  "memory_type", "record_id", "version"}``.

Every op's namespace is checked with ``validate_op_namespace`` before anything runs. TTLs are not
supported (``supports_ttl = False``); indexing options are ignored (full text is always on).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    validate_op_namespace,
)
from sqlalchemy import select

from userlore.config import MemoryMode
from userlore.errors import InvalidInputError, MemoryDisabledError, PolicyViolationError
from userlore.models import (
    CandidateInput,
    Explicitness,
    MemoryType,
    Producer,
    RecordState,
    RecordView,
    WriteAction,
)
from userlore.planner.visible import MAX_VISIBLE, search_visible
from userlore.policy.govern import assess
from userlore.store.governed import LIVE_STATES, validate_scope
from userlore.store.schema import MemoryRecord

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["STORE_KEY_PREFIX", "UserloreStore"]

STORE_KEY_PREFIX = "store:"
_TEXT_FIELDS = ("content", "text", "memory")


@dataclass(frozen=True, slots=True)
class _Located:
    scope: str
    path: str


@dataclass(frozen=True, slots=True)
class _Put:
    op: PutOp
    where: _Located
    candidate: CandidateInput | None  # None: delete


class UserloreStore(BaseStore):
    """LangGraph ``BaseStore`` backed by userlore's governed store.

    Args:
        lore: The ``Userlore`` to read from and write to.
        namespace_prefix: Fixed leading labels before the scope label (e.g. ``("memories",)``).
        kind: Record kind of values put through the store.
        memory_type: Memory type of values put through the store.
    """

    supports_ttl = False

    def __init__(
        self,
        lore: Userlore,
        *,
        namespace_prefix: tuple[str, ...] = (),
        kind: str = "note",
        memory_type: MemoryType = MemoryType.SEMANTIC,
    ) -> None:
        for label in namespace_prefix:
            if not isinstance(label, str) or not label or "." in label:
                raise InvalidInputError(f"invalid namespace prefix label {label!r}")
        self.lore = lore
        self.namespace_prefix = tuple(namespace_prefix)
        self.kind = kind
        self.memory_type = memory_type

    # -- namespace mapping --------------------------------------------------------------------

    def _locate(self, namespace: tuple[str, ...]) -> _Located:
        """Scope and path of a full namespace."""
        n = len(self.namespace_prefix)
        if tuple(namespace[:n]) != self.namespace_prefix or len(namespace) <= n:
            raise InvalidNamespaceError(
                f"namespace {namespace!r} must be (*{self.namespace_prefix!r}, scope, *path)"
            )
        return _Located(validate_scope(namespace[n]), "/".join(namespace[n + 1 :]))

    def namespace_of(self, record: RecordView) -> tuple[str, ...]:
        """The namespace a record appears under."""
        path = tuple(p for p in record.path.split("/") if p)
        return (*self.namespace_prefix, record.scope, *path)

    @staticmethod
    def _store_key(path: str, key: str) -> str:
        # Labels cannot contain "#" (paths are [\w.-] segments), so the split is unambiguous.
        return f"{STORE_KEY_PREFIX}{path}#{key}"

    # -- batch --------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops in order. Every op is validated (and every put policy-checked) first."""
        ops = list(ops)
        prepared = [self._prepare(op) for op in ops]
        return [self._run(op, ready) for op, ready in zip(ops, prepared, strict=True)]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """Async twin of :meth:`batch` (same body, in a worker thread)."""
        return await asyncio.to_thread(self.batch, list(ops))

    def _prepare(self, op: Op) -> Any:
        validate_op_namespace(op)
        if isinstance(op, GetOp):
            return self._locate(op.namespace)
        if isinstance(op, SearchOp):
            if not isinstance(op.limit, int) or not isinstance(op.offset, int):
                raise InvalidInputError("limit and offset must be integers")
            if op.limit < 0 or op.offset < 0 or op.limit + op.offset > MAX_VISIBLE:
                raise InvalidInputError(f"limit + offset must be within [0, {MAX_VISIBLE}]")
            return self._locate(op.namespace_prefix)
        if isinstance(op, ListNamespacesOp):
            return self._listing_scope(op)
        if isinstance(op, PutOp):
            return self._prepare_put(op)
        raise InvalidInputError(f"unknown store operation {type(op).__name__}")

    def _prepare_put(self, op: PutOp) -> _Put:
        if not op.namespace or op.namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"invalid namespace {op.namespace!r} for a put")
        if op.ttl is not None:
            raise NotImplementedError("TTL is not supported by UserloreStore; pass ttl=None")
        where = self._locate(op.namespace)
        if not isinstance(op.key, str) or not op.key:
            raise InvalidInputError("key must be a non-empty string")
        if op.value is None:
            return _Put(op, where, None)
        self._require_writable()
        if not isinstance(op.value, Mapping):
            raise InvalidInputError(f"value must be a mapping, got {type(op.value).__name__}")
        try:
            value_json = json.dumps(
                dict(op.value), sort_keys=True, ensure_ascii=False, separators=(",", ":")
            )
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(f"value is not JSON-serializable: {exc}") from None
        content = _content(op.value, value_json)
        candidate = CandidateInput(
            kind=self.kind,
            content=content,
            canonical_key=self._store_key(where.path, op.key),
            value=value_json,
            memory_type=self.memory_type,
            path=where.path,
            explicitness=Explicitness.EXPLICIT,
            confidence=0.9,
            producer=Producer.TOOL,
            evidence_text=content,
        )
        store = self.lore.memory.store
        store.validate_candidate(candidate)
        verdict = assess(candidate)
        if verdict.refused is not None:
            store.record_trace(
                where.scope,
                "governance",
                reason_code=verdict.refused,
                payload={"producer": Producer.TOOL.value, "kind": self.kind, "via": "store"},
            )
            raise PolicyViolationError(f"put refused: the value is {verdict.refused}")
        return _Put(op, where, candidate)

    def _require_writable(self) -> None:
        cfg = self.lore.config
        if cfg.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(f"memory mode {cfg.memory.mode.value!r} forbids writes")
        if "curated" not in cfg.memory.sources:
            raise MemoryDisabledError("memory.sources does not include 'curated' (store puts)")

    def _run(self, op: Op, ready: Any) -> Result:
        if isinstance(op, GetOp):
            return self._get(ready, op.key)
        if isinstance(op, SearchOp):
            return self._search(ready, op)
        if isinstance(op, ListNamespacesOp):
            return self._list_namespaces(ready, op)
        assert isinstance(ready, _Put)
        if ready.candidate is None:
            self._delete(ready.where, ready.op.key)
        else:
            self._put(ready.where, ready.candidate)
        return None

    # -- operations ---------------------------------------------------------------------------

    def _get(self, where: _Located, key: str) -> Item | None:
        hits = search_visible(
            self.lore.memory.store,
            where.scope,
            None,
            limit=1,
            path_prefix=where.path,
            canonical_key=self._store_key(where.path, key),
        )
        if hits:
            return self._item(hits[0].record)
        # Records of other producers are addressed by record id.
        found = search_visible(
            self.lore.memory.store,
            where.scope,
            None,
            limit=1,
            path_prefix=where.path,
            record_id=key,
            extra=lambda r: r.path == where.path and not self._is_store_record(r),
        )
        return self._item(found[0].record) if found else None

    def _search(self, where: _Located, op: SearchOp) -> list[SearchItem]:
        filters = dict(op.filter or {})

        def matches(record: RecordView) -> bool:
            if not filters:
                return True
            value = self._value(record)
            return all(_compare(value.get(k), v) for k, v in filters.items())

        hits = search_visible(
            self.lore.memory.store,
            where.scope,
            op.query,
            limit=op.limit,
            offset=op.offset,
            stats=self.lore.memory.term_stats,
            path_prefix=where.path,
            extra=matches,
        )
        return [
            SearchItem(
                namespace=self.namespace_of(h.record),
                key=self._key(h.record),
                value=self._value(h.record),
                created_at=h.record.created_at,
                updated_at=h.record.updated_at,
                score=h.score,
            )
            for h in hits
        ]

    def _put(self, where: _Located, candidate: CandidateInput) -> None:
        outcome = self.lore.write(where.scope, candidate)
        if outcome.action is WriteAction.REFUSED:  # pragma: no cover - checked in _prepare_put
            raise PolicyViolationError(f"put refused: the value is {outcome.reason}")

    def _delete(self, where: _Located, key: str) -> None:
        store = self.lore.memory.store
        with store.transaction() as session:
            ids = list(
                session.scalars(
                    select(MemoryRecord.id).where(
                        MemoryRecord.scope == where.scope,
                        MemoryRecord.path == where.path,
                        MemoryRecord.state.in_([s.value for s in LIVE_STATES]),
                        (MemoryRecord.canonical_key == self._store_key(where.path, key))
                        | (MemoryRecord.id == key),
                    )
                )
            )
        for record_id in ids:
            self.lore.records.forget(where.scope, record_id)

    def _listing_scope(self, op: ListNamespacesOp) -> str:
        n = len(self.namespace_prefix)
        for cond in op.match_conditions or ():
            if (
                cond.match_type == "prefix"
                and len(cond.path) > n
                and tuple(cond.path[:n]) == self.namespace_prefix
                and cond.path[n] != "*"
            ):
                return validate_scope(cond.path[n])
        raise InvalidNamespaceError(
            "list_namespaces needs a prefix that names the scope: "
            f"prefix=(*{self.namespace_prefix!r}, scope, ...)"
        )

    def _list_namespaces(self, scope: str, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        if self.lore.config.memory.mode is MemoryMode.OFF:
            return []
        store = self.lore.memory.store
        with store.transaction() as session:
            paths = list(
                session.scalars(
                    select(MemoryRecord.path)
                    .distinct()
                    .where(
                        MemoryRecord.scope == scope,
                        MemoryRecord.state == RecordState.ACTIVE.value,
                    )
                )
            )
        found: set[tuple[str, ...]] = set()
        for path in paths:
            ns = (*self.namespace_prefix, scope, *(p for p in path.split("/") if p))
            if all(_matches(cond, ns) for cond in op.match_conditions or ()):
                found.add(ns[: op.max_depth] if op.max_depth is not None else ns)
        ordered = sorted(found)
        return ordered[op.offset : op.offset + op.limit]

    # -- items --------------------------------------------------------------------------------

    @staticmethod
    def _is_store_record(record: RecordView) -> bool:
        return bool(record.canonical_key and record.canonical_key.startswith(STORE_KEY_PREFIX))

    def _key(self, record: RecordView) -> str:
        if self._is_store_record(record) and record.canonical_key:
            return record.canonical_key.split("#", 1)[1]
        return record.id

    def _value(self, record: RecordView) -> dict[str, Any]:
        if self._is_store_record(record) and record.value:
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


def _content(value: Mapping[str, Any], value_json: str) -> str:
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return text
    return value_json


def _matches(cond: MatchCondition, ns: tuple[str, ...]) -> bool:
    path = tuple(cond.path)
    if len(ns) < len(path):
        return False
    pairs = (
        zip(ns, path, strict=False)
        if cond.match_type == "prefix"
        else zip(reversed(ns), reversed(path), strict=False)
    )
    return all(p == "*" or n == p for n, p in pairs)


def _compare(item_value: Any, filter_value: Any) -> bool:
    """LangGraph filter semantics: equality, nested dicts, and ``$`` comparison operators."""
    if isinstance(filter_value, dict):
        if any(str(k).startswith("$") for k in filter_value):
            return all(_operator(item_value, op, v) for op, v in filter_value.items())
        if not isinstance(item_value, dict):
            return False
        return all(_compare(item_value.get(k), v) for k, v in filter_value.items())
    return bool(item_value == filter_value)


def _operator(value: Any, op: str, target: Any) -> bool:
    if op == "$eq":
        return bool(value == target)
    if op == "$ne":
        return bool(value != target)
    if value is None:
        return False
    try:
        a, b = float(value), float(target)
    except (TypeError, ValueError):
        return False
    if op == "$gt":
        return a > b
    if op == "$gte":
        return a >= b
    if op == "$lt":
        return a < b
    if op == "$lte":
        return a <= b
    raise InvalidInputError(f"unsupported filter operator {op!r}")
