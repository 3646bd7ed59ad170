"""More values in text of a language no rule here reads (issue 29, blindfix6 class 4).

:mod:`.uncovered` redacts credential-shaped tokens, long numbers, amounts and digits said one by
one in an uncovered language. Blind text in Polish, Greek, Thai and Swahili still left these in
stored evidence; each is read here without naming a language:

- **a list of codes after a colon**: two or more items of one code shape (``5521 0934``,
  ``h7k2-m9q4``, ``83920174``) separated by commas or spaces: backup and recovery codes;
- **a passport-like token**: two capital letters and seven digits ("EA 3920571", "FP3381052"),
  not after an order, tracking or invoice word;
- **an amount in number words**: a run of the language's number words that names a thousand or
  more ("yirmi bin", "kétmillió", "lima puluh juta", "σαράντα χιλιάδες", "สองแสน"). The words
  come from CLDR's spell-out rules (``unicode-rbnf``) for the segment's language: Unicode's
  data, not a list written here. A language CLDR does not spell out, or a form it does not
  give (Swahili "laki tatu"; CLDR writes "elfu mia tatu"), is not read (``docs/safety.md``).

Each runs only in a turn with a segment in an uncovered language (the covered languages have
their own cue rules, which know order numbers and populations).
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Iterator, Mapping
from typing import Final

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.common import _Hit, has_decimal
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.language import COVERED_LANGUAGES, Segment, segments
from userlore.policy.literal_gate import GatedPattern
from userlore.policy.word_view import lower_runs

__all__ = ["uncovered_shapes"]

# One code: four and four digits, eight to ten digits, or four and four letters and digits
# with both a digit and a letter in it.
_ITEM = (
    r"(?:\d{4}[ \-]\d{4}|\d{8,10}"
    r"|(?=[a-zA-Z0-9]{0,3}\d)(?=[a-zA-Z0-9\-]{0,8}[a-zA-Z])[a-zA-Z0-9]{4}-[a-zA-Z0-9]{4})"
)
_CODE_LIST = GatedPattern(
    re.compile(rf"[:：]\s*(?P<list>{_ITEM}(?:\s*[,;、，]\s*{_ITEM}|\s+{_ITEM})+)(?![\w\-])")
)
_LIST_ITEM = re.compile(_ITEM)
_PASSPORT = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}[ \-]?\d{7}(?![0-9A-Za-z])")
_NOT_A_PERSON_WORDS = (
    r"(?:order|tracking|invoice|ticket|booking|ref|serial|sku|flight|pedido|zamówien"
    r"|sipariş|objedn|rendelés|tilaus|αριθμός παραγγελίας)[^.!?\n]{0,15}$"
)
_NOT_A_PERSON = re.compile(rf"(?i){_NOT_A_PERSON_WORDS}")
# The same words at a word's start only: "identitasku" ends in no SKU (blindfix22b).
_NOT_A_PERSON_WORD = re.compile(rf"(?i)(?<![^\W\d_]){_NOT_A_PERSON_WORDS}")
# A national id printed with its country's ISO code before it and a check character after
# ("GHA-723918406-3", the Ghana Card; blind22 stored one in a language no rule reads): three
# capitals, seven to twelve digits, one or two digits or capitals after a dash or a space.
_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9\-])(?P<code>[A-Z]{3})[ \-]?\d{7,12}[ \-][0-9A-Z]{1,2}(?![A-Za-z0-9\-])"
)


@functools.cache
def _country_codes() -> frozenset[str]:
    """ISO 3166 alpha-3 codes, from CLDR's territory aliases (babel): no language's words."""
    from babel.core import get_global

    aliases: Mapping[str, list[str]] = get_global("territory_aliases")
    return frozenset(k for k, v in aliases.items() if len(k) == 3 and k.isalpha() and len(v) == 1)


def _prefixed_ids(t: str) -> list[re.Match[str]]:
    """Runs of :data:`_PREFIXED` whose prefix is a country's code."""
    return [m for m in _PREFIXED.finditer(t) if m.group("code") in _country_codes()]


_GAP = re.compile(r"[\s\-]*")
_UNSPACED_SCRIPTS: Final = frozenset({"Thai", "Other"})
_SMALL = (*range(1, 20), *range(20, 100, 10), *range(100, 1000, 100), 25, 45, 50)
_BIG = tuple(
    k * 10**n for n in range(3, 10) for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 25, 45, 50)
)


def uncovered_shapes(t: str) -> Iterator[_Hit]:
    """Code lists, passport-like tokens and amounts in words in ``t``'s uncovered segments."""
    lists = list(_CODE_LIST.finditer(t))
    passports = list(_PASSPORT.finditer(t)) if has_decimal(t) else []  # \d{7}: a digit
    prefixed = _prefixed_ids(t) if passports or "-" in t or " " in t else []
    if not lists and not passports and not prefixed and not _may_say_amount(t):
        return
    found = [
        s for s in segments(t) if s.language is not None and s.language not in COVERED_LANGUAGES
    ]
    if not found:
        return
    for m in lists:
        for item in _LIST_ITEM.finditer(t, m.start("list"), m.end("list")):
            yield (_SECRET, "code_list_uncovered_language", item.start(), item.end(), None)
    for m in passports:
        if not _NOT_A_PERSON.search(t[max(0, m.start() - 40) : m.start()]):
            yield (_REGULATED, "passport_uncovered_language", m.start(), m.end(), "government_id")
    for m in prefixed:  # by its shape alone: no word of the language is read
        if not _NOT_A_PERSON_WORD.search(t[max(0, m.start() - 40) : m.start()]):
            yield (
                _REGULATED,
                "national_id_uncovered_language",
                m.start(),
                m.end(),
                "government_id",
            )
    for seg in found:
        yield from _amount_words(t, seg)


def _may_say_amount(t: str) -> bool:
    """A cheap test: the text holds some language's magnitude word (any CLDR spell-out)."""
    if t.isascii():
        # Every segment of an ASCII text is Latin or neutral, cut where the text has a space,
        # so :func:`_amount_words` finds an amount only on a word that is exactly one of its
        # language's magnitudes: test that, not the compound stems below ("been" ends in
        # "een", which sent a fifth of English chat turns to the identifier).
        # Some part of a word between apostrophes is a magnitude word: those parts are the
        # text's letter runs (the shared split).
        return not _every_magnitude().isdisjoint(lower_runs(t))
    if any("\u0e00" <= ch <= "\u0eff" for ch in t):
        return True  # Thai and Lao write no spaces: the segment's own spell-outs decide
    ends = _all_magnitudes()
    for w in _WORD.findall(t):
        bare = w.casefold() if w.isascii() else _bare(w)
        if any(bare.endswith(m) for m in ends.get(bare[-3:], ())):
            return True
    return False


def _bare(text: str) -> str:
    """Casefolded, nonspacing marks and zero-width spaces dropped, apostrophes as U+02BC."""
    folded = text.casefold()
    if folded.isascii():  # no mark, no zero-width space, nothing to compose
        return folded.replace("'", "ʼ")
    folded = unicodedata.normalize("NFD", folded)
    out = "".join(ch for ch in folded if unicodedata.category(ch) != "Mn" and ch != "\u200b")
    return unicodedata.normalize("NFC", out).replace("'", "ʼ").replace("’", "ʼ")


def _said(engine: object, n: int) -> set[str]:
    """Every cardinal spell-out of ``n`` (not ordinals, not years), bare."""
    out = set()
    for ruleset, text in engine.format_number(n).text_by_ruleset.items():  # type: ignore[attr-defined]
        if "ordinal" not in ruleset and "year" not in ruleset:
            out.add(_bare(text))
    return out


@functools.cache
def _engine(language: str) -> object | None:
    from unicode_rbnf import RbnfEngine

    try:
        return RbnfEngine.for_language(language)
    except ValueError:
        return None


def _words_of(engine: object, numbers: tuple[int, ...]) -> set[str]:
    return {w for n in numbers for s in _said(engine, n) for w in re.split(r"[\s\-]+", s) if w}


@functools.cache
def _spellouts(language: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]] | None:
    """(number words, magnitude words, whole spell-outs of the big numbers) of ``language``."""
    engine = _engine(language)
    if engine is None:
        return None
    small = _words_of(engine, _SMALL)
    big_texts = [s for n in _BIG for s in _said(engine, n)]
    big = {w for s in big_texts for w in re.split(r"[\s\-]+", s) if w}
    magnitudes = frozenset(w for w in big - small if len(w) >= 3)
    return frozenset(small | big), magnitudes, tuple(sorted(set(big_texts), key=len, reverse=True))


_GATE_SMALL: Final = (1, 2, 3, 4, 5, 6, 7, 8, 9)
_GATE_BIG: Final = (1000, 2000, 10**6, 2 * 10**6)


def _common_end(a: str, b: str) -> str:
    """The longest end ``a`` and ``b`` share ("mila" of "duemila" and "tremila")."""
    pairs = zip(a[::-1], b[::-1], strict=False)
    n = sum(1 for _ in itertools.takewhile(lambda p: p[0] == p[1], pairs))
    return a[len(a) - n :]


_APOSTROPHE = re.compile(r"['’ʼ]")


@built_table("uncovered_shapes.every_magnitude")
def _every_magnitude() -> frozenset[str]:
    """The magnitudes of :func:`_spellouts` for every language a Latin segment can be read
    as (the identifier's, the relatives', and CLDR's), each part between apostrophes too."""
    from unicode_rbnf import RbnfEngine

    from userlore.policy.language import identifier_languages
    from userlore.policy.relatives import RELATIVES

    out: set[str] = set()
    for language in {*RbnfEngine.get_supported_languages(), *identifier_languages(), *RELATIVES}:
        data = _spellouts(language)
        if data is not None:
            out.update(p for w in data[1] for p in _APOSTROPHE.split(w.replace("ʼ", "'")))
    return frozenset(out)


@built_table("uncovered_shapes.all_magnitudes")
def _all_magnitudes() -> dict[str, tuple[str, ...]]:
    """Magnitude words of every language CLDR spells out, from a few numbers each, and the
    stems compounds end in (the common end of 2000's and 3000's one-word forms: "mila" of
    "duemila"/"tremila", "duizend"): the cheap test of :func:`_may_say_amount`; a segment is
    then read with its own full spell-outs. Keyed by their last three letters: a word holds
    one when it ends in it ("twintigduizend")."""
    from unicode_rbnf import RbnfEngine

    found: set[str] = set()
    for language in RbnfEngine.get_supported_languages():
        engine = _engine(language)
        if engine is None:
            continue
        big = _words_of(engine, _GATE_BIG) - _words_of(engine, _GATE_SMALL)
        found.update(w for w in big if len(w) >= 3)
        for n in (1000, 10**6):
            two, three = _words_of(engine, (2 * n,)), _words_of(engine, (3 * n,))
            for a in two:
                for b in three:
                    stem = _common_end(a, b)
                    if len(stem) >= 3:
                        found.add(stem)
    by_end: dict[str, list[str]] = {}
    for word in sorted(found):  # one order in every process: the stored table's
        by_end.setdefault(word[-3:], []).append(word)
    return {end: tuple(words) for end, words in by_end.items()}


_WORD = re.compile(r"[^\W\d_]+(?:['’ʼ][^\W\d_]+)*")
_DIGITS_THEN_WORD = re.compile(
    r"(?<![\w.,])\d{1,3}(?:[.,]\d{1,3})?\s+(?:[^\W\d_]{1,3}\s+)?(?P<mag>[^\W\d_]{3,})"
)


def _amount_words(t: str, seg: Segment) -> Iterator[_Hit]:
    """Runs of ``seg``'s number words naming a thousand or more."""
    data = _spellouts(seg.language or "")
    if data is None:
        return
    words, magnitudes, big_texts = data
    text = t[seg.start : seg.end]
    if seg.script in _UNSPACED_SCRIPTS:
        bare = text.replace("\u200b", "")
        if len(bare) == len(text):
            for said in big_texts:
                plain = said.replace(" ", "")
                at = bare.find(plain)
                if at >= 0 and len(plain) >= 4:
                    yield (_REGULATED, "value_uncovered_language", seg.start + at,
                           seg.start + at + len(plain), None)  # fmt: skip
                    return
        return
    for d in _DIGITS_THEN_WORD.finditer(text):
        if _bare(d.group("mag")) in magnitudes:  # "25 de mii", "45 tysięcy"
            yield (_REGULATED, "value_uncovered_language", seg.start + d.start(),
                   seg.start + d.end(), None)  # fmt: skip
    run: list[re.Match[str]] = []
    matches: list[re.Match[str] | None] = [*_WORD.finditer(text), None]
    for m in matches:
        here = m is not None and _bare(m.group(0)) in words
        adjacent = (
            m is not None
            and bool(run)
            and _GAP.fullmatch(text, run[-1].end(), m.start()) is not None
        )
        if here and m is not None and (adjacent or not run):
            run.append(m)
            continue
        if run and _names_an_amount([_bare(r.group(0)) for r in run], magnitudes):
            yield (_REGULATED, "value_uncovered_language", seg.start + run[0].start(),
                   seg.start + run[-1].end(), None)  # fmt: skip
        run = [m] if here and m is not None else []


def _names_an_amount(run: list[str], magnitudes: frozenset[str]) -> bool:
    """Two number words or more with a magnitude among them, or one word that is a whole
    multiple's spell-out ("kétmillió"), not the bare magnitude ("bin", "mille")."""
    if not any(w in magnitudes for w in run):
        return False
    if len(run) >= 2:
        return True
    return len(run[0]) >= 7
