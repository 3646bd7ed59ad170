"""Every producer reaches the governed write through ``userlore.understanding`` (one write path)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from sqlalchemy import func, select

from tests.support.chat_models import ScriptedChatModel
from tests.unit.test_understanding_graph import TERSE
from userlore import CandidateInput, Pipeline, Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.graph import build_understanding_graph
from userlore.sources import ItemListSource, SourceItem
from userlore.store.governed import GovernedStore
from userlore.store.langgraph_store import UserloreStore
from userlore.store.schema import FacetObservation

Make = Callable[..., Userlore]


@pytest.fixture
def governed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """Per ``GovernedStore.govern`` (or ``govern_batch``) call: was ``userlore.understanding``
    on the stack?"""
    calls: list[bool] = []

    def spying(real: Callable[..., Any]) -> Callable[..., Any]:
        def spy(self: GovernedStore, *args: Any, **kwargs: Any) -> Any:
            frame = sys._getframe(1)
            seen = False
            while frame is not None:
                name = frame.f_globals.get("__name__") or ""
                seen = seen or name.startswith("userlore.understanding.")
                frame = frame.f_back  # type: ignore[assignment]
            calls.append(seen)
            return real(self, *args, **kwargs)

        return spy

    monkeypatch.setattr(GovernedStore, "govern", spying(GovernedStore.govern))
    monkeypatch.setattr(GovernedStore, "govern_batch", spying(GovernedStore.govern_batch))
    yield calls


def _observe(lore: Userlore) -> None:
    lore.observe("u1", "user", "I use pnpm.")


def _write(lore: Userlore) -> None:
    lore.write("u1", CandidateInput(kind="note", content="Deploys happen on Tuesdays."))


def _graph(lore: Userlore) -> None:
    build_understanding_graph(lore).invoke(
        {"scope": "u1", "messages": [{"role": "user", "content": "I use pnpm."}]}
    )


def _reviewer(lore: Userlore) -> None:
    model = ScriptedChatModel(replies=[AIMessage(content=json.dumps({"candidates": [TERSE]}))])
    LLMReviewer(model).review(lore, "u1", [("user", "way too long to read on my phone")])


def _pipeline(lore: Userlore) -> None:
    said = SourceItem(
        "turn-1",
        "Always answer in bullet points.",
        occurred_at=datetime(2026, 1, 2, 9, tzinfo=UTC),
        meta={"role": "user"},
        pipeline=Pipeline.USER_UNDERSTANDING,
    )
    lore.ingest(ItemListSource("chat", [said]), scope="u1")


def _correction(lore: Userlore) -> None:
    lore.observe("u1", "user", "My name is Alex.", "s1")
    lore.plan_context("u1", "what is my name?", session_key="s1")
    result = lore.handle_correction("u1", "You've got my name wrong, my name is Sam", "s1")
    assert result.replacements  # the replacement is what reaches govern


def _base_store(lore: Userlore) -> None:
    UserloreStore(lore, namespace_template=("{user_id}",)).put(
        ("u1", "prefs"), "food", {"content": "Likes spicy ramen"}
    )


def _remember(lore: Userlore) -> None:
    lore.memory.remember("u1", "Deploys happen on Tuesdays.", path="ops", memory_type="semantic")


PRODUCERS = [
    pytest.param(_observe, id="facade.observe"),
    pytest.param(_write, id="facade.write"),
    pytest.param(_graph, id="graph.govern"),
    pytest.param(_reviewer, id="reviewer"),
    pytest.param(_pipeline, id="sources.pipeline"),
    pytest.param(_correction, id="feedback.correction"),
    pytest.param(_base_store, id="basestore.put"),
    # The remember tool, MCP remember and HTTP remember all run MemoryService.remember.
    pytest.param(_remember, id="remember"),
]


@pytest.mark.parametrize("produce", PRODUCERS)
def test_every_producer_governs_through_understanding(
    make_lore: Make, governed: list[bool], produce: Callable[[Userlore], None]
) -> None:
    lore = make_lore(memory={"mode": "auto", "sources": ["session", "curated", "connected"]})
    produce(lore)
    assert governed, "the producer wrote nothing"
    assert all(governed), "a producer reached GovernedStore.govern outside the one write path"


def _observations(lore: Userlore) -> int:
    with lore.store.transaction() as session:
        return int(session.scalar(select(func.count()).select_from(FacetObservation)) or 0)


def test_graph_records_facet_evidence_like_observe(make_lore: Make) -> None:
    by_facade, by_graph = make_lore("auto"), make_lore("auto")
    _observe(by_facade)
    _graph(by_graph)
    assert _observations(by_facade) == _observations(by_graph) == 1
