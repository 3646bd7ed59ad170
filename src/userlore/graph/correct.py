"""The ``correct`` node: explicit corrections of the latest user turn, before anything else.

Seed 000 has an explicit correction ("你记错了我的偏好", "that's not my timezone any more") mark
the previous selected-understanding trace as not helpful *before the correction turn is planned*.
Running first in the understanding graph also means a concrete correction's replacement
candidate exists (linked by ``supersedes_record_id``) before ``extract``/``govern`` see the same
statement, which then only reinforces it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from userlore.graph.nodes import latest_user_message
from userlore.graph.state import UnderstandingState
from userlore.store.governed import validate_scope

if TYPE_CHECKING:
    from userlore.facade import Userlore

__all__ = ["Correct"]


class Correct:
    """Handle the latest user turn as a possible explicit correction (ids and codes in state)."""

    def __init__(self, lore: Userlore) -> None:
        self.lore = lore

    def __call__(self, state: UnderstandingState) -> dict[str, Any]:
        scope = validate_scope(state["scope"])
        messages = state.get("messages", [])
        latest = latest_user_message(messages)
        if latest is None or messages[-1] is not latest or not latest.text.strip():
            return {"correction": None}
        result = self.lore.feedback.handle_correction(
            scope, latest.text, state.get("session_key"), turn_id=latest.id
        )
        return {"correction": result.as_dict() if result.detected else None}
