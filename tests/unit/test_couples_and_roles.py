"""A same-gender couple said by implication, membership of a party or union said with the
subject left out or by a role, a faith implied by a role, and parties and unions named as news
(issue 29, blindfix13b).

blind13 quoted "my boyfriend and I (both guys…)", パートナーも女性なので…, "somos duas mães",
"bin Mitglied bei den Grünen und mach im Ortsverband den Kassenwart" and "en Semana Santa salgo de
costalero con mi hermandad", and withheld "Die IG Metall hat Warnstreiks angekündigt – fahren die
Busse?". ``tests/data/special_couples_roles.jsonl`` holds fresh items of each class in the seven
languages with benign twins (other people's couples, news, roles in clubs, a choir that is no
church's), written before the rules: first run 4/30 couples, 9/30 party and union roles, 10/30
faith roles found; 0/18, 1/18 and 0/16 benign withheld. The special rows of
``money_special_second13.jsonl``, written after the rules, scored 14/15 found and 5/6 benign
quoted at first sight ("我老公也是男生": a gendered partner's "also"; "la CFDT a signé": a past
tense of news), both fixed as their classes.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, special_sets
from userlore.policy.detectors.org_topics import org_topic
from userlore.policy.sensitivity import classify

CASES = [
    *data_sets.rows("special_couples_roles.jsonl"),
    *(r for r in data_sets.rows("money_special_second13.jsonl") if "values" not in r),
]
FAMILIES = sorted({str(c["family"]) for c in CASES})


_fails = special_sets.family_row_fails


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    assert [c["id"] for c in CASES if c["family"] == family and _fails(c)] == []


@pytest.mark.parametrize(
    ("sentence", "categories", "topic"),
    [
        ("Die IG Metall hat Warnstreiks angekündigt – fahren die Busse?", {"trade_union"}, True),
        ("Die IG Metall hat Warnstreiks angekündigt, ich streike mit", {"trade_union"}, False),
        ("what does a shop steward actually do?", {"trade_union"}, True),
        ("what does my shop steward do?", {"trade_union"}, False),  # the speaker's own
        ("the study announced new insulin rules", {"health"}, False),  # not a party or union
    ],
)
def test_a_party_or_union_is_news_only_without_the_speaker(
    sentence: str, categories: set[str], topic: bool
) -> None:
    assert org_topic(sentence, categories) is topic


@pytest.mark.parametrize(
    "text",
    [
        "my brothers are both guys, obviously",  # no partner named
        "we're two guys looking for a hostel",  # two friends, no partner
        "mein Vater sitzt für die SPD im Stadtrat",  # someone else's seat
        "私の父は組合の執行委員です",
        "la cofradía de pescadores abre el lunes",
    ],
)
def test_no_couple_membership_or_faith_is_read_where_none_is_said(text: str) -> None:
    assert not classify(text).findings
