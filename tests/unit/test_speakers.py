"""Issue 23 (multihop5): a question naming one speaker gives that speaker's own turns a share."""

from __future__ import annotations

from types import SimpleNamespace

from userlore import Userlore
from userlore.planner.episodic import nearest_evidence, search_snippets
from userlore.planner.speakers import named_speaker, own_turns, speaker_of
from userlore.sources.base import ItemListSource, SourceItem
from userlore.testing.embeddings import HashingEmbeddings

FILLER = [SourceItem(f"f{n}", f"Filler note {n} about groceries and rent.") for n in range(20)]


def _row(text: str, speaker: str | None = None) -> SimpleNamespace:
    return SimpleNamespace(text=text, meta={"speaker": speaker} if speaker else {})


def test_a_speaker_is_read_from_metadata_first_then_from_the_turns_prefix() -> None:
    assert speaker_of(_row("Mel: I went camping.", "Melanie")) == "Melanie"
    assert speaker_of(_row("Ana Ruiz: I moved to Lyon.")) == "Ana Ruiz"
    assert speaker_of(_row("No speaker here: just prose that has a colon later on.")) is None
    assert speaker_of(_row("plain text")) is None


def test_only_a_question_naming_exactly_one_speaker_names_one() -> None:
    speakers = {"Melanie", "Caroline"}
    assert named_speaker("What activities does Melanie partake in?", speakers) == "Melanie"
    assert named_speaker("Would Caroline's friends like it?", speakers) == "Caroline"
    assert named_speaker("What did Caroline tell Melanie?", speakers) is None
    assert named_speaker("What did Mel do?", speakers) is None  # a word, not a prefix
    assert named_speaker("what does melanie like?", speakers) is None  # a name as written


def test_own_turns_lists_the_named_speakers_items_in_the_given_order() -> None:
    rows = {
        "a": _row("Caroline: That's great!"),
        "b": _row("Melanie: I painted a sunset."),
        "c": _row("Melanie: Pottery calms me."),
    }
    order = ["a", "b", "missing", "c"]
    assert own_turns("What does Melanie do?", order, rows, k=5) == ["b", "c"]
    assert own_turns("What does Melanie do?", order, rows, k=1) == ["b"]
    assert own_turns("What did they do?", order, rows, k=5) == []


def _lore(items: list[SourceItem]) -> Userlore:
    lore = Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto", "sources": ["session", "connected"]}}
    )
    lore.sources.ingest("u1", ItemListSource("chat", items))
    return lore


def _order(lore: Userlore, query: str, *, own: bool) -> list[str]:
    store = lore.memory.store
    with store.connection("u1") as conn:
        found = search_snippets(
            conn, "u1", query, k=40, now=store.clock(), consented=frozenset(), own=own
        )
    return [s.text for s in found.kept]


def test_the_named_speakers_turn_is_lifted_above_the_other_speakers_equal_one() -> None:
    other = "Caroline: Hiking trails near the lake sound lovely for hiking."
    mine = "Melanie: Hiking trails near the lake sound lovely for hiking."
    lore = _lore([SourceItem("c", other), *FILLER, SourceItem("m", mine)])
    with lore:
        query = "Which hiking trails does Melanie like?"
        plain = _order(lore, query, own=False)
        lifted = _order(lore, query, own=True)
        assert set(plain) == set(lifted) and other in lifted  # credit added, nothing removed
        assert lifted.index(mine) < lifted.index(other)
        both = _order(lore, "Which hiking trails do Melanie and Caroline like?", own=True)
        assert both == _order(lore, "Which hiking trails do Melanie and Caroline like?", own=False)


def test_a_withheld_turn_of_the_named_speaker_stays_withheld() -> None:
    lore = _lore(
        [
            SourceItem("m", "Melanie: I was diagnosed with diabetes after the hiking trip."),
            *FILLER,
            SourceItem("c", "Caroline: The hiking trip was fun."),
        ]
    )
    with lore:
        texts = _order(lore, "What happened to Melanie on the hiking trip?", own=True)
        assert all("diabetes" not in t for t in texts)


def test_the_share_reaches_past_the_first_k_through_the_nearest_vectors() -> None:
    # The other speaker's replies fill the first k of both rankings but one; the named
    # speaker's other turn is only deeper in the vector list (5 x k), and the share brings it in.
    replies = [
        SourceItem(f"c{n}", f"Caroline: Which hiking trails do I like? All hiking trails {n}!")
        for n in range(6)
    ]
    named = SourceItem("n", "Melanie: Which hiking trails do I like? Hiking trails, all of them!")
    # Related by topic, not by words: the vectors are asked for the question's topic without
    # the name (quality8), so the turn must be near "hiking trails", not near "Melanie".
    mine = SourceItem("m", "Melanie: We love a lake trek on quiet paths with the kids.")
    lore = Userlore.open(
        "sqlite://",
        config={"memory": {"mode": "auto", "sources": ["session", "connected"]}},
        embeddings=HashingEmbeddings(synonyms={"trek": "hiking", "paths": "trails"}),
    )
    lore.sources.ingest("u1", ItemListSource("chat", [named, *replies, *FILLER, mine]))
    store = lore.memory.store
    query = "Which hiking trails does Melanie like?"
    with lore, store.connection("u1") as conn:
        found = {
            own: search_snippets(
                conn,
                "u1",
                query,
                k=2,
                now=store.clock(),
                consented=frozenset(),
                rankings=nearest_evidence(store.vectors),
                judged=True,
                own=own,
            )
            for own in (False, True)
        }
    plain = [s.text for s in found[False].kept]
    lifted = [s.text for s in found[True].kept]
    assert named.text in plain and mine.text not in plain
    assert mine.text in lifted
    assert set(plain) <= set(lifted)
