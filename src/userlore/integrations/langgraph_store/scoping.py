"""Whose item is it: the user of a namespace or prefix, and the namespace of a record.

The one rule of :mod:`userlore.integrations.langgraph_store` (the run, then the layout, else
``ScopeError``), and the stored path a namespace maps to (see :mod:`.namespaces`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

from langgraph.store.base import (
    BaseStore,
    InvalidNamespaceError,
    ListNamespacesOp,
    TTLConfig,
)

from userlore.errors import ScopeError
from userlore.integrations.scope import ScopeResolver
from userlore.models import (
    MemoryType,
    RecordView,
)
from userlore.store.governed import validate_scope

from .index import StoreIndex
from .namespaces import (
    Location,
    NamespaceTemplate,
    encode_label,
    locate,
    namespace_for,
    parse_store_key,
)
from .ttl import TTLSweeper

if TYPE_CHECKING:
    from userlore.facade import Userlore


class ScopedStore(BaseStore):
    """The state every part of ``UserloreStore`` shares, and whose namespace an op names."""

    lore: Userlore
    template: NamespaceTemplate | None
    scope: ScopeResolver
    ttl_config: TTLConfig | None
    kind: str
    memory_type: MemoryType
    _legacy: tuple[str, ...] | None
    _index: StoreIndex | None
    _sweeper: TTLSweeper | None
    _async_sweeper: asyncio.Task[None] | None

    def _run_user(self) -> str | None:
        """The user the current run names (or the resolver's explicit default)."""
        from langgraph.runtime import get_runtime  # at first use: see ``current_config``

        try:
            runtime = get_runtime()
        except (RuntimeError, KeyError):
            runtime = None
        found = self.scope.find(runtime=runtime)
        return found if found is not None else self.scope.default

    def _named_user(self, labels: Sequence[str]) -> tuple[str, int] | None:
        """The user label and its index when the layout (legacy prefix or template) says so."""
        if self._legacy is not None:
            n = len(self._legacy)
            if tuple(labels[:n]) != self._legacy or len(labels) <= n:
                return None
            if labels[n] == "*":
                raise InvalidNamespaceError("the user label of a namespace cannot be a wildcard")
            return labels[n], n
        if self.template is not None:
            user = self.template.user_in(labels)
            return None if user is None else (user, self.template.position)
        return None

    def _scope_of(self, labels: Sequence[str], *, whole: bool) -> tuple[str, int | None]:
        """Whose ``labels`` (a namespace, or a prefix when not ``whole``) are, and where the
        user label sits.

        Raises:
            ScopeError: neither the run nor the layout names a user, or they disagree (legacy).
            InvalidNamespaceError: a legacy-layout namespace without the user label.
        """
        run_user = self._run_user()
        if self._legacy is not None:
            named = self._named_user(labels)
            if named is not None:
                scope = validate_scope(named[0])
                if run_user is not None and run_user != scope:
                    raise ScopeError("the namespace names a different user than the run")
                return scope, named[1]
            if whole or run_user is None:
                raise InvalidNamespaceError(
                    f"namespace {tuple(labels)!r} must be (*{self._legacy!r}, user, *path)"
                )
            return run_user, None
        if run_user is not None:
            return run_user, (labels.index(run_user) if run_user in labels else None)
        named = self._named_user(labels)
        if named is not None:
            return validate_scope(named[0]), named[1]
        hint = (
            f"a namespace fitting {self.template.labels!r}"
            if self.template is not None
            else "namespace_template=(..., '{user_id}', ...) on the store"
        )
        raise ScopeError(
            "UserloreStore cannot tell whose item this is: name the user in the run "
            f"(context or configurable '{self.scope.key}') or use {hint}"
        )

    def _locate(self, namespace: Sequence[str]) -> Location:
        scope, position = self._scope_of(namespace, whole=True)
        if self._legacy is not None:
            return locate(namespace[len(self._legacy) :], scope, 0)
        return locate(namespace, scope, position)

    def _path_hint(self, prefix: Sequence[str], scope: str) -> str:
        """A stored-path prefix every record under ``prefix`` has (narrows the scan only)."""
        if self._legacy is not None:
            n = len(self._legacy)
            return "/".join(map(encode_label, prefix[n + 1 :])) if len(prefix) > n else ""
        labels = list(prefix)
        cut = labels.index(scope) if scope in labels else len(labels)
        return "/".join(map(encode_label, labels[:cut]))

    def _namespace(self, scope: str, path: str, canonical_key: str | None) -> tuple[str, ...]:
        parsed = parse_store_key(canonical_key)
        ns = namespace_for(
            scope, path, 0 if parsed is None else parsed[0], decode=parsed is not None
        )
        return ns if self._legacy is None else (*self._legacy, *ns)

    def namespace_of(self, record: RecordView) -> tuple[str, ...]:
        """The namespace a record appears under."""
        return self._namespace(record.scope, record.path, record.canonical_key)

    def _listing_scope(self, op: ListNamespacesOp) -> str:
        for cond in op.match_conditions or ():
            if cond.match_type == "prefix" and self._named_user(cond.path) is not None:
                return self._scope_of(cond.path, whole=False)[0]
        return self._scope_of((), whole=False)[0]
