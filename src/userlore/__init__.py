"""userlore: governed user understanding for LangChain and LangGraph agents.

The public names load on first use (PEP 562): importing ``userlore``, or any of its modules
(the CLI, a worker, ``userlore.errors``), no longer imports the whole facade, the store and the
floor (~2.4 s of CPU a process). ``from userlore import Userlore`` loads what it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from userlore._lazy import load_export

if TYPE_CHECKING:
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

    __version__: str

_EXPORTS: Final = {
    "CandidateInput": "userlore.models",
    "ConfigError": "userlore.errors",
    "ConsentCategory": "userlore.models",
    "ContextPlan": "userlore.models",
    "Disclosure": "userlore.models",
    "EmbeddingError": "userlore.errors",
    "EmbeddingMismatchError": "userlore.errors",
    "Explicitness": "userlore.models",
    "ImportRejectedError": "userlore.errors",
    "InvalidInputError": "userlore.errors",
    "InvalidTransitionError": "userlore.errors",
    "MemoryDisabledError": "userlore.errors",
    "MemoryMode": "userlore.config",
    "MemoryType": "userlore.models",
    "ObserveResult": "userlore.models",
    "Pipeline": "userlore.models",
    "PolicyViolationError": "userlore.errors",
    "Producer": "userlore.models",
    "RecordKind": "userlore.models",
    "RecordNotFoundError": "userlore.errors",
    "RecordState": "userlore.models",
    "RecordView": "userlore.models",
    "Rejection": "userlore.models",
    "ReviewerOutputError": "userlore.errors",
    "ScopeError": "userlore.errors",
    "SelectedRecord": "userlore.models",
    "Sensitivity": "userlore.models",
    "SourceSyncError": "userlore.errors",
    "StorageError": "userlore.errors",
    "TraceNotFoundError": "userlore.errors",
    "UserContextConfig": "userlore.config",
    "UserState": "userlore.models",
    "Userlore": "userlore.facade",
    "UserloreError": "userlore.errors",
    "WriteAction": "userlore.models",
    "WriteOutcome": "userlore.models",
}
"""Each public name and the module it is defined in, imported on first access."""


def _load(name: str) -> object:
    if name == "__version__":
        globals()[name] = _version()
        return globals()[name]
    return load_export(globals(), _EXPORTS, name)


if not TYPE_CHECKING:
    # Only at run time: a module ``__getattr__`` the type checkers saw would make every
    # unknown name of ``userlore`` (a typo) type as its return value instead of an error.
    __getattr__ = _load


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("userlore")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree without install
        return "0.0.0"


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
