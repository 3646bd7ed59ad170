"""The part of a turn withheld for a special category that a plan may still quote.

The quote gate judges a whole turn, so one sentence about the user's faith withheld the picnic
beside it. ``snippet_policy.quotable_part`` quotes the sentences the question names that hold no
special-category cue in any person, away from a sentence that does (the next one may go on about
it: reported speech, "they took it well", an implied subject); never a part of a turn withheld
for a secret, an identifier, money, a credential cue or an unread language.

The class table was written before the rule ran on it (first run: 14 of 17 as written; one
expectation was wrong, the Chinese film outing, whose cut states nothing; two are a turn the
gate already quotes whole, below). The two short-fragment cases came with that rule, after a
gate set showed the class.
"""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest

from userlore import Userlore
from userlore.planner.snippet_policy import screen

NOW = datetime(2026, 1, 1, tzinfo=UTC)

# (language, turn, question, the part quoted or None, words that must never be quoted)
CASES = [
    (
        "en",
        "Caroline: Hey Mel! I went camping at the lake last weekend. It was so peaceful. "
        "I also started going to the mosque on Fridays since my conversion.",
        "Where did Caroline go camping?",
        "Caroline: I went camping at the lake last weekend.",
        ["mosque", "conversion"],
    ),
    (  # reported speech right after the special sentence goes with it
        "en",
        "Jon: My doctor told me it's HIV. She said the trip to Rome is fine. "
        "We fly to Rome next week.",
        "When is the trip to Rome?",
        "Jon: We fly to Rome next week.",
        ["HIV", "She said"],
    ),
    (
        "en",
        "Jon: We booked the Rome trip. The flight is long. "
        "My therapist says my depression is getting better.",
        "When is the Rome trip?",
        "Jon: We booked the Rome trip.",
        ["depression", "therapist", "flight"],
    ),
    (  # an implied subject across sentences: nothing the question names is left
        "en",
        "Tom: Back from the clinic. On antiretrovirals since March. Still running every morning.",
        "Does Tom still run every morning?",
        None,
        ["antiretro", "clinic"],
    ),
    (  # the question asks for the special part itself
        "en",
        "Caroline: I went to a LGBTQ support group yesterday. It was powerful.",
        "When did Caroline go to the LGBTQ support group?",
        None,
        ["LGBTQ"],
    ),
    (
        "en",
        "Sam: I came out as bi to my parents. They took it well. "
        "So we celebrated with a dinner at Luigi's.",
        "Where did Sam have dinner?",
        "Sam: So we celebrated with a dinner at Luigi's.",
        ["bi ", "took it"],
    ),
    (
        "zh",
        "我上周末去杭州爬山了。风景很美。我每个星期天都去教堂做礼拜。",
        "上周末去哪里爬山了？",
        "我上周末去杭州爬山了。",
        ["教堂", "礼拜"],
    ),
    (  # implied subject, no pronoun: the sentence after the diagnosis goes with it
        "zh",
        "确诊了抑郁症。一直在吃药。周末去了杭州。",
        "周末去了哪里？",
        None,
        ["抑郁", "吃药"],
    ),
    (  # reported speech: 她让我多运动 follows the diagnosis and stays out
        "zh",
        "医生说我得了糖尿病。她让我多运动。我们下个月去北京。",
        "下个月去哪里？",
        "我们下个月去北京。",
        ["糖尿病", "运动"],
    ),
    (  # 我男朋友也是 ("mine too") leans on the sentence before it
        "zh",
        "我是同性恋。我男朋友也是。我们明天去看电影。",
        "明天去看什么？",
        "我们明天去看电影。",
        ["同性恋", "男朋友"],
    ),
    (
        "es",
        "Fuimos a la playa el sábado. Hacía mucho viento. "
        "Desde que me convertí al islam rezo cinco veces al día.",
        "¿Adónde fueron el sábado?",
        "Fuimos a la playa el sábado.",
        ["islam", "rezo"],
    ),
    (
        "de",
        "Am Samstag waren wir im Zoo. Es war kalt. Ich bin seit letztem Jahr HIV-positiv.",
        "Wann waren sie im Zoo?",
        "Am Samstag waren wir im Zoo.",
        ["HIV"],
    ),
    (  # "je ne l'ai dit à personne" refers back and stays out
        "fr",
        "Je suis enceinte de trois mois. Je ne l'ai dit à personne. Nous partons à Lyon en mai.",
        "Quand partent-ils à Lyon ?",
        "Nous partons à Lyon en mai.",
        ["enceinte", "personne"],
    ),
    (
        "ja",
        "週末に京都へ行きました。とても楽しかったです。実は先月うつ病と診断されました。",
        "週末にどこへ行きましたか？",
        "週末に京都へ行きました。",
        ["うつ病", "診断"],
    ),
    (  # a short fragment after the special sentence goes on with it
        "en",
        "Jo: The rheumatologist confirmed it today: I have lupus. Systemic. "
        "No idea how the trip will go.",
        "How will the trip go?",
        None,
        ["lupus", "Systemic"],
    ),
    (
        "zh",
        "我确诊了红斑狼疮。系统性的。下周的旅行不知道怎么办。",
        "下周的旅行怎么样？",
        None,
        ["狼疮", "系统性"],
    ),
    (
        "pt",
        "Fomos ao cinema na sexta. O filme era ótimo. Sou muçulmano e rezo todos os dias.",
        "Quando foram ao cinema?",
        "Fomos ao cinema na sexta.",
        ["muçulmano", "rezo"],
    ),
]


def _row(text: str, meta: dict[str, object] | None = None) -> SimpleNamespace:
    return SimpleNamespace(
        id="i1", scope="u1", title=None, text=text, meta=meta, created_at=NOW, deleted_at=None
    )


@pytest.mark.parametrize(("lang", "turn", "question", "part", "never"), CASES)
def test_a_withheld_turn_quotes_only_the_special_free_part_the_question_names(
    lang: str, turn: str, question: str, part: str | None, never: list[str]
) -> None:
    text, rejection = screen(_row(turn), question, "u1", NOW, frozenset(), {}, False)
    assert rejection is not None, lang  # the whole turn stays withheld
    assert text == part, lang
    assert text is None or not any(word in text for word in never), lang


def test_a_turn_saying_me_too_after_someone_elses_special_fact_is_withheld() -> None:
    turn = (
        "Ana: We went to the beach on Sunday. It was windy. "
        "My sister told me she is gay and I am too."
    )
    text, rejection = screen(
        _row(turn), "Where did Ana go on Sunday?", "u1", NOW, frozenset(), {}, False
    )
    assert rejection is not None and text == "Ana: We went to the beach on Sunday."


@pytest.mark.parametrize(
    "turn",
    [
        "We went to the zoo on Saturday. My PIN for the zoo card is 4821.",  # credential
        "We went to the zoo on Saturday. My salary is $84,000 a year at the zoo.",  # money
        "We went to the zoo on Saturday. Hayvanat bahçesi çok güzeldi, yarın tekrar gideceğiz.",
    ],
)
def test_a_turn_withheld_for_anything_but_a_special_category_quotes_nothing(turn: str) -> None:
    text, rejection = screen(
        _row(turn), "When did we go to the zoo?", "u1", NOW, frozenset(), {}, False
    )
    assert rejection is not None and text is None


def test_a_refused_turn_quotes_nothing() -> None:
    turn = "We went to the zoo on Saturday. I pray at the mosque every Friday."
    row = _row(turn, meta={"refused": ["secret"]})
    text, rejection = screen(row, "When did we go to the zoo?", "u1", NOW, frozenset(), {}, False)
    assert rejection is not None and text is None


def test_a_plan_quotes_the_part_traces_the_category_and_consent_lets_the_whole_in(
    auto_lore: Userlore,
) -> None:
    turn = (
        "We went to the zoo on Saturday with the kids. It was sunny. "
        "I pray at the mosque every Friday since I converted."
    )
    said = auto_lore.observe("u1", "user", turn)
    plan = auto_lore.plan_context("u1", "When did we go to the zoo?")
    assert [s.item_id for s in plan.snippets] == [said.source_item_id]
    assert "We went to the zoo on Saturday with the kids." in plan.text
    assert "mosque" not in plan.text and "sunny" not in plan.text
    payload = auto_lore.traces.list("u1", event_type="plan", limit=1)[0]["payload"]
    [selected] = payload["episodic"]["selected"]
    assert selected["withheld"] == "religion"
    assert "mosque" not in str(payload)
    auto_lore.consent.grant("u1", "religion")
    assert "mosque" in auto_lore.plan_context("u1", "When did we go to the zoo?").text
