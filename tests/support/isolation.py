"""Database-level isolation checks shared by isolation tests.

Each query returns the rows of one scope that point at a row of another scope. The checks read
the tables with plain SQL, so they hold whatever the code above them does, on either backend.
"""

from __future__ import annotations

import json
from collections import defaultdict

from sqlalchemy import Engine, text

# name -> SQL returning (row scope, referenced scope, referencing id, referenced id)
CROSS_SCOPE_LINKS: dict[str, str] = {
    "evidence -> record": (
        "SELECT e.scope, r.scope, CAST(e.id AS TEXT), r.id FROM memory_evidence e "
        "JOIN memory_records r ON r.id = e.record_id WHERE r.scope <> e.scope"
    ),
    "evidence -> source item": (
        "SELECT e.scope, i.scope, CAST(e.id AS TEXT), i.id FROM memory_evidence e "
        "JOIN knowledge_source_items i ON i.id = e.source_item_id WHERE i.scope <> e.scope"
    ),
    "relation from -> record": (
        "SELECT l.scope, r.scope, CAST(l.id AS TEXT), r.id FROM memory_relations l "
        "JOIN memory_records r ON r.id = l.from_record_id WHERE r.scope <> l.scope"
    ),
    "relation to -> record": (
        "SELECT l.scope, r.scope, CAST(l.id AS TEXT), r.id FROM memory_relations l "
        "JOIN memory_records r ON r.id = l.to_record_id WHERE r.scope <> l.scope"
    ),
    "version -> record": (
        "SELECT v.scope, r.scope, CAST(v.id AS TEXT), r.id FROM memory_record_versions v "
        "JOIN memory_records r ON r.id = v.record_id WHERE r.scope <> v.scope"
    ),
    "record -> superseded record": (
        "SELECT r.scope, s.scope, r.id, s.id FROM memory_records r "
        "JOIN memory_records s ON s.id = r.supersedes_record_id WHERE s.scope <> r.scope"
    ),
    "review decision -> record": (
        "SELECT d.scope, r.scope, CAST(d.id AS TEXT), r.id FROM review_decisions d "
        "JOIN memory_records r ON r.id = d.record_id WHERE r.scope <> d.scope"
    ),
    "source change -> source item": (
        "SELECT c.scope, i.scope, CAST(c.sequence AS TEXT), i.id FROM knowledge_source_changes c "
        "JOIN knowledge_source_items i ON i.id = c.source_item_id WHERE i.scope <> c.scope"
    ),
    "trace -> parent trace": (
        "SELECT t.scope, p.scope, t.id, p.id FROM memory_trace_events t "
        "JOIN memory_trace_events p ON p.id = t.parent_trace_id WHERE p.scope <> t.scope"
    ),
    "facet observation -> record": (
        "SELECT f.scope, r.scope, CAST(f.id AS TEXT), r.id FROM facet_observations f "
        "JOIN memory_records r ON r.id = f.evidence_ref WHERE r.scope <> f.scope"
    ),
    "facet observation -> source item": (
        "SELECT f.scope, i.scope, CAST(f.id AS TEXT), i.id FROM facet_observations f "
        "JOIN knowledge_source_items i ON i.id = f.evidence_ref WHERE i.scope <> f.scope"
    ),
    "source state -> source items": (
        "SELECT s.scope, i.scope, s.source_instance_id, i.id FROM knowledge_source_state s "
        "JOIN knowledge_source_items i ON i.source_instance_id = s.source_instance_id "
        "WHERE i.scope <> s.scope"
    ),
}

# Tables whose rows carry ids of the scope that owns them.
OWNED_IDS: dict[str, str] = {
    "record": "SELECT id, scope FROM memory_records",
    "source item": "SELECT id, scope FROM knowledge_source_items",
    "trace": "SELECT id, scope FROM memory_trace_events",
    "sync run": "SELECT id, scope FROM knowledge_sync_runs",
}


def cross_scope_links(engine: Engine) -> list[str]:
    """Every stored reference from a row of one scope to a row of another, described."""
    found: list[str] = []
    with engine.connect() as conn:
        for name, sql in CROSS_SCOPE_LINKS.items():
            for scope, other, ref, target in conn.execute(text(sql)):
                found.append(f"{name}: {ref} of {scope!r} -> {target} of {other!r}")
    return found


def owned_ids(engine: Engine) -> dict[str, dict[str, str]]:
    """``{kind: {id: owning scope}}`` for every id-carrying row in the database."""
    out: dict[str, dict[str, str]] = defaultdict(dict)
    with engine.connect() as conn:
        for kind, sql in OWNED_IDS.items():
            for row_id, scope in conn.execute(text(sql)):
                out[kind][str(row_id)] = str(scope)
    return dict(out)


def foreign_ids_in_traces(engine: Engine, owner: dict[str, str]) -> list[str]:
    """Trace payloads (and parents) that mention an id owned by another scope."""
    found: list[str] = []
    with engine.connect() as conn:
        rows = conn.execute(
            text("SELECT id, scope, parent_trace_id, payload FROM memory_trace_events")
        )
        for trace_id, scope, parent, payload in rows:
            raw = payload if isinstance(payload, str) else json.dumps(payload)
            blob = f"{parent or ''} {raw}"
            for other_id, other_scope in owner.items():
                if other_scope != scope and other_id in blob:
                    found.append(
                        f"trace {trace_id} of {scope!r} names {other_id} of {other_scope!r}"
                    )
    return found
