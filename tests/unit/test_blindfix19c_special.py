"""First-person special-category statements blind19 missed, by class (issue 29, blindfix19c).

Five classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix19c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a third party, a topic question, news, a job's probation, a club's office):

- a same-gender couple by paired titles of one gender, taken up by the speaker ("Mr & Mr" on
  our invitations, "Frau und Frau" for me and my wife, "Sr. y Sr.", 我们是夫夫, うちは夫夫);
- campaigning for a named party (leafleting, door-knocking, phone banking, "je tracte pour",
  "reparto propaganda del", "panfletando pro", 帮民进党发传单, 立憲民主党のビラ配り);
- a party office by its compound title ("ward chair for Labour", Kreisvorsitzende,
  Ortsvereinsvorstand, "la ejecutiva comarcal del PP", 立憲の県連で幹事);
- the speaker's own charge named by its year or offence ("my 2016 possession charge", "mein
  Eintrag von 2016 wegen Körperverletzung", "meu processo por porte de drogas"), a diversion;
- a sentence still running with the subject left out ("on probation for another year, …",
  "bin noch bis Herbst auf Bewährung", 執行猶予中なので).

First run on main: couples 0/21, campaigning 8/22, offices 7/21, charges 13/21, running
sentences 15/22 found (benign 0/16, 4/16, 0/16, 1/16, 1/16 withheld or changed); the second
sets at first sight: 16/16, 12/14, 10/13, 14/14, 13/13 (benign 1/9, 2/8, 0/8, 0/9, 3/8).
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, special_sets
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix19c_{name}{round_}.jsonl"
    for name in (
        "couple_titles",
        "party_campaigning",
        "party_office",
        "own_charge",
        "sentence_running",
    )
    for round_ in ("", "2")
)
CASES = data_sets.rows(*SETS)
FAMILIES = sorted({str(c["family"]) for c in CASES})
KNOWN = {
    # Near-misses withheld on main too: a bare cue the vocabularies read, no rule of this round.
    "party_campaigning-fr-benign-001": "militants d'EELV: the vocabulary's term, as on main",
    "party_campaigning-fr-benign-002": "tracts for a school fête: a vocabulary term, as on main",
    "party_campaigning-pt-benign-001": "militantes do PL: the vocabulary's term, as on main",
    "party_campaigning-ja-benign-001": "公明党が…配ってた: a pro-drop sentence, as on main",
    "party_campaigning2-en-benign-002": "a question about canvassing: a bare party cue, as on main",
    "party_campaigning2-ja-benign-001": "公明党のポスター: a pro-drop sentence, as on main",
    "sentence_running-en-benign-003": "what a suspended sentence means: a bare cue, as on main",
    "sentence_running2-en-benign-002": "a suspect out on licence: a bare cue, as on main",
    "sentence_running2-fr-benign-001": "a suspect sous contrôle judiciaire: a bare cue, as on main",
    "sentence_running2-pt-benign-001": "o réu em prisão domiciliar: a bare cue, as on main",
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
        ("my neighbours had 'Mr & Mr' painted on their doormat", None),  # another's couple
        ("my husband wants 'Mr & Mr' painted on our doormat", "sexual_orientation"),
        ("a shop near us sells Mr & Mr mugs", None),  # "us" as a place
        ("the Mr & Mr Smith film is on tonight, we should watch it", None),  # another clause
        ("邻居是一对夫夫", None),
        ("我们是一对夫夫", "sexual_orientation"),
        ("my dad goes leafleting for Labour every weekend", None),  # another's campaigning
        ("I go leafleting for Labour every weekend", "political_opinion"),
        ("I'm leafleting for the pizza place on Saturday", None),  # no party
        ("meine Mutter ist Kreisvorsitzende der CDU", None),
        ("ich bin Kreisvorsitzende der CDU", "political_opinion"),
        ("ich bin im Vorstand vom Sportverein", None),  # a club's board
        ("my brother's 2016 possession charge came up in court", None),
        ("my 2016 possession charge came up in court", "criminal_record"),
        ("my 2016 tax return was flagged again", None),
        ("still on probation at the new job until March, so no holiday yet", None),  # a job's
        ("still on parole until March, so no trips abroad", "criminal_record"),
        ("弟は保護観察中らしい", None),
        ("保護観察中だから引っ越しには許可がいる", "criminal_record"),
        ("試用期間中なので有給はまだ取れない", None),
    ],
)
def test_twins_differ_by_whose_circumstance(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
