"""An IBAN-shaped value after the word "IBAN" is the user's account, mistyped or not (issue 29,
blind15).

``payment._ibans`` takes a run whose country length and checksum hold; "IBAN
DE7050010517540123456789" (24 characters where Germany's have 22) was stored. A user who pastes
a value after "IBAN" has given the account, as ``unvalidated_ids`` does for national ids after
their word: here the first value in the clause after the word, shaped as a known IBAN country's
code, two digits and ten to thirty letters and digits (grouped by spaces or dashes), with eight
digits or more. Masked values ("DE89 **** …", "FR76 •••• …") and placeholders ("DE00 0000 …")
do not have that shape; a question about the format has no value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.payment import _IBAN_LENGTHS
from userlore.policy.findings import _REGULATED

__all__ = ["iban_words"]

RULE: Final = "iban_after_word"
# The word, not inside a longer Latin word ("IBAN-Nummer" and "IBAN账号" are the word).
_WORD = re.compile(r"(?<![A-Za-z])iban(?![a-z])", re.IGNORECASE)
# Up to 24 characters of the clause before the value, with no digit and no stop.
_VALUE = re.compile(
    r"[^\d\n.!?。！？;*•]{0,24}?(?<![A-Za-z0-9])"
    r"(?P<value>[A-Za-z]{2}\d{2}(?:[ \-]?[A-Za-z0-9]){10,30})(?![A-Za-z0-9*•])"
)
_MIN_DIGITS: Final = 8


def iban_words(t: str) -> Iterator[_Hit]:
    """Regulated hits for IBAN-shaped values after the word (see the module docstring)."""
    if "iban" not in t.lower():
        return
    for w in _WORD.finditer(t):
        m = _VALUE.match(t, w.end())
        if m is None:
            continue
        value = m.group("value").rstrip(" -")
        compact = re.sub(r"[ \-]", "", value).upper()
        if (
            compact[:2] not in _IBAN_LENGTHS
            or sum(c.isdigit() for c in compact) < _MIN_DIGITS
            or _is_placeholder(compact[4:])
        ):
            continue
        start = m.start("value")
        yield (_REGULATED, RULE, start, start + len(value), "financial")
