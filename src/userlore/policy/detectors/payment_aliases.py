"""A payment alias after its service's name: a Pix key, a Bizum or Zelle phone, a UPI id, an
Alipay account (issue 29, blind13).

"minha chave Pix é o celular mesmo, +55 11 98765-4321": the phone number, e-mail address, tax id
or random key a payment service takes for an account is where money is sent, so after the
service's name (``data/payment_aliases.yaml``) the value is the user's financial identifier,
whatever its shape. Read in the clause after the name (a colon, a copula and a few words
between): a phone number of eight digits or more, an e-mail address or UPI id, or a UUID. An
amount ("paguei 50 reais por Pix", "R$ 1.000"), a count or a docs stand-in ("seu@email.com",
"name@bank") is none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.detectors.cue_sections import sections
from userlore.policy.findings import _REGULATED

__all__ = ["payment_aliases"]

RULE: Final = "payment_alias"
_FILE: Final = "payment_aliases.yaml"
_REACH: Final = 48

_VALUE = re.compile(
    r"[\w.+\-]{2,64}@[\w\-]+(?:\.[\w\-]+)*"  # an e-mail address or a UPI id
    r"|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"  # a random key
    r"|\+?\(?\d[\d ().\-]{6,20}\d"  # a phone number or a tax id
)
# Where the clause ends: a sentence mark, or a comma after the value's place.
_CLAUSE_END = re.compile(r"[.!?。！？\n;]\s|[!?。！？\n;]")
_CURRENCY = re.compile(r"[$€£¥￥₹円元]|r\$|\b(?:reais|real|euros?|dollars?|usd|brl|eur)\b")
_STAND_IN = re.compile(r"(?i)^(?:seu|su|your|votre|ihr|name|nome|nombre|nom|user|usuario)@")


def payment_aliases(t: str, lowered: str) -> Iterator[_Hit]:
    """Regulated hits for the values after payment services' names (see the module docstring)."""
    d = sections(_FILE, ("services", "other_numbers"))
    names = d["services"].find(lowered)
    others = [m.start() for m in d["other_numbers"].find(lowered)] if names else []
    for cue in names:
        stop = _CLAUSE_END.search(t, cue.end())
        end = min(len(t), cue.end() + _REACH, stop.start() if stop else len(t))
        for m in _VALUE.finditer(t, cue.end(), end):
            if any(cue.end() <= o < m.start() for o in others):
                break  # "the Zelle-paid ticket is 48213377": the ticket's number
            value = m.group(0)
            if "@" in value:
                if _STAND_IN.match(value) or _is_placeholder(value.split("@")[0]):
                    continue
            elif "-" in value and len(value) == 36 and value.count("-") == 4:
                pass
            elif sum(c.isdigit() for c in value) < 8 or _CURRENCY.search(
                lowered, max(0, m.start() - 4), min(len(t), m.end() + 8)
            ):
                continue
            yield (_REGULATED, RULE, m.start(), m.end(), "financial")
            break
