"""``UserloreRetriever``: LangChain's standard retriever suite, unmodified, plus governance."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_tests.integration_tests import RetrieversIntegrationTests

from tests.conftest import FakeClock, sequential_ids
from userlore import CandidateInput, InvalidInputError, RecordState, ScopeError, Userlore
from userlore.integrations import UserloreRetriever

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def fact(i: int, **kw: Any) -> CandidateInput:
    base: dict[str, Any] = {
        "kind": "workspace_fact",
        "content": f"Deploy step {i}: run the release pipeline for service {i}.",
        "canonical_key": f"deploy/step_{i}",
        "path": "projects/billing",
        "evidence_text": f"We deploy service {i} with the release pipeline.",
    }
    base.update(kw)
    return CandidateInput(**base)


@functools.cache
def seeded() -> Userlore:
    lore = Userlore.open(
        "sqlite://", config={"memory": {"mode": "auto"}}, clock=FakeClock(), ids=sequential_ids()
    )
    for i in range(5):
        lore.write("u1", fact(i))
    return lore


class TestStandardRetriever(RetrieversIntegrationTests):
    """The langchain-tests suite, subclassed as is."""

    @property
    def retriever_constructor(self) -> type[BaseRetriever]:
        return UserloreRetriever

    @property
    def retriever_constructor_params(self) -> dict[str, Any]:
        return {"lore": seeded(), "default_scope": "u1"}

    @property
    def retriever_query_example(self) -> str:
        return "how do we deploy with the release pipeline?"


def test_documents_carry_receipts(auto_lore: Userlore) -> None:
    out = auto_lore.write("u1", fact(1))
    assert out.record is not None
    [doc] = UserloreRetriever(lore=auto_lore, scope="u1", k=1).invoke("release pipeline")
    assert isinstance(doc, Document) and doc.id == out.record.id
    assert doc.page_content.startswith("Deploy step 1")
    meta = doc.metadata
    assert meta["record_id"] == out.record.id and meta["version"] == 1
    assert meta["kind"] == "workspace_fact" and meta["path"] == "projects/billing"
    assert meta["state"] == "active" and meta["canonical_key"] == "deploy/step_1"
    [receipt] = auto_lore.records.evidence("u1", out.record.id)
    assert meta["evidence_ids"] == [receipt["source_item_id"]]


def test_policy_filter_applies(make_lore: Any) -> None:
    lore = make_lore("confirmWrite")
    pending = lore.write("u1", fact(1)).record
    approved = lore.write("u1", fact(2)).record
    special = lore.write("u1", fact(3, content="I have diabetes, so deploy after lunch.")).record
    assert pending is not None and approved is not None and special is not None
    lore.records.approve("u1", approved.id)
    lore.records.approve("u1", special.id)
    refused = lore.write("u1", fact(4, content=f"Deploy with token {GH_TOKEN}"))
    assert refused.record is None
    retriever = UserloreRetriever(lore=lore, scope="u1", k=10)
    assert [d.id for d in retriever.invoke("deploy")] == [approved.id]
    lore.consent.grant("u1", "health")
    assert {d.id for d in retriever.invoke("deploy")} == {approved.id, special.id}
    [trace, *_] = lore.traces.list("u1", event_type="retrieve")
    reasons = {r["id"]: r["reason"] for r in trace["payload"]["rejected"]}
    assert reasons == {pending.id: "not_active"}
    assert "deploy" not in str(trace["payload"]).lower()


def test_scopes_paths_and_k(auto_lore: Userlore) -> None:
    for i in range(3):
        auto_lore.write("u1", fact(i))
    auto_lore.write("u2", fact(9))
    auto_lore.write("u1", fact(7, path="projects/other"))
    docs = UserloreRetriever(lore=auto_lore, scope="u1", k=10).invoke("release pipeline")
    assert len(docs) == 4 and all(d.metadata["state"] == "active" for d in docs)
    billing = UserloreRetriever(lore=auto_lore, scope="u1", path_prefix="projects/billing", k=10)
    assert len(billing.invoke("release pipeline")) == 3
    assert len(billing.invoke("release pipeline", k=2)) == 2
    with pytest.raises(InvalidInputError):
        billing.invoke("release", k=0)
    with pytest.raises(ScopeError):
        UserloreRetriever(lore=auto_lore, scope="bad scope")


def test_forgotten_records_disappear(auto_lore: Userlore) -> None:
    rec = auto_lore.write("u1", fact(1)).record
    assert rec is not None
    retriever = UserloreRetriever(lore=auto_lore, scope="u1")
    assert len(retriever.invoke("release")) == 1
    auto_lore.records.forget("u1", rec.id)
    assert retriever.invoke("release") == []
    assert auto_lore.records.get("u1", rec.id).state is RecordState.DELETED


async def test_async(auto_lore: Userlore) -> None:
    auto_lore.write("u1", fact(1))
    docs = await UserloreRetriever(lore=auto_lore, scope="u1").ainvoke("release", k=1)
    assert len(docs) == 1
