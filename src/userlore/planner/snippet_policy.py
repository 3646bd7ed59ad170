"""Which source items a plan may quote: the policy filter and the quote gate over a snippet.

:func:`refusal` is the one verdict both :func:`~userlore.planner.episodic.search_snippets` (a
read) and :func:`~userlore.planner.episodic.withheld` (what a raw-turn baseline must leave out)
give an item: gone with a record that is not live (:func:`withdrawals`), refused when written,
today's sensitivity verdict through the policy filter, then the quote gate on the words quoted.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, select

from userlore.models import Disclosure, RecordState, Rejection, Sensitivity, UserState
from userlore.policy.filter import REASONS, RejectionReason, rejection_reason
from userlore.policy.govern import POLICY_REV, Assessment, assess_text
from userlore.policy.quote_gate import quote_verdict
from userlore.store.schema import MemoryEvidence, MemoryRecord

__all__ = ["quoted_body", "refusal", "withdrawals"]


@dataclass(frozen=True, slots=True)
class _SnippetFields:
    """A source item as the policy filter's input, with today's verdict on its text."""

    scope: str
    content: str
    valid_from: datetime | None
    state: str = RecordState.ACTIVE.value
    user_state: str = UserState.AUTO.value
    valid_until: datetime | None = None
    disclosure: str = Disclosure.NORMAL.value
    sensitivity: str = Sensitivity.NONE.value
    sensitivity_category: str | None = None
    policy_rev: int = POLICY_REV  # assessed just now with today's rules (``_assessed``)
    value: str | None = None


_WITHDRAWN = (
    # An item stays out while a record drawn from it is not live: pending review or rejected
    # (confirmWrite keeps it out of context until approved), superseded, forgotten, deleted or
    # expired (a TTL or a stated "until Friday" that has passed).
    select(
        MemoryEvidence.source_item_id,
        MemoryRecord.state,
        MemoryRecord.user_state,
        MemoryRecord.valid_until,
    )
    .join(
        MemoryRecord,
        (MemoryRecord.scope == MemoryEvidence.scope)
        & (MemoryRecord.id == MemoryEvidence.record_id),
    )
    .where(
        MemoryEvidence.scope == bindparam("scope"),
        MemoryEvidence.source_item_id.in_(bindparam("ids", expanding=True)),
        (MemoryRecord.user_state == UserState.FORGOTTEN.value)
        | (MemoryRecord.state != RecordState.ACTIVE.value)
        | (MemoryRecord.valid_until <= bindparam("now")),
    )
)


def withdrawals(
    conn: Connection, scope: str, item_ids: Sequence[str], now: datetime
) -> dict[str, RejectionReason]:
    """The items of ``item_ids`` that stay out with a record drawn from them, and why."""
    out: dict[str, RejectionReason] = {}
    for item_id, state, user_state, valid_until in conn.execute(
        _WITHDRAWN, {"scope": scope, "ids": list(item_ids), "now": now}
    ):
        expired = valid_until is not None and state == RecordState.ACTIVE.value
        out[item_id] = _withdrawal(state, user_state, out.get(item_id), expired=expired)
    return out


def refusal(
    row: Any,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
    quote_uncovered: bool,
) -> Rejection | None:
    """Why an item may not be quoted: the policy filter first, then (its words quoted verbatim)
    the quote gate; ``None`` when it may."""
    reason = _reason(row, scope, now, consented, withdrawn)
    if reason is not None:
        return Rejection(row.id, reason)
    verdict = quote_verdict(
        quoted_body(row.title, row.text), consented=consented, quote_uncovered=quote_uncovered
    )
    if verdict.reason is not None:
        return Rejection(row.id, verdict.reason, verdict.category)
    return None


_WITHDRAWAL_ORDER = (
    RejectionReason.DELETED,
    RejectionReason.FORGOTTEN,
    RejectionReason.NOT_ACTIVE,
    RejectionReason.EXPIRED,
)


def _withdrawal(
    state: str, user_state: str, earlier: RejectionReason | None, *, expired: bool = False
) -> RejectionReason:
    """The reason a record that is not live gives its evidence item (the strongest of several)."""
    if state == RecordState.DELETED.value:
        reason = RejectionReason.DELETED
    elif user_state == UserState.FORGOTTEN.value:
        reason = RejectionReason.FORGOTTEN
    elif expired:
        reason = RejectionReason.EXPIRED
    else:
        reason = RejectionReason.NOT_ACTIVE
    if earlier is None:
        return reason
    return min(reason, earlier, key=_WITHDRAWAL_ORDER.index)


def quoted_body(title: str | None, body: str) -> str:
    """The words a snippet quotes: the title before the text, unless the text opens with it."""
    return f"{title}: {body}" if title and not body.startswith(title) else body


def _reason(
    row: Any,
    scope: str,
    now: datetime,
    consented: frozenset[str],
    withdrawn: dict[str, RejectionReason],
) -> RejectionReason | None:
    if row.deleted_at is not None:
        return RejectionReason.DELETED
    if row.id in withdrawn:
        return withdrawn[row.id]
    refused = (row.meta or {}).get("refused")
    if refused:
        # A statement of this turn was refused (understanding.record_turn): never quote it.
        return RejectionReason(refused[0]) if refused[0] in REASONS else RejectionReason.SECRET
    body = quoted_body(row.title, row.text)
    verdict = _assessed(body)
    if verdict.refused is not None:
        return RejectionReason(verdict.refused)
    fields = _SnippetFields(
        row.scope,
        body,
        row.created_at,
        disclosure=verdict.disclosure.value,
        sensitivity=verdict.sensitivity.value,
        sensitivity_category=verdict.category,
    )
    return rejection_reason(fields, scope=scope, now=now, consented=consented)


@functools.lru_cache(maxsize=8_192)
def _assessed(body: str) -> Assessment:
    """Today's sensitivity verdict on a snippet's text (the rules are fixed for a process, so
    a turn read by many plans is classified once)."""
    return assess_text(body)
