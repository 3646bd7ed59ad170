"""Who wrote a turn: the author fields every candidate a turn yields carries."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict


@dataclass(frozen=True, slots=True)
class TurnAuthor:
    """Who wrote a turn (attribution copied onto every candidate it yields)."""

    agent_id: str | None = None
    client: str | None = None
    device: str | None = None
    thread_id: str | None = None
    run_id: str | None = None

    def attribution(self, session_key: str | None) -> Attribution:
        """The session and author fields of every candidate a turn yields, written once for
        statements and for the records a reversal ends."""
        return Attribution(
            session_key=session_key,
            author_agent_id=self.agent_id,
            author_client=self.client,
            author_device=self.device,
            thread_id=self.thread_id,
            run_id=self.run_id,
        )


class Attribution(TypedDict):
    """The :class:`~userlore.models.CandidateInput` fields that say who said it, and where."""

    session_key: str | None
    author_agent_id: str | None
    author_client: str | None
    author_device: str | None
    thread_id: str | None
    run_id: str | None
