"""An amount after a currency sign written with letters, glued or spaced, in text of a language
no rule reads (issue 29, blind15).

blind15 stored "Ke kolota banka M25 000 bakeng sa koloi" (Sesotho, "I owe the bank M25 000"):
:mod:`.uncovered` reads an amount beside a currency sign or a candidate language's symbol, and
a run of four digits or more; here the sign is a letter glued to the first group ("M25", a
code's shape) and the rest a three-digit group. The local symbols of every territory's currency
come from CLDR through babel ("E" lilangeni, "K" kwacha, "P" pula, "Le", "TSh", "GH₵", "Gs.",
"FCFA"): one before an amount grouped by thousands, with or without a space, is money. A single
capital letter glued to such an amount is read the same way whether CLDR names it or not (the
maloti's "M"): a model or a road ("M25", "P40") has no thousands group after it. Only in a
segment in an uncovered language; the money rules of the covered ones read theirs.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _REGULATED
from userlore.policy.language import COVERED_LANGUAGES, segments

__all__ = ["glued_signs"]

_RULE: Final = "money_uncovered_language"
_GROUPED: Final = r"\d{1,3}(?:[ \u00a0\u202f.,]\d{3})+(?![\d])"
# The cheap test: a letter right before a thousands-grouped amount, or a sign and a space.
_GATE = re.compile(r"(?:[A-Za-z₵.]|[A-Z][a-z]{0,2}\s)" + _GROUPED)


@built_table("glued_signs.territory_symbols")
def _territory_symbols() -> frozenset[str]:
    """The symbol of each territory's currency in each of its CLDR locales, where it holds a
    letter and is not the ISO code ("E", "Ksh", "GH₵", "Gs.", "FCFA")."""
    from babel import Locale, localedata
    from babel.numbers import get_territory_currencies

    out: set[str] = set()
    for name in localedata.locale_identifiers():
        try:
            loc = Locale.parse(name)
            codes = get_territory_currencies(loc.territory) if loc.territory else []
        except (ValueError, KeyError, TypeError):
            continue
        for code in codes[:1]:
            symbol = loc.currency_symbols.get(code, "").replace("\u202f", " ").strip()
            if symbol and symbol != code and any(ch.isalpha() for ch in symbol):
                out.add(symbol)
    return frozenset(out)


@functools.cache
def _amounts() -> re.Pattern[str]:
    symbols = sorted(_territory_symbols(), key=len, reverse=True)
    # Latin signs that start with a capital ("den", "kr" are words too, and stand after).
    named = "|".join(re.escape(s) for s in symbols if s[0].isupper() and s[0].isascii())
    return re.compile(rf"(?<![A-Za-z0-9])(?:(?:{named})\s?|[A-Z])(?P<amount>{_GROUPED})")


def glued_signs(t: str) -> Iterator[_Hit]:
    """Amounts after a lettered currency sign in ``t``'s uncovered segments."""
    if _GATE.search(t) is None:
        return
    pattern = _amounts()
    for seg in segments(t):
        if seg.language is None or seg.language in COVERED_LANGUAGES:
            continue
        for m in pattern.finditer(t, seg.start, seg.end):
            yield (_REGULATED, _RULE, m.start(), m.end(), None)
