"""Sentence vectors of evidence (issue 23, multihop11): a statement inside a long turn of
greetings is found by its own vector, the turn still scores as a whole, and an edited turn keeps
no vector of a sentence it no longer has."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import func, select

from userlore import Userlore
from userlore.models import Pipeline
from userlore.planner.episodic import nearest_evidence
from userlore.store.schema import SentenceVector
from userlore.store.sentences import SENTENCE_VECTORS, sentence_texts, split_turn
from userlore.store.vectors import VectorIndex
from userlore.testing.embeddings import HashingEmbeddings

SCOPE = "u1"
LONG = (
    "Jo: Hey Sam, so good to hear from you again! The kids were sick all weekend and work was "
    "a long slog. Anyway, I'm doing kickboxing now. Say hi to your mum for me!"
)
"""A list question's answer inside a turn of greetings (the multihop10 class)."""
NEAR = "Jo: The film had martial music, odd choice, and the arts section praised it."
"""Shares the question's words (``martial``, ``arts``) but answers nothing."""
QUESTION = "What martial arts has Jo done?"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Jo: I'm doing kickboxing now.", []),
        ("Jo: Hi! I'm doing kickboxing.", ["Jo: Hi!", "Jo: I'm doing kickboxing."]),
        ("No speaker here. Two sentences?", ["No speaker here.", "Two sentences?"]),
        ("Mel: Look! [image: a dog on a beach]", ["Mel: Look!", "Mel: [image: a dog on a beach]"]),
        ("一句话。两句话。", ["一句话。", "两句话。"]),
    ],
)
def test_sentence_texts_keep_the_speaker_and_skip_one_sentence_turns(
    text: str, expected: list[str]
) -> None:
    assert sentence_texts(text) == expected


def test_sentence_texts_are_bounded() -> None:
    many = "Jo: " + " ".join(f"Line {n}." for n in range(40))
    out = sentence_texts(many)
    assert len(out) == SENTENCE_VECTORS and out[0] == "Jo: Line 0."


@pytest.fixture
def lore(tmp_path: Path) -> Iterator[Userlore]:
    opened = Userlore.open(
        f"sqlite:///{tmp_path / 'sentences.db'}",
        config={"memory": {"mode": "auto"}},
        embeddings=HashingEmbeddings(synonyms={"kickbox": "martial"}),
    )
    yield opened
    opened.close()


def _index(lore: Userlore) -> VectorIndex:
    vectors = lore.memory.store.vectors
    assert vectors is not None
    return vectors


def _put(lore: Userlore, external_id: str, text: str) -> str:
    store = lore.memory.store
    with store.transaction(SCOPE) as session:
        return store.add_source_item(
            session,
            scope=SCOPE,
            source_instance_id="chat",
            external_id=external_id,
            text=text,
            pipeline=Pipeline.CONNECTED_KNOWLEDGE,
        ).id


def _sentence_rows(lore: Userlore, item_id: str) -> int:
    with lore.memory.store.connection(SCOPE) as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(SentenceVector)
                .where(SentenceVector.source_item_id == item_id)
            ).scalar_one()
        )


def test_a_statement_in_a_long_turn_outranks_a_turn_sharing_words(lore: Userlore) -> None:
    long_id, near_id = _put(lore, "t1", LONG), _put(lore, "t2", NEAR)
    assert _sentence_rows(lore, long_id) == 4 and _sentence_rows(lore, near_id) == 0
    index = _index(lore)
    qvec = index.embed_query(QUESTION)
    with lore.memory.store.connection(SCOPE) as conn:
        whole = dict(index.search(conn, SCOPE, "evidence", qvec, 10))
        best = dict(index.search_best(conn, SCOPE, qvec, 10, kind="evidence"))
        (ranking,) = nearest_evidence(index, sentences=True)
        ranked = ranking(conn, SCOPE, QUESTION, 10)
        (whole_only,) = nearest_evidence(index)
        unsplit = whole_only(conn, SCOPE, QUESTION, 10)
    # The whole turn alone loses to the one sharing words; its own sentence wins.
    assert whole[near_id] > whole[long_id]
    sentence = index.embed(["Jo: Anyway, I'm doing kickboxing now."])[0]
    assert best[long_id] == pytest.approx(float(np.dot(sentence, qvec)), abs=1e-5)
    assert best[near_id] == pytest.approx(whole[near_id], abs=1e-6)
    assert ranked.index(long_id) < ranked.index(near_id)
    assert long_id not in unsplit[: unsplit.index(near_id)]


def test_an_edited_turn_keeps_only_its_new_sentences(lore: Userlore) -> None:
    index = _index(lore)
    item_id = _put(lore, "t1", LONG)
    qvec = index.embed_query(QUESTION)
    with lore.memory.store.connection(SCOPE) as conn:  # a reader holding the matrix
        before = dict(index.search_best(conn, SCOPE, qvec, 10, kind="evidence"))
    assert _put(lore, "t1", "Jo: Hi Sam! Work was a long slog.") == item_id
    assert _sentence_rows(lore, item_id) == 2
    with lore.memory.store.connection(SCOPE) as conn:
        after = dict(index.search_best(conn, SCOPE, qvec, 10, kind="evidence"))
    assert after[item_id] < before[item_id]  # the kickboxing sentence is gone from the matrix
    assert _put(lore, "t1", "Jo: Work was a long slog") == item_id
    assert _sentence_rows(lore, item_id) == 0


def test_the_one_sentence_shortcut_gives_the_splitters_answer() -> None:
    # sentence_texts skips the splitter for a text with no stop before its last character and
    # no image tag (put19): on every short text over the splitter's own characters, the
    # answer is the splitter's.
    def reference(text_: str) -> list[str]:
        head, sentences = split_turn(text_)
        return [head + p for p in sentences[:SENTENCE_VECTORS]] if len(sentences) > 1 else []

    alphabet = ["a", " ", ".", "?", "。", "！", "\n", "[image:x]", "Mel: "]
    for size in range(5):
        for parts in itertools.product(alphabet, repeat=size):
            text_ = "".join(parts)
            assert sentence_texts(text_) == reference(text_), repr(text_)
    assert sentence_texts("One sentence ends here.") == []
    assert sentence_texts("Two here. And two.") == ["Two here.", "And two."]
