"""List questions: a question whose answer gathers several turns ("what activities…", "哪些").

"What activities does Melanie partake in?", "Which cities has Jon visited?", "How many
children does Melanie have?", "她都去过哪些城市？": the answer is a list whose items were said
on different days, in turns that share no word with the question and none with each other.
Such a question wants many distinct turns more than a few whole ones; the planner reads
:func:`list_question` to shape what it places for it.
"""

from __future__ import annotations

import re

__all__ = ["list_question"]

_AUX = r"(?:do|does|did|has|have|had|is|are|was|were|can|will)"
"""What follows the plural noun of a list question: not a conditional or epistemic modal
(would, could, might, may, should), which asks what to infer or suppose ("what fields would
Caroline be likely to pursue?"), not for things the user said on different days."""
_PARTICIPLE = r"(?:\w+ed|done|been|made|met|seen|taken|read|bought|built|eaten|given|gone|won)"
_EN = re.compile(
    rf"""(?ix)
    ^(?:what|which)\s+(?:kinds?|types?|sorts?)\s+of\b  # what kinds of music
    | ^(?:what|which)\s+(?:[a-z+/'-]+\s+)?[a-z]+s(?<!ss)(?<!us)(?<!is)\s+{_AUX}\b
        # what activities does, which cities has
    | \bboth\b | \bnames\b | \bmultiple\b
    | \b(?:some|ways)\b.*\s(?-i:[A-Z][a-z]+)(?:'s)?\s  # some things Jonah, ways has Ben
    | ^how\s+many\b
    | ^(?:what|where|which|who)\s+(?:has|have)\s+(?:\S+\s+){{1,2}}?{_PARTICIPLE}\b
        # where has Yuki worked, what has she painted
    """
)
_MEASURE = "个只本次家位种件座部首门辆条项所"
_ZH = re.compile(rf"哪些|哪几|几[{_MEASURE}]|多少[{_MEASURE}]|都[^。？?]*(?:什么|哪|谁)")


_REQUEST = re.compile(
    r"(?i)\b(?:you|ideas?|tips?|advice)\b|\b(?:should|can|could)\s+I\b|\bI\s+(?:can|could|should)\b"
    r"|\b(?:for|near)\s+me\b|你(?:能|可以|会)|给我推荐|推荐一下|建议一下|有什么建议"
)
"""A request for suggestions ("can you recommend some books?", "what are some ideas for…"): a
list the answer makes up, not one the user said (PrefEval: 554 of 702 questions)."""


def list_question(question: str) -> bool:
    """Whether ``question`` asks for a list of things said on different days."""
    if _REQUEST.search(question):
        return False
    return bool(_EN.search(question) or _ZH.search(question))
