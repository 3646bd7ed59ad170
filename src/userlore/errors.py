"""Exception tree.

Developer mistakes (bad arguments, bad config, unknown ids, invalid transitions) and run-time
failures (storage, reviewer output) share one root, :class:`UserloreError`. Each subclass also
inherits the builtin that best matches it, so ``except ValueError`` keeps working for callers who
do not know this library.
"""

from __future__ import annotations

__all__ = [
    "ConfigError",
    "EmbeddingError",
    "EmbeddingMismatchError",
    "ImportRejectedError",
    "InvalidInputError",
    "InvalidTransitionError",
    "MemoryDisabledError",
    "PolicyViolationError",
    "RecordNotFoundError",
    "ReviewerOutputError",
    "ScopeError",
    "SourceSyncError",
    "StorageError",
    "TraceNotFoundError",
    "UserloreError",
]


class UserloreError(Exception):
    """Root of every error raised by userlore."""


class ConfigError(UserloreError, ValueError):
    """The configuration is malformed: unknown keys, bad values, unreadable file."""


class InvalidInputError(UserloreError, ValueError):
    """An argument is unusable: empty or oversized content, a bad path, a bad kind."""


class ScopeError(InvalidInputError):
    """A scope key is missing or malformed."""


class RecordNotFoundError(UserloreError, LookupError):
    """No record with that id exists in the given scope."""


class TraceNotFoundError(RecordNotFoundError):
    """No inject trace answers the given session and response time (nothing to attribute to)."""


class InvalidTransitionError(UserloreError, ValueError):
    """The requested lifecycle transition is not allowed from the record's current state."""


class PolicyViolationError(UserloreError, ValueError):
    """A write was refused by the safety policy (secret or regulated content)."""


class MemoryDisabledError(UserloreError, RuntimeError):
    """The memory mode forbids this operation (``off`` or ``readOnly``)."""


class StorageError(UserloreError, RuntimeError):
    """The database failed or holds data this version cannot read."""


class EmbeddingMismatchError(ConfigError):
    """The database's vectors were made by another embedding model (or other dimensions) than
    the one configured: scores would be meaningless. ``userlore reindex`` re-embeds them."""


class EmbeddingError(StorageError):
    """The embedding model failed or returned unusable vectors; the write was rolled back."""


class ReviewerOutputError(UserloreError, ValueError):
    """A reviewer model returned output that does not validate, after bounded retries."""


class SourceSyncError(UserloreError, RuntimeError):
    """A connected source failed while it was being pulled; the sync run is recorded as failed.

    Attributes:
        run_id: The ``knowledge_sync_runs`` row that records the failure.
    """

    def __init__(self, message: str, run_id: str | None = None) -> None:
        super().__init__(message)
        self.run_id = run_id


class ImportRejectedError(InvalidInputError):
    """An import document was refused whole: malformed, too large or too deep, or a reference to
    an id the document does not itself contain. Nothing was written, and the message never says
    whether a refused id exists elsewhere."""
