"""Medicines named by brand, a special-category cue in every language (issue 29, blindfix9b).

"je suis sous Subutex", "nehme Truvada zur Prophylaxe", "レクサプロを飲み始めて": a brand says
the condition it treats (opioid dependence, HIV, depression, infertility…) without naming it,
and blind9 quoted it. A brand is the same word in every Latin-script language, so
``policy/data/special_brands.json`` lists it once (``latin``), plus each of Japanese's and
Chinese's own names; :func:`.special_abbrev.table_cues` reads them like the abbreviations, in
any case, and also where no language's word stands in the sentence.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from functools import cache, lru_cache
from importlib import resources

from userlore.policy.detectors.special_abbrev import table_cues
from userlore.policy.detectors.special_lang_vocab import _Language
from userlore.policy.literal_gate import LiteralGate

__all__ = ["brand_cues"]

_LATIN: str = "latin"


@cache
def _raw() -> dict[str, dict[str, list[str]]]:
    raw: dict[str, dict[str, list[str]]] = json.loads(
        resources.files("userlore.policy.data")
        .joinpath("special_brands.json")
        .read_text(encoding="utf-8")
    )
    return raw


def _by_brand(codes: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """Per language code: the category by brand (lower-cased), the Latin ones shared."""
    raw = _raw()
    shared = {b.casefold(): c for c, items in raw[_LATIN].items() for b in items}
    return {
        code: shared | {b.casefold(): c for c, items in raw.get(code, {}).items() for b in items}
        for code in codes
    }


@cache
def _gates(codes: tuple[str, ...]) -> tuple[frozenset[str], LiteralGate]:
    """(the Latin brands' first words, the other brands, lower-cased): the cheap test, built
    without the patterns (~0.15 s to compile), which few texts need."""
    every = {b for by_brand in _by_brand(codes).values() for b in by_brand}
    every.update(b.casefold() for items in _raw()[_LATIN].values() for b in items)
    heads = frozenset(m.group(0) for b in every if (m := _WORD.match(b)) is not None)
    return heads, LiteralGate(b for b in every if not b.isascii())


@cache
def _table(codes: tuple[str, ...]) -> dict[str, tuple[re.Pattern[str], dict[str, str]]]:
    """Per language code: its pattern and category by brand."""
    table: dict[str, tuple[re.Pattern[str], dict[str, str]]] = {}
    for code, by_brand in _by_brand(codes).items():
        alt = "|".join(_bounded(b) for b in sorted(by_brand, key=len, reverse=True))
        table[code] = (re.compile(alt, re.IGNORECASE), by_brand)
    return table


def _bounded(brand: str) -> str:
    """A Latin brand is bounded by Latin letters only: Japanese and Chinese glue a name to
    the next character ("Truvadaを", "吃Biktarvy"); a CJK name stands anywhere."""
    body = re.escape(brand)
    if _LATIN_LETTER.match(brand[0]):
        body = rf"(?<![A-Za-z0-9\u00c0-\u024f]){body}"
    if _LATIN_LETTER.match(brand[-1]):
        body = rf"{body}(?![A-Za-z\u00c0-\u024f])"
    return body


_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")
_WORD = re.compile(r"[a-z\u00c0-\u024f]{3,}")


@lru_cache(maxsize=8_192)
def _may_hold(t: str, codes: tuple[str, ...]) -> bool:
    """The cheap test first (issue 30): a Latin brand's first word among the text's words, or
    a Japanese or Chinese name in a text that is not all ASCII. Remembered per text: the gate
    and the floor ask it of the same sentences several times."""
    heads, others = _gates(codes)
    low = t.casefold()
    return not heads.isdisjoint(_WORD.findall(low)) or (not low.isascii() and others.search(low))


def brand_cues(
    t: str,
    languages: tuple[_Language, ...],
    sentences: Callable[[str], Iterable[tuple[int, int]]],
) -> Iterator[tuple[_Language, str, bool, int, int, int]]:
    """Cues as :func:`.special_lang._cues` gives them, for the medicine brands of ``t``."""
    codes = tuple(lang.code for lang in languages)
    if not _may_hold(t, codes):
        return
    table = _table(codes)
    yield from table_cues(t, table, languages, sentences, names=False, unmarked=True)
