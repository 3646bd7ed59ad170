"""Special categories that blind23 quoted, and a statistics question it withheld, by class
(blindfix23c).

Six classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix23c_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (MS Word, the EM, an SOP, a sister's PCOS, a father's diagnosis, the LDS
church's founder, "as a tourist in Cusco", 藏族服饰):

- conditions by their acronym or short form (ARFID, PCOS, POTS, hEDS, TEA, SOPK, TSA, ADS,
  多囊, パニ障), and an acronym joined by a hyphen to a listed tail ("MS-Diagnose");
- a diagnosis or treatment as a nominal phrase with the speaker left out ("since my lupus
  diagnosis", "Seit der Krebs-OP", "tras la quimio", 乳腺癌确诊以后, うつ病と診断されてから);
- parties and party membership, traditional Chinese among them (國民黨黨員, 時代力量, "Ich bin
  BSW-Mitglied", "milito en Bildu", 参政党);
- faiths, movements and their member words (一貫道道親, 真如苑, "Zeugin Jehovas", "filha de santo",
  "Opus Dei numerary", Laestadian);
- "as a <people> woman/man in <place>" ("como mujer aymara en La Paz", "als kurdische Frau",
  "en tant que femme touarègue à Niamey");
- prevalence, incidence and "how many people have…" questions about a condition: a topic,
  not the speaker's condition (患病率, Prävalenz, 有病率, "how common is…").

First run on main (gate and floor): special 17/24, 12/21, 15/18, 17/20, 16/19, 4/4 found;
benign wrong 1/18, 3/15, 1/16, 6/14, 2/19, 16/23. The second sets at first sight: special
22/23, 14/21, 17/17, 17/17, 16/17, 3/3; benign wrong 1/16, 5/14, 1/16, 4/14, 0/14, 8/21.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix23c_{name}{round_}.jsonl"
    for name in ("acronyms", "diagnosis_since", "parties", "faiths", "ethnic_as", "prevalence")
    for round_ in ("", "2")
)
KNOWN = {
    # ASD is also the Australian dollar: the gate withholds it (fail closed), the floor finds
    # nothing; "I have ASD" must stay withheld.
    "acronyms2-en-benign-001": "the ASD exchange rate: gate only, recall first",
    # A sentence opening with the term and the speaker only in the next clause: the gate
    # withholds it, the floor reads no owner.
    "diagnosis_since-de-special-003": "HIV-positiv seit 2019, muss ich …: gate only",
    # The condition, then the boss two clauses later: a Chinese clause is not cut at a comma
    # (斋月期间，清真餐厅… is a topic told in the next clause), so the boss owns it: quoted.
    "acronyms2-zh-special-003": "惊恐障碍又发作了，…跟领导请假: the boss read as its owner",
    # A relative clause: "diagnosed" modifies the employee (社員), read as the speaker's.
    "diagnosis_since2-ja-benign-002": "がんと診断された社員: the relative clause is read as self",
    # An ethnonym in an English sentence no English word reads: the Spanish vocabulary reads it
    # with no owner, so the gate withholds it (fail closed).
    "ethnic_as-en-benign-003": "Mapuche silver jewelry: gate only",
    # Members of a faith at the door, in the plural: no owner is read (the door is "meiner").
    "faiths-de-benign-001": "Zeugen Jehovas vor meiner Tür: read as the speaker's",
    "faiths-fr-benign-002": "des Témoins de Jéhovah ont sonné: gate only",
    # A hospital's name ("Adventist hospital"): no owner, gate only.
    "faiths-en-benign-002": "Adventist hospital: gate only",
    # Portuguese and Spanish both read "… no Brasil": Spanish "no" is a negation after the
    # term, so that reading stays unclear and the gate withholds it.
    "prevalence-pt-benign-002": "quantas pessoas têm HIV no Brasil: es reads 'no'",
    "prevalence2-pt-benign-002": "quantas crianças têm TDAH no Brasil: es reads 'no'",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # blind23's own misses
        (
            "therapist thinks my ARFID is why work lunches are so hard. how do I explain it to "
            "my boss w/o oversharing",
            "health",
        ),
        (
            "Seit der MS-Diagnose arbeite ich nur noch 25 Stunden, wie sag ich das im "
            "Bewerbungsgespräch?",
            "health",
        ),
        ("我是民進黨黨員，下週要去幫候選人站台，幫我寫個講稿", "political_opinion"),
        ("創価学会員なので選挙のたびに友達に頼むのが気まずい、どうすれば", "religion"),
        (
            "como mujer aymara en La Paz siento que en las entrevistas me miran distinto, "
            "¿qué hago?",
            "ethnicity",
        ),
    ],
)
def test_blind23_statement_is_found(text: str, category: str) -> None:
    assert category in {f.category for f in classify(text).findings}
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("2023年中国成人糖尿病患病率大概是多少", None),  # blind23's withheld question
        ("我有糖尿病，想知道像我这样的人占多少比例", "health"),
        ("Wie öffne ich MS Word Dateien auf dem Mac?", None),
        ("Mit meiner MS schaff ich keine Vollzeit mehr", "health"),
        ("Wie installiere ich MS-DOS in einer VM?", None),
        ("Seit der MS-Diagnose meiner Frau fahre ich sie zu jedem Termin", None),
        ("適応障害で休職中なんだけど、傷病手当ってどうやって申請する？", "health"),
        ("アイヌ文化について学べる博物館は？", None),
        ("como turista en La Paz, ¿qué barrio es seguro?", None),
        ("民進黨是哪一年成立的", None),
    ],
)
def test_twins_differ_by_whose_or_what(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
    assert quote_verdict(text).quotable is (category is None)
