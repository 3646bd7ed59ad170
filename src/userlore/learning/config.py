"""``LearningConfig``: the facet cache's switches (seed 002 ``LearningConfig``)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

__all__ = ["LearningConfig"]


class LearningConfig(BaseModel):
    """Options of :class:`~userlore.learning.FacetCache`; camelCase aliases as in ``userContext``.

    Unknown keys raise, as everywhere in userlore's configuration.
    """

    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, extra="forbid", frozen=True
    )

    enabled: bool = True
    """Master switch: ``False`` drops candidates and makes rebuilds no-ops."""
    stability_detector_enabled: bool = True
    """Whether :meth:`FacetCache.start` runs periodic rebuilds."""
    rebuild_interval_secs: float = Field(default=1800.0, gt=0, le=7 * 86_400)
    """Period of the background rebuild (seed default: 30 minutes)."""
    event_driven: bool = True
    """Rebuild a scope right away when it gets new facet evidence or a user control runs."""
    buffer_capacity: int = Field(default=1024, ge=1, le=1_000_000)
    """Capacity of the candidate ring buffer."""
    max_observations_per_scope: int = Field(default=20_000, ge=100, le=10_000_000)
    """Upper bound on the observations one rebuild reads per scope (newest first)."""
