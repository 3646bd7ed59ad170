"""Issue 23 (quality7): a list question's quoted texts are cut to the sentences it names sooner.

A list question's answer is many turns said on different days; the turns that share its words
are cut from ``LIST_TRIM_ABOVE`` characters instead of 200, so more distinct turns fit.
"""

from __future__ import annotations

from userlore.planner.placement import LIST_TRIM_ABOVE, quoted_window
from userlore.planner.sentences import TRIM_ABOVE

TURN = (
    "Melanie: We had a slow and quiet week at home with the kids. I took a pottery class on "
    "Friday with my sister. The rain never stopped though, all week."
)
CUT = "Melanie: I took a pottery class on Friday with my sister."


def _window(question: str, text: str = TURN) -> str:
    return quoted_window(text, question, frozenset(), quote_uncovered=False)


def test_the_turn_is_between_the_two_lengths() -> None:
    assert LIST_TRIM_ABOVE < len(TURN) <= TRIM_ABOVE


def test_a_list_question_cuts_a_mid_length_turn_to_the_sentence_it_names() -> None:
    assert _window("What classes has Melanie taken?") == CUT


def test_a_single_answer_question_keeps_the_same_turn_whole() -> None:
    assert _window("What class did Melanie take on Friday?") == TURN


def test_a_list_question_never_cuts_a_turn_that_names_none_of_its_words() -> None:
    other = TURN.replace("pottery class", "trip to the coast")
    assert _window("What classes has Melanie taken?", other) == other


def test_a_short_turn_is_never_cut() -> None:
    short = "Melanie: Quiet week. I took a pottery class. Rain all week."
    assert len(short) <= LIST_TRIM_ABOVE
    assert _window("What classes has Melanie taken?", short) == short
