"""Producer (d): the LLM reviewer's facet output (Behavioral cue; optional, any chat model).

The reviewer (:class:`userlore.extract.reviewer.LLMReviewer`) already asks any ``BaseChatModel``
for structured output, validates it, and drops every proposal whose ``evidence`` is not a verbatim
quote of a user message. This producer reuses that plumbing unchanged and routes the proposals
of a facet class (with a ``class/key`` canonical key and a value) into the candidate buffer
instead of writing them: a model's reading of a conversation is summary mining, so it counts as
Behavioral evidence and must accumulate (or meet an explicit statement) before it is Active.
Proposals of other kinds, and any the model labelled sensitive, are returned untouched for the
caller to govern as usual (``govern`` honours the label and gates or refuses them).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from userlore.errors import InvalidInputError
from userlore.extract.reviewer import LLMReviewer, ReviewReport
from userlore.learning.facets import (
    CueFamily,
    EvidenceRef,
    FacetClass,
    LearningCandidate,
    check_value,
    split_key,
)
from userlore.models import CandidateInput
from userlore.store.governed import validate_scope

__all__ = ["ReviewerFacetProducer", "ReviewerFacets"]

log = logging.getLogger("userlore.learning.extract.summary_facets")

_FACET_KINDS = frozenset(c.value for c in FacetClass)


@dataclass(frozen=True, slots=True)
class ReviewerFacets:
    """One reviewer pass split into facet candidates and everything else."""

    report: ReviewReport
    facets: tuple[LearningCandidate, ...]
    others: tuple[CandidateInput, ...]
    rejected: int


class ReviewerFacetProducer:
    """Turns a reviewer pass into facet candidates, each citing the user message it quotes.

    Args:
        reviewer: An :class:`LLMReviewer` over any ``BaseChatModel``.
    """

    def __init__(self, reviewer: LLMReviewer) -> None:
        self.reviewer = reviewer

    def candidates(
        self, scope: str, report: ReviewReport, *, observed_at: datetime | None = None
    ) -> ReviewerFacets:
        """Split a finished :class:`ReviewReport` (no model call)."""
        validate_scope(scope)
        facets: list[LearningCandidate] = []
        others: list[CandidateInput] = []
        rejected = 0
        for cand in report.candidates:
            if cand.kind not in _FACET_KINDS or cand.sensitivity_claim:
                # Sensitive-labelled proposals are governed as records, so the claim (which only
                # ever makes the outcome stricter) is kept: special categories stay gated.
                others.append(cand)
                continue
            if not cand.canonical_key or not cand.value or not cand.evidence_text:
                rejected += 1  # a facet needs a key, a value and the quote it rests on
                continue
            try:
                cls, key = split_key(cand.kind, cand.canonical_key)
                value = check_value(cand.value)
            except InvalidInputError:
                rejected += 1
                continue
            facets.append(
                LearningCandidate(
                    scope=scope,
                    facet_class=cls,
                    key=key,
                    value=value,
                    cue_family=CueFamily.BEHAVIORAL,
                    evidence=EvidenceRef("review", text=cand.evidence_text),
                    initial_confidence=cand.confidence,
                    observed_at=observed_at,
                    content=cand.content,
                )
            )
        if rejected:
            log.info("[learning::extract::summary_facets] rejected %d facet proposal(s)", rejected)
        return ReviewerFacets(report, tuple(facets), tuple(others), rejected)

    def propose(
        self, scope: str, messages: Sequence[Any], *, observed_at: datetime | None = None
    ) -> ReviewerFacets:
        """Run one reviewer pass over ``messages`` and split its output."""
        return self.candidates(scope, self.reviewer.propose(messages), observed_at=observed_at)
