"""Currency names of every CLDR locale, for :mod:`.uncovered_money` and its neighbours.

A language's currency names and lettered symbols ("eurų", "лева", "रुपये", "Kč") with their
inflected forms, the units some territory holds as legal tender today in any locale ("taka",
"euro"), and those written in another script read as ``anyascii`` spells them ("ᱴᱟᱠᱟ": "taka").
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.cldr_words import _currency_signs
from userlore.policy.detectors.uncovered_magnitudes import (
    _LATIN,
    _TOKEN,
    _WORD_MEMO,
    _ascii_forms,
    _spelled_in_ascii,
)
from userlore.policy.detectors.uncovered_number_words import _NUMBER_MIN
from userlore.policy.detectors.uncovered_shapes import _bare

__all__: list[str] = []

_INFLECTION: Final = 2  # letters an inflected currency name may differ in at its end


@functools.cache
def _currency_names(language: str) -> frozenset[str]:
    """First and last words of every currency name CLDR gives in ``language`` (singular and
    plural forms, through babel), and its currency symbols with letters ("лв", "Kč"), bare.
    Read with marks kept inside a word (:mod:`.uncovered`'s names split Devanagari at its
    vowel signs, so "रुपया" was no name); a word of a territory's name is left out."""
    from babel import Locale, UnknownLocaleError

    try:
        loc = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return frozenset()
    names = list(loc.currencies.values())
    for forms in loc._data["currency_names_plural"].values():
        names.extend(forms.values())
    places = {_bare(w) for name in loc.territories.values() for w in _TOKEN.findall(name)}
    out: set[str] = set()
    for name in names:
        found = _TOKEN.findall(name)
        for w in {found[0], found[-1]} if found else ():
            if len(w) >= 3 and _bare(w) not in places:
                out.add(_bare(w))
    out.update(_bare(v) for v in loc.currency_symbols.values() if len(v) >= 2 and v.isalpha())
    return frozenset(out)


def _is_currency(word: str, languages: list[str], exact: bool = False) -> bool:
    """A currency name of one of ``languages``, in an inflected form too ("eurų" of "euras",
    "रुपये" of "रुपया") unless ``exact`` (after a misspelt magnitude: two loose readings in a
    row took "trail naïve" for a sum in naira), or a currency sign."""
    if re.fullmatch(_currency_signs() + "+", word):
        return True
    plain = _bare(word)
    if not plain.isascii() and _spelled_in_ascii(word) in _transliterated_currencies():
        return True  # "ᱴᱟᱠᱟ" spelled as "টাকা" is: "taka" (blindfix17b)
    stem = plain[: max(len(plain) - _INFLECTION, 3)]
    loose = not exact and len(plain) > 3
    for language in languages:
        if plain in _currency_names(language):
            return True
        if not loose:
            continue
        # A name that starts with the stem (three letters at least, since the word has four or
        # more) shares its first three letters: only those names are tried (perf24).
        for name in _names_by_head(language).get(plain[:_HEAD], ()):
            if name.startswith(stem) and abs(len(name) - len(plain)) <= 2:
                return True
    return False


_HEAD: Final = 3


@functools.cache
def _names_by_head(language: str) -> dict[str, tuple[str, ...]]:
    """:func:`_currency_names` of ``language`` by their first three letters."""
    heads: dict[str, list[str]] = {}
    for name in _currency_names(language):
        heads.setdefault(name[:_HEAD], []).append(name)
    return {head: tuple(names) for head, names in heads.items()}


def _tender_names() -> Iterator[str]:
    """The last words of :func:`_locale_tender_names`."""
    return (word for _, word in _locale_tender_names())


def _locale_tender_names() -> Iterator[tuple[str, str]]:
    """The last word of every CLDR locale's names (singular and plural) of the currencies some
    territory holds as legal tender today ("taka", "euros", "টাকা"), bare: a unit said after a
    number, not a historic currency's name or an adjective ("Bangladeshi")."""
    from babel import Locale, UnknownLocaleError
    from babel.localedata import locale_identifiers
    from babel.numbers import get_territory_currencies

    codes: set[str] = set()
    for territory in map(str, Locale.parse("en").territories):
        codes.update(get_territory_currencies(territory, tender=True))
    for language in sorted({name.split("_")[0] for name in locale_identifiers()}):
        try:
            loc = Locale.parse(language)
        except (UnknownLocaleError, ValueError):
            continue
        plural = loc._data["currency_names_plural"]
        for code in codes:
            for name in (loc.currencies.get(code, ""), *plural.get(code, {}).values()):
                found = _TOKEN.findall(name)
                if found:
                    yield language, _bare(found[-1]) if _LATIN.search(found[-1]) else found[-1]


@built_table("uncovered_money.transliterated_currencies")
def _transliterated_currencies() -> frozenset[str]:
    """The currency units of :func:`_tender_names` written in a script other than Latin, spelled
    in ASCII ("টাকা": "taka"), as :func:`_transliterated_magnitudes` (blind17)."""
    return _ascii_forms(_tender_names())


_TENDER_LOCALES: Final = 2  # languages that must name a currency with a word, for any locale


@built_table("uncovered_money.tender_words")
def _tender_words() -> frozenset[str]:
    """:func:`_tender_names` of three letters or more that two languages or more give ("euro",
    "eura", "lei", "rubl…"): a unit said after a number whatever the segment's language; not
    one language's adjective or a stray word ("lan" is no Vietnamese currency)."""
    languages: dict[str, set[str]] = {}
    for language, word in _locale_tender_names():
        if len(word) >= _NUMBER_MIN:
            languages.setdefault(word, set()).add(language)
    return frozenset(w for w, found in languages.items() if len(found) >= _TENDER_LOCALES)


def _tender(bare: str) -> bool:
    """Some locale's name of a currency in use, or it with an ending ("eurow", "eurų")."""
    words = _tender_words()
    return any(
        bare[: len(bare) - cut] in words
        for cut in range(_INFLECTION + 1)
        if len(bare) - cut >= _NUMBER_MIN
    )


@functools.lru_cache(maxsize=_WORD_MEMO)
def _tender_word(word: str) -> bool:
    """:func:`_tender` of a word as written, remembered (the cheap test asks it of every
    word of every text)."""
    return len(word) >= _NUMBER_MIN and _tender(_bare(word))
