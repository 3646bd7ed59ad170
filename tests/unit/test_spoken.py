"""The shared normaliser: digits of every script, number words, spelled letters, NATO words."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from userlore.policy.spoken import fold_digits, spoken_spans, spoken_values, spoken_view

CASES = [
    json.loads(line)
    for line in (Path(__file__).parents[1] / "data" / "spoken_cases.jsonl").read_text().splitlines()
    if line.strip()
]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:40] for c in CASES])
def test_spoken_values(case: dict[str, object]) -> None:
    assert spoken_values(str(case["text"])) == case["values"]


def test_fold_digits_keeps_length_and_folds_every_script() -> None:
    text = "pin ١٢٣٤ / ४५६७ / １２ / ๓๔ / ᠑᠒"
    folded = fold_digits(text)
    assert len(folded) == len(text)
    assert folded == "pin 1234 / 4567 / 12 / 34 / 12"


def test_view_maps_values_back_to_the_words() -> None:
    text = "my pin is four one one seven, thanks"
    view = spoken_view(text)
    assert view.text == "my pin is 4117, thanks"
    start = view.text.index("4117")
    assert view.span(start, start + 4) == (10, 28)
    assert text[10:28] == "four one one seven"


def test_spans_do_not_overlap() -> None:
    spans = spoken_spans("p a s s and four one one seven and 幺三五七")
    assert [s.kind for s in spans] == ["letters", "number", "number"]
    assert all(a.end <= b.start for a, b in itertools.pairwise(spans))
