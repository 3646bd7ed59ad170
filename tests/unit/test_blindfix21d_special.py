"""Special categories blind21 quoted in the covered languages, by class (issue 29, blindfix21d).

Four classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix21d_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a neighbour's two dads, the tag in one's HTML, a job ad asking for a
Führungszeugnis, news of Sumar's agents, a union's history, "my mother is a teacher"):

- a same-gender couple of the speaker's by its parenthood or a partnership scheme: "my husband
  and I … two dads", "meine Freundin und ich … zwei Mamas",
  パートナーシップ宣誓制度で彼女と届け出た, 我和女朋友…做了同性伴侣登记
  (``data/same_gender_partner.yaml``);
- a criminal record by its state: an electronic tag or its curfew ("I'm on a tag until March",
  "llevo la tobillera"), a records certificate with an entry ("ein Führungszeugnis mit Eintrag
  wegen Betrug", "mon casier n'est pas vierge"), 前科があるので (``data/record_forms.yaml``);
- a role for a named party or union by the speaker's turn or appointment ("me toca de apoderada
  de Sumar", "I've been made the GMB rep"), a union office taken up (組合の執行委員になった,
  我刚当选了工会委员) (``data/party_membership.yaml``, ``data/special/en.json``);
- origin by one's parents' people ("Ma mère est kanak", "my dad's Igbo", 我妈妈是藏族,
  母がアイヌで) (``data/people_frames.yaml``).

First run on main (gate and floor redaction): 15/23, 16/23, 15/23, 5/22 found (benign 2/13,
0/15, 0/13, 0/14 withheld or changed); the second sets at first sight: 15/16, 17/19, 19/21,
19/20 (benign 2/10, 2/13, 0/10, 0/10).
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix21d_{name}{round_}.jsonl"
    for name in ("couple_parents", "record_state", "party_role", "parent_origin")
    for round_ in ("", "2")
)
KNOWN = {
    # Near-misses withheld on main too: a bare cue the vocabularies read, no rule of this round.
    "couple_parents2-en-benign-003": "'gay couples' asked about: the vocabulary's term, as on main",
    "record_state2-fr-benign-001": "how a bracelet électronique works: a bare cue, as on main",
}


test_every_item_of_the_family, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # blind21's own misses
        (
            "my husband and I are doing the home study for adoption next month, what do "
            "agencies usually ask two dads?",
            "sexual_orientation",
        ),
        ("パートナーシップ宣誓制度で彼女と届け出たので、人事に聞きたい", "sexual_orientation"),
        ("I'm on a tag until March and have a 7pm curfew", "criminal_record"),
        ("Ich hab ein Führungszeugnis mit Eintrag wegen Betrug von 2021", "criminal_record"),
        ("este finde me toca de apoderada de Sumar en el colegio electoral", "political_opinion"),
        ("組合の執行委員になったので、春闘の要求書のたたき台作るの手伝って", "trade_union"),
        ("Ma mère est kanak et mon père caldoche, je veux écrire sur mon héritage", "ethnicity"),
    ],
)
def test_blind21_statement_is_found(text: str, category: str) -> None:
    assert category in {f.category for f in classify(text).findings}


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my husband and I read a book about two dads", None),  # a topic
        ("me and my boyfriend want to foster, are they fine with two dads?", "sexual_orientation"),
        ("姉がパートナーシップ制度で彼女と届け出た", None),  # the sister's couple
        ("パートナーシップ制度で彼女と届け出た", "sexual_orientation"),
        ("the title tag in my HTML is wrong", None),
        ("I'm on an electronic tag till June", "criminal_record"),
        ("my DBS came back clean", None),
        ("my DBS came back with a caution on it", "criminal_record"),
        ("前科がある人の就職支援について調べて", None),  # people who have one
        ("前科があるので、面接が不安", "criminal_record"),
        ("my dad got elected union rep in 1979", None),  # the father's office
        ("got elected union rep last week", "trade_union"),
        ("mi padre fue apoderado de Sumar", None),
        ("me toca de apoderada de Sumar", "political_opinion"),
        ("my mum's Kurdish friend is visiting", None),  # a people named before a noun
        ("my mum is Kurdish and my dad Turkish", "ethnicity"),
        ("my mother is a teacher", None),
    ],
)
def test_twins_differ_by_whose_or_what(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
