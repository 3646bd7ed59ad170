"""The one review trace: what a reviewer pass proposed and what the write path did with it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from userlore.models import WriteAction, WriteOutcome
from userlore.store.governed import GovernedStore


def review_counts(outcomes: Sequence[WriteOutcome]) -> dict[str, int]:
    """How many reviewer proposals ended in each write action (every action, zeros included)."""
    counts = {a.value: 0 for a in WriteAction}
    for o in outcomes:
        counts[o.action.value] += 1
    return counts


def trace_review(
    store: GovernedStore,
    scope: str,
    status: str,
    payload: Mapping[str, Any],
    *,
    session_key: str | None = None,
    outcomes: Sequence[WriteOutcome] | None = None,
    session: Session | None = None,
) -> str:
    """Write the ``review`` trace of one reviewer pass; returns its id.

    ``outcomes`` (of a pass that reached govern) add the per-action counts; ``session`` writes
    the trace in the same transaction as those writes, otherwise in its own.
    """
    body = dict(payload)
    if outcomes is not None:
        body |= review_counts(outcomes)
    if session is None:
        return store.record_trace(
            scope, "review", reason_code=status, session_key=session_key, payload=body
        )
    return store.trace(
        session, scope, "review", reason_code=status, session_key=session_key, payload=body
    )
