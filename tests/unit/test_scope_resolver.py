"""The one per-call scope rule (integrations/scope.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from userlore.errors import ScopeError
from userlore.integrations.scope import ScopeResolver, resolve_scope


def test_runtime_context_wins_over_configurable() -> None:
    runtime = SimpleNamespace(context={"user_id": "ctx"})
    assert resolve_scope(runtime=runtime, config={"configurable": {"user_id": "cfg"}}) == "ctx"


def test_authenticated_user_wins_and_a_run_naming_another_is_refused() -> None:
    auth = {"langgraph_auth_user": {"identity": "alice", "is_authenticated": True}}
    assert resolve_scope(config={"configurable": auth}) == "alice"
    same = {"configurable": {**auth, "user_id": "alice"}}
    assert (
        resolve_scope(runtime=SimpleNamespace(context={"user_id": "alice"}), config=same) == "alice"
    )
    with pytest.raises(ScopeError, match="authenticated") as caught:
        resolve_scope(config={"configurable": {**auth, "user_id": "bob"}})
    assert "bob" not in str(caught.value) and "alice" not in str(caught.value)
    with pytest.raises(ScopeError, match="authenticated"):
        resolve_scope(
            runtime=SimpleNamespace(context={"user_id": "bob"}), config={"configurable": auth}
        )


def test_studio_and_unauthenticated_users_are_not_end_users() -> None:
    class StudioUser:
        identity = "developer"
        is_authenticated = True

    studio = {"configurable": {"langgraph_auth_user": StudioUser(), "user_id": "bob"}}
    assert resolve_scope(config=studio) == "bob"
    anon = {"configurable": {"langgraph_auth_user": {"identity": "", "is_authenticated": False}}}
    with pytest.raises(ScopeError, match="no user scope"):
        resolve_scope(config=anon)


def test_configurable_then_auth_identity_then_default() -> None:
    assert resolve_scope(config={"configurable": {"user_id": "cfg"}}) == "cfg"
    auth = {"configurable": {"langgraph_auth_user": SimpleNamespace(identity="auth")}}
    assert resolve_scope(config=auth) == "auth"
    assert resolve_scope(config={"configurable": {}}, default="fallback") == "fallback"


def test_context_object_and_custom_key() -> None:
    runtime = SimpleNamespace(context=SimpleNamespace(account="acme-7"))
    assert ScopeResolver(key="account").resolve(runtime=runtime) == "acme-7"


def test_no_user_raises_never_a_shared_scope() -> None:
    with pytest.raises(ScopeError, match="no user scope"):
        resolve_scope(config={"configurable": {"thread_id": "t1"}})


def test_auth_can_be_ignored_and_malformed_scope_is_refused() -> None:
    auth = {"configurable": {"langgraph_auth_user": {"identity": "auth"}}}
    with pytest.raises(ScopeError):
        ScopeResolver(use_auth=False).resolve(config=auth)
    with pytest.raises(ScopeError):
        resolve_scope(config={"configurable": {"user_id": "bad\x00scope"}})
