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

from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.data_forms import form_hits

__all__ = ["same_gender_partner"]

_ORIENTATION: Final = "sexual_orientation"


def same_gender_partner(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's same-gender partnership, said in one phrase (see the module docstring)."""
    return form_hits(t, lowered, "same_gender_partner.yaml", _ORIENTATION)
