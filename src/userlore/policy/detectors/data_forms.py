"""Forms of one special category kept as data: a gate of literals and regular expressions.

Shared by the detectors whose whole rule is a data file (``same_gender_partner.yaml``,
``record_forms.yaml``): ``forms`` (lists by language, any of them matching in any text) and
``gate`` (lower-cased literals, one of which every form holds), so adding a form or a language
is a data entry, not code.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import LiteralGate

__all__ = ["form_hits"]


@functools.cache
def _forms(filename: str) -> tuple[LiteralGate, re.Pattern[str]]:
    """The file's cheap gate and its forms, one case-insensitive alternation."""
    raw: dict[str, Any] = data_yaml(filename)
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    gate = LiteralGate(str(w).casefold() for w in raw["gate"])
    return gate, re.compile("|".join(f"(?:{f})" for f in forms), re.IGNORECASE)


def form_hits(t: str, lowered: str, filename: str, category: str) -> Iterator[_Hit]:
    """A ``category`` hit for each form of ``filename`` in ``t`` (none when the gate is shut)."""
    gate, forms = _forms(filename)
    if not gate.search(lowered):
        return
    for m in forms.finditer(t):
        yield (_SPECIAL, category, m.start(), m.end(), category)
