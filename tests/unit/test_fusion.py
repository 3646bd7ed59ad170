"""Reciprocal rank fusion (planner/fusion.py)."""

from __future__ import annotations

from userlore.planner.fusion import RRF_K, rrf_fuse


def test_an_item_high_in_both_lists_beats_one_top_in_a_single_list() -> None:
    fused = rrf_fuse([["a", "b", "c"], ["b", "d", "a"]])
    assert [key for key, _ in fused][:2] == ["b", "a"]
    scores = dict(fused)
    assert scores["b"] == 1 / (RRF_K + 2) + 1 / (RRF_K + 1)
    assert scores["d"] == 1 / (RRF_K + 2)


def test_empty_and_single_rankings() -> None:
    assert rrf_fuse([]) == []
    assert [key for key, _ in rrf_fuse([["x", "y"]])] == ["x", "y"]
