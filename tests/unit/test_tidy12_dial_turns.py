"""A dial's turns in the seven languages, clockwise too, and their benign twins (issue 29, tidy12).

``dial_combos.turned_words`` (the prefilter of a text whose dial numbers are words) kept its own
copy of ``lock_cues.yaml``'s turn words and missed "clockwise"; the data named no clockwise turn
outside English. ``tests/data/tidy12_dial_turns.jsonl`` was written before the fix: a safe's,
a locker's or a padlock's combination told as turns (left/right, clockwise and counter-clockwise,
"turn to", with digits and with number words), and twins with no combination (a clock, a knob,
directions, a thermostat, "the safe is on the right"). First run on main: 15 of 25 caught, 16
of 16 twins kept; every row now.
"""

from __future__ import annotations

from tests.support import data_sets, value_sets


def test_every_turn_is_caught_and_every_twin_kept() -> None:
    assert value_sets.failures(data_sets.rows("tidy12_dial_turns.jsonl")) == []
