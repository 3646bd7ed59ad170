"""A criminal record of the speaker's, said by its forms (issue 29, blindfix19c).

blind19 quoted "the background check flagged my 2016 possession charge again" and
"執行猶予中なので海外出張は難しいと上司に説明したい": a charge of the speaker's named by its year
or its offence between "my" and the noun, and a sentence still running with the subject left
out ("on probation for another year, …", "bin noch bis Herbst auf Bewährung", 保護観察中だから).
The vocabularies read the bare terms and give them to whoever the sentence names, so a boss told
about it ("上司に説明したい") took the sentence. The forms are data
(``data/record_forms.yaml``, with the literals that gate them): "my" before the offence, a
clause that opens with the running sentence, a diversion programme the speaker did. Another's
charge ("my brother's possession charge"), a topic ("what is 執行猶予?") and a job's probation
period hold none of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.data_forms import form_hits

__all__ = ["record_forms"]

_CRIMINAL: Final = "criminal_record"


def record_forms(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's own charge or running sentence (see the module docstring)."""
    return form_hits(t, lowered, "record_forms.yaml", _CRIMINAL)
