"""A store key never reaches the language identifier (issue 30, bulkput3).

A key such as ``store:notes#k17`` is one short Latin run with no neighbour to join, so the
identifier's answer could not change its pieces, and an ASCII text of fewer than two plain
words has no segment the uncovered floor would read. Asking py3langid anyway cost ~0.5 ms of
CPU a put. A sentence still gets its short runs judged and its uncovered values found.
"""

from __future__ import annotations

import pytest

from userlore.policy import language
from userlore.policy.detectors import uncovered
from userlore.policy.sensitivity import classify


def test_a_lone_short_run_is_not_identified(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(chunk: str) -> bool:
        raise AssertionError(f"identified a run with no neighbour: {chunk!r}")

    monkeypatch.setattr(language, "_sure_uncovered", refuse)
    assert language.pieces("store:notes#k17") == [(0, 15, "Latn")]


def test_a_key_is_not_cut_into_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str) -> list[tuple[int, int, str]]:
        raise AssertionError(f"cut a key into pieces: {text!r}")

    monkeypatch.setattr(uncovered, "pieces", refuse)
    for key in ("store:notes#k17", "store:a/b#ns 42", "slack:C024BE91L:1700000000.000100"):
        assert list(uncovered.uncovered_values(key)) == []
        assert classify(key, special=False).findings == ()


def test_short_runs_with_neighbours_are_still_judged() -> None:
    # A short Turkish sentence beside a Portuguese one stays apart (the identifier is sure of
    # it), and its value is still found.
    text = "Vou ao médico amanhã. Kemoterapi görüyorum 48219377."
    assert len(language.pieces(text)) == 2
    hits = list(uncovered.uncovered_values("Minu panga PIN-kood on 48219377, pea meeles."))
    assert [h[1] for h in hits] == ["value_uncovered_language"]
