"""A person's identifier with its check part said apart, in text of any language (issue 29,
blindfix14c).

blind14 stored "Mon numèro de seguretat sociala es 1 85 03 31 555 123 clau 48" (Occitan): the
floor reads a French NIR beside "sécu" and "clé" (``check_parts``), but no rule reads the
Occitan words, and the identifier took the sentence for Catalan. Whatever the words, a long
digit run, one word, then two digits that together validate under a person's stdnum module
(the registry walk of ``detectors/registry``) is that identifier, when the two digits are the
module's check: of the hundred values they could take, only the one said is valid under it (a
mod-97 key). A one-digit check validates one number in ten, and the registry's hundreds of
modules would take most long numbers somewhere; a module that takes any thirteen digits says
nothing. On random runs of eleven to sixteen digits with a word and two digits after them,
about one in 250 passes (a NIR's shape, a Moroccan ICE, which the registry counts as a
person's): an id-shaped number redacted from evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, has_decimal
from userlore.policy.detectors.registry import _valid_under
from userlore.policy.findings import _REGULATED

__all__ = ["keyed_ids"]

_RULE: Final = "keyed_identifier"
# The run: eleven digits or more (a NIR has thirteen before its key; fewer is a phone number).
# A run of digits (single spaces, dots or dashes between), one word, then a two-digit part
# ("… 555 123 clau 48", "… 123 key: 48").
_KEYED = re.compile(
    r"(?<![\w.,\-])(?P<run>\d(?:[ .\-]?\d){10,})\s+[^\W\d_]{1,12}\s*[:=]?\s*"
    r"(?P<part>\d{2})(?![\w.,]\d|\w)"
)


def keyed_ids(t: str) -> Iterator[_Hit]:
    """Runs and their check parts that validate as a person's id (see the module docstring)."""
    if not has_decimal(t):  # every match starts with a digit (``\d``: has_decimal's own test)
        return
    for m in _KEYED.finditer(t):  # a run of eleven digits or more: most texts hold none
        compact = re.sub(r"\D", "", m.group("run")) + m.group("part")
        if any(
            mod.personal and _two_digit_check(mod.is_valid, compact)
            for mod in _valid_under(compact)
        ):
            yield (_REGULATED, _RULE, m.start(), m.end(), None)


def _two_digit_check(is_valid: Callable[[str], bool], compact: str) -> bool:
    """Of the hundred values of ``compact``'s last two digits, only its own is valid."""
    body = compact[:-2]
    valid = 0
    for v in range(100):
        try:
            valid += bool(is_valid(f"{body}{v:02d}"))
        except Exception:  # a module that chokes on a shape it does not expect: not valid
            continue
        if valid > 1:
            return False
    return valid == 1
