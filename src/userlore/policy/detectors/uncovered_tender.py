"""A number beside any locale's currency in text of a language no rule reads (issue 29,
blindfix21b).

:mod:`.uncovered` redacts a number beside a currency sign, or beside a currency name of the
segment's own candidate languages (CLDR), and keeps one under four digits in a segment that may
be a misread covered sentence (a covered function word in it). blind21 stored "… ezali 380
dollars" ("dollars" is no name CLDR gives in Lingala or its neighbours) and "Ha'u nia saláriu
fulan ida US$ 485" (Tetun, whose "la", "to" and "uma" read as a covered sentence's). Here, in a
segment the identifier places in an uncovered language, a number beside

- a currency sign (letters before it too: "US$", "R$"),
- an ISO 4217 code of a currency some territory holds as tender today, unless the code is a
  frequent word of a covered language ("TOP 10", "ALL 3"), or
- some locale's name of such a currency (:func:`.uncovered_currencies._tender_word`: "dollars",
  "euroa", "francs", "eurų"), the number of three digits or more before its cents

is an amount. In a segment that may be a misread covered sentence
(:func:`.uncovered.misread_covered`) only when the covered lists leave it unread as a language
of its own: three words or more, and a quarter of them, unknown to every covered language's list
(the measure :mod:`userlore.policy.known_words` takes for a relative the identifier does not
know); a covered sentence's brand or slang leaves one or two. No language is named here.

The floor cannot tell a price from the user's pay in a language it does not read: a price said
so goes too, as one with a currency sign already did (``docs/safety.md``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.cldr_words import _currency_signs
from userlore.policy.detectors.common import _Hit, has_digit
from userlore.policy.detectors.uncovered import _no_language, misread_covered
from userlore.policy.detectors.uncovered_currencies import _tender_word
from userlore.policy.findings import _REGULATED
from userlore.policy.known_words import leaves_unread, unknown_to_covered
from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.word_lists import _vouch_lexicon

__all__ = ["tendered_amounts"]

_RULE: Final = "value_uncovered_language"
_NUMBER = re.compile(
    r"(?<![\w.,])\d{1,3}(?:[.,\u00a0\u202f ]\d{3})*(?:[.,]\d{1,2})?(?![\w]|[.,]\d)"
    r"|(?<![\w.,])\d+(?:[.,]\d{1,2})?(?![\w]|[.,]\d)"
)
_CODE_LENGTH: Final = 3
_NAMED_MIN_DIGITS: Final = 3
"""A sum beside a currency's name counts from a hundred ("380 dollars", a week's pay or a
debt): a coffee's or a ticket's "35 lira", "6 euro" stays, as :mod:`.uncovered_money` keeps a
thing's price in one number word; a sign or a code counts whatever the size, as in
:mod:`.uncovered`."""


@functools.cache
def _beside() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What may stand right before a number and right after it: a currency sign (with
    letters before it) or a word."""
    sign = _currency_signs()
    return (
        re.compile(rf"(?:(?P<sign>[A-Z]{{0,3}}{sign}+)|(?P<word>[^\W\d_]+))[ \u00a0]?$"),
        re.compile(rf"[ \u00a0]?(?:(?P<sign>{sign}+)|(?P<word>[^\W\d_]+)(?![^\W\d_]))"),
    )


@functools.cache
def _tender_codes() -> frozenset[str]:
    """The ISO 4217 codes of the currencies some territory holds as tender today (CLDR)."""
    from babel import Locale
    from babel.numbers import get_territory_currencies

    codes: set[str] = set()
    for territory in map(str, Locale.parse("en").territories):
        codes.update(get_territory_currencies(territory, tender=True))
    return frozenset(codes)


def _currency(word: str) -> bool:
    """Some locale's name of a currency in use, or its code (not a covered word's spelling)."""
    if len(word) == _CODE_LENGTH and word.isupper() and word in _tender_codes():
        return unknown_to_covered(word)
    return _tender_word(word)


def _amounts(text: str) -> Iterator[tuple[int, int]]:
    """Spans of a number with a currency sign or code right before or after it, or of one of
    :data:`_NAMED_MIN_DIGITS` digits or more beside a currency's name."""
    before, after = _beside()
    for m in _NUMBER.finditer(text):
        lo, hi = m.span()
        named = _whole_units(m.group(0)) >= _NAMED_MIN_DIGITS
        b = before.search(text, max(0, lo - 24), lo)
        a = after.match(text, hi)
        if b is not None and (b.group("sign") or (named and _currency(b.group("word")))):
            lo = b.start()
        elif a is not None and (a.group("sign") or (named and _currency(a.group("word")))):
            hi = a.end()
        else:
            continue
        yield lo, hi


def _whole_units(number: str) -> int:
    """The digits of ``number`` before its cents ("1.299" has four, "18,50" two)."""
    cents = re.search(r"[.,]\d{1,2}$", number)
    return sum(ch.isdigit() for ch in number[: cents.start() if cents else len(number)])


def _unread(text: str) -> bool:
    """Every covered list leaves ``text`` unread (:func:`.known_words.leaves_unread`)."""
    return all(
        leaves_unread(text, language)
        for language in sorted(COVERED_LANGUAGES)
        if _vouch_lexicon(language) is not None
    )


def tendered_amounts(t: str) -> Iterator[_Hit]:
    """Numbers beside a currency in ``t``'s uncovered segments (see the module docstring)."""
    if not has_digit(t) or not any(_amounts(t)):
        return  # most texts: no segment need be identified
    found = [s for s in segments(t) if s.language not in (None, *COVERED_LANGUAGES)]
    for seg in found:
        if _no_language(t, seg):
            continue
        text = t[seg.start : seg.end]
        spans = list(_amounts(text))
        if not spans or (misread_covered(t, seg, found) and not _unread(text)):
            continue
        for lo, hi in spans:
            yield (_REGULATED, _RULE, seg.start + lo, seg.start + hi, None)
