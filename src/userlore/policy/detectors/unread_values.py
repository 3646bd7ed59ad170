"""Values in a segment whose language no rule and no CLDR spell-out reads (issue 29, blind13).

:mod:`.uncovered_money` reads amounts in words with CLDR's number words for the segment's
candidate languages; where CLDR has none (Haitian "twa mil senk san dola", Samoan "e lua afe
lima selau tālā", Xhosa "ziirandi ezingamawaka alishumi", Sorani "نۆسەد هەزار دینارە") the
amount stayed in stored evidence. The floor cannot tell number words from other words there,
so it leans on the one word it can read, the currency's, from CLDR's names and symbols of
**every** locale (through ``babel``; a language's own money word is often a neighbour's:
"dola", "tala", "randi"). In a segment of an uncovered language:

- **words beside a currency word**: a clause (between commas and stops) with no digit and no
  question mark at its sentence's end, where two words or more stand right before or after a
  currency word and none of them is a number word CLDR knows for the segment's candidates
  (those are :mod:`.uncovered_money`'s, which keeps a price under a thousand): the words on
  each such side (four at most) are redacted with the currency word. Recall first: a clause
  "rands to dollars" is lost from evidence too (``docs/safety.md``);
- **figures beside any locale's currency**: a number of four digits or more right before or
  after a currency word or lettered symbol ("Naf 12.450,-"), and then, in the same segment,
  one of three digits beside one ("385 florin"), even where the covered function-word guard of
  :mod:`.uncovered` holds (Papiamento reads "mi", "ta", "di" as covered words);
- **an account or id number after its loanword**: a run of six digits or more (spaces or dashes
  between groups) within five words after a word respelled from an account or id word of
  ``policy/data/loanword_ids.yaml`` ("kuenta", "sédula", "konta": spelling folded so c, k, s
  and qu meet), where that guard holds too.

Runs only on a turn whose words hold a currency word or such a loanword (a set lookup per
word), and only in its uncovered segments.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from typing import Final

from userlore.policy.built_tables import built_table
from userlore.policy.data_files import data_yaml
from userlore.policy.detectors.cldr_words import _currency_signs
from userlore.policy.detectors.common import _Hit, has_digit
from userlore.policy.detectors.uncovered import _NO_LANGUAGE, _candidate_languages
from userlore.policy.detectors.uncovered_money import (
    _currency_names,
    _vocabulary,
    says_a_magnitude,
)
from userlore.policy.detectors.uncovered_shapes import _bare
from userlore.policy.findings import _REGULATED
from userlore.policy.language import COVERED_LANGUAGES, Segment, segments
from userlore.policy.word_lists import LEXICON_ZIPF, _lexicon
from userlore.policy.word_view import letter_runs

__all__ = ["unread_values"]

_RULE: Final = "value_uncovered_language"
_WORD = re.compile(r"(?:[^\W\d_]|[\u0300-\u036f\u0900-\u0dff\u02bb\u02bc'’])+")
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_MIN_UNIT: Final = 4  # letters of a currency word matched with an affix ("dola", "randi")
_AFFIX: Final = 3  # letters a word may add before or after a currency word ("zi-irandi")
_MIN_STEMMED: Final = 5  # letters of a currency word matched with another last letter
_SIDE_WORDS: Final = 4
_MIN_SIDE: Final = 2
_CLAUSE = re.compile(r"[,;:.!?،؛。！？\n]")
_QUESTION = re.compile(r"[?？؟]")
_SENTENCE_END = re.compile(r"[.!?。！？؟\n]")
_GAP = re.compile(r"[\s\-]*")
# A number: grouped by dots, commas, spaces or apostrophes, or a plain run; a ",-" or ",00" end.
_FIGURE = re.compile(
    r"(?<![\w.,])\d{1,3}(?:[.,'\u00a0\u202f ]\d{3})+(?:,-|[.,]\d{2})?(?![\w]|[.,]\d)"
    r"|(?<![\w.,])\d{3,}(?:[.,]\d{2})?(?![\w]|[.,]\d)"
)
_BIG_FIGURE: Final = 4
_SMALL_FIGURE: Final = 3
_ID_DIGITS: Final = 6
_ID_RUN = re.compile(r"(?<![\w.,])\d+(?:[ \-]\d+)*(?![\w]|[.,]\d)")
_ID_WINDOW: Final = 5  # words between the loanword and its number


def _plain(word: str) -> str:
    """Casefolded, marks and the okina dropped ("tālā" is "tala", "paʻanga" "paanga")."""
    folded = word.casefold()
    if not folded.isascii():
        folded = unicodedata.normalize("NFD", folded)
        folded = "".join(ch for ch in folded if unicodedata.category(ch) != "Mn")
    return folded.replace("ʻ", "").replace("ʼ", "").replace("'", "").replace("’", "")


_SHARED_LOCALES: Final = 3  # locales naming one currency by a word: that word is its name
_WIDELY: Final = 10  # locales naming a currency by a word that is a place's word elsewhere


@functools.cache
def _tender() -> frozenset[str]:
    """Currencies some territory has used since 1999, the euro's year (not funds, test codes
    or a bank's units; a guilder just replaced is still in people's words)."""
    import datetime

    from babel.core import get_global
    from babel.numbers import get_territory_currencies

    since, until = datetime.date(1999, 1, 1), datetime.date.today()
    return frozenset(
        code
        for t in get_global("territory_currencies")
        for code in get_territory_currencies(t, since, until)
    )


@built_table("unread_values.units")
def _units() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(currency words, lettered currency symbols, words of territory names) of every CLDR
    locale, plain. A word is the
    first or last of a tender currency's name (display and plural forms, 3+ letters, no word of
    any locale's territory names) that names two currencies in one locale ("dollar", "dinar",
    "króna") or one currency in three locales or more ("tala", "paʻanga", "guaraní"): the
    names' other words ("Bank", "amerikanu") are not money. A symbol is its letters ("NAf."
    is "naf", "Gs." "gs")."""
    import collections

    import babel
    from babel import Locale, UnknownLocaleError

    tender = _tender()
    symbols: set[str] = set()
    locales: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    words: set[str] = set()
    places: set[str] = set()
    countries: set[str] = set()  # territory names of one word ("Burundi", "Samoa")
    unplaced: dict[str, int] = collections.defaultdict(int)  # locales where it names no place
    for ident in babel.localedata.locale_identifiers():
        try:
            loc = Locale.parse(ident)
        except (UnknownLocaleError, ValueError):
            continue
        for code, symbol in loc.currency_symbols.items():
            letters = "".join(ch for ch in symbol if ch.isalpha())
            if code in tender and len(letters) >= 2 and letters == symbol.strip(".$ \u200e\u200f"):
                symbols.add(_plain(letters))
        if "_" in ident:
            continue  # a territory's locale: its names are its language's
        here: set[str] = set()
        for name in loc.territories.values():
            found = [_plain(w) for w in _WORD.findall(name)]
            here.update(found)
            if len(found) == 1:
                countries.update(found)
        places |= here
        names = [(c, n) for c, n in loc.currencies.items() if c in tender]
        for code, forms in loc._data["currency_names_plural"].items():
            if code in tender:
                names.extend((code, n) for n in forms.values())
        codes: dict[str, set[str]] = collections.defaultdict(set)
        for code, name in names:
            found = _WORD.findall(name)
            for w in {found[0], found[-1]} if found else ():
                plain = _plain(w)
                if len(plain) >= 3:
                    codes[plain].add(code)
                    locales[(plain, code)].add(ident)
        words.update(w for w, named in codes.items() if len(named) >= 2)
        for w in codes.keys() - here:
            unplaced[w] += 1
    words.update(w for (w, _), where in locales.items() if len(where) >= _SHARED_LOCALES)
    # No country's name ("Burundi") nor other word of a territory's name ("Amerika", "Kosta"
    # of "Kosta Rika"): a place, not money; unless many locales name a currency by it and no
    # place ("euro", a word of the "Zona euro" in some).
    widely = {w for w, n in unplaced.items() if n >= _WIDELY} - countries
    kept = frozenset(w for w in words if w not in places or w in widely)
    return kept, frozenset(symbols), frozenset(places - kept)


@functools.cache
def _stems() -> frozenset[str]:
    """Currency words of six letters or more without their last letter: a word ending
    otherwise ("دینارە" of "دیناری") meets its name there."""
    words, _, _ = _units()
    return frozenset(w[:-1] for w in words if len(w) > _MIN_STEMMED)


_WORD_MEMO: Final = 1 << 15


@functools.lru_cache(maxsize=_WORD_MEMO)
def _is_unit(word: str, symbols: bool = True) -> bool:
    """``word`` is a currency word of four letters or more of some locale ("dola", "tala");
    or, not capitalised, one of five or more with an affix of up to three letters ("krónur",
    "ziirandi", "makwacha") or one of six or more ending otherwise; or (``symbols``) a
    lettered symbol ("naf", "php": beside figures only; three-letter names too, "lek", "won",
    "som": short words of other languages elsewhere)."""
    plain = _plain(word)
    words, lettered, places = _units()
    if plain in places:
        return False  # "France", "Slovenia": a country before its postcode, not "franc"
    if symbols and (plain in lettered or (len(plain) < _MIN_UNIT and plain in words)):
        return True
    if len(plain) < _MIN_UNIT:
        return False
    found = plain in words
    if not word[:1].isupper():  # a capitalised word is a name ("Gdańsk" is no "dansk")
        found = found or plain[:-1] in _stems()
        for cut in range(1, _AFFIX + 1):
            for part in (plain[cut:], plain[:-cut]):
                found = found or (len(part) > _MIN_UNIT and part in words)
    return found and not _covered_word(word.casefold())


def names_a_currency(t: str) -> bool:
    """Some word of ``t`` is a currency word of some locale (not a symbol): where
    :func:`unread_values` may read money in words, and read it differently once the identifier
    sees the text inside other characters (a JSON wrapper)."""
    return any(_is_unit(w, symbols=False) for w in _LETTERS.findall(t))


@functools.cache
def _covered_money() -> frozenset[str]:
    """The covered languages' own CLDR currency words ("dollars", "pesos", "real")."""
    return frozenset(w for lang in COVERED_LANGUAGES for w in _currency_names(lang))


def _covered_word(folded: str) -> bool:
    """A frequent word of a covered Latin-script language ("some", "trouble", "library": a
    currency word with an affix by chance) that is none of its currency words."""
    if _bare(folded) in _covered_money():
        return False
    return any(
        lexicon is not None and lexicon.get(folded, 0.0) >= LEXICON_ZIPF
        for lexicon in map(_lexicon, sorted(COVERED_LANGUAGES))
    )


@functools.cache
def _loanwords() -> tuple[str, ...]:
    """Account and id words as other languages respell them, folded (the data file's)."""
    return tuple(_sound(str(w)) for w in data_yaml("loanword_ids.yaml")["words"])


def _sound(word: str) -> str:
    """A spelling fold under which a loanword meets its source: marks off, c/k/qu as k, c before
    e/i and z as s, ph as f, y as i, doubled letters single, final vowels dropped."""
    w = _plain(word)
    w = re.sub(r"qu|q", "k", w)
    w = re.sub(r"c(?=[eiy])", "s", w)
    w = w.replace("c", "k").replace("ph", "f").replace("z", "s").replace("y", "i")
    w = re.sub(r"(.)\1+", r"\1", w)
    return w.rstrip("aeiou")


_LOAN_EXTRA: Final = 2


@functools.lru_cache(maxsize=_WORD_MEMO)
def _is_loanword(word: str) -> bool:
    sound = _sound(word)
    return len(sound) >= 3 and any(
        sound.startswith(w) and len(sound) - len(w) <= _LOAN_EXTRA for w in _loanwords()
    )


def unread_values(t: str) -> Iterator[_Hit]:
    """Money and account numbers in ``t``'s uncovered segments (see the module docstring)."""
    digits = has_digit(t)
    figures = digits and _FIGURE.search(t) is not None
    ids = digits and any(
        sum(ch.isdigit() for ch in m.group(0)) >= _ID_DIGITS for m in _ID_RUN.finditer(t)
    )
    # Cheaper than _WORD; an okina is a letter (Lm) here too. An ASCII text's are its letter
    # runs of two or more (the shared split).
    words = [w for w in letter_runs(t) if len(w) > 1] if t.isascii() else _LETTERS.findall(t)
    # Names of four letters or more anywhere; symbols and short names only beside figures
    # (most turns hold "won", "da" or "kr" as words: no segment need be identified for them).
    units = any(_is_unit(w, figures) for w in words)  # positional: the memo's cheaper key
    loans = ids and any(map(_is_loanword, words))
    if not units and not loans:
        return
    runs = list(_unread_runs(t))
    spans: list[tuple[int, int]] = []
    for begin, stop, _ in runs:
        text = t[begin:stop]
        if units:
            spans.extend((begin + s, begin + e) for s, e in _figures(text))
        if loans:
            spans.extend((begin + s, begin + e) for s, e in _ids(text))
    if units:
        spans.extend(_said(t, runs))
    for start, end in spans:
        yield (_REGULATED, _RULE, start, end, None)


def _unread_runs(t: str) -> Iterator[tuple[int, int, list[str]]]:
    """Runs of segments in uncovered languages, joined across the neutral ones between them
    (digits, marks), with the candidate languages of the longest: the identifier cuts a Tongan
    sentence at each okina ("paʻanga"), but it is one run of one language."""
    run: list[Segment] = []
    for seg in [*segments(t), None]:
        if seg is not None and seg.language is None and run:
            run.append(seg)  # neutral: kept if an uncovered segment follows
            continue
        unread = (
            seg is not None
            and seg.language is not None
            and seg.language not in COVERED_LANGUAGES
            and seg.language not in _NO_LANGUAGE
        )
        if seg is not None and unread:
            run.append(seg)
            continue
        while run and run[-1].language is None:
            run.pop()
        if run:
            longest = max(run, key=lambda s: s.end - s.start)
            languages = _candidate_languages(longest, t[longest.start : longest.end])
            yield run[0].start, run[-1].end, languages
        run = []


def _beside_unit(text: str, start: int, end: int) -> bool:
    """A currency word or symbol right before or after ``text[start:end]``, a space between
    ("Naf 12.450,-", "385 florin") or none ("$14,300")."""
    sign = re.compile(_currency_signs())
    if sign.match(text, end) or (start and sign.match(text, start - 1)):
        return True  # "$14,300", "14.300€"
    after = _WORD.search(text, end)
    if after and _near(text, end, after.start()) and _is_unit(after.group(0)):
        return True
    before = [m for m in _WORD.finditer(text, 0, start) if _near(text, m.end(), start)]
    return bool(before) and _is_unit(before[-1].group(0))


def _near(text: str, a: int, b: int) -> bool:
    gap = text[a:b]
    return gap == "" or (len(gap) <= 2 and gap.isspace())  # not "db:5432", a host's port


def _figures(text: str) -> Iterator[tuple[int, int]]:
    """Numbers beside a currency word: four digits or more, then three beside one."""
    found = [m.span() for m in _FIGURE.finditer(text) if _beside_unit(text, *m.span())]
    digits = [sum(ch.isdigit() for ch in text[s:e]) for s, e in found]
    if not any(d >= _BIG_FIGURE for d in digits):
        return
    for (s, e), d in zip(found, digits, strict=True):
        if d >= _SMALL_FIGURE:
            yield s, e


def _said(t: str, runs: list[tuple[int, int, list[str]]]) -> Iterator[tuple[int, int]]:
    """Words beside a currency word in a digit-free statement's clause of ``t``, inside a run
    of a language CLDR has no number words for (module docstring)."""
    unread = runs
    start = 0
    for stop in [*(m.start() for m in _CLAUSE.finditer(t)), len(t)]:
        clause_start, start = start, stop + 1
        clause = t[clause_start:stop]
        if not clause.strip() or has_digit(clause):
            continue
        end = _SENTENCE_END.search(t, stop)
        if end is not None and _QUESTION.match(t, end.start()):
            continue
        words = list(_WORD.finditer(clause))
        for i, m in enumerate(words):
            if i == 0 or not _is_unit(m.group(0), symbols=False):
                continue  # a currency word opening its clause is its subject ("kwacha fell")
            at = clause_start + m.start()
            home = [(b, e, langs) for b, e, langs in unread if b <= at < e]
            if not home:
                continue
            low, high, languages = home[0]
            numbers, _ = _vocabulary([x for x in languages if x not in COVERED_LANGUAGES])
            before = [w for w in _side(clause, words, i, -1) if clause_start + w.start() >= low]
            after = [w for w in _side(clause, words, i, 1) if clause_start + w.end() <= high]
            sides = [s for s in (before, after) if len(s) >= _MIN_SIDE]
            if not sides or any(_plain(w.group(0)) in numbers for s in sides for w in s):
                continue
            # A language CLDR reads numbers in is uncovered_money's (a price under a thousand
            # stays), unless a word beside is some language's magnitude ("kinse mil pesos").
            if any(_vocabulary(languages[:1])) and not any(
                says_a_magnitude(w.group(0)) for s in sides for w in s
            ):
                continue
            lo = before[-1].start() if len(before) >= _MIN_SIDE else m.start()
            hi = after[-1].end() if len(after) >= _MIN_SIDE else m.end()
            yield clause_start + lo, clause_start + hi


def _side(clause: str, words: list[re.Match[str]], i: int, step: int) -> list[re.Match[str]]:
    """Up to :data:`_SIDE_WORDS` words next to ``words[i]`` on one side, nearest first."""
    out: list[re.Match[str]] = []
    j = i + step
    while 0 <= j < len(words) and len(out) < _SIDE_WORDS:
        a, b = (
            (words[j].end(), words[j + 1].start())
            if step < 0
            else (
                words[j - 1].end(),
                words[j].start(),
            )
        )
        if _GAP.fullmatch(clause, a, b) is None or _is_unit(words[j].group(0), symbols=False):
            break
        out.append(words[j])
        j += step
    return out


def _ids(text: str) -> Iterator[tuple[int, int]]:
    """Runs of six digits or more within five words after an account or id loanword."""
    for m in _ID_RUN.finditer(text):
        if sum(ch.isdigit() for ch in m.group(0)) < _ID_DIGITS:
            continue
        before = _WORD.findall(text, max(0, m.start() - 80), m.start())[-_ID_WINDOW:]
        if any(map(_is_loanword, before)):
            yield m.span()
