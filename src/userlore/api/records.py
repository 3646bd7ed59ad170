"""``lore.records``: list, inspect and move records through their lifecycle."""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from userlore.api.twins import deprecated, twin
from userlore.models import RecordState, RecordView, UserState
from userlore.store.governed import GovernedStore, VersionView
from userlore.validation import (
    MAX_NAME_CHARS,
    enum_list,
    identifier,
    int_field,
    optional_identifier,
    optional_text,
    text_field,
    validate_path,
    validate_scope,
)


def checked_ref(scope: object, record_id: object) -> None:
    """Check the scope and record id every id-taking call starts with."""
    validate_scope(scope)
    identifier(record_id, "record_id")


def checked_path_prefix(path_prefix: object) -> None:
    """Check an optional path prefix (surrounding slashes ignored)."""
    if path_prefix is not None:
        validate_path(
            path_prefix.strip("/") if isinstance(path_prefix, str) else path_prefix,
            "path_prefix",
        )


class Records:
    """Records of one scope: every method takes ``scope`` first."""

    def __init__(self, store: GovernedStore) -> None:
        self._store = store

    def list(
        self,
        scope: str,
        state: RecordState | str | Sequence[RecordState | str] | None = None,
        *,
        kind: str | None = None,
        path_prefix: str | None = None,
        limit: int = 1000,
    ) -> builtins.list[RecordView]:
        """Records of a scope (every non-deleted state when ``state`` is ``None``).

        ``state`` takes a :class:`RecordState`, its value (``"active"``) or a list of them.
        """
        validate_scope(scope)
        states = None if state is None else builtins.list(enum_list(RecordState, state, "state"))
        optional_identifier(kind, "kind", max_chars=MAX_NAME_CHARS)
        checked_path_prefix(path_prefix)
        int_field(limit, "limit", lo=1, hi=100_000)
        return self._store.list_records(
            scope, state=states, kind=kind, path_prefix=path_prefix, limit=limit
        )

    def get(self, scope: str, record_id: str) -> RecordView:
        checked_ref(scope, record_id)
        return self._store.get(scope, record_id)

    def trash(self, scope: str) -> builtins.list[RecordView]:
        """Tombstoned records, restorable with :meth:`restore`."""
        validate_scope(scope)
        return self._store.list_records(scope, state=RecordState.DELETED)

    def history(self, scope: str, record_id: str) -> builtins.list[VersionView]:
        checked_ref(scope, record_id)
        return self._store.history(scope, record_id)

    def evidence(self, scope: str, record_id: str) -> builtins.list[dict[str, Any]]:
        checked_ref(scope, record_id)
        return self._store.evidence(scope, record_id)

    def approve(
        self,
        scope: str,
        record_id: str,
        *,
        content: str | None = None,
        reviewer: str | None = None,
    ) -> RecordView:
        """Activate a candidate; with ``content``, approve an edited version of it."""
        checked_ref(scope, record_id)
        optional_text(content, "content", max_chars=self._store.config.max_content_chars)
        return self._store.approve(scope, record_id, content=content, reviewer=reviewer)

    def reject(self, scope: str, record_id: str, *, reviewer: str | None = None) -> RecordView:
        """Reject a candidate; the decision counts towards the acceptance rate."""
        checked_ref(scope, record_id)
        return self._store.reject(scope, record_id, reviewer=reviewer)

    def update(self, scope: str, record_id: str, content: str) -> RecordView:
        """Correct a record: version n+1 goes live, version n stays as a snapshot."""
        checked_ref(scope, record_id)
        text_field(content, "content", max_chars=self._store.config.max_content_chars)
        return self._store.update(scope, record_id, content)

    def forget(self, scope: str, record_id: str) -> RecordView:
        """Tombstone a record (out of context at once, restorable from the trash)."""
        checked_ref(scope, record_id)
        return self._store.forget(scope, record_id)

    def restore(self, scope: str, record_id: str) -> RecordView:
        checked_ref(scope, record_id)
        return self._store.restore(scope, record_id)

    def pin(self, scope: str, record_id: str) -> RecordView:
        checked_ref(scope, record_id)
        return self._store.set_user_state(scope, record_id, UserState.PINNED)

    def unpin(self, scope: str, record_id: str) -> RecordView:
        checked_ref(scope, record_id)
        return self._store.set_user_state(scope, record_id, UserState.AUTO)

    __call__ = deprecated("records", "records.list")(list)  # 0.1: lore.records(scope, ...)

    alist = twin(list)
    aget = twin(get)
    atrash = twin(trash)
    ahistory = twin(history)
    aevidence = twin(evidence)
    aapprove = twin(approve)
    areject = twin(reject)
    aupdate = twin(update)
    aforget = twin(forget)
    arestore = twin(restore)
    apin = twin(pin)
    aunpin = twin(unpin)
