"""A turn's attribution (session and author) on every record it writes, a reversal's too.

Statements and the records a reversal ends are built from one ``TurnAuthor.attribution``;
these tests pin that both carry the same six fields.
"""

from __future__ import annotations

from userlore import Userlore
from userlore.models import WriteAction
from userlore.understanding import TurnAuthor


def test_attribution_names_every_author_field() -> None:
    who = TurnAuthor(agent_id="a", client="c", device="d", thread_id="t", run_id="r")
    assert who.attribution("s") == {
        "session_key": "s",
        "author_agent_id": "a",
        "author_client": "c",
        "author_device": "d",
        "thread_id": "t",
        "run_id": "r",
    }
    assert set(TurnAuthor().attribution(None).values()) == {None}


def test_a_reversal_record_carries_the_turn_author(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "Please remember I'm vegetarian.", "s1", agent_id="first")
    out = auto_lore.observe(
        "u1",
        "user",
        "I'm not vegetarian anymore, I eat fish now.",
        "s2",
        agent_id="codex",
        client="Codex CLI",
        device="laptop",
    )
    written = [o.record for o in out.outcomes if o.record is not None]
    # The record the reversal wrote supersedes the vegetarian one (``end_reversed``).
    assert [o.action for o in out.outcomes] == [WriteAction.SUPERSEDING]
    for record in written:
        assert (record.author_agent_id, record.author_client, record.author_device) == (
            "codex",
            "Codex CLI",
            "laptop",
        )
