"""Sexual orientation implied by the speaker's own same-gender partner (issue 29, blindfix12b).

The vocabularies' ``couple`` lists (``special_lang._same_sex_couple``) read a partner and the
speaker's own gender said apart; a speaker says both at once more often: a male pronoun with
"boyfriend" (僕、彼氏と同棲してて), an adjective agreeing with the speaker ("casada con mi
mujer"), "as two women", or a scheme only same-sex couples use, taken up by the speaker
(パートナーシップ制度 in the flat search, "our same-sex marriage"). The forms are data
(``data/same_gender_partner.yaml``, with the literals that gate them); a partner's gender alone,
another's couple or news about a law holds none of them. Since blindfix13b they also read "we're
two dads" and "my partner is also a woman" (パートナーも女性なので: "also" is the speaker's gender).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import LiteralGate

__all__ = ["same_gender_partner"]

_ORIENTATION: Final = "sexual_orientation"


@functools.cache
def _forms() -> tuple[LiteralGate, re.Pattern[str]]:
    """The data's cheap gate (a literal every form holds, lower-cased) and its forms."""
    raw: dict[str, Any] = data_yaml("same_gender_partner.yaml")
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    gate = LiteralGate(str(w).casefold() for w in raw["gate"])
    return gate, re.compile("|".join(f"(?:{f})" for f in forms), re.IGNORECASE)


def same_gender_partner(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's same-gender partnership, said in one phrase (see the module docstring)."""
    gate, forms = _forms()
    if not gate.search(lowered):
        return
    for m in forms.finditer(t):
        yield (_SPECIAL, _ORIENTATION, m.start(), m.end(), _ORIENTATION)
