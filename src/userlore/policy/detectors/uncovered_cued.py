"""A value after a credential acronym, and money in words, in text no rule here reads.

:mod:`.uncovered` reads values by shape and the digit words CLDR spells out; blind9 (issue 29)
still stored, in languages no rule names (their number words unknown to CLDR's spell-outs):

- **the clause after a credential acronym** (``data/uncovered_cues.yaml``: PIN, OTP, CVV, ATM
  ..., international, written in Latin capitals in any language, or in another script that
  transliterates to it: ``anyascii`` reads "ПИН", "ΠΙΝ", "PİN" (capitals, in a script with
  case) and "পিন", "पिन", "핀", "პინ" (caseless) as PIN; an abjad that drops the vowel ("پن")
  is not read): in a segment of an uncovered
  language the floor cannot tell number words from other words, so the clause that follows the
  acronym ("ATM کا پن چار دو نو سات ہے", "UPI PIN ఒకటి తొమ్మిది ఐదు ఎనిమిది") is redacted, and
  a list of single words after it ("ẹ̀rin, èje, ọ̀kan, ẹ̀ta") with it. Not a clause of fewer
  than three words ("PIN ɗin ATM ya kulle"), nor one that ends in a question mark: a question
  about a PIN states none;
- **an amount in words beside a currency name**: a number or magnitude word of the segment's
  candidate languages (``unicode-rbnf`` spell-outs, ``babel`` compact formats) with at most one
  word between it and a currency name of CLDR ("ሃምሳ ሺህ ብር", "ẹgbẹ̀rún àádọ́ta naira": the word
  between is a form CLDR does not spell, or a number that follows its magnitude);
- **a magnitude word in a language CLDR does not spell out**: its number words are unknown, so
  the magnitude and one word each side of it go ("ایک لاکھ بیس ہزار");
- **a number against a magnitude in a script written without spaces** ("៨ លានរៀល"): the
  magnitude runs into the next word, so no word boundary is asked after it;
- **amounts no sentence holds by chance**, anywhere in a turn with an uncovered segment (a
  covered sentence misread too): a lettered currency symbol of any CLDR locale before four
  digits or more ("Rs. 25,000"), a number grouped by lakhs as CLDR's Indian formats write it
  ("1,80,000"), and a currency sign with a magnitude letter ("₦1.2m").

Benign text in an uncovered language is withheld from plans anyway; these redact on store,
costing stored words of a sentence about a PIN or a price (``docs/safety.md``). Hooked in
``sensitivity.classify`` beside :mod:`.uncovered_money`, only where no other rule named a span.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Final

from anyascii import anyascii

from userlore.policy.built_tables import built_table
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.cldr_words import _currency_signs, _strip_marks, compact_parts
from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.uncovered import (
    _NO_LANGUAGE,
    _candidate_languages,
    misread_covered,
)
from userlore.policy.detectors.uncovered_money import (
    _TOKEN,
    _compact_words,
    _is_currency,
    _vocabulary,
)
from userlore.policy.detectors.uncovered_shapes import _bare, _engine
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.known_words import READ_AS_COVERED
from userlore.policy.language import COVERED_LANGUAGES, Segment, segments
from userlore.policy.literal_gate import GatedPattern
from userlore.policy.word_view import lower_runs

__all__ = ["uncovered_cued"]

_CUED_RULE: Final = "credential_uncovered_language"
_MONEY_RULE: Final = "money_uncovered_language"
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f])+")
# Where a clause ends: a sentence mark of any script, a line break, a dash between spaces, a
# span already redacted (``redact`` reads its own output again).
_CLAUSE_END = re.compile(r"[.!?;。！？؟۔።፧।॥။។\n]|\s[—–-]\s|[—–]|\[REDACTED:")
_QUESTION: Final = frozenset("?？؟፧")
_COMMA = re.compile(r"\s*[,،፣、，]\s*")
_CLAUSE_MIN_WORDS: Final = 3
_LIST_MIN_ITEMS: Final = 2
# After the acronym: a suffix joined by a hyphen ("PIN-ka", "PIN-númerið"), a colon, spaces.
_AFTER_CUE = re.compile(r"(?:-[^\W\d_]+)?[\s:：=\-]*")


@functools.cache
def _cue() -> re.Pattern[str]:
    data = data_yaml("uncovered_cues.yaml")
    alt = "|".join(sorted(map(re.escape, data["acronyms"]), key=len, reverse=True))
    return re.compile(rf"(?<![A-Za-z])(?:{alt})(?![A-Za-z])")


@functools.cache
def _cue_gate() -> GatedPattern:
    """:func:`_cue` asked only where an acronym's letters stand (its leading lookbehind turns
    off the engine's literal scan: ~4 µs a sentence)."""
    return GatedPattern(_cue())


def uncovered_cued(t: str) -> Iterator[_Hit]:
    """Values after a credential acronym and money in words in ``t``'s uncovered segments."""
    cues = list(_cue_gate().finditer(t))
    if not t.isascii() and _OTHER_SCRIPT.search(t):  # not for Latin-1, CJK or kana alone
        cues.extend(_script_cues(t))
    money = _may_name_money(t)
    shapes = list(_unmistakable_amounts(t)) if _GROUPED.search(t) else []
    if not cues and not money and not shapes:
        return
    found = [
        s
        for s in segments(t)
        if s.language is not None
        and s.language not in COVERED_LANGUAGES
        and s.language not in _NO_LANGUAGE
    ]
    if not found:
        return
    for start, end in shapes:
        yield (_REGULATED, _MONEY_RULE, start, end, None)
    if not cues and not money:
        return
    readable = [s for s in found if not misread_covered(t, s, found)]
    for m in cues:
        clause = _clause_after(t, m.end())
        if clause is not None and any(s.start <= clause[0] < s.end for s in readable):
            yield (_SECRET, _CUED_RULE, clause[0], clause[1], None)
    if money:
        for seg in readable:
            for start, end in _money_words(t, seg):
                yield (_REGULATED, _MONEY_RULE, seg.start + start, seg.start + end, None)


# A letter past Latin-1 up to Ge'ez, Khmer and Mongolian, or Hangul: where a script cue may be.
_OTHER_SCRIPT = re.compile(r"[\u0100-\u1fff\u3130-\u318f\uac00-\ud7af]")
# A word with a letter outside ASCII, short enough to be an acronym in any script ("ПИН",
# "पिन": consonants and vowel signs), a hyphen ending it ("ПИН-кода") or not.
_SCRIPT_WORD = re.compile(
    r"(?<![\w\u0300-\u036f\u0900-\u0dff])[^\W\d_][\w\u0900-\u0dff]{1,5}(?![\w\u0900-\u0dff])"
)


def _script_cues(t: str) -> Iterator[re.Match[str]]:
    """The acronyms written in a script other than ASCII Latin, read through ``anyascii``.

    A script with case must write the capitals (a Russian "пин" on a map is a map pin, as
    the Latin rule reads "PIN" and not "pin"); a caseless one is read as it is.
    """
    for m in _SCRIPT_WORD.finditer(t):
        word = m.group(0)
        if word.isascii():
            continue
        latin = "".join(c for c in anyascii(word) if c.isalnum())  # "p'in": an ejective mark
        if word.lower() != word.upper():  # a script with case
            if not word.isupper():
                continue
        else:
            latin = latin.upper()
        if _cue().fullmatch(latin):
            yield m


def _clause_after(t: str, at: int) -> tuple[int, int] | None:
    """The clause after a cue ending at ``at`` (see the module docstring), or ``None``."""
    while True:
        at = _AFTER_CUE.match(t, at).end()  # type: ignore[union-attr]
        more = _cue().match(t, at)
        if more is None:
            break
        at = more.end()  # "PIN ATM", "UPI PIN": the value follows the last acronym
    stop = _CLAUSE_END.search(t, at)
    end = stop.start() if stop else len(t)
    later = [m for m in _cue().finditer(t, at, end) if m.start() > at]
    if later:  # "PIN ɗin ATM ya kulle": the clause after the last acronym
        return _clause_after(t, later[-1].end())
    pieces = _COMMA.split(t[at:end])
    items = 0  # single words after commas: a list of digits said one by one
    for piece in pieces[1:]:
        if len(_WORD.findall(piece)) != 1 or _cue().search(piece):
            break
        items += 1
    text = pieces[0]
    if items >= _LIST_MIN_ITEMS:  # "ẹ̀rin, èje, ọ̀kan, ẹ̀ta", not "..., mundu"
        for piece in pieces[1 : items + 1]:
            text = t[at : t.index(piece, at + len(text)) + len(piece)]
    clause_end = at + len(text.rstrip())
    if clause_end == end and stop is not None and t[stop.start()] in _QUESTION:
        return None
    words = [w for w in _WORD.findall(t, at, clause_end) if not _cue().fullmatch(w)]
    if len(words) < _CLAUSE_MIN_WORDS:
        return None
    return at, clause_end


# A letter of a script no covered language writes, or a Latin letter outside Latin-1.
_UNCOVERED_LETTER = re.compile(r"[\u0100-\u024f\u0250-\u02af\u0370-\u1fff\ua640-\ua69f]")


def _may_name_money(t: str) -> bool:
    """A cheap test: a magnitude word of some CLDR locale, or a letter of another script."""
    every = _may_name_words()
    if t.isascii():
        return not every.isdisjoint(lower_runs(t))
    if _UNCOVERED_LETTER.search(t):
        return True
    # Latin-1 words, which casefold as the compact words do.
    return not every.isdisjoint(w.casefold() for w in _WORD.findall(t))


@functools.cache
def _may_name_words() -> frozenset[str]:
    return _every_compact() | _covered_magnitudes()


@built_table("uncovered_cued.covered_magnitudes")
def _covered_magnitudes() -> frozenset[str]:
    """The covered languages' magnitude words ("mil", "thousand"): a close relative the
    identifier hid says its money with them (Galician "mil catrocentos euros")."""
    return frozenset(w for name in COVERED_LANGUAGES for w in _vocabulary([name])[1])


@built_table("uncovered_cued.every_compact")
def _every_compact() -> frozenset[str]:
    """The magnitude words of CLDR's compact number formats in every language a segment can
    be read as (the identifier's: a segment's candidate languages are its guesses), bare, but
    not a covered language's ("thousand", "mil"): text that holds only those is left to the
    covered rules unless something else sends it here (the cheap test of every English turn)."""
    from userlore.policy.language import identifier_languages

    out: set[str] = set()
    for name in identifier_languages():
        if name not in COVERED_LANGUAGES:
            out |= _compact_words(name)
    for name in COVERED_LANGUAGES:
        out -= _compact_words(name)
    return frozenset(out)


def _money_words(t: str, seg: Segment) -> Iterator[tuple[int, int]]:
    text = t[seg.start : seg.end]
    languages = _candidate_languages(seg, text)
    # A relative the identifier hid (Galician read as Portuguese) shares the covered
    # language's number words ("mil"): read with them (blind11).
    hidden = seg.language in READ_AS_COVERED
    numbers, magnitudes = _vocabulary(
        [x for x in languages if hidden or x not in COVERED_LANGUAGES]
    )
    if not numbers and not magnitudes:
        return
    words = list(_TOKEN.finditer(text))
    bare = [_bare(w.group(0)) for w in words]
    spelled = _engine(seg.language or "") is not None
    for i, w in enumerate(bare):
        if w not in numbers and w not in magnitudes:
            continue
        # A number or magnitude word, at most one word, a currency name (either order); a
        # magnitude among them, or a word between that CLDR does not spell ("ẹgbẹ̀rún àádọ́ta
        # naira"): a price in words under a thousand ("петнайсет лева") stays, as in
        # :mod:`.uncovered_money`.
        for j in (i + 1, i + 2, i - 1, i - 2):
            if not 0 <= j < len(words):
                continue
            lo, hi = min(i, j), max(i, j)
            between = bare[lo + 1 : hi]
            large = w in magnitudes or any(b in magnitudes or b not in numbers for b in between)
            if (
                large
                and _adjacent(text, words, lo, hi)
                and _currency(bare[j], words[j].group(0), languages)
            ):
                yield words[lo].start(), words[hi].end()
                break
        if not spelled and w in magnitudes:
            lo = i - 1 if i > 0 and _adjacent(text, words, i - 1, i) else i
            hi = i + 1 if i + 1 < len(words) and _adjacent(text, words, i, i + 1) else i
            yield words[lo].start(), words[hi].end()
    if seg.script != "Latn":
        short = _short_magnitudes(tuple(languages))
        for i in range(1, len(words) - 1):
            # "ሃምሳ ሺህ ብር": a form of a magnitude ("ሺ") before a currency, the word before it.
            if (
                any(bare[i].startswith(m) for m in short)
                and _adjacent(text, words, i - 1, i + 1)
                and _currency(bare[i + 1], words[i + 1].group(0), languages)
            ):
                yield words[i - 1].start(), words[i + 1].end()
    if _UNSPACED.search(text):
        yield from _unspaced(text, languages)


_GAP = re.compile(r"[\s\-]*")


def _adjacent(text: str, words: list[re.Match[str]], lo: int, hi: int) -> bool:
    """Words ``lo`` to ``hi`` stand next to each other (spaces and hyphens between)."""
    return all(
        _GAP.fullmatch(text, words[k].end(), words[k + 1].start()) is not None
        for k in range(lo, hi)
    )


# Scripts written without spaces between words (Unicode's line-breaking class SA: Thai, Lao,
# Myanmar, Khmer, the Tai scripts); Ethiopic writes spaces, so a syllable is no magnitude there.
_UNSPACED = re.compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u1950-\u19df\u1a20-\u1aaf\ua9e0-\ua9ff\uaa60-\uaadf]"
)
_GLUED_BEFORE: Final = 4  # letters (marks stripped) of a number word glued to a magnitude


def _unspaced(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    """A number, in digits or in the letters glued before it, against a magnitude word of a
    script written without spaces ("៨ លានរៀល", "ຫ້າລ້ານກີບ")."""
    words = _short_magnitudes(tuple(languages))
    if not words:
        return
    alt = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    stripped, where = _strip_marks(text)
    pattern = rf"(?:(?<![\w.,])\d+(?:[.,]\d+)?\s?|[^\W\d_]{{1,{_GLUED_BEFORE}}})(?:{alt})"
    for m in re.finditer(pattern, stripped):
        yield where[m.start()], where[m.end() - 1] + 1


@functools.cache
def _short_magnitudes(languages: tuple[str, ...]) -> frozenset[str]:
    """Magnitude words of ``languages``' CLDR compact formats in scripts other than Latin, one
    letter too (Ethiopic "ሺ" is a syllable), marks stripped as :func:`_strip_marks` does."""
    out: set[str] = set()
    for language in languages:
        for part in compact_parts(language):
            word = _strip_marks(part.replace("\xa0", " "))[0].strip(" .-'")
            if word and not any(ch.isascii() for ch in word) and " " not in word:
                out.add(word)
    return frozenset(out)


_NAME_SLACK: Final = 3  # letters an inflected currency name may add at its end
_NAME_MIN: Final = 4


def _currency(bare: str, word: str, languages: list[str]) -> bool:
    """A currency sign, or a currency name of ``languages`` (CLDR), exact or with up to
    three letters added to or dropped from a name of four letters or more ("nairar" and
    "naira", "manatdır" and "manat"): a loose stem would take "pride" for a name."""
    if len(word) <= 2 and _is_currency(word, languages):
        return True  # a sign
    for language in languages:
        names = _names(language)
        if bare in names:
            return True
        if len(bare) < _NAME_MIN:
            continue
        for name in _names_by_start(language).get(bare[:_NAME_MIN], ()):
            short, long = sorted((name, bare), key=len)
            if long.startswith(short) and len(long) - len(short) <= _NAME_SLACK:
                return True
    return False


@functools.cache
def _names_by_start(language: str) -> dict[str, tuple[str, ...]]:
    """:func:`_names` of four letters or more, keyed by their first four."""
    out: dict[str, list[str]] = {}
    for name in _names(language):
        if len(name) >= _NAME_MIN:
            out.setdefault(name[:_NAME_MIN], []).append(name)
    return {k: tuple(v) for k, v in out.items()}


@functools.cache
def _names(language: str) -> frozenset[str]:
    from userlore.policy.detectors.uncovered_money import _currency_names

    return _currency_names(language)


@functools.cache
def _lettered_symbols() -> re.Pattern[str]:
    """Lettered currency symbols (two letters or more: "Rs", "RM", "Kč") of every language a
    segment can be read as, before a grouped number."""
    alt = "|".join(re.escape(v) for v in _every_lettered_symbol())
    return re.compile(rf"(?<![^\W\d_])(?:{alt})\.?\s?\d{{1,3}}(?:[,.\u00a0 ]\d{{2,3}})+(?!\d)")


@built_table("uncovered_cued.lettered_symbols")
def _every_lettered_symbol() -> tuple[str, ...]:
    """:func:`_lettered_symbols`' symbols from babel's 100-odd locales, longest first."""
    from babel import Locale, UnknownLocaleError

    from userlore.policy.language import identifier_languages

    symbols: set[str] = set()
    for name in identifier_languages():
        try:
            values = Locale.parse(name).currency_symbols.values()
        except (UnknownLocaleError, ValueError):
            continue
        symbols.update(v for v in values if len(v) >= 2 and v.isalpha())
    return tuple(sorted(sorted(symbols), key=len, reverse=True))


# Indian grouping (CLDR's "#,##,##0"): lakhs and crores, the last group three digits.
_LAKH = re.compile(r"(?<![\d,.])\d{1,2},(?:\d\d,)+\d{3}(?![\d,])")


# A cheap test before :func:`_unmistakable_amounts`: a grouped number, or one with a magnitude
# letter ("1.2m").
_GROUPED = re.compile(r"\d[,.\u00a0 ]\d\d|\d(?:bn|mn|[kmb])(?![^\W\d_])", re.IGNORECASE)


@functools.cache
def _sign_compact() -> re.Pattern[str]:
    """A currency sign, a number and a magnitude letter (\"₦1.2m\", \"$40k\")."""
    return re.compile(rf"{_currency_signs()}\s?\d+(?:[.,]\d+)?\s?(?:bn|mn|[kmb])(?![^\W\d_])", re.I)


def _unmistakable_amounts(t: str) -> Iterator[tuple[int, int]]:
    for pattern in (_lettered_symbols(), _LAKH, _sign_compact()):
        for m in pattern.finditer(t):
            if sum(ch.isdigit() for ch in m.group(0)) >= 4 or pattern is _sign_compact():
                yield m.span()
