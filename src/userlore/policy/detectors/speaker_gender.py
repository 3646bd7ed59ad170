"""A same-gender couple whose speaker's gender is said in another clause (issue 29, blindfix14c).

blind14 quoted "mi marido y yo llevamos el mismo traje, soy Javier por cierto", "ma copine et moi
… je m'appelle Chloé" and "彼氏と同棲してる…僕、営業部の田中です": the partner's gender in one
clause, the speaker's in another, by a gendered first name in a self-introduction or a
first-person pronoun only one gender uses. The forms, names and pronouns are data
(``data/speaker_gender.yaml``); the partners are the vocabularies' ``couple`` lists. A woman's
"mi marido", another's name ("this is Sarah, my wife") or a name without a partner state
nothing.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.special_lang import languages
from userlore.policy.findings import _SPECIAL
from userlore.policy.literal_gate import LiteralGate

__all__ = ["speaker_gender_couple"]

_ORIENTATION: Final = "sexual_orientation"
_GENDERS: Final = ("male", "female")  # the order of each vocabulary's ``couple`` pairs


@dataclass(frozen=True, slots=True)
class _Data:
    gate: LiteralGate
    partner_gate: LiteralGate
    introductions: re.Pattern[str]
    pronouns: tuple[re.Pattern[str] | None, ...]  # by gender, as ``_GENDERS``
    names: dict[str, str]  # unaccented name -> gender
    han_final: dict[str, str]  # a Chinese given name's last character -> gender
    not_partner: re.Pattern[str]  # a partner word that is someone else's or no partner


def _plain(word: str) -> str:
    """``word`` without its accents ("Chloé" -> "Chloe")."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


@functools.cache
def _data() -> _Data:
    raw: dict[str, Any] = data_yaml("speaker_gender.yaml")
    forms = [str(f) for fs in raw["introductions"].values() for f in fs]
    intro = "|".join(f"(?:{f.replace('(?P<name>', f'(?P<name{i}>')})" for i, f in enumerate(forms))
    pronouns = tuple(
        re.compile("|".join(raw["pronouns"][g])) if raw["pronouns"][g] else None for g in _GENDERS
    )
    names = {_plain(str(n)): g for g in _GENDERS for n in raw["names"][g]}
    han = {str(c): g for g in _GENDERS for c in raw["han_final"][g]}
    gate = LiteralGate(str(w).lower() for w in raw["gate"])
    not_partner = re.compile("|".join(str(f) for f in raw["not_partner"]))
    partners = LiteralGate(str(w).lower() for w in raw["partner_gate"])
    return _Data(gate, partners, re.compile(intro), pronouns, names, han, not_partner)


def _speaker_genders(t: str, data: _Data) -> set[str]:
    """The genders the speaker gives themself in ``t`` (a name in an introduction, a pronoun)."""
    found: set[str] = set()
    for m in data.introductions.finditer(t):
        name = next(v for k, v in m.groupdict().items() if v is not None and k.startswith("name"))
        gender = data.names.get(_plain(name))
        if gender is None and not name.isascii() and len(name) in (2, 3):
            gender = data.han_final.get(name[-1])
        if gender is not None:
            found.add(gender)
    for gender, pronoun in zip(_GENDERS, data.pronouns, strict=True):
        if pronoun is not None and pronoun.search(t):
            found.add(gender)
    return found


def speaker_gender_couple(t: str, lowered: str) -> Iterator[_Hit]:
    """The speaker's partner of the gender the speaker names elsewhere (the module docstring)."""
    data = _data()
    if not data.partner_gate.search(lowered) or not data.gate.search(lowered):
        return
    genders = _speaker_genders(t, data)
    if len(genders) != 1:
        return  # none, or a contradiction (two names): nothing to read
    (gender,) = genders
    for lang in languages():
        if not lang.couple:
            continue
        partner, _own = lang.couple[_GENDERS.index(gender)]
        for m in partner.finditer(t):
            if any(
                o.start() < m.end() and m.start() < o.end()
                for o in data.not_partner.finditer(t, max(0, m.start() - 2), m.end() + 1)
            ):
                continue
            yield (_SPECIAL, _ORIENTATION, m.start(), m.end(), _ORIENTATION)
            return
