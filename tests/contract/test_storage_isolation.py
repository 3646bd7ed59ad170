"""Issue 15: scope is part of every reference, enforced by the database, on every backend.

Alice and Mallory share one database. Mallory knows Alice's record and source item ids (they are
shown as receipts) and can guess her source ids; nothing she sends may read, write, block or even
detect a row of Alice's.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, text, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError

from userlore import (
    CandidateInput,
    ImportRejectedError,
    InvalidInputError,
    RecordNotFoundError,
    Userlore,
)
from userlore.server import create_app
from userlore.sources import ItemListSource, SourceItem
from userlore.store.lifecycle import ImportLimits, import_scope, load_export_document
from userlore.store.schema import MemoryEvidence, MemoryRecord, MemoryRecordVersion, MemoryRelation

CONNECTED = ["session", "curated", "connected"]
ALICE_TOKEN = "tok-alice-" + "a" * 24
MALLORY_TOKEN = "tok-mallory-" + "m" * 24


@pytest.fixture
def lore(make_lore: Callable[..., Userlore]) -> Userlore:
    return make_lore("confirmWrite", memory={"mode": "confirmWrite", "sources": CONNECTED})


def _alice(lore: Userlore) -> tuple[str, str]:
    """Alice's active record and the source item (her turn) it was learned from."""
    observed = lore.observe("alice", "user", "Always answer in bullet points.", "s1")
    [outcome] = observed.outcomes
    assert outcome.record is not None and observed.source_item_id is not None
    lore.records.approve("alice", outcome.record.id)
    return outcome.record.id, observed.source_item_id


def _mallory_doc(lore: Userlore) -> dict[str, Any]:
    """Mallory's own, honest export: one candidate record with evidence."""
    lore.observe("mallory", "user", "I prefer short answers.", "m1")
    doc = json.loads(json.dumps(lore.scopes.export("mallory")))
    lore.scopes.purge("mallory")
    assert doc["records"] and doc["evidence"]
    return doc


def _alice_view(lore: Userlore, record_id: str) -> tuple[Any, ...]:
    return (
        lore.records.get("alice", record_id),
        lore.records.evidence("alice", record_id),
        lore.plan_context(scope="alice", query="how should answers look").text,
    )


def _attack(doc: dict[str, Any], how: str, foreign: str) -> dict[str, Any]:
    bad = copy.deepcopy(doc)
    if how == "evidence":
        bad["evidence"][0]["source_item_id"] = foreign
    elif how == "supersedes":
        bad["records"][0]["supersedes_record_id"] = foreign
    elif how == "relation":
        bad["relations"] = [
            {
                "scope": "mallory",
                "from_record_id": bad["records"][0]["id"],
                "to_record_id": foreign,
                "relation_type": "supersedes",
                "created_at": bad["records"][0]["created_at"],
            }
        ]
    elif how == "version":
        bad["versions"][0]["record_id"] = foreign
    return bad


@pytest.mark.parametrize("how", ["evidence", "supersedes", "relation", "version"])
def test_import_naming_another_scopes_ids_is_refused_and_reveals_nothing(
    lore: Userlore, how: str
) -> None:
    record_id, item_id = _alice(lore)
    before = _alice_view(lore, record_id)
    doc = _mallory_doc(lore)
    foreign = item_id if how == "evidence" else record_id
    nowhere = foreign[:-3] + "zzz"
    messages = []
    for target in (foreign, nowhere):
        with pytest.raises(ImportRejectedError) as refused:
            lore.scopes.import_("mallory", _attack(doc, how, target))
        messages.append(str(refused.value))
    assert messages[0] == messages[1]  # the same text whether the id exists elsewhere or not
    assert foreign not in messages[0]
    assert (
        lore.records.list("mallory") == [] and lore.scopes.export("mallory")["source_items"] == []
    )
    assert _alice_view(lore, record_id) == before
    # the honest document still imports, with fresh ids only
    receipt = lore.scopes.import_("mallory", doc)
    assert set(receipt.id_map.values()).isdisjoint({record_id, item_id})
    assert _alice_view(lore, record_id) == before


def test_import_attack_over_http(lore: Userlore) -> None:
    record_id, item_id = _alice(lore)
    before = _alice_view(lore, record_id)
    doc = _mallory_doc(lore)
    grants = {ALICE_TOKEN: "alice", MALLORY_TOKEN: "mallory"}
    mallory = {"Authorization": f"Bearer {MALLORY_TOKEN}"}
    alice = {"Authorization": f"Bearer {ALICE_TOKEN}"}
    with TestClient(create_app(lore, grants)) as client:
        answers = []
        for how, foreign in (("evidence", item_id), ("supersedes", record_id)):
            for target in (foreign, foreign[:-3] + "zzz"):
                reply = client.post(
                    "/api/user-context/import", headers=mallory, json=_attack(doc, how, target)
                )
                assert reply.status_code == 422, reply.text
                assert foreign not in reply.text
                answers.append(reply.json())
        assert answers[0] == answers[1] and answers[2] == answers[3]
        # Mallory cannot read Alice's evidence with Alice's id either
        assert (
            client.get(
                f"/api/user-context/memories/{record_id}/evidence", headers=mallory
            ).status_code
            == 404
        )
        ok = client.post("/api/user-context/import", headers=mallory, json=doc)
        assert ok.status_code == 200, ok.text
        [mine] = client.get("/api/user-context/memories", headers=mallory).json()["memories"]
        approved = client.post(
            f"/api/user-context/candidates/{mine['id']}/approve", headers=mallory
        )
        assert approved.status_code == 200, approved.text
        evidence = client.get(
            f"/api/user-context/memories/{record_id}/evidence", headers=alice
        ).json()
        assert [e["source_item_id"] for e in evidence["evidence"]] == [item_id]
    assert _alice_view(lore, record_id) == before


def test_deeply_nested_import_is_a_typed_refusal(lore: Userlore) -> None:
    doc = _mallory_doc(lore)
    nested: dict[str, Any] = {}
    for _ in range(800):
        nested = {"n": nested}
    doc["traces"] = [dict(doc["traces"][0], payload=nested)] if doc["traces"] else []
    doc["source_items"][0]["meta"] = nested
    with pytest.raises(ImportRejectedError, match="nested deeper"):
        lore.scopes.import_("mallory", doc)
    grants = {MALLORY_TOKEN: "mallory"}
    headers = {"Authorization": f"Bearer {MALLORY_TOKEN}", "Content-Type": "application/json"}
    with TestClient(create_app(lore, grants), raise_server_exceptions=False) as client:
        # 800 deep: the gateway's request guard refuses it before parsing (400 too_deep) ...
        reply = client.post("/api/user-context/import", headers=headers, content=json.dumps(doc))
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "too_deep"
        # ... 40 deep passes the guard (64) and is refused by the import's own bound (32)
        shallow: dict[str, Any] = {}
        for _ in range(40):
            shallow = {"n": shallow}
        doc["source_items"][0]["meta"] = shallow
        reply = client.post("/api/user-context/import", headers=headers, content=json.dumps(doc))
    assert reply.status_code == 422 and "nested deeper" in reply.text
    raw = "[" * 900 + "]" * 900
    with pytest.raises(ImportRejectedError, match="nested deeper"):
        load_export_document(raw)
    with pytest.raises(ImportRejectedError, match="larger than"):
        load_export_document(json.dumps(doc), ImportLimits(max_bytes=100))
    with pytest.raises(ImportRejectedError, match="rows"):
        import_scope(lore.store, _mallory_doc(lore), "mallory", limits=ImportLimits(max_rows=1))
    assert lore.records.list("mallory") == []
    assert load_export_document(json.dumps(_mallory_doc(lore)))["scope"] == "mallory"


def test_planted_item_under_alices_source_id_does_not_break_her_sync(lore: Userlore) -> None:
    source = "markdown:/home/alice/notes"
    items = [SourceItem(external_id="a.md", text="The staging cluster runs on port 8443.")]
    first = lore.sources.ingest("alice", ItemListSource(source, items))
    assert first.status == "succeeded"
    # Mallory plants an item with Alice's source id and external id, by import and by sync
    doc = _mallory_doc(lore)
    planted = copy.deepcopy(doc["source_items"][0])
    planted.update(source_instance_id=source, external_id="a.md", text="Mallory was here.")
    doc["source_items"].append(dict(planted, id="src_planted"))
    lore.scopes.import_("mallory", doc)
    lore.sources.ingest("mallory", ItemListSource(source, [SourceItem("b.md", "Mallory's notes.")]))
    more = [*items, SourceItem(external_id="c.md", text="Deploys go out on Tuesdays.")]
    again = lore.sources.ingest("alice", ItemListSource(source, more))
    assert again.status == "succeeded" and again.counts.added == 1
    texts = [i.text for i in lore.sources.items("alice")]
    assert sorted(texts) == sorted(i.text for i in more)
    assert "Mallory" not in json.dumps(lore.scopes.export("alice"))


def test_scopes_containing_colons_do_not_collide(lore: Userlore) -> None:
    # "a:b" + session "c" and "a" + session "b:c" once gave the same conversation source id
    one = lore.observe("a:b", "user", "I prefer tea.", "c", turn_id="t1")
    two = lore.observe("a", "user", "I prefer coffee.", "b:c", turn_id="t1")
    assert one.source_item_id != two.source_item_id
    sources = {
        scope: {i.source_instance_id for i in lore.sources.items(scope)} for scope in ("a:b", "a")
    }
    assert sources["a:b"].isdisjoint(sources["a"])
    assert "coffee" not in json.dumps(lore.scopes.export("a:b"))
    assert "tea" not in json.dumps(lore.scopes.export("a"))


def test_write_refuses_a_supersedes_record_id_of_another_scope(lore: Userlore) -> None:
    record_id, _item = _alice(lore)
    before = _alice_view(lore, record_id)
    messages = []
    for target in (record_id, record_id[:-3] + "zzz"):
        candidate = CandidateInput(
            kind="preference", content="Answer in prose.", supersedes_record_id=target
        )
        with pytest.raises(RecordNotFoundError) as refused:
            lore.write("mallory", candidate)
        messages.append(str(refused.value).replace(target, "<id>"))
    assert messages[0] == messages[1]
    assert lore.records.list("mallory") == []
    own = lore.write("mallory", CandidateInput(kind="preference", content="Answer in verse."))
    assert own.record is not None
    with pytest.raises(RecordNotFoundError):
        lore.records.approve("mallory", record_id)
    assert _alice_view(lore, record_id) == before


def test_the_database_refuses_cross_scope_links(lore: Userlore) -> None:
    record_id, item_id = _alice(lore)
    own = lore.write("mallory", CandidateInput(kind="note", content="My own note."))
    assert own.record is not None
    mine = own.record.id
    now = lore.store.clock()
    attempts = [
        insert(MemoryEvidence).values(
            scope="mallory", record_id=mine, source_item_id=item_id, relation="x", created_at=now
        ),
        insert(MemoryEvidence).values(
            scope="mallory",
            record_id=record_id,
            source_item_id=item_id,
            relation="x",
            created_at=now,
        ),
        insert(MemoryRelation).values(
            scope="mallory",
            from_record_id=mine,
            to_record_id=record_id,
            relation_type="supersedes",
            created_at=now,
        ),
        insert(MemoryRecordVersion).values(
            scope="mallory", record_id=record_id, version=9, content="x", created_at=now
        ),
        update(MemoryRecord).where(MemoryRecord.id == mine).values(supersedes_record_id=record_id),
    ]
    for statement in attempts:
        with pytest.raises(IntegrityError), lore.store.engine.begin() as conn:
            conn.execute(statement)
    # through the store, the same refusal is a typed error that names no row
    with pytest.raises(InvalidInputError) as refused, lore.store.transaction("mallory") as s:
        s.execute(attempts[0])
    assert item_id not in str(refused.value) and record_id not in str(refused.value)
    assert lore.records.evidence("alice", record_id)[0]["source_item_id"] == item_id


# -- PostgreSQL row-level security ------------------------------------------------------------


@pytest.fixture
def app_role_url(backend: str, request: pytest.FixtureRequest) -> Iterator[tuple[str, str]]:
    """(admin URL, URL of a non-superuser role) on a fresh PostgreSQL database."""
    if backend != "postgres":
        pytest.skip("row-level security is PostgreSQL only")
    url = request.getfixturevalue("postgres_databases").fresh()
    role = f"userlore_app_{abs(hash(url)) % 10**8}"
    admin = create_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE ROLE {role} LOGIN"))
        conn.execute(text(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}"))
        conn.execute(text(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}"))
    try:
        yield url, make_url(url).set(username=role).render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP OWNED BY {role}"))
            conn.execute(text(f"DROP ROLE {role}"))
        admin.dispose()


def test_every_scoped_table_is_under_row_level_security(app_role_url: tuple[str, str]) -> None:
    """A table that holds a ``scope`` column (a new migration's too) is confined by the database:
    row-level security enabled and forced, with a policy; not only by the code's filters."""
    admin_url, _ = app_role_url
    Userlore.open(admin_url).close()  # migrated to head
    engine = create_engine(admin_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity,"
                    " (SELECT count(*) FROM pg_policies p WHERE p.schemaname = 'public'"
                    "  AND p.tablename = c.relname)"
                    " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    " JOIN information_schema.columns col ON col.table_schema = 'public'"
                    "  AND col.table_name = c.relname AND col.column_name = 'scope'"
                    " WHERE n.nspname = 'public' AND c.relkind = 'r'"
                )
            ).all()
    finally:
        engine.dispose()
    names = {name for name, *_ in rows}
    assert {"memory_records", "memory_sentence_vectors", "consent_grants"} <= names
    unconfined = [
        name for name, enabled, forced, policies in rows if not (enabled and forced and policies)
    ]
    assert unconfined == []


def test_row_level_security_confines_a_bound_session(app_role_url: tuple[str, str]) -> None:
    admin_url, role_url = app_role_url
    # The governed store works under the restricted role: it binds the scope per transaction.
    lore = Userlore.open(role_url, config={"memory": {"mode": "auto"}})
    try:
        for scope in ("alice", "bob"):
            lore.observe(scope, "user", f"Hello from {scope}.")
            lore.write(scope, CandidateInput(kind="note", content=f"{scope} paddles a kayak."))
        assert len(lore.records.list("alice")) == 1 and len(lore.records.list("bob")) == 1
        plan = lore.plan_context(scope="alice", query="kayak")
        assert "alice" in plan.text and "bob" not in plan.text
    finally:
        lore.close()
    engine = create_engine(role_url)
    try:
        with engine.begin() as conn:
            conn.execute(text("SET LOCAL userlore.scope = 'alice'"))
            # raw SQL without any scope filter sees only the bound scope
            scopes = set(conn.execute(text("SELECT scope FROM memory_records")).scalars())
            assert scopes == {"alice"}
            items = set(conn.execute(text("SELECT scope FROM knowledge_source_items")).scalars())
            assert items == {"alice"}
            changed = conn.execute(
                text("UPDATE memory_records SET content = 'x' WHERE scope = 'bob'")
            )
            assert changed.rowcount == 0
            deleted = conn.execute(text("DELETE FROM consent_grants WHERE scope = 'bob'"))
            assert deleted.rowcount == 0
        with pytest.raises(DBAPIError, match="row-level security"), engine.begin() as conn:
            conn.execute(text("SET LOCAL userlore.scope = 'alice'"))
            conn.execute(
                text(
                    "INSERT INTO consent_grants (scope, category, granted_at) "
                    "VALUES ('bob', 'health', now())"
                )
            )
        with pytest.raises(DBAPIError, match="row-level security"), engine.begin() as conn:
            conn.execute(text("SET LOCAL userlore.scope = 'alice'"))
            conn.execute(text("UPDATE memory_records SET scope = 'bob' WHERE scope = 'alice'"))
        # unbound (a worker claiming across scopes) sees every scope
        with engine.begin() as conn:
            scopes = set(conn.execute(text("SELECT scope FROM memory_records")).scalars())
            assert scopes == {"alice", "bob"}
    finally:
        engine.dispose()
    admin = create_engine(admin_url)
    with admin.connect() as conn:
        content = conn.execute(text("SELECT content FROM memory_records WHERE scope = 'bob'"))
        assert "x" not in content.scalars().all()
    admin.dispose()


def test_every_scoped_read_binds_its_scope(
    app_role_url: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read that forgets its scope filter still sees only its scope, under a non-superuser
    role: the planner, recall and ``search_visible`` bind ``userlore.scope`` on their
    connection. Fault injection: each one's ``search`` first runs an unfiltered query on the
    connection it was handed."""
    import userlore.memory.service
    import userlore.planner.planner
    import userlore.planner.visible

    _, role_url = app_role_url
    lore = Userlore.open(role_url, config={"memory": {"mode": "auto"}})
    seen: dict[str, set[str]] = {}
    try:
        for scope in ("alice", "bob"):
            lore.observe(scope, "user", f"Hello from {scope}, I paddle a kayak.")
            lore.write(scope, CandidateInput(kind="instruction", content="Always answer briefly."))
            lore.write(scope, CandidateInput(kind="note", content=f"{scope} paddles a kayak."))
        for module in (userlore.planner.planner, userlore.planner.visible, userlore.memory.service):

            def unfiltered(
                conn: Any,
                *args: Any,
                _name: str = module.__name__,
                _real: Callable[..., Any] = module.search,
                **kw: Any,
            ) -> Any:
                for table in ("memory_records", "knowledge_source_items", "memory_evidence"):
                    rows = conn.execute(text(f"SELECT DISTINCT scope FROM {table}")).scalars()
                    seen.setdefault(_name, set()).update(rows)
                return _real(conn, *args, **kw)

            monkeypatch.setattr(module, "search", unfiltered)
        assert "bob" not in lore.plan_context("alice", "kayak").text
        assert lore.memory.recall("alice", "kayak").memories
        assert userlore.planner.visible.search_visible(lore.memory.store, "alice", "kayak", limit=5)
    finally:
        lore.close()
    assert seen == {
        "userlore.planner.planner": {"alice"},
        "userlore.planner.visible": {"alice"},
        "userlore.memory.service": {"alice"},
    }
    # The control: the same role on an unbound connection (a cross-scope worker) sees both.
    engine = create_engine(role_url)
    with engine.connect() as conn:
        assert set(conn.execute(text("SELECT scope FROM memory_records")).scalars()) == {
            "alice",
            "bob",
        }
        assert not conn.scalar(text("SELECT rolsuper FROM pg_roles WHERE rolname = current_user"))
    engine.dispose()
