"""The public surface is pinned: changing it is a deliberate act."""

from __future__ import annotations

import subprocess
import sys

import userlore


def test_all_is_pinned() -> None:
    assert sorted(userlore.__all__) == sorted(
        [
            "CandidateInput",
            "ConfigError",
            "EmbeddingError",
            "EmbeddingMismatchError",
            "ConsentCategory",
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
    )
    for name in userlore.__all__:
        assert hasattr(userlore, name)
    assert set(userlore.__all__) <= set(dir(userlore))


def test_importing_the_package_or_the_cli_does_not_import_the_facade() -> None:
    # The public names load on first access (tidy15): ``import userlore`` and the CLI's
    # ``--help`` cost no store, floor or facade; a fresh interpreter shows what was imported.
    code = (
        "import sys, userlore, userlore.cli; "
        "print(sorted(m for m in ('userlore.facade', 'userlore.store', 'userlore.policy', "
        "'userlore.sources.pipeline', 'sqlalchemy') if m in sys.modules)); "
        "from userlore import Userlore; print('userlore.facade' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]


def test_errors_share_one_root_and_builtins() -> None:
    assert issubclass(userlore.ScopeError, userlore.UserloreError)
    assert issubclass(userlore.ScopeError, ValueError)
    assert issubclass(userlore.RecordNotFoundError, LookupError)
    assert issubclass(userlore.StorageError, RuntimeError)
    assert not issubclass(userlore.UserloreError, BaseException) or issubclass(
        userlore.UserloreError, Exception
    )


def test_every_error_class_is_exported() -> None:
    import userlore.errors

    for name in userlore.errors.__all__:
        assert name in userlore.__all__, f"{name} is not exported from userlore"
        assert getattr(userlore, name) is getattr(userlore.errors, name)
        assert issubclass(getattr(userlore, name), userlore.UserloreError)


def test_consent_categories_are_the_categories_the_floor_reports() -> None:
    from userlore.policy.sensitivity import SPECIAL_CATEGORIES

    assert {c.value for c in userlore.ConsentCategory} == set(SPECIAL_CATEGORIES)


def test_record_kinds_cover_the_planner_sections_and_reviewer_kinds() -> None:
    from userlore.extract.reviewer import REVIEW_KINDS
    from userlore.learning.facets import FacetClass
    from userlore.planner.planner import SECTION_OF_KIND

    kinds = {k.value for k in userlore.RecordKind}
    assert set(SECTION_OF_KIND) <= kinds
    assert set(REVIEW_KINDS) <= kinds
    assert {c.value for c in FacetClass} <= kinds


def test_facade_has_async_twins() -> None:
    for name in ("observe", "write", "plan_context"):
        assert callable(getattr(userlore.Userlore, f"a{name}"))
    from userlore.api.records import Records

    for name in ("list", "approve", "reject", "update", "forget", "restore", "pin", "unpin"):
        assert callable(getattr(Records, f"a{name}"))
    for name in ("history", "evidence", "get", "trash"):
        assert callable(getattr(Records, f"a{name}"))
