"""Issue 23 (quality8): a question naming a speaker asks the vectors for its topic, not the name.

Every turn a speaker said is stored as ``"Name: …"``, so its vector carries the name, and the
vector of "What books has Melanie read?" is nearest to all of Melanie's turns alike.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from sqlalchemy import Connection

from userlore import Userlore
from userlore.planner.episodic import nearest_evidence, search_snippets
from userlore.planner.speakers import topic_of
from userlore.sources.base import ItemListSource, SourceItem
from userlore.testing.embeddings import HashingEmbeddings

SMALL_TALK = [
    SourceItem(f"s{n}", f"Melanie: {text}")
    for n, text in enumerate(["Yes!", "Sure!", "Ha, true.", "Wow.", "Totally!", "Same here."])
]
REPLIES = [SourceItem(f"c{n}", f"Caroline: Lovely, Mel! {n}") for n in range(4)]
NOVELS = SourceItem(
    "m",
    "Melanie: I finished two novels by the lake this June, thrillers both, while the kids swam"
    " and we ate cherries and peaches all afternoon under an old oak tree.",
)
SYNONYMS = {"novels": "books", "finished": "read"}
"""What a real model would relate; the turn shares no word with the question but the name."""
CONFIG = {"memory": {"mode": "auto", "sources": ["session", "connected"]}}


@pytest.mark.parametrize(
    ("question", "names", "topic"),
    [
        ("What books has Melanie read?", ["Melanie"], "What books has read?"),
        ("What do Melanie's kids like?", ["Melanie"], "What do kids like?"),
        (
            "What do Jon and Gina both have in common?",
            ["Gina", "Jon"],
            "What do and both have in common?",
        ),
        ("Melanie?", ["Melanie"], "Melanie?"),  # nothing but the name: the question stays
        ("What does Melanie like?", [], "What does Melanie like?"),
    ],
)
def test_the_topic_is_the_question_without_the_speakers_it_names(
    question: str, names: list[str], topic: str
) -> None:
    assert topic_of(question, names) == topic


class _Recorder(HashingEmbeddings):
    def __init__(self) -> None:
        super().__init__(synonyms=SYNONYMS)
        self.queries: list[str] = []

    def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return super().embed_query(text)


def _lore(model: HashingEmbeddings | None = None) -> Userlore:
    lore = Userlore.open("sqlite://", config=CONFIG, embeddings=model)
    lore.sources.ingest("u1", ItemListSource("chat", [*SMALL_TALK, *REPLIES, NOVELS]))
    return lore


@pytest.mark.parametrize(
    ("question", "own", "asked"),
    [
        ("What books has Melanie read?", True, "What books has read?"),
        ("What books has Jean read?", True, "What books has Jean read?"),  # not a speaker
        ("What books has Melanie read?", False, "What books has Melanie read?"),
    ],
)
def test_the_further_rankings_are_asked_for_the_topic_of_a_question_naming_a_speaker(
    question: str, own: bool, asked: str
) -> None:
    seen: list[str] = []

    def ranking(conn: Connection, scope: str, query: str, k: int) -> Sequence[str]:
        seen.append(query)
        return []

    with _lore() as lore, lore.memory.store.connection("u1") as conn:
        found = search_snippets(
            conn,
            "u1",
            question,
            k=5,
            now=lore.memory.store.clock(),
            consented=frozenset(),
            rankings=(ranking,),
            own=own,
        )
    assert seen == [asked]
    assert found.topic == (asked if asked != question else None)


def test_a_plan_asks_every_vector_search_for_the_topic_and_finds_the_turn_the_name_hid() -> None:
    model = _Recorder()
    question = "What books has Melanie read?"
    with _lore(model) as lore:
        plan = lore.plan_context("u1", question, budget=600)
        assert model.queries == ["What books has read?"]  # records, turns, second pass: one
        assert "two novels" in plan.text
        store = lore.memory.store
        nearest = nearest_evidence(store.vectors)[0]
        with store.connection("u1") as conn:  # asked with the name, small talk is nearest
            named = nearest(conn, "u1", question, 1)
            topical = nearest(conn, "u1", "What books has read?", 1)
        assert len(named) > 1 and topical == [named[-1]]
