"""One placement (issue 23 item 1): records and snippets share one fused ranking and one budget."""

from __future__ import annotations

from collections.abc import Callable

from userlore import Userlore
from userlore.planner.episodic import evidence_pairs, seed_terms
from userlore.planner.fusion import best_rank_fuse, rrf_fuse
from userlore.planner.planner import EPISODES
from userlore.sources.base import ItemListSource, SourceItem


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


def test_seed_terms_are_the_entities_the_question_lacks() -> None:
    seed = seed_terms(
        ["Caroline: I went to the support group in Boston in 2022 with Priya."],
        "When did Caroline go to the support group?",
    )
    assert seed.split() == ["Boston", "2022", "Priya"]  # not the speaker, not asked words
