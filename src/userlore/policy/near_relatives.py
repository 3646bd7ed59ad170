"""A covered verdict on a close relative's words, told apart by the identifier's full ranking.

``policy.language`` hides the relatives py3langid confuses with a covered language on a short
turn (:data:`~userlore.policy.known_words.READ_AS_COVERED`: Galician, Asturian, Occitan...) from
its candidates, so a Galician turn ("Teño fibromialxia dende hai anos") reads as Spanish or
Portuguese and was quoted (issue 29, blind11). The covered language's rules read it word for
word and miss the words they were not written for. No language is named here: a Latin segment
read as a covered language is read as the best of the languages the identifier hid instead when
it holds a word the covered language's ``wordfreq`` list does not know (so a covered turn in
its own words, slang and typos included, is never asked) and, over every language the packaged
model knows,

- that language ranks above the covered one (:data:`AHEAD`), or
- it is close behind (:data:`NEAR_RATIO`) and :data:`UNKNOWN_WORDS` words or more are unknown
  to the covered language ("Cobro mil catrocentos euros … cincocentos": Portuguese 0.48,
  Galician 0.47, two words no Portuguese list holds).

Languages the model does not know (Ladino, Papiamento, Cape Verdean…) rank as their nearest
relative it does know, which is not covered either. The check reads the model a second time,
with every language, only for a segment with an unknown word.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Any, Final

from userlore.policy.langid_model import load_identifier
from userlore.policy.word_lists import COVERED_LANGUAGES

__all__ = ["misread_relative"]

NEAR_RATIO: Final = 0.5
"""An uncovered language with at least this share of the covered verdict's probability (over
every language the model knows) is a near tie."""

UNKNOWN_WORDS: Final = 2
"""Words unknown to the covered verdict needed on a near tie (one may be a typo or a name)."""

AHEAD: Final = 1.0
"""An uncovered language this many times as likely as the covered verdict, or more, needs one
unknown word."""


@functools.cache
def full_identifier() -> Any:
    """py3langid's packaged model over all its languages, read once a process on first use.

    The ranking here uses it as it is; ``policy.language`` restricts a shallow copy of it (the
    close relatives left out) without mutating it, so the model file is read once: from the
    cache of its decompressed arrays (:mod:`userlore.policy.langid_model`) when there is one.
    """
    return load_identifier(norm_probs=True)


@functools.lru_cache(maxsize=4096)
def _full_ranking(text: str) -> tuple[tuple[str, float], ...]:
    return tuple((str(lang), float(p)) for lang, p in full_identifier().rank(text))


def misread_relative(
    chunk: str,
    language: str,
    hidden: frozenset[str],
    unknown_words: Callable[[str, str], int],
) -> str | None:
    """The uncovered language a Latin ``chunk`` read as the covered ``language`` is written in
    (see the module docstring), or ``None`` when the verdict stands.

    Args:
        hidden: The languages ``policy.language``'s identifier leaves out of its candidates
            (the others it has weighed already).
        unknown_words: ``(text, language) -> count`` of the text's words the covered
            language's list does not know (``policy.language``'s reading, names and tokens
            skipped).
    """
    if language not in COVERED_LANGUAGES:
        return None
    unknown = unknown_words(chunk, language)
    if unknown == 0:
        return None
    folded = unicodedata.normalize("NFKC", chunk).strip()
    ranking = _full_ranking(folded)
    p_covered = dict(ranking).get(language, 0.0)
    best = next(((lang, p) for lang, p in ranking if lang in hidden), None)
    if best is None:
        return None
    other, p_other = best
    if p_other >= AHEAD * p_covered and p_other > 0.0:
        return other
    if unknown >= UNKNOWN_WORDS and p_other >= NEAR_RATIO * p_covered:
        return other
    return None
