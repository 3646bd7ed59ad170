"""Which of a segment's words a covered language's list knows, and the close relative a covered
verdict on words it does not know stands for.

The covered rules read a covered language word by word; a segment read as covered whose words
the language's ``wordfreq`` list does not know was written in something else: a close relative
the identifier cannot tell apart on a short turn (:data:`READ_AS_COVERED`, hidden from its
candidates and named again from its full ranking by ``policy.near_relatives``), a relative it
does not know at all, or an uncovered language a covered function word misleads. The
identifier (``policy.language``), the quote gate and the floor's detectors for uncovered
languages read segments through these. Split out of ``policy/language.py`` (tidy15).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Final

from userlore.policy.code_tokens import without_code_tokens
from userlore.policy.near_relatives import misread_relative
from userlore.policy.relatives import RELATIVES
from userlore.policy.word_lists import (
    _EDGE_PUNCTUATION,
    COVERED_LANGUAGES,
    LEXICON_ZIPF,
    LEXICON_ZIPF_SHORT_WORD,
    UNDETERMINED,
    _lexicon,
    _vouch_lexicon,
)

__all__ = [
    "COMPOUNDING_LANGUAGES",
    "READ_AS_COVERED",
    "leaves_unread",
    "read_by_its_words",
    "unknown_to_covered",
    "unknown_words",
    "unread_by_covered",
]

READ_AS_COVERED: Final = frozenset(
    {"pcm", "gl", "an", "ext", "ast", "oc", "lb", "wa", "lij", "vec", "bcl"}
)
"""Close relatives of covered languages (and one the model confuses with short English) that
py3langid cannot tell apart from them on a short turn: left out of its candidates, so their text
reads as the nearest covered language (Galician as Portuguese or Spanish, Luxembourgish as
German, Nigerian Pidgin as English). A documented risk (``docs/safety.md``)."""

_RANKED_RELATIVES: Final = READ_AS_COVERED - frozenset(RELATIVES)
"""The hidden relatives the full ranking may name: those ``policy.relatives`` reads by their own
words (Nigerian Pidgin, Luxembourgish...) are left to those words, since the model ranks short
English with a tool's name ("I always use pnpm for installs") as Pidgin."""


VOUCH_ZIPF: Final = 2.0
VOUCH_ZIPF_SHORT_WORD: Final = 3.0
"""A word is known to a covered language at this Zipf frequency or above in ``wordfreq``'s
large list for it (2.0: once in ten million words, so rare inflections and compounds such as
"ahorrados", "Avísale" or "misspoke" are known; Romanian "parola" is not Spanish at 1.86); a
word of up to three letters, which languages share by chance, at 3.0."""


def read_by_its_words(text: str, language: str) -> bool:
    """Every word of ``text`` is known to ``language`` (``wordfreq``'s large list, names and
    tokens skipped, as :func:`~userlore.policy.language.vouched_language` reads them), or
    there is no list to read it by.

    A close relative of a covered language ("o contrasinal da wifi é …" is Galician, "ech
    verdéngen 4.200 Euro" Luxembourgish, "A'm earnin £2,300" Scots) is read as that language
    on a confident or a lone verdict, where
    :func:`~userlore.policy.language.vouched_language` does not look (and
    :data:`READ_AS_COVERED` hides the relative from the identifier); the covered rules then
    read it word by word and miss the words they were not written for. A segment with a value
    in it is quoted only when this holds (issue 29, values5)."""
    lexicon = _vouch_lexicon(language)
    if lexicon is None:
        return True
    compounds = language in COMPOUNDING_LANGUAGES
    clitics = ENCLITICS.get(language, ())
    return all(_known(word, i, lexicon, compounds, clitics) for i, word in _plain_words(text))


def _hidden_relative(chunk: str, language: str) -> str:
    """``language``, or the close relative hidden from the identifier that a covered verdict
    on words it does not know stands for (``policy.near_relatives``, blind11's Galician), or
    ``und`` for a relative the identifier does not know at all (:func:`_unread_relative`)."""
    worded = without_code_tokens(chunk) or chunk  # the words, as ``identify`` reads them
    found = misread_relative(worded, language, _RANKED_RELATIVES, unknown_words)
    return found or _unread_relative(chunk, language) or language


UNREAD_RELATIVE_WORDS: Final = 3
UNREAD_RELATIVE_SHARE: Final = 0.25
"""A covered verdict on a segment with this many words its list does not know, and at least
this share of its words, stands for a language the identifier does not know."""


def _unread_relative(chunk: str, language: str) -> str | None:
    """``und`` when a Latin segment read as covered ``language`` leaves
    :data:`UNREAD_RELATIVE_WORDS` of its words, and :data:`UNREAD_RELATIVE_SHARE` of them,
    unknown to that language's list (names and tokens skipped): a relative the packaged model
    does not know (Ladino, Papiamento, Cape Verdean) ranks as its covered neighbour, and
    no hidden relative ranks for :func:`misread_relative` to name ("Ainda le devo al banko
    dos mil sietesientos shekels" is Spanish 0.74; issue 29, blind12). A covered turn's slang
    and typos leave one or two words unknown (``tests/data/unknown_relatives.jsonl``)."""
    if language not in COVERED_LANGUAGES:
        return None
    return UNDETERMINED if leaves_unread(chunk, language) else None


def leaves_unread(chunk: str, language: str) -> bool:
    """Whether ``language``'s list leaves :data:`UNREAD_RELATIVE_WORDS` of ``chunk``'s words,
    and :data:`UNREAD_RELATIVE_SHARE` of them, unknown (names and tokens skipped)."""
    unknown = unknown_words(chunk, language)
    return unknown >= UNREAD_RELATIVE_WORDS and unknown >= UNREAD_RELATIVE_SHARE * len(
        _plain_words(chunk)
    )


@functools.lru_cache(maxsize=4096)
def unknown_words(text: str, language: str) -> int:
    """How many of ``text``'s words ``language``'s list does not know (read as
    :func:`read_by_its_words` reads them: names and tokens skipped); 0 with no list."""
    lexicon = _vouch_lexicon(language)
    if lexicon is None:
        return 0
    compounds = language in COMPOUNDING_LANGUAGES
    clitics = ENCLITICS.get(language, ())
    return sum(
        1 for i, word in _plain_words(text) if not _known(word, i, lexicon, compounds, clitics)
    )


UNREAD_SHARE: Final = 0.5
"""A segment is unread by the covered lists when each leaves at least this share of its words
(and two or more) unknown."""


def unread_by_covered(text: str) -> bool:
    """No covered language's list knows most of ``text``'s words (:data:`UNREAD_SHARE`, names
    and tokens skipped): a covered function word in it ("da", "on", "la") is a word of another
    language, not a covered sentence the identifier misread ("Nire NANa 72458193M da,
    Osakidetzako txartela berritzeko eskatu didate"; issue 29, blind11)."""
    words = _plain_words(text)
    need = max(2.0, UNREAD_SHARE * len(words))
    for language in sorted(COVERED_LANGUAGES):
        if _vouch_lexicon(language) is not None and unknown_words(text, language) < need:
            return False
    return bool(words)


@functools.lru_cache(maxsize=4096)
def unknown_to_covered(word: str) -> bool:
    """``word`` is no frequent word of any covered Latin-script language (``wordfreq``'s small
    lists at the identifier's bar, :data:`LEXICON_ZIPF`), one letter long or more: among Han
    runs an English word ("script", "café") is frequent, a romanised syllable ("kap", "ê",
    "lóng") is not, though the large lists hold many such by chance ("kap" in German)."""
    folded = word.casefold()
    floor = LEXICON_ZIPF_SHORT_WORD if len(word) <= 3 else LEXICON_ZIPF
    return not any(
        lexicon.get(folded, 0.0) >= floor
        for language in sorted(COVERED_LANGUAGES)
        if (lexicon := _lexicon(language)) is not None
    )


def _plain_words(text: str) -> list[tuple[int, str]]:
    """``(position, word)`` of the tokens that are words: letters only once edge punctuation
    is stripped, split at hyphens and apostrophes ("l'email", "e-mail"); an id, a password or
    a brand with digits ("Vulpe_Rosie9", "23andMe") is not a word of any language."""
    out: list[tuple[int, str]] = []
    for i, token in enumerate(text.split()):
        for part in re.split(r"[-'’]", token.strip(_EDGE_PUNCTUATION)):
            if part.isalpha():
                out.append((i, part))
    return out


COMPOUNDING_LANGUAGES: Final = frozenset({"de"})
"""Covered languages that write a compound as one word ("Rechnungsnummer", "Testmodus"): a
word no list holds is known when it splits into two words the list holds (blindfix9b)."""
_LINKS: Final = ("", "s", "es", "n", "en")


ENCLITICS: Final = {
    "es": ("me", "te", "se", "nos", "os", "lo", "la", "los", "las", "le", "les"),
}
"""Object pronouns a covered language writes onto a verb as one word ("redáctame",
"escríbemelo", "ayudarle"): the lists hold the verb, rarely each pronoun on it, so a word no
list holds is known when, with one or two of these cut off and the stress mark the pronoun
added taken away, it is a word of the list (blindfix20c: "redáctame la reclamación" beside an
order number read as an unknown relative). Languages that hyphenate them ("escreve-me",
"écris-moi") are split at the hyphen already."""
_STRESS: Final = str.maketrans("áéíóú", "aeiou")


def _known(
    word: str,
    index: int,
    lexicon: Mapping[str, float],
    compounds: bool = False,
    clitics: tuple[str, ...] = (),
) -> bool:
    if len(word) < 2:
        return True
    floor = VOUCH_ZIPF_SHORT_WORD if len(word) <= 3 else VOUCH_ZIPF
    if lexicon.get(word.casefold(), 0.0) >= floor:
        return True
    if compounds and len(word) >= 8 and _compound(word.casefold(), lexicon):
        return True
    if clitics and _with_enclitics(word.casefold(), lexicon, clitics):
        return True
    if any(ch.isupper() for ch in word[1:]):
        return True  # an acronym or a brand ("RDV", "ExoticsCon"), anywhere in the line
    return index > 0 and word[0].isupper()  # a name


def _with_enclitics(
    word: str, lexicon: Mapping[str, float], clitics: tuple[str, ...], depth: int = 2
) -> bool:
    """``word`` is a word of ``lexicon`` with one or two of its language's ``clitics``
    (:data:`ENCLITICS`) written on it."""
    for clitic in clitics:
        stem = word[: -len(clitic)]
        if not word.endswith(clitic) or len(stem) < 4:
            continue
        if any(lexicon.get(form, 0.0) >= VOUCH_ZIPF for form in (stem, stem.translate(_STRESS))):
            return True
        if depth > 1 and _with_enclitics(stem, lexicon, clitics, depth - 1):
            return True
    return False


def _compound(word: str, lexicon: Mapping[str, float]) -> bool:
    """``word`` is two words of ``lexicon`` (a link "s", "es", "n" or "en" between them), each
    of four letters or more: "rechnungs|nummer", "test|modus"."""
    for cut in range(4, len(word) - 3):
        tail = word[cut:]
        if lexicon.get(tail, 0.0) < VOUCH_ZIPF:
            continue
        head = word[:cut]
        for link in _LINKS:
            stem = head[: len(head) - len(link)] if link else head
            if head.endswith(link) and len(stem) >= 4 and lexicon.get(stem, 0.0) >= VOUCH_ZIPF:
                return True
    return False
