"""``GovernedStore.govern_upsert`` / ``archive_key``: keyed records revised in place."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from userlore import (
    CandidateInput,
    Disclosure,
    InvalidInputError,
    Pipeline,
    Producer,
    RecordNotFoundError,
    RecordState,
    Userlore,
    UserState,
    WriteAction,
)

CONNECTED = ["session", "curated", "connected"]


def fact(content: str, key: str = "source/abc/item1", **kw: Any) -> CandidateInput:
    return CandidateInput(
        kind="workspace_fact",
        content=content,
        canonical_key=key,
        producer=kw.pop("producer", Producer.SOURCE),
        pipeline=kw.pop("pipeline", Pipeline.CONNECTED_KNOWLEDGE),
        **kw,
    )


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore(memory={"mode": "confirmWrite", "sources": CONNECTED})


def upsert(lore: Userlore, candidate: CandidateInput, scope: str = "u1", **kw: Any) -> Any:
    with lore.store.transaction() as session:
        return lore.store.govern_upsert(session, scope, candidate, **kw)


def test_revises_in_place_with_snapshots(lore: Userlore) -> None:
    first = upsert(lore, fact("The API gateway runs on port 8080."))
    assert first.action is WriteAction.CREATED and first.record.version == 1
    assert first.record.state is RecordState.ACTIVE  # connected knowledge: a receipt
    same = upsert(lore, fact("The API gateway runs on port 8080."))
    assert same.action is WriteAction.REINFORCED and same.record.version == 1
    changed = upsert(lore, fact("The API gateway runs on port 9090."))
    assert changed.action is WriteAction.SUPERSEDING
    assert changed.record.id == first.record.id and changed.record.version == 2
    assert changed.superseded_record_id is None
    history = lore.records.history("u1", first.record.id)
    assert [(v.version, v.live) for v in history] == [(1, False), (2, True)]
    assert history[1].diff == "-8080. +9090."
    assert [r.id for r in lore.records.list("u1")] == [first.record.id]


def test_other_pipelines_keep_the_promotion_rule(lore: Userlore) -> None:
    out = upsert(
        lore,
        fact(
            "prefers dark mode",
            key="preference/theme",
            producer=Producer.REVIEWER,
            pipeline=Pipeline.USER_UNDERSTANDING,
        ),
    )
    assert out.record.state is RecordState.CANDIDATE


def test_refuses_secrets_and_leaves_the_record(lore: Userlore) -> None:
    first = upsert(lore, fact("Deploy with the shared token."))
    refused = upsert(lore, fact("Deploy token: ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"))
    assert refused.action is WriteAction.REFUSED and refused.reason == "secret"
    current = lore.records.get("u1", first.record.id)
    assert current.version == 1 and "ghp_" not in current.content


def test_forgotten_and_deleted_keys_are_left_alone(lore: Userlore) -> None:
    a = upsert(lore, fact("alpha", key="k/a")).record
    lore.store.set_user_state(None, a.id, UserState.FORGOTTEN)
    assert upsert(lore, fact("alpha two", key="k/a")).reason == "forgotten"
    b = upsert(lore, fact("beta", key="k/b")).record
    lore.records.forget("u1", b.id)
    skipped = upsert(lore, fact("beta two", key="k/b"))
    assert skipped.action is WriteAction.SKIPPED and skipped.reason == "deleted"
    assert lore.records.get("u1", b.id).content == "beta"


def test_sensitivity_follows_the_new_content(lore: Userlore) -> None:
    rec = upsert(lore, fact("Team lunch is on Friday.")).record
    special = upsert(lore, fact("I have type 2 diabetes, so lunch must be low sugar.")).record
    assert special.id == rec.id
    assert special.disclosure is Disclosure.ASK_BEFORE_REFERENCE
    assert special.sensitivity_category == "health"
    plain = upsert(lore, fact("Team lunch moved to Thursday.")).record
    assert plain.disclosure is Disclosure.NORMAL and plain.sensitivity_category is None


def test_requires_a_key_and_scoped_evidence(lore: Userlore) -> None:
    with pytest.raises(InvalidInputError):
        upsert(lore, CandidateInput(kind="workspace_fact", content="x", producer=Producer.SOURCE))
    with lore.store.transaction() as session:
        mine = lore.store.add_source_item(
            session, scope="u1", source_instance_id="s", external_id="1", text="one"
        ).id
        theirs = lore.store.add_source_item(
            session, scope="u2", source_instance_id="t", external_id="1", text="two"
        ).id
    out = upsert(lore, fact("note", key="k/n"), evidence=[mine], evidence_relation="summarized_in")
    assert [e["relation"] for e in lore.records.evidence("u1", out.record.id)] == ["summarized_in"]
    again = upsert(
        lore, fact("note", key="k/n"), evidence=[mine], evidence_relation="summarized_in"
    )
    assert again.record.evidence_count == 1  # idempotent links
    with pytest.raises(RecordNotFoundError):
        upsert(lore, fact("note 2", key="k/n"), evidence=[theirs])
    assert (
        lore.records.get("u1", out.record.id).content == "note"
    )  # the failed transaction left nothing


@pytest.mark.parametrize("mode", ["off", "readOnly"])
def test_disabled_modes_write_nothing(make_lore: Callable[..., Userlore], mode: str) -> None:
    lore = make_lore(memory={"mode": mode, "sources": CONNECTED})
    out = upsert(lore, fact("anything"))
    assert out.action is WriteAction.SKIPPED and lore.store.count("u1") == 0


def test_source_disabled_skips(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto")
    assert upsert(lore, fact("anything")).reason == "source_disabled"


def test_archive_key(lore: Userlore) -> None:
    rec = upsert(lore, fact("Quarterly plan v3.", key="k/plan")).record
    with lore.store.transaction() as session:
        archived = lore.store.archive_key(session, "u1", "k/plan", reason="source_deleted")
        assert lore.store.archive_key(session, "u1", "k/other", reason="source_deleted") == []
    assert archived == [rec.id]
    after = lore.records.get("u1", rec.id)
    assert after.state is RecordState.ARCHIVED and after.valid_until is not None
    [trace] = lore.traces.list("u1", event_type="governance")
    assert trace["reason_code"] == "source_deleted"
    assert trace["payload"] == {"record_id": rec.id, "v": 1, "operation": "archive"}
    # a later item with the same key starts a new record; the archived one keeps its history
    fresh = upsert(lore, fact("Quarterly plan v4.", key="k/plan")).record
    assert fresh.id != rec.id and fresh.state is RecordState.ACTIVE
