"""A turn's sentences: the one splitter the planner's cuts and the store's sentence vectors share.

A turn's one vector is diluted by its greetings and other sentences, so the write path also
embeds each sentence of a turn of several (:func:`sentence_texts`, ``store/vectors``), and the
planner cuts quoted turns to sentences with the same :func:`split_turn`
(``planner/sentences.py``).
"""

from __future__ import annotations

import re

__all__ = ["SENTENCE_VECTORS", "SPEAKER_PREFIX", "sentence_texts", "split_turn"]

SENTENCE_VECTORS = 16
"""Most sentence vectors one turn gets (its first sentences): a long document's write stays
bounded."""
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])|\s+(?=\[image:)")
_MAY_SPLIT = re.compile(r"[.!?。！？](?=.)|\[image:", re.DOTALL)
"""Where :data:`_SENTENCE` can cut a text into two sentences: a stop with something after it
(a stop that ends the text leaves nothing but blank after it), or an image tag."""
SPEAKER_PREFIX = re.compile(r"^([^\s:]{1,30}(?: [^\s:]{1,30})?): ")
"""A chat turn's speaker prefix (``"Mel: "``, ``"Ana Ruiz: "``), its name as group 1: what
the splitter keeps on every sentence and ``planner.speakers`` reads as who said it."""


def split_turn(text_: str) -> tuple[str, list[str]]:
    """The speaker prefix (``"Mel: "``, or ``""``) and the sentences after it, in order."""
    speaker = SPEAKER_PREFIX.match(text_)
    head = speaker.group(0) if speaker else ""
    return head, [p for p in _SENTENCE.split(text_[len(head) :]) if p.strip()]


def sentence_texts(text_: str) -> list[str]:
    """The texts a turn's sentence vectors embed: each sentence with the speaker prefix.

    Empty for a turn of one sentence (its whole vector is that sentence's). The prefix stays:
    questions name the speaker, and measured without it the sentences ranked the gold turns of
    LoCoMo's questions lower, not higher (``docs/benchmarks.md``, multihop11).
    """
    if _MAY_SPLIT.search(text_) is None:  # one sentence at most: no split, ~3 µs a write
        return []
    head, sentences = split_turn(text_)
    return [head + p for p in sentences[:SENTENCE_VECTORS]] if len(sentences) > 1 else []
