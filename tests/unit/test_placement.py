"""One placement (issue 23 item 1): records and snippets share one fused ranking and one budget."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest
from langchain_core.embeddings import Embeddings
from sqlalchemy import select

from tests.conftest import FakeClock
from userlore import Userlore
from userlore.models import ContextPlan
from userlore.planner import placement as placement_module
from userlore.planner.episodic import evidence_pairs, seed_terms, sentence_window
from userlore.planner.fusion import best_rank_fuse, rrf_fuse
from userlore.planner.planner import EPISODES, JOINED_SNIPPETS, UNMATCHED_SHARE
from userlore.policy.filter import RejectionReason
from userlore.policy.quote_gate import QuoteVerdict
from userlore.sources.base import ItemListSource, SourceItem
from userlore.store.schema import MemoryRecord
from userlore.testing.embeddings import HashingEmbeddings


def test_best_rank_fuse_puts_a_unit_first_in_one_list_above_one_middling_in_both() -> None:
    # "solo" is first among the turns but no record holds it; "both" is tenth in each list.
    records = [f"r{i}" for i in range(9)] + ["both"]
    turns = ["solo"] + [f"t{i}" for i in range(8)] + ["both"]
    order = [key for key, _ in best_rank_fuse([records, turns])]
    assert order.index("solo") < order.index("both")
    # RRF, which sums credit, would sink it below the unit both corpora hold.
    summed = [key for key, _ in rrf_fuse([records, turns])]
    assert summed.index("solo") > summed.index("both")


def test_best_rank_fuse_breaks_ties_by_agreement() -> None:
    order = [key for key, _ in best_rank_fuse([["a", "b"], ["b", "c"]])]
    assert order[0] == "b"  # first in one list and second in the other beats "a", first only
    assert set(order) == {"a", "b", "c"}


def test_a_record_and_its_own_turn_never_both_spend_characters(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto", planner={"episodicOverflow": 10})
    said = lore.observe("u1", "user", "Please remember I'm vegetarian.")
    assert said.candidates, "the statement makes a record"
    plan = lore.plan_context("u1", "what do I eat? vegetarian dinner ideas")
    with lore.memory.store.connection("u1") as conn:
        own = evidence_pairs(conn, "u1", [s.id for s in plan.selected])
    stated = {item for items in own.values() for item in items}
    assert said.source_item_id in stated  # the record is in the plan, drawn from the turn
    assert said.source_item_id not in {s.item_id for s in plan.snippets}
    assert plan.text.count("vegetarian") == 1


def test_snippets_take_the_budget_their_rank_earns_without_a_fixed_share(
    make_lore: Callable[..., Userlore],
) -> None:
    # The section's own share is 150 characters; with overflow on, snippets that rank as well
    # as anything else are placed past it (no reserve, no fixed share either way).
    lore = make_lore("auto", planner={"episodicChars": 150, "episodicOverflow": 10})
    ids = [
        lore.observe("u1", "user", f"the salad idea {n} sounds perfect with feta").source_item_id
        for n in range(5)
    ]
    plan = lore.plan_context("u1", "which salad idea sounds perfect with feta?")
    assert {s.item_id for s in plan.snippets} == set(ids)
    assert sum(s.chars for s in plan.snippets) > 150
    assert plan.sections[EPISODES]
    assert plan.chars == len(plan.text) <= plan.budget


def test_a_record_that_does_not_fit_may_be_quoted_by_its_shorter_turn_only_once(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto", planner={"episodicOverflow": 10})
    for n in range(30):
        lore.observe("u1", "user", f"Please remember I like salad number {n} with walnuts.")
    plan = lore.plan_context("u1", "salad with walnuts", budget=900)
    with lore.memory.store.connection("u1") as conn:
        own = evidence_pairs(conn, "u1", [s.id for s in plan.selected])
    stated = {item for items in own.values() for item in items}
    assert not stated & {s.item_id for s in plan.snippets}
    assert plan.chars == len(plan.text) <= 900


def test_a_join_question_finds_the_other_side_through_the_first_sides_entities(
    make_lore: Callable[..., Userlore],
) -> None:
    # Multi-hop (issue 23 item 2): the question names one side of the join (the climbing gym);
    # the turn holding the answer shares no word with it, only the name the first side holds.
    lore = make_lore("auto", memory={"mode": "auto", "sources": ["session", "connected"]})
    items = [
        SourceItem("a", "Last month I met Priya at the climbing gym downtown."),
        # far apart, so neither is indexed as the other's thread neighbour
        *(SourceItem(f"f{n}", f"Filler note {n} about groceries and rent.") for n in range(20)),
        SourceItem("b", "Priya gave me The Martian, her favourite novel."),
    ]
    lore.sources.ingest("u1", ItemListSource("notes", items))
    plan = lore.plan_context("u1", "What did the friend from the climbing gym suggest reading?")
    assert "climbing gym" in plan.text
    # its own entry (a record or the quoted turn), not only the day's note listing it
    assert '"text":"Priya gave me The Martian, her favourite novel."' in plan.text


def test_the_second_pass_shows_at_most_its_share_of_turns_the_question_never_reached(
    make_lore: Callable[..., Userlore],
) -> None:
    # Four turns share the join's name (Priya) and nothing with the question: past
    # JOINED_SNIPPETS of them the second pass would spend the plan on the user's other news.
    lore = make_lore("auto", memory={"mode": "auto", "sources": ["session", "connected"]})
    joins = [
        "Priya gave me The Martian, her favourite novel.",
        "Priya moved to Lisbon in May.",
        "Priya has a sister who plays the cello.",
        "Priya bakes sourdough every Sunday.",
    ]
    items = [
        SourceItem("a", "Last month I met Priya at the climbing gym downtown."),
        *(SourceItem(f"f{n}", f"Filler note {n} about groceries and rent.") for n in range(20)),
        *(SourceItem(f"b{n}", text) for n, text in enumerate(joins)),
    ]
    lore.sources.ingest("u1", ItemListSource("notes", items))
    plan = lore.plan_context("u1", "What did the friend from the climbing gym suggest reading?")
    quoted = [s for s in plan.snippets if s.lexical_rank is None and s.vector_rank is None]
    assert 1 <= len(quoted) == JOINED_SNIPPETS < len(joins)
    lore.memory.store.flush_traces()
    episodic = lore.traces.get("u1", plan.trace_id)["payload"]["episodic"]
    capped = [r for r in episodic["rejected"] if r["reason"] == RejectionReason.CLASS_BUDGET]
    assert len(capped) >= len(joins) - JOINED_SNIPPETS
    assert plan.chars < plan.budget  # room was left: the share, not the budget, stopped them


def test_seed_terms_are_the_entities_the_question_lacks() -> None:
    seed = seed_terms(
        ["Caroline: I went to the support group in Boston in 2022 with Priya."],
        "When did Caroline go to the support group?",
    )
    assert seed.split() == ["Boston", "2022", "Priya"]  # not the speaker, not asked words


_HOBBIES = (
    "opera", "sushi", "kayaking", "chess", "jazz", "sailing", "pottery", "tennis", "gardening",
    "cycling", "baking", "origami", "skiing", "karaoke", "fishing", "knitting", "surfing",
    "archery", "ballet",
)  # fmt: skip


def _hobby_lore(embeddings: Embeddings | None, clock: FakeClock) -> Userlore:
    lore = Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto"}}, embeddings=embeddings, clock=clock
    )
    for hobby in _HOBBIES:
        lore.observe("u1", "user", f"I really love {hobby} and I prefer it over anything else.")
    lore.observe("u1", "user", "Always answer in short bullet points.")
    return lore


def _preference_chars(lore: Userlore, plan: ContextPlan, kind: str = "preference") -> list[int]:
    with lore.memory.store.connection("u1") as conn:
        rows = conn.execute(
            select(MemoryRecord.id, MemoryRecord.kind).where(MemoryRecord.scope == "u1")
        )
        kinds = {rid: rkind for rid, rkind in rows}
    return [s.chars for s in plan.selected if kinds[s.id] == kind]


def test_unmatched_standing_likes_stop_at_their_share_when_relevance_can_be_judged(
    clock: FakeClock,
) -> None:
    # PrefEval's shape: one preference answers the question, eighteen others only spend budget.
    with _hobby_lore(HashingEmbeddings(), clock) as lore:
        plan = lore.plan_context("u1", "Any tips for a first kayaking trip?")
        assert '"text":"I really love kayaking"' in plan.text  # matched: placed first
        assert "short bullet points" in plan.text  # applies to every answer, matched or not
        unmatched = _preference_chars(lore, plan)[1:]
        assert unmatched, "a few unmatched likes still fit their share"
        assert sum(unmatched) <= plan.budget * UNMATCHED_SHARE
        assert len(unmatched) < len(_HOBBIES) - 1


def test_without_embeddings_every_standing_like_stays_eligible(clock: FakeClock) -> None:
    # No vectors, no judge of relevance beyond shared words: the old fill is kept.
    with _hobby_lore(None, clock) as lore:
        plan = lore.plan_context("u1", "Any tips for a first kayaking trip?")
        placed = _preference_chars(lore, plan)
        assert sum(placed) > plan.budget * UNMATCHED_SHARE


class _Themes(Embeddings):
    """Every like sits just below the vector floor from the question (near, unmatched), an
    allergy at right angles to it: nearness alone would place the likes first."""

    model_name = "fake:themes"

    def _vector(self, text: str) -> list[float]:
        if "allergy" in text:
            return [0.0, 0.0, 1.0]
        if "love" in text:
            return [0.15, math.sqrt(1 - 0.15**2), 0.0]
        return [1.0, 0.0, 0.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def test_an_unmatched_allergy_is_placed_past_the_share_of_unmatched_likes(
    clock: FakeClock,
) -> None:
    # A special-category constraint (health, consented) is costly to miss and rarely shares
    # words or meaning with the question it constrains: it applies like an instruction.
    with _hobby_lore(_Themes(), clock) as lore:
        lore.consent.grant("u1", "health")
        lore.observe("u1", "user", "I have a severe peanut allergy and must avoid peanuts.")
        plan = lore.plan_context("u1", "Any tips for a first trip on the water?")
        assert "peanut allergy" in plan.text
        likes = _preference_chars(lore, plan)
        assert sum(likes) - max(likes) <= plan.budget * UNMATCHED_SHARE  # the likes: their share


# -- quality4: weak relevance and the sentence window -------------------------------------------


def test_sentence_window_keeps_the_speaker_and_the_sentences_the_question_names() -> None:
    turn = (
        "Jon: Hi Tim! Nice to hear from you. Glad you could reconnect with everyone. "
        "Last week I had a crazy basketball game in Seattle. The weather was grey all week "
        "and the hotel was far too loud for a good night's sleep. We won the game by two."
    )
    cut = sentence_window(turn, "When was Jon in Seattle for a game?")
    assert cut.startswith("Jon: ")
    assert "basketball game in Seattle" in cut
    assert "Nice to hear from you" not in cut
    # "game" names two sentences; the one between them is dropped and the gap marked.
    assert cut.count(" … ") == 1 and "weather" not in cut


def test_sentence_window_leaves_a_text_alone_when_it_cannot_tell_what_matters() -> None:
    short = "Jon: I played a game in Seattle."
    assert sentence_window(short, "Seattle game?") is short
    long_ = "Tim: " + " ".join(f"Sentence {n} is about the weather here." for n in range(9))
    assert sentence_window(long_, "Which team won the final?") is long_  # no sentence named
    assert sentence_window(long_, "What was the weather like?") is long_  # every one named


class _Topics(Embeddings):
    """Texts about sport point one way, everything else at right angles: a turn that shares
    the word "match" with a sport question but is about a lighter has cosine 0 to it."""

    model_name = "fake:topics"

    def _vector(self, text: str) -> list[float]:
        sport = any(w in text.lower() for w in ("tennis", "football", "score"))
        return [1.0, 0.0] if sport else [0.0, 1.0]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._vector(text)


def _said(embeddings: Embeddings | None, clock: FakeClock) -> tuple[Userlore, str, str]:
    lore = Userlore.open(
        "sqlite://",
        config={"memory": {"mode": "auto"}, "planner": {"episodicOverflow": 10}},
        embeddings=embeddings,
        clock=clock,
    )
    sport = lore.observe("u1", "user", "The tennis match went to a third set, what a score.")
    light = lore.observe("u1", "user", "Do you have a match? The lighter ran out at the cabin.")
    assert sport.source_item_id and light.source_item_id
    return lore, sport.source_item_id, light.source_item_id


def test_a_turn_found_by_a_shared_word_alone_is_not_shown_when_vectors_call_it_unrelated(
    clock: FakeClock,
) -> None:
    lore, sport, light = _said(_Topics(), clock)
    with lore:
        plan = lore.plan_context("u1", "Who won the tennis match?")
        shown = {s.item_id for s in plan.snippets}
        assert sport in shown
        assert light not in shown and "lighter" not in plan.text
        lore.memory.store.flush_traces()
        trace = lore.traces.get("u1", plan.trace_id)["payload"]
        reasons = {r["id"]: r["reason"] for r in trace["episodic"]["rejected"]}
        assert reasons[light] == "weak_relevance"


def test_without_embeddings_a_shared_word_still_finds_a_turn(clock: FakeClock) -> None:
    lore, sport, light = _said(None, clock)
    with lore:
        plan = lore.plan_context("u1", "Who won the tennis match?")
        assert {sport, light} <= {s.item_id for s in plan.snippets}


# A turn over 200 characters whose one sentence answers "Who did I go sailing with?".
SAILING_TURN = (
    "Hi! Nice to hear from you again after all this time away from home. "
    "Last week I finally went sailing on the lake with my cousin Ola. "
    "The weather was grey and the drive back took four hours in traffic. "
    "Anyway, how have you been since we last talked about work?"
)


def test_a_long_turn_is_quoted_by_the_sentences_the_question_names(
    make_lore: Callable[..., Userlore],
) -> None:
    lore = make_lore("auto", planner={"episodicOverflow": 10})
    said = lore.observe("u1", "user", SAILING_TURN)
    plan = lore.plan_context("u1", "Who did I go sailing with?")
    assert said.source_item_id in {s.item_id for s in plan.snippets}
    assert "sailing on the lake with my cousin Ola" in plan.text
    assert "four hours in traffic" not in plan.text


def test_a_cut_the_quote_gate_would_withhold_is_not_placed_the_full_turn_is(
    make_lore: Callable[..., Userlore], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A cut can drop the words that made a cue about someone else: the gate judges the cut
    # itself. Here the gate withholds every cut text (the full turn passed it when retrieved).
    seen: list[str] = []
    real = placement_module.quote_verdict

    def gate(text: str, **kwargs: Any) -> QuoteVerdict:
        seen.append(text)
        if "…" in text or not text.startswith("Hi!"):
            return QuoteVerdict(RejectionReason.QUOTE_SPECIAL, "health")
        return real(text, **kwargs)

    monkeypatch.setattr(placement_module, "quote_verdict", gate)
    lore = make_lore("auto", planner={"episodicOverflow": 10})
    said = lore.observe("u1", "user", SAILING_TURN)
    plan = lore.plan_context("u1", "Who did I go sailing with?")
    assert seen, "the cut went through the gate"
    assert said.source_item_id in {s.item_id for s in plan.snippets}
    assert "four hours in traffic" in plan.text  # the full turn, not the withheld cut
