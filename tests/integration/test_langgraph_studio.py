"""The Studio identity of a real ``langgraph dev`` (issue 25): one shared user, nobody else's data.

Under ``langgraph dev``, langgraph-api lets a request with no token and the header
``x-auth-scheme: langsmith`` in as ``langgraph-studio-user`` (so the Studio web app can connect
without our tokens). Our ``@auth.on`` handlers still run for it, so it is one more user: it must
never reach Alice's records, threads or store items. ``"auth": {"disable_studio_auth": true}``
in ``langgraph.json`` turns it off (the header is then just a request without a token: 401).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from langgraph_sdk import get_sync_client

from tests.integration.test_langgraph_server import ALICE, client, contents, langgraph_dev, say

STUDIO = {"x-auth-scheme": "langsmith"}
SECRET_HABIT = "I always deploy from the orchid-falcon branch."


@pytest.fixture(scope="module")
def studio_on(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from langgraph_dev(tmp_path_factory.mktemp("studio-on"))


@pytest.fixture(scope="module")
def studio_off(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    yield from langgraph_dev(
        tmp_path_factory.mktemp("studio-off"), auth={"disable_studio_auth": True}
    )


def test_the_studio_user_is_one_user_that_never_sees_another(studio_on: str) -> None:
    alice = client(studio_on, ALICE)
    said = say(alice, SECRET_HABIT)
    assert said["scope"] == "alice" and "orchid-falcon" in said["context"]
    alice.store.put_item(["alice", "notes"], "n1", {"text": "orchid-falcon notes"})

    studio = get_sync_client(url=studio_on, headers=STUDIO)  # no Authorization at all
    ran = say(studio, "What branch do I deploy from?")
    assert ran["scope"] == "langgraph-studio-user"
    assert "orchid-falcon" not in json.dumps(ran)
    # Naming Alice in the run is overridden by graphs/auth.py's create_run handler.
    for naming in (
        {"context": {"user_id": "alice"}},
        {"config": {"configurable": {"user_id": "alice"}}},
    ):
        named = say(studio, "What branch do I deploy from?", **naming)
        assert named["scope"] == "langgraph-studio-user", naming
        assert "orchid-falcon" not in json.dumps(named), naming
    # Asking for Alice's namespace by name lands under the Studio user's own identity.
    for prefix in ([], ["alice"], ["alice", "notes"]):
        found = studio.store.search_items(prefix, query="orchid-falcon", limit=50)["items"]
        assert "orchid-falcon" not in contents(found), prefix
    namespaces = studio.store.list_namespaces(limit=100)["namespaces"]
    assert all(ns[0] == "langgraph-studio-user" for ns in namespaces), namespaces
    owners = {t["metadata"].get("owner") for t in studio.threads.search(limit=100)}
    assert owners <= {"langgraph-studio-user"}, owners


def test_the_studio_identity_can_be_turned_off(studio_off: str) -> None:
    response = httpx.post(
        f"{studio_off}/store/items/search", json={"namespace_prefix": []}, headers=STUDIO
    )
    assert response.status_code in (401, 403)
    assert say(client(studio_off, ALICE), "I use pnpm.")["scope"] == "alice"  # tokens still work


def test_no_studio_identity_without_the_header(studio_on: str) -> None:
    response = httpx.post(f"{studio_on}/store/items/search", json={"namespace_prefix": []})
    assert response.status_code in (401, 403)
