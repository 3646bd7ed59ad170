"""A bank account's other part told just before it (issue 29, blindfix18a).

An account is often written as two numbers, each after its own short label: a post office's
branch number and the account ("局號 0311247 帳號 0582963"), a sort code or a bank code and the
account. The account's rule names the second; the first stayed in stored evidence. Here a run
of five to twenty digits that stands straight before an account the floor already named, with
only a short label between them (one word or up to four characters of any script, an optional
colon), is redacted as a part of the same account. Nothing here is a word list: the label is
read by its length and its letters, so any language's is read the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _REGULATED

__all__ = ["account_parts"]

_ACCOUNT_RULES = frozenset({"bank_account", "cued_identifier"})
# A digit run, then a label of letters (a word, or up to four CJK characters), then the account.
_PART_BEFORE = re.compile(
    r"(?<![\w.,])(\d(?:[ \-]?\d){4,19})[ \t]*[:：]?[ \t]*"
    r"(?:[^\W\d_]{1,16}\.?|[^\W\d_]{1,4})[ \t]*[:：#]?[ \t]*$"
)
_REACH = 48


def account_parts(t: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The run just before each account the rules above named (see the module docstring)."""
    for level, rule, start, _end, category in hits:
        if level is not _REGULATED or rule not in _ACCOUNT_RULES or category != "financial":
            continue
        m = _PART_BEFORE.search(t, max(0, start - _REACH), start)
        if m is None or any(s <= m.start(1) < e for _, _, s, e, _ in hits):
            continue
        yield (_REGULATED, "bank_account", m.start(1), m.end(1), "financial")
