"""Special categories blind20 quoted in the covered languages, by class (issue 29, blindfix20c).

Six classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix20c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a colleague's stoma, news of a strike, a dashboard's caution light, a chess
club's treasurer, "as a developer"):

- a surgical or device state of the speaker's (ileostomy, colostomy bag, VP shunt, chemo port,
  Stomabeutel, 造口, ストーマ): the vocabularies' terms;
- on strike with a named union ("out on strike with Unite", "hago huelga con CCOO",
  "mit ver.di im Streik", 参加了工会…罢工, 組合のストに参加);
- the speaker's caution, reprimand or penalty notice for an offence and a records check about
  it ("my caution for shoplifting from 2019", "meine Verwarnung wegen Ladendiebstahl",
  万引きで補導された); a records certificate's own name (certificado de antecedentes penales,
  extrait de casier judiciaire, 无犯罪记录证明) is no record;
- a party office held after campaigning ("Flyer verteilt und bin jetzt Kassiererin im
  Ortsverband", "tracté pour LFI … trésorière de la section");
- a union by its date ("bin seit Januar bei ver.di", "in Unison since January",
  "sou da CUT desde março", 我入工会三年了);
- origin by "as a <people>" (``data/people_frames.yaml``: "en tant que Kabyle", "como aimara",
  "als Jesidin", 作为彝族人, 琉球人として).

First run on main: 11/22, 6/22, 16/22, 7/22, 14/22, 13/22 found (benign 1/15, 1/15, 4/15, 0/15,
0/15, 1/15 withheld or changed); the second sets at first sight: 13/15, 12/15, 13/15, 11/15,
12/15, 14/15 (benign 2/14, 0/14, 0/14, 1/14, 2/14, 3/14).
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix20c_{name}{round_}.jsonl"
    for name in (
        "device_state",
        "strike_union",
        "own_caution",
        "branch_office",
        "union_since",
        "as_people",
    )
    for round_ in ("", "2")
)
KNOWN = {
    "device_state2-en-special-002": "'got a tracheostomy …': an English subject left out",
    "as_people2-en-special-002": "'a Sámi reindeer herder's daughter': the name before a noun",
    # Near-misses withheld on main too: a bare cue the vocabularies read, no rule of this round.
    "device_state-en-benign-003": "what a pacemaker does, for homework: a bare cue, as on main",
    "device_state2-es-benign-002": "¿qué es una urostomía?: withheld on main too",
    "strike_union-es-benign-001": "a CCOO strike beside 'me deja': as on main",
    "union_since2-es-benign-001": "CCOO negotiating since January: as on main",
    "union_since2-fr-benign-001": "la CGT négocie depuis janvier: as on main",
    "branch_office2-zh-benign-002": "an uncle's 党部 office: as on main",
    "as_people-zh-benign-002": "藏族 in a teacher's topic: the vocabulary's term, as on main",
    "as_people2-es-benign-001": "comunidades mapuches: the vocabulary's term, as on main",
    "as_people2-pt-benign-001": "aldeia indígena: the vocabulary's term, as on main",
    "as_people2-ja-benign-001": "アイヌの文化: the vocabulary's term, as on main",
}


test_every_item_of_the_family, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("my colleague has a stoma, what can I cook for her?", None),  # another's device
        ("I've had my ileostomy since March", "health"),
        ("the RMT strike cancelled my train", None),  # news of a strike
        ("I'm out on strike with the RMT on Thursday", "trade_union"),
        ("my brother is out on strike with Unite on Monday", None),
        ("the caution light on my dashboard came on", None),
        ("will the DBS check show my caution for shoplifting?", "criminal_record"),
        ("I got a fixed penalty for speeding", None),  # no offence of the record's
        ("necesito el certificado de antecedentes penales", None),  # the document's name
        ("tengo antecedentes penales por un robo", "criminal_record"),
        ("ich bin Kassiererin im Schachverein", None),
        ("ich hab für die Linke Flyer verteilt und bin jetzt Kassiererin", "political_opinion"),
        ("bin seit Januar bei Siemens", None),  # an employer, no union
        ("bin seit Januar bei ver.di", "trade_union"),
        ("as a developer, I need a fast laptop", None),
        ("as a Kurd, I want my grandmother's recipes", "ethnicity"),
        ("I'm learning Yoruba, as a beginner I need help", None),  # a language, no frame
        ("como Maya me dijo, quiero ir", None),  # a first name
        ("en tant que Kabyle née à Tizi, je veux apprendre le tamazight", "ethnicity"),
    ],
)
def test_twins_differ_by_whose_or_what(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
