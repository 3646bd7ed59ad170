"""Social-security and pension numbers typed in groups, after their country's words (issue 29,
blindfix8a).

``said_values.grouped_ids`` checks a grouped run beside an id word against one scheme per
length; blind8 wrote an SSN as "my social, … mine is 219 09 4471", and fresh text the other
countries' social-security numbers, which python-stdnum does not hold (Portugal's NISS, Brazil's
PIS, Spain's NSS, Germany's Rentenversicherungsnummer with its letter, Japan's 基礎年金番号, the
UK's National Insurance number). Each country's words name its schemes
(``data/social_ids.yaml``); a run after one of them, of a scheme's length and valid by its
check, is the number.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

from userlore.policy.cue_data import alternation
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _REGULATED
from userlore.policy.literal_gate import LiteralGate

__all__ = ["social_ids"]

_AFTER: Final = 100
# Digits, in groups or not (an id said in words is one run), a letter inside allowed
# (the RV-Nummer's "12 150385 M 047").
_RUN = re.compile(
    r"(?<![\w.\-/])(?:[A-Z]{2} ?)?\d{1,12}(?:[ .\-/](?:\d{1,8}|[A-Z](?= ?\d)))*(?: ?[A-D])?(?![\w])"
)


def _weighted(weights: tuple[int, ...], modulus: int) -> Callable[[str], int]:
    def total(digits: str) -> int:
        return sum(int(d) * w for d, w in zip(digits, weights, strict=False)) % modulus

    return total


def _pt_niss(v: str) -> bool:
    if len(v) != 11 or not v.isdigit() or v[0] not in "12":
        return False
    s = _weighted((29, 23, 19, 17, 13, 11, 7, 5, 3, 2), 10)(v)
    return int(v[10]) == 9 - s


def _br_pis(v: str) -> bool:
    if len(v) != 11 or not v.isdigit() or len(set(v)) == 1:
        return False
    r = 11 - _weighted((3, 2, 9, 8, 7, 6, 5, 4, 3, 2), 11)(v)
    return int(v[10]) == (0 if r >= 10 else r)


def _es_nss(v: str) -> bool:
    if len(v) != 12 or not v.isdigit():
        return False
    head = int(v[:2]) * 10**8 + int(v[2:10]) if v[2] != "0" else int(v[:10])
    return int(v[10:]) == head % 97 or int(v[10:]) == int(v[:10]) % 97


def _de_rvnr(v: str) -> bool:
    """Area (2), birth date (6), the surname's letter, a serial (2), a check digit."""
    if len(v) != 12 or not (v[:8].isdigit() and v[8].isalpha() and v[9:].isdigit()):
        return False
    digits = v[:8] + f"{ord(v[8].upper()) - 64:02d}" + v[9:11]
    total = 0
    for d, w in zip(digits, (2, 1, 2, 5, 7, 1, 2, 1, 2, 1, 2, 1), strict=False):
        p = int(d) * w
        total += p // 10 + p % 10
    return total % 10 == int(v[11])


def _jp_pension(v: str) -> bool:
    return len(v) == 10 and v.isdigit()  # four then six digits; no check digit


_NINO = re.compile(r"[A-CEGHJ-PR-TW-Z]{2}\d{6}[A-D]|QQ\d{6}[A-D]")


def _gb_nino(v: str) -> bool:
    return _NINO.fullmatch(v.upper()) is not None


def _stdnum(name: str) -> Callable[[str], bool]:
    def valid(v: str) -> bool:
        try:
            return bool(importlib.import_module(name).is_valid(v))
        except Exception:  # a scheme that cannot read the value does not vouch
            return False

    return valid


_SCHEMES: Final[dict[str, Callable[[str], bool]]] = {
    "us_ssn": _stdnum("stdnum.us.ssn"),
    "ca_sin": _stdnum("stdnum.ca.sin"),
    "gb_nhs": _stdnum("stdnum.gb.nhs"),
    "gb_nino": _gb_nino,
    "es_nss": _es_nss,
    "de_rvnr": _de_rvnr,
    "de_idnr": _stdnum("stdnum.de.idnr"),
    "fr_nir": _stdnum("stdnum.fr.nir"),
    "pt_niss": _pt_niss,
    "br_pis": _br_pis,
    "br_cpf": _stdnum("stdnum.br.cpf"),
    "jp_pension": _jp_pension,
    "jp_in": _stdnum("stdnum.jp.in_"),
    "cn_ric": _stdnum("stdnum.cn.ric"),
}


@dataclass(frozen=True, slots=True)
class _Country:
    words: re.Pattern[str]
    schemes: tuple[Callable[[str], bool], ...]


@dataclass(frozen=True, slots=True)
class _Data:
    countries: tuple[_Country, ...]
    literals: LiteralGate


@functools.cache
def _data() -> _Data:
    raw: dict[str, Any] = data_yaml("social_ids.yaml")
    countries = []
    words: list[str] = []
    for entry in raw["countries"].values():
        terms = [str(w).casefold() for w in entry["words"]]
        words += terms
        countries.append(
            _Country(re.compile(alternation(terms)), tuple(_SCHEMES[s] for s in entry["schemes"]))
        )
    return _Data(tuple(countries), LiteralGate(words))


def social_ids(t: str, lowered: str) -> Iterator[_Hit]:
    """Regulated hits for a social-security or pension number after its country's words."""
    d = _data()
    if not d.literals.search(lowered):
        return
    seen: set[int] = set()
    for country in d.countries:
        for cue in country.words.finditer(lowered):
            for run in _RUN.finditer(t, cue.end(), min(len(t), cue.end() + _AFTER)):
                value = re.sub(r"[ .\-/]", "", run.group(0))
                if run.start() in seen or sum(ch.isdigit() for ch in value) < 6:
                    continue
                if any(valid(value) for valid in country.schemes):
                    seen.add(run.start())
                    yield (_REGULATED, "social_id", *run.span(), "government_id")
