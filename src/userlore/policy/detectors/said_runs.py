"""Values said digit by digit in the words of a language no rule here reads (CLDR's digit words).

Four or more digit words of a language in a row ("семь три ноль два", "dört yedi bir iki") are
a value as four digits are, not a count ("bir iki üç dört") nor a year; the words are CLDR's
spell-out rules through ``unicode-rbnf`` (``detectors.cldr_words``). ``detectors.uncovered``
reads them in a segment of an uncovered language or a close relative. Split out of
``detectors/uncovered.py`` (tidy15).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Container, Iterator
from typing import Final

from userlore.policy.detectors.cldr_words import (
    _SAID,
    _all_digit_words,
    _digit_words,
    _strip_marks,
    _unaccented,
)
from userlore.policy.detectors.common import is_year
from userlore.policy.word_view import lower_runs


def _bare(word: str) -> str:
    """``_strip_marks(word.casefold())[0]``: an ASCII word has no nonspacing mark to strip."""
    folded = word.casefold()
    if folded.isascii():
        return folded
    # An apostrophe inside a word as CLDR writes it (Ukrainian "девʼять", U+02BC).
    return _strip_marks(folded)[0].replace("'", "ʼ").replace("’", "ʼ")


def _counting(run: str) -> bool:
    """ "1 2 3 4 5": spaced numbers that count up by one are a sequence, not a value."""
    parts = run.split(" ")
    if len(parts) < 4 or not all(p.isdigit() for p in parts):
        return False
    nums = [int(p) for p in parts]
    return all(b == a + 1 for a, b in itertools.pairwise(nums))


_SAID_GAP = re.compile(r"[\s,\-–—]*")
SAID_MIN_WORDS: Final = 4
"""A run of this many digit words or more is a value ("семь три ноль два"), as four digits
are: a count or a time takes one or two ("два или три", "saat yedi")."""


def _said_runs(text: str, vocabulary: Container[str]) -> Iterator[tuple[int, int, str]]:
    """Runs of :data:`SAID_MIN_WORDS` words or more of ``vocabulary`` next to each other
    (spaces, commas and dashes between), as ``(start, end, words)``."""
    said = list(_SAID.finditer(text))
    # :func:`_known`, inlined: this runs on every text's words.
    known = [
        _bare(w := m.group(0)) in vocabulary
        or (not w.isascii() and _unaccented_word(w) in vocabulary)
        for m in said
    ]
    if sum(known) < SAID_MIN_WORDS:
        return  # fewer such words in the whole text than a run needs
    run: list[re.Match[str]] = []
    for m, here in itertools.chain(zip(said, known, strict=True), [(None, False)]):
        adjacent = (
            m is not None
            and bool(run)
            and _SAID_GAP.fullmatch(text, run[-1].end(), m.start()) is not None
        )
        if m is not None and here and (adjacent or not run):
            run.append(m)
            continue
        if len(run) >= SAID_MIN_WORDS:
            yield run[0].start(), run[-1].end(), " ".join(r.group(0) for r in run)
        run = [m] if m is not None and here else []


def _known(word: str, vocabulary: Container[str]) -> bool:
    """``word`` is in ``vocabulary`` as written or without its accents ("nòu": "nou")."""
    return _bare(word) in vocabulary or (
        not word.isascii() and _unaccented_word(word) in vocabulary
    )


@functools.lru_cache(maxsize=1 << 16)
def _unaccented_word(word: str) -> str:
    """:func:`_unaccented`, remembered per word (chat repeats its words)."""
    return _unaccented(word)


def _says_digits(t: str) -> bool:
    """``any(_said_runs(t, _all_digit_words()))``, told at once for most ASCII texts.

    Every ASCII digit word is letters alone, so a word of a said run there is a whole letter
    run of the text (a run's other characters are no letters, and none sits inside a word):
    fewer than :data:`SAID_MIN_WORDS` letter runs in the vocabulary (the shared split), no run.
    """
    vocabulary = _all_digit_words()
    if (
        t.isascii()
        and _ascii_digit_words_are_letters()
        and sum(map(vocabulary.__contains__, lower_runs(t))) < SAID_MIN_WORDS
    ):
        return False
    return any(_said_runs(t, vocabulary))


@functools.cache
def _ascii_digit_words_are_letters() -> bool:
    return all(w.isalpha() for w in _all_digit_words() if w.isascii())


def _said_values(text: str, languages: list[str]) -> Iterator[tuple[int, int]]:
    """Values said digit by digit in the number words of one of ``languages`` (CLDR spell-out
    data): not a count ("bir iki üç dört") nor a year, as for digits."""
    for language in languages:
        words = _digit_words(language)
        if words is None:
            continue
        for start, end, said in _said_runs(text, words):
            digits = "".join(
                words.get(_bare(w)) or words[_unaccented_word(w)] for w in _SAID.findall(said)
            )
            if is_year(digits) or _counting(" ".join(digits)):
                continue
            yield start, end
