"""One rule for finding the user of a run: every integration resolves its scope per call.

A LangChain/LangGraph app compiles one agent and serves many users, so no integration binds a
user when it is built. Each call takes the LangGraph Server's authenticated user
(``langgraph_auth_user.identity``) when there is one — a run naming anyone else is refused —
else the run's ``runtime.context``, then ``config["configurable"]`` (``user_id`` or the configured
key), and last an explicit constructor default. Nothing found raises
:class:`~userlore.errors.ScopeError`; there is no shared fallback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from userlore.errors import ScopeError
from userlore.store.governed import validate_scope

__all__ = ["ScopeResolver", "current_config", "resolve_scope"]

DEFAULT_SCOPE_KEY = "user_id"


def current_config() -> Mapping[str, Any]:
    """The running config, or an empty mapping outside a runnable context."""
    # Imported here: ``langgraph.config`` pulls in ``langgraph.types`` (~0.2 s of a process
    # start), and a ``userlore worker`` imports this module without running any graph.
    from langgraph.config import get_config

    try:
        config: Mapping[str, Any] = get_config()
    except RuntimeError:
        return {}
    return config


def _field(container: Any, key: str) -> Any:
    if container is None:
        return None
    if isinstance(container, Mapping):
        return container.get(key)
    return getattr(container, key, None)


def _auth_identity(configurable: Mapping[str, Any]) -> str | None:
    """The LangGraph Server's authenticated end user, if the run has one.

    Studio's developer session (``StudioUser``) and an unauthenticated caller are not end users:
    they name no identity here, so the run's own ``user_id`` decides.
    """
    user = configurable.get("langgraph_auth_user")
    if user is None:
        return None
    if type(user).__name__ == "StudioUser" or _field(user, "kind") == "StudioUser":
        return None
    if _field(user, "is_authenticated") is False:
        return None
    identity = _field(user, "identity")
    if not identity:
        # langgraph_sdk.auth.types.BaseUser is a Protocol with an ``identity`` property; some
        # proxies only answer item access.
        try:
            identity = user["identity"]
        except (KeyError, TypeError):
            return None
    return str(identity) if identity else None


@dataclass(frozen=True, slots=True)
class ScopeResolver:
    """Where a run names its user; built once, consulted on every call.

    Attributes:
        key: Name of the user field in ``runtime.context`` and ``configurable``.
        default: Explicit fallback scope; ``None`` means a run that names no user raises.
        use_auth: Read the LangGraph Server identity (``langgraph_auth_user``).
    """

    key: str = DEFAULT_SCOPE_KEY
    default: str | None = None
    use_auth: bool = True

    def __post_init__(self) -> None:
        if self.default is not None:
            validate_scope(self.default)

    def find(self, *, runtime: Any = None, config: Mapping[str, Any] | None = None) -> str | None:
        """The run's scope, or ``None`` when nothing names one (the default is not applied).

        An authenticated LangGraph Server user wins: a run may repeat its own identity in
        ``context``/``configurable`` (what an ``@auth`` handler writes), but a client that names
        anyone else is refused, never served another user's memory.

        Raises:
            ScopeError: the run names a user other than its authenticated one, or a malformed one.
        """
        cfg = config if config is not None else _field(runtime, "config")
        if cfg is None:
            cfg = current_config()
        configurable = _field(cfg, "configurable") or {}
        if not isinstance(configurable, Mapping):
            configurable = {}
        named = _field(_field(runtime, "context"), self.key) or configurable.get(self.key)
        identity = _auth_identity(configurable) if self.use_auth else None
        if identity:
            if named and str(named) != identity:
                raise ScopeError(
                    f"the run names a {self.key} other than its authenticated user; an "
                    "authenticated run acts only for its own user"
                )
            return validate_scope(identity)
        return validate_scope(str(named)) if named else None

    def resolve(self, *, runtime: Any = None, config: Mapping[str, Any] | None = None) -> str:
        """The run's scope, else the explicit default.

        Raises:
            ScopeError: nothing names a user and there is no default, or the name is malformed.
        """
        found = self.find(runtime=runtime, config=config)
        if found is not None:
            return found
        if self.default is not None:
            return self.default
        raise ScopeError(
            f"no user scope: pass context={{'{self.key}': ...}}, "
            f"config={{'configurable': {{'{self.key}': ...}}}}, run on LangGraph Server with "
            "authentication, or give an explicit default scope"
        )


def resolve_scope(
    *,
    runtime: Any = None,
    config: Mapping[str, Any] | None = None,
    key: str = DEFAULT_SCOPE_KEY,
    default: str | None = None,
) -> str:
    """Shorthand for ``ScopeResolver(key, default).resolve(...)``."""
    return ScopeResolver(key=key, default=default).resolve(runtime=runtime, config=config)
