"""blind8's value classes, run after every other rule of the floor (issue 29, blindfix8a).

One hook for ``sensitivity._detect``: a value described then assembled, secrets pasted as
settings, social-security numbers in groups, the rent beside the user's salary. Where a rule
before them already names a span, its verdict and its name stand (the redaction's re-check
reads those names: "[REDACTED:password_in_pieces]" tells the pieces rule its work is done).
"""

from __future__ import annotations

from userlore.policy.detectors.assembled_values import assembled_values
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.config_keys import config_secrets
from userlore.policy.detectors.second_amounts import second_amounts
from userlore.policy.detectors.social_ids import social_ids
from userlore.policy.findings import _BLOCKING

__all__ = ["blind8_values"]


def blind8_values(t: str, lowered: str, hits: list[_Hit]) -> list[_Hit]:
    """The hits of blind8's classes in ``t`` that no hit in ``hits`` already covers."""
    named = [(h[2], h[3]) for h in hits if h[0] in _BLOCKING]
    found = [*assembled_values(t, lowered, named), *config_secrets(t, lowered)]
    if any(ch.isdigit() for ch in t):
        found += [*social_ids(t, lowered), *second_amounts(t, lowered)]
    if not found:
        return []
    return [h for h in found if not any(s < h[3] and h[2] < e for s, e in named)]
