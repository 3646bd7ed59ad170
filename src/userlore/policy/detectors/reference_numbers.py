"""A document's or a customer's number is no amount (issue 29, blind15).

"facture n° FA-2024-0318, client 000742" read both numbers as the user's money (an invoice word
makes a sentence's amounts the user's). An amount is never printed with leading zeros
("000742", "04412"), nor glued by a dash or a slash to a letter prefix ("FA-2024-0318",
"INV-2024-0097", "NF-2024-1203"), nor a year joined to a serial ("2024-0318"): those are
invoice, client, order and ticket numbers in every language.
"""

from __future__ import annotations

import re

__all__ = ["reference_number"]

_LEADING_ZERO = re.compile(r"0\d")
_YEAR_SERIAL = re.compile(r"(?:19|20)\d\d[-/]\d{2,6}")
_GROUP_BEFORE = re.compile(r"\d[ .]$")
_GROUP_AFTER = re.compile(r"[ .]\d")


def reference_number(t: str, m: re.Match[str]) -> bool:
    """Whether the number ``m`` matched in ``t`` is a reference (see the module docstring)."""
    value = m.group(0).strip()
    start = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
    end = start + len(value)
    if _GROUP_BEFORE.search(t, max(0, start - 2), start) or _GROUP_AFTER.match(t, end):
        return False  # one group of a longer number ("13 45 678 901 040"): its part
    if _LEADING_ZERO.match(value) or _YEAR_SERIAL.fullmatch(value):
        return True
    return start >= 2 and t[start - 1] in "-/" and t[start - 2].isalpha()
