"""blind19's own money that the gate still quoted, as a class (issue 29, blindfix19d).

``quoted_money_nouns``: the user's money named by a pay slip, a fund, a card bill, money laid
out for others, a bride price or pay before tax ("mi nómina neta son 2.140 €", "tenho 41 mil
no FGTS", "a fatura … R$ 3.987,50 e só consigo pagar o mínimo", "友達に立て替えた … 48,600円",
"税前大概 11万2"), none of them a money cue of the gate nor a pay word of the floor; and a
benefit restated just after its name ("… 210 d'APL... non pardon, l'APL c'est 198"). Twins: the
same nouns as a topic, a public rate, someone else's bill. First runs and final rates:
``docs/benchmarks.md``, "Issue 29: blind19's quoted own money (blindfix19d)".
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix19d_money_nouns.jsonl", "blindfix19d_money_nouns2.jsonl")

KNOWN: dict[str, str] = {
    "bf19d-nouns-pt-money-004": "'9 mil parados no PIS': 'pis' is French 'udder'/'worse' too",
    "bf19d-nouns-pt-money-005": "'paguei R$ …': the first person said by the verb's ending",
    "bf19d-nouns2-zh-money-002": "'帮同事垫付了 … 提醒他还': '他' reads as someone else's money",
    "bf19d-nouns2-pt-benign-001": "'o limite do FGTS … 500 reais por ano': as on main",
}

test_every_item, test_known_misses = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("a fatura do Nubank tá em R$ 3.987,50 e só consigo pagar o mínimo", True),
        ("a fatura dela veio R$ 900, ela só paga o mínimo", False),  # her bill
        ("mi nómina neta son 2.140 € en 14 pagas", True),  # "son": Spanish "are"
        ("la nómina media en Madrid ronda los 2.100 €, según el INE", False),  # an average
        ("je touche 210 d'APL... non pardon, l'APL c'est 198", True),  # restated
        ("ich bekomme Bürgergeld. Der Bürgergeld-Regelsatz für Kinder ist 357.", False),  # a rate
    ],
)
def test_twins_differ_by_whose(text: str, own: bool) -> None:
    assert (redact(text) != text) is own
    assert quote_verdict(text).quotable is not own
