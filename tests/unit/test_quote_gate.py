"""Class tests of the quote gate (``policy/quote_gate.py``) and its language segments.

Each class is a handful of fresh examples across the covered languages with benign near-misses
beside them: the gate must withhold every member and quote every near-miss.
"""

from __future__ import annotations

import pytest

from userlore.policy.filter import RejectionReason
from userlore.policy.language import COVERED_LANGUAGES, segments, uncovered_segments
from userlore.policy.quote_gate import QuoteVerdict, quote_verdict

R = RejectionReason
FLOOR = {R.SECRET, R.REGULATED, R.CONSENT_REQUIRED}


def withheld(text: str, **kw: object) -> QuoteVerdict:
    verdict = quote_verdict(text, **kw)  # type: ignore[arg-type]
    assert not verdict.quotable, f"quoted: {text!r}"
    return verdict


def quoted(text: str, **kw: object) -> None:
    verdict = quote_verdict(text, **kw)  # type: ignore[arg-type]
    assert verdict.quotable, f"withheld {verdict}: {text!r}"


# Values and money, one table (review mend D1): the reason the gate gives, or ``None`` for a
# near-miss it must quote. The floor's own reasons also count as withholding.
VALUES = [
    # a credential cue near a value
    ("the alarm code is seven four one nine", R.QUOTE_CREDENTIAL),
    ("wifi key: kX9#mP2v", R.QUOTE_CREDENTIAL),
    ("My recovery code? 8841-2210", R.QUOTE_CREDENTIAL),
    ("code: alpha bravo charlie delta", R.QUOTE_CREDENTIAL),
    ("The password is spelled t-i-g-e-r-7", R.QUOTE_CREDENTIAL),
    ("mi clave del portal: Gato_Azul22", R.QUOTE_CREDENTIAL),
    ("der Code für die Tür lautet 4471", R.QUOTE_CREDENTIAL),
    ("mon code de carte c'est 1234", R.QUOTE_CREDENTIAL),
    ("minha senha é Fla2024!", R.QUOTE_CREDENTIAL),
    ("我的支付密码是八八六六零二", R.QUOTE_CREDENTIAL),
    ("パスワードは Sakura#88 です", R.QUOTE_CREDENTIAL),
    ("PIN ٤٨٢١ for the card", R.QUOTE_CREDENTIAL),
    ("Locker combo? 31-07-22, don't share it", R.QUOTE_CREDENTIAL),
    # credential words without a value
    ("I forgot my password again, so annoying.", None),
    ("The PIN has 6 digits now.", None),
    ("The verification code expires after 10 minutes.", None),
    ("Can you remind me to change my password tomorrow?", None),
    ("Meine PIN hat vier Ziffern.", None),
    ("我忘记密码了", None),
    ("Le code postal est sur l'enveloppe", None),
    ("Mein Handy-PIN ist [REDACTED:pin_code]", None),
    ("I reset the e-mail password on Monday", None),
    # the user's own money
    ("I earn 4,200 a month after tax.", R.QUOTE_MONEY),
    ("Paid off the loan, still owe 12.500 € on the mortgage.", R.QUOTE_MONEY),
    ("Mi sueldo son 1.850 euros.", R.QUOTE_MONEY),
    ("Mein Gehalt liegt bei 3.400 € netto.", R.QUOTE_MONEY),
    ("J'ai 12 000 € d'épargne.", R.QUOTE_MONEY),
    ("Meu salário é R$ 4.500,00.", R.QUOTE_MONEY),
    ("月薪两万五", R.QUOTE_MONEY),
    ("貯金は 120 万円です", R.QUOTE_MONEY),
    # prices, counts and someone else's money
    ("The concert tickets cost 40 € each.", None),
    ("The average salary in Spain is a common interview question.", None),
    ("My brother earns 90k, lucky him.", None),
    ("Book a table for 4 at 7pm.", None),
]


@pytest.mark.parametrize(("text", "reason"), VALUES)
def test_values_and_own_money_are_withheld_near_misses_quoted(
    text: str, reason: RejectionReason | None
) -> None:
    if reason is None:
        quoted(text)
    else:
        assert withheld(text).reason in {reason, *FLOOR}


SPECIAL = [
    ("on insulin since May", "health"),
    ("The doctor told me I have celiac disease.", "health"),
    ("Since my conviction I can't travel abroad.", "criminal_record"),
    ("We fast during Ramadan, so no lunch meetings.", "religion"),
    ("Tenho diabetes desde criança.", "health"),
    ("Soy musulmán, nada de cerdo.", "religion"),
    ("Ich bin Gewerkschaftsmitglied bei ver.di und in der Gewerkschaft aktiv.", "trade_union"),
    ("Je suis sous antidépresseurs depuis mars.", "health"),
    ("医生说我有抑郁症", "health"),
    ("うつ病で通院しています", "health"),
]
SPECIAL_NEAR_MISSES = [
    "My dog has diabetes, the vet says.",
    "I'm reading an article about diabetes research.",
    "My mom has asthma.",
    "我妈妈有糖尿病",
    "Mi madre tiene diabetes.",
    "Let's meet at the café near the station.",
]


@pytest.mark.parametrize(("text", "category"), SPECIAL)
def test_special_category_in_any_form_is_withheld(text: str, category: str) -> None:
    verdict = withheld(text)
    assert verdict.reason in {R.QUOTE_SPECIAL, R.CONSENT_REQUIRED}
    assert verdict.category == category


@pytest.mark.parametrize("text", SPECIAL_NEAR_MISSES)
def test_someone_else_or_a_topic_is_quoted(text: str) -> None:
    quoted(text)


@pytest.mark.parametrize(("text", "category"), SPECIAL)
def test_consent_for_the_category_lets_it_in(text: str, category: str) -> None:
    quoted(text, consented=frozenset({category}))


def test_consent_for_another_category_does_not() -> None:
    withheld("on insulin since May", consented=frozenset({"religion"}))


UNCOVERED = [
    ("У меня сегодня выходной.", {"ru", "uk", "be", "bg"}),
    ("غدا عندي اجتماع مع الفريق", {"ar", "ary", "arz", "fa", "ur"}),
    ("कल मेरी छुट्टी है", {"hi", "mr", "ne", "sa"}),
    ("Yarın izinliyim, pazartesi görüşürüz.", {"tr", "az"}),
    ("내일은 쉬는 날이에요", {"ko"}),
]


@pytest.mark.parametrize(("text", "languages"), UNCOVERED)
def test_uncovered_language_is_withheld_with_its_own_reason(text: str, languages: set[str]) -> None:
    verdict = withheld(text)
    assert verdict.reason is R.QUOTE_LANGUAGE
    assert verdict.category in languages


@pytest.mark.parametrize(("text", "languages"), UNCOVERED)
def test_the_app_may_opt_in_to_quoting_uncovered_languages(text: str, languages: set[str]) -> None:
    quoted(text, quote_uncovered=True)


def test_opt_in_never_lets_a_value_through() -> None:
    withheld("Мой пароль: Tigr-2024x", quote_uncovered=True)


def test_a_code_switched_turn_is_judged_per_segment() -> None:
    text = "The build is green. 그리고 저는 우울증 약을 먹어요."
    parts = segments(text)
    assert [p.language for p in parts] == ["en", "ko"]
    assert withheld(text).reason is R.QUOTE_LANGUAGE
    quoted("The build is green. Let's ship it.")


@pytest.mark.parametrize(
    "text",
    [
        "Please keep answers short.",
        "Prefiero respuestas cortas.",
        "Bitte antworte kurz.",
        "Réponds en français, stp.",
        "Prefiro respostas curtas.",
        "请用中文回答",
        "日本語でお願いします",
        "Deploy at 14:30, ticket #4471.",
    ],
)
def test_plain_turns_in_covered_languages_are_quoted(text: str) -> None:
    quoted(text)
    assert not uncovered_segments(text)


def test_a_text_without_letters_has_no_language() -> None:
    assert [s.language for s in segments("12:30 — 14:45")] == [None]


def test_verdicts_name_categories_never_text() -> None:
    withheld_values = [t for t, reason in VALUES if reason is not None]
    for text in [*withheld_values, *(t for t, _ in SPECIAL), *(t for t, _ in UNCOVERED)]:
        verdict = quote_verdict(text)
        assert verdict.category is not None
        assert verdict.category not in text or verdict.category in COVERED_LANGUAGES | {
            "credential",
            "health",
        }
        assert len(verdict.category) <= 20
