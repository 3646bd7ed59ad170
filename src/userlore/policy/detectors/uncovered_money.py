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

The words it reads by are its neighbours': :mod:`.uncovered_magnitudes` (magnitudes),
:mod:`.uncovered_number_words` (number words under a thousand), :mod:`.uncovered_currencies`
(currency names) and :mod:`.uncovered_figures` (amounts in digits). The names other modules
imported from here before that split are still imported from here.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from typing import Final

from userlore.policy.detectors.common import _Hit, has_decimal
from userlore.policy.detectors.uncovered import _NO_LANGUAGE, _candidate_languages
from userlore.policy.detectors.uncovered_currencies import _currency_names as _currency_names
from userlore.policy.detectors.uncovered_currencies import _is_currency as _is_currency
from userlore.policy.detectors.uncovered_currencies import _tender, _tender_word
from userlore.policy.detectors.uncovered_figures import (
    _BARE_NUMBER,
    _DECIMAL_MILLIONS,
    _THOUSANDS,
    _beside_money,
    _suffixed_amounts,
)
from userlore.policy.detectors.uncovered_magnitudes import (
    _STEM_PREFIX,
    _compound,
    _ends_in_a_magnitude,
    _loaned_magnitude,
    _read_as,
    near_magnitude,
    shaped_large_amounts,
)
from userlore.policy.detectors.uncovered_magnitudes import _TOKEN as _TOKEN
from userlore.policy.detectors.uncovered_magnitudes import _compact_words as _compact_words
from userlore.policy.detectors.uncovered_magnitudes import _inflected as _inflected
from userlore.policy.detectors.uncovered_magnitudes import _vocabulary as _vocabulary
from userlore.policy.detectors.uncovered_magnitudes import says_a_magnitude as says_a_magnitude
from userlore.policy.detectors.uncovered_number_words import _NUMBER_MIN, _hundred, _number_word
from userlore.policy.detectors.uncovered_shapes import _bare
from userlore.policy.findings import _REGULATED
from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.word_view import letter_runs

__all__ = ["uncovered_money"]

_RULE: Final = "money_uncovered_language"


_GAP = re.compile(r"[\s\-]*")


# A letter of a script none of the covered languages writes (Greek, Cyrillic, Armenian,
# Hebrew, Arabic, the Indic scripts, Thai...): such text is read whatever its words.
_OTHER_SCRIPT = re.compile(r"[\u0370-\u1fff\ua640-\ua69f\ua800-\uabff]")
_WORD_CHECK = re.compile(r"[^\W\d_]")


def _may_hold_money(t: str) -> bool:
    """A cheap test before any segment is identified: a three-digit number beside another
    number, a letter of a script no covered language writes, or a Latin word that is some
    language's magnitude word or ends in one ("centoventimila": "ventimila"), or a number word
    before a currency name."""
    if has_decimal(t) and _BARE_NUMBER.search(t) and sum(ch.isdigit() for ch in t) > 3:
        return True
    if has_decimal(t) and (_THOUSANDS.search(t) or _DECIMAL_MILLIONS.search(t)):
        return True
    if has_decimal(t) and next(shaped_large_amounts(t), None) is not None:
        return True  # "1,2 miljovnna": a million's shape, no CLDR word (blindfix23b)
    if not t.isascii() and _OTHER_SCRIPT.search(t):
        return True
    words = letter_runs(t) if t.isascii() else _TOKEN.findall(t)  # split once for the tests
    if any(map(_ends_in_a_magnitude, words)) or _numbers_before_currency(words):
        return True
    # A dialect's spelling of a magnitude before another word ("dörtig Dusend Euro"): read on.
    return any(map(near_magnitude, words[:-1]))


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
        for start, end in shaped_large_amounts(text):  # by its shape: no language's word
            yield (_REGULATED, _RULE, seg.start + start, seg.start + end, None)


_KIN_MAGNITUDE: Final = 3  # letters a magnitude needs before a neighbour's ending ("mil"+"a")


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


def _currency_after(
    text: str, words: list[tuple[re.Match[str], str]], k: int, languages: list[str]
) -> bool:
    """Whether the word after ``words[k]``, past spaces and hyphens only, is a currency's name
    in one of ``languages``: what makes an unread word before it a magnitude of a sum."""
    after = words[k + 1][0]
    return _GAP.fullmatch(text, words[k][0].end(), after.start()) is not None and _is_currency(
        after.group(0), languages, exact=True
    )


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
    for k, (_, bare) in enumerate(words[:-1]):
        if kinds[k] or len(bare) < _STEM_PREFIX + _LONG_MAGNITUDE:
            continue
        if not any(
            bare.endswith(g) and len(bare) - len(g) >= _STEM_PREFIX
            for g in magnitudes
            if len(g) >= _LONG_MAGNITUDE
        ):
            continue
        if _currency_after(text, words, k, languages):
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
        if _currency_after(text, words, k, languages):
            out.add(k)
    return out


_JOINER_MAX: Final = 3  # letters of a word joining number words ("e", "ha", "i", "eta")


_WORDS_BEFORE: Final = 2  # number words right before a currency name that make a sum


def _numbers_before_currency(words: Sequence[str]) -> bool:
    """The cheap test of :func:`_words_before_currency` on a text's ``words``: a number word
    of some language right before some locale's currency name."""
    if not any(map(_tender_word, words)):
        return False  # most texts name no currency: one remembered lookup per word
    return any(
        _tender_word(after) and _number_word(_bare(before))
        for before, after in itertools.pairwise(words)
    )


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
