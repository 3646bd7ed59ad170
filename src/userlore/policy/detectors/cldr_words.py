"""Words for money and digits in every language, from Unicode's CLDR (floorcost7: split out of
``detectors/uncovered.py``, which reads text in the languages no rule here reads with them).

Currency signs, currency names and symbols and compact-number magnitude words through
``babel``; the words for 0-9 through ``unicode-rbnf``'s spell-out rules; a close relative's own
money words from ``policy/data/relatives.yaml``. Unicode's data for every locale, not lists
written for a language; each is loaded once per language on first use.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from userlore.policy.built_tables import built_table
from userlore.policy.relatives import relative_money_words

_SMALL = r"\d{1,3}(?:[.,]\d{1,2})?"


@functools.cache
def _currency_signs() -> str:
    """Every currency sign of the Basic Multilingual Plane (Unicode category Sc), as one
    character class (the planes above hold only historic ones)."""
    signs = "".join(chr(i) for i in range(0x10000) if unicodedata.category(chr(i)) == "Sc")
    return "[" + re.escape(signs) + "]"


def _strip_marks(text: str) -> tuple[str, list[int]]:
    """``text`` without nonspacing marks (a nukta, a diacritic a writer may omit), and the
    index in ``text`` of each kept character."""
    kept: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if unicodedata.category(ch) != "Mn":
            kept.append(ch)
            where.append(i)
    return "".join(kept), where


@functools.cache
def compact_parts(language: str) -> tuple[str, ...]:
    """The prefix and suffix parts of ``language``'s CLDR compact decimal formats, short and
    long ("тыс.", "लाख", " million"), as babel gives them; empty when babel has no such locale.
    Each reader normalises them its own way."""
    from babel import Locale, UnknownLocaleError

    try:
        loc = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return ()
    return tuple(
        part
        for kind in ("short", "long")
        for forms in loc.compact_decimal_formats.get(kind, {}).values()
        for pattern in forms.values()
        for part in (*pattern.prefix, *pattern.suffix)
    )


@functools.lru_cache(maxsize=256)
def _magnitudes(language: str) -> re.Pattern[str] | None:
    """Magnitude words of ``language`` (CLDR compact decimal formats: "млн", "लाख", "만") after
    a number, or ``None`` when babel has no such locale."""
    words: set[str] = set()
    for part in compact_parts(language):
        word = _strip_marks(part.replace("'", "").replace("\xa0", " "))[0]
        word = word.strip(" .-")
        if len(word) >= 2 or (word and not word.isascii()):
            words.add(word)
    if not words:
        return None
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<![\w.,]){_SMALL}\s?(?:(?:{alt})\s?)+(?!\w)", re.IGNORECASE)


_WORD = re.compile(r"[^\W\d_]{2,}")


@functools.cache
def _currency_words(language: str) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """First and last words of the currency names CLDR gives in ``language`` (every
    currency, singular and plural forms, through ``babel``: "euro", "lei", "złotych", "korun",
    "рублей"), casefolded and without marks, as (words of up to four letters, matched whole;
    longer words, matched as a word's start so an inflection counts: "forintot"), or ``None``
    when babel has no such locale. Unicode's data for every locale, not a list written for a
    language; a word of a territory's name ("Bahamas") is left out."""
    from babel import Locale, UnknownLocaleError

    # A relative's own words for its money ("stutz", "naira"; policy/data/relatives.yaml).
    words: set[str] = {_unaccented(w.strip(".")) for w in relative_money_words(language)}
    try:
        loc = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return _split_currency_words(words)
    names = list(loc.currencies.values())
    for forms in loc._data["currency_names_plural"].values():
        names.extend(forms.values())
    places = {_unaccented(w) for name in loc.territories.values() for w in _WORD.findall(name)}
    for name in names:
        found = _WORD.findall(name)
        # The noun is first or last ("dollaro delle Bahamas", "česká koruna"): the words
        # between ("delle", "des") and a country's name are no currency.
        for w in {found[0], found[-1]} if found else ():
            if len(w) >= 3 and _unaccented(w) not in places:
                words.add(_unaccented(w))
    return _split_currency_words(words)


def _split_currency_words(words: set[str]) -> tuple[frozenset[str], tuple[str, ...]] | None:
    if not words:
        return None
    return frozenset(w for w in words if len(w) <= 4), tuple(w for w in words if len(w) > 4)


def _unaccented(word: str) -> str:
    """``word`` casefolded, decomposed and without its marks ("èuros" -> "euros")."""
    return _strip_marks(unicodedata.normalize("NFD", word.casefold()))[0]


@functools.cache
def _currency_symbols(language: str) -> re.Pattern[str] | None:
    """A currency symbol with letters that ``language``'s CLDR data writes before or after an
    amount ("R18 500", "450 Ft", "38 000 Kč", "zł", "kr"), or ISO codes ("EUR 500")."""
    from babel import Locale, UnknownLocaleError

    try:
        loc = Locale.parse(language)
    except (UnknownLocaleError, ValueError):
        return None
    symbols = {v for v in loc.currency_symbols.values() if any(ch.isalpha() for ch in v)}
    symbols.update(loc.currencies)  # the ISO codes
    alt = "|".join(re.escape(v) for v in sorted(symbols, key=len, reverse=True))
    return re.compile(
        rf"(?<![\w.,])(?:(?:{alt})\s?{_SMALL}(?:[ .,\u00a0]\d{{3}})*"
        rf"|{_SMALL}(?:[ .,\u00a0]\d{{3}})*\s?(?:{alt}))(?!\w)"
    )


# A word of a digit run said aloud: anything between spaces, commas, dashes and sentence marks
# (not ``\w``, which splits Devanagari at its vowel signs).
_SAID = re.compile(r"(?:[^\s,;:.!?、。，\-–—/()\[\]\"'’“”«»]|(?<=\w)['’](?=\w))+")


@functools.cache
def _digit_words(language: str) -> dict[str, str] | None:
    """The words for 0-9 of ``language`` (every cardinal form CLDR's spell-out rules give,
    marks stripped, lower-cased) -> the digit, or ``None`` when CLDR has no rules for it.
    Unicode's data for every locale, as the magnitude words above; no list written here."""
    from unicode_rbnf import RbnfEngine

    try:
        engine = RbnfEngine.for_language(language)
    except ValueError:
        return None
    words: dict[str, str] = {}
    for digit in range(10):
        for ruleset, said in engine.format_number(digit).text_by_ruleset.items():
            if "ordinal" in ruleset or "year" in ruleset:
                continue
            word = _strip_marks(said.casefold())[0]
            if word and _SAID.fullmatch(word):
                words.setdefault(word, str(digit))
                # Without its accents too: a neighbour's spelling ("sèt", "nòu") of the same
                # word ("set", "nou"), or one typed without them (blindfix14c).
                words.setdefault(_unaccented(word), str(digit))
    return words or None


@built_table("cldr_words.all_digit_words")
def _all_digit_words() -> frozenset[str]:
    """Digit words of every language CLDR spells out: a digit-free text without four of them
    in a row holds no value said aloud, and needs no language identification."""
    from unicode_rbnf import RbnfEngine

    found: set[str] = set()
    for language in RbnfEngine.get_supported_languages():
        found.update(_digit_words(language) or ())
    return frozenset(found)
