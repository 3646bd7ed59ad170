"""A bank's branch or sort code and the account beside it (issue 29, blindfix9a).

blind9 stored "sort code 20-45-77, account 41234567", "店番 123 口座番号 4567890" and
``"sort_code": "…"`` in JSON: when a text names both a branch word (sort code, BSB, BLZ, code
guichet, agência, 店番…) and an account word, the value after each is the account's.
An account's type word (普通, 当座, Girokonto, compte courant, cuenta corriente, conta
corrente, checking…) names the account the number right after it belongs to, with no branch
word: :func:`typed_accounts`. Words in ``data/bank_accounts.yaml``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.common import _Hit, is_year
from userlore.policy.detectors.cue_sections import gate_words, sections
from userlore.policy.findings import _REGULATED

__all__ = ["bank_pairs", "gate_terms", "typed_accounts"]

_FILE: Final = "bank_accounts.yaml"
_SECTIONS: Final = ("branches", "accounts", "account_types")


def gate_terms() -> list[str]:
    """The words the rule starts from (for the late hook's shared gate): an account word only
    counts beside a branch word."""
    return gate_words(_FILE, ("branches", "account_types"))


_VALUE_GAP = re.compile(r"[\s\"':=：、,]{0,6}(?:no\.?\s*|n[º°]\.?\s*)?")
# Or Japan Post's branch in three kanji numerals ("店名〇一八"; the folded view reads 〇 as "O").
_BRANCH_VALUE = re.compile(
    r"\d{2,8}(?:[ \-]\d{1,8}){0,2}(?![\w])|[〇O零一二三四五六七八九]{3}(?![\w])"
)
_KANJI_NUMERALS = frozenset("〇O零一二三四五六七八九")
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
        if m is not None and _digits(m.group(0)) >= least:
            yield (_REGULATED, rule, m.start(), m.end(), "financial")


def _digits(value: str) -> int:
    """Digits of ``value``; kanji numerals count where one is not a lookalike "O"."""
    digits = sum(ch.isdigit() for ch in value)
    if digits or not any(ch in _KANJI_NUMERALS and ch != "O" for ch in value):
        return digits
    return sum(ch in _KANJI_NUMERALS for ch in value)


_TYPED_GAP = re.compile(
    r"[\s\"':=：、,]{0,4}(?:(?:no|nr|n[º°]|number|num|#)\.?[\s:：]*|口座)?(?:番号)?[はが]?[\s:：]*"
)
# Not an amount, a rate or a year: what follows the number.
_NOT_AN_ACCOUNT = re.compile(r"\s?(?:[%％円元€$£]|[.,]\d)")


def typed_accounts(t: str, lowered: str) -> Iterator[_Hit]:
    """The number right after an account's type word ("普通 1234567", "Girokonto Nr. 4711 0815
    22"): six digits or more, not an amount, a rate, a count or a year."""
    counts = cues().counts
    for cue in sections(_FILE, _SECTIONS)["account_types"].find(lowered):
        gap = _TYPED_GAP.match(lowered, cue.end())
        m = _ACCOUNT_VALUE.match(t, gap.end() if gap else cue.end())
        if m is None or sum(ch.isdigit() for ch in m.group(0)) < 6 or is_year(m.group(0)):
            continue
        if _NOT_AN_ACCOUNT.match(t, m.end()):
            continue
        after = t[m.end() : m.end() + 16].strip().split(" ")[0].casefold()
        if after in counts:
            continue
        yield (_REGULATED, "bank_account", m.start(), m.end(), "financial")
