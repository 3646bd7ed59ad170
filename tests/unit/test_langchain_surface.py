"""The LangGraph/LangChain public surface is pinned and importable without side effects."""

from __future__ import annotations

import subprocess
import sys

import userlore.graph
import userlore.integrations


def test_graph_all_is_pinned() -> None:
    assert sorted(userlore.graph.__all__) == sorted(
        [
            "ACTION_NAME",
            "Cadence",
            "CadenceDecision",
            "ReviewCadence",
            "ReviewState",
            "UnderstandingState",
            "build_review_subgraph",
            "build_understanding_graph",
            "embedded_checkpointer",
            "hitl_request",
            "response_model",
        ]
    )
    for name in userlore.graph.__all__:
        assert getattr(userlore.graph, name) is not None


def test_integrations_export_the_adapters() -> None:
    mine = {
        "MEMORY_ACCESS_SECTION",
        "UserloreAgentState",
        "UserloreMiddleware",
        "UserloreRetriever",
    }
    assert mine <= set(userlore.integrations.__all__)
    for name in userlore.integrations.__all__:
        assert getattr(userlore.integrations, name) is not None


def test_retriever_import_does_not_load_langchain_agents() -> None:
    code = (
        "import sys; from userlore.integrations import UserloreRetriever; "
        "print('langchain.agents' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
