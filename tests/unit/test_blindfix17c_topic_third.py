"""A faith or an illness asked about as a subject, and a friend named by an informal word
(issue 29, blindfix17c).

blind17 withheld "What are the five pillars of Islam?", "伊斯兰教的斋月一般在几月份？", the
difference between Catholics and Orthodox or umbanda and candomblé for school, and "Mon pote a
la sclérose en plaques": the vocabularies read no topic in a question asked about the term and
no third party in "pote". Their ``topic`` and ``other`` lists now hold the question's forms
(what are, the difference between, which symptoms, when a feast falls this year, 的区别, の違い)
and informal friends (mate, buddy, pote, coloc, pana, parça, Kumpel, 发小, 同期).
``blindfix17c_topic_third.jsonl`` (first run on main: topic questions 5/20 passed, friends 3/14;
the first-person twins 7/7 and 7/7 caught) and ``…2.jsonl`` (written after the rules, first
sight: 7/15 and 10/13 passed, twins 2/4 and 3/3 caught) hold them in the seven languages.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.quote_gate import quote_verdict

SETS = ("blindfix17c_topic_third.jsonl", "blindfix17c_topic_third2.jsonl")
KNOWN = {
    # "how many" and "何時から" ask a dose's or a treatment's numbers as readily as a faith's:
    # with no subject the question may be the speaker's own, so it stays withheld.
    "topic_question2-en-benign-003": "how many times a day: a count with no subject",
    "topic_question2-ja-benign-002": "何時から何時まで: an hour with no subject",
    # German "im" is the English vocabulary's "Im" (I'm): the speaker's, for the English reading.
    "topic_question2-de-benign-002": "im read as English I'm",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("What are the five pillars of Islam?", True),  # the faith asked about
        ("What are the pillars I keep as a Muslim?", False),
        ("Quelle est la différence entre orthodoxes et catholiques ?", True),
        ("Je suis orthodoxe, quelle est la différence avec les catholiques ?", False),
        ("Quais são os sintomas da esclerose múltipla?", True),
        ("Tenho esclerose múltipla, quais são os sintomas?", False),
        ("伊斯兰教的斋月一般在几月份？", True),
        ("我每年都过斋月，一般在几月份？", False),
        ("I keep Ramadan, when does it start this year?", False),
        ("Mon pote a la sclérose en plaques", True),  # a friend's illness
        ("J'ai la sclérose en plaques comme mon pote", False),
        ("My mate's got Crohn's", True),
        ("I've got Crohn's, same as my mate", False),
        ("Mein Kumpel hat Epilepsie", True),
        ("Ich habe Epilepsie, mein Kumpel auch", False),
    ],
)
def test_twins_differ_by_whose_statement(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
