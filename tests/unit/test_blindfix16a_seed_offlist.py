"""A recovery phrase with a word off its BIP39 list, after a seed cue (issue 29, blindfix16a).

blind16 stored "my wallet seed is: ripple orbit … tumble cradle mint": "mint" is on no BIP39
list, so the run of list words stopped at eleven. After a seed cue (``data/seed_phrases.yaml``:
"wallet seed", "frase semilla", "助记词", "復元フレーズ"…; a count of words only in a line naming
a wallet) a run may hold two words off the list. ``blindfix16a_seed_offlist.jsonl`` (first run
on main 0/22 caught, benign 1/11 withheld) and ``…2.jsonl`` (written after the fix, first
sight 16/16 caught, benign 1/10 flagged: a vocabulary quiz, then fixed) hold phrases with typos
and invented words in the seven languages, and seed talk without a phrase.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix16a_seed_offlist.jsonl", "blindfix16a_seed_offlist2.jsonl")
KNOWN = {
    # "never type your 12 recovery words into a website": the gate withholds it on main too.
    "seed_offlist-en-benign-002",
    # "mes 12 mots :" names no wallet: a count of words alone announces no phrase (a quiz).
    "seed_offlist2-fr-secret-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


PHRASE = "ripple orbit canvas humble lizard pepper velvet ocean siren tumble cradle mint"


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        (f"my wallet seed is: {PHRASE}", True),
        (f"a poem I like: {PHRASE}", False),  # no cue: every word must be a list word
        (f"the 12 words of my ledger wallet: {PHRASE}", True),
        (
            "12 words for the quiz: ocean river mountain forest desert island valley canyon"
            " glacier volcano meadow prairie",
            False,
        ),
    ],
)
def test_twins_differ_by_the_cue(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
