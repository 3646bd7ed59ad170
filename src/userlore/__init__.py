"""userlore: governed user understanding for LangChain and LangGraph agents."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from userlore.config import MemoryMode, UserContextConfig
from userlore.errors import (
    ConfigError,
    EmbeddingError,
    EmbeddingMismatchError,
    ImportRejectedError,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    PolicyViolationError,
    RecordNotFoundError,
    ReviewerOutputError,
    ScopeError,
    SourceSyncError,
    StorageError,
    TraceNotFoundError,
    UserloreError,
)
from userlore.facade import Userlore
from userlore.models import (
    CandidateInput,
    ConsentCategory,
    ContextPlan,
    Disclosure,
    Explicitness,
    MemoryType,
    ObserveResult,
    Pipeline,
    Producer,
    RecordKind,
    RecordState,
    RecordView,
    Rejection,
    SelectedRecord,
    Sensitivity,
    UserState,
    WriteAction,
    WriteOutcome,
)

try:
    __version__ = version("userlore")
except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
    __version__ = "0.0.0"

__all__ = [
    "CandidateInput",
    "ConfigError",
    "ConsentCategory",
    "ContextPlan",
    "Disclosure",
    "EmbeddingError",
    "EmbeddingMismatchError",
    "Explicitness",
    "ImportRejectedError",
    "InvalidInputError",
    "InvalidTransitionError",
    "MemoryDisabledError",
    "MemoryMode",
    "MemoryType",
    "ObserveResult",
    "Pipeline",
    "PolicyViolationError",
    "Producer",
    "RecordKind",
    "RecordNotFoundError",
    "RecordState",
    "RecordView",
    "Rejection",
    "ReviewerOutputError",
    "ScopeError",
    "SelectedRecord",
    "Sensitivity",
    "SourceSyncError",
    "StorageError",
    "TraceNotFoundError",
    "UserContextConfig",
    "UserState",
    "Userlore",
    "UserloreError",
    "WriteAction",
    "WriteOutcome",
    "__version__",
]
