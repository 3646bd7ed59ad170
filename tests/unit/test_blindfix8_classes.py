"""blind8's special classes and held-out money, each as a class (issue 29, blindfix8b).

The sets were written before the rules changed: ``tests/data/blindfix8_special.jsonl``
(special categories by abbreviation, slang, role and implied subject in the seven languages,
news about unions and ministers, with first-person twins) and
``tests/data/blindfix8_heldout_money.jsonl`` (money in number words and beside an amount in
Malay, Norwegian, Slovak, Lithuanian, Bulgarian and Marathi, none of them covered). One test
per set, scored as ``benchmarks/gate_classes.py`` scores it, lists every item that fails;
the misses left are named, so a fix or a regression both show (``docs/benchmarks.md``, "Issue
29: blind8's special classes and held-out money (blindfix8b)").
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.special_abbrev import abbreviation_cues
from userlore.policy.detectors.special_lang import _sentences, languages, special_cues
from userlore.policy.detectors.uncovered_money import uncovered_money
from userlore.policy.quote_gate import quote_verdict

# Items still missed (gate quotes a special item, or a benign one is withheld or redacted).
# "o sindicato … anunciou greve, como vou pro trabalho?" was withheld until blindfix13b: a union
# named as news is a topic for the gate (``detectors/org_topics.py``).
SPECIAL_KNOWN: frozenset[str] = frozenset()
# Held-out benign items are always withheld (uncovered language); these are the ones whose
# text the floor also changes: prices of things of a thousand or more, the cost of the rule.
HELDOUT_BENIGN_REDACTED: frozenset[str] = frozenset(
    # Prices written with digits ("2300 лева", "RM35,000", "₹90,000"): redacted by
    # ``uncovered.py`` before this round; the prices in words under a thousand stay. "999 eurus"
    # (an inflection CLDR does not give) by ``uncovered_tender`` since blindfix21b, as "899 eur".
    {"bf8m-bg-b01", "bf8m-lt-b01", "bf8m-mr-b01", "bf8m-ms-b01", "bf8m-nb-b01", "bf8m-sk-b01"}
)
HELDOUT_MONEY_KNOWN: frozenset[str] = frozenset()


def test_special_classes_and_benign_topics() -> None:
    rows = data_sets.rows("blindfix8_special.jsonl")
    failing = set(value_sets.failures(rows))
    assert failing == SPECIAL_KNOWN, sorted(failing ^ SPECIAL_KNOWN)


# The second fresh set, written after the rules: an abbreviation and a role no list names.
SPECIAL2_KNOWN: frozenset[str] = frozenset({"bf8s2-en-01", "bf8s2-en-03"})


def test_second_special_set() -> None:
    rows = data_sets.rows("blindfix8_special2.jsonl")
    failing = set(value_sets.failures(rows))
    assert failing == SPECIAL2_KNOWN, sorted(failing ^ SPECIAL2_KNOWN)


@pytest.mark.parametrize(
    ("name", "benign_redacted"),
    [
        ("blindfix8_heldout_money.jsonl", HELDOUT_BENIGN_REDACTED),
        ("blindfix8_heldout_money2.jsonl", frozenset()),
    ],
)
def test_held_out_money_is_redacted_from_evidence(
    name: str, benign_redacted: frozenset[str]
) -> None:
    missed, redacted_benign = value_sets.held_out_misses(data_sets.rows(name))
    assert missed == HELDOUT_MONEY_KNOWN, sorted(missed ^ HELDOUT_MONEY_KNOWN)
    assert redacted_benign == benign_redacted, sorted(redacted_benign ^ benign_redacted)


def test_an_abbreviation_counts_only_in_its_case_and_language() -> None:
    def cues(text: str) -> list[str]:
        return [t[3] for t in _found(text)]

    def _found(text: str) -> list[tuple[Any, ...]]:
        return [
            (lang.code, cat, own, text[s:e])
            for lang, cat, own, _, s, e in abbreviation_cues(text, languages(), _sentences)
        ]

    assert cues("a minha médica disse que a EM está controlada") == ["EM"]
    assert not cues("moro em Lisboa e ela também")  # pt "em", "ela": words, not conditions
    assert not cues("the MS Teams link is in the invite")  # a name, not multiple sclerosis
    assert cues("Mein Neurologe meinte, die MS Schübe sind seltener") == ["MS"]  # de nouns
    assert cues("COPDだから階段はきつい") == ["COPD"]  # glued to kana
    assert "health" in special_cues("mon neurologue pense que la SEP progresse lentement")
    assert not quote_verdict("mon neurologue pense que la SEP progresse lentement").quotable
    assert quote_verdict("what does COPD stand for? it came up in a podcast").quotable


def test_money_words_need_a_magnitude_or_a_currency() -> None:
    def said(text: str) -> list[str]:
        return [text[h[2] : h[3]] for h in uncovered_money(text)]

    assert said("dlhujem bratovi dvetisíc eur a hanbím sa") == ["dvetisíc eur"]
    assert said("lístok do kina stojí osem eur") == []  # under a thousand: a price stays
    assert said("дължа още двайсет хиляди лева") == ["двайсет хиляди лева"]
    assert said("I owe about two thousand dollars") == []  # a covered language: its own rules
    assert said("vlak ide o siedmej z nástupišťa dva") == []
