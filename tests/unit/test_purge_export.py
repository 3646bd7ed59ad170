"""Purge (0 residual rows, other scopes untouched), export and import into an empty scope."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest
from sqlalchemy import Table, func, select, text

from tests.conftest import FakeClock
from userlore import (
    CandidateInput,
    InvalidInputError,
    InvalidTransitionError,
    MemoryDisabledError,
    Userlore,
)
from userlore.integrations.langgraph_store import UserloreStore
from userlore.memory import Author
from userlore.store.lifecycle import EXPORT_FORMAT, EXPORT_FORMAT_VERSION, _scoped_tables
from userlore.store.schema import (
    FacetObservation,
    KnowledgeConsumerWatermark,
    KnowledgeSourceChange,
    KnowledgeSourceState,
    KnowledgeSyncRun,
    MemoryRecord,
)
from userlore.store.text import scope_prefix
from userlore.testing.embeddings import HashingEmbeddings
from userlore.work import WorkQueue, observe_job

_ID = re.compile(r"[a-z]+_[\w-]+")


def with_original_ids(value: Any, id_map: dict[str, str]) -> Any:
    """``value`` with every fresh id an import assigned replaced by the exported id it stands
    for: an import always assigns fresh ids, so a round trip is identical up to this renaming."""
    back = {new: old for old, new in id_map.items()}
    if isinstance(value, str):  # ids also appear inside text: citations, the rendered plan
        return _ID.sub(lambda found: back.get(found.group(), found.group()), value)
    if isinstance(value, dict):
        return {k: with_original_ids(v, id_map) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(with_original_ids(v, id_map) for v in value)
    return value


def populate(lore: Userlore, scope: str) -> dict[str, str]:
    """Every kind of row a scope can own, through the public API where one exists."""
    ids: dict[str, str] = {}
    keep = lore.memory.remember(
        scope, "Weekly sync is in Room Orion.", path="projects/x/meetings", memory_type="semantic"
    )
    lore.records.approve(scope, keep.id)
    lore.memory.update(
        scope, keep.id, "Weekly sync is in Room Polaris.", author=Author(agent_id="codex")
    )
    ids["meeting"] = keep.id
    other = lore.memory.remember(
        scope, "Deploys go out on Tuesdays.", path="projects/y/ops", memory_type="procedural"
    )
    lore.records.approve(scope, other.id)
    ids["deploys"] = other.id
    dropped = lore.memory.remember(
        scope, "Try Vim keybindings.", path="projects/y/ideas", memory_type="semantic"
    )
    lore.records.reject(scope, dropped.id)
    trashed = lore.memory.remember(
        scope, "Old wiki is at wiki.old.", path="projects/x/links", memory_type="semantic"
    )
    lore.records.approve(scope, trashed.id)
    lore.memory.forget(scope, trashed.id)
    ids["trashed"] = trashed.id
    first = lore.write(
        scope,
        CandidateInput(
            kind="style",
            content="Answer tersely.",
            canonical_key="style/verbosity",
            value="terse",
            path="profile",
            evidence_text="Answer tersely.",
        ),
    )
    assert first.record is not None
    lore.records.approve(scope, first.record.id)
    second = lore.write(
        scope,
        CandidateInput(
            kind="style",
            content="Answer in detail.",
            canonical_key="style/verbosity",
            value="detailed",
            path="profile",
            evidence_text="Answer in detail.",
        ),
    )
    assert second.record is not None
    lore.records.approve(scope, second.record.id)
    ids["style"] = second.record.id
    lore.observe(  # two sentences: the turn's evidence has sentence vectors too
        scope=scope,
        role="user",
        content="I use pnpm for every project. It keeps installs fast.",
        session_key="s1",
    )
    lore.consent.grant(scope, "health")
    lore.plan_context(scope=scope, query="when is the weekly sync?", session_key="s1")
    queued = observe_job(scope, "I use pnpm.", turn_id="m1", session_key="s1", agent_id=None)
    WorkQueue(lore.store).enqueue(queued)  # a turn handed off, not yet run by a worker
    lore.memory.recall(scope, "weekly sync")
    # A store item with two indexed fields: its second text has a field vector.
    embed = HashingEmbeddings()
    store = UserloreStore(
        lore,
        namespace_template=("{user_id}",),
        index={"dims": embed.dims, "embed": embed, "fields": ["title", "body"]},
    )
    store.put((scope, "docs"), "runbook", {"title": "Runbook", "body": "Restart the worker."})
    now = lore.store.clock()
    with lore.store.transaction() as s:
        s.add(
            FacetObservation(
                scope=scope,
                facet_class="tooling",
                key="tooling/pm",
                value="pnpm",
                cue_family="explicit",
                evidence_ref=keep.id,
                confidence=0.9,
                observed_at=now,
            )
        )
        item_id = lore.records.evidence(scope, keep.id)[0]["source_item_id"]
        s.add(
            KnowledgeSourceChange(
                scope=scope,
                source_instance_id=f"tool:{scope}",
                source_item_id=item_id,
                external_id="e1",
                change_type="added",
                content_hash="h",
                created_at=now,
            )
        )
        s.add(
            KnowledgeSyncRun(
                id=f"run_{scope}",
                scope=scope,
                source_instance_id=f"notion:{scope}",
                status="succeeded",
                counts={"seen": 1},
                warnings={},
                error=None,
                started_at=now,
                finished_at=now,
            )
        )
        s.add(
            KnowledgeSourceState(
                source_instance_id=f"notion:{scope}",
                scope=scope,
                kind="notion",
                cursor="c1",
                meta={},
                updated_at=now,
            )
        )
        s.add(
            KnowledgeConsumerWatermark(consumer_id="synth", scope=scope, sequence=1, updated_at=now)
        )
    return ids


def rows_of(lore: Userlore, scope: str) -> dict[str, int]:
    with lore.store.transaction() as s:
        counts = {
            t.name: int(
                s.scalar(select(func.count()).select_from(t).where(t.c.scope == scope)) or 0
            )
            for t in _scoped_tables()
        }
        lo = scope_prefix(scope)
        s.execute(
            text(
                "CREATE VIRTUAL TABLE IF NOT EXISTS temp.v USING "
                "fts5vocab(main, memory_records_fts, instance)"
            )
        )
        counts["fts"] = int(
            s.execute(
                text("SELECT count(*) FROM temp.v WHERE substr(term, 1, 12) = :p"), {"p": lo}
            ).scalar_one()
        )
    return counts


@pytest.fixture
def embedding_lore(clock: FakeClock) -> Any:
    """With embeddings on, so the vector tables hold rows too (every scoped table is checked)."""
    from tests.conftest import sequential_ids
    from userlore.testing.embeddings import HashingEmbeddings

    lore = Userlore.open(
        "sqlite://", clock=clock, ids=sequential_ids(), embeddings=HashingEmbeddings()
    )
    yield lore
    lore.close()


def test_purge_leaves_zero_rows_and_never_touches_another_scope(embedding_lore: Userlore) -> None:
    lore = embedding_lore
    populate(lore, "team-a")
    b = populate(lore, "team-b")
    before_a, before_b = rows_of(lore, "team-a"), rows_of(lore, "team-b")
    assert all(before_a[t.name] > 0 for t in _scoped_tables()), before_a
    assert before_a["fts"] > 0
    receipt = lore.scopes.purge("team-a")
    assert receipt.residual_rows == 0 and receipt.status == "purged"
    assert receipt.deleted["memory_records"] == before_a["memory_records"]
    assert receipt.deleted["memory_records_fts"] == before_a["fts"]
    assert all(v == 0 for v in rows_of(lore, "team-a").values())
    assert rows_of(lore, "team-b") == before_b
    assert lore.memory.recall("team-b", "weekly sync").citations == (f"{b['meeting']}@v2",)
    assert lore.plan_context(scope="team-b", query="weekly sync").selected_ids


def test_path_purge_removes_only_that_path(lore: Userlore) -> None:
    ids = populate(lore, "team-a")
    receipt = lore.scopes.purge("team-a", "projects/x")
    assert receipt.residual_rows == 0, receipt.residual
    assert receipt.deleted["memory_records"] == 2  # the meeting and the trashed link
    left = {r.id for r in lore.records.list("team-a", state=None)} | {
        r.id for r in lore.memory.trash("team-a")
    }
    assert ids["meeting"] not in left and ids["trashed"] not in left
    assert ids["deploys"] in left and ids["style"] in left
    assert lore.memory.recall("team-a", "weekly sync").citations == ()
    assert lore.memory.recall("team-a", "deploys tuesdays").citations == (f"{ids['deploys']}@v1",)
    dumped = json.dumps(lore.traces.list("team-a", limit=1000), default=str)
    assert ids["meeting"] not in dumped
    with lore.store.transaction() as s:
        cited = select(func.count()).select_from(FacetObservation)
        assert s.scalar(cited.where(FacetObservation.evidence_ref == ids["meeting"])) == 0


def test_path_prefix_respects_segment_boundaries(auto_lore: Userlore) -> None:
    keep = auto_lore.memory.remember(
        "u1", "Alphabet app ships Monday.", path="projects/ab", memory_type="semantic"
    )
    auto_lore.memory.remember(
        "u1", "Alpha app ships Friday.", path="projects/a/plan", memory_type="semantic"
    )
    receipt = auto_lore.scopes.purge("u1", "projects/a")
    assert receipt.deleted["memory_records"] == 1 and receipt.residual_rows == 0
    assert [r.id for r in auto_lore.records.list("u1")] == [keep.id]


def test_purge_is_allowed_in_read_only_mode(make_lore: Any) -> None:
    lore = make_lore("readOnly")
    assert lore.scopes.purge("u1").residual_rows == 0


def strip_time(doc: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out.pop("exported_at")
    return out


def test_export_import_round_trip_is_identical(lore: Userlore, make_lore: Any) -> None:
    populate(lore, "team-a")
    doc = json.loads(json.dumps(lore.scopes.export("team-a")))
    assert doc["format"] == EXPORT_FORMAT and doc["format_version"] == EXPORT_FORMAT_VERSION
    assert all(
        doc["counts"][k] > 0
        for k in (
            "records",
            "versions",
            "evidence",
            "source_items",
            "relations",
            "review_decisions",
            "consent_grants",
            "facet_observations",
            "traces",
            "source_changes",
            "sync_runs",
            "source_state",
            "consumer_watermarks",
        )
    )
    target = make_lore("confirmWrite")
    receipt = target.scopes.import_("team-a", doc)
    # Every id is fresh (an import never keeps an id it was handed), and only the ids differ.
    assert receipt.remapped and receipt.imported == doc["counts"]
    m = receipt.id_map
    assert with_original_ids(strip_time(target.scopes.export("team-a")), m) == strip_time(doc)
    for query in ("weekly sync room", "deploys", "how verbose should answers be"):
        got = with_original_ids(target.memory.recall("team-a", query).citations, m)
        assert got == lore.memory.recall("team-a", query).citations
        assert (
            with_original_ids(target.plan_context(scope="team-a", query=query).text, m)
            == lore.plan_context(scope="team-a", query=query).text
        )
    rec = lore.records.list("team-a")[0]
    assert [
        with_original_ids(v.record_id, m) for v in target.records.history("team-a", m[rec.id])
    ] == [v.record_id for v in lore.records.history("team-a", rec.id)]
    assert [
        (v.version, v.content, v.diff) for v in target.records.history("team-a", m[rec.id])
    ] == [(v.version, v.content, v.diff) for v in lore.records.history("team-a", rec.id)]
    assert with_original_ids(
        target.records.evidence("team-a", m[rec.id]), m
    ) == lore.records.evidence("team-a", rec.id)
    assert target.consent.list("team-a") == frozenset({"health"})


def test_import_after_purge_restores_the_scope(lore: Userlore) -> None:
    ids = populate(lore, "team-a")
    doc = lore.scopes.export("team-a")
    lore.scopes.purge("team-a")
    receipt = lore.scopes.import_("team-a", doc)
    assert receipt.remapped
    m = receipt.id_map
    assert with_original_ids(strip_time(lore.scopes.export("team-a")), m) == strip_time(doc)
    assert lore.memory.recall("team-a", "weekly sync").citations == (f"{m[ids['meeting']]}@v2",)


def test_import_into_another_scope_of_the_same_database_renames_ids(lore: Userlore) -> None:
    ids = populate(lore, "team-a")
    doc = lore.scopes.export("team-a")
    receipt = lore.scopes.import_("team-copy", doc)
    assert receipt.remapped and ids["meeting"] in receipt.id_map
    new_id = receipt.id_map[ids["meeting"]]
    assert lore.memory.recall("team-copy", "weekly sync").citations == (f"{new_id}@v2",)
    assert [v.content for v in lore.records.history("team-copy", new_id)] == [
        v.content for v in lore.records.history("team-a", ids["meeting"])
    ]
    copied = lore.scopes.export("team-copy")
    assert {i["source_instance_id"] for i in copied["source_items"]} >= {"tool:team-copy"}
    assert not any(ids["meeting"] in json.dumps(t) for t in copied["traces"])
    # the original is untouched
    assert strip_time(lore.scopes.export("team-a")) == strip_time(doc)


def test_import_refuses_a_scope_that_is_not_empty(auto_lore: Userlore) -> None:
    auto_lore.memory.remember("team-a", "A fact.", path="x", memory_type="semantic")
    doc = auto_lore.scopes.export("team-a")
    auto_lore.memory.remember("team-b", "Another fact.", path="x", memory_type="semantic")
    before = rows_of(auto_lore, "team-b")
    with pytest.raises(InvalidTransitionError, match="not empty"):
        auto_lore.scopes.import_("team-b", doc)
    assert rows_of(auto_lore, "team-b") == before


def _broken(doc: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    if how == "format":
        bad["format"] = "something.else"
    elif how == "version":
        bad["format_version"] = 99
    elif how == "row_type":
        bad["records"][0]["version"] = "2"
    elif how == "unknown_field":
        bad["records"][0]["surprise"] = 1
    elif how == "bad_state":
        bad["records"][0]["state"] = "zombie"
    elif how == "unknown_kind":
        bad["records"][0]["kind"] = "bogus"  # a kind the governed write would refuse
    elif how == "naive_time":
        bad["records"][0]["created_at"] = "2026-01-05T09:00:00"
    elif how == "dangling_version":
        bad["versions"][0]["record_id"] = "mem_missing"
    elif how == "dangling_evidence":
        bad["evidence"][0]["source_item_id"] = "src_missing"
    elif how == "secret":
        bad["records"][0]["content"] = "key ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    elif how == "scope_mismatch":
        bad["records"][0]["scope"] = "elsewhere"
    elif how == "unknown_section":
        bad["extra"] = []
    return bad


@pytest.mark.parametrize(
    "how",
    [
        "format",
        "version",
        "row_type",
        "unknown_field",
        "bad_state",
        "unknown_kind",
        "naive_time",
        "dangling_version",
        "dangling_evidence",
        "secret",
        "scope_mismatch",
        "unknown_section",
    ],
)
def test_malformed_import_writes_nothing(auto_lore: Userlore, make_lore: Any, how: str) -> None:
    auto_lore.memory.remember(
        "team-a", "Weekly sync is in Orion.", path="x", memory_type="semantic"
    )
    doc = json.loads(json.dumps(auto_lore.scopes.export("team-a")))
    target = make_lore("auto")
    with pytest.raises(InvalidInputError):
        target.scopes.import_("team-a", _broken(doc, how))
    assert all(v == 0 for v in rows_of(target, "team-a").values())


def test_import_is_a_write(make_lore: Any, auto_lore: Userlore) -> None:
    auto_lore.memory.remember("team-a", "A fact.", path="x", memory_type="semantic")
    doc = auto_lore.scopes.export("team-a")
    with pytest.raises(MemoryDisabledError):
        make_lore("readOnly").scopes.import_("team-a", doc)


def test_export_has_no_other_scope(auto_lore: Userlore, clock: FakeClock) -> None:
    auto_lore.memory.remember("team-a", "Alpha secret-free fact.", path="x", memory_type="semantic")
    auto_lore.memory.remember("team-b", "Bravo private fact.", path="x", memory_type="semantic")
    doc = auto_lore.scopes.export("team-a")
    dumped = json.dumps(doc)
    assert "Bravo" not in dumped and "team-b" not in dumped
    assert doc["exported_at"] == clock.now.isoformat()
    table: Table = MemoryRecord.__table__  # type: ignore[assignment]
    assert set(doc["records"][0]) == {c.name for c in table.columns} - {"seq", "search_text"}
