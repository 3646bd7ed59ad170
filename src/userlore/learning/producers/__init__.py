"""Producers of :class:`~userlore.learning.LearningCandidate` values (seed 002 "Producers").

(a) :mod:`.explicit` — explicit statements the core extractor finds (Explicit cue), recorded
    inside the governed write of :meth:`Userlore.observe <userlore.Userlore.observe>`;
(b) :mod:`.signature` — identity from email signatures (Structural cue);
(c) :mod:`.heuristics` — style and veto from per-turn rolling state (Behavioral cue);
(d) :mod:`.reviewer` — the LLM reviewer's facet output (Behavioral cue, evidence required).

Submodules load on first use: the reviewer producer pulls in ``langchain_core``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "CorrectionRepeatDetector",
    "EditWindowDetector",
    "LengthRatioDetector",
    "ReviewerFacetProducer",
    "TurnHeuristics",
    "consume_mbox_signatures",
    "observe_statements",
    "parse_signature",
    "signature_candidates",
]

_HOME = {
    "observe_statements": "explicit",
    "CorrectionRepeatDetector": "heuristics",
    "EditWindowDetector": "heuristics",
    "LengthRatioDetector": "heuristics",
    "TurnHeuristics": "heuristics",
    "ReviewerFacetProducer": "reviewer",
    "consume_mbox_signatures": "signature",
    "parse_signature": "signature",
    "signature_candidates": "signature",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
