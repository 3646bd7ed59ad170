"""Puts and deletes: a chunk of puts is one batched governed write (issue 30, item 5).

Every put of a batch is validated and run through the floor before anything is written
(:meth:`PutOps._prepare_put`); consecutive puts of one user are then written together, up to
:data:`PUT_CHUNK` per transaction, by :meth:`~userlore.store.governed.GovernedStore.govern_batch`
(keys nothing held yet in a few multi-row statements, the rest per item, in order), with their
TTL windows and vectors in the same transaction.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NoReturn

from langgraph.store.base import (
    InvalidNamespaceError,
    PutOp,
)
from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.config import MemoryMode
from userlore.errors import (
    InvalidInputError,
    MemoryDisabledError,
    PolicyViolationError,
)
from userlore.models import (
    CandidateInput,
    Explicitness,
    Producer,
    WriteAction,
)
from userlore.policy.govern import Assessment, BatchFloor, assess
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
PUT_CHUNK = 500
"""Most puts written in one transaction by :meth:`UserloreStore.batch`."""
WRITE_PART = 100
"""Puts written per step of a pipelined chunk (their verdicts are awaited per step)."""


class Refused(Exception):
    """A put the floor refused while its chunk was being written (traced after rollback)."""

    def __init__(self, put: _Put, reason: str) -> None:
        super().__init__(reason)
        self.put = put
        self.reason = reason


@dataclass(frozen=True, slots=True)
class _Put:
    op: PutOp
    where: Location
    candidate: CandidateInput | None  # None: delete
    ttl: float | None
    verdict: Assessment | None = None  # the floor's, from _prepare_put


class PutOps(ScopedStore):
    """Prepare, write and delete store items."""

    def _prepare_put(
        self,
        op: PutOp,
        floor: BatchFloor | None = None,
        places: dict[tuple[str, ...], Location] | None = None,
    ) -> _Put:
        """Validate ``op`` and run the floor on it (with the batch's memo ``floor``, if any).

        ``places``: the batch's namespaces already located (the run and the layout, hence
        each namespace's user and path, do not change within one ``batch`` call).
        """
        return self._judge(self._stage_put(op, places), floor)

    def _stage_put(self, op: PutOp, places: dict[tuple[str, ...], Location] | None = None) -> _Put:
        """Validate ``op`` and build its candidate: everything of a put before the floor."""
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
        self.lore.memory.store.validate_candidate(candidate)
        return _Put(op, where, candidate, ttl)

    def _judge(self, put: _Put, floor: BatchFloor | None = None) -> _Put:
        """``put`` with the floor's verdict; a refused put is traced and raised."""
        if put.candidate is None or put.verdict is not None:
            return put
        verdict = assess(put.candidate) if floor is None else floor.assess(put.candidate)
        if verdict.refused is not None:
            self._refuse(put, verdict.refused)
        return _Put(put.op, put.where, put.candidate, put.ttl, verdict)

    @staticmethod
    def _verdict_of(put: _Put, floor: BatchFloor) -> _Put:
        """``put`` with the floor's verdict, inside a write: a refusal is raised untraced
        (:class:`Refused`), for the caller to trace once the write is rolled back."""
        if put.candidate is None or put.verdict is not None:
            return put
        verdict = floor.assess(put.candidate)
        if verdict.refused is not None:
            raise Refused(put, verdict.refused)
        return _Put(put.op, put.where, put.candidate, put.ttl, verdict)

    def _refuse(self, put: _Put, reason: str) -> NoReturn:
        """Trace the refusal of ``put`` (its own transaction) and raise it."""
        self.lore.memory.store.record_trace(
            put.where.scope,
            "governance",
            reason_code=reason,
            payload={"producer": Producer.TOOL.value, "kind": self.kind, "via": "store"},
        )
        raise PolicyViolationError(f"put refused: the value is {reason}")

    def _require_writable(self) -> None:
        cfg = self.lore.config
        if cfg.memory.mode in (MemoryMode.OFF, MemoryMode.READ_ONLY):
            raise MemoryDisabledError(f"memory mode {cfg.memory.mode.value!r} forbids writes")
        if "curated" not in cfg.memory.sources:
            raise MemoryDisabledError("memory.sources does not include 'curated' (store puts)")

    def _put_many(
        self,
        scope: str,
        puts: Sequence[_Put],
        *,
        floor: BatchFloor | None = None,
        before_commit: Callable[[], None] | None = None,
    ) -> None:
        """Governed writes of ``puts`` (one user's) in one transaction: all land or none.

        With ``floor`` (the pipelined batch), ``puts`` have no verdict yet: each part of
        :data:`WRITE_PART` puts is judged just before it is written, while the floor's
        workers judge the next ones, and ``before_commit`` runs last (it judges the batch's
        later puts). A refusal (:class:`Refused`) rolls the whole transaction back.
        """
        store = self.lore.memory.store
        now = store.clock()
        with store.transaction(scope, write_lock=True) as session:
            step = len(puts) if floor is None else WRITE_PART
            for at in range(0, len(puts), step):
                part = puts[at : at + step]
                if floor is not None:
                    part = [self._verdict_of(p, floor) for p in part]
                self._write_part(session, scope, part, now)
            if before_commit is not None:
                before_commit()

    def _write_part(
        self, session: Session, scope: str, puts: Sequence[_Put], now: datetime
    ) -> None:
        """The governed write of ``puts`` inside ``session`` (see :meth:`_put_many`)."""
        store = self.lore.memory.store
        indexed: list[IndexedPut] = []
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
        outcomes = govern_batch(
            store,
            scope,
            candidates,
            verdicts=verdicts if len(verdicts) == len(candidates) else None,
            session=session,
        )
        for put, window, outcome in zip(puts, windows, outcomes, strict=True):
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
                self.lore.records.forget(where.scope, record_id)


def _content(value: Mapping[str, Any], value_json: str) -> str:
    for name in _TEXT_FIELDS:
        text = value.get(name)
        if isinstance(text, str) and text.strip():
            return text
    return value_json
