"""LangGraph Server wiring: the database URL, the ``graphs/store.py`` store and the auth example."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from userlore.graph import serve
from userlore.integrations.langgraph_store import UserloreStore

ROOT = Path(__file__).resolve().parents[2]
SPEC = json.loads((ROOT / "langgraph.json").read_text(encoding="utf-8"))


def load(entry: str) -> tuple[ModuleType, str]:
    path, attr = entry.removeprefix("./").split(":")
    name = f"_lgjson_{Path(path).stem}"
    spec = importlib.util.spec_from_file_location(name, ROOT / path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module, attr


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("USERLORE_DATABASE_URL", "POSTGRES_URI", "DATABASE_URI", "USERLORE_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(serve, "_OPEN", {})


@pytest.mark.parametrize(
    ("env", "url"),
    [
        ({}, ""),
        ({"DATABASE_URI": "postgres://u@db:5432/x"}, "postgresql+psycopg://u@db:5432/x"),
        (
            {"POSTGRES_URI": "postgresql://u@pg/y?sslmode=disable", "DATABASE_URI": "sqlite://"},
            "postgresql+psycopg://u@pg/y?sslmode=disable",
        ),
        (
            {"USERLORE_DATABASE_URL": "sqlite:///a.db", "POSTGRES_URI": "postgres://u@pg/y"},
            "sqlite:///a.db",
        ),
    ],
)
def test_database_url_precedence(
    env: dict[str, str], url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert serve.database_url_from_env() == url


def test_store_entry_is_the_graphs_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("USERLORE_DATABASE_URL", f"sqlite:///{tmp_path / 'lore.db'}")
    (tmp_path / "auto.json").write_text(json.dumps({"memory": {"mode": "auto"}}), "utf-8")
    monkeypatch.setenv("USERLORE_CONFIG", str(tmp_path / "auto.json"))
    module, attr = load(SPEC["store"]["path"])
    assert serve._OPEN == {}  # nothing opened at import
    store = getattr(module, attr)()
    assert isinstance(store, UserloreStore)
    assert store.lore is serve.lore_from_env()  # the graphs' Userlore, not a second store
    # Outside a run (client.store), the first label is the user, as graphs/auth.py writes it.
    store.put(("alice", "notes"), "tea", {"content": "Alice drinks green tea."})
    store.put(("bob", "notes"), "tea", {"content": "Bob drinks coffee."})
    assert [r.content for r in store.lore.records.list("alice")] == ["Alice drinks green tea."]
    assert [i.value["content"] for i in store.search(("bob",))] == ["Bob drinks coffee."]
    store.lore.close()


def test_auth_example_puts_the_identity_in_front() -> None:
    module, attr = load(SPEC["auth"]["path"])
    assert attr == "auth"
    user = asyncio.run(module.authenticate("Bearer alice-test-token"))
    assert user == {"identity": "alice"}
    for header in (None, "Bearer nope", "Basic alice-test-token"):
        with pytest.raises(Exception, match="unknown bearer token"):
            asyncio.run(module.authenticate(header))

    ctx: Any = SimpleNamespace(user=SimpleNamespace(identity="alice"))
    for given, stored in (
        (("notes",), ("alice", "notes")),
        (("alice", "notes"), ("alice", "notes")),
        (("bob", "notes"), ("alice", "bob", "notes")),
        (None, ("alice",)),
    ):
        value: dict[str, Any] = {"namespace": given}
        asyncio.run(module.own_namespace(ctx, value))
        assert value["namespace"] == stored

    run: dict[str, Any] = {
        "metadata": {},
        "kwargs": {"config": {"configurable": {"user_id": "bob"}}, "context": {"user_id": "bob"}},
    }
    assert asyncio.run(module.run_as_caller(ctx, run)) == {"owner": "alice"}
    assert run["kwargs"]["config"]["configurable"]["user_id"] == "alice"
    assert run["kwargs"]["context"]["user_id"] == "alice"
    assert run["metadata"]["owner"] == "alice"
