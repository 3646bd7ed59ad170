# Over 400 lines: LangGraph's BaseStore contract (batch ops, whose namespace, TTL) in one class.
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
import json
import logging
import warnings
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from langchain_core.embeddings import Embeddings
from langgraph.runtime import get_runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    validate_op_namespace,
)
from sqlalchemy import or_, select

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    MemoryDisabledError,
    PolicyViolationError,
    ScopeError,
)
from userlore.integrations.scope import ScopeResolver
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
from userlore.policy.govern import Assessment, assess
from userlore.store.governed import LIVE_STATES, validate_scope
from userlore.store.schema import MemoryRecord

from .filters import matches_condition, matches_filter, value_at
from .index import IndexedPut, StoreIndex, attach_index, index_puts
from .namespaces import (
    STORE_KEY_PREFIX,
    Location,
    NamespaceTemplate,
    encode_label,
    locate,
    namespace_for,
    parse_store_key,
)
from .ttl import (
    DEFAULT_SWEEP_MINUTES,
    TTLSweeper,
    check_ttl,
    check_ttl_config,
    refresh_ttl,
    set_ttl,
    sweep_ttl,
)

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["STORE_KEY_PREFIX", "ItemStatus", "TTLSweeper", "UserloreStore", "sweep_ttl"]

ItemStatus = Literal["active", "awaiting_approval", "absent"]
"""What :meth:`UserloreStore.status` says of a key."""

_TEXT_FIELDS = ("content", "text", "memory")
PUT_CHUNK = 500
"""Most puts written in one transaction by :meth:`UserloreStore.batch`."""

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Put:
    op: PutOp
    where: Location
    candidate: CandidateInput | None  # None: delete
    ttl: float | None
    verdict: Assessment | None = None  # the floor's, from _prepare_put


@dataclass(frozen=True, slots=True)
class _Read:
    scope: str
    op: Any
    where: Location | None = None  # a get's namespace
    path_hint: str = ""


class UserloreStore(BaseStore):
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

    # -- whose namespace ----------------------------------------------------------------------

    def _run_user(self) -> str | None:
        """The user the current run names (or the resolver's explicit default)."""
        try:
            runtime = get_runtime()
        except (RuntimeError, KeyError):
            runtime = None
        found = self.scope.find(runtime=runtime)
        return found if found is not None else self.scope.default

    def _named_user(self, labels: Sequence[str]) -> tuple[str, int] | None:
        """The user label and its index when the layout (legacy prefix or template) says so."""
        if self._legacy is not None:
            n = len(self._legacy)
            if tuple(labels[:n]) != self._legacy or len(labels) <= n:
                return None
            if labels[n] == "*":
                raise InvalidNamespaceError("the user label of a namespace cannot be a wildcard")
            return labels[n], n
        if self.template is not None:
            user = self.template.user_in(labels)
            return None if user is None else (user, self.template.position)
        return None

    def _scope_of(self, labels: Sequence[str], *, whole: bool) -> tuple[str, int | None]:
        """Whose ``labels`` (a namespace, or a prefix when not ``whole``) are, and where the
        user label sits.

        Raises:
            ScopeError: neither the run nor the layout names a user, or they disagree (legacy).
            InvalidNamespaceError: a legacy-layout namespace without the user label.
        """
        run_user = self._run_user()
        if self._legacy is not None:
            named = self._named_user(labels)
            if named is not None:
                scope = validate_scope(named[0])
                if run_user is not None and run_user != scope:
                    raise ScopeError("the namespace names a different user than the run")
                return scope, named[1]
            if whole or run_user is None:
                raise InvalidNamespaceError(
                    f"namespace {tuple(labels)!r} must be (*{self._legacy!r}, user, *path)"
                )
            return run_user, None
        if run_user is not None:
            return run_user, (labels.index(run_user) if run_user in labels else None)
        named = self._named_user(labels)
        if named is not None:
            return validate_scope(named[0]), named[1]
        hint = (
            f"a namespace fitting {self.template.labels!r}"
            if self.template is not None
            else "namespace_template=(..., '{user_id}', ...) on the store"
        )
        raise ScopeError(
            "UserloreStore cannot tell whose item this is: name the user in the run "
            f"(context or configurable '{self.scope.key}') or use {hint}"
        )

    def _locate(self, namespace: Sequence[str]) -> Location:
        scope, position = self._scope_of(namespace, whole=True)
        if self._legacy is not None:
            return locate(namespace[len(self._legacy) :], scope, 0)
        return locate(namespace, scope, position)

    def _path_hint(self, prefix: Sequence[str], scope: str) -> str:
        """A stored-path prefix every record under ``prefix`` has (narrows the scan only)."""
        if self._legacy is not None:
            n = len(self._legacy)
            return "/".join(map(encode_label, prefix[n + 1 :])) if len(prefix) > n else ""
        labels = list(prefix)
        cut = labels.index(scope) if scope in labels else len(labels)
        return "/".join(map(encode_label, labels[:cut]))

    def _namespace(self, scope: str, path: str, canonical_key: str | None) -> tuple[str, ...]:
        parsed = parse_store_key(canonical_key)
        ns = namespace_for(
            scope, path, 0 if parsed is None else parsed[0], decode=parsed is not None
        )
        return ns if self._legacy is None else (*self._legacy, *ns)

    def namespace_of(self, record: RecordView) -> tuple[str, ...]:
        """The namespace a record appears under."""
        return self._namespace(record.scope, record.path, record.canonical_key)

    # -- batch --------------------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run ops in order. Every op is validated (and every put policy-checked) first.

        Consecutive puts of one user are written together, up to :data:`PUT_CHUNK` per
        transaction (one commit, one embedding call), each still through the governed write.
        """
        prepared = [self._prepare(op) for op in list(ops)]
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

    def _prepare(self, op: Op) -> _Put | _Read:
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
            return self._prepare_put(op)
        raise InvalidInputError(f"unknown store operation {type(op).__name__}")

    def _prepare_put(self, op: PutOp) -> _Put:
        if not op.namespace or op.namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"invalid namespace {op.namespace!r} for a put")
        ttl = check_ttl(op.ttl)
        where = self._locate(op.namespace)
        if not isinstance(op.key, str) or not op.key:
            raise InvalidInputError("key must be a non-empty string")
        if op.value is None:
            return _Put(op, where, None, None)
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
            canonical_key=where.store_key(op.key),
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
        return _Put(op, where, candidate, ttl, verdict)

    def _require_writable(self) -> None:
        cfg = self.lore.config
        if cfg.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(f"memory mode {cfg.memory.mode.value!r} forbids writes")
        if "curated" not in cfg.memory.sources:
            raise MemoryDisabledError("memory.sources does not include 'curated' (store puts)")

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

    # -- operations ---------------------------------------------------------------------------

    def _get(self, where: Location, op: GetOp) -> Item | None:
        store = self.lore.memory.store
        hits = search_visible(
            store,
            where.scope,
            None,
            limit=1,
            path_prefix=where.path,
            canonical_key=where.store_key(op.key),
        )
        if not hits and where.position == 0:
            # Records of other producers appear under (user, *path), addressed by record id.
            hits = search_visible(
                store,
                where.scope,
                None,
                limit=1,
                path_prefix=where.path,
                record_id=op.key,
                extra=lambda r: r.path == where.path and not _is_store_record(r),
            )
        if not hits:
            return None
        record = hits[0].record
        if op.refresh_ttl:
            refresh_ttl(self.lore, where.scope, [record.id])
        return self._item(record)

    def _search(self, scope: str, path_hint: str, op: SearchOp) -> list[SearchItem]:
        filters = dict(op.filter or {})
        prefix = tuple(op.namespace_prefix)

        def matches(record: RecordView) -> bool:
            if self.namespace_of(record)[: len(prefix)] != prefix:
                return False
            value = self._value(record)
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
        if op.refresh_ttl:
            refresh_ttl(self.lore, scope, [h.record.id for h in hits])
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

    def _put_many(self, scope: str, puts: Sequence[_Put]) -> None:
        """Governed writes of ``puts`` (one user's) in one transaction: all land or none."""
        store = self.lore.memory.store
        indexed: list[IndexedPut] = []
        candidates = [p.candidate for p in puts if p.candidate is not None]
        verdicts = [p.verdict for p in puts if p.verdict is not None]
        with store.transaction(scope) as session:
            outcomes = store.govern_batch(
                session,
                scope,
                candidates,
                verdicts=verdicts if len(verdicts) == len(candidates) else None,
            )
            for put, outcome in zip(puts, outcomes, strict=True):
                if outcome.action is WriteAction.REFUSED:  # pragma: no cover - see _prepare_put
                    raise PolicyViolationError(f"put refused: the value is {outcome.reason}")
                record = outcome.record
                if record is None:
                    continue
                if put.op.value is not None and put.candidate is not None:
                    indexed.append(
                        IndexedPut(
                            record.id,
                            record.version,
                            put.op.value,
                            put.op.index,
                            put.candidate.content,
                        )
                    )
                if put.ttl is not None or record.valid_until is not None:
                    set_ttl(self.lore, scope, record.id, put.ttl, session=session)
            if self._index is not None:
                index_puts(self.lore, self._index, session, scope, indexed)

    def _delete(self, where: Location, key: str) -> None:
        store = self.lore.memory.store
        store_key = where.store_key(key)
        with store.transaction(where.scope) as session:
            rows = list(
                session.execute(
                    select(MemoryRecord.id, MemoryRecord.canonical_key).where(
                        MemoryRecord.scope == where.scope,
                        MemoryRecord.path == where.path,
                        MemoryRecord.state.in_([s.value for s in LIVE_STATES]),
                        (MemoryRecord.canonical_key == store_key) | (MemoryRecord.id == key),
                    )
                )
            )
        for record_id, canonical_key in rows:
            other_producer = parse_store_key(canonical_key) is None
            if canonical_key == store_key or (other_producer and where.position == 0):
                self.lore.records.forget(where.scope, record_id)

    def _listing_scope(self, op: ListNamespacesOp) -> str:
        for cond in op.match_conditions or ():
            if cond.match_type == "prefix" and self._named_user(cond.path) is not None:
                return self._scope_of(cond.path, whole=False)[0]
        return self._scope_of((), whole=False)[0]

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

    # -- confirmWrite -------------------------------------------------------------------------

    def status(self, namespace: tuple[str, ...], key: str) -> ItemStatus:
        """Why ``get`` returns what it does: ``"active"``, ``"awaiting_approval"`` or ``"absent"``.

        In ``confirmWrite`` a put creates a candidate that ``get`` does not return until it is
        approved; this tells that apart from an item that was never stored, was deleted,
        rejected or has expired (all ``"absent"``).
        """
        if self.get(namespace, key, refresh_ttl=False) is not None:
            return "active"
        where = self._locate(namespace)
        store = self.lore.memory.store
        with store.connection(where.scope) as conn:
            waiting = conn.execute(
                select(MemoryRecord.id)
                .where(
                    MemoryRecord.scope == where.scope,
                    MemoryRecord.path == where.path,
                    MemoryRecord.canonical_key == where.store_key(key),
                    MemoryRecord.state == RecordState.CANDIDATE.value,
                )
                .limit(1)
            ).first()
        return "awaiting_approval" if waiting is not None else "absent"

    async def astatus(self, namespace: tuple[str, ...], key: str) -> ItemStatus:
        """Async twin of :meth:`status`."""
        return await asyncio.to_thread(self.status, namespace, key)

    # -- TTL ----------------------------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Tombstone expired store items (every user's: the sweep is an operator job)."""
        return sweep_ttl(self.lore)

    async def asweep_ttl(self) -> int:
        """Async twin of :meth:`sweep_ttl` (LangGraph's async stores await their sweep)."""
        return await asyncio.to_thread(self.sweep_ttl)

    def _sweep_minutes(self, sweep_interval_minutes: float | None) -> float:
        minutes = check_ttl(sweep_interval_minutes) or (self.ttl_config or {}).get(
            "sweep_interval_minutes"
        )
        return float(minutes or DEFAULT_SWEEP_MINUTES)

    def start_ttl_sweeper(self, sweep_interval_minutes: float | None = None) -> Future[None]:
        """Sweep every interval (argument, else ``ttl_config``, else 60 min) in a thread."""
        if self._sweeper is None:
            minutes = self._sweep_minutes(sweep_interval_minutes)
            self._sweeper = TTLSweeper(self.lore, interval_minutes=minutes)
        return self._sweeper.start()

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stop the sweeper; True when it stopped within ``timeout``."""
        return True if self._sweeper is None else self._sweeper.stop(timeout)

    async def astart_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> asyncio.Task[None]:
        """Async twin of :meth:`start_ttl_sweeper`: a task on the running loop (idempotent)."""
        if self._async_sweeper is not None and not self._async_sweeper.done():
            return self._async_sweeper
        seconds = self._sweep_minutes(sweep_interval_minutes) * 60.0

        async def loop() -> None:
            while True:
                try:
                    await self.asweep_ttl()
                except Exception:  # one failed sweep must not end the loop
                    log.exception("ttl sweep failed")
                await asyncio.sleep(seconds)

        self._async_sweeper = asyncio.create_task(loop(), name="userlore-ttl-sweeper")
        return self._async_sweeper

    async def astop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Async twin of :meth:`stop_ttl_sweeper`: cancel the task; True once it has ended."""
        task = self._async_sweeper
        if task is None or task.done():
            self._async_sweeper = None
            return True
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=timeout)
        if done:
            self._async_sweeper = None
        return bool(done)

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


def _content(value: Mapping[str, Any], value_json: str) -> str:
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return text
    return value_json
