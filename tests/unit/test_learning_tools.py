"""LangChain tools for the facet controls: scope bound at construction, JSON out, errors as text."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from langchain_core.tools import BaseTool

from userlore import InvalidInputError, ScopeError, Userlore
from userlore.integrations.facet_tools import FACET_TOOL_NAMES, make_facet_tools
from userlore.learning import CueFamily, EvidenceRef, FacetClass, LearningCandidate

Make = Callable[..., Userlore]


def by_name(tools: list[BaseTool]) -> dict[str, BaseTool]:
    return {t.name: t for t in tools}


def seed(lore: Userlore, scope: str, value: str) -> None:
    lore.facets.cache.submit(
        LearningCandidate(
            scope, FacetClass.STYLE, "verbosity", value, CueFamily.BEHAVIORAL,
            EvidenceRef("heuristic", text=f"turn {i}: {value} please"),
        )
        for i in range(3)
    )  # fmt: skip


def test_tool_names_and_schemas(auto_lore: Userlore) -> None:
    tools = make_facet_tools(auto_lore, scope="u1")
    assert [t.name for t in tools] == list(FACET_TOOL_NAMES)
    for tool in tools:
        assert "scope" not in tool.args  # never a model-chosen argument
    assert set(by_name(tools)["update_facet"].args) == {"facet_class", "key", "value"}
    with pytest.raises(InvalidInputError):
        make_facet_tools(auto_lore, scope="u1", include=["drop_database"])
    with pytest.raises(ScopeError):
        make_facet_tools(auto_lore, scope="not a scope")


def test_tools_operate_on_their_scope_only(make_lore: Make) -> None:
    lore = make_lore("auto")
    seed(lore, "alice", "terse")
    seed(lore, "bob", "detailed")
    tools = by_name(make_facet_tools(lore, scope="alice"))
    listed = json.loads(tools["list_facets"].invoke({}))
    assert [(f["canonical_key"], f["value"]) for f in listed] == [("style/verbosity", "terse")]
    assert json.loads(tools["list_facets"].invoke({"facet_class": "identity"})) == []
    got = json.loads(tools["get_facet"].invoke({"facet_class": "style", "key": "verbosity"}))
    assert got["value"] == "terse" and got["state"] == "active"
    updated = json.loads(
        tools["update_facet"].invoke({"facet_class": "style", "key": "verbosity", "value": "tldr"})
    )
    assert updated["value"] == "tldr" and updated["user_state"] == "pinned"
    assert lore.facets.get("bob", "style", "verbosity").value == "detailed"
    stats = json.loads(tools["cache_stats"].invoke({}))
    assert stats["active"] == 1 and stats["pinned"] == 1
    about = json.loads(tools["about_me"].invoke({}))
    assert about[0]["value"] == "tldr"
    forgot = json.loads(tools["forget_facet"].invoke({"facet_class": "style", "key": "verbosity"}))
    assert forgot == {"class": "style", "key": "verbosity", "state": "dropped"}
    assert json.loads(tools["list_facets"].invoke({})) == []
    assert json.loads(tools["rebuild_cache"].invoke({}))["total_size"] == 0
    assert json.loads(tools["reset_cache"].invoke({})) == {"cleared": 0}


def test_tool_errors_come_back_as_text(auto_lore: Userlore) -> None:
    tools = by_name(make_facet_tools(auto_lore, scope="u1"))
    out = tools["pin_facet"].invoke({"facet_class": "style", "key": "verbosity"})
    assert out.startswith("RecordNotFoundError")
    bad = tools["get_facet"].invoke({"facet_class": "style", "key": "Not A Key"})
    assert bad.startswith("InvalidInputError")


async def test_async_tool(auto_lore: Userlore) -> None:
    seed(auto_lore, "u1", "terse")
    tools = by_name(make_facet_tools(auto_lore, scope="u1"))
    listed = json.loads(await tools["list_facets"].ainvoke({}))
    assert listed[0]["value"] == "terse"
