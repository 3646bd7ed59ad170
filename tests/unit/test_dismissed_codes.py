"""A code told, and another of its shape dismissed in a neighbouring sentence (issue 29).

"Garage keypad is 3917 now. From now on never remind me of 6402.": the old code is a value too.
The class set (``tests/data/dismissed_codes.jsonl``: en/zh/es/de/fr/ja/pt) was written before
the rule: 30 turns (ids ``-sNN``) whose second code sits in the next sentence, 16 twins
(``-tNN``: the turn's code and a number that is not one, listed in ``kept``), 8 benign turns;
first run on main 6/30 caught, twins 14/16, benign 8/8. A second set (``-aNN``, ``-uNN``) was
written after it: 4/12 caught on main, 12/12 with the rule, its six twins kept after the
reference words grew by class (units, offices, desks). ``fr-t11`` and ``pt-t14`` (an order
number after "commande"/"pedido" beside a dismissing word) are redacted by the rules before
this one, on main too.
"""

from __future__ import annotations

from tests.support import data_sets, value_sets
from userlore.policy.sensitivity import redact

SET = "dismissed_codes.jsonl"
KNOWN = {"dismissed_codes-fr-t11", "dismissed_codes-pt-t14"}


def test_every_row_of_the_class_set() -> None:
    rows = data_sets.rows(SET)
    failed = set(value_sets.failures(rows))
    for row in rows:
        red = redact(str(row["text"]))
        if not all(str(kept) in red for kept in row.get("kept", [])):
            failed.add(str(row["id"]))
    assert failed == KNOWN


def test_the_probe_turn_stores_no_code() -> None:
    """The turn the context-claim round left (its cue a sentence away from the old code)."""
    red = redact("Garage keypad is 3917 now. From now on never remind me of 6402")
    assert "3917" not in red and "6402" not in red
