"""The read path's policy filter: one fixed reason code for every record it keeps out."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Protocol

from userlore.models import Disclosure, RecordState, Sensitivity, UserState
from userlore.policy.govern import POLICY_REV, assess_text

__all__ = ["REASONS", "PolicyFields", "RejectionReason", "rejection_reason"]


class RejectionReason(StrEnum):
    """Why a record was kept out of a plan, a recall or a search.

    Traces store the string values, so a value never changes once written.
    """

    SCOPE = "scope"
    DELETED = "deleted"
    NOT_ACTIVE = "not_active"
    FORGOTTEN = "forgotten"
    NOT_YET_VALID = "not_yet_valid"
    EXPIRED = "expired"
    SECRET = "secret"
    REGULATED = "regulated"
    NEVER_DISCLOSE = "never_disclose"
    CONSENT_REQUIRED = "consent_required"
    CLASS_BUDGET = "class_budget"
    """The planner: the record's class and the shared overflow pool are full."""
    BUDGET = "budget"
    """The planner: the record does not fit the character budget."""
    DUPLICATE = "duplicate"
    """Kept for traces written by earlier versions."""
    SUPERSEDED = "superseded"
    """Recall: an older version of a cited record (never in a trace: it has no id of its own)."""
    QUOTE_CREDENTIAL = "quote_credential"
    """The quote gate (``policy/quote_gate.py``): a credential cue near a value-like token."""
    QUOTE_MONEY = "quote_money"
    """The quote gate: the user's own money."""
    QUOTE_SPECIAL = "quote_special"
    """The quote gate: a special-category cue not clearly about someone else or a topic."""
    QUOTE_LANGUAGE = "quote_language"
    """The quote gate: a segment in a language its vocabularies do not cover."""
    WEAK_RELEVANCE = "weak_relevance"
    """The planner: found by the question's words alone, its cosine to the question below the
    vector floor (a shared word, not a shared topic)."""


REASONS = frozenset(RejectionReason)


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


# Plain strings for the stored fields: the filter runs for every candidate of every plan, and
# enum ``.value`` lookups were a measurable share of it.
_DELETED = RecordState.DELETED.value
_ACTIVE = RecordState.ACTIVE.value
_FORGOTTEN = UserState.FORGOTTEN.value
_NEVER = Disclosure.NEVER.value
_ASK = Disclosure.ASK_BEFORE_REFERENCE.value
_SPECIAL = Sensitivity.SPECIAL.value
_R = RejectionReason


def rejection_reason(
    rec: PolicyFields,
    *,
    scope: str,
    now: datetime,
    consented: frozenset[str],
) -> RejectionReason | None:
    """Why ``rec`` may not enter context now, or ``None`` when it may.

    Content written under older sensitivity rules is checked again, so a rule added later also
    protects records stored before it existed.
    """
    if rec.scope != scope:
        return _R.SCOPE
    if rec.state == _DELETED:
        return _R.DELETED
    if rec.user_state == _FORGOTTEN:
        return _R.FORGOTTEN
    if rec.state != _ACTIVE:
        return _R.NOT_ACTIVE
    if rec.valid_from is not None and rec.valid_from > now:
        return _R.NOT_YET_VALID
    if rec.valid_until is not None and rec.valid_until <= now:
        return _R.EXPIRED
    if rec.disclosure == _NEVER:
        return _R.NEVER_DISCLOSE
    category = rec.sensitivity_category
    special = rec.sensitivity == _SPECIAL
    if rec.policy_rev < POLICY_REV:
        verdict = assess_text(rec.content, rec.value)
        if verdict.refused is not None:
            return RejectionReason(verdict.refused)
        if verdict.sensitivity is Sensitivity.SPECIAL:
            special, category = True, verdict.category
    gated = special or rec.disclosure == _ASK
    if gated and (category is None or category not in consented):
        return _R.CONSENT_REQUIRED
    return None
