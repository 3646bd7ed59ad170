"""An amount's minor unit after the user's amount is the same sum (issue 29, blind14).

"Steuererstattung kam: eintausendzweihundert Euro und achtunddreißig Cent" had its euros
redacted and its cents stored: every money rule reads the major amount, none the "and 38 cents"
after it. Here, right after a blocking financial hit, an optional major unit, a joiner and a
number of one or two digits (or a number word under a hundred) before a minor unit (cents,
pence, céntimos, centimes, centavos, 毛/角/分: ``data/minor_units.yaml``) is taken too. A
price's cents ("the ticket costs 2 euros and 90 cents") follow no hit and stay.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.cue_data import literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _BLOCKING, _REGULATED
from userlore.policy.literal_gate import LiteralGate
from userlore.policy.spoken import word_amount

__all__ = ["minor_units"]

_HUNDRED: Final = 100


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@functools.cache
def _data() -> tuple[LiteralGate, re.Pattern[str]]:
    raw: dict[str, Any] = data_yaml("minor_units.yaml")
    units = [str(u).casefold() for us in raw["units"].values() for u in us]
    joiners = [str(j).casefold() for js in raw["joiners"].values() for j in js]
    majors = [str(m).casefold() for m in raw["majors"]]
    latin = literal_alternation([u for u in units if not _CJK.search(u)])
    cjk = literal_alternation([u for u in units if _CJK.search(u)])
    pattern = re.compile(
        rf"(?:\s*(?:{literal_alternation(majors)})(?![^\W\d_]))?"
        rf"(?:\s*[,，]?\s*(?:{literal_alternation(joiners)})\s+|\s*)"
        rf"(?P<v>\d{{1,2}}|[^\W\d_][\w-]*)(?:\s*(?:{latin})(?![^\W\d_])|(?:{cjk}))"
    )
    return LiteralGate(units), pattern


def _cents_word(word: str) -> bool:
    """A number word under a hundred ("achtunddreißig", "trente-huit", "forty")."""
    value = word_amount(word, minimum=1)
    return value is not None and value < _HUNDRED


def minor_units(t: str, lowered: str, hits: list[_Hit]) -> Iterator[_Hit]:
    """The minor amount right after each financial hit of ``hits`` (see the module docstring)."""
    money = [h for h in hits if h[0] in _BLOCKING and h[4] == "financial"]
    if not money:
        return
    gate, pattern = _data()
    if not gate.search(lowered) or len(lowered) != len(t):
        return
    for h in money:
        m = pattern.match(lowered, h[3])
        if m is not None and (m.group("v").isdigit() or _cents_word(m.group("v"))):
            yield (_REGULATED, "financial_figure", m.start("v"), m.end("v"), "financial")
