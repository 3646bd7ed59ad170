"""Special-category statements shared with the speaker or implied, each as a class (issue 29,
blindfix11b).

``tests/data/special_shared_classes.jsonl`` was written before the rules changed, in all seven
languages: a subject that includes the speaker ("my wife and I are both…", "我和我老公都是…",
"eu e a minha esposa somos…"), "we" statements, the speaker joining someone else's fact ("and so
am I", "yo también", "我也是", "私もです"), and facts implied by practice or circumstance (a
faith's adherent noun, prison time, a record's extract, an identity noun closed by a copula with
no subject); each family with third-party ("they are Muslims", "mis padres son católicos"),
topic, news and support ("I love him too") twins. First sight on main: special 40/112, benign
withheld 8/50 (``docs/benchmarks.md``, "blind11's special categories, shared and implied").
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import data_sets
from userlore.policy.detectors.special_lang import _lang_special
from userlore.policy.quote_gate import quote_verdict

KNOWN: frozenset[str] = frozenset(
    {
        # Withheld on main too: "Sie" is "they" and the polite "you" alike.
        "ssc-we_are-de-b01",
        # A faith's adherent noun or a prison with no person and no reading frame the
        # vocabularies know ("Rastafarian music", "そのドラマは"): a cue with no owner fails
        # closed. ("La serie trata de una santera" is a topic since blindfix15c's frames, and
        # "そのドラマは刑務所から…" since blindfix16c's: ドラマ is a topic word.)
        "ssc-implied-en-b02",
        # "には言ってない" ("haven't told …") is a speaker's form in ja's list: withheld on main.
        "ssc-implied-ja-b02",
    }
)


def _wrong(case: dict[str, Any]) -> bool:
    withheld = not quote_verdict(case["text"]).quotable
    return withheld if case["class"] == "benign" else not withheld


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("special_shared_classes.jsonl", KNOWN),
        # Written after the rules, scored once: special 19/23, benign 0/14 (main: 8/23, 1/14).
        # The four wrong ("me and the wife", "been to prison", "igual que yo", "séropositifs":
        # a health plural) were classes, fixed since.
        ("special_shared_second.jsonl", frozenset()),
    ],
)
def test_fresh_class_sets(name: str, known: frozenset[str]) -> None:
    failing = {c["id"] for c in data_sets.rows(name) if _wrong(c)}
    assert failing == known, sorted(failing ^ known)


@pytest.mark.parametrize(
    ("text", "speakers"),
    [
        # A subject that includes the speaker reaches the cue.
        ("My husband and I are both Catholic.", True),
        ("Yo y mi novio somos afiliados al PSOE.", True),
        ("Ich und mein Bruder sind vorbestraft.", True),
        ("夫と私は二人ともムスリムです。", True),
        # Someone else named between them, or a topic, or "they": not the speaker's.
        ("We visited my sister, who is gay.", False),
        ("We read a book about Islam.", False),
        ("They are Muslims and fast during Ramadan.", False),
        ("It made me think how much work we still have to do for LGBTQ rights.", False),
        ("Mis padres son católicos.", False),
        ("両親は二人ともクリスチャンです。", False),
        # The speaker joins a fact told of someone else, in the sentence or the next.
        ("My brother is gay, and so am I.", True),
        ("My dad was a Labour member. Me too, since 2015.", True),
        ("我妈是基督徒，我也是。", True),
        ("Mon frère est gay, et moi aussi.", True),
        ("Mi hermana es bisexual, igual que yo.", True),
        # "too" that closes no clause of the fact: the other person's.
        ("My brother is gay and I love him too.", False),
        ("我姐姐是同性恋，我也支持她。", False),
        # A copula with no subject of its own: the speaker; someone else's topic: theirs.
        ("会社には言えないレズビアンです。", True),
        ("妹がゲイです。", False),
    ],
)
def test_whose_fact_a_shared_statement_is(text: str, speakers: bool) -> None:
    assert bool(list(_lang_special(text))) is speakers


@pytest.mark.parametrize(
    "text",
    [
        "Somos lesbianas y queremos adoptar.",
        "Wir sind beide Katholiken.",
        "Nous sommes musulmans.",
        "Nós somos muçulmanos.",
        "We're both Jewish.",
        "Eu e meu pai somos filiados ao PT.",
        "Mein Mann und ich sind beide Mitglieder der Grünen.",
        "Mon compagnon et moi sommes séropositifs.",
    ],
)
def test_identity_terms_are_read_in_the_plural(text: str) -> None:
    assert list(_lang_special(text))
