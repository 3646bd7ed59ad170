"""Isolation as an invariant (issue 15): random operations over lookalike scopes, every surface.

A hypothesis state machine drives two or three scopes with lookalike names (``alice``,
``alice:x``, ``Alice``...) through the facade, the HTTP gateway, the MCP server, the LangGraph
``BaseStore``, the LangChain memory and facet tools, the retriever and the agent middleware (its
hooks driven directly with a fake runtime). The tools, the retriever and the middleware are built
once and serve every scope: each call names its user per call (``configurable``/``context``), as
one compiled agent serving many users does. Everything a scope writes carries that scope's
marker word (``zq…``), so a leak is visible byte for byte. After every step:

- nothing returned to a scope (records, plans, evidence, traces, search hits, exports, errors,
  HTTP bodies, MCP results) holds another scope's marker or one of its ids;
- what another scope can observe (its export, consents and quality report) did not change;
- in the database, no row of one scope points at a row of another (``tests/support/isolation.py``).

Every id of another scope sent through an id-taking call must fail exactly like an id that
exists nowhere (same error type, same text once the id itself is blanked out).

The tampered-import rule (import documents whose ids point into another scope) is gated by
``TAMPERED_IMPORT``; it stays on: it found the import hole the issue describes.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from langchain.agents.middleware.types import ModelRequest, ModelResponse
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import BaseTool
from langgraph.store.base import GetOp, ListNamespacesOp, MatchCondition, PutOp, SearchOp
from mcp import Client

from tests.conftest import FakeClock, sequential_ids
from tests.support.chat_models import ScriptedChatModel
from tests.support.isolation import cross_scope_links, foreign_ids_in_traces, owned_ids
from userlore import CandidateInput, ScopeError, Userlore, UserloreError
from userlore.integrations import UserloreMiddleware, UserloreRetriever
from userlore.integrations.facet_tools import make_facet_tools
from userlore.integrations.tools import make_memory_tools
from userlore.mcp import MemoryServerSettings, build_mcp_server
from userlore.server import create_app
from userlore.sources.adapters import MarkdownVaultAdapter
from userlore.store.langgraph_store import UserloreStore

TAMPERED_IMPORT = True
"""Run the tampered-import rule (documents pointing at another scope's ids). Keep it on."""

SCOPE_POOL = ("alice", "alice:x", "Alice", "alice/x", "a_lice", "alice.x", "al-ice", "alice@x")
INVALID_SCOPES = ("al%ice", "alice ", " alice", "", "ali ce", "alice\n", "alice:x;", "alïce")
# "alice" in session "x:default" and "alice:x" in session "default" once shared a source id.
SESSION_KEYS = (None, "x:default", "default", "s1")
TURN_IDS = ("t1", None, "t2")
CATEGORIES = ("health", "religion")
MARKER_LETTERS = "bcdfghjklmnpqrstvwxz"
TURNS = (
    "I prefer {m} tea.",
    "My favourite editor is {m}.",
    "Always answer with {m} first.",
    "call me {m}",
    "I have diabetes and {m} helps me cope.",
    "We are {m} fans.",
)
# Bounded for the suite's time (each example runs ~20 steps over every surface); set
# USERLORE_FUZZ_EXAMPLES for a deeper run, e.g. 200 before a release.
EXAMPLES = {
    "sqlite": int(os.environ.get("USERLORE_FUZZ_EXAMPLES", "12")),
    "postgres": int(os.environ.get("USERLORE_FUZZ_EXAMPLES", "8")),
}
STEPS = 20


def _text(value: Any) -> str:
    if isinstance(value, BaseException):
        return f"{type(value).__name__}: {value}"
    try:
        return json.dumps(value, default=repr, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _missing_like(an_id: str) -> str:
    """An id of the same shape that exists nowhere."""
    prefix, _, rest = an_id.partition("_")
    return f"{prefix}_{'9' * max(len(rest), 6)}"


def _blank(text: str, an_id: str) -> str:
    return text.replace(an_id, "<ID>")


def _as(scope: str) -> dict[str, Any]:
    """A run config naming ``scope`` as its user (what one agent serving many users passes)."""
    return {"configurable": {"user_id": scope}}


class _Runtime:
    """The slice of LangGraph's ``Runtime`` the middleware reads: the run's context."""

    def __init__(self, scope: str) -> None:
        self.context = {"user_id": scope}
        self.store = None


class IsolationMachine(RuleBasedStateMachine):
    """Random operations over lookalike scopes; every result is checked for foreign bytes."""

    open_lore: Callable[[str], Userlore]

    def __init__(self) -> None:
        super().__init__()
        self.lore: Userlore | None = None
        self.client: TestClient | None = None
        self.vault: Path | None = None

    # -- setup ----------------------------------------------------------------------------------

    @initialize(
        scopes=st.lists(st.sampled_from(SCOPE_POOL[1:]), min_size=1, max_size=2, unique=True).map(
            lambda rest: [SCOPE_POOL[0], *rest]
        ),
        mode=st.sampled_from(["auto", "confirmWrite"]),
        suffixes=st.lists(st.text(MARKER_LETTERS, min_size=6, max_size=6), min_size=3, max_size=3),
    )
    def setup(self, scopes: list[str], mode: str, suffixes: list[str]) -> None:
        self.scopes = scopes
        self.lore = type(self).open_lore(mode)
        # The third letter differs per scope, so no marker is ever a substring of another.
        self.marker = {s: f"zq{'aeiou'[i]}{suffixes[i]}" for i, s in enumerate(scopes)}
        self.token = {s: f"fuzz-token-{i}-" + "0" * 24 for i, s in enumerate(scopes)}
        grants = {self.token[s]: {"scope": s, "agentId": "fuzz"} for s in scopes}
        self.client = TestClient(create_app(self.lore, grants), raise_server_exceptions=False)
        self.client.__enter__()
        self.mcp = {
            s: build_mcp_server(
                self.lore,
                MemoryServerSettings(
                    scope=s,
                    agent_id="fuzz",
                    client="fuzz",
                    device="d",
                    instance="i",
                    allow_purge=True,
                ),
            )
            for s in scopes
        }
        self.store = UserloreStore(self.lore, namespace_template=("{user_id}",))
        # Built once, shared by every scope: the user is named per call.
        tools = make_memory_tools(self.lore, agent_id="fuzz") + make_facet_tools(self.lore)
        self.tools: dict[str, BaseTool] = {t.name: t for t in tools}
        self.retriever = UserloreRetriever(lore=self.lore, k=20)
        self.middleware = UserloreMiddleware(self.lore, agent_id="fuzz")
        self.counter = 0
        self.owner: dict[str, str] = {}  # every id ever seen -> the scope that owned it
        self.kind_of: dict[str, str] = {}
        self.actor: str | None = None
        self.prints: dict[str, Any] = {}
        for scope in scopes:  # every scope starts with a turn and a memory to aim at
            self.db.observe(scope, "user", self.content(scope, "Call me {m}."), "s0")
            self.db.remember(scope, self.content(scope), path="ops", memory_type="semantic")
        self._refresh_ids()
        self.prints = {s: self._fingerprint(s) for s in scopes}

    def teardown(self) -> None:
        if self.vault is not None:
            shutil.rmtree(self.vault, ignore_errors=True)
        if self.client is not None:
            self.client.__exit__(None, None, None)
        if self.lore is not None:
            self.lore.close()

    # -- helpers --------------------------------------------------------------------------------

    @property
    def db(self) -> Userlore:
        assert self.lore is not None
        return self.lore

    def content(self, scope: str, template: str = "Note {m} number {n}.") -> str:
        self.counter += 1
        return template.format(m=self.marker[scope], n=self.counter)

    def _refresh_ids(self) -> None:
        for kind, ids in owned_ids(self.db.store.engine).items():
            for an_id, scope in ids.items():
                self.owner[an_id] = scope
                self.kind_of[an_id] = kind

    def ids_of(self, scope: str, kind: str) -> list[str]:
        current = owned_ids(self.db.store.engine).get(kind, {})
        return sorted(i for i, s in current.items() if s == scope)

    def foreign(self, scope: str, kind: str | None = None) -> list[str]:
        """Ids another scope owns (or owned): candidates for cross-scope probes."""
        return sorted(
            i
            for i, s in self.owner.items()
            if s != scope and (kind is None or self.kind_of.get(i) == kind)
        )

    def seen(self, scope: str, value: Any, *, echo: tuple[str, ...] = ()) -> str:
        """Assert that ``value`` (returned to ``scope``) holds nothing of another scope."""
        text = _text(value)
        for an_id in echo:
            text = _blank(text, an_id)
        for other, marker in self.marker.items():
            if other != scope:
                assert marker not in text, f"{other!r}'s marker reached {scope!r}: {text[:2000]}"
        for an_id, other in self.owner.items():
            if other != scope:
                assert an_id not in text, f"{other!r}'s id {an_id} reached {scope!r}: {text[:2000]}"
        return text

    def attempt(self, fn: Callable[[], Any]) -> tuple[str, Any]:
        """Run a facade call: ``("ok", result)`` or ``("error", exc)`` for a typed error."""
        try:
            return "ok", fn()
        except UserloreError as exc:
            return "error", exc

    def http(self, scope: str, method: str, path: str, body: Any = None) -> Any:
        assert self.client is not None
        headers = {"Authorization": f"Bearer {self.token[scope]}"}
        response = self.client.request(method, path, headers=headers, json=body)
        assert response.status_code < 500, (method, path, response.status_code, response.text)
        return response

    def mcp_call(self, scope: str, tool: str, args: dict[str, Any]) -> Any:
        server = self.mcp[scope]

        async def call() -> Any:
            async with Client(server) as client:
                return await client.call_tool(tool, args)

        return asyncio.run(call())

    def _fingerprint(self, scope: str) -> dict[str, Any]:
        """What ``scope`` can observe of itself; another scope's step must not change it."""
        doc = self.db.export(scope)
        doc.pop("exported_at")
        return {
            "export": doc,
            "consents": sorted(self.db.consents(scope)),
            "quality": self.db.quality(scope).as_dict(),
            "visible": [(i.key, i.value) for i in self.search(scope)],
        }

    def search(self, scope: str) -> list[Any]:
        """The scope's BaseStore view (LangGraph forbids '.' in labels: no such view)."""
        return [] if "." in scope else self.store.search((scope,), limit=100)

    def act(self, scope: str) -> None:
        self.actor = scope

    def agent_turn(self, scope: str, text: str, *, observe: bool = True) -> list[str]:
        """One agent turn through the shared middleware's hooks, the user named by the context:
        plan (``before_model``), inject (``wrap_model_call``) and, optionally, observe
        (``after_agent``). Returns the system message the model was given."""
        runtime: Any = _Runtime(scope)
        self.counter += 1
        human = HumanMessage(text, id=f"turn-{self.counter}")
        state: dict[str, Any] = {"messages": [human]}
        state.update(self.middleware.before_model(state, runtime) or {})  # type: ignore[arg-type]
        seen: list[str] = []

        def model(request: ModelRequest[Any]) -> ModelResponse[Any]:
            system = request.system_message
            seen.append("" if system is None else system.text)
            return ModelResponse(result=[AIMessage("ok")])

        request = ModelRequest(
            model=ScriptedChatModel(),
            messages=[human],
            system_message=None,
            tool_choice=None,
            tools=[],
            response_format=None,
            state=state,  # type: ignore[arg-type]
            runtime=runtime,
        )
        self.middleware.wrap_model_call(request, model)
        if observe:
            state["messages"] = [human, AIMessage("ok")]
            self.middleware.after_agent(state, runtime)  # type: ignore[arg-type]
            # The observe job runs on the middleware's background thread: finish it inside
            # this step, or it lands during the next actor's step and reads as a leak.
            assert self.middleware.wait_idle(60.0)
        return seen

    # -- invariants -----------------------------------------------------------------------------

    @invariant()
    def no_row_points_into_another_scope(self) -> None:
        if self.lore is None:
            return
        engine = self.db.store.engine
        links = cross_scope_links(engine)
        assert not links, links
        self._refresh_ids()
        ids = {i: s for kinds in owned_ids(engine).values() for i, s in kinds.items()}
        leaks = foreign_ids_in_traces(engine, ids)
        assert not leaks, leaks

    @invariant()
    def other_scopes_saw_no_change(self) -> None:
        if self.lore is None:
            return
        for scope in self.scopes:
            now = self._fingerprint(scope)
            self.seen(scope, now)
            if scope != self.actor:
                assert now == self.prints[scope], f"{self.actor!r}'s step changed {scope!r}"
            self.prints[scope] = now
        self.actor = None

    # -- write path -----------------------------------------------------------------------------

    @rule(data=st.data())
    def observe(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        template = data.draw(st.sampled_from(TURNS))
        session_key = data.draw(st.sampled_from(SESSION_KEYS))
        turn_id = data.draw(st.sampled_from(TURN_IDS))
        self.act(scope)
        # A valid turn of one scope is never refused because of what another scope holds.
        result = self.db.observe(
            scope, "user", self.content(scope, template), session_key, turn_id=turn_id
        )
        self.seen(scope, result)

    @rule(data=st.data())
    def observe_lookalike_turns(self, data: st.DataObject) -> None:
        """Two scopes whose names differ by a ``:suffix`` record turns with the same turn id in
        sessions chosen so that a naive ``conversation:<scope>:<session>`` id would coincide."""
        first, second = data.draw(st.permutations(self.scopes))[:2]
        turn_id = data.draw(st.sampled_from(TURN_IDS[:1] + TURN_IDS[2:]))
        session = data.draw(st.sampled_from(["default", "s1"]))
        crafted = {first: session, second: session}
        short, long = sorted((first, second), key=len)
        if long.startswith(short + ":"):
            crafted[short] = f"{long[len(short) + 1 :]}:{session}"
        for scope in (first, second):
            self.act(scope)
            result = self.db.observe(
                scope,
                "user",
                self.content(scope, "I prefer {m} tea."),
                crafted[scope],
                turn_id=turn_id,
            )
            self.seen(scope, result)
            self.other_scopes_saw_no_change()

    @rule(data=st.data())
    def ingest_same_source_id(self, data: st.DataObject) -> None:
        """Every scope syncs a markdown folder under one guessable source id: each gets its own
        source, none is refused, none sees another's pages."""
        scope = data.draw(st.sampled_from(self.scopes))
        synthesize = data.draw(st.booleans())
        if self.vault is None:
            self.vault = Path(tempfile.mkdtemp(prefix="userlore-fuzz-"))
        folder = self.vault / str(self.scopes.index(scope))
        folder.mkdir(exist_ok=True)
        page = data.draw(st.sampled_from(["a.md", "b.md"]))
        (folder / page).write_text(
            self.content(scope, "# Notes\nThe build of {m} uses Bazel {n}.\n")
        )
        adapter = MarkdownVaultAdapter(folder, source_instance_id="markdown:shared-notes")
        self.act(scope)
        report = self.db.ingest(adapter, scope=scope, synthesize=synthesize)
        assert report.status == "succeeded", report
        self.seen(scope, [report, self.db.sources.items(scope)])

    @rule(data=st.data())
    def write(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        self.act(scope)
        _kind, outcome = self.attempt(
            lambda: self.db.write(scope, CandidateInput(kind="note", content=self.content(scope)))
        )
        self.seen(scope, outcome)

    @rule(data=st.data())
    def remember(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        surface = data.draw(
            st.sampled_from(
                ["facade", "http", "mcp", "store", "tools", "facet tools", "middleware"]
            )
        )
        content = self.content(scope)
        path = data.draw(st.sampled_from(["ops", "ops/x", "notes"]))
        self.act(scope)
        out: Any = None
        if surface == "facade":
            out = self.db.remember(scope, content, path=path, memory_type="semantic")
        elif surface == "http":
            body = {"content": content, "path": path, "memoryType": "semantic"}
            out = self.http(scope, "POST", "/api/user-context/memories", body).json()
        elif surface == "mcp":
            res = self.mcp_call(
                scope, "remember", {"content": content, "path": path, "memory_type": "semantic"}
            )
            assert not res.is_error, res.content
            out = [res.structured_content, res.content]
        elif surface == "tools":
            args = {"content": content, "path": path, "memory_type": "semantic"}
            out = self.tools["remember"].invoke(args, _as(scope))
            assert not out.startswith(("ScopeError", "InvalidInputError")), out
        elif surface == "facet tools":
            args = {"facet_class": "goal", "key": "focus", "value": content}
            out = self.tools["update_facet"].invoke(args, _as(scope))
        elif surface == "middleware":
            out = self.agent_turn(scope, self.content(scope, "I prefer {m} tea."))
        elif "." not in scope:  # LangGraph namespace labels cannot hold '.'
            key = data.draw(st.sampled_from(["k1", "k2"]))
            out = self.store.batch([PutOp((scope, *path.split("/")), key, {"content": content})])
        self.seen(scope, out)

    @rule(data=st.data())
    def review(self, data: st.DataObject) -> None:
        """A lifecycle step on one of the scope's own records, through any surface."""
        scope = data.draw(st.sampled_from(self.scopes))
        own = self.ids_of(scope, "record")
        if not own:
            return
        record_id = data.draw(st.sampled_from(own))
        action = data.draw(
            st.sampled_from(
                [
                    "approve",
                    "reject",
                    "update",
                    "forget",
                    "restore",
                    "pin",
                    "unpin",
                    "get",
                    "history",
                    "evidence",
                    "update_memory",
                ]
            )
        )
        surface = data.draw(st.sampled_from(["facade", "http", "mcp", "tools"]))
        self.act(scope)
        content = self.content(scope, "Edited {m} {n}.")
        if surface == "facade":
            calls: dict[str, Callable[[], Any]] = {
                "approve": lambda: self.db.approve(record_id, scope=scope),
                "reject": lambda: self.db.reject(record_id, scope=scope),
                "update": lambda: self.db.update(record_id, content, scope=scope),
                "forget": lambda: self.db.forget(record_id, scope=scope),
                "restore": lambda: self.db.restore(record_id, scope=scope),
                "pin": lambda: self.db.pin(record_id, scope=scope),
                "unpin": lambda: self.db.unpin(record_id, scope=scope),
                "get": lambda: self.db.get(record_id, scope=scope),
                "history": lambda: self.db.history(record_id, scope=scope),
                "evidence": lambda: self.db.evidence(record_id, scope=scope),
                "update_memory": lambda: self.db.update_memory(record_id, content, scope=scope),
            }
            self.seen(scope, self.attempt(calls[action]))
        elif surface == "http":
            method, path, body = _http_call(action, record_id, content)
            self.seen(scope, self.http(scope, method, path, body).text)
        elif surface == "tools":
            name, args = _tool_call(action, record_id, content)
            self.seen(scope, self.tools[name].invoke(args, _as(scope)))
        else:
            tool, args = _mcp_call(action, record_id, content)
            res = self.mcp_call(scope, tool, args)
            self.seen(scope, [res.structured_content, _text(res.content)])

    @rule(data=st.data())
    def consent(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        category = data.draw(st.sampled_from(CATEGORIES))
        verb = data.draw(st.sampled_from(["grant", "revoke"]))
        self.act(scope)
        if data.draw(st.booleans()):
            url = f"/api/user-context/consents/{category}/{verb}"
            self.seen(scope, self.http(scope, "POST", url).text)
        elif verb == "grant":
            self.db.grant_consent(scope, category)
        else:
            self.db.revoke_consent(scope, category)

    # -- read path ------------------------------------------------------------------------------

    @rule(data=st.data())
    def read(self, data: st.DataObject) -> None:
        """Plans, recall, search and every listing, through every surface."""
        scope = data.draw(st.sampled_from(self.scopes))
        # Queries name the scope's own marker, the others' markers, or lookalike words.
        others = [self.marker[s] for s in self.scopes if s != scope]
        query = data.draw(
            st.sampled_from([self.marker[scope], *others, "tea editor", "zq*", "alice", "*"])
        )
        surface = data.draw(
            st.sampled_from(["facade", "http", "mcp", "store", "listings", "recall"])
        )
        self.act(scope)
        out: Any = None
        if surface == "facade":
            out = [
                self.db.plan_context(scope, query).as_dict(),
                self.db.records(scope),
                self.db.trash(scope),
                self.db.traces(scope),
                self.db.quality(scope).as_dict(),
                self.db.about_me(scope),
            ]
        elif surface == "recall":
            out = self.attempt(lambda: self.db.recall(scope, query).as_dict())
        elif surface == "http":
            out = [
                self.http(scope, "POST", "/api/user-context/plan", {"query": query}).text,
                self.http(
                    scope, "POST", "/api/user-context/memories/recall", {"query": query}
                ).text,
            ]
        elif surface == "mcp":
            out = [
                _text(self.mcp_call(scope, "plan_context", {"query": query}).content),
                _text(self.mcp_call(scope, "recall", {"query": query}).content),
                _text(self.mcp_call(scope, "trash", {}).content),
                _text(self.mcp_call(scope, "about_me", {}).content),
            ]
        elif surface == "store" and "." not in scope:
            results = self.store.batch(
                [
                    SearchOp((scope,), query=query, limit=50),
                    SearchOp((scope,), limit=50),
                    GetOp((scope, "ops"), "k1"),
                    ListNamespacesOp(match_conditions=(MatchCondition("prefix", (scope,)),)),
                ]
            )
            hits = [*results[0], *results[1]]  # type: ignore[misc]
            assert all(hit.namespace[0] == scope for hit in hits), hits
            assert all(ns[0] == scope for ns in results[3]), results[3]  # type: ignore[union-attr]
            out = results
        elif surface == "listings":
            out = [
                self.http(scope, "GET", path).text
                for path in (
                    "/api/user-context/memories",
                    "/api/user-context/candidates",
                    "/api/user-context/trash",
                    "/api/user-context/traces",
                    "/api/user-context/quality",
                    "/api/user-context/consents",
                    "/api/user-context/whoami",
                    "/api/knowledge/source-items",
                    "/api/knowledge/source-changes",
                    "/api/knowledge/sync-runs",
                    "/api/knowledge/sources",
                )
            ]
        self.seen(scope, out)

    @rule(data=st.data())
    def one_agent_many_users(self, data: st.DataObject) -> None:
        """The shared tools, retriever and middleware, asked by one scope for every scope's
        marker: they answer what the facade answers for that scope (so no count includes
        another scope) and nothing of another scope."""
        scope = data.draw(st.sampled_from(self.scopes))
        self.act(scope)
        own = set(self.ids_of(scope, "record"))
        out: list[Any] = []
        for q in self.marker.values():
            recall = json.loads(self.tools["recall"].invoke({"query": q, "k": 20}, _as(scope)))
            direct = self.db.memory.recall(scope, q, k=20).as_dict()
            assert recall["citations"] == direct["citations"], (recall, direct)
            docs = self.retriever.invoke(q, _as(scope))
            assert {d.metadata["record_id"] for d in docs} <= own, docs
            out += [recall, [(d.page_content, d.metadata) for d in docs]]
            out.append(self.agent_turn(scope, q, observe=False))
        stats = json.loads(self.tools["cache_stats"].invoke({}, _as(scope)))
        assert stats == json.loads(json.dumps(self.db.facets.stats(scope), default=str))
        out += [
            stats,
            self.tools["list_facets"].invoke({}, _as(scope)),
            self.tools["about_me"].invoke({}, _as(scope)),
        ]
        self.seen(scope, out)

    # -- lifecycle ------------------------------------------------------------------------------

    @rule(data=st.data())
    def export(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        self.act(scope)
        if data.draw(st.booleans()):
            self.seen(scope, self.http(scope, "GET", "/api/user-context/export").json())
        else:
            self.seen(scope, self.db.export(scope))

    @rule(data=st.data())
    def purge(self, data: st.DataObject) -> None:
        if data.draw(st.integers(0, 2)):  # rarer than the other steps: it empties a scope
            return
        scope = data.draw(st.sampled_from(self.scopes))
        surface = data.draw(st.sampled_from(["facade", "http", "mcp"]))
        path = data.draw(st.sampled_from([None, None, "ops"]))
        self.act(scope)
        if surface == "facade":
            out: Any = self.db.purge(scope, path).as_dict()
        elif surface == "http":
            out = self.http(
                scope, "POST", "/api/user-context/purge", {"confirm": True, "pathPrefix": path}
            ).json()
        else:
            out = self.mcp_call(scope, "purge", {"path_prefix": path}).structured_content
        self.seen(scope, out)
        assert out["residual_rows"] == 0, out

    @rule(data=st.data())
    def reimport_own_export(self, data: st.DataObject) -> None:
        """Export a scope, purge it, import the document back: all of it returns, nothing else."""
        scope = data.draw(st.sampled_from(self.scopes))
        via_http = data.draw(st.booleans())
        self.act(scope)
        doc = self.db.export(scope)
        self.db.purge(scope)
        if via_http:
            response = self.http(scope, "POST", "/api/user-context/import", doc)
            assert response.status_code == 200, response.text
            self.seen(scope, response.text)
        else:
            self.seen(scope, self.db.import_(doc, scope).as_dict())
        again = self.db.export(scope)
        assert again["counts"] == doc["counts"]

    @precondition(lambda self: TAMPERED_IMPORT)
    @rule(data=st.data())
    def tampered_import(self, data: st.DataObject) -> None:
        """An import whose ids point at another scope's rows is refused or remapped, never linked.

        Refusal must not reveal whether the id exists elsewhere: the error is the same as for
        an id that exists nowhere.
        """
        scope = data.draw(st.sampled_from(self.scopes))
        doc = self.db.export(scope)
        targets = {
            "evidence": self.foreign(scope, "source item"),
            "supersedes": self.foreign(scope, "record"),
            "relation": self.foreign(scope, "record"),
            "version": self.foreign(scope, "record"),
        }
        usable = sorted(k for k, v in targets.items() if v)
        if not doc["records"] or not usable:
            return
        how = data.draw(st.sampled_from(usable))
        victim = data.draw(st.sampled_from(targets[how]))
        via_http = data.draw(st.booleans())
        self.act(scope)

        def tampered(target: str) -> dict[str, Any]:
            bad = copy.deepcopy(doc)
            mine = bad["records"][0]
            at = mine["created_at"]
            if how == "evidence":
                bad["evidence"].append(
                    {
                        "scope": scope,
                        "record_id": mine["id"],
                        "source_item_id": target,
                        "relation": "stated_in",
                        "created_at": at,
                    }
                )
            elif how == "supersedes":
                mine["supersedes_record_id"] = target
            elif how == "relation":
                bad["relations"].append(
                    {
                        "scope": scope,
                        "from_record_id": mine["id"],
                        "to_record_id": target,
                        "relation_type": "supersedes",
                        "created_at": at,
                    }
                )
            else:
                shot = next(v for v in bad["versions"] if v["record_id"] == mine["id"])
                bad["versions"].append({**shot, "record_id": target, "version": 99})
            bad["counts"] = {k: len(v) for k, v in bad.items() if isinstance(v, list)}
            return bad

        def run(target: str) -> tuple[str, str]:
            self.db.purge(scope)
            if via_http:
                response = self.http(scope, "POST", "/api/user-context/import", tampered(target))
                kind = "ok" if response.status_code == 200 else f"http {response.status_code}"
                return kind, _blank(response.text, target)
            kind, out = self.attempt(lambda: self.db.import_(tampered(target), scope))
            return kind, _blank(_text(out if kind == "error" else out.as_dict()), target)

        nowhere = _missing_like(victim)
        blind = run(nowhere)
        real = run(victim)
        self.seen(scope, real[1])
        if real[0] != "ok":
            assert real == blind, f"import reveals that {victim} exists: {real} vs {blind}"
        # Whatever happened, the importer must not reach the victim's data (checked by the
        # invariants and here through the evidence of every record it now holds).
        for record_id in self.ids_of(scope, "record"):
            self.seen(scope, self.db.evidence(record_id, scope=scope))
            self.seen(
                scope,
                self.http(scope, "GET", f"/api/user-context/memories/{record_id}/evidence").text,
            )

    # -- another scope's ids through every id-taking call ---------------------------------------

    @rule(data=st.data())
    def foreign_id(self, data: st.DataObject) -> None:
        scope = data.draw(st.sampled_from(self.scopes))
        pool = self.foreign(scope)
        if not pool:
            return
        victim = data.draw(st.sampled_from(pool))
        probe = data.draw(st.sampled_from(sorted(PROBES)))
        self.act(scope)
        nowhere = _missing_like(victim)
        blind = PROBES[probe](self, scope, nowhere)
        real = PROBES[probe](self, scope, victim)
        self.seen(scope, real, echo=(victim,))
        assert _blank(real, victim) == _blank(blind, nowhere), (
            f"{probe} treats {self.kind_of.get(victim)} {victim} of "
            f"{self.owner[victim]!r} differently from a missing id: {real!r} vs {blind!r}"
        )

    @rule(data=st.data())
    def invalid_scope(self, data: st.DataObject) -> None:
        """A malformed scope is refused with ``ScopeError`` and writes nothing."""
        bad = data.draw(st.sampled_from(INVALID_SCOPES))
        op = data.draw(st.sampled_from(["observe", "remember", "write", "plan", "export"]))
        scope = self.scopes[0]
        calls: dict[str, Callable[[], Any]] = {
            "observe": lambda: self.db.observe(bad, "user", self.content(scope)),
            "remember": lambda: self.db.remember(
                bad, self.content(scope), path="x", memory_type="semantic"
            ),
            "write": lambda: self.db.write(bad, CandidateInput(kind="note", content="x")),
            "plan": lambda: self.db.plan_context(bad, "x"),
            "export": lambda: self.db.export(bad),
        }
        self.act("")  # nobody: no scope may change
        with pytest.raises(ScopeError):
            calls[op]()


# -- probes: one id-taking call each; the result as comparable text ------------------------------


def _outcome(machine: IsolationMachine, fn: Callable[[], Any]) -> str:
    kind, value = machine.attempt(fn)
    if kind == "ok":
        return f"ok {_text(value)[:200] if value is None else 'value'}"
    return _text(value)


def _record_probes() -> dict[str, Callable[[IsolationMachine, str, str], str]]:
    def facade(name: str) -> Callable[[IsolationMachine, str, str], str]:
        def probe(m: IsolationMachine, scope: str, rid: str) -> str:
            content = m.content(scope, "Probe {m} {n}.")
            calls: dict[str, Callable[[], Any]] = {
                "get": lambda: m.db.get(rid, scope=scope),
                "history": lambda: m.db.history(rid, scope=scope),
                "evidence": lambda: m.db.evidence(rid, scope=scope),
                "approve": lambda: m.db.approve(rid, scope=scope),
                "reject": lambda: m.db.reject(rid, scope=scope),
                "update": lambda: m.db.update(rid, content, scope=scope),
                "forget": lambda: m.db.forget(rid, scope=scope),
                "restore": lambda: m.db.restore(rid, scope=scope),
                "pin": lambda: m.db.pin(rid, scope=scope),
                "unpin": lambda: m.db.unpin(rid, scope=scope),
                "update_memory": lambda: m.db.update_memory(rid, content, scope=scope),
                "memory.forget": lambda: m.db.memory.forget(scope, rid),
                "write supersedes": lambda: m.db.write(
                    scope, CandidateInput(kind="note", content=content, supersedes_record_id=rid)
                ),
                "write source item": lambda: m.db.write(
                    scope, CandidateInput(kind="note", content=content, source_item_id=rid)
                ),
                "source item": lambda: m.db.sources.item(scope, rid),
            }
            return _outcome(m, calls[name])

        return probe

    def http(action: str) -> Callable[[IsolationMachine, str, str], str]:
        def probe(m: IsolationMachine, scope: str, rid: str) -> str:
            method, path, body = _http_call(action, rid, m.content(scope, "Probe {m} {n}."))
            response = m.http(scope, method, path, body)
            return f"{response.status_code} {response.text}"

        return probe

    def mcp(action: str) -> Callable[[IsolationMachine, str, str], str]:
        def probe(m: IsolationMachine, scope: str, rid: str) -> str:
            tool, args = _mcp_call(action, rid, m.content(scope, "Probe {m} {n}."))
            res = m.mcp_call(scope, tool, args)
            return f"{res.is_error} {_text(res.content)}"

        return probe

    def store_get(m: IsolationMachine, scope: str, rid: str) -> str:
        if "." in scope:
            return "no BaseStore view"
        return _text(m.store.batch([GetOp((scope,), rid), GetOp((scope, "ops"), rid)]))

    def store_delete(m: IsolationMachine, scope: str, rid: str) -> str:
        if "." in scope:
            return "no BaseStore view"
        try:
            return _text(m.store.batch([PutOp((scope,), rid, None)]))
        except UserloreError as exc:
            return _text(exc)

    probes: dict[str, Callable[[IsolationMachine, str, str], str]] = {}
    for name in (
        "get",
        "history",
        "evidence",
        "approve",
        "reject",
        "update",
        "forget",
        "restore",
        "pin",
        "unpin",
        "update_memory",
        "memory.forget",
        "write supersedes",
        "write source item",
        "source item",
    ):
        probes[f"facade {name}"] = facade(name)
    for action in (
        "get",
        "history",
        "evidence",
        "approve",
        "reject",
        "update",
        "forget",
        "restore",
        "pin",
        "unpin",
        "edit",
        "source item",
        "trace feedback",
    ):
        probes[f"http {action}"] = http(action)
    for action in ("update_memory", "forget", "restore", "history"):
        probes[f"mcp {action}"] = mcp(action)
    probes["store get"] = store_get
    probes["store delete"] = store_delete

    def tool(action: str) -> Callable[[IsolationMachine, str, str], str]:
        def probe(m: IsolationMachine, scope: str, rid: str) -> str:
            name, args = _tool_call(action, rid, m.content(scope, "Probe {m} {n}."))
            return str(m.tools[name].invoke(args, _as(scope)))

        return probe

    for action in ("update_memory", "forget"):
        probes[f"tool {action}"] = tool(action)
    return probes


def _http_call(action: str, an_id: str, content: str) -> tuple[str, str, Any]:
    memories = f"/api/user-context/memories/{an_id}"
    candidates = f"/api/user-context/candidates/{an_id}"
    return {
        "approve": ("POST", f"{candidates}/approve", {}),
        "reject": ("POST", f"{candidates}/reject", None),
        "edit": ("POST", f"{candidates}/edit", {"content": content}),
        "update": ("PATCH", memories, {"content": content}),
        "update_memory": ("PATCH", memories, {"content": content}),
        "forget": ("DELETE", memories, None),
        "restore": ("POST", f"{memories}/restore", None),
        "pin": ("POST", f"{memories}/pin", None),
        "unpin": ("POST", f"{memories}/unpin", None),
        "get": ("GET", memories, None),
        "history": ("GET", f"{memories}/history", None),
        "evidence": ("GET", f"{memories}/evidence", None),
        "source item": ("GET", f"/api/knowledge/source-items/{an_id}", None),
        "trace feedback": (
            "PATCH",
            f"/api/user-context/traces/{an_id}/feedback",
            {"feedback": "helpful"},
        ),
    }[action]


def _tool_call(action: str, an_id: str, content: str) -> tuple[str, dict[str, Any]]:
    """The shared memory tool (and its arguments) standing in for a lifecycle ``action``."""
    if action in ("forget", "reject"):
        return "forget", {"id": an_id}
    if action in ("update", "update_memory", "approve"):
        return "update_memory", {"id": an_id, "content": content}
    return "recall", {"query": an_id}


def _mcp_call(action: str, an_id: str, content: str) -> tuple[str, dict[str, Any]]:
    if action in ("update", "update_memory", "approve"):
        return "update_memory", {"id": an_id, "content": content}
    if action in ("forget", "reject"):
        return "forget", {"id": an_id}
    if action in ("restore", "pin", "unpin"):
        return "restore", {"id": an_id}
    return "history", {"id": an_id}


PROBES = _record_probes()


# -- the test --------------------------------------------------------------------------------


@pytest.fixture
def open_lore(backend: str, request: pytest.FixtureRequest) -> Iterator[Callable[[str], Userlore]]:
    """A fresh database per hypothesis example (a copy of the migrated template on PostgreSQL)."""

    def factory(mode: str) -> Userlore:
        url = "sqlite://"
        if backend == "postgres":
            url = request.getfixturevalue("postgres_databases").fresh()
        config = {"memory": {"mode": mode, "sources": ["session", "curated", "connected"]}}
        return Userlore.open(url, config=config, clock=FakeClock(), ids=sequential_ids())

    yield factory


def test_no_byte_of_one_scope_reaches_another(
    backend: str, open_lore: Callable[[str], Userlore]
) -> None:
    machine = type("Machine", (IsolationMachine,), {"open_lore": staticmethod(open_lore)})
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=EXAMPLES[backend],
            stateful_step_count=STEPS,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


def test_markers_are_distinct() -> None:
    """The leak check relies on no marker being a substring of another."""
    markers = [f"zq{'aeiou'[i]}{'b' * 6}" for i in range(3)]
    assert all(a not in b for a in markers for b in markers if a != b)
    assert re.fullmatch(r"zq[aeiou][bcdfghjklmnpqrstvwxz]{6}", markers[0])
