"""The user's money in a language no rule here reads, said in words or beside an amount.

:mod:`.uncovered` redacts amounts written with digits and :mod:`.uncovered_shapes` runs of
number words that CLDR spells out exactly. Held-out text (blind8, issue 29) still left money in
stored evidence where the words were not CLDR's exact form or the number stood alone:

- **number words before a currency name, or naming a magnitude**: a run of number words with a
  magnitude among them ("dvidešimt tūkstančių eurų", "двеста хиљада динара"), one compound word
  of number words ending in a magnitude ("centoventimila", "stodvadsaťtisíc"), or a magnitude
  directly before a currency name with the word before it, whatever that word is ("двайсет
  хиляди евро", a colloquial twenty; "दोन लाख रुपये", a language CLDR does not spell out). The
  words come from CLDR for the segment's candidate languages: ``unicode-rbnf``'s spell-outs of
  a few numbers (inflected forms too: 5,000 and 20,000 take other cases than 1,000),
  ``babel``'s compact number formats ("միլիոն", "लाख") and currency names ("eurų", "лева",
  "रुपये"). No language is named here;
- **a bare number beside money**: a standalone three-digit number ("nájom je 650") in a segment
  that also names an amount (a currency sign or name, or a magnitude): in text the rules cannot
  read, a number next to the user's money is taken as money. Four digits or more are already
  redacted by :mod:`.uncovered`.

- **a loanword in another script**: a magnitude and a currency written in a script no language
  of CLDR writes them in ("ᱦᱟᱡᱟᱨ ᱴᱟᱠᱟ", Santali in Ol Chiki for "hajar taka"; "ꠢꠣꠎꠣꠞ ꠐꠣꠇꠣ" in
  Syloti Nagri) read as the ASCII ``anyascii`` spells them, against every language's
  magnitudes and currency names spelled the same way ("হাজার", "টাকা"; blindfix17b);
- **a sum under a thousand in words**: two number words or more right before a currency name
  ("dwieście pięćdziesiąt złotych", "tresinte e cincuante euros"), the words some language's
  (CLDR's spell-outs of 1 to 999 in every language it spells out) or one edit from one, short
  joiners between them; the currency name any locale's (blindfix18b);
- **a bare number beside a grouped amount**: a segment with a number whose thousands are
  grouped ("2,250", "1.640") names the user's pay or savings, so its three-digit numbers are
  money too (blindfix18b).

A price of a thing in one number word ("osiem złotych") stays; one of two words or more, or of
a thousand or more, is redacted like the user's money, and so is a three-digit number beside a
price: the floor cannot tell whose money it is in a language it does not read
(``docs/safety.md``). Runs only on a turn with a segment in an uncovered language.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from anyascii import anyascii

from userlore.policy.built_tables import built_table
from userlore.policy.cue_data import cues
from userlore.policy.detectors.cldr_words import _currency_signs, compact_parts
from userlore.policy.detectors.common import _Hit, has_decimal
from userlore.policy.detectors.uncovered import _NO_LANGUAGE, _amounts, _candidate_languages
from userlore.policy.detectors.uncovered_shapes import _bare, _engine, _every_magnitude, _said
from userlore.policy.findings import _REGULATED
from userlore.policy.known_words import unread_by_covered
from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.word_view import letter_runs

__all__ = ["uncovered_money"]

_RULE: Final = "money_uncovered_language"
# A word with its marks (not ``\w``, which splits Devanagari and Tamil at their vowel signs, and
# Limbu, Syloti Nagri or Myanmar at theirs: blindfix17b).
_TOKEN = re.compile(
    r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u0e00-\u0eff\u0f00-\u109f\u1700-\u1c4f"
    r"\ua800-\ua82f\ua880-\ua8df\ua900-\ua9df\uaa00-\uaaff\uabc0-\uabff])+",
    re.UNICODE,
)
_GAP = re.compile(r"[\s\-]*")
_SMALL_NUMBERS: Final = (*range(1, 21), *range(30, 100, 10), *range(100, 1000, 100), 21, 25)
_BIG_NUMBERS: Final = tuple(
    k * 10**e for e in (3, 6, 9) for k in (1, 2, 3, 4, 5, 10, 11, 12, 20, 21, 25, 100, 120, 200)
)
_MIN_MAGNITUDE: Final = 3  # letters of a magnitude a compound may end in ("mila", "tisíc")
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
# A letter of a script none of the covered languages writes (Greek, Cyrillic, Armenian,
# Hebrew, Arabic, the Indic scripts, Thai...): such text is read whatever its words.
_OTHER_SCRIPT = re.compile(r"[\u0370-\u1fff\ua640-\ua69f\ua800-\uabff]")
_WORD_CHECK = re.compile(r"[^\W\d_]")


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


def _may_hold_money(t: str) -> bool:
    """A cheap test before any segment is identified: a three-digit number beside another
    number, a letter of a script no covered language writes, or a Latin word that is some
    language's magnitude word or ends in one ("centoventimila": "ventimila"), or a number word
    before a currency name."""
    if has_decimal(t) and _BARE_NUMBER.search(t) and sum(ch.isdigit() for ch in t) > 3:
        return True
    if has_decimal(t) and (_THOUSANDS.search(t) or _DECIMAL_MILLIONS.search(t)):
        return True
    if not t.isascii() and _OTHER_SCRIPT.search(t):
        return True
    words = letter_runs(t) if t.isascii() else _TOKEN.findall(t)  # split once for the tests
    if any(map(_ends_in_a_magnitude, words)) or _numbers_before_currency(words):
        return True
    # A dialect's spelling of a magnitude before another word ("dörtig Dusend Euro"): read on.
    return any(map(near_magnitude, words[:-1]))


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


def uncovered_money(t: str) -> Iterator[_Hit]:
    """Amounts in number words and numbers beside money in ``t``'s uncovered segments."""
    if not _WORD_CHECK.search(t) or not _may_hold_money(t):
        return
    for seg in segments(t):
        if seg.language is None or seg.language in COVERED_LANGUAGES:
            continue
        if seg.language in _NO_LANGUAGE:
            continue
        text = t[seg.start : seg.end]
        languages = _read_as(text, _candidate_languages(seg, text))
        spans = list(_said_amounts(text, languages))
        for start, end in spans:
            yield (_REGULATED, _RULE, seg.start + start, seg.start + end, None)
        for start, end in _beside_money(text, languages, bool(spans)):
            yield (_REGULATED, _RULE, seg.start + start, seg.start + end, None)
        for start, end in _words_before_currency(text, languages):
            if not any(s < end and start < e for s, e in spans):  # not read above already
                yield (_REGULATED, _RULE, seg.start + start, seg.start + end, None)
        for start, end in _suffixed_amounts(text, languages):
            yield (_REGULATED, _RULE, seg.start + start, seg.start + end, None)


def _vocabulary(languages: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    numbers: set[str] = set()
    magnitudes: set[str] = set()
    for language in languages:
        n, m = _spelled(language)
        numbers |= n
        magnitudes |= m
    return frozenset(numbers), frozenset(magnitudes)


_INFLECTION: Final = 2  # letters an inflected currency name may differ in at its end
_KIN_MAGNITUDE: Final = 3  # letters a magnitude needs before a neighbour's ending ("mil"+"a")


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
    for language in languages:
        for name in _currency_names(language):
            if plain == name or (
                not exact
                and len(plain) > 3
                and name.startswith(stem)
                and abs(len(name) - len(plain)) <= 2
            ):
                return True
    return False


def _said_amounts(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    """Runs of number words naming a magnitude (see the module docstring)."""
    # Only the uncovered candidates' words: an English "twenty-two thousand" in a segment the
    # identifier misplaced (a short line, a JSON wrapper) is left to the covered rules.
    numbers, magnitudes = _vocabulary([x for x in languages if x not in COVERED_LANGUAGES])
    words = [(m, _bare(m.group(0))) for m in _TOKEN.finditer(text)]
    loaned = {k for k, (m, _) in enumerate(words) if _loaned_magnitude(m.group(0))}
    if not magnitudes and not loaned:
        return
    kinds: list[str] = []  # "mag", "num" or ""
    for k, (_, bare) in enumerate(words):
        if bare in magnitudes or k in loaned or _compound(bare, numbers, magnitudes):
            kinds.append("mag")
        elif len(bare) > _KIN_MAGNITUDE and (bare[:-1] in magnitudes or bare[:-2] in magnitudes):
            # A magnitude with a neighbour's ending: Occitan "mila" of Catalan "mil" among
            # "nou cents" (blindfix14c).
            kinds.append("mag")
        elif bare in numbers:
            kinds.append("num")
        else:
            kinds.append("")
    # One word ending in a magnitude right before a currency name, its multiplier a number word
    # CLDR does not spell ("tweintichtûzen euro"): blind15.
    ends = _ends_before_currency(text, words, kinds, magnitudes, languages)
    # A dialect's spelling of a magnitude, with its multiplier before it (blind16).
    for k in ends | _near_before_currency(text, words, kinds, languages):
        kinds[k] = "mag"

    def adjacent(i: int, j: int) -> bool:
        return _GAP.fullmatch(text, words[i][0].end(), words[j][0].start()) is not None

    i = 0
    while i < len(words):
        if not kinds[i]:
            i += 1
            continue
        j = i
        while j + 1 < len(words) and kinds[j + 1] and adjacent(j, j + 1):
            j += 1
        run = range(i, j + 1)
        start, end = words[i][0].start(), words[j][0].end()
        currency = (
            j + 1 < len(words)
            and adjacent(j, j + 1)
            and _is_currency(words[j + 1][0].group(0), languages)
        )
        has_magnitude = any(kinds[k] == "mag" for k in run)
        # "centoventimila", "tvåhundratusen": a magnitude with its multiplier in one word.
        compound = any(
            kinds[k] == "mag" and (k in ends or _compound(words[k][1], numbers, magnitudes))
            for k in run
        )
        if has_magnitude and (len(run) >= 2 or compound or currency):
            if len(run) == 1 and not compound and i > 0 and adjacent(i - 1, i):
                start = words[i - 1][0].start()  # the multiplier CLDR does not spell
            if currency:
                end = words[j + 1][0].end()
            yield start, end
        i = j + 1


_LONG_MAGNITUDE: Final = 4  # letters of a magnitude a word may end in before a currency


def _ends_before_currency(
    text: str,
    words: list[tuple[re.Match[str], str]],
    kinds: list[str],
    magnitudes: frozenset[str],
    languages: list[str],
) -> set[int]:
    """Indexes of unread words that end in one of ``magnitudes`` (of four letters or more,
    after three letters or more) and stand right before a currency name."""
    out: set[int] = set()
    for k, (m, bare) in enumerate(words[:-1]):
        if kinds[k] or len(bare) < _STEM_PREFIX + _LONG_MAGNITUDE:
            continue
        if not any(
            bare.endswith(g) and len(bare) - len(g) >= _STEM_PREFIX
            for g in magnitudes
            if len(g) >= _LONG_MAGNITUDE
        ):
            continue
        after = words[k + 1][0]
        if _GAP.fullmatch(text, m.end(), after.start()) and _is_currency(
            after.group(0), languages, exact=True
        ):
            out.add(k)
    return out


def _near_before_currency(
    text: str,
    words: list[tuple[re.Match[str], str]],
    kinds: list[str],
    languages: list[str],
) -> set[int]:
    """Indexes of unread words one edit from some language's magnitude that stand right
    before a currency name ("twintig Dusend Euro", blind16): the multiplier before is taken
    with it, as for a magnitude CLDR spells."""
    out: set[int] = set()
    for k, (m, _) in enumerate(words[:-1]):
        if kinds[k] or not near_magnitude(m.group(0)):
            continue
        after = words[k + 1][0]
        if _GAP.fullmatch(text, m.end(), after.start()) and _is_currency(
            after.group(0), languages, exact=True
        ):
            out.add(k)
    return out


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


def _loaned_magnitude(word: str) -> bool:
    """``word`` is not Latin and spells in ASCII as some language's magnitude in another
    script (a loanword: Santali "ᱦᱟᱡᱟᱨ" of Bengali "হাজার")."""
    if word.isascii() or _LATIN.search(word) is not None:
        return False
    return _spelled_in_ascii(word) in _transliterated_magnitudes()


_JOINER_MAX: Final = 3  # letters of a word joining number words ("e", "ha", "i", "eta")
_NUMBER_MIN: Final = 3  # letters of a number word counted ("sto", "dvě"; not "o" or "un")
_NEAR_NUMBER_MIN: Final = 4  # letters of a number word a dialect's spelling may be one edit from
_WORDS_BEFORE: Final = 2  # number words right before a currency name that make a sum


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


def _numbers_before_currency(words: Sequence[str]) -> bool:
    """The cheap test of :func:`_words_before_currency` on a text's ``words``: a number word
    of some language right before some locale's currency name."""
    if not any(map(_tender_word, words)):
        return False  # most texts name no currency: one remembered lookup per word
    return any(
        _tender_word(after) and _number_word(_bare(before))
        for before, after in itertools.pairwise(words)
    )


@functools.lru_cache(maxsize=_WORD_MEMO)
def _tender_word(word: str) -> bool:
    """:func:`_tender` of a word as written, remembered (the cheap test asks it of every
    word of every text)."""
    return len(word) >= _NUMBER_MIN and _tender(_bare(word))


_JOIN_GAP = re.compile(r"[\s\-'’ʼ]*")
# A word with an apostrophe inside ("п'ятдесят", "c'hant"): one number word, not two.
_APOSTROPHE_TOKEN = re.compile(rf"{_TOKEN.pattern}(?:['’ʼ]{_TOKEN.pattern})*")


def _words_before_currency(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    """A sum under a thousand said in words right before a currency name: two number words or
    more (some language's, or one edit from one), short joiners between them, a hundred among
    them and the last not one ("dwieście pięćdziesiąt złotych", "trí chéad caoga euro";
    blindfix18b). One word ("osiem złotych"), round hundreds ("dvě stě korun") or a sum under a
    hundred ("dua puluh ringgit") stay, as a thing's price is said."""
    numbers, _ = _vocabulary(languages)
    words = [(m, _bare(m.group(0))) for m in _APOSTROPHE_TOKEN.finditer(text)]
    for c in range(1, len(words)):
        word, bare = words[c]
        if not (_is_currency(word.group(0), languages) or _tender(bare)):
            continue
        first, k, said = c, c - 1, []
        while k >= 0 and _JOIN_GAP.fullmatch(text, words[k][0].end(), words[k + 1][0].start()):
            w = words[k][1]
            if len(w) >= _NUMBER_MIN and (w in numbers or _number_word(w)):
                first = k
                said.append(w)  # from the last word before the currency back
            elif len(w) > _JOINER_MAX or first == c:
                break  # not a number word, nor a joiner between two of them
            k -= 1
        # Hundreds and then more: not a round sum of hundreds ("limang daang piso") nor one under
        # a hundred ("dua puluh ringgit"), as a thing's price is said.
        if len(said) >= _WORDS_BEFORE and not _hundred(said[0]) and any(map(_hundred, said[1:])):
            yield words[first][0].start(), word.end()
