"""Relatives the identifier does not know, read as a covered neighbour, are not covered.

``tests/data/unknown_relatives.jsonl``: turns in Ladino, Papiamento and Cape Verdean (``dev``:
looked at while writing ``policy.known_words._unread_relative``) and in Chavacano, Mirandese,
Sardinian, Aromanian, Extremaduran, Friulian, Ligurian and Neapolitan (``held_out``: written at
the same time, not looked at), with short covered turns (slang, typos, abbreviations) that must
stay covered. Main read 3 of 16 dev and 1 of 12 held-out relatives as covered, and 29 of 30
covered turns as covered. The ``second`` split (12 relatives: creoles and Ladino, 12 covered
turns) was written after the rule and scored once: 2/12 read as covered, as on main.
"""

from __future__ import annotations

from tests.support import data_sets
from userlore.policy.language import COVERED_LANGUAGES, segments

ROWS = data_sets.rows("unknown_relatives.jsonl")
# Two words or one unknown to the covered list in ten: a typo's share. Cape Verdean read as
# Portuguese ("ganha", "trinta" are Portuguese), Chavacano as Spanish ("asukar" alone); in the
# second set Jamaican ("tousan" alone) as English and Papiamento as Portuguese (every word a
# Portuguese one).
KNOWN_COVERED = {"ur-kea-15", "ur-cbk-18", "ur2-jam-09", "ur2-pap-11"}
# Texting abbreviations the identifier reads as Hungarian on main already.
KNOWN_UNCOVERED = {"ur-cov-pt-10"}


def _covered(text: str) -> bool:
    langs = [s.language for s in segments(text) if s.language is not None]
    return bool(langs) and all(lang in COVERED_LANGUAGES for lang in langs)


def test_relatives_are_not_read_as_covered() -> None:
    rows = [r for r in ROWS if r["kind"] == "relative"]
    assert {r["id"] for r in rows if _covered(r["text"])} == KNOWN_COVERED


def test_covered_short_turns_stay_covered() -> None:
    rows = [r for r in ROWS if r["kind"] == "covered"]
    assert {r["id"] for r in rows if not _covered(r["text"])} == KNOWN_UNCOVERED
