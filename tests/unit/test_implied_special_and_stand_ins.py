"""blind10's special and benign classes, each as a class (issue 29, blindfix10c).

The sets were written before the rules changed: ``tests/data/special_implied_classes.jsonl``
(practices told by their rules, faith groups, a record through its certificate, medicines that
imply a status, diagnoses said by a doctor, kin characters inside ja/zh words, couples told
without an orientation word; each with third-party, topic and look-alike twins) and
``tests/data/benign_docs_classes.jsonl`` (public figures in the news, doc placeholders and
environment references, all-zero forms, masks with a visible tail, long order numbers, a log's
request ids, schema columns; with sensitive twins: the real value after the same key, a
credential's UUID, a full card beside a mask); ``tests/data/implied_stand_ins_second.jsonl``
was written after the rules, all families at once. One test per set, scored as
``benchmarks/gate_classes.py`` scores it, lists every item that fails; the misses left are
named, so a fix or a regression both show (``docs/benchmarks.md``, "Issue 29: blind10's special
categories and benign texts (blindfix10c)").
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.detectors.payment import _cards
from userlore.policy.detectors.stand_ins import stand_in_spans

SPECIAL_KNOWN: frozenset[str] = frozenset(
    {
        # "抗病毒药" (antivirals) names flu drugs as often as HIV ones: left out of zh's terms.
        "sic-medication_status-zh-02",
        # Questions about a place that name a faith's hall, no person: withheld on main too (a
        # cue with no owner fails closed). The record certificates' own names are no record
        # since blindfix20c (extrait de casier judiciaire, certificado de antecedentes penales).
        "sic-faith_group-zh-b01",
        "sic-faith_group-en-b01",
        "sic-faith_group-fr-b01",
    }
)
STAND_INS_KNOWN: frozenset[str] = frozenset(
    {
        # Short technical lines the language identifier reads as another language (Catalan,
        # none) once the value is blanked: withheld as uncovered, no rule of this round's.
        "bdc-doc_placeholder-pt-b06",
        "bdc-schema-pt-b01",
        # Mexico's generic RFC for the public (XAXX010101000): one published value, no class.
        "bdc-doc_placeholder-es-b04",
    }
)


@pytest.mark.parametrize(
    ("name", "known"),
    [
        ("special_implied_classes.jsonl", SPECIAL_KNOWN),
        ("benign_docs_classes.jsonl", STAND_INS_KNOWN),
        # Written after the rules: first sight 2 of 24 wrong ("Fridays after sunset", a plural;
        # "the trace_id is <uuid>", a copula after the key), both classes fixed since.
        ("implied_stand_ins_second.jsonl", frozenset()),
    ],
)
def test_fresh_class_sets(name: str, known: frozenset[str]) -> None:
    failing = set(value_sets.failures(data_sets.rows(name)))
    assert failing == known, sorted(failing ^ known)


@pytest.mark.parametrize(
    ("text", "blanked"),
    [
        (
            'curl -H "Authorization: Bearer $GITHUB_TOKEN" x',
            ["$GITHUB_TOKEN"],
        ),
        ("set API_KEY=%API_KEY% first", ["API_KEY=%API_KEY%"]),
        ("my password is $Sunshine1", []),  # a value, not a variable's name
        ("password: $ABCDEF", []),  # one part and no credential word: may be typed
        ('{"cpf": "000.000.000-00", "nome": "Fulano"}', ['"cpf": "000.000.000-00"']),
        ("CPF: 000.000.000-01", []),  # one digit not zero: a value
        ("卡号 6222 0000 0000 0000 001", []),  # zeros inside a card: the card stands
        ("cartão **** **** **** 4417", ["**** **** **** 4417"]),
        ("IBAN DE•• •••• •••• 31", ["DE•• •••• •••• 31"]),
        (
            "request_id=7f3a9c2e-1b8d-4e05-9a7f-1c3b5d2e8a40",
            ["request_id=7f3a9c2e-1b8d-4e05-9a7f-1c3b5d2e8a40"],
        ),
        ("api_key=7f3a9c2e-1b8d-4e05-9a7f-1c3b5d2e8a40", []),  # a credential's key: caught
        ("id_card CHAR(18) NOT NULL", ["id_card CHAR(18) NOT NULL"]),
    ],
)
def test_stand_ins_need_their_shape_or_key(text: str, blanked: list[str]) -> None:
    assert [text[s:e] for s, e in stand_in_spans(text)] == blanked


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("注文番号 250-3847192-0016473 のキャンセル", None),  # a slice of a longer number
        ("number 12-4539-1488-0343-6467", "4539-1488-0343-6467"),  # grouped as a card
        ("my card 4539-1488-0343-6467", "4539-1488-0343-6467"),
    ],
)
def test_a_card_is_no_slice_of_a_longer_dashed_number(text: str, card: str | None) -> None:
    found = [text[s:e] for _, _, s, e, _ in _cards(text, [])]
    assert found == ([card] if card else [])
