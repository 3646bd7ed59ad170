"""Amounts written with digits that :mod:`.uncovered_money` reads as money.

A bare three-digit number beside an amount, a number with its thousands grouped, and the Latin
"k" and "m" shorthands chat writes in any language ("450k", "1.2m"). Four digits or more are
already :mod:`.uncovered`'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from userlore.policy.cue_data import cues
from userlore.policy.detectors.uncovered import _amounts
from userlore.policy.known_words import unread_by_covered

__all__: list[str] = []

# Three digits standing alone: not a group of a longer number ("52 000", "1.300"), a time or a
# date, a code or a version.
_BARE_NUMBER = re.compile(
    r"(?<![\w.,:/\-])(?<!\d[\s\u00a0\u202f])\d{3}(?![\w]|[.,:/\-]\d|[\s\u00a0\u202f]\d{3}(?!\d))"
)
# A number with its thousands grouped ("2,250", "1.640", "1 480"), the floor's already: the size
# of the user's pay or savings, so a bare number beside it is money too ("… 2.310 na měsac a za
# bydlenje płaću 520": blindfix18b). Not a decimal ("2.5"), a time or a longer group.
_GROUPED = re.compile(
    r"(?<![\w.,:/\-])\d{1,3}(?:([.,\u00a0\u202f ])\d{3})(?:\1\d{3})*(?![\w]|[.,:/\-]?\d)"
)
# A number with a "k" for thousands ("450k", "4,5k"; not "km", "kg", a 4K screen) and one with
# an "m", "M", "mn" or "bn" for millions or billions ("1.2m", "2,4m"; not "mm", "min"): the Latin
# shorthands chat writes in any language (blindfix19b).
_THOUSANDS = re.compile(r"(?<![\w.,:/\-])(?!4K|8K)\d{1,4}(?:[.,]\d{1,2})?\s?[kK](?![^\W_])")
_MILLIONS = re.compile(r"(?<![\w.,:/\-])\d{1,4}(?:[.,]\d{1,2})?\s?(?:m|M|mn|bn)(?![^\W_])")
_DECIMAL_MILLIONS = re.compile(r"\d+[.,]\d{1,2}\s?M")


def _beside_money(text: str, languages: list[str], said: bool) -> Iterator[tuple[int, int]]:
    """Standalone three-digit numbers in a segment that names an amount."""
    bare = list(_BARE_NUMBER.finditer(text))
    if not bare:
        return
    if (
        text.isascii()
        and cues().function_words.search(text.casefold())
        and not unread_by_covered(text)
    ):
        return  # perhaps a covered sentence misread: its prices and house numbers stay
    if not said and not _GROUPED.search(text) and not any(_amounts(text, languages)):
        return
    for m in bare:
        yield m.span()


def _suffixed_amounts(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    """Amounts with a thousands or millions shorthand (blindfix19b). A "k" amount is a thousand
    or more, redacted as four digits are in text the rules cannot read ("Simpanan saya … 60k");
    an "m" one only beside another amount, as "1.2m" is a length too ("… 450k kwa mwezi, kodi
    ya nyumba 1.2m kwa mwaka")."""
    thousands = [m.span() for m in _THOUSANDS.finditer(text)]
    yield from thousands
    millions = list(_MILLIONS.finditer(text))
    if millions and (thousands or _GROUPED.search(text) or any(_amounts(text, languages))):
        yield from (m.span() for m in millions)
    else:  # a capital "M" after a decimal is no metre ("umebaki 2,5M"): millions by itself
        yield from (m.span() for m in millions if _DECIMAL_MILLIONS.fullmatch(m.group(0)))
