"""Safety policy: the deterministic sensitivity floor and the context fence."""

from userlore.policy.fence import FENCE_CLOSE, FENCE_OPEN, neutralize
from userlore.policy.sensitivity import (
    SPECIAL_CATEGORIES,
    Finding,
    SensitivityLevel,
    SensitivityReport,
    classify,
    redact,
)

__all__ = [
    "FENCE_CLOSE",
    "FENCE_OPEN",
    "SPECIAL_CATEGORIES",
    "Finding",
    "SensitivityLevel",
    "SensitivityReport",
    "classify",
    "neutralize",
    "redact",
]
