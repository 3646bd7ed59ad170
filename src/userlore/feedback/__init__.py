"""The quality loop: response feedback attribution, explicit corrections, remediation, quality
metrics and the adaptive review cadence (seed 000).

This package never imports the graph or the facade, so both can build on it.
"""

from __future__ import annotations

from userlore.feedback.attribution import Rating
from userlore.feedback.cadence import IntervalDecision, decide_interval
from userlore.feedback.corrections import Correction, detect_correction
from userlore.feedback.metrics import Acceptance, Helpfulness
from userlore.feedback.quality import Funnel, QualityReport, quality_report
from userlore.feedback.remediation import PausedRecord, RemediationPolicy, RemediationResult
from userlore.feedback.service import (
    CorrectionResult,
    FeedbackResult,
    FeedbackService,
    ResponseFeedback,
)

__all__ = [
    "Acceptance",
    "Correction",
    "CorrectionResult",
    "FeedbackResult",
    "FeedbackService",
    "Funnel",
    "Helpfulness",
    "IntervalDecision",
    "PausedRecord",
    "QualityReport",
    "Rating",
    "RemediationPolicy",
    "RemediationResult",
    "ResponseFeedback",
    "decide_interval",
    "detect_correction",
    "quality_report",
]
