"""blind18's misses of the user's own money and of Han that is not Mandarin, each as a class
(issue 29, blindfix18b).

Three classes, each with fresh items written before the rules changed and a second set written
after the first fix: Han money (``han_*``: the Chinese own-money rules in traditional characters,
"我一個月賺三萬五"; Han written with a character outside the Basic Multilingual Plane, "𠊎",
"𪜶", which no Mandarin text uses, read as no language and its numbers redacted, "萬二" with its
unit unsaid too), held-out money (``beside_grouped``: a bare number beside an amount with
grouped thousands, "… 2.310 … płaću 520"; ``words_before_currency``: a sum under a thousand in
two number words or more before a currency name, "dwieście pięćdziesiąt złotych"), and state
benefits whose rate and what reaches the user are said apart in one sentence
(``benefit_received``: "Bürgergeld wurde auf 563 erhöht, aber bei mir kommen nur 498 an"), with
twins (a public rate, someone else's money, counts, hours). First runs and final rates:
``docs/benchmarks.md``, "Issue 29: blind18's own money and Han that is not Mandarin
(blindfix18b)".
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = (
    "blindfix18b_han_money.jsonl",
    "blindfix18b_han_money2.jsonl",
    "blindfix18b_held_money.jsonl",
    "blindfix18b_held_money2.jsonl",
    "blindfix18b_benefit.jsonl",
    "blindfix18b_benefit2.jsonl",
)

_NO_FIRST_PERSON = "no first-person word the rule reads"
_OTHERS = "read as someone else's money"
KNOWN: dict[str, str] = {
    # Held-out sums in words no CLDR form is one edit from.
    "bf18b-held-cy-money-002": "mutated Welsh 'dri chant', 'bunnoedd': no CLDR form near",
    "bf18b-held-fur-money-001": "Friulian 'tresinte e cincuante': two edits from any CLDR word",
    "bf18b-held-eu-money-001": "Basque: CLDR spells no Basque number, none is near another's",
    "bf18b-held2-cy-money-001": "an ASCII Welsh line with 'a', 'y': read as a misread covered one",
    # Benefits: the sentence reads as someone else's, or as no one's.
    "bf18b-benefit-de-money-004": _NO_FIRST_PERSON + " ('bei uns': 'uns' is Portuguese too)",
    "bf18b-benefit-de-money-006": _OTHERS + " ('sollte 1.240 sein': 'sein' as 'his')",
    "bf18b-benefit-en-money-002": "'down to 87': two digits",
    "bf18b-benefit-en-money-004": _OTHERS + " (the possessive of 'jobseeker's allowance')",
    "bf18b-benefit-es-money-002": _OTHERS + " ('mínimo' reads as a minimum, a public rate)",
    "bf18b-benefit-fr-money-004": _OTHERS + " ('elle était à 201': 'elle' is the benefit)",
    "bf18b-benefit2-de-money-001": _NO_FIRST_PERSON + " ('für mich')",
    "bf18b-benefit2-es-money-001": _OTHERS + " ('mínimo')",
}
# Held-out near-misses the floor changes (withheld from quoting by design): a count of a
# thousand or more in Han that is not Mandarin (as in Cantonese, blindfix17b), and, as on main,
# a grouped count, a year and a rate's decimal in uncovered text, with the three-digit count
# beside a grouped one now too.
HELD_OUT_BENIGN_REDACTED = {
    "bf18b-han-hak-benign-001",
    "bf18b-han-hak-benign-003",
    "bf18b-han-nan-benign-002",
    "bf18b-held-cs-benign-001",
    "bf18b-held-sk-benign-001",
    "bf18b-held-hr-benign-001",
    "bf18b-held-lv-benign-001",
    "bf18b-held-ga-benign-001",
    "bf18b-held2-ro-benign-001",
    "bf18b-held2-fi-benign-001",
}


def _fails(case: dict[str, Any]) -> bool:
    """A covered row by the class sets' check; a held-out one: withheld, and every value
    redacted (a benign one is withheld by design, so only the floor's change counts)."""
    if case["group"] == "covered":
        return bool(value_sets.failures([case]))
    if case["class"] == "benign":
        return str(case["id"]) not in HELD_OUT_BENIGN_REDACTED and value_sets.uncovered_fails(case)
    return value_sets.uncovered_fails(case) or quote_verdict(str(case["text"])).quotable


@pytest.mark.parametrize("name", SETS)
def test_every_item_of_the_set(name: str) -> None:
    failing = {str(c["id"]) for c in data_sets.rows(name) if _fails(c)}
    assert failing - set(KNOWN) == set(), sorted(failing - set(KNOWN))


@pytest.mark.parametrize("name", SETS)
def test_held_out_near_misses_changed_are_the_listed_ones(name: str) -> None:
    rows = [r for r in data_sets.rows(name) if r["group"] == "held_out" and r["class"] == "benign"]
    changed = {str(r["id"]) for r in rows if redact(str(r["text"])) != r["text"]}
    assert changed == HELD_OUT_BENIGN_REDACTED & {str(r["id"]) for r in rows}


_ALL = {str(r["id"]): r for r in data_sets.rows(*SETS)}


@pytest.mark.parametrize(
    "case_id",
    [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=v)) for k, v in KNOWN.items()],
)
def test_known_misses(case_id: str) -> None:
    assert not _fails(_ALL[case_id])


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("我一個月賺三萬五，扣掉保險剩不多", True),
        ("他一個月賺三萬五，比我哥多一點", False),  # someone else's pay
        ("Mein Bürgergeld wurde auf 563 erhöht, das reicht trotzdem nicht", True),
        ("Das Bürgergeld wurde zum Januar auf 563 erhöht, steht in der Zeitung", False),
        ("Mon APL est passée à 245 mais je ne touche que 213 après la régul", True),
        ("my sister's housing benefit is 450", False),
    ],
)
def test_twins_differ_by_whose_money(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own


@pytest.mark.parametrize(
    ("text", "covered"),
    [
        ("我下午三點半開會，有七個人", True),  # traditional Mandarin
        ("我下午三点半开会，有七个人", True),
        ("𠊎下晝三點半愛去學校", False),  # a character outside the BMP: no Mandarin
        ("𪜶明仔載九點欲去台北", False),
    ],
)
def test_han_outside_the_basic_plane_is_no_mandarin(text: str, covered: bool) -> None:
    languages = {s.language for s in segments(text) if s.script == "Hani"}
    assert languages <= COVERED_LANGUAGES if covered else not languages & COVERED_LANGUAGES
    assert quote_verdict(text).quotable is covered


@pytest.mark.parametrize(
    ("text", "value", "redacted"),
    [
        ("Dlužím bráchovi dvě stě padesát korun", "dvě stě padesát korun", True),  # a sum
        ("Bilet kosztuje osiem złotych, gdzie go kupić?", "osiem złotych", False),  # a price
        (
            "Moja płaca wynosi 4.200 miesięcznie, czynsz płacę 950",
            "950",
            True,
        ),  # beside a grouped amount
        ("Hrad má 120 izieb a stojí na kopci", "120", False),  # no amount in the segment
    ],
)
def test_held_out_sums_in_words_and_beside_a_grouped_amount(
    text: str, value: str, redacted: bool
) -> None:
    assert (value not in redact(text)) is redacted
