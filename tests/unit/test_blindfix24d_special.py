"""Special categories that blind24 quoted, and a relative's diagnosis it withheld, by class
(blindfix24d).

Five classes, each with a first set written before the rules and a second written after them
(``tests/data/blindfix24d_<class>.jsonl`` and ``…2.jsonl``), over the seven covered languages
with benign twins (a parking ticket, a friend's conviction, a grandfather's vote, a church's
opening hours, a slur reported about someone else, "the word gouine", a mother's chemo):

- one's own conviction, fine or sentence said through the offence and the penalty ("got done
  for drink driving", "Mine's the 2019 one for affray", 60 Tagessätze, jours-amende, "me
  pillaron", 拘役, 罰金, "peguei uma multa por dirigir bêbado");
- the user's vote and camp (投民主派, 綠營, "I always vote Green", "voto sempre no PT", "je vote
  LR", 維新に入れてる);
- membership of a named church or denomination and leaving one (Neuapostolische Kirche,
  Kirchenaustritt, Iglesia ni Cristo, Assembleia de Deus, "saí da Igreja Universal", Brethren);
- self-identifying slang and reclaimed words (バイ, レズ, ビアン, sapatão, bicha, viado, bollera,
  tortillera, gouine, Lesbe, 拉拉, 基佬, 我是同志, "dyke", "out to my friends");
- a relative's condition with a follow-up about helping them ("comment je peux l'aider
  pendant la chimio", "ayudarla durante la quimio", 治療の送り迎え): someone else's, while
  "ma mère et moi avons tous les deux…" and "wie meine Mutter habe ich…" stay the speaker's.

First run on main (gate and floor): special 14/24, 17/22, 21/23, 12/22, 13/15 found; benign
wrong 2/16, 1/15, 7/15, 0/15, 5/35. The second sets at first sight: special 21/22, 17/21,
18/22, 22/22, 6/7; benign wrong 0/16, 1/14, 1/15, 3/14, 0/21.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets, value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

SETS = tuple(
    f"blindfix24d_{name}{round_}.jsonl"
    for name in (
        "criminal_penalty",
        "voting",
        "church_membership",
        "orientation_slang",
        "relative_diagnosis",
    )
    for round_ in ("", "2")
)
KNOWN = {
    # A parking fine's amount reads as the user's own money (the money rules', not this
    # class's): withheld as regulated, no special category.
    "criminal_penalty-de-benign-001": "25 Euro for a parking ticket: read as the user's money",
    "criminal_penalty-fr-benign-001": "35 euros d'amende de stationnement: the user's money",
    # "Christmas" opens with the German compound head "christ": a bare religion cue, withheld.
    "voting-en-benign-002": "Christmas read as a German compound of 'Christ': gate only",
    # Pro-drop Japanese reads a bare term with no person as the speaker's.
    "church_membership-ja-benign-002": "近所の…アドベンチスト教会はバザー: pro-drop reads self",
    "voting2-ja-benign-002": "公明党の支持母体はどこ: pro-drop reads self",
    # The English lexicon reads "Quaker meeting" as a practice with no subject.
    "church_membership2-en-benign-001": "Quaker meeting house open to visitors: read as practice",
}


test_every_item_of_the_family, test_known_misses = value_sets.set_tests(
    SETS, KNOWN, fails=special_sets.family_row_fails, by_family=True
)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # blind24's own misses
        (
            "Job app asks about 'unspent convictions'. Mine's the 2019 one for affray — is that "
            "spent yet or do I have to tick yes?",
            "criminal_record",
        ),
        (
            "Hab wegen Trunkenheit am Steuer 60 Tagessätze kassiert — muss ich das beim "
            "Vorstellungsgespräch sagen?",
            "criminal_record",
        ),
        ("以前区议会选举我一直投民主派，现在这样都没得选了，心好累", "political_opinion"),
        (
            "Bin seit letztem Jahr in der Neuapostolischen Kirche aktiv und will aus der "
            "evangelischen austreten – wie wirkt sich das auf die Kirchensteuer aus?",
            "religion",
        ),
        ("俺バイなんだけど、会社の人には言ってない。", "sexual_orientation"),
        (
            "sou sapatão assumida mas minha família não sabe, como conto pra minha vó?",
            "sexual_orientation",
        ),
    ],
)
def test_blind24_statement_is_found(text: str, category: str) -> None:
    assert category in {f.category for f in classify(text).findings}
    assert not quote_verdict(text).quotable


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("Ma mère a un cancer du sein, comment je peux l'aider pendant la chimio ?", None),
        ("Ma mère et moi avons tous les deux un cancer", "health"),
        ("My friend got done for drink driving, what's the usual ban?", None),
        ("Got done for drink driving in 2021, does it show on a DBS check?", "criminal_record"),
        ("Ich hab ein Knöllchen fürs Falschparken bekommen, lohnt sich ein Einspruch?", None),
        ("我爸一直投建制派，我怎么跟他聊政治？", None),
        ("バイト先の店長がうるさい", None),
        ("我们班拉拉队今天训练到几点？", None),
        ("Ich bin bi und hab es noch keinem gesagt", "sexual_orientation"),
    ],
)
def test_twins_differ_by_whose_or_what(text: str, category: str | None) -> None:
    found = {f.category for f in classify(text).findings}
    assert (category in found) if category else not found
    assert quote_verdict(text).quotable is (category is None)
