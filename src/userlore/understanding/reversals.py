"""What a turn takes back: the live records its reversals name end, each traced by rule."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from userlore.extract.explicit import Statement
from userlore.extract.reversal import Reversal, ended_value, naming
from userlore.models import CandidateInput, MemoryType, Producer, RecordState, WriteOutcome
from userlore.store.governed import GovernedStore
from userlore.store.schema import MemoryRecord
from userlore.store.text import normalize_value
from userlore.understanding.attribution import TurnAuthor
from userlore.understanding.write import govern


def end_reversed(
    store: GovernedStore,
    session: Session,
    scope: str,
    reversals: Sequence[Reversal],
    statements: Sequence[Statement],
    outcomes: Sequence[WriteOutcome],
    item_id: str,
    session_key: str | None,
    author: TurnAuthor | None,
) -> tuple[WriteOutcome, ...]:
    """End what the user took back: the new state supersedes the record, which stops being live.

    A record the turn restates under its own key ("I switched from npm to pnpm") is superseded
    by that statement; any other record the reversal names gets a superseding record whose
    content is the user's sentence ("I'm not vegetarian anymore, I eat fish now"). Where the
    new record waits for approval (``confirmWrite``) the old one is paused (``needs_review``):
    a fact the user took back is never planned as current, in any mode. Records written by
    this turn are never ended by it ("I quit smoking" is itself the new state).
    """
    if not reversals:
        return ()
    own = {o.record.id for o in outcomes if o.record is not None}
    restated = {st.canonical_key for st in statements}
    live = session.scalars(
        select(MemoryRecord)
        .where(MemoryRecord.scope == scope, MemoryRecord.state == RecordState.ACTIVE.value)
        .order_by(MemoryRecord.seq)
    ).all()
    who = author or TurnAuthor()
    done: list[WriteOutcome] = []
    ended: set[str] = set()
    for rev in reversals:
        # A new value this sentence stated has already superseded its key's record ("I've gone
        # back to vim" in auto): the trace still names the form that ended it.
        for st, o in zip(statements, outcomes, strict=True):
            took = o.record is not None and o.record.state is RecordState.ACTIVE
            if not took or o.superseded_record_id is None:
                continue  # a candidate supersedes nothing yet: the old record is paused below
            if not rev.span[0] <= st.span[0] < rev.span[1]:
                continue
            gone = session.scalars(
                select(MemoryRecord).where(
                    MemoryRecord.scope == scope, MemoryRecord.id == o.superseded_record_id
                )
            ).first()
            if gone is not None and gone.state != RecordState.ACTIVE.value:
                _trace_reversal(store, session, scope, session_key, gone, rev, "same_key")
        open_rows = [
            r
            for r in live
            if r.id not in own and r.id not in ended and r.state == RecordState.ACTIVE.value
        ]
        # A resumption's own new value ("I've gone back to vim") ends what its key held.
        resumed = {
            st.canonical_key: normalize_value(st.value or st.content)
            for st in statements
            if rev.resumes and rev.span[0] <= st.span[0] < rev.span[1]
        }
        scores = {r.id: naming(rev, r.canonical_key or "", r.value, r.content) for r in open_rows}
        best = max(scores.values(), default=0.0)
        for row in open_rows:
            key = row.canonical_key or ""
            named = best > 0 and scores[row.id] == best  # only the record it names closest
            replaced = key in resumed and resumed[key] != normalize_value(row.value or row.content)
            if not named and not replaced and not (rev.obj == "" and key in restated):
                continue
            ended.add(row.id)
            rule = _reversal_rule(rev, key, named)
            _trace_reversal(store, session, scope, session_key, row, rev, rule)
            if key not in restated:
                done.append(
                    govern(
                        store,
                        scope,
                        CandidateInput(
                            kind=row.kind,
                            content=rev.content,
                            canonical_key=row.canonical_key,
                            value=ended_value(row.value, resumed=rev.resumes),
                            memory_type=MemoryType(row.memory_type),
                            path=row.path,
                            confidence=row.confidence,
                            importance=row.importance,
                            producer=Producer.EXPLICIT,
                            supersedes_record_id=row.id,
                            source_item_id=item_id,
                            **who.attribution(session_key),
                        ),
                        session=session,
                    )
                )
            if row.state == RecordState.ACTIVE.value:
                store.transition(row, RecordState.NEEDS_REVIEW, store.clock())
    return tuple(done)


def _trace_reversal(
    store: GovernedStore,
    session: Session,
    scope: str,
    session_key: str | None,
    row: MemoryRecord,
    rev: Reversal,
    rule: str,
) -> None:
    """Trace one record a reversal ended: which form, by which rule (fixed codes, no text)."""
    store.trace(
        session,
        scope,
        "governance",
        reason_code="reversal",
        session_key=session_key,
        payload={
            "record_id": row.id,
            "v": row.version,
            "operation": "reverse",
            "form": rev.form,
            "rule": rule,
        },
    )


def _reversal_rule(rev: Reversal, key: str, named: bool) -> str:
    """Why a reversal ended a record, as a fixed code for its trace (never user text)."""
    if not named:
        return "same_key"
    cls = next((c for c, k in rev.opposes if k == key), None)
    if cls is not None:
        return f"class:{cls}"
    return "resumed_named" if rev.resumes else "named"
