"""Numbers that are operands of a check part's arithmetic, not values (issue 29).

A question about how an identifier's check letter or key is computed names the identifier and
some numbers ("¿Cómo se calcula la letra del DNI? Es el resto de dividir entre 23", "comment on
calcule la clé ? 97 moins le reste"); the gate read them as a credential beside its cue. In a
text that asks how something is computed, a number of one to three digits right after an
operator ("entre 23", "mod 97", "模11") or right before one ("97 moins") is blanked before the
gate's credential test. Words in ``data/check_arithmetic.yaml``.
"""

from __future__ import annotations

import functools
import re

from userlore.policy.cue_data import alternation, flat, literal_alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import blank_spans, has_digit

__all__ = ["blank_operands"]


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    raw = data_yaml("check_arithmetic.yaml")
    after = literal_alternation(flat(raw["after"]))
    before = literal_alternation(flat(raw["before"]))
    return (
        re.compile(alternation(flat(raw["asks"]))),
        re.compile(rf"(?:(?<![^\W\d_])(?:{after})|(?:{after})(?=\d))\s?(\d{{1,3}})(?!\d)"),
        re.compile(rf"(?<!\d)(\d{{1,3}})\s?(?:{before})(?![^\W\d_])"),
    )


def blank_operands(text: str) -> str:
    """``text`` with the operands of a computation blanked (same length), when it asks how
    something is computed; else ``text`` unchanged."""
    if not has_digit(text):
        return text
    lowered = text.lower()
    asks, after, before = _patterns()
    if len(lowered) != len(text) or not asks.search(lowered):
        return text
    return blank_spans(
        text, [m.span(1) for m in (*after.finditer(lowered), *before.finditer(lowered))]
    )
