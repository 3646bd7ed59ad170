"""A bank's branch or sort code and the account beside it (issue 29, blindfix9a).

blind9 stored "sort code 20-45-77, account 41234567", "店番 123 口座番号 4567890" and
``"sort_code": "…"`` in JSON: when a text names both a branch word (sort code, BSB, BLZ, code
guichet, agência, 店番…) and an account word, the value after each is the account's.
Words in ``data/bank_accounts.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.cue_sections import gate_words, sections
from userlore.policy.findings import _REGULATED

__all__ = ["bank_pairs", "gate_terms"]

_FILE: Final = "bank_accounts.yaml"
_SECTIONS: Final = ("branches", "accounts")


def gate_terms() -> list[str]:
    """The words the rule starts from (for the late hook's shared gate): an account word only
    counts beside a branch word."""
    return gate_words(_FILE, ("branches",))


_VALUE_GAP = re.compile(r"[\s\"':=：、,]{0,6}(?:no\.?\s*|n[º°]\.?\s*)?")
_BRANCH_VALUE = re.compile(r"\d{2,8}(?:[ \-]\d{1,8}){0,2}(?![\w])")
_ACCOUNT_VALUE = re.compile(r"\d[\d \-]{4,22}\d(?![\w])")


def bank_pairs(t: str, lowered: str) -> Iterator[_Hit]:
    """A branch or sort code and the account beside it, when the text names both."""
    d = sections(_FILE, _SECTIONS)
    branches = d["branches"].find(lowered)
    if not branches:
        return
    accounts = d["accounts"].find(lowered)
    if not accounts:
        return
    for cue, rule, pattern, least in (
        *((b, "bank_branch", _BRANCH_VALUE, 3) for b in branches),
        *((a, "bank_account", _ACCOUNT_VALUE, 6) for a in accounts),
    ):
        pos = _VALUE_GAP.match(t, cue.end())
        m = pattern.match(t, pos.end() if pos else cue.end())
        if m is not None and sum(ch.isdigit() for ch in m.group(0)) >= least:
            yield (_REGULATED, rule, m.start(), m.end(), "financial")
