"""Puts and deletes: a chunk of puts is one batched governed write (issue 30, item 5).

Every put of a batch is validated (:meth:`PutOps._draft_put`) and run through the floor
(:meth:`PutOps._judge_puts`: the batch's contents, then its keys) before anything is written;
consecutive puts of one user are then written together, up to
:data:`PUT_CHUNK` per transaction, by :meth:`~userlore.store.governed.GovernedStore.govern_batch`
(keys nothing held yet in a few multi-row statements, the rest per item, in order), with their
TTL windows and vectors in the same transaction.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from langgraph.store.base import (
    InvalidNamespaceError,
    PutOp,
)
from sqlalchemy import select

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
)
from userlore.models import (
    CandidateInput,
    Explicitness,
    Producer,
    RecordState,
    WriteAction,
)
from userlore.policy.govern import BatchFloor, FloorVerdict
from userlore.store.governed import LIVE_STATES
from userlore.store.schema import MemoryRecord
from userlore.understanding import govern_batch

from .index import IndexedPut, index_puts
from .namespaces import (
    Location,
    parse_store_key,
)
from .scoping import ScopedStore
from .ttl import (
    check_ttl,
    set_ttl,
)

_TEXT_FIELDS = ("content", "text", "memory")
_VALUE_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))
"""What ``json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))`` makes,
without building an encoder a put (it keeps no state between calls)."""
PUT_CHUNK = 500
"""Most puts written in one transaction by :meth:`UserloreStore.batch`."""


@dataclass(frozen=True, slots=True)
class _Put:
    op: PutOp
    where: Location
    candidate: CandidateInput | None  # None: delete
    ttl: float | None
    verdict: FloorVerdict | None = None  # the floor's, from _judge_put


class PutOps(ScopedStore):
    """Prepare, write and delete store items."""

    def _judge_puts(self, prepared: list[Any], floor: BatchFloor) -> list[Any]:
        """``prepared`` with the floor's verdict on each of its puts, in op order (the first
        refused raises). The batch's contents are classified first, then its keys
        (:meth:`BatchFloor.warm`: the same verdicts, for less CPU)."""
        floor.warm([p.candidate for p in prepared if isinstance(p, _Put) and p.candidate])
        return [self._judge_put(p, floor) if isinstance(p, _Put) else p for p in prepared]

    def _judge_put(self, put: _Put, floor: BatchFloor) -> _Put:
        """``put`` with the floor's verdict (a delete as it is); a refused put raises."""
        candidate, where = put.candidate, put.where
        if candidate is None:
            return put
        store = self.lore.memory.store
        verdict = floor.judge(candidate)
        if verdict.refused is not None:
            store.record_trace(
                where.scope,
                "governance",
                reason_code=verdict.refused,
                payload={"producer": Producer.TOOL.value, "kind": self.kind, "via": "store"},
            )
            raise PolicyViolationError(f"put refused: the value is {verdict.refused}")
        return _Put(put.op, where, candidate, put.ttl, verdict)

    def _draft_put(self, op: PutOp, places: dict[tuple[str, ...], Location] | None = None) -> _Put:
        """Validate ``op`` and build its candidate, without the floor's verdict yet.

        ``places``: the batch's namespaces already located (the run and the layout, hence
        each namespace's user and path, do not change within one ``batch`` call).
        """
        if not op.namespace or op.namespace[0] == "langgraph":
            raise InvalidNamespaceError(f"invalid namespace {op.namespace!r} for a put")
        ttl = check_ttl(op.ttl)
        known = places if places is not None and type(op.namespace) is tuple else None
        where = None if known is None else known.get(op.namespace)
        if where is None:
            where = self._locate(op.namespace)
            if known is not None:
                known[op.namespace] = where
        if not isinstance(op.key, str) or not op.key:
            raise InvalidInputError("key must be a non-empty string")
        if op.value is None:
            return _Put(op, where, None, None)
        self._require_writable()
        if not isinstance(op.value, Mapping):
            raise InvalidInputError(f"value must be a mapping, got {type(op.value).__name__}")
        try:
            value_json = _VALUE_JSON.encode(op.value if type(op.value) is dict else dict(op.value))
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
        self.lore.memory.store.validate_candidate(candidate)
        return _Put(op, where, candidate, ttl)

    def _require_writable(self) -> None:
        cfg = self.lore.config
        if cfg.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(f"memory mode {cfg.memory.mode.value!r} forbids writes")
        if "curated" not in cfg.memory.sources:
            raise MemoryDisabledError("memory.sources does not include 'curated' (store puts)")

    def _put_many(self, scope: str, puts: Sequence[_Put]) -> None:
        """Governed writes of ``puts`` (one user's) in one transaction: all land or none."""
        store = self.lore.memory.store
        indexed: list[IndexedPut] = []
        now = store.clock()
        # A put with a TTL writes its window with the record (no UPDATE after the insert); a
        # put that reaches a record another way (a repeat that only reinforces it, a pending
        # candidate revised) still has its window set below.
        windows = [None if p.ttl is None else (now, now + timedelta(minutes=p.ttl)) for p in puts]
        candidates = [
            p.candidate
            if w is None
            else dataclasses.replace(p.candidate, valid_from=w[0], valid_until=w[1])
            for p, w in zip(puts, windows, strict=True)
            if p.candidate is not None
        ]
        verdicts = [p.verdict for p in puts if p.verdict is not None]
        with store.transaction(scope, write_lock=True) as session:
            outcomes = govern_batch(
                store,
                scope,
                candidates,
                verdicts=verdicts if len(verdicts) == len(candidates) else None,
                session=session,
            )
            for put, window, outcome in zip(puts, windows, outcomes, strict=True):
                if outcome.action is WriteAction.REFUSED:  # pragma: no cover - see _judge_put
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
                written = window is not None and (record.valid_from, record.valid_until) == window
                if not written and (put.ttl is not None or record.valid_until is not None):
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
                try:
                    self.lore.records.forget(where.scope, record_id)
                except InvalidTransitionError:
                    if not self._deleted(where.scope, record_id):
                        raise
                    # A delete that ran at the same time tombstoned it first: gone either way.

    def _deleted(self, scope: str, record_id: str) -> bool:
        store = self.lore.memory.store
        with store.transaction(scope) as session:
            return store.get_row(session, scope, record_id).state == RecordState.DELETED.value


def _content(value: Mapping[str, Any], value_json: str) -> str:
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return text
    return value_json
