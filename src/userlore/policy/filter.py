"""The planner's policy filter: one fixed reason code for every record it keeps out of context."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from userlore.models import Disclosure, RecordState, Sensitivity, UserState
from userlore.policy.govern import POLICY_REV, assess_text

__all__ = ["REASONS", "PolicyFields", "rejection_reason"]

REASONS = frozenset(
    {
        "scope",
        "deleted",
        "not_active",
        "forgotten",
        "not_yet_valid",
        "expired",
        "secret",
        "regulated",
        "never_disclose",
        "consent_required",
        "class_budget",
        "budget",
        "duplicate",
    }
)


class PolicyFields(Protocol):
    """The fields of a record the filter reads; a stored record and a Core row of it both
    qualify, so no caller copies fields into another object first."""

    @property
    def scope(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def user_state(self) -> str: ...
    @property
    def valid_from(self) -> datetime | None: ...
    @property
    def valid_until(self) -> datetime | None: ...
    @property
    def disclosure(self) -> str: ...
    @property
    def sensitivity(self) -> str: ...
    @property
    def sensitivity_category(self) -> str | None: ...
    @property
    def policy_rev(self) -> int: ...
    @property
    def content(self) -> str: ...
    @property
    def value(self) -> str | None: ...


# Plain strings: the filter runs for every candidate of every plan, and enum ``.value``
# lookups were a measurable share of it.
_DELETED = RecordState.DELETED.value
_ACTIVE = RecordState.ACTIVE.value
_FORGOTTEN = UserState.FORGOTTEN.value
_NEVER = Disclosure.NEVER.value
_ASK = Disclosure.ASK_BEFORE_REFERENCE.value
_SPECIAL = Sensitivity.SPECIAL.value


def rejection_reason(
    rec: PolicyFields,
    *,
    scope: str,
    now: datetime,
    consented: frozenset[str],
) -> str | None:
    """Why ``rec`` may not enter context now, or ``None`` when it may.

    Content written under older sensitivity rules is checked again, so a rule added later also
    protects records stored before it existed.
    """
    if rec.scope != scope:
        return "scope"
    if rec.state == _DELETED:
        return "deleted"
    if rec.user_state == _FORGOTTEN:
        return "forgotten"
    if rec.state != _ACTIVE:
        return "not_active"
    if rec.valid_from is not None and rec.valid_from > now:
        return "not_yet_valid"
    if rec.valid_until is not None and rec.valid_until <= now:
        return "expired"
    if rec.disclosure == _NEVER:
        return "never_disclose"
    category = rec.sensitivity_category
    special = rec.sensitivity == _SPECIAL
    if rec.policy_rev < POLICY_REV:
        verdict = assess_text(rec.content, rec.value)
        if verdict.refused is not None:
            return verdict.refused
        if verdict.sensitivity is Sensitivity.SPECIAL:
            special, category = True, verdict.category
    gated = special or rec.disclosure == _ASK
    if gated and (category is None or category not in consented):
        return "consent_required"
    return None
