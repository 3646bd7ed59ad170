"""A party or a union named as a topic, for the quote gate (issue 29, blindfix13b).

The gate withholds a sentence with a special-category cue unless it is clearly about someone else
or a topic; a union or a party that is itself the sentence's subject has no "someone else" to
name: "Die IG Metall hat Warnstreiks angekündigt – fahren die Busse?", "what does a shop steward
actually do?". A sentence whose only cues are a party's or a union's, with a word of news or of a
question about what it is (``data/org_topics.yaml``) and no first-person word, is a topic: the
speaker states no membership. The floor is unchanged (it never read these as the user's).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from userlore.policy.cue_data import alternation, flat
from userlore.policy.data_files import data_yaml
from userlore.policy.first_person import first_person
from userlore.policy.literal_gate import LiteralGate

__all__ = ["org_topic"]

_ORGANISATIONS = frozenset({"political_opinion", "trade_union"})


@functools.cache
def _news() -> tuple[LiteralGate, re.Pattern[str]]:
    words = flat(data_yaml("org_topics.yaml")["news"])
    return LiteralGate(w.strip("*") for w in words), re.compile(alternation(words))


def org_topic(sentence: str, categories: Iterable[str]) -> bool:
    """Whether ``sentence``, whose special cues are ``categories``, names a party or a union
    as a topic (see the module docstring)."""
    found = frozenset(categories)
    if not found or not found <= _ORGANISATIONS:
        return False
    lowered = sentence.casefold()
    gate, news = _news()
    if not gate.search(lowered) or news.search(lowered) is None:
        return False
    return first_person().speaker.search(sentence) is None
