"""A quoted turn's sentences: which ones a question names, and a cut that keeps only some.

One splitter (:func:`~userlore.store.sentences.split_turn`, which the store's sentence vectors
use too) for every cut a plan quotes: :func:`sentence_window` (a long turn cut to the sentences
the question names) and the quote gate's special-free part of a withheld turn
(:func:`~userlore.planner.snippet_policy.quotable_part`).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from userlore.store.sentences import split_turn
from userlore.store.text import query_terms

__all__ = ["TRIM_ABOVE", "holds_term", "joined", "sentence_window", "term_stems"]

TRIM_ABOVE = 200
"""Texts longer than this are cut to their sentences that hold a question term (see
:func:`sentence_window`): a long turn's other sentences spend the budget another turn could."""
_WORD = re.compile(r"\w+")
_STEM = 5
"""Leading characters two words share to count as one (camping, camped; no stemmer needed)."""


def term_stems(query: str) -> list[str]:
    """The question's terms as the stems :func:`holds_term` compares."""
    return [t[:_STEM] for t in query_terms(query)]


def holds_term(sentence: str, stems: Sequence[str]) -> bool:
    """Whether ``sentence`` holds one of ``stems`` (a word's stem, or a CJK term anywhere)."""
    folded = sentence.casefold()
    words = {w[:_STEM] for w in _WORD.findall(folded)}
    return any(t in words or (not t.isascii() and t in folded) for t in stems)


def joined(head: str, sentences: Sequence[str], kept: Sequence[int]) -> str:
    """``head`` and the ``kept`` sentences (indices, ascending); "…" marks a gap between two."""
    parts = [sentences[kept[0]]]
    for before, n in itertools.pairwise(kept):
        parts.append(("" if n == before + 1 else "… ") + sentences[n])
    return head + " ".join(parts)


def sentence_window(text_: str, query: str | None, *, trim_above: int = TRIM_ABOVE) -> str:
    """``text_`` cut to its sentences that hold a question term, in order ("…" marks a gap).

    The speaker prefix ("Mel: ") stays. Unchanged when the text is short (``trim_above``
    characters or fewer: a list question's placement passes less), when no sentence or
    every sentence holds a term (a vector match: nothing tells which part matters), or when
    the cut saves too little to pay for itself.
    """
    if len(text_) <= trim_above or not query:
        return text_
    stems = term_stems(query)
    if not stems:
        return text_
    head, sentences = split_turn(text_)
    kept = [n for n, p in enumerate(sentences) if holds_term(p, stems)]
    if not kept or len(kept) == len(sentences):
        return text_
    cut = joined(head, sentences, kept)
    return cut if len(cut) < 0.8 * len(text_) else text_
