"""A real ``langgraph dev`` with this repo's ``langgraph.json``: two users, one server, one store.

The server loads ``graphs/store.py`` (userlore as the platform store) and ``graphs/auth.py``
(bearer tokens, identity in front of every store namespace, runs as the caller). Alice and Bob
talk to it with ``langgraph_sdk``; each must see only their own memories through a graph run
(the planned ``<user-context>`` block) and through ``client.store``.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient

ROOT = Path(__file__).resolve().parents[2]
# `make test` builds the server's own environment (.venv-langgraph, the langgraph-server extra):
# langgraph-api cannot share one with the dev extra. USERLORE_LANGGRAPH_CLI overrides.
CLI = Path(
    os.environ.get("USERLORE_LANGGRAPH_CLI")
    or next(
        (
            str(p)
            for p in (
                ROOT / ".venv-langgraph/bin/langgraph",
                Path(sys.executable).with_name("langgraph"),
            )
            if p.exists()
        ),
        str(ROOT / ".venv-langgraph/bin/langgraph"),
    )
)
ALICE, BOB = "alice-test-token", "bob-test-token"
STARTUP_SECONDS = 300  # a loaded CI machine takes minutes to import langgraph-api


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from langgraph_dev(tmp_path_factory.mktemp("lgserver"))


def langgraph_dev(app: Path, **langgraph_json: Any) -> Iterator[str]:
    """A real ``langgraph dev`` on a copy of this repo's app in ``app``; its URL while running.

    ``langgraph_json`` entries are merged over the repo's ``langgraph.json`` (one level deep).
    """
    if not CLI.exists():
        pytest.skip(f"no langgraph CLI at {CLI}: run `make test` (it builds .venv-langgraph)")
    shutil.copytree(ROOT / "graphs", app / "graphs")
    spec = json.loads((ROOT / "langgraph.json").read_text("utf-8"))
    for key, value in langgraph_json.items():
        spec[key] = {**spec.get(key, {}), **value} if isinstance(value, dict) else value
    (app / "langgraph.json").write_text(json.dumps(spec), "utf-8")
    (app / "userlore.json").write_text(json.dumps({"memory": {"mode": "auto"}}), "utf-8")
    port = _free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "USERLORE_DATABASE_URL": f"sqlite:///{app / 'lore.db'}",
        "USERLORE_CONFIG": str(app / "userlore.json"),
        "LANGSMITH_TRACING": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    }
    env.pop("USERLORE_REVIEW_MODEL", None)
    log = (app / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(CLI), "dev", "--no-browser", "--no-reload", "--port", str(port)],
        cwd=app,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if proc.poll() is not None:
                pytest.fail(f"langgraph dev exited: {(app / 'server.log').read_text()[-3000:]}")
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"langgraph dev not ready: {(app / 'server.log').read_text()[-3000:]}")
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


def client(url: str, token: str) -> SyncLangGraphClient:
    return get_sync_client(url=url, headers={"Authorization": f"Bearer {token}"})


def say(c: SyncLangGraphClient, text: str, **kwargs: Any) -> dict[str, Any]:
    thread = c.threads.create()
    out = c.runs.wait(
        thread["thread_id"],
        "understanding",
        input={"messages": [{"role": "user", "content": text}]},
        **kwargs,
    )
    assert isinstance(out, dict), out
    return out


def contents(items: list[dict[str, Any]]) -> str:
    return json.dumps([item["value"] for item in items])


def test_unauthenticated_calls_are_refused(server: str) -> None:
    response = httpx.post(f"{server}/store/items/search", json={"namespace_prefix": []})
    assert response.status_code in (401, 403)


def test_two_users_see_only_their_own_memories(server: str) -> None:
    alice, bob = client(server, ALICE), client(server, BOB)

    # Through the graph: each turn is written for, and planned from, the caller only.
    said = say(alice, "I use pnpm for every project.")
    assert said["scope"] == "alice" and "pnpm" in said["context"]
    said = say(bob, "Please always answer in bullet points.")
    assert said["scope"] == "bob" and "pnpm" not in said["context"]
    assert "bullet points" in said["context"]
    later = say(alice, "Which package manager and answer format do I like?")
    assert "pnpm" in later["context"] and "bullet" not in later["context"]

    # A client naming another user in the run is run as itself (graphs/auth.py).
    spoof = say(alice, "What do you know about me?", config={"configurable": {"user_id": "bob"}})
    assert spoof["scope"] == "alice" and "bullet" not in spoof["context"]

    # Through client.store: the identity is put in front of every namespace.
    alice.store.put_item(["notes"], key="tea", value={"content": "Alice drinks green tea."})
    bob.store.put_item(["notes"], key="tea", value={"content": "Bob drinks black coffee."})
    a_items = alice.store.search_items([])["items"]
    b_items = bob.store.search_items([])["items"]
    assert "green tea" in contents(a_items) and "pnpm" in contents(a_items)
    assert "coffee" not in contents(a_items) and "bullet" not in contents(a_items)
    assert "coffee" in contents(b_items) and "bullet" in contents(b_items)
    assert "green tea" not in contents(b_items) and "pnpm" not in contents(b_items)
    assert {item["namespace"][0] for item in a_items} == {"alice"}
    assert {item["namespace"][0] for item in b_items} == {"bob"}
    assert alice.store.get_item(["notes"], key="tea")["value"]["content"] == (
        "Alice drinks green tea."
    )
    found = bob.store.search_items(["notes"], query="tea")["items"]
    assert "green tea" not in contents(found)

    # Studio's memory browser: a prefix-less listing answers for the caller only.
    a_spaces = alice.store.list_namespaces()["namespaces"]
    b_spaces = bob.store.list_namespaces()["namespaces"]
    assert a_spaces and b_spaces
    assert all(ns[0] == "alice" for ns in a_spaces)
    assert all(ns[0] == "bob" for ns in b_spaces)

    # Threads belong to their owner: Bob cannot read Alice's thread (its state holds her block).
    a_thread = alice.threads.create()
    assert not any(t["thread_id"] == a_thread["thread_id"] for t in bob.threads.search())
