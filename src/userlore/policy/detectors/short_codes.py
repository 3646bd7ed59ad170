"""Short codes after their word: a one-time code a bank or service sends (mTAN, OTP, 动态码),
a card's security code (CVV, cryptogramme, Prüfnummer), often in the sentence after the card
(issue 29, blindfix9a).

The digits that follow the word shortly after it (four to eight for a one-time code, three or
four for a card's check), not a count or a year. Words in ``data/short_codes.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.detectors.cue_sections import gate_words, sections, starting
from userlore.policy.findings import _REGULATED, _SECRET, SensitivityLevel

__all__ = ["card_checks", "gate_terms", "one_time_codes"]

_FILE: Final = "short_codes.yaml"
_SECTIONS: Final = ("one_time", "card_checks")


def gate_terms() -> list[str]:
    """The words either rule starts from (for the late hook's shared gate)."""
    return gate_words(_FILE, _SECTIONS)


def one_time_codes(t: str, lowered: str) -> Iterator[_Hit]:
    """Four to eight digits shortly after a one-time code's word."""
    return _after(t, lowered, "one_time", 4, 8, _SECRET, "one_time_value")


def card_checks(t: str, lowered: str) -> Iterator[_Hit]:
    """Three or four digits shortly after a card security code's word."""
    return _after(t, lowered, "card_checks", 3, 4, _REGULATED, "check_digits")


# Digits set off from Latin letters (a CJK particle may touch them: "セキュリティコードは218"),
# or three or four single digits spaced out as read off the card ("pone 4 1 7"); a colon before
# them is a label's ("コード：293"), unless a digit stands before it (a time, "12:30").
_DIGIT_RUN = re.compile(
    r"(?<![A-Za-z0-9_.,/\-])(?<!\d:)(?:\d(?: \d){2,3}(?! ?\d)|\d+)(?![A-Za-z0-9_%/:]|[.,]\d)"
)
_REACH: Final = 40


def _after(
    t: str, lowered: str, section: str, least: int, most: int, level: SensitivityLevel, rule: str
) -> Iterator[_Hit]:
    """A run of ``least`` to ``most`` digits shortly after a cue, not a count or a year."""
    found = sections(_FILE, _SECTIONS)[section].find(lowered)
    counts = cues().counts
    for cue in found:
        for m in starting(_DIGIT_RUN, t, cue.end(), _REACH):
            run = m.group(0).replace(" ", "")
            if not least <= len(run) <= most or is_year(run):
                continue
            after = t[m.end() : m.end() + 12].strip().split(" ")[0].casefold()
            if after in counts:
                continue
            yield (level, rule, m.start(), m.end(), "financial" if level is _REGULATED else None)
            break
