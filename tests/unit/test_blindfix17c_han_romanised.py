"""Han text interleaved with a romanisation no vocabulary covers (issue 29, blindfix17c).

blind17 quoted "我kap我ê翁婿攏是查埔人，明年beh去戶政事務所登記" (Taiwanese Hokkien in Han
characters and POJ): its Latin runs took the Mandarin reading of the Han around them. They now
read as no language when two of their lowercase words are no frequent word of any covered
language and one carries a tone mark (``policy.language._romanised_among_han``), unless every
such word is a Mandarin syllable in pinyin. No romanisation is named; English words, code,
brands and initialisms ("yyds") in Mandarin stay quoted. ``blindfix17c_han_romanised.jsonl``
(first run on main: held-out 0/12 withheld, covered benign 16/16 passed) and ``…2.jsonl``
(written after the rule, first sight: held-out 5/7 withheld, covered 9/9 passed).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.language import uncovered_segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix17c_han_romanised.jsonl", "blindfix17c_han_romanised2.jsonl")
KNOWN = {
    # Hakka's "oi", "loi", "lâu" (too few unmarked or unknown words for the rule) now read by
    # their Han: "𠊎" is outside the Basic Multilingual Plane (blindfix18b).
    # Every unknown word is also a pinyin syllable ("ê", "lóng"; "lí", "ài", "māi").
    "han_romanised-nan-benign-004": "ê lóng: pinyin syllables too",
    "han_romanised2-nan-benign-003": "lí ài māi: pinyin syllables too",
}


def _fails(case: dict[str, object]) -> bool:
    """A held-out row quoted, or a covered benign row withheld or changed."""
    text = str(case["text"])
    if case["group"] == "held_out":
        return quote_verdict(text).quotable
    return not quote_verdict(text).quotable or redact(text) != text


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN, fails=_fails)


@pytest.mark.parametrize(
    ("text", "uncovered"),
    [
        ("我kap我ê翁婿攏是查埔人，明年beh去登記", True),
        ("我用Python写了一个script，帮我debug一下", False),  # English words
        ("这首歌yyds xswl", False),  # initialisms: no tone mark
        ("我在巴黎的café点了crème brûlée", False),  # French words a covered list knows
        ("汉语拼音mā má mǎ mà四个声调", False),  # Mandarin's own pinyin
    ],
)
def test_romanised_runs_read_as_no_language(text: str, uncovered: bool) -> None:
    assert bool(uncovered_segments(text)) is uncovered
