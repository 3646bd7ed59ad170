"""Every ``langgraph.json`` entry loads, builds nothing at import, and compiles without a
checkpointer or store baked in."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from langgraph.pregel import Pregel

from userlore.graph import serve

ROOT = Path(__file__).resolve().parents[2]
SPEC = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))
ENTRIES = sorted(SPEC["graphs"].items())


def load(path: str, name: str) -> Any:
    module_name = f"_lgjson_{name}"
    spec = importlib.util.spec_from_file_location(module_name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USERLORE_DATABASE_URL", f"sqlite:///{tmp_path / 'lore.db'}")
    monkeypatch.delenv("USERLORE_CONFIG", raising=False)
    monkeypatch.delenv("USERLORE_REVIEW_MODEL", raising=False)
    monkeypatch.setattr(serve, "_OPEN", {})


def test_spec_names_both_graphs() -> None:
    assert set(SPEC["graphs"]) == {"understanding", "review"}
    assert SPEC["dependencies"] == ["."]


@pytest.mark.parametrize(("name", "target"), ENTRIES, ids=[n for n, _ in ENTRIES])
def test_entry_loads_and_compiles(name: str, target: str) -> None:
    path, attr = target.removeprefix("./").split(":")
    module = load(path, name)
    assert not any(isinstance(v, Pregel) for v in vars(module).values())  # nothing at import
    assert serve._OPEN == {}  # and no database opened
    factory = getattr(module, attr)
    graph = factory({"configurable": {}})
    assert isinstance(graph, Pregel)
    assert graph.checkpointer is None and graph.store is None
    drawn = graph.get_graph()
    assert "__start__" in drawn.nodes and len(drawn.nodes) >= 4
    for handle in serve._OPEN.values():
        handle.close()


def test_review_model_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USERLORE_REVIEW_MODEL", "openai:gpt-4o-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "fake-key-for-construction-only")
    graph = serve.understanding_graph_from_env()
    assert "review" in graph.get_graph().nodes
    for handle in serve._OPEN.values():
        handle.close()
