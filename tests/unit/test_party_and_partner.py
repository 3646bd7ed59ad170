"""Membership of a named party or union, and orientation implied by the speaker's own
same-gender partner (issue 29, blindfix12b).

blind12 quoted "estoy afiliada a Podemos desde hace años" (a party by its name, with no word for
"party") and 僕、彼氏と同棲してて…パートナーシップ制度 (a male pronoun with "boyfriend", a scheme
only same-sex couples use). ``tests/data/special_party_partner.jsonl`` holds fresh items of both
classes in the seven languages, with benign twins (someone else's membership, news, "my sister
and her boyfriend", a partnership law), written before the rules: first run 10/20 memberships and
11/19 couples found, 0/28 benign flagged. ``money_special_second.jsonl`` was written after the
rules; its first sight was 13/13 found, 0/8 benign flagged.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import data_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

CASES = [
    *data_sets.rows("special_party_partner.jsonl"),
    *(r for r in data_sets.rows("money_special_second.jsonl") if "category" in r),
]
FAMILIES = sorted({str(c["family"]) for c in CASES})
_SPECIAL = frozenset({"political_opinion", "trade_union", "sexual_orientation"})


def _fails(case: dict[str, Any]) -> bool:
    text = str(case["text"])
    found = {f.category for f in classify(text).findings}
    quotable = quote_verdict(text).quotable
    if case["class"] == "benign":
        return not quotable or bool(found & _SPECIAL)
    return quotable or case["category"] not in found


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    assert [c["id"] for c in CASES if c["family"] == family and _fails(c)] == []


@pytest.mark.parametrize(
    "text",
    [
        "no estoy afiliada a Podemos",  # a denial
        "I'm not a member of Unison any more",
        "sou membro da rede de apoio do bairro",  # "Rede" is a party only as written
        "僕は大丈夫、夫婦で旅行中の姉に会った",  # 夫 in 大丈夫 and 夫婦
        "Je suis mariée avec mon mari depuis 2010",
    ],
)
def test_no_membership_or_couple_is_read_where_none_is_said(text: str) -> None:
    assert not {f.category for f in classify(text).findings} & _SPECIAL
