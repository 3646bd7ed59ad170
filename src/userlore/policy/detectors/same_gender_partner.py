"""Sexual orientation implied by the speaker's own same-gender partner (issue 29, blindfix12b).

The vocabularies' ``couple`` lists (``special_lang._same_sex_couple``) read a partner and the
speaker's own gender said apart; a speaker says both at once more often: a male pronoun with
"boyfriend" (僕、彼氏と同棲してて), an adjective agreeing with the speaker ("casada con mi
mujer"), "as two women", or a scheme only same-sex couples use, taken up by the speaker
(パートナーシップ制度 in the flat search, "our same-sex marriage"). The forms are data
(``data/same_gender_partner.yaml``); a partner's gender alone, another's couple or news about
a law holds none of them.
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
# The cheap gate: no form can match without one of these (lower-cased, anywhere).
_GATE: Final = LiteralGate(
    [
        "same-sex",
        "same sex",
        "gay",
        "lesbian",
        "two men",
        "two women",
        "two guys",
        "two girls",
        "casad",
        "comprometid",
        "prometid",
        "emparejad",
        "matrimonio",
        "zwei frauen",
        "zwei männer",
        "lebenspartnerschaft",
        "marié",
        "pacsé",
        "fiancé",
        "en couple",
        "noiv",
        "união",
        "casamento",
        "同性",
        "彼氏",
        "旦那",
        "夫",
        "パートナーシップ",
    ]
)


@functools.cache
def _forms() -> re.Pattern[str]:
    raw: dict[str, Any] = data_yaml("same_gender_partner.yaml")
    forms = [str(f) for fs in raw["forms"].values() for f in fs]
    return re.compile("|".join(f"(?:{f})" for f in forms), re.IGNORECASE)


def same_gender_partner(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's same-gender partnership, said in one phrase (see the module docstring)."""
    if not _GATE.search(lowered):
        return
    for m in _forms().finditer(t):
        yield (_SPECIAL, _ORIENTATION, m.start(), m.end(), _ORIENTATION)
