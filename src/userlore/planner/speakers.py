"""The named person's own turns: a question about one speaker gives what they said a share.

"What activities does Melanie partake in?", "Would Caroline likely enjoy a national park?": a
question that names one person of a conversation is, far more often than not, answered by what
that person said about themselves (LoCoMo: 95–97% of the evidence of multi-hop, single-hop
and temporal questions naming one speaker, all of open-domain's). The words and vectors of
the question rank both speakers' turns alike, and the other speaker's replies ("That's great,
Mel!") crowd the pool. :func:`own_turns` lists the named speaker's turns among a read's
candidates, best first, as one more ranking to fuse: it adds credit, it never removes a turn,
so a question about what one person told the other still finds the other's turn (adversarial
questions, which do, lose a little: 25% of their evidence is the named person's).

A speaker is read from the item's ``speaker`` metadata (a transcript adapter sets it) or from
the ``"Name: "`` prefix a chat turn is stored with; a question names a speaker when the name
appears as a word in it. Only when exactly one speaker among the read's first candidates (the
first ``k`` of each ranking) is named does the ranking apply (naming both says nothing about
whose turns answer); only then are the deeper candidates' speakers read, from the head of
their text (:data:`SPEAKER_HEAD`), and whole rows only for the turns the ranking lists.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from userlore.store.sentences import SPEAKER_PREFIX

__all__ = [
    "OTHERS_WAIT",
    "OWN_WEIGHT",
    "SPEAKER_HEAD",
    "named_speaker",
    "named_speakers",
    "others_wait",
    "own_turns",
    "prefix_speaker",
    "speaker_of",
    "topic_of",
]

OWN_WEIGHT = 1.0
"""The own-turns ranking's RRF credit relative to the question's other rankings."""

OTHERS_WAIT = 15
"""Places a list question's units by speakers other than the one it names move back in the
placement (:func:`others_wait`)."""

SPEAKER_HEAD = 64
"""Characters of a text that hold its speaker prefix (two words of at most 30, ``": "``)."""


def speaker_of(row: Any) -> str | None:
    """Who said the item: its ``speaker`` metadata, else its text's ``"Name: "`` prefix."""
    meta = getattr(row, "meta", None)
    if isinstance(meta, Mapping):
        named = meta.get("speaker")
        if isinstance(named, str) and named.strip():
            return named.strip()
    return prefix_speaker(getattr(row, "text", "") or "")


def prefix_speaker(text: str) -> str | None:
    """The speaker a text's ``"Name: "`` prefix names, or ``None``."""
    found = SPEAKER_PREFIX.match(text)
    return found.group(1) if found else None


def named_speakers(question: str, speakers: Iterable[str]) -> list[str]:
    """The speakers the question names as a word (case as written), in a stable order."""
    return sorted(
        s for s in set(speakers) if s and re.search(r"(?<!\w)" + re.escape(s) + r"(?!\w)", question)
    )


def named_speaker(question: str, speakers: Iterable[str]) -> str | None:
    """The one speaker the question names as a word (case as written), or ``None``."""
    named = named_speakers(question, speakers)
    return named[0] if len(named) == 1 else None


def own_turns(question: str, order: Sequence[str], rows: Mapping[str, Any], *, k: int) -> list[str]:
    """The named speaker's items of ``order`` (best first), at most ``k``; ``[]`` if none named.

    Args:
        question: The question.
        order: Candidate item ids, best first (the read's fused order).
        rows: Item id -> its row (``meta`` and ``text``); ids without a row are skipped.
        k: Most items listed.
    """
    speaker = {i: speaker_of(rows[i]) for i in order if i in rows}
    named = named_speaker(question, {s for s in speaker.values() if s})
    if named is None:
        return []
    return [i for i in order if speaker.get(i) == named][:k]


def topic_of(question: str, names: Iterable[str]) -> str:
    """``question`` without the speakers it names (and their possessive ``'s``): its topic.

    Every turn a speaker said is stored as ``"Name: …"``, so its vector carries the name; a
    question that names the speaker ("What books has Melanie read?") is then nearest to all
    of that speaker's turns alike, and the name, not the books, ranks them. The words of the
    question still name the speaker; only what its vector is asked to find changes.
    """
    out = question
    for name in names:
        out = re.sub(r"(?<!\w)" + re.escape(name) + r"(?:['’]s)?(?!\w)", " ", out)
    out = re.sub(r"\s+", " ", out).strip()
    return out if re.search(r"\w", out) else question


def others_wait(
    question: str, order: Sequence[str], texts: Mapping[str, str], *, wait: int = OTHERS_WAIT
) -> list[str]:
    """``order`` with the units said by speakers the question does not name ``wait`` places later.

    For a list question that names one speaker ("What activities does Melanie partake in?",
    ``planner/lists.py``): its answer is many of that person's own turns, said on different
    days, and the other speaker's replies that share its words ("Family is everything.") fill
    the plan first. They wait rather than go: a unit ``wait`` places ahead still comes first,
    and a question about what the other person said (LoCoMo's adversarial kind) keeps its
    best-ranked turns (moved to the end, adversarial lost 5.4 points on conversations 1–3;
    waiting 15 places, none).
    Units whose speaker is unknown, and every unit when none or both are named, keep their
    place.

    Args:
        question: The question.
        order: Unit ids, best first.
        texts: Unit id -> the text it quotes (its speaker is read from the ``"Name: "`` prefix).
        wait: Places another speaker's unit moves back.
    """
    said = {unit: prefix_speaker(texts.get(unit, "")) for unit in order}
    named = named_speaker(question, {s for s in said.values() if s})
    if named is None:
        return list(order)
    keyed = sorted(
        (n + (wait if said[unit] not in (None, named) else 0), n, unit)
        for n, unit in enumerate(order)
    )
    return [unit for _, _, unit in keyed]
