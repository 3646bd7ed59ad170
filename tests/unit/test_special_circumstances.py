"""Special categories said by their circumstances, not their names (issue 29, blindfix15c).

A same-gender couple by what only such a couple has (two mothers on the certificate, "who's the
mom", reciprocal IVF, marrying abroad where home forbids it), party or union membership by its
practices (dues, the card, the branch meeting, 党费, 組合費), a pregnancy by the speaker's
maternity leave or scans, an origin by a community's own word (在日二世, Sinto, quilombola) and
a criminal record by its procedure (the end of parole, the ankle monitor, record expungement).
``tests/data/special_circumstances.jsonl`` holds fresh items of each class in the seven covered
languages with benign twins (a colleague's leave, a neighbour's couple, news, a probation
officer), written before the rules. First run on main: couples 1/36, practices 11/32,
pregnancy 11/30, community words 12/31, procedures 19/30 found; benign 1/28, 1/15, 0/16, 1/14,
6/15 withheld or changed.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, special_sets
from userlore.policy.sensitivity import classify

CASES = data_sets.rows("special_circumstances.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
KNOWN = {
    # Left by design: no circumstance only a same-gender couple has.
    "couple_circumstance-pt-special-005",  # a family that disapproves, not a law
    "couple_circumstance-fr-benign-004",  # a partner's pregnancy: withheld on main too
    "community_word-en-special-003",  # "a Traveller" is also anyone who travels
    "pregnancy_circumstance-de-special-003",  # "18. SSW": the ordinal's stop ends the sentence
    "pregnancy_circumstance-zh-special-003",  # weeks with no word for pregnancy
    "party_practice-ja-benign-002",  # 父 is no "other" word of the Chinese vocabulary: as on main
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    failing = {c["id"] for c in CASES if c["family"] == family and special_sets.family_row_fails(c)}
    assert failing - KNOWN == set()


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my husband keeps asking who's the mum in that sitcom", None),  # no couple asked
        ("people keep asking my husband and me who's the mum", "sexual_orientation"),
        ("how long is maternity leave in the US?", None),  # the rule, nobody's leave
        ("I go on maternity leave in May", "health"),
        ("my neighbour's son has two dads", None),
        ("our son has two dads", "sexual_orientation"),
        ("mi tío pagó la cuota del PSOE", None),  # another's dues
        ("pago la cuota del PSOE", "political_opinion"),
    ],
)
def test_twins_differ_by_whose_circumstance(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
