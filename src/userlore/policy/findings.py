"""What the detectors report: sensitivity levels, special categories, findings, the report."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class SensitivityLevel(StrEnum):
    """How sensitive a text is; members compare by severity, not alphabetically."""

    NONE = "none"
    SPECIAL = "special"
    REGULATED = "regulated"
    SECRET = "secret"

    @property
    def severity(self) -> int:
        """0 for ``NONE`` up to 3 for ``SECRET``."""
        return _SEVERITY[self]

    def __lt__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity < other.severity
        return str.__lt__(self, other)

    def __le__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity <= other.severity
        return str.__le__(self, other)

    def __gt__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity > other.severity
        return str.__gt__(self, other)

    def __ge__(self, other: str) -> bool:
        if isinstance(other, SensitivityLevel):
            return self.severity >= other.severity
        return str.__ge__(self, other)


_SEVERITY: Final = {
    SensitivityLevel.NONE: 0,
    SensitivityLevel.SPECIAL: 1,
    SensitivityLevel.REGULATED: 2,
    SensitivityLevel.SECRET: 3,
}

SPECIAL_CATEGORIES: Final = frozenset(
    {
        "health",
        "religion",
        "sexual_orientation",
        "ethnicity",
        "political_opinion",
        "biometric",
        "trade_union",
        "genetic",
        "criminal_record",
    }
)
"""Special categories reported: GDPR art. 9 (trade-union membership and genetic data each a
category of their own) plus criminal records (art. 10), which issue 14 lists too. Gender identity
is reported under ``sexual_orientation`` ("sex life or sexual orientation"), so consent is asked
for one category rather than a new one."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One detection.

    Attributes:
        level: Severity of what was found.
        rule: Rule that fired (``github_token``, ``password_in_prose``, ``payment_card``...).
        start: Start of the span in the classified text.
        end: End of the span (exclusive). For secrets and regulated values this is the value
            itself, so redaction can keep the surrounding sentence; for special categories it is
            the statement, from its subject to the term.
        category: Special category, or ``government_id`` / ``financial`` for regulated values.
    """

    level: SensitivityLevel
    rule: str
    start: int
    end: int
    category: str | None = None


@dataclass(frozen=True, slots=True)
class SensitivityReport:
    """Everything :func:`classify` found in one text, ordered by position."""

    findings: tuple[Finding, ...]

    @property
    def level(self) -> SensitivityLevel:
        """The most severe level found; ``NONE`` when nothing was."""
        best = SensitivityLevel.NONE
        for f in self.findings:
            if _SEVERITY[f.level] > _SEVERITY[best]:
                best = f.level
        return best

    @property
    def categories(self) -> frozenset[str]:
        """Special categories found (``health``, ``religion``...)."""
        return frozenset(
            f.category
            for f in self.findings
            if f.level is SensitivityLevel.SPECIAL and f.category is not None
        )

    @property
    def is_blocked(self) -> bool:
        """True when the text holds a secret or a regulated value and may not be stored as is."""
        return any(f.level in _BLOCKING for f in self.findings)


_BLOCKING: Final = frozenset({SensitivityLevel.SECRET, SensitivityLevel.REGULATED})
_SECRET = SensitivityLevel.SECRET
_REGULATED = SensitivityLevel.REGULATED
_SPECIAL = SensitivityLevel.SPECIAL


def _words(text: str) -> frozenset[str]:
    """A word set written as a whitespace-separated block (keeps long lists readable)."""
    return frozenset(text.split())
