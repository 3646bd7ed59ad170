"""Self-learning facet cache (seed 002): facets, stability scoring, ``PROFILE.md``, controls.

Start with ``lore.facets``: the facet controls, and ``lore.facets.cache`` (a :class:`FacetCache`
over the same store); see ``docs/learning.md``.
"""

from __future__ import annotations

from userlore.learning.cache import FacetCache
from userlore.learning.candidate import CandidateBuffer
from userlore.learning.config import LearningConfig
from userlore.learning.events import CacheRebuilt
from userlore.learning.facets import (
    CLASS_BUDGETS,
    CUE_WEIGHTS,
    HALF_LIFE_DAYS,
    OVERFLOW_POOL,
    CueFamily,
    EvidenceRef,
    Facet,
    FacetClass,
    FacetState,
    LearningCandidate,
)
from userlore.learning.profile_md import ProfileMdRenderer, write_connected_accounts

__all__ = [
    "CLASS_BUDGETS",
    "CUE_WEIGHTS",
    "HALF_LIFE_DAYS",
    "OVERFLOW_POOL",
    "CacheRebuilt",
    "CandidateBuffer",
    "CueFamily",
    "EvidenceRef",
    "Facet",
    "FacetCache",
    "FacetClass",
    "FacetState",
    "LearningCandidate",
    "LearningConfig",
    "ProfileMdRenderer",
    "write_connected_accounts",
]
