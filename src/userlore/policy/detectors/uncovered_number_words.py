"""Number words under a thousand of every language CLDR spells out, for :mod:`.uncovered_money`.

The words of CLDR's spell-outs of 1 to 999 ("dwieście", "cinquanta", "caoga"), those only the
hundreds use ("stě", "daang"), and a neighbour's or a dialect's spelling one edit from one: the
words of a price said before a currency name (blindfix18b).
"""

from __future__ import annotations

import functools
import re
from typing import Final

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.uncovered_magnitudes import _SMALL_NUMBERS, _WORD_MEMO
from userlore.policy.detectors.uncovered_shapes import _engine, _said

__all__: list[str] = []

_NUMBER_MIN: Final = 3  # letters of a number word counted ("sto", "dvě"; not "o" or "un")
_NEAR_NUMBER_MIN: Final = 4  # letters of a number word a dialect's spelling may be one edit from


@built_table("uncovered_money.every_number_word")
def _every_number_word() -> frozenset[str]:
    """The words of CLDR's spell-outs of 1 to 999 (:data:`_SMALL_NUMBERS`) in every language
    it spells out, bare, three letters or more: "dwieście", "cinquanta", "caoga"."""
    from unicode_rbnf import RbnfEngine

    return frozenset(
        w
        for language in RbnfEngine.get_supported_languages()
        for w in _small_words(language)
        if len(w) >= _NUMBER_MIN
    )


@built_table("uncovered_money.hundred_words")
def _hundred_words() -> frozenset[str]:
    """The words CLDR's spell-outs of 100 to 900 use and those of 1 to 99 do not, in every
    language it spells out ("stě", "sto", "daang", "cents"): a run ending in one is a round
    sum of hundreds, said as a thing's price is ("dvě stě korun", "limang daang piso")."""
    from unicode_rbnf import RbnfEngine

    hundreds = tuple(range(100, 1000, 100))
    below = tuple(n for n in _SMALL_NUMBERS if n < 100)
    out: set[str] = set()
    for language in RbnfEngine.get_supported_languages():
        out |= _small_words(language, hundreds) - _small_words(language, below)
    return frozenset(w for w in out if len(w) >= _NUMBER_MIN)


@functools.cache
def _near_hundreds() -> frozenset[str]:
    words = {w for w in _hundred_words() if len(w) >= _NEAR_NUMBER_MIN and w.isalpha()}
    return frozenset(words | {w[:i] + w[i + 1 :] for w in words for i in range(len(w))})


def _hundred(bare: str) -> bool:
    """``bare`` is a hundred word of :func:`_hundred_words`, or one edit from one ("daang" of
    "daan")."""
    if bare in _hundred_words():
        return True
    near = _near_hundreds()
    long_enough = len(bare) >= _NEAR_NUMBER_MIN and bare.isalpha()
    return long_enough and (
        bare in near or any(bare[:i] + bare[i + 1 :] in near for i in range(len(bare)))
    )


def _small_words(language: str, numbers: tuple[int, ...] = _SMALL_NUMBERS) -> set[str]:
    engine = _engine(language)
    if engine is None:
        return set()
    out: set[str] = set()
    for n in numbers:
        try:
            said = _said(engine, n)
        except ValueError:
            continue
        out.update(w for text in said for w in re.split(r"[\s\-\u00ad]+", text) if w)
    return out


@functools.cache
def _near_numbers() -> frozenset[str]:
    """Every language's number words of four letters or more and each with one letter dropped
    (the symmetric-delete test of :func:`_near_magnitudes`)."""
    words = {w for w in _every_number_word() if len(w) >= _NEAR_NUMBER_MIN and w.isalpha()}
    return frozenset(words | {w[:i] + w[i + 1 :] for w in words for i in range(len(w))})


@functools.lru_cache(maxsize=_WORD_MEMO)
def _number_word(bare: str) -> bool:
    """``bare`` is some language's number word under a thousand, or (four letters or more) one
    edit from one: a neighbour's or a dialect's spelling ("daou" of "dau", "pemp" of "pump",
    "dvesto" and "dwě" are the same roots)."""
    if bare in _every_number_word():
        return True
    if len(bare) < _NEAR_NUMBER_MIN or not bare.isalpha():
        return False
    near = _near_numbers()
    return bare in near or any(bare[:i] + bare[i + 1 :] in near for i in range(len(bare)))
