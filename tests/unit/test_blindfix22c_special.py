"""Special categories said without their word that blind22 quoted, by class (blindfix22c).

Four classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix22c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a roommate who keeps kosher, "when does Ramadan start", a sister's wife, "as a
bi-weekly reminder", "als Panflötenspieler", what nurses earn):

- a faith's practice kept by the speaker: prayer counts, the Sabbath's rules, fasts, dietary law,
  clothing ("I don't use my phone … till havdalah", "je fais mes cinq prières", 我初一十五吃素,
  "eu guardo o sábado", 宗教上食べられない);
- a same-gender partner with the speaker's own gender ("ich bin auch 'ne Frau", 我自己也是男的,
  "namoro um cara … também sou homem") or the speaker's coming-out plan (跟爸妈出柜,
  "quiero salir del armario", 両親にカミングアウトする);
- "as a …" with a short orientation word beside a person noun ("mec bi", "chica bi", "bi Mann",
  バイの男, "as an ace person");
- health-care occupations and health topics asked about in general ("Was verdienen Hebammen",
  精神科医になるには): kept quotable; German "verdienen" no longer reads as the union ver.di.

First run on main (gate and floor): 23/30, 11/23, 18/25, 6/7 found (benign 2/23, 0/22, 0/16,
2/23 wrong); the second sets at first sight: 20/29, 14/21, 21/24, 6/7 (benign 5/15, 1/15,
1/14, 2/24).
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix22c_{name}{round_}.jsonl"
    for name in ("practice", "gender_partner", "as_a", "health_general")
    for round_ in ("", "2")
)
KNOWN = {
    # A third party's practice under a negation: the denial is read, not the owner (withheld).
    "practice2-es-benign-001": "los católicos no comen carne: read as denied, not as theirs",
    # The speaker's own Sabbath after "je ne travaille pas": the gate withholds it, the floor
    # reads the negation and finds nothing.
    "practice2-fr-special-004": "c'est shabbat pour moi after a negation: gate only",
    # An English sentence read by the German and French vocabularies too ("coming out"): they
    # see no owner, so the gate withholds it (fail closed), as on main.
    "gender_partner2-en-benign-001": "my daughter is coming out: de/fr read no owner, as on main",
    # "deux filles" is also "two daughters": no rule reads it as two women.
    "gender_partner2-fr-special-002": "ma femme et moi, deux filles: also 'two daughters'",
    # A set error: the sentence states the speaker's own pay (バイト代 … 一万円もらった).
    "as_a2-ja-benign-002": "the speaker's own pay: the money rule withholds it rightly",
    # The gate withholds it; the floor reads no first person in "fui diagnosticada com" (main).
    "health_general-pt-special-001": "fui diagnosticada com ansiedade: gate only, as on main",
    # Chinese read by the Japanese vocabulary too: 精神科 with its left-out subject is the
    # speaker's there (a psychiatrist of one's own is a health cue since blindfix21c).
    "health_general2-zh-benign-003": "精神科医生 read as the speaker's by the ja vocabulary",
    # A short Portuguese question the language identifier reads as an uncovered language.
    "health_general2-pt-benign-003": "vale a pena estudar fisioterapia: quote_language",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # blind22's own misses
        (
            "I don't use my phone or the stove from Friday sundown till havdalah, so set the "
            "reminder for Thursday night instead",
            "religion",
        ),
        ("je fais mes cinq prières et au taf y a aucun endroit calme", "religion"),
        ("跟男朋友在一起五年了，我自己也是男的，想跟爸妈出柜不知道怎么开口", "sexual_orientation"),
        (
            "Meine Freundin und ich (ja, ich bin auch 'ne Frau) wollen heiraten, was brauchen "
            "wir beim Standesamt?",
            "sexual_orientation",
        ),
        (
            "en tant que mec bi, j'ose pas le dire à ma copine, t'as des conseils ?",
            "sexual_orientation",
        ),
    ],
)
def test_blind22_statement_is_found(text: str, category: str) -> None:
    assert category in {f.category for f in classify(text).findings}
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Was verdienen Pflegekräfte in Bayern im Durchschnitt?", None),  # blind22's near-miss
        ("Sie verdient gut als Ärztin", None),  # "verdient" is no ver.di
        ("ich bin seit 2019 bei Verdi", "trade_union"),
        ("my roommate keeps kosher, what can I cook for him?", None),
        ("I keep kosher, so pick restaurants with a hechsher", "religion"),
        ("as a bi-weekly reminder, water the plants", None),
        ("as a bi guy, should I tell my girlfriend?", "sexual_orientation"),
        ("als Panflötenspieler brauche ich ein neues Instrument", None),
        ("als bi Mann weiß ich nicht, ob ich es sagen soll", "sexual_orientation"),
        ("je suis un mec et ma copine veut un chat", None),
        ("je suis une meuf et ma copine et moi on veut se pacser", "sexual_orientation"),
        ("弟が親にカミングアウトしたらしい", None),  # the brother's coming out
        ("来月、両親にカミングアウトするつもりです", "sexual_orientation"),
    ],
)
def test_twins_differ_by_whose_or_what(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
    assert quote_verdict(text).quotable is (category is None)
