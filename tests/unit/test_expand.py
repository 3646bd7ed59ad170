"""The multi-hop second pass (issue 23 item 2): seeded by what the first pass may show."""

from __future__ import annotations

from userlore import Userlore
from userlore.planner.episodic import EpisodicFrequencies, SnippetsFound, search_snippets
from userlore.planner.expand import SECOND_WEIGHT, expand_snippets
from userlore.sources.base import ItemListSource, SourceItem
from userlore.testing.embeddings import HashingEmbeddings

FILLER = [SourceItem(f"f{n}", f"Filler note {n} about groceries and rent.") for n in range(20)]


def _lore(
    items: list[SourceItem], embeddings: HashingEmbeddings | None = None, scope: str = "u1"
) -> Userlore:
    lore = Userlore.open(
        "sqlite://",
        config={"memory": {"mode": "auto", "sources": ["session", "connected"]}},
        embeddings=embeddings,
    )
    lore.sources.ingest(scope, ItemListSource("notes", items))
    return lore


def _passes(lore: Userlore, query: str, scope: str = "u1") -> tuple[SnippetsFound, SnippetsFound]:
    """The first pass alone, and with the second fused in (the planner's read, snippets only)."""
    store = lore.memory.store
    now = store.clock()
    with store.connection(scope) as conn:
        consented = store.consents_in(conn, scope)
        first = search_snippets(conn, scope, query, k=40, now=now, consented=consented)
        second = expand_snippets(
            conn,
            scope,
            query,
            first,
            [],
            vectors=store.vectors,
            stats=EpisodicFrequencies(ttl_s=0),
            now=now,
            consented=consented,
            limit=40,
        )
    return first, second


def _ids(found: SnippetsFound) -> list[str]:
    return [s.item_id for s in found.kept]


def test_a_snippet_seeds_the_other_side_of_a_join_below_the_first_passes_best() -> None:
    lore = _lore(
        [
            SourceItem("a", "Last month I met Priya at the climbing gym downtown."),
            *FILLER,
            SourceItem("b", "Priya gave me The Martian, her favourite novel."),
        ]
    )
    with lore:
        first, second = _passes(lore, "What did the friend from the climbing gym suggest?")
        assert len(first.kept) == 1  # the question shares no word with the other side
        side_a = first.kept[0].item_id
        assert _ids(second)[0] == side_a  # the first pass's best keeps its place
        [side_b] = [s for s in second.kept if s.item_id != side_a]
        assert "Priya gave me" in side_b.text
        assert side_b.score < second.kept[0].score
        assert side_b.lexical_rank is None and side_b.vector_rank is None  # a second-pass find


def test_the_second_pass_adds_credit_at_a_lower_weight_than_the_first() -> None:
    assert 0 < SECOND_WEIGHT < 1
    lore = _lore(
        [
            SourceItem("a", "I went climbing at the gym with Priya."),
            *FILLER,
            SourceItem("b", "My friend Priya likes the climbing gym."),
        ]
    )
    with lore:
        first, second = _passes(lore, "climbing gym")
        before = {s.item_id: s.score for s in first.kept}
        after = {s.item_id: s.score for s in second.kept}
        assert before.keys() == after.keys()
        # both hold Priya (the seed): each is lifted by less than its own first-pass credit
        assert all(before[i] < after[i] < 2 * before[i] for i in before)


def test_a_turn_found_by_the_second_pass_gets_the_first_passes_verdict() -> None:
    lore = _lore(
        [
            SourceItem("a", "Last month I met Priya at the climbing gym downtown."),
            *FILLER,
            SourceItem("b", "Since then Priya knows I was diagnosed with diabetes last year."),
        ]
    )
    with lore:
        _, second = _passes(lore, "Who did I meet at the climbing gym?")
        assert all("diabetes" not in s.text for s in second.kept)
        assert "consent_required" in {r.reason for r in second.rejected}
        lore.consent.grant("u1", "health")
        _, granted = _passes(lore, "Who did I meet at the climbing gym?")
        assert any("diabetes" in s.text for s in granted.kept)


def test_a_withheld_turn_never_seeds_the_second_pass() -> None:
    # The only turn naming Priya beside the benign one is withheld: nothing may lead to her.
    lore = _lore(
        [
            SourceItem("a", "At the climbing gym I told Priya I was diagnosed with diabetes."),
            *FILLER,
            SourceItem("b", "Priya gave me The Martian, her favourite novel."),
        ]
    )
    with lore:
        first, second = _passes(lore, "What happened at the climbing gym?")
        assert not first.kept and first.rejected
        assert second == first


def test_the_vector_pass_finds_a_turn_near_the_seeds_without_a_shared_name() -> None:
    lore = _lore(
        [
            SourceItem("a", "On the hike we roasted marshmallows by the fire."),
            *FILLER,
            SourceItem("b", "the kids begged for more marshmallows and stories at the camp"),
        ],
        embeddings=HashingEmbeddings(),
    )
    with lore:
        first, second = _passes(lore, "what did we do on the hike?")
        assert all("kids begged" not in s.text for s in first.kept)
        assert any("kids begged" in s.text for s in second.kept)


def test_stored_vectors_are_read_by_id_and_absent_ids_left_out() -> None:
    lore = _lore([SourceItem("a", "On the hike we roasted marshmallows.")], HashingEmbeddings())
    with lore:
        store = lore.memory.store
        assert store.vectors is not None
        [item] = _ids(_passes(lore, "hike marshmallows")[0])
        with store.connection("u1") as conn:
            got = store.vectors.stored(conn, "u1", "evidence", [item, "absent"])
            other = store.vectors.stored(conn, "u2", "evidence", [item])
            [hit] = store.vectors.search(conn, "u1", "evidence", got[item], 1)
        assert list(got) == [item] and not other  # another scope's vector is never read
        assert hit[0] == item and abs(hit[1] - 1.0) < 1e-5
