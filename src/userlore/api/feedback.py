"""``lore.feedback``: response ratings, explicit corrections, remediation and quality."""

from __future__ import annotations

from userlore.api.twins import twin
from userlore.feedback import FeedbackService


class Feedback(FeedbackService):
    """:class:`~userlore.feedback.FeedbackService` with an async twin for each operation."""

    aget_response_feedback = twin(FeedbackService.get_response_feedback)
    aset_response_feedback = twin(FeedbackService.set_response_feedback)
    aset_trace_feedback = twin(FeedbackService.set_trace_feedback)
    ahandle_correction = twin(FeedbackService.handle_correction)
    aquality = twin(FeedbackService.quality)
    areview_interval = twin(FeedbackService.review_interval)
