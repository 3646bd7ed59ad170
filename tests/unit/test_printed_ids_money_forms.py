"""Identifiers in their printed formats or over a line break, and the user's money in everyday
forms (issue 29, blindfix10b), each as a class in the seven languages.

blind10 stored a Chilean RUT ``17.492.385-K``, a CUIL, an AHV number and a Belgian national
number in their printed formats, a SIN over a line break, an Aadhaar VID, a Personalausweis
number, and the user's money as pay parts ("87.5k base plus 12k in RSUs"), a bank export's
balance column, a screenshot's label, amount and unit on three lines, slang magnitudes
("2 palos"), a pay's arrival ("me depositaron la quincena"), income per year ("je fais 68 000 $
par année"), a rent and its fee in Japanese, and "2.5 lakh" in a language no rule reads.
``tests/data/printed_ids.jsonl`` and ``tests/data/money_forms.jsonl`` hold fresh items of each
class (``family``), written before the rules; each family is one test that lists every
failing item, checked as ``benchmarks/gate_classes.py`` scores it.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import classify
from userlore.policy.wrapped_lines import wrapped_view

CASES = data_sets.rows("printed_ids.jsonl") + data_sets.rows("money_forms.jsonl")
FAMILIES = sorted({str(c["family"]) for c in CASES})
# Written after the rules, scored once (first sight: 18/20, benign 1/8), then one class fixed:
# a label, then a value opening with a currency symbol on the next line ("£1,206.40"). Left:
# a docs example ("the RUT format is 12.345.678-5") that validates (placeholders are
# blindfix10c's class). An id word 46 characters before its number (pm2-de-001, a Belgian
# number "92.02.15-817.97") is taken since blindfix17a: an id printed exactly as issued.
SECOND = data_sets.rows("printed_ids_money_forms2.jsonl")
SECOND_KNOWN = {"pm2-en-006"}
# Rows no rule of this round decides: benign rows the quote gate alone withholds (an id word
# near a count or an order number), the CPF rule's and the placeholder rule's verdicts on a
# CPF-shaped order number and "000.000.000-00" (blindfix10c's class), a held-out benign row
# (withheld by design), and "3 palos y medio", whose "medio" the gate reads as a topic word.
# "carte d'identité : comptez 3 semaines" is quoted since blindfix23b (weeks are a count).
KNOWN: dict[str, set[str]] = {
    "printed_id": {"printed_id-en-010", "printed_id-pt-005"},
    "split_id": {
        "split_id-en-013",
        "split_id-es-005",
        "split_id-pt-004",
        "split_id-zh-004",
        "split_id-ja-004",
        "split_id-en-015",
    },
    "money_form": {"money_form-es-002", "money_form-hi-002"},
}


@pytest.mark.parametrize("family", FAMILIES)
def test_every_item_of_the_family(family: str) -> None:
    cases = [c for c in CASES if c["family"] == family]
    assert set(value_sets.failures(cases)) == KNOWN.get(family, set())


def test_every_item_of_the_second_set() -> None:
    assert set(value_sets.failures(SECOND)) == SECOND_KNOWN


@pytest.mark.parametrize(
    ("text", "joined"),
    [
        ("SIN 130 876\n543 i think", "SIN 130 876 543 i think"),  # an id's groups
        ("CURP:\nGODE561231HDFRRN09", "CURP: GODE561231HDFRRN09"),  # a label, then its value
        ("RG\n12.345.678-9\nórgão SSP", "RG 12.345.678-9\nórgão SSP"),
        ("可用余额\n12,706.33\n元", "可用余额 12,706.33 元"),  # label, amount, unit
        ("Current balance\n£1,206.40", "Current balance £1,206.40"),
        ("I paid it.\n130 is left", "I paid it.\n130 is left"),  # a sentence ends the line
        ("we met at the park and talked\nabout it", "we met at the park and talked\nabout it"),
        ("Date,Amount\n2026-11-28,-23.18", "Date,Amount\n2026-11-28,-23.18"),
    ],
)
def test_wrapped_view_joins_only_a_value_over_lines(text: str, joined: str) -> None:
    assert wrapped_view(text) == joined


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Mi RUT es 17.492.385-K", "17.492.385-K"),  # a check letter after a dash
        ("el cuit es 20-81533017-0", "20-81533017-0"),  # a person's id word in lower case
        ("AHV-Nr.: 756.0033.4659.84", "756.0033.4659.84"),  # an abbreviation's dot
        ("mon numéro national : 85.07.30-477.69", "85.07.30-477.69"),  # an everyday name
    ],
)
def test_printed_id_is_redacted_whole(text: str, value: str) -> None:
    spans = [(f.start, f.end) for f in classify(text).findings if f.level.value == "regulated"]
    start = text.index(value)
    assert any(s <= start and start + len(value) <= e for s, e in spans), spans
