"""Close relatives the identifier hides, read by its full ranking (issue 29, blind11).

``tests/data/relatives_read_as_covered.jsonl`` holds short turns in close relatives of the
covered languages (``split`` ``dev``: looked at while writing the rule; ``held_out``: not) and
the covered languages' own short turns, slang, typos and code-switching included. A relative
read as a covered language is quoted by rules not written for it; a covered turn read as a
relative is withheld for nothing.
"""

from __future__ import annotations

import pytest

from tests.support import data_sets
from userlore.policy.known_words import READ_AS_COVERED
from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.near_relatives import misread_relative

ROWS = data_sets.rows("relatives_read_as_covered.jsonl")
# Relatives still read as covered: the model ranks the covered language far ahead and they
# leave fewer than three words unknown to it, or a language it does not know reads as Spanish
# word for word (Chavacano). Asturian "Güei tengo que dir al médicu" (es 0.67, ext 0.10),
# Aragonese and Leonese left with blind12's unread-relative rule (``known_words._unread_relative``).
STILL_COVERED = {
    "rel-ast-03",
    "rel-cbk-01",
    "rel2-nrf-01",
}
# Covered turns already read as another language on main (code-switched, mostly names).
NOT_VOUCHED = {"cov-mix-01", "cov-mix-05"}


def _vouched(text: str) -> bool:
    langs = [s.language for s in segments(text) if s.language is not None]
    return bool(langs) and all(lang in COVERED_LANGUAGES for lang in langs)


@pytest.mark.parametrize("kind", ["relative", "covered"])
def test_each_turn_reads_as_its_kind(kind: str) -> None:
    rows = [r for r in ROWS if r["kind"] == kind]
    vouched = {str(r["id"]) for r in rows if _vouched(str(r["text"]))}
    if kind == "relative":
        assert vouched == STILL_COVERED
    else:
        assert {str(r["id"]) for r in rows} - vouched == NOT_VOUCHED


def _count(n: int) -> object:
    return lambda _text, _language: n


@pytest.mark.parametrize(
    ("text", "language", "unknown", "expected"),
    [
        # Galician, Portuguese by the hidden identifier: one unknown word, Galician ahead.
        ("o contrasinal do router é o nome do can", "pt", 1, "gl"),
        # Every word known to the covered list: the ranking is not asked.
        ("o contrasinal do router é o nome do can", "pt", 0, None),
        # A near tie needs two unknown words.
        ("Cobro mil catrocentos euros ao mes", "pt", 2, "gl"),
        # A covered turn the full model also reads as covered stays.
        ("estoy re cansado, el laburo me tiene podrido", "es", 1, None),
        ("ontem fui ao médico e ele disse que não é nada", "pt", 3, None),
    ],
)
def test_misread_relative(text: str, language: str, unknown: int, expected: str | None) -> None:
    found = misread_relative(text, language, READ_AS_COVERED, _count(unknown))  # type: ignore[arg-type]
    assert found == expected
