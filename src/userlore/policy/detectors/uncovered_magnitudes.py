"""Magnitude words of every language CLDR spells out, for :mod:`.uncovered_money`.

The thousands, millions and lakhs a sum in words turns on ("tūkstančių", "хиљада", "लाख"): CLDR's
spell-outs through ``unicode-rbnf`` and its compact number formats through ``babel``, the word
tests the cheap test asks of every text, a compound's split ("centoventimila"), a dialect's
spelling one edit away, and a magnitude written in another script read as ``anyascii`` spells it.
No language is named here.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Iterable, Iterator
from typing import Final

from anyascii import anyascii

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.cldr_words import _currency_signs, compact_parts
from userlore.policy.detectors.uncovered_shapes import _bare, _engine, _every_magnitude, _said
from userlore.policy.word_view import letter_runs

__all__ = ["large_magnitude_shape", "near_magnitude", "says_a_magnitude", "shaped_large_amounts"]

# A word with its marks (not ``\w``, which splits Devanagari and Tamil at their vowel signs, and
# Limbu, Syloti Nagri or Myanmar at theirs: blindfix17b).
_TOKEN = re.compile(
    r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0eff\u0f00-\u109f\u1700-\u1c4f"
    r"\ua800-\ua82f\ua880-\ua8df\ua900-\ua9df\uaa00-\uaaff\uabc0-\uabff])+",
    re.UNICODE,
)


_SMALL_NUMBERS: Final = (*range(1, 21), *range(30, 100, 10), *range(100, 1000, 100), 21, 25)
_BIG_NUMBERS: Final = tuple(
    k * 10**e for e in (3, 6, 9) for k in (1, 2, 3, 4, 5, 10, 11, 12, 20, 21, 25, 100, 120, 200)
)
_MIN_MAGNITUDE: Final = 3  # letters of a magnitude a compound may end in ("mila", "tisíc")


@functools.cache
def _spelled(language: str) -> tuple[frozenset[str], frozenset[str]]:
    """(number words, magnitude words) of ``language``, bare: CLDR's cardinal spell-outs of a
    few numbers through ``unicode-rbnf`` and its compact number formats through ``babel``."""
    from unicode_rbnf import RbnfEngine

    words: set[str] = set()
    small: set[str] = set()
    try:
        engine = RbnfEngine.for_language(language)
    except ValueError:
        engine = None
    if engine is not None:
        for n in (*_SMALL_NUMBERS, *_BIG_NUMBERS):
            try:
                said = engine.format_number(n).text_by_ruleset
            except (ValueError, KeyError):
                continue
            for ruleset, text in said.items():
                if "ordinal" in ruleset or "year" in ruleset:
                    continue
                parts = {_bare(w) for w in re.split(r"[\s\-\u00ad]+", text) if w}
                words.update(parts)
                if n < 1000:
                    small.update(parts)
    magnitudes = {w for w in words - small if len(w) >= _MIN_MAGNITUDE}
    magnitudes.update(_compact_words(language))
    return frozenset(words | magnitudes), frozenset(magnitudes)


@functools.cache
def _compact_words(language: str) -> frozenset[str]:
    """Words of ``language``'s CLDR compact number formats ("тыс.", "लाख", "միլիոն"), bare."""
    out: set[str] = set()
    for part in compact_parts(language):
        for w in _TOKEN.findall(part):
            word = _bare(w)
            if len(word) >= _MIN_MAGNITUDE or (len(word) >= 2 and not word.isascii()):
                out.add(word)
    return frozenset(out)


@built_table("uncovered_money.inflected")
def _inflected() -> frozenset[str]:
    """Magnitude forms CLDR gives 5,000, 20,000 and 5,000,000 in every language it spells out
    (a genitive plural: "tūkstančių", "хиљада", "tisíc"), bare: the Latin test below."""
    from unicode_rbnf import RbnfEngine

    out: set[str] = set()
    for language in RbnfEngine.get_supported_languages():
        engine = _engine(language)
        if engine is None:
            continue
        for n in (5000, 20000, 5 * 10**6):
            try:
                out.update(_said(engine, n))
            except ValueError:
                continue
    return frozenset(w for s in out for w in re.split(r"[\s\-]+", s) if len(w) > _MIN_MAGNITUDE)


@built_table("uncovered_money.spelled_magnitudes")
def _spelled_magnitudes() -> frozenset[str]:
    """The magnitudes of four letters or more :func:`_spelled` reads in every language CLDR
    spells out (the Faroese "túsund" of 1,000, which the spell-outs of larger numbers
    inflect): the cheap test must pass every text :func:`_said_amounts` can read (blind13)."""
    from unicode_rbnf import RbnfEngine

    return frozenset(
        w
        for language in RbnfEngine.get_supported_languages()
        for w in _spelled(language)[1]
        if len(w) > _MIN_MAGNITUDE
    )


@built_table("uncovered_money.magnitude_languages")
def _magnitude_languages() -> dict[str, tuple[str, ...]]:
    """Every language (CLDR spells it out or babel has its locale) whose :func:`_spelled`
    magnitudes hold a word, by the word: a segment that says "rébu" or "тыһыынча" is read
    with that language's number and currency words too, whatever the identifier guessed
    (blind16: Sundanese read as Javanese, Sakha as Kyrgyz). CLDR's data, no language named."""
    from babel.localedata import locale_identifiers
    from unicode_rbnf import RbnfEngine

    languages = {*RbnfEngine.get_supported_languages()}
    languages.update(name.split("_")[0] for name in locale_identifiers())
    out: dict[str, set[str]] = {}
    for language in sorted(languages):
        for word in _spelled(language)[1]:
            out.setdefault(word, set()).add(language)
    return {word: tuple(sorted(found)) for word, found in out.items()}


_MAX_READ_AS: Final = 3  # languages one word may add to a segment's candidates


def _read_as(text: str, languages: list[str]) -> list[str]:
    """``languages`` and the languages whose magnitude words ``text`` says that none of
    ``languages`` says (at most three per word: "mil" is many languages' word)."""
    index = _magnitude_languages()
    _, known = _vocabulary(languages)
    out = list(languages)
    for m in _TOKEN.finditer(text):
        if m.group(0).isupper() and len(m.group(0)) > 1:
            continue  # an acronym ("ПИН"), not a number word (Chuvash "пин", a thousand)
        bare = _bare(m.group(0))
        found = index.get(bare, ())
        if found and bare not in known and len(found) <= _MAX_READ_AS:
            out.extend(x for x in found if x not in out)
    return out


_NEAR_MIN: Final = 5  # letters of a magnitude a misspelling may be one edit from


@functools.cache
def _near_magnitudes() -> frozenset[str]:
    """The magnitudes of five letters or more of every language, and each with one letter
    dropped: a word one edit from one of them has a form here, or one of its own one-letter
    drops has (the symmetric-delete test)."""
    words = {
        w
        for w in (*_spelled_magnitudes(), *_compact_magnitudes(), *_every_magnitude())
        if len(w) >= _NEAR_MIN and w.isalpha()
    }
    return frozenset(words | {w[:i] + w[i + 1 :] for w in words for i in range(len(w))})


@functools.lru_cache(maxsize=1 << 16)
def near_magnitude(word: str) -> bool:
    """``word``, bare, is one edit from some language's magnitude of five letters or more (a
    dialect's spelling: "Dusend" of "duisend", "tusend"): read as one before a currency name."""
    bare = _bare(word)
    if len(bare) < _NEAR_MIN or not bare.isalpha():
        return False
    near = _near_magnitudes()
    return bare in near or any(bare[:i] + bare[i + 1 :] in near for i in range(len(bare)))


def _splits(word: str, vocabulary: frozenset[str]) -> bool:
    """``word`` is a concatenation of words of ``vocabulary`` ("centoventi": cento + venti)."""
    ok = [True] + [False] * len(word)
    for i in range(1, len(word) + 1):
        ok[i] = any(ok[j] and word[j:i] in vocabulary for j in range(max(0, i - 20), i))
    return ok[-1]


def _compound(word: str, numbers: frozenset[str], magnitudes: frozenset[str]) -> bool:
    """One word of number words ending in a magnitude ("dvetisíc", "tvåhundratusen")."""
    for cut in range(2, len(word) - _MIN_MAGNITUDE + 1):
        if word[cut:] in magnitudes and _splits(word[:cut], numbers):
            return True
    return False


@built_table("uncovered_money.compact_magnitudes")
def _compact_magnitudes() -> frozenset[str]:
    """The compact-format magnitudes of five letters or more (:func:`_compact_words`) of every
    language a segment can be read as: the cheap test must pass a compound ending in one
    before a currency ("tweintichtûzen euro": Frisian has no spell-outs, only "tûzen"),
    which :func:`_said_amounts` reads (blind15)."""
    from userlore.policy.language import identifier_languages
    from userlore.policy.relatives import RELATIVES

    return frozenset(
        w
        for language in {*identifier_languages(), *RELATIVES}
        for w in _compact_words(language)
        if len(w) > _STEM_MIN and w.isalpha()  # not "ezer" of "freezer", "bill"
    )


_STEM_PREFIX: Final = 3  # letters before a magnitude a word ends in, for the cheap test
_STEM_MIN: Final = 4


def says_a_magnitude(t: str) -> bool:
    """Some word of ``t`` is, or ends in, some language's magnitude word ("mil", "ventimila"):
    where an amount in words may be read, and read differently once the identifier sees the
    text inside other characters (a JSON wrapper)."""
    words = letter_runs(t) if t.isascii() else _TOKEN.findall(t)  # the same words there
    return any(map(_ends_in_a_magnitude, words))


_WORD_MEMO: Final = 1 << 16  # words remembered (chat repeats its words; a few MB at most)


@functools.lru_cache(maxsize=_WORD_MEMO)
def _ends_in_a_magnitude(w: str) -> bool:
    """The word, bare, is some language's magnitude word or ends in one: a pure function of
    the word, so remembered per word rather than worked out again on every text."""
    exact, inflected, compact = _every_magnitude(), _inflected(), _compact_magnitudes()
    bare = _bare(w)
    if bare in exact or bare in inflected or bare in _spelled_magnitudes():
        return True
    for cut in range(_STEM_PREFIX, len(bare) - _STEM_MIN + 1):
        tail = bare[cut:]
        if tail in exact or tail in inflected or tail in compact:
            return True  # "centoventimila" ends in "ventimila", "tweintichtûzen" in "tûzen"
    return False


def _vocabulary(languages: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    numbers: set[str] = set()
    magnitudes: set[str] = set()
    for language in languages:
        n, m = _spelled(language)
        numbers |= n
        magnitudes |= m
    return frozenset(numbers), frozenset(magnitudes)


_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_TRANSLITERATED_MIN: Final = 4  # ASCII letters of a transliterated word ("taka", "hajar")


def _spelled_in_ascii(word: str) -> str:
    """``word`` as ``anyascii`` spells it, letters only ("হাজার", "ᱦᱟᱡᱟᱨ": "hajar"), its vowel
    signs kept (the bare form drops Limbu's, leaving "hjr")."""
    return "".join(ch for ch in anyascii(word).casefold() if ch.isalpha())


def _ascii_forms(words: Iterable[str]) -> frozenset[str]:
    out = set()
    for word in words:
        if not word.isascii():
            form = _spelled_in_ascii(word)
            if len(form) >= _TRANSLITERATED_MIN:
                out.add(form)
    return frozenset(out)


@built_table("uncovered_money.transliterated_magnitudes")
def _transliterated_magnitudes() -> frozenset[str]:
    """Every language's magnitude words written in a script other than Latin, spelled in ASCII
    (:func:`_magnitude_languages`' words): a loanword written in another script reads the same
    ("ᱦᱟᱡᱟᱨ" in Ol Chiki, "ꠢꠣꠎꠣꠞ" in Syloti Nagri and "হাজার" are all "hajar"; blind17)."""
    return _ascii_forms(_magnitude_languages())


def _loaned_magnitude(word: str) -> bool:
    """``word`` is not Latin and spells in ASCII as some language's magnitude in another
    script (a loanword: Santali "ᱦᱟᱡᱟᱨ" of Bengali "হাজার")."""
    if word.isascii() or _LATIN.search(word) is not None:
        return False
    return _spelled_in_ascii(word) in _transliterated_magnitudes()


_STEM: Final = 4  # letters of a large magnitude's stem ("mili", "milj", "bili")
_STEM_LANGUAGES: Final = 3  # languages a stem is shared by
_LARGE: Final = 10**6
_SI_PREFIX: Final = "milli"  # "1,5 millimetri": a length, every language's SI prefix


@built_table("uncovered_money.large_stems")
def _large_stems() -> tuple[str, ...]:
    """The first four letters of the Latin words CLDR's long compact formats write for a
    million and more, shared by three languages or more ("mili", "mill", "milj", "mily",
    "bili", "tril"...): every babel locale's, no language named (blindfix23b)."""
    from babel import Locale, UnknownLocaleError
    from babel.localedata import locale_identifiers

    by_stem: dict[str, set[str]] = {}
    for name in locale_identifiers():
        try:
            loc = Locale.parse(name)
        except (UnknownLocaleError, ValueError):
            continue
        for forms in loc.compact_decimal_formats.get("long", {}).values():  # by plural form
            for magnitude, pattern in forms.items():
                if int(magnitude) < _LARGE:
                    continue
                for part in (*pattern.prefix, *pattern.suffix):
                    for w in _TOKEN.findall(part):
                        bare = _bare(w)
                        if len(bare) > _STEM and bare.isascii() and bare.isalpha():
                            by_stem.setdefault(bare[:_STEM], set()).add(name.split("_")[0])
    return tuple(sorted(s for s, found in by_stem.items() if len(found) >= _STEM_LANGUAGES))


def large_magnitude_shape(word: str) -> bool:
    """``word``, bare, is shaped like some language's word for a million or more: five letters
    or more starting with a stem three languages' words share ("miliyoni", "miljovnna",
    "miliyan"), a spelling no CLDR locale writes (blindfix23b). Not the SI prefix "milli"."""
    bare = _bare(word)
    return (
        len(bare) > _STEM
        and bare.isalpha()
        and bare[:_STEM] in _large_stems()
        and not bare.startswith(_SI_PREFIX)
    )


_NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*(?![\w]|[.,]\d)")
_DECIMAL = re.compile(r"\d+[.,]\d{1,2}")
_SPACE = re.compile(r"[ \u00a0\u202f]{1,2}")
# A code or a symbol in capitals before the number ("MK", "TSh", "KES"), not a capitalised word.
_CODE_BEFORE = re.compile(r"(?<![^\W\d_])(?:[A-Z]|[A-Z][A-Za-z]{0,2}[A-Z])[ \u00a0]?$")


@functools.cache
def _sign_before() -> re.Pattern[str]:
    return re.compile(_currency_signs() + r"[ \u00a0]?$")


def _currency_before(text: str, at: int) -> bool:
    """A currency sign, or a code or symbol in capitals, right before ``text[at:]``."""
    head = text[max(0, at - 6) : at]
    return _sign_before().search(head) is not None or _CODE_BEFORE.search(head) is not None


def shaped_large_amounts(text: str) -> Iterator[tuple[int, int]]:
    """A number beside a word shaped like a million's (:func:`large_magnitude_shape`), before
    it or after it, in ``text`` (an uncovered segment): an amount when the number has a
    decimal part ("1,2 miljovnna", "miliyan 4.5") or a currency before it ("MK 3 miliyoni").
    A whole count with no currency ("20 miliyoni amakhala", a population) stays."""
    words = list(_TOKEN.finditer(text))
    starts = [w.start() for w in words]  # in order, as are the ends: the words do not overlap
    ends = [w.end() for w in words]
    for n in _NUMBER.finditer(text):
        if _DECIMAL.fullmatch(n.group(0)) is None and not _currency_before(text, n.start()):
            continue
        at = bisect.bisect_left(starts, n.end())
        after = words[at] if at < len(words) else None
        at = bisect.bisect_right(ends, n.start())
        before = words[at - 1] if at > 0 else None
        if (
            after is not None
            and _SPACE.fullmatch(text, n.end(), after.start())
            and large_magnitude_shape(after.group(0))
        ):
            yield n.start(), after.end()
        elif (
            before is not None
            and _SPACE.fullmatch(text, before.end(), n.start())
            and large_magnitude_shape(before.group(0))
        ):
            yield before.start(), n.end()
