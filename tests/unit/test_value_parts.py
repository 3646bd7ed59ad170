"""Values in parts and in every place of a sentence, and texts quoted as they are (issue 29).

blind11 stored the second amount of a sentence about the user's money ("… y pago seiscientos
de alquiler", "otros 80 mil pesos", "8千5"), an id's check part given apart ("… clé 43"), a CBU,
a Moroccan CIN, a CVV read off the card digit by digit, a hex token after "token do PagSeguro de
produção", and withheld or redacted a docs' placeholder, masked cards and IBANs, questions about
how a check letter is computed and rents per square metre. The class sets
(``tests/data/every_amount.jsonl``, ``check_parts.jsonl``, ``card_codes.jsonl``,
``quoted_as_is.jsonl``) were written before the rules; each is one test that lists every
failing row, so a fix or a regression both show (``docs/benchmarks.md``, "blindfix11a").
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.check_arithmetic import blank_operands
from userlore.policy.sensitivity import classify, redact
from userlore.policy.spoken import word_amount

# Rows no rule of this round decides, all benign and all the quote gate's alone: a listing's
# rent with no price word ("… is about £850 a month"), a commit hash and a request id beside a
# vendor's name (a question about a CVV's length with "la Amex 4" passes since blindfix17a read
# digit counts as talk about a credential).
KNOWN: dict[str, set[str]] = {
    # "un piso en Madrid cuesta unos mil ochocientos euros al mes": a thing's price since
    # blind15 (``priced_things``: "al mes" no longer reads as French "mes").
    # "o pedido 48213 ainda não chegou, paguei o frete à parte": withheld since blindfix19d made
    # "paguei" a money word for the gate (it keeps "paguei R$ 1.150 de condomínio" out of a
    # plan); the order number reads as the amount paid. One snippet, recall first.
    "every_amount.jsonl": {"every_amount-en-b08", "every_amount-pt-b06"},
    "check_parts.jsonl": set(),
    "card_codes.jsonl": {
        "card_code-en-b09",
        "card_code-pt-b05",
    },
    "quoted_as_is.jsonl": set(),
    # Written after the rules, scored once (first sight 15/16): a middle-dot mask the folded
    # view reads as four full stops ("carte ···· 3381"), a class, fixed since.
    "value_parts2.jsonl": set(),
}


@pytest.mark.parametrize("name", sorted(KNOWN))
def test_every_row_of_the_class_set(name: str) -> None:
    assert set(value_sets.failures(data_sets.rows(name))) == KNOWN[name]


@pytest.mark.parametrize(
    ("text", "left"),
    [
        # A check part counts only after an id a rule took, or one it completes.
        ("Mon numéro de sécu : 1 85 07 75 113 042 clé 43", ["Mon numéro de sécu", "clé"]),
        ("room 204, key 3 is at the desk", ["204", "key 3"]),  # no id: the key stays
        ("mi DNI es 48291037 y la letra es la F", ["mi DNI es", "y la letra es la"]),
        ("mi DNI es 48291037 y la letra a mano", ["letra a mano"]),  # "a" is no check letter
        # An unlisted country's id word takes a letter-and-digit value; an order number not.
        ("Ma CIN marocaine c'est BK482913", ["Ma CIN marocaine c'est"]),
        ("CIN: commande BK482913 reçue", ["commande BK482913"]),
    ],
)
def test_check_parts_need_their_id(text: str, left: list[str]) -> None:
    red = redact(text)
    assert all(part in red for part in left), red


@pytest.mark.parametrize(
    ("text", "blanked"),
    [
        ("¿Cómo se calcula la letra del DNI? Es el resto de dividir entre 23", ["23"]),
        ("comment on calcule la clé ? 97 moins le reste", ["97"]),
        ("身份证最后一位是怎么算的？模11吗？", ["11"]),
        ("mi DNI es 48291037, dividir entre 23 no sé", []),  # no question of how: unchanged
        ("how is it computed? my PIN is 4821", []),  # a value after no operator stays
    ],
)
def test_operands_are_blanked_only_in_a_question_of_how(text: str, blanked: list[str]) -> None:
    out = blank_operands(text)
    assert len(out) == len(text)
    gone = [w for w in text.split() if w.strip("?？") and w not in out.split()]
    assert all(any(b in w for w in gone) for b in blanked)
    if not blanked:
        assert out == text


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("seiscientos", 600),
        ("oitocentos", 800),
        ("neunhundert", 900),
        ("siete", None),
        ("mesa", None),
    ],
)
def test_word_amount_reads_one_hundreds_word(word: str, value: int | None) -> None:
    assert word_amount(word) == value


@pytest.mark.parametrize(
    ("text", "blocked"),
    [
        ("token do PagSeguro de produção: 9F2C7A41E08B4D6F93A5C1E7B20D8F46", True),
        ("our token was revoked in the commit 9f2c7a41e08b4d6f93a5c1e7b20d8f46", False),
        ("CVV: 4 1 7", True),
        ("the meeting is at 12:30, CVV questions after", False),
    ],
)
def test_token_phrases_and_card_codes(text: str, blocked: bool) -> None:
    assert classify(text).is_blocked is blocked
