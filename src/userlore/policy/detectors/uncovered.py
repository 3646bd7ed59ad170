"""Values in text of a language no rule here reads: redacted by shape, fail closed.

The keyword rules read the seven covered languages. In any other language ("код от домофона
4471", "kapı kodu 8320", "통장에 350만 원") they see no cue, so the value stayed in stored
evidence. What decides is the language identifier's verdict per segment (``policy.language``,
the gate's own), not the script: Turkish or Indonesian written without a letter outside the
seven languages' alphabets is as unreadable as Cyrillic. In a segment the identifier places in
an uncovered language the floor redacts

- a credential-shaped token: letters with digits and a symbol, a case change, (eight
  characters or more, letters and digits only) two digits or more, or five digits
  ("Zvezda_1987", "sarang2020", "A12345678"; not "2026-03-09-pipeline");
- a number of four digits or more, grouped or spaced ("180 000", "4509 235857", "5 3 8 1"),
  except a year, a time, a date, a count ("1 2 3 4"), or, in a Latin segment whose words are
  mostly capitalised (names, streets, towns: an address block), one under eight digits
  without a thousands dot or comma (a house number or a postcode);
- an amount: a number beside a currency sign, or beside a magnitude word of that language
  taken from CLDR's compact number formats through ``babel`` ("3 млн", "5 लाख", "2억",
  "120 bin"). These are Unicode's data for every locale, not a list written for a language;
- a value said digit by digit: four or more digit words of that language in a row ("семь три
  ноль два", "dört yedi bir iki"), the words taken from CLDR's spell-out rules through
  ``unicode-rbnf`` (87 locales), not a count ("bir iki üç dört") nor a year
  (``detectors.said_runs``). A digit-free
  segment has no other value, so the guards below (which keep a misread covered sentence's
  postcodes) do not apply to it.

A segment read as a close relative by its own words (``relatives.relative_of``, Cantonese in
Han by ``relatives.cantonese``; issue 29, dialects6), or Han that is not Mandarin by a character
outside the Basic Multilingual Plane (``scripts.beyond_common_han``, "𠊎"; blindfix18b; its Han
numerals with the unit unsaid too, "萬二"), is no covered sentence misread: none of the
guards below apply to it, and its credential shapes and its values of four digits or more
(numbers, grouped by apostrophes too; amounts with a currency sign, CLDR name or its own money
word; an amount with a magnitude word beside a currency; Han numerals in Cantonese) are
redacted, while a house number among names and a small price stay.

A Latin-script segment that holds a frequent function word of a covered language ("the", "mi",
"ist", ``function_words`` in ``policy/data/quote_cues.yaml``; not a piece of "to'rt") and no
Latin letter outside Latin-1 in a word not capitalised (no covered language writes "ọ" or "ş":
blind9's "BVN mi ni …"; "Příční" is a street's name) is
a short covered sentence the identifier misread, and so is one with fewer than two plain words
(an id such as "slack:C024BE91L:1700000000.000100" has no language), and one in a turn whose
Latin words, taken together, the identifier places in a covered language (an English message
quoting a Polish street or an Icelandic name); all are left to the covered rules. These guards hold
only in a turn with no other uncovered script: a Latin token inside Russian or Korean text
("мой пароль Zx7!kLm2q") is judged with it. A segment with no linguistic content (``zxx``:
keys, hashes, URLs) is left to the token rules, which know public keys and placeholders.
Numbers said in words other than digit by digit ("сорок семь девяносто два"), and digit words
of a language CLDR does not spell out, are not read (that would need a vocabulary):
``docs/safety.md`` lists this as what the floor cannot do.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterator
from typing import Final

from userlore.policy.cue_data import cues
from userlore.policy.detectors.cldr_words import (
    _SMALL,
    _WORD,
    _currency_signs,
    _currency_symbols,
    _currency_words,
    _magnitudes,
    _strip_marks,
    _unaccented,
)
from userlore.policy.detectors.common import _Hit, _is_placeholder, has_digit, is_year
from userlore.policy.detectors.keys import standalone_keys
from userlore.policy.detectors.printed_values import printed_values, shared_magnitude_amounts
from userlore.policy.detectors.said_runs import _counting, _said_values, _says_digits
from userlore.policy.findings import _REGULATED, _SECRET
from userlore.policy.known_words import (
    READ_AS_COVERED,
    read_by_its_words,
    unknown_to_covered,
    unread_by_covered,
)
from userlore.policy.language import (
    COVERED_LANGUAGES,
    UNDETERMINED,
    Segment,
    _py3langid,
    identify,
    pieces,
    segments,
)
from userlore.policy.literal_gate import GatedPattern
from userlore.policy.name_lists import without_listed_names
from userlore.policy.relatives import (
    CANTONESE,
    RELATIVES,
    cantonese,
    relative_magnitudes,
    relative_reads_as,
)
from userlore.policy.scripts import beyond_common_han
from userlore.policy.spoken import spoken_spans

_NO_LANGUAGE: Final = frozenset({"zxx"})
_TOKEN = re.compile(r"[^\s\"'`“”«»()\[\]{}<>,;]+")
_EDGES = ".,;:!?"
_NUMBER = re.compile(r"(?<![\w.,:/\-])\d(?:[ .,\-/]?\d){3,}(?![\w]|[.,]\d)")
_DATE = re.compile(r"\d{1,4}[./\-]\d{1,2}[./\-]\d{1,4}")
_DECIMAL = re.compile(r"\d{1,3}[.,]\d{4,}")
_PAIR = re.compile(r"\d{1,2}[.,]\d{2}")
"""Two digits or fewer, a dot or comma, two digits: a time ("14.30"), a day and month ("24.06"),
a version ("22.04") or a price ("18.50"), never a code."""


def _candidate_languages(seg: Segment, text: str) -> list[str]:
    """The segment's language and the identifier's next two guesses (a short Cyrillic turn
    reads as Macedonian or Bulgarian as often as Russian)."""
    out = [seg.language] if seg.language else []
    out.extend(lang for lang in _top3(text) if lang not in out)
    return out


@functools.lru_cache(maxsize=4096)
def _top3(text: str) -> tuple[str, ...]:
    return tuple(lang for lang, _ in _py3langid()(text)[:3])


_PROPER_MIN_DIGITS: Final = 8
# A word of letters alone, standing between spaces (not part of an id or a URL).
# An apostrophe inside a word too ("jamg'armam", "bo'ldi": Uzbek writes it for a letter).
_PLAIN_WORD = re.compile(r"(?<!\S)[^\W\d_]+(?:[-'’ʼ][^\W\d_]+)*[.,!?]?(?!\S)")


def _mostly_proper(text: str) -> bool:
    """Most words capitalised: names, streets and towns (an address block), not a sentence."""
    words: list[str] = _WORD.findall(text)
    if not words:
        return False
    capitalised = sum(1 for w in words if w[0].isupper())
    return capitalised * 2 >= len(words)


def _latin_only(t: str) -> str:
    """The turn's Latin-script words (digits and other scripts dropped), for a whole-turn
    verdict that other scripts cannot tip."""
    return " ".join(w for w in t.split() if any(ch.isascii() and ch.isalpha() for ch in w))


_GLUED_LETTERS: Final = 4
_SHORT_NUMBER = re.compile(r"\d{1,2}(?:[:.]\d{2})?")


def _glued_number(tok: str) -> bool:
    """Letters of a script other than Latin (their marks with them) glued to a clock time or to
    a number of one or two digits, on either side: a particle or a case ending on a time or a
    count ("১০টায়", at ten; "በ10:30"), no credential: four letters at most (a word and a
    password's two digits, "Пароль12", stay one)."""

    def word_part(ch: str) -> bool:
        return (ch.isalpha() and not ch.isascii()) or unicodedata.category(ch).startswith("M")

    lo, hi = 0, len(tok)
    while lo < hi and word_part(tok[lo]):
        lo += 1
    while hi > lo and word_part(tok[hi - 1]):
        hi -= 1
    short_word = sum(ch.isalpha() for ch in tok) <= _GLUED_LETTERS  # not "Пароль12"
    return short_word and _SHORT_NUMBER.fullmatch(tok, lo, hi) is not None


# A clock time with a case ending glued by a hyphen or an apostrophe (blind24's "14:20-д"), and
# a product's name: a lowercase letter, a capitalised word, then one or two digits ("iPhone15").
# (an ending's vowel signs are marks, no word characters: "18:05-க்கு").
_SUFFIXED_TIME = re.compile(r"(?:[01]?\d|2[0-3])[:.][0-5]\d(?:[-'’ʼ][^\d\s]{1,10})?")
_PRODUCT = re.compile(r"[a-z][A-Z][a-z]{2,}\d{1,2}")


def credential_shaped(tok: str) -> bool:
    """Credential-shaped: not a word, not a placeholder (see the module docstring)."""
    tok = tok.strip(_EDGES)
    if len(tok) < 6 or _is_placeholder(tok) or "://" in tok:
        return False
    if _SUFFIXED_TIME.fullmatch(tok) or _PRODUCT.fullmatch(tok):
        return False  # "14:20-д", "14:20-ზე": a time with its case ending; "iPhone15", "eBay24"
    letters = sum(ch.isalpha() for ch in tok)  # any script: "ЛунаСвет2023", "Θάλασσα2024!"
    digits = sum(ch.isdigit() for ch in tok)
    if not letters or not digits:
        return False
    if _glued_number(tok):
        return False  # "১০টায়" (at ten), "በ10:30": a word glued to a time or a count
    # A vowel sign or a virama is part of its letter ("টায়"), not a symbol.
    symbol = any(
        not ch.isalnum() and ch not in "-." and not unicodedata.category(ch).startswith("M")
        for ch in tok
    )
    case = any(ch.isupper() for ch in tok[1:]) and any(ch.islower() for ch in tok)
    if not tok.isalnum():
        return symbol or case  # "2026-03-09-pipeline", "eu-west-1": hyphenated names
    long_mixed = len(tok) >= 8 and digits >= 2 and letters >= 3
    return symbol or case or long_mixed or (len(tok) >= 6 and digits >= 5)


_SENTENCE_MARKS: Final = ".,;:?)"


def _password_tokens(
    text: str, offset: int, longest: int | None, edges: str = _EDGES
) -> Iterator[_Hit]:
    """Credential-shaped tokens of ``text`` with a symbol (not an underscore alone), a case
    change or an unknown word's digits and trailing symbol: a password's shape, not a digest's
    or an identifier's in code (up to ``longest`` characters when given); each stripped of
    ``edges``."""
    for tok in _TOKEN.finditer(text):
        word = tok.group(0).strip(edges)
        if longest is not None and len(word) > longest:
            continue
        # Not "_": a covered sentence quoting code holds "NAME_2", "kubernetes_ingress_v1".
        symbol = any(not ch.isalnum() and ch not in "-._" for ch in word)
        case = any(ch.isupper() for ch in word[1:]) and any(ch.islower() for ch in word)
        if not credential_shaped(word) or "\\" in word:
            continue  # a backslash: an escape in quoted code ("\\u2B12"), not a password
        if not (symbol or case or _signed_unknown(tok.group(0))):
            continue
        start = tok.start() + tok.group(0).find(word)
        rule = "credential_uncovered_language"
        yield (_SECRET, rule, offset + start, offset + start + len(word), None)


def _numbers(text: str) -> Iterator[tuple[int, int]]:
    """Runs of four digits or more; not a year, a date, a decimal ("48.858370"), a time or a
    version ("14.30", "22.04") or a count."""
    for m in _NUMBER.finditer(text):
        run = m.group(0)
        if is_year(run) or any(p.fullmatch(run) for p in (_DATE, _DECIMAL, _PAIR)):
            continue
        if _counting(run):
            continue
        yield m.span()


# A number, at most one short word ("de", "di"), then the word a currency name may be.
_NUMBER_THEN_WORD = re.compile(
    r"(?<![\w.,])(\d(?:[\d.,' \u00a0\u202f]{0,12}\d)?)\s?([^\W\d_]+)(?:\s([^\W\d_]+))?"
)


def _currency_amounts(
    text: str, languages: list[str], min_digits: int = 1
) -> Iterator[tuple[int, int]]:
    """A number (``min_digits`` digits or more) before a currency word of one of
    ``languages`` ("12.000 euro", "3.500 de lei", "42 000 kronor")."""
    found = [w for w in map(_currency_words, languages) if w is not None]
    if not found:
        return
    for m in _NUMBER_THEN_WORD.finditer(text):
        if sum(ch.isdigit() for ch in m.group(1)) < min_digits or is_year(m.group(1)):
            continue
        # The word after the number, or after one short word ("3.500 de lei").
        for group in (2, 3) if len(m.group(2)) <= 3 and m.group(3) else (2,):
            word = _unaccented(m.group(group))
            if any(word in short or word.startswith(longs) for short, longs in found):
                yield m.start(), m.end(group)
                break


def _amounts(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    sign = _currency_signs()
    for m in re.finditer(rf"{sign}\s?{_SMALL}|{_SMALL}\s?{sign}", text):
        yield m.span()
    yield from _currency_amounts(text, languages)
    for language in languages:
        symbols = _currency_symbols(language)
        if symbols is not None:
            for m in symbols.finditer(text):
                yield m.span()
    stripped, where = _strip_marks(text)
    for language in languages:
        pattern = _magnitudes(language)
        if pattern is None:
            continue
        for m in pattern.finditer(stripped):
            end = where[m.end() - 1] + 1
            yield where[m.start()], end


_SINGLE_DIGITS = re.compile(r"(?<!\S)\d(?:[ \-]\d){3,}(?=[\s.,;:!?]|$)")


GUARDED_AMOUNT_DIGITS: Final = 4
"""In a segment that may be a misread covered sentence, an amount with a currency word is
redacted from four digits on ("12.000 euro", "3.500 de lei"): a shop's price ("3 euro al
chilo") is kept, as the covered rules keep it."""


SAID_PASSWORD_MAX: Final = 24
"""In a covered verdict read by its words (a close relative, values5), a credential-shaped
token longer than this is a key or an id, left to the key and vendor rules, which know the
public ones ("pk_test_TYooMQauvdEDq54NiTphI7jx"): a password a person states is shorter."""


def _unmistakable(
    text: str, offset: int, languages: list[str], longest: int | None = None
) -> Iterator[_Hit]:
    """Values in a segment that may be a misread covered sentence: a credential-shaped token
    with a symbol (not an underscore alone) or a case change beside its digits
    ("Vulpe_Rosie9", "tiger!3274"; up to ``longest`` characters when given), digits said one
    by one ("4 8 1 6", not "1 2 3 4"), amounts of four digits or more, and the ids and
    accounts :func:`.printed_values.printed_values` reads by how they are printed."""
    yield from _password_tokens(text, offset, longest)
    for m in _SINGLE_DIGITS.finditer(text):
        if not _counting(m.group(0).replace("-", " ")):
            rule = "value_uncovered_language"
            yield (_REGULATED, rule, offset + m.start(), offset + m.end(), None)
    for start, end in _currency_amounts(text, languages, GUARDED_AMOUNT_DIGITS):
        yield (_REGULATED, "value_uncovered_language", offset + start, offset + end, None)
    for start, end in printed_values(text):
        yield (_REGULATED, "value_uncovered_language", offset + start, offset + end, None)
    sign = _currency_signs()
    found = [
        m.span() for m in re.finditer(rf"{sign}\s?\d[\d.,]{{3,}}\d|\d[\d.,]{{3,}}\d\s?{sign}", text)
    ]
    # Thousands grouped by a space ("4 200 €", "€ 12 500"), as Occitan and French write them.
    found.extend(m.span() for m in _space_grouped(sign).finditer(text))
    for language in languages:  # lettered symbols too ("R45 000", "120 000 Kč")
        symbols = _currency_symbols(language)
        if symbols is not None:
            found.extend(m.span() for m in symbols.finditer(text))
    for start, end in found:
        if sum(ch.isdigit() for ch in text[start:end]) >= GUARDED_AMOUNT_DIGITS:
            yield (_REGULATED, "value_uncovered_language", offset + start, offset + end, None)


# A word no covered list knows, its digits, then a symbol typed with them ("Tikok974!",
# "Kabrit#2024" has its symbol inside): a password's usual shape. In a segment that may be a
# covered sentence misread, a known word's ("Paris2024!", "Team2024!") is a slogan or a name
# the covered rules read (blindfix22a).
_SIGNED = re.compile(r"([^\W\d_]{4,})\d{2,}[!#$%&*@+=~^]+")


def _signed_unknown(token: str) -> bool:
    """``token`` is an unknown word, two digits or more and a trailing symbol (see above)."""
    m = _SIGNED.fullmatch(token.rstrip(".,;:?"))
    return m is not None and unknown_to_covered(m.group(1))


@functools.cache
def _space_grouped(sign: str) -> re.Pattern[str]:
    """An amount grouped by spaces beside the currency signs ``sign`` (blindfix14c)."""
    grouped = r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+"
    return re.compile(
        rf"{sign}\s?{grouped}(?![\d.,]\d)|(?<![\d.,])(?<!\d )(?<!\d\u00a0){grouped}\s?{sign}"
    )


# A number grouped by apostrophes, as Swiss German writes it ("6'800", "45’000").
_APOSTROPHE_GROUPED = re.compile(r"(?<![\w.,'’])\d{1,3}(?:['’]\d{3})+(?![\w'’]|[.,]\d)")

RELATIVE_MIN_DIGITS: Final = 4
"""In a segment read as a close relative (``policy/data/relatives.yaml``), an amount is
redacted from four digits on, as in a possibly misread covered sentence: "7'200 Stutz",
"380,000 naira", "三萬五" go, a coffee's "4.50 Franke" or a tea's "二十八蚊" stays."""


def _relative_values(text: str, language: str, candidates: list[str]) -> Iterator[tuple[int, int]]:
    """Values in a segment read as a close relative: numbers of four digits or more (grouped
    by apostrophes too; not a house number or postcode among names), amounts of four digits
    or more with a currency sign, a CLDR currency name or the relative's own money word, an
    amount with a magnitude word beside a currency, and, in Cantonese, numbers of four digits
    or more written against Han or said in Han numerals ("四五七二", "三萬五", "二十萬"; not a
    year)."""
    proper = _mostly_proper(text)
    for start, end in _numbers(text):
        run = text[start:end]
        grouped = "." in run or "," in run
        if proper and not grouped and sum(ch.isdigit() for ch in run) < _PROPER_MIN_DIGITS:
            continue  # a house number or a postcode among names (an address block)
        yield start, end
    for m in _APOSTROPHE_GROUPED.finditer(text):
        yield m.span()
    candidates = [*candidates, *relative_reads_as(language)]
    for start, end in _amounts(text, candidates):
        if sum(ch.isdigit() for ch in text[start:end]) >= RELATIVE_MIN_DIGITS:
            yield start, end
    if _names_currency(text, candidates):
        # A magnitude word makes a short number large ("3 million naira", "1,2 Millione
        # Franke"): beside a currency it is an amount whatever its digits.
        stripped, where = _strip_marks(text)
        own = relative_magnitudes(language)
        patterns = [_magnitudes(lang) for lang in candidates]
        if own:
            alt = "|".join(re.escape(w) for w in sorted(own, key=len, reverse=True))
            patterns.append(re.compile(rf"(?<![\w.,]){_SMALL}\s?(?:{alt})(?!\w)", re.IGNORECASE))
        for pattern in patterns:
            for m in pattern.finditer(stripped) if pattern is not None else ():
                yield where[m.start()], where[m.end() - 1] + 1
    if language in (CANTONESE, UNDETERMINED):  # Han not Mandarin: the Han segments alone
        # Han is a word character: a number written against it ("得返8,500蚊") has no boundary.
        for m in _DIGITS_IN_HAN.finditer(text):
            run = m.group(0)
            long_enough = sum(ch.isdigit() for ch in run) >= RELATIVE_MIN_DIGITS
            if long_enough and not is_year(run) and not _DATE.fullmatch(run):
                yield m.span()
        for said in spoken_spans(text):
            digits = said.value
            if said.kind == "number" and len(digits) >= RELATIVE_MIN_DIGITS and not is_year(digits):
                yield said.start, said.end
        for m in _ELIDED_HAN.finditer(text):
            yield m.span()  # "萬二", "百二萬": a thousand or more, its unit left unsaid


def _names_currency(text: str, languages: list[str]) -> bool:
    """A currency sign, or a word that is a currency name of one of ``languages`` (CLDR's, and
    a relative's own money words)."""
    if re.search(_currency_signs(), text):
        return True
    found = [w for w in map(_currency_words, languages) if w is not None]
    for word in _WORD.findall(text):
        bare = _unaccented(word)
        if any(bare in short or bare.startswith(longs) for short, longs in found):
            return True
    return False


_DIGITS_IN_HAN = re.compile(r"(?<![0-9A-Za-z.,])\d(?:[\d,.]*\d)?(?![0-9A-Za-z])")
# A magnitude before its next digit with the leading one unsaid ("萬二" 12,000, "千五" 1,500,
# "百二萬" 1.2 million; blindfix18b), not "萬一" (in case).
_ELIDED_HAN = re.compile(
    r"(?<![零〇一二三四五六七八九十百千萬万兩两])(?:百[一二三四五六七八九][萬万]|[千萬万][二三四五六七八九])"
    r"(?![零〇一二三四五六七八九十百千萬万])"
)
_HAN_NUMERAL = GatedPattern(re.compile(r"[零〇一二三四五六七八九十百千萬万億亿兩两]{2,}"))


# A Latin letter outside Latin-1 (not French "œ", German "ẞ"): no covered language writes it;
# nor the ʻokina and the half rings, modifier letters of Unicode's Common script ("laʻu":
# blindfix21a, once they no longer cut the run).
_OUTSIDE_LATIN1 = re.compile(
    r"[\u0100-\u0151\u0154-\u02af\u02bb\u02be\u02bf\u1e00-\u1e9d\u1e9f-\u1eff]"
)


_GLUED = re.compile(r"['’ʼ][^\W\d_]")


def _foreign_word(text: str) -> bool:
    """A word not capitalised (not a name: "Příční", "Jiřího" in an English address stay
    names) that holds a Latin letter outside Latin-1 ("wọ́n", "jọ̀wọ́")."""
    for m in _OUTSIDE_LATIN1.finditer(unicodedata.normalize("NFC", text)):
        start = m.start()
        while start > 0 and not text[start - 1].isspace():
            start -= 1
        if text[start].islower():
            return True
    return False


def _guarded(t: str, text: str) -> bool:
    """A Latin segment ``text`` of ``t`` that may be a short covered sentence the identifier
    misread: it holds a covered function word ("mi", "the") and no letter outside Latin-1
    ("BVN mi ni 22183746509, wọ́n ní": "ọ" is written by no covered language, blind9) and
    words a covered list knows (not :func:`~userlore.policy.known_words.unread_by_covered`:
    Basque "… 72458193M da, …" holds the Portuguese "da", blind11), or the turn's Latin words
    together read as a covered language."""
    folded = text.casefold()
    # Not a piece of a word written with an apostrophe ("to'rt" is no English "to").
    words = (m for m in cues().function_words.finditer(folded) if not _GLUED.match(folded, m.end()))
    if any(True for _ in words) and not _foreign_word(text) and not unread_by_covered(text):
        return True
    return identify(_latin_only(t), vouch=False) in COVERED_LANGUAGES


def misread_covered(t: str, seg: Segment, found: list[Segment]) -> bool:
    """``seg`` of ``t`` is a Latin segment that may be a covered sentence misread (the guards
    of :func:`uncovered_values`: no other uncovered script in the turn, fewer than two plain
    words, or :func:`_guarded`); ``found`` are the turn's segments in an uncovered language.
    The rules of other modules that redact more than shapes no covered sentence holds leave
    it alone too."""
    if seg.script != "Latn" or seg.language in RELATIVES or seg.language in READ_AS_COVERED:
        return False  # read by its own words or the identifier's full ranking: no misread
    if any(s.script not in ("Latn", "Zyyy") for s in found):
        return False
    text = t[seg.start : seg.end]
    return len(_PLAIN_WORD.findall(text)) < 2 or _guarded(t, text)


_WORDED_MIN: Final = 4


ID_MIN_DIGITS: Final = 8
ID_MAX_DIGITS: Final = 18
"""A person's id has eight to eighteen digits ("109850412003270008"); longer runs are an
order's, a parcel's or a card's (which the card rules read by their check)."""
_LONG_RUN = re.compile(
    rf"(?<![\w.,/:\-])\d(?:[ .\-/]?\d){{{ID_MIN_DIGITS - 1},}}(?![\w]|[.,:/\-]\d)"
)
# A phone number's print: three groups or more led by a short group with a trunk zero
# ("04 221 84 11", "081 920 40 00"), or the North American 3-3-4 ("918-453-5000").
_PHONE = re.compile(r"0\d{0,2}(?:[ .\-/]\d{2,4}){2,}|\d{3}([ .\-])\d{3}\1\d{4}")
# The token before a run, joined by one space: a code's earlier groups ("1Z 999 AA1 01 2345 …").
_CODE_BEFORE = re.compile(r"\S*\d\S* $")
# Three groups or more, one of seven digits or more: an order's print ("114-2836475-0019283");
# an id is printed whole or in short groups.
_LONG_GROUPS = re.compile(r"\d+(?:[ .\-/]\d+){2,}")
_LONG_GROUP = re.compile(r"\d{7,}")
_LABELLED_CODE = re.compile(r"[^\W\d_]{2,}:[ \t]*(\d{4,6})(?![\w]|[.,:/\-]\d)")
ID_MIN_CHARS: Final = 6
ID_MAX_CHARS: Final = 16
ID_TOKEN_DIGITS: Final = (5, 13)


def _id_shaped(text: str, offset: int) -> Iterator[_Hit]:
    """Id-shaped runs of a segment beside, or misread as, a language no rule reads (issue 29,
    blindfix24b): :data:`ID_MIN_DIGITS` to :data:`ID_MAX_DIGITS` digits in any grouping (not
    a date, a decimal, a phone number's print, nor the last groups of a longer code), letters
    with five to thirteen digits of an id's length ("R0482193", "P1507893401562"), and four to six
    digits after a label and a colon ("MoMo: 7391"; not a year)."""
    rule = "value_uncovered_language"
    for m in _LONG_RUN.finditer(text):
        run = m.group(0)
        digits = sum(ch.isdigit() for ch in run)
        if (
            digits > ID_MAX_DIGITS
            or _DATE.fullmatch(run)
            or _DECIMAL.fullmatch(run)
            or _PHONE.fullmatch(run)
            or _CODE_BEFORE.search(text, 0, m.start())
            or (_LONG_GROUPS.fullmatch(run) and _LONG_GROUP.search(run))
        ):
            continue
        yield (_REGULATED, rule, offset + m.start(), offset + m.end(), None)
    low, high = ID_TOKEN_DIGITS
    for tok in _TOKEN.finditer(text):
        word = tok.group(0).strip(_EDGES)
        digits = sum(ch.isdigit() for ch in word)
        if (
            ID_MIN_CHARS <= len(word) <= ID_MAX_CHARS
            and word.isalnum()
            and low <= digits <= high
            and digits < len(word)
            and credential_shaped(word)
        ):
            start = offset + tok.start() + tok.group(0).find(word)
            yield (_REGULATED, rule, start, start + len(word), None)
    for m in _LABELLED_CODE.finditer(text):
        if not is_year(m.group(1)):
            yield (_REGULATED, rule, offset + m.start(1), offset + m.end(1), None)


def _no_language(t: str, seg: Segment) -> bool:
    """``seg`` is the model's "no linguistic content" (``zxx``: keys, hashes, URLs) and holds
    fewer than :data:`_WORDED_MIN` plain words: four or more are a sentence of a language the
    model does not know ("Kuv daim npav Thaib tus lej yog …", Hmong; blind20), read as
    undetermined."""
    return (
        seg.language in _NO_LANGUAGE
        and len(_PLAIN_WORD.findall(t[seg.start : seg.end])) < _WORDED_MIN
    )


def uncovered_values(t: str) -> Iterator[_Hit]:
    """Values in the segments of ``t`` in an uncovered language (see the module docstring)."""
    if (
        not has_digit(t)
        and not _says_digits(t)
        and not (_HAN_NUMERAL.search(t) and (cantonese(t) or beyond_common_han(t)))
    ):
        # Every value this reads holds a digit (a credential-shaped token, a number run, an
        # amount; ``isdigit`` is true of every character ``\d`` matches) or is a run of digit
        # words: nothing to find, so no segment need be identified (most of an ingest's floor
        # time before).
        return
    if t.isascii() and (
        len(_PLAIN_WORD.findall(t)) < 2
        or all(len(_PLAIN_WORD.findall(t[start:end])) < 2 for start, end, _ in pieces(t))
    ):
        # Only Latin and neutral runs, none of two plain words: each Latin segment would be
        # skipped below whatever its language, so identifying them is wasted ("ns#k123").
        # The whole text first: an ASCII text's pieces are its sentences (or runs of them),
        # each cut where the text has a space or a line break, so a plain word of a piece is
        # one of the text; fewer than two in the text is fewer than two in every piece.
        return
    everything = segments(t)
    # A script the turn holds that no covered language writes, in a language no rule reads
    # (Adlam reads as no language at all, "zxx"): a lone Latin token between its words is the
    # turn's, whatever the identifier made of the token alone (blind24: "… 𞤢𞤥 𞤳𞤮 Labe2019! ,
    # …", "Мини нууц үг: Elista_Tulpan08 — …" read as Spanish).
    foreign = any(
        s.script not in ("Latn", "Zyyy")
        and s.language not in COVERED_LANGUAGES
        and any(ch.isalpha() for ch in t[s.start : s.end])
        for s in everything
    )
    for seg in everything:
        # A covered verdict on words the language does not know: perhaps a close relative
        # (values5). Read as a possibly misread covered sentence: only what none holds by
        # chance is redacted.
        text = t[seg.start : seg.end]
        listed = without_listed_names(text) if seg.script == "Latn" else None
        if listed is not None and seg.language in listed[1]:
            text = listed[0]  # "Bitwarden oder 1Password für …": a list's names (blindfix23a)
        if seg.script == "Latn" and foreign and len(_PLAIN_WORD.findall(text)) < 2:
            # A symbol typed at its end stays its own ("Labe2019!"); a package's scoped name
            # ("@types/react-dom-18.2.7") is no password, nor a run glued to a CJK comma
            # ("iPhone 16、Pixel 9"): a password typed on a Latin keyboard is ASCII.
            if "/" not in text:
                found_tokens = _password_tokens(text, seg.start, SAID_PASSWORD_MAX, _SENTENCE_MARKS)
                yield from (h for h in found_tokens if t[h[2] : h[3]].isascii())
            continue
        if (
            seg.script == "Latn"
            and seg.language in COVERED_LANGUAGES
            and has_digit(text)
            and not read_by_its_words(text, seg.language)
        ):
            yield from _unmistakable(
                text, seg.start, _candidate_languages(seg, text), SAID_PASSWORD_MAX
            )
    found = [
        s for s in everything if s.language is not None and s.language not in COVERED_LANGUAGES
    ]
    if not found:
        return
    # A Latin segment is read against the whole turn too: an English message quoting a Polish
    # street or an Icelandic name is an English message (identified as a whole).
    other_script = any(s.script not in ("Latn", "Zyyy") for s in found)
    if other_script:
        # Beside a segment of a script no rule reads, a covered segment's cue may be in that
        # script ("ꘋ ꕉꔤꔹ ꕪꔹ NIN: 0482-1937-55": blind24): its id-shaped runs go.
        for seg in everything:
            if seg.script == "Latn" and seg.language in COVERED_LANGUAGES:
                yield from _id_shaped(t[seg.start : seg.end], seg.start)
    read = [s for s in found if not _no_language(t, s) and not misread_covered(t, s, found)]
    for seg in found:
        if _no_language(t, seg):
            if read:
                # A key pasted into a turn no covered rule reads ("Яндекс токенум y0_AgAA…"):
                # its cue word is in that language, so the key rules never saw one; its shape
                # alone says key (blindfix16a).
                for start, end in standalone_keys(t, seg.start, seg.end):
                    yield (_SECRET, "credential_uncovered_language", start, end, None)
            continue
        text = t[seg.start : seg.end]
        if seg.language in RELATIVES or seg.script == "Hani":
            # Read as a close relative by its own words, or Han that is not Mandarin by its
            # characters (blindfix18b): no covered sentence misread, so none of the guards
            # below; its shapes and its values of four digits or more go.
            candidates = _candidate_languages(seg, text)
            own = seg.language or UNDETERMINED
            for tok in _TOKEN.finditer(text):
                if credential_shaped(tok.group(0)):
                    end = tok.end()
                    while end > tok.start() and text[end - 1] in _EDGES:
                        end -= 1
                    rule = "credential_uncovered_language"
                    yield (_SECRET, rule, seg.start + tok.start(), seg.start + end, None)
            for start, end in _relative_values(text, own, candidates):
                rule = "value_uncovered_language"
                yield (_REGULATED, rule, seg.start + start, seg.start + end, None)
            # Digits said one by one in its own words or its neighbour's ("véier fënnef null
            # zwee"): no relative's count or price is four digit words in a row (blindfix14c).
            said_in = [*candidates, *relative_reads_as(own)]
            for start, end in _said_values(text, said_in):
                rule = "value_uncovered_language"
                yield (_REGULATED, rule, seg.start + start, seg.start + end, None)
            continue
        if not has_digit(text):
            # Every other value below holds a digit. A run of the language's own digit words
            # is no covered sentence misread (the guards below): it is read whatever they say.
            for start, end in _said_values(text, _candidate_languages(seg, text)):
                rule = "value_uncovered_language"
                yield (_REGULATED, rule, seg.start + start, seg.start + end, None)
            continue
        if seg.script == "Latn" and not other_script:
            if len(_PLAIN_WORD.findall(text)) < 2:
                continue  # "slack:C024BE91L:1700000000.000100": an id, not a sentence
            if _guarded(t, text):
                # Perhaps a covered sentence misread: its postcodes and prices are kept, but
                # not what no covered sentence holds by chance (gate4: "parola de la email
                # este Vulpe_Rosie9", "codul de la seif este 4 8 1 6").
                yield from _unmistakable(text, seg.start, _candidate_languages(seg, text))
                if identify(_latin_only(t), vouch=False) not in COVERED_LANGUAGES:
                    # The turn's words together read as no covered language: a function
                    # word's lookalike ("my" in "Earroo my phassport …: 548213906"), so its
                    # id-shaped runs go (blind24).
                    yield from _id_shaped(text, seg.start)
                continue
        spans: list[tuple[int, int, str]] = []
        for tok in _TOKEN.finditer(text):
            if credential_shaped(tok.group(0)):
                end = tok.end()
                while end > tok.start() and text[end - 1] in _EDGES:
                    end -= 1
                spans.append((tok.start(), end, "credential"))
        proper = seg.script == "Latn" and _mostly_proper(text)
        for start, end in _numbers(text):
            run = text[start:end]
            grouped = "." in run or "," in run  # "48.000": an amount's thousands
            if proper and not grouped and sum(ch.isdigit() for ch in run) < _PROPER_MIN_DIGITS:
                continue  # a house number or a postcode among names, not a code
            spans.append((start, end, "number"))
        if has_digit(text):
            for start, end in _amounts(text, _candidate_languages(seg, text)):
                spans.append((start, end, "number"))
            spans.extend((start, end, "number") for start, end in shared_magnitude_amounts(text))
        for start, end, kind in spans:
            if kind == "credential":
                rule = "credential_uncovered_language"
                yield (_SECRET, rule, seg.start + start, seg.start + end, None)
            else:
                rule = "value_uncovered_language"
                yield (_REGULATED, rule, seg.start + start, seg.start + end, None)
