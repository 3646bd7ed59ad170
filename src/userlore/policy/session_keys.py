"""Session keys: checked once, on every entry, before anything records them.

A session key is stored as given: in ``memory_trace_events.session_key``, in the source instance
id of a conversation (``conversation:<scope>:<session>``) and on evidence. A caller that keys
sessions by a URL (``"s?token=..."``) or an access key would put a secret there in clear, past
the redaction every text field gets. So a session key the floor flags as a secret or a regulated
identifier is refused before the write starts, and nothing is written.
"""

from __future__ import annotations

import functools

from userlore.errors import InvalidInputError
from userlore.policy.sensitivity import classify
from userlore.validation import MAX_KEY_CHARS, optional_identifier

__all__ = ["checked_session_key"]


def checked_session_key(value: object, field: str = "session_key") -> str | None:
    """``value`` as a session key (or None), after the identifier rules and the floor.

    Raises:
        InvalidInputError: not a one-line ``str`` within :data:`MAX_KEY_CHARS`, or holding a
            secret or regulated value; the message names ``field``, never the value.
    """
    key = optional_identifier(value, field, max_chars=MAX_KEY_CHARS)
    if key is not None and _blocked(key):
        raise InvalidInputError(
            f"{field} holds a secret or a regulated identifier; use an opaque id instead"
        )
    return key


@functools.lru_cache(maxsize=1_024)
def _blocked(key: str) -> bool:
    # A session key comes back on every turn of its session: classified once (issue 23).
    return classify(key).is_blocked
