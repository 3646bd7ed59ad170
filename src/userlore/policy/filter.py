"""The planner's policy filter: one fixed reason code for every record it keeps out of context."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from userlore.models import Disclosure, RecordState, Sensitivity, UserState
from userlore.policy.govern import POLICY_REV, assess_text

__all__ = ["REASONS", "PolicyInput", "rejection_reason"]

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


@dataclass(frozen=True, slots=True)
class PolicyInput:
    """The fields of a record the filter reads."""

    scope: str
    state: str
    user_state: str
    valid_from: datetime | None
    valid_until: datetime | None
    disclosure: str
    sensitivity: str
    sensitivity_category: str | None
    policy_rev: int
    content: str
    value: str | None


def rejection_reason(
    rec: PolicyInput,
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
    if rec.state == RecordState.DELETED.value:
        return "deleted"
    if rec.user_state == UserState.FORGOTTEN.value:
        return "forgotten"
    if rec.state != RecordState.ACTIVE.value:
        return "not_active"
    if rec.valid_from is not None and rec.valid_from > now:
        return "not_yet_valid"
    if rec.valid_until is not None and rec.valid_until <= now:
        return "expired"
    if rec.disclosure == Disclosure.NEVER.value:
        return "never_disclose"
    category = rec.sensitivity_category
    special = rec.sensitivity == Sensitivity.SPECIAL.value
    if rec.policy_rev < POLICY_REV:
        verdict = assess_text(rec.content, rec.value)
        if verdict.refused is not None:
            return verdict.refused
        if verdict.sensitivity is Sensitivity.SPECIAL:
            special, category = True, verdict.category
    gated = special or rec.disclosure == Disclosure.ASK_BEFORE_REFERENCE.value
    if gated and (category is None or category not in consented):
        return "consent_required"
    return None
