"""First-person special-category statements blind18 missed, by class (issue 29, blindfix18c).

Five classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix18c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a third party, a topic question, news, a device as a product):

- religious practice said in the first person plural ("we keep Shabbos", "we do the seder");
- party or union membership by its work (organising the canvassing, a committee seat, "since I
  joined", 組合の執行委員やってる);
- a community sentence and its remaining term (a community order, unpaid work hours, a tag);
- diabetes by the speaker's own devices ("my Libre", "mon capteur Dexcom", "type 1 since…");
- a same-gender couple by its parenthood in one gender ("my wife and I … both mothers", "bei
  zwei Müttern", "das duas", 两个妈妈, a partnership certificate taken with one's partner).

First run on main: practice 22/25, membership 9/24, sentences 16/24, devices 8/25, couples 4/24
found; the second sets at first sight: 13/17, 16/16, 15/16, 15/16, 12/15.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, special_sets
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix18c_{name}{round_}.jsonl"
    for name in (
        "religious_practice",
        "party_union_role",
        "community_sentence",
        "diabetes_device",
        "same_gender_implied",
    )
    for round_ in ("", "2")
)
CASES = data_sets.rows(*SETS)
FAMILIES = sorted({str(c["family"]) for c in CASES})
KNOWN = {
    # English reads "our" as someone else's (a company's "our"); practice is read after "we".
    "religious_practice-en-special-005": "our household: 'our' is someone else's",
    # "a gente" is "people" to the Portuguese vocabulary, someone else.
    "religious_practice2-pt-special-001": "a gente: read as people, not the speaker",
    # The gate withholds a bare cue that no topic word frames: as on main.
    "religious_practice-en-benign-003": "Ramadan hours of a café: a bare cue, as on main",
    "religious_practice-zh-benign-002": "安息日 in a question with no topic word, as on main",
    "party_union_role2-en-benign-001": "a party's phone bank: a bare party cue, as on main",
    # "reading" is a topic word in English ("reading about"): "my CGM reading" is read as one.
    "diabetes_device-en-special-005": "my CGM reading: 'reading' frames a topic",
    # "no aeroporto": the Spanish vocabulary claims the sentence and finds no first person.
    "diabetes_device2-pt-special-002": "Spanish claims the Portuguese sentence",
    # "dois pais" is also "two parents": not a couple of one gender.
    "same_gender_implied-pt-special-003": "dois pais: two fathers or two parents",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    failing = {c["id"] for c in CASES if c["family"] == family and special_sets.family_row_fails(c)}
    assert failing - KNOWN.keys() == set()


@pytest.mark.parametrize("case", [c for c in CASES if c["id"] in KNOWN], ids=lambda c: str(c["id"]))
@pytest.mark.xfail(strict=True, reason="a known miss of the class (see KNOWN)")
def test_known_misses(case: dict[str, object]) -> None:
    assert not special_sets.family_row_fails(case)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my sister keeps Shabbos, so no calls to her on Saturday", None),  # another's practice
        ("we keep Shabbos at home, so no calls on Saturday", "religion"),
        ("the Greens joined the coalition last spring", None),  # news
        ("I joined the Greens last spring and now run the ward canvassing", "political_opinion"),
        ("what is a community order?", None),  # a topic
        ("I've still got 8 months on my community order", "criminal_record"),
        ("is the Libre 3 waterproof?", None),  # the device as a product
        ("my Libre 3 sensor fell off again", "health"),
        ("my son's Dexcom keeps losing signal", None),
        ("my Dexcom keeps losing signal", "health"),
        ("my wife and I are adopting and the agency wants our payslips", None),
        ("my wife and I are adopting as the two mothers of the boy", "sexual_orientation"),
        ("我爸是工会主席", None),  # the speaker's father's role
        ("我在工会当执行委员", "trade_union"),
        ("同僚が彼氏とパートナーシップ証明を取ったらしい", None),
        ("パートナーシップ証明を彼氏と取った", "sexual_orientation"),
    ],
)
def test_twins_differ_by_whose_circumstance(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
