"""Special categories in the forms still weak after special4 (issue 29, special5).

Three class families, each in en/zh/es/de/fr/ja/pt, with third-party, topic and figure-of-speech
near-misses: orientation and gender identity without the noun (coming out, pride as one's own,
a same-sex partner by role, transition, hormones, binders, pronouns, a name or gender marker on
papers), facts implied by practice or circumstance (a faith's fast or dietary law, pregnancy by
weeks or due date, parole and court conditions, a support group's rituals, a medication schedule
without the condition), and reported speech, subordinate clauses, "as a …" and an implied subject
across every category. ``tests/data/special/special5_a.jsonl`` was written before any rule change
(first run: 72 of 105 statements withheld), ``special5_b`` after set A's fixes (first sight 56 of
112), ``special5_c`` after set B's (first sight 42 of 112); figures per class in
``docs/benchmarks.md`` ("Issue 29: special categories, fifth round (special5)").

The question is the gate's (no consent granted): is the statement withheld, is the near-miss
quoted? With consent to every special category, no special category withholds it.
"""

from __future__ import annotations

import pytest

from tests.support import special_sets
from userlore.policy.filter import RejectionReason
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

SETS = ("special5_a.jsonl", "special5_b.jsonl", "special5_c.jsonl")
EVERY_CATEGORY = special_sets.EVERY_CATEGORY
LANGUAGES = {"en", "zh", "es", "de", "fr", "ja", "pt"}

# Statements still quoted (see docs/benchmarks.md for why each is hard):
KNOWN_MISSES: frozenset[str] = frozenset(
    {
        # A support group told only by its setting and ritual, no group or addiction word.
        "Every Thursday I'm in the church basement with the others, coffee and the serenity "
        "prayer.",
        # "Binder" is also a tie in German: no rule without "Brust".
        "Ich trage jeden Tag einen Binder, im Sommer ist das hart.",
        # "gosto" (I like) is no first-person marker; the mother before it claims the cue.
        "Desde que contei pra minha mãe que gosto de mulher, ela mudou comigo.",
        # "sur" is a topic word in French: "Sur liste d'attente" read as a topic ("mon groupe
        # de parole sur l'alcool" is the speaker's since blindfix14c: a possessive right
        # before the term, in a language whose nouns come first).
        "Sur liste d'attente pour une greffe de rein.",
    }
)
# Near-misses still withheld (fail closed: no speaker, or the speaker's own clinician named).
KNOWN_WITHHELD: frozenset[str] = frozenset(
    {
        # A determiner and no speaker: not cleared, by design.
        "The bakery downtown sells special sweets at the end of Ramadan.",
        # The English lexicon reads Portuguese "me" as the speaker.
        "O médico me disse que a minha avó tem diabetes.",
        # The speaker's own therapist or psychiatrist is itself a health disclosure.
        "My therapist thinks my brother should try CBT.",
        "Meine Psychiaterin sagt, mein Sohn sollte mal zum Kinderarzt.",
        # "came out as" said of a friend, with "we're" after it: not cleared.
        "My daughter's friend just came out as trans and we're helping her.",
        # French "de" is no beneficiary word ("coming out auprès de mes parents" is the
        # speaker's own), so "la sage-femme de ma sœur" is not cleared.
        "La sage-femme de ma sœur est adorable.",
        # A clinician's general statement after "according to my …": read as the speaker's.
        "Según mi reumatóloga, el lupus afecta más a las mujeres.",
        "Laut meiner Rheumatologin ist Lupus bei Frauen häufiger.",
        "リウマチ科の先生によると、膠原病は女性に多いらしい。",
        "Segundo minha reumatologista, lúpus é mais comum em mulheres.",
    }
)


ROWS = special_sets.load(SETS)


@pytest.mark.parametrize(("name", "row"), ROWS, ids=[str(r["id"]) for _, r in ROWS])
def test_statement_withheld_near_miss_quoted(name: str, row: special_sets.Row) -> None:
    special_sets.check(name, row, KNOWN_MISSES, KNOWN_WITHHELD)


def test_every_set_has_thirty_items_per_class_in_seven_languages() -> None:
    for name in SETS:
        rows = [r for n, r in ROWS if n == name]
        for cls in ("orientation", "practice", "forms"):
            mine = [r for r in rows if r["class"] == cls]
            assert len(mine) >= 35, (name, cls)
            assert {r["lang"] for r in mine} == LANGUAGES
            assert sum(r["expect"] is None for r in mine) == 14, (name, cls)
        forms = [r for r in rows if r["class"] == "forms" and r["expect"]]
        assert all(sum(r["lang"] == lang for r in forms) == 6 for lang in LANGUAGES)


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        # The partner noun and the speaker's own gender, the same: a same-sex couple.
        ("My boyfriend is picking me up. I'm a guy, by the way.", True),
        ("My wife and I both run; I'm a woman, so the women's race suits me.", True),
        ("和男朋友在一起五年了，我们都是男的。", True),
        ("彼氏と同棲中、ちなみに自分も男。", True),
        ("Mi novia me regaló flores; soy mujer, sí.", True),
        ("Mein Mann kocht heute. Ich bin auch ein Mann, falls das wichtig ist.", True),
        ("Mon copain arrive demain ; je suis un homme aussi.", True),
        ("Meu marido chega amanhã; sou homem também.", True),
        # Different genders, a gender only, a partner only, a figure of speech: no statement.
        ("My husband is picking me up. I'm a woman who hates driving.", False),
        ("My boyfriend is picking me up tonight.", False),
        ("I'm a guy who loves cooking.", False),
        ("My husband says I'm a man of my word.", False),
        ("Mein Mann kocht heute, ich bin eine Frau mit wenig Zeit.", False),
    ],
)
def test_same_sex_couple(text: str, flagged: bool) -> None:
    found = {f.category for f in classify(text).findings}
    assert ("sexual_orientation" in found) is flagged
    assert quote_verdict(text).quotable is not flagged


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        # A suffix "as a …" right after the term is the speaker's (it never matched before).
        ("糖尿病患者として、食事の時間は守りたい。", False),
        ("記者として、組合のストライキを取材した。", True),
        # A self term that opens with the speaker's word stays theirs past a third party.
        ("Depuis que j'ai dit à ma mère que j'aimais les filles, elle m'appelle moins.", False),
        ("Mon collègue a dit à sa mère qu'il aimait les garçons.", True),
        # "of / de / da / von" someone else: theirs.
        ("The due date of my sister is in June.", True),
        ("La matrona de mi hermana es muy maja.", True),
        # Pregnancy by weeks is the speaker's only in the first person.
        ("Ich bin in der 32. Woche, Dienstreisen gehen nicht mehr.", False),
        ("Meine Schwester ist in der 32. Woche.", True),
        ("I'm 14 weeks into the project and it's going fine.", True),
        # "as a journalist" frames the sentence as work, as "I'm a journalist" does.
        ("Como periodista, cubrí la huelga de Comisiones Obreras.", True),
        # Pride named as an event, not taken part in: quotable; taken part in: withheld.
        ("Pride and Prejudice is my favorite book.", True),
        ("I'm marching at Pride with my running club this year.", False),
        # Everyday words that share a term's letters stay quotable (LoCoMo, near-misses).
        ("Wanna do a family outing this summer?", True),
        ("Which is why my meetings are so exciting!", True),
        ("I go by bus now.", True),
        ("Start the free trial before the trial period ends.", True),
        ("J'ai nettoyé le clavier à l'air comprimé.", True),
        ("我们把代码移植到了新平台。", True),
        ("ゲームの移植版が出た。", True),
    ],
)
def test_class_edges(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable


@pytest.mark.parametrize(
    "text",
    [
        "С тех пор как я сделал каминг-аут перед родителями, праздники стали тяжелыми.",
        "Bu ay gün batımına kadar yemek yiyemiyorum, öğle toplantılarını kaydır.",
        "मैं इस महीने सूरज ढलने तक कुछ नहीं खाता, दोपहर की मीटिंग मत रखना।",
        "المحامي قال لي إن فترة المراقبة تنتهي العام القادم.",
        "남자친구랑 사귄 지 3년인데, 나도 남자야.",
    ],
)
def test_held_out_languages_never_quoted(text: str) -> None:
    """Item 4: no vocabulary reads these languages, so the language gate withholds them."""
    verdict = quote_verdict(text, consented=EVERY_CATEGORY)
    assert verdict.reason is RejectionReason.QUOTE_LANGUAGE
