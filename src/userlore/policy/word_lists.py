"""The covered languages and ``wordfreq``'s word lists of them, loaded once.

The identifier (``policy.language``) reads a short or unsure Latin segment by its words, and
the close relatives' rules (``policy.relatives``) read a relative's words against the covered
language it is mistaken for: both through these lists. The count of a segment's plain letters
(:data:`MIN_LETTERS`) lives here too, for the identifier and the code stripped before it reads.
Split out of ``policy/language.py`` (floorcost7, tidy15).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from typing import Final

from userlore.policy.scripts import _script

COVERED_LANGUAGES: Final = frozenset({"en", "zh", "es", "de", "fr", "ja", "pt"})
"""Languages the floor's and the gate's vocabularies are written for (ISO 639-1)."""

UNDETERMINED: Final = "und"
"""The language of a segment the identifier cannot place (treated as not covered)."""


LEXICON_ZIPF: Final = 3.0
LEXICON_ZIPF_SHORT_WORD: Final = 4.0
"""A word is a frequent word of a language at this Zipf frequency or above in ``wordfreq``'s
list for it (3.0: once per million words); a word of three letters or fewer ("om", "vid",
"kl"), which unrelated languages share by chance, must be a function word of it (4.0)."""

_EDGE_PUNCTUATION: Final = ".,;:!?¡¿()[]{}\"'“”«»…"
"""What is stripped from a token's edges before it is read as a word."""

MIN_LETTERS: Final = 12
"""Latin segments shorter than this are joined to their Latin neighbours before they are
identified: a statistical identifier guesses on two words ("ok thx")."""

_WORDS = re.compile(r"[^\W\d_]+")


def _plain_letters(text: str) -> int:
    """Letters of the words that do not start with a capital: names, greetings and a
    sentence's first word carry little of its language ("Congrats, Joanna!")."""
    return sum(len(w) for w in _WORDS.findall(text) if not w[0].isupper())


@functools.cache
def _lexicon(language: str) -> dict[str, float] | None:
    """``wordfreq``'s small list of ``language`` as word -> Zipf frequency, or ``None`` when it
    has none or the language is not written in Latin script (its list's most frequent words
    are not Latin: Chinese, Japanese), loaded once on first use."""
    import wordfreq

    if language not in wordfreq.available_languages("small"):
        return None
    freqs: dict[str, float] = wordfreq.get_frequency_dict(language, wordlist="small")
    top = list(itertools.islice(freqs, 100))
    if sum(1 for w in top if all(_script(ch) in (None, "Latn") for ch in w)) < len(top) / 2:
        return None
    return {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}


@functools.cache
def _vouch_lexicon(language: str) -> dict[str, float] | None:
    """``wordfreq``'s large list of ``language`` (its small one where it has no large one) as
    word -> Zipf frequency, or ``None`` for a language not written in Latin script."""
    import wordfreq

    if _lexicon(language) is None:
        return None
    if language not in wordfreq.available_languages("large"):
        return _lexicon(language)
    freqs: dict[str, float] = wordfreq.get_frequency_dict(language, wordlist="large")
    return {w: math.log10(f) + 9.0 for w, f in freqs.items() if f > 0}
