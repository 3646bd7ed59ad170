"""Pins the public surface of ``Userlore``: a small root, namespaces, and the 0.1 names kept
behind a ``DeprecationWarning`` for one release."""

from __future__ import annotations

import inspect
import warnings
from typing import Any

import pytest

from userlore import RecordState, ScopeError, Userlore
from userlore.api.consent import Consent
from userlore.api.facets import Facets
from userlore.api.feedback import Feedback
from userlore.api.memory import Memory
from userlore.api.records import Records
from userlore.api.scopes import Scopes
from userlore.api.sources import Sources
from userlore.api.traces import Traces

ROOT = {
    "open",
    "observe",
    "write",
    "plan_context",
    "aobserve",
    "awrite",
    "aplan_context",
    "close",
    "config",
    "records",
    "consent",
    "memory",
    "facets",
    "feedback",
    "sources",
    "traces",
    "scopes",
}

DEPRECATED = {
    "store": "records / consent / traces / memory (the namespaces)",
    "planner": "plan_context",
    "learning": "facets.cache",
    "get": "records.get",
    "trash": "records.trash",
    "history": "records.history",
    "evidence": "records.evidence",
    "approve": "records.approve",
    "reject": "records.reject",
    "update": "records.update",
    "forget": "records.forget",
    "restore": "records.restore",
    "pin": "records.pin",
    "unpin": "records.unpin",
    "arecords": "records.alist",
    "atraces": "traces.alist",
    "grant_consent": "consent.grant",
    "revoke_consent": "consent.revoke",
    "consents": "consent.list",
    "list_facets": "facets.list",
    "get_facet": "facets.get",
    "update_facet": "facets.update",
    "pin_facet": "facets.pin",
    "unpin_facet": "facets.unpin",
    "forget_facet": "facets.forget",
    "reset_cache": "facets.reset",
    "rebuild_cache": "facets.rebuild",
    "cache_stats": "facets.stats",
    "about_me": "facets.about",
    "remember": "memory.remember",
    "recall": "memory.recall",
    "update_memory": "memory.update",
    "purge": "scopes.purge",
    "export": "scopes.export",
    "import_": "scopes.import_",
    "get_response_feedback": "feedback.get_response_feedback",
    "set_response_feedback": "feedback.set_response_feedback",
    "handle_correction": "feedback.handle_correction",
    "quality": "feedback.quality",
    "ingest": "sources.ingest",
    "sync_pending": "sources.sync_pending",
    "coordinator": "sources.coordinator",
}

NAMESPACES: dict[type, set[str]] = {
    Records: {
        "list", "get", "trash", "history", "evidence", "approve", "reject", "update", "forget",
        "restore", "pin", "unpin",
    },
    Consent: {"grant", "revoke", "list", "history", "records"},
    Memory: {
        "remember", "recall", "update", "forget", "restore", "receipt", "trash", "history",
        "store", "term_stats",
    },
    Facets: {
        "list", "get", "update", "pin", "unpin", "forget", "reset", "rebuild", "stats", "about",
        "cache", "started",
    },
    Feedback: {
        "get_response_feedback", "set_response_feedback", "set_trace_feedback",
        "handle_correction", "quality", "review_interval", "store", "policy",
    },
    Sources: {
        "items", "item", "changes", "sync_runs", "sources", "watermark", "advance_watermark",
        "pending_changes", "get", "ingest", "sync_pending", "coordinator", "store", "ledger",
    },
    Traces: {"list", "get", "record"},
    Scopes: {"purge", "export", "import_"},
}  # fmt: skip


def deprecated_target(cls: type, name: str) -> str | None:
    attr = inspect.getattr_static(cls, name, None)
    fn = attr.fget if isinstance(attr, property) else attr
    return getattr(fn, "__deprecated__", None)


def public(obj: Any) -> set[str]:
    return {n for n in dir(obj) if not n.startswith("_")}


def test_userlore_root_is_small(lore: Userlore) -> None:
    names = {n for n in public(lore) if deprecated_target(Userlore, n) is None}
    assert names == ROOT


def test_deprecated_names_are_exactly_the_0_1_surface(lore: Userlore) -> None:
    old = {n for n in public(lore) if deprecated_target(Userlore, n) is not None}
    twins = {n for n in old if n.startswith("a") and n[1:] in old}
    assert old - twins == set(DEPRECATED)
    for name, target in DEPRECATED.items():
        assert deprecated_target(Userlore, name) == target


@pytest.mark.parametrize("cls", list(NAMESPACES), ids=lambda c: c.__name__)
def test_namespace_surface(lore: Userlore, cls: type) -> None:
    instance = (
        next(v for v in vars(lore).values() if type(v) is cls)
        if cls is not Sources
        else lore.sources
    )
    names = public(instance)
    twins = {n for n in names if n.startswith("a") and n[1:] in names}
    assert names - twins == NAMESPACES[cls]


def test_every_namespace_method_takes_scope_first() -> None:
    for cls, names in NAMESPACES.items():
        for name in names:
            attr = inspect.getattr_static(cls, name, None)
            if not inspect.isfunction(attr) or name == "coordinator":  # coordinator: every scope
                continue
            params = list(inspect.signature(attr).parameters)
            assert params[1] == "scope", f"{cls.__name__}.{name}{params}"
            kind = inspect.signature(attr).parameters["scope"]
            assert kind.default is inspect.Parameter.empty, f"{cls.__name__}.{name}"


def test_old_names_warn_and_forward(auto_lore: Userlore) -> None:
    [out] = auto_lore.observe("u1", "user", "Always answer in bullet points.").outcomes
    rid = out.record.id if out.record else ""
    with pytest.warns(DeprecationWarning, match=r"Userlore.get is deprecated.*lore.records.get"):
        old = auto_lore.get(rid, scope="u1")
    assert old == auto_lore.records.get("u1", rid)
    with pytest.warns(DeprecationWarning, match="records.list"):
        assert auto_lore.records("u1", state=RecordState.ACTIVE) == auto_lore.records.list(
            "u1", state="active"
        )
    with pytest.warns(DeprecationWarning, match="traces.list"):
        assert auto_lore.traces("u1") == auto_lore.traces.list("u1")
    with pytest.warns(DeprecationWarning, match="scopes.import_"):
        receipt = auto_lore.import_(auto_lore.scopes.export("u1"), "u2")
    assert receipt.scope == "u2"
    with pytest.warns(DeprecationWarning, match="Userlore.store"):
        assert auto_lore.store is auto_lore.memory.store
    with pytest.warns(DeprecationWarning, match="Userlore.planner"):
        assert auto_lore.planner.term_stats is auto_lore.memory.term_stats


async def test_old_async_names_warn_and_forward(auto_lore: Userlore) -> None:
    auto_lore.observe("u1", "user", "Always answer in bullet points.")
    with pytest.warns(DeprecationWarning, match="records.alist"):
        assert await auto_lore.arecords("u1") == auto_lore.records.list("u1")
    with pytest.warns(DeprecationWarning, match="consent.agrant"):
        await auto_lore.agrant_consent("u1", "health")
    assert auto_lore.consent.list("u1") == frozenset({"health"})


def test_missing_scope_is_never_any_scope(auto_lore: Userlore) -> None:
    [out] = auto_lore.observe("u1", "user", "Always answer in bullet points.").outcomes
    rid = out.record.id if out.record else ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        with pytest.raises(ScopeError, match="scope is required"):
            auto_lore.get(rid)
        with pytest.raises(ScopeError, match="scope is required"):
            auto_lore.approve(rid)
    with pytest.raises(TypeError):
        auto_lore.records.get(rid)  # type: ignore[call-arg]


def test_consent_history_and_gated_records(auto_lore: Userlore, clock: Any) -> None:
    # What the About You page shows about consent, read through the namespace (no table reads
    # in the server): every grant period, and the records the category governs.
    auto_lore.memory.remember("u1", "I have type 2 diabetes.", path="me", memory_type="semantic")
    auto_lore.memory.remember("u2", "I have asthma.", path="me", memory_type="semantic")
    auto_lore.consent.grant("u1", "health")
    clock.advance(minutes=5)
    auto_lore.consent.revoke("u1", "health")
    [period] = auto_lore.consent.history("u1")
    assert period.category == "health" and period.revoked_at is not None
    assert period.revoked_at > period.granted_at
    [gated] = auto_lore.consent.records("u1")
    assert gated.sensitivity_category == "health" and "diabetes" in gated.content
    assert auto_lore.consent.history("u2") == []
