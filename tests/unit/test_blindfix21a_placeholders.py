"""A mask, a phrase naming its field and a vendor's documented default are no value (issue 29,
blindfix21a).

blind21 withheld "what's the default admin password on a fresh Grafana install? the docs say
admin/admin but I'm not sure for v10", "番号は伏せ字の〇〇〇〇でいいよ" and redacted 'pon aquí la
clave' as a password. The classes: a login pair or a weak PIN a default word calls the manual's
(``data/benign_shapes.yaml`` ``default_words``; not beside a chosen pair, "replaced admin/admin
with admin/Quokka_71"), a lone major version ("v10") for the gate, a quoted phrase repeating
the field's word said before it (``placeholder_values.slot_phrase_spans``), and the ideographic
zero as a mask (``stand_ins``, not "二〇〇〇年"). ``blindfix21a_placeholders.jsonl`` was
written before the rules (main: 12/25 benign withheld or flagged, 8/8 secrets caught);
``…placeholders2.jsonl`` is the second set (first sight on this branch: 2/17 benign, 2/3
secrets; both fixed but one).
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix21a_placeholders.jsonl", "blindfix21a_placeholders2.jsonl")
KNOWN = {
    "vendor_default2-pt-benign-001": "'MikroTik' changes case inside a word: a value's shape",
}

test_every_stand_in_is_kept, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    "text",
    [
        "what's the default admin password on a fresh Grafana install? the docs say admin/admin"
        " but I'm not sure for v10",
        "金庫の暗証番号を当てる推理小説を書いて、番号は伏せ字の〇〇〇〇でいいよ",
        "escribe un cuento donde la clave de la caja fuerte es 'pon aquí la clave' y el ladrón"
        " se confunde",
    ],
)
def test_blind21_stand_ins_are_quoted(text: str) -> None:
    assert quote_verdict(text).quotable
    assert redact(text) == text


@pytest.mark.parametrize(
    ("text", "changed"),
    [
        ("is the default login for a new TP-Link router still admin/admin?", False),
        ("I replaced the default admin/admin on the NAS with admin/Quokka_71", True),
        ("the default Grafana password is admin", False),
        ("my Grafana admin password is admin123", True),
        ("la clave es 'pon aquí la clave'", False),  # the field named again
        ("la clave es 'pon aquí 4471'", True),
        ("我生于二〇〇〇年", False),
        ("小说里密码写成〇〇〇〇", False),
    ],
)
def test_twins_differ_by_whose_value(text: str, changed: bool) -> None:
    assert (redact(text) != text) is changed
