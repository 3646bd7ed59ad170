"""Producer (a): explicit statements as Explicit-cue observations.

:meth:`Userlore.observe <userlore.Userlore.observe>` already turns each explicit statement into a
governed record. This producer adds, in the same transaction, one ``facet_observations`` row per
statement of a facet class that the governed write accepted (created, reinforced or superseded):
the turn's source item is the evidence, so replaying a turn (same ``turn_id``) adds nothing.
It goes straight to the table rather than through the buffer because the statement has just
passed the governed write itself, and the observation must commit or roll back with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy.orm import Session

from userlore.errors import InvalidInputError
from userlore.extract.explicit import Statement
from userlore.learning.facets import CueFamily, FacetClass, split_key
from userlore.learning.recording import record_observation
from userlore.models import WriteOutcome

__all__ = ["observe_statements"]

_FACET_KINDS = frozenset(c.value for c in FacetClass)


def observe_statements(
    session: Session,
    scope: str,
    statements: Sequence[Statement],
    outcomes: Sequence[WriteOutcome],
    evidence_item_id: str,
    now: datetime,
) -> int:
    """Record an Explicit observation per governed facet statement; returns how many are new."""
    added = 0
    for st, outcome in zip(statements, outcomes, strict=True):
        if st.kind not in _FACET_KINDS or outcome.record is None:
            continue
        try:
            cls, key = split_key(st.kind, st.canonical_key)
        except InvalidInputError:
            continue
        value = st.value if st.value else st.content
        if record_observation(
            session, scope, cls, key, value, CueFamily.EXPLICIT, evidence_item_id,
            st.confidence, now,
        ):  # fmt: skip
            added += 1
    return added
