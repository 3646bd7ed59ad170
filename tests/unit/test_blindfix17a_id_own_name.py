"""Ids printed after their own name that no list held (issue 29, blindfix17a).

blind17 stored an NZ IRD number ("IRD number for the NZ job is 028-335-849": "job" before the
number read as a reference word, though the id's own name stood before it), a 台胞证 number
(no word for the permit), a health-insurance card's 番号 ("健康保険証の記号 1320 番号 58417") and,
in Walloon, a Belgian national number printed as issued ("87.04.12-455.70": a print and a check
digit that specific are the id in any language). ``blindfix17a_id_own_name.jsonl`` (first run on
main 17/25 caught, benign 0/10) and ``…2.jsonl`` (written after the fix, first sight 18/21,
benign 1/10) hold ids after their names in the seven covered languages and questions about them.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_id_own_name.jsonl", "blindfix17a_id_own_name2.jsonl")
KNOWN = {
    # The gate reads "756" beside "numéro AVS" as a value: a prefix asked about, three digits.
    "id_own_name2-fr-benign-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("IRD number for the NZ job is 028-335-849", True),
        ("job 028-335-849 failed again", False),  # no id's name: a job's number
        ("Mi numerô d' registe nacionå c' est 87.04.12-455.70", True),
        ("Mi numerô d' registe nacionå c' est 87.04.12-455.71", False),  # check digits fail
        ("健康保険証の記号 1320 番号 58417", True),
        ("健康保険証の記号と番号ってどこ？", False),
    ],
)
def test_twins_differ_by_what_the_number_is(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
