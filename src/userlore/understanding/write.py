"""The governed write: every producer's candidate reaches :class:`GovernedStore` here."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.orm import Session

from userlore.models import CandidateInput, WriteOutcome
from userlore.policy.govern import FloorVerdict
from userlore.store.governed import GovernedStore


def govern(
    store: GovernedStore,
    scope: str,
    candidate: CandidateInput,
    *,
    session: Session | None = None,
) -> WriteOutcome:
    """The governed write of one candidate: inside ``session``, or in its own transaction."""
    if session is None:
        with store.transaction(scope) as own:
            return store.govern(own, scope, candidate)
    return store.govern(session, scope, candidate)


def govern_batch(
    store: GovernedStore,
    scope: str,
    candidates: Sequence[CandidateInput],
    *,
    verdicts: Sequence[FloorVerdict] | None = None,
    session: Session | None = None,
) -> list[WriteOutcome]:
    """:func:`govern` of many candidates, fresh keys in bulk (:meth:`GovernedStore.govern_batch`).

    The outcomes are those of governing the candidates one after another, in order; inside
    ``session``, or in one transaction of its own.
    """
    if session is None:
        with store.transaction(scope) as own:
            return store.govern_batch(own, scope, candidates, verdicts=verdicts)
    return store.govern_batch(session, scope, candidates, verdicts=verdicts)
