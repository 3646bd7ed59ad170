"""A card's expiry printed after its number (issue 29, blind17).

blind17 stored "meine Kreditkarte (Visa) 4127 5730 0819 6640, Ablauf 09/28": the card was
redacted, its expiry kept; with the number gone the month and year say little, but a card's
number, expiry and security code are one record and a leak of one is read beside the others.
So a month and year (``MM/YY`` or ``MM/YYYY``) in the clause right after a card number (a
Luhn-valid run of 13 to 19 digits some rule already named) is redacted with it, whatever word
stands between ("exp", "Ablauf", "caduca", "有効期限") or none: no language is named. An
expiry alone ("my card expires 11/27") is no value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.payment import card_number_ok
from userlore.policy.findings import _BLOCKING, _REGULATED

__all__ = ["card_expiry"]

_REACH: Final = 40
_EXPIRY = re.compile(r"(?<![\d/.])(?:0[1-9]|1[0-2])\s?/\s?(?:\d{2}|20\d{2})(?![\d/.])")
# A clause's end; an abbreviation's dot is none ("venc. 12/27"), nor a line break (a card's
# photo read line by line: "…\nVALID THRU 04/29"); a digit between ends the reading anyway.
_CLAUSE_END = re.compile(r"[!?;。！？]|\.(?=\s+[A-Z]|\s*$)")
_DIGITS = re.compile(r"\d")
_CARD_DIGITS: Final = (13, 19)


def _is_card_number(value: str) -> bool:
    """A Luhn-valid run of 13 to 19 digits with a card's prefix, separators aside."""
    digits = "".join(ch for ch in value if ch.isdigit())
    if not _CARD_DIGITS[0] <= len(digits) <= _CARD_DIGITS[1] or len(digits) * 2 < len(value):
        return False
    return card_number_ok(digits)


def card_expiry(t: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The month and year in the clause after each card number named in ``hits``."""
    if "/" not in t:
        return
    for level, _rule, start, end, _category in hits:
        if level not in _BLOCKING or not _is_card_number(t[start:end]):
            continue
        stop = _CLAUSE_END.search(t, end, end + _REACH)
        hi = stop.start() if stop else min(len(t), end + _REACH)
        m = _EXPIRY.search(t, end, hi)
        if m is not None and not _DIGITS.search(t, end, m.start()):
            yield (_REGULATED, "card_expiry", m.start(), m.end(), "financial")
