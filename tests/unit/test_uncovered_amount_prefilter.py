"""The cheap test before an uncovered segment's amounts in words are read (issue 29).

:func:`uncovered_shapes._may_say_amount` only decides whether the language identifier runs: on
ASCII text it asks for a word that is exactly some language's magnitude, not a word ending in a
compound stem ("been" ends in Dutch "een"), which sent a fifth of English chat turns to the
identifier. These tests check that it skips no amount the full read would find.
"""

from __future__ import annotations

import pytest

from tests.support.data_sets import DATA, rows
from userlore.policy.detectors import uncovered_shapes


def test_every_ascii_magnitude_passes() -> None:
    # Only what a text's word can be (a spell-out's "mbili," never equals one).
    every = uncovered_shapes._every_magnitude()
    words = sorted(w for w in every if w.isascii() and uncovered_shapes._WORD.fullmatch(w))
    assert len(words) > 200
    missed = [w for w in words if not uncovered_shapes._may_say_amount(f"we still owe 45 {w}")]
    assert missed == []


@pytest.mark.parametrize(
    "text",
    ["I have been there myself, often.", "Gina said the screen was green.", "Smile, Mel!"],
)
def test_english_chat_is_not_sent_to_the_identifier(text: str) -> None:
    assert not uncovered_shapes._may_say_amount(text)


def _ascii_texts() -> list[str]:
    names = sorted(
        p.name
        for pattern in ("blind*.jsonl", "gate_heldout.jsonl", "dialects6*.jsonl")
        for p in DATA.glob(pattern)
    )
    return [str(r["text"]) for name in names for r in rows(name) if str(r["text"]).isascii()]


def test_the_prefilter_changes_no_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = _ascii_texts()
    assert len(texts) > 100
    filtered = [list(uncovered_shapes.uncovered_shapes(t)) for t in texts]
    monkeypatch.setattr(uncovered_shapes, "_may_say_amount", lambda _t: True)
    assert [list(uncovered_shapes.uncovered_shapes(t)) for t in texts] == filtered
