"""The public surface is pinned: changing it is a deliberate act."""

from __future__ import annotations

import userlore


def test_all_is_pinned() -> None:
    assert sorted(userlore.__all__) == sorted(
        [
            "CandidateInput",
            "ConfigError",
            "ContextPlan",
            "Disclosure",
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
            "RecordNotFoundError",
            "RecordState",
            "RecordView",
            "Rejection",
            "ReviewerOutputError",
            "ScopeError",
            "SelectedRecord",
            "Sensitivity",
            "StorageError",
            "UserContextConfig",
            "UserState",
            "Userlore",
            "UserloreError",
            "WriteAction",
            "WriteOutcome",
            "__version__",
        ]
    )
    for name in userlore.__all__:
        assert hasattr(userlore, name)


def test_errors_share_one_root_and_builtins() -> None:
    assert issubclass(userlore.ScopeError, userlore.UserloreError)
    assert issubclass(userlore.ScopeError, ValueError)
    assert issubclass(userlore.RecordNotFoundError, LookupError)
    assert issubclass(userlore.StorageError, RuntimeError)
    assert not issubclass(userlore.UserloreError, BaseException) or issubclass(
        userlore.UserloreError, Exception
    )


def test_facade_has_async_twins() -> None:
    for name in (
        "observe",
        "write",
        "plan_context",
        "records",
        "approve",
        "reject",
        "update",
        "forget",
        "restore",
        "pin",
        "unpin",
        "history",
        "evidence",
    ):
        assert callable(getattr(userlore.Userlore, f"a{name}"))
