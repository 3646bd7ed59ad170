"""The one write path: how a turn, a proposal or a correction becomes records.

Every producer ends in :func:`govern`: the facade's ``observe`` and ``write``, the understanding
graph's govern node, the connected-source pipeline, feedback corrections and the LLM reviewer.
A conversation turn goes through :func:`observe_turn` (or :func:`record_turn` inside a caller's
transaction): the redacted turn becomes a conversation evidence item, each explicit statement a
governed candidate, and each governed facet statement Explicit evidence for the facet cache
(seed 002 producer (a)). The review trace is written by :func:`trace_review` alone.

The package, by step: :mod:`.write` (the governed write of one candidate or many),
:mod:`.batch` (keyed candidates in bulk), :mod:`.turns` (a turn's item and statements),
:mod:`.reversals` (what a turn takes back), :mod:`.attribution` (who wrote it) and
:mod:`.review` (the review trace).
"""

from __future__ import annotations

from userlore.understanding.attribution import TurnAuthor
from userlore.understanding.batch import BatchItem, BatchOutcome, govern_upsert_batch
from userlore.understanding.review import review_counts, trace_review
from userlore.understanding.turns import (
    MAX_TURN_CHARS,
    ROLES,
    TurnRecord,
    observe_turn,
    read_turn,
    record_turn,
    refusal_reasons,
    statement_candidate,
    turn_item,
    turn_statements,
)
from userlore.understanding.write import govern, govern_batch

__all__ = [
    "MAX_TURN_CHARS",
    "ROLES",
    "BatchItem",
    "BatchOutcome",
    "TurnAuthor",
    "TurnRecord",
    "govern",
    "govern_batch",
    "govern_upsert_batch",
    "observe_turn",
    "read_turn",
    "record_turn",
    "refusal_reasons",
    "review_counts",
    "statement_candidate",
    "trace_review",
    "turn_item",
    "turn_statements",
]
