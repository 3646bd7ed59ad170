"""Every bad input is a typed error that names its field, and writes nothing, on both backends.

Each case calls one public facade method with one bad argument. It must raise a
:class:`UserloreError` subclass (never a driver exception, ``TypeError`` or ``AttributeError``)
whose message contains the field name, and every table must hold exactly the rows it held
before. One seeded database per backend serves every case: a refused call changes nothing, so
the cases cannot disturb each other (and the row counts prove it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from tests.conftest import FakeClock, PostgresDatabases, sequential_ids
from userlore import (
    CandidateInput,
    ConfigError,
    ConsentCategory,
    InvalidInputError,
    RecordState,
    ScopeError,
    StorageError,
    Userlore,
    UserloreError,
)
from userlore.memory import Author
from userlore.store.schema import Base

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
NAIVE = datetime(2026, 1, 5, 9, 0)
FACT = "The deploy target is eu-west."


@dataclass
class Seeded:
    """One database per backend with a record, a turn and a plan to point bad calls at."""

    lore: Userlore
    record_id: str
    source_item_id: str


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def seeded(request: pytest.FixtureRequest) -> Iterator[Seeded]:
    if request.param == "sqlite":
        url = "sqlite://"
    else:
        dbs: PostgresDatabases = request.getfixturevalue("postgres_databases")
        url = dbs.fresh()
    lore = Userlore.open(
        url, config={"memory": {"mode": "auto"}}, clock=FakeClock(NOW), ids=sequential_ids()
    )
    observed = lore.observe("u1", "user", "Always answer in bullet points.", "s1")
    written = lore.write("u1", CandidateInput(kind="note", content=FACT))
    assert written.record is not None and observed.source_item_id is not None
    lore.plan_context("u1", "deploy", "s1")
    yield Seeded(lore, written.record.id, observed.source_item_id)
    lore.close()


def row_counts(lore: Userlore) -> dict[str, int]:
    """Rows of every table of the schema, once queued traces are written (a plan's trace is
    written off the request path; one still queued would land between two counts)."""
    lore.store.flush_traces()
    with lore.store.engine.connect() as conn:
        return {
            t.name: int(conn.scalar(select(func.count()).select_from(t)) or 0)
            for t in Base.metadata.sorted_tables
        }


def cand(**kw: Any) -> CandidateInput:
    fields: dict[str, Any] = {"kind": "note", "content": FACT, **kw}
    return CandidateInput(**fields)


Call = Callable[[Seeded], object]

# (id, call, expected error class, fragment the message must contain)
CASES: list[tuple[str, Call, type[UserloreError], str]] = [
    # -- observe --------------------------------------------------------------------------------
    ("observe-scope-none", lambda s: s.lore.observe(None, "user", "hi"), ScopeError, "scope"),
    ("observe-scope-empty", lambda s: s.lore.observe("", "user", "hi"), ScopeError, "scope"),
    ("observe-scope-space", lambda s: s.lore.observe("a b", "user", "hi"), ScopeError, "scope"),
    (
        "observe-scope-surrogate",
        lambda s: s.lore.observe("u\ud800", "user", "hi"),
        ScopeError,
        "scope",
    ),
    ("observe-scope-int", lambda s: s.lore.observe(42, "user", "hi"), ScopeError, "scope"),
    (
        "observe-role-unknown",
        lambda s: s.lore.observe("u1", "boss", "hi"),
        InvalidInputError,
        "role",
    ),
    ("observe-role-none", lambda s: s.lore.observe("u1", None, "hi"), InvalidInputError, "role"),
    (
        "observe-content-empty",
        lambda s: s.lore.observe("u1", "user", ""),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-blank",
        lambda s: s.lore.observe("u1", "user", "  \n"),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-none",
        lambda s: s.lore.observe("u1", "user", None),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-bytes",
        lambda s: s.lore.observe("u1", "user", b"Always answer in bullet points."),
        InvalidInputError,
        "content must be str, not bytes",
    ),
    (
        "observe-content-int",
        lambda s: s.lore.observe("u1", "user", 12345),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-surrogate",
        lambda s: s.lore.observe("u1", "user", "I always use vim \ud800"),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-nul",
        lambda s: s.lore.observe("u1", "user", "I always use vim\x00"),
        InvalidInputError,
        "content",
    ),
    (
        "observe-content-oversized",
        lambda s: s.lore.observe("u1", "user", "x" * 32_001),
        InvalidInputError,
        "content",
    ),
    (
        "observe-session-int",
        lambda s: s.lore.observe("u1", "user", "hi", 5),
        InvalidInputError,
        "session_key",
    ),
    (
        "observe-session-long",
        lambda s: s.lore.observe("u1", "user", "hi", "k" * 301),
        InvalidInputError,
        "session_key",
    ),
    (
        "observe-session-surrogate",
        lambda s: s.lore.observe("u1", "user", "hi", "s\ud800"),
        InvalidInputError,
        "session_key",
    ),
    (
        "observe-session-nul",
        lambda s: s.lore.observe("u1", "user", "hi", "s\x00"),
        InvalidInputError,
        "session_key",
    ),
    (
        "observe-turn-int",
        lambda s: s.lore.observe("u1", "user", "hi", turn_id=12345),
        InvalidInputError,
        "turn_id",
    ),
    (
        "observe-turn-empty",
        lambda s: s.lore.observe("u1", "user", "hi", turn_id=""),
        InvalidInputError,
        "turn_id",
    ),
    (
        "observe-turn-nul",
        lambda s: s.lore.observe("u1", "user", "hi", turn_id="t\x00"),
        InvalidInputError,
        "turn_id",
    ),
    (
        "observe-agent-int",
        lambda s: s.lore.observe("u1", "user", "hi", agent_id=5),
        InvalidInputError,
        "agent_id",
    ),
    (
        "observe-device-long",
        lambda s: s.lore.observe("u1", "user", "hi", device="d" * 201),
        InvalidInputError,
        "device",
    ),
    (
        "observe-client-surrogate",
        lambda s: s.lore.observe("u1", "user", "hi", client="c\ud800"),
        InvalidInputError,
        "client",
    ),
    # -- write ----------------------------------------------------------------------------------
    ("write-candidate-none", lambda s: s.lore.write("u1", None), InvalidInputError, "candidate"),
    (
        "write-candidate-dict",
        lambda s: s.lore.write("u1", {"kind": "note", "content": FACT}),
        InvalidInputError,
        "candidate",
    ),
    ("write-scope-bad", lambda s: s.lore.write("no scope", cand()), ScopeError, "scope"),
    (
        "write-kind-unknown",
        lambda s: s.lore.write("u1", cand(kind="bogus")),
        InvalidInputError,
        "kind",
    ),
    ("write-kind-int", lambda s: s.lore.write("u1", cand(kind=5)), InvalidInputError, "kind"),
    ("write-kind-empty", lambda s: s.lore.write("u1", cand(kind="")), InvalidInputError, "kind"),
    (
        "write-content-bytes",
        lambda s: s.lore.write("u1", cand(content=FACT.encode())),
        InvalidInputError,
        "content must be str, not bytes",
    ),
    (
        "write-content-surrogate",
        lambda s: s.lore.write("u1", cand(content="deploy \udfff")),
        InvalidInputError,
        "content",
    ),
    (
        "write-content-nul",
        lambda s: s.lore.write("u1", cand(content="deploy\x00target")),
        InvalidInputError,
        "content",
    ),
    (
        "write-content-empty",
        lambda s: s.lore.write("u1", cand(content="")),
        InvalidInputError,
        "content",
    ),
    (
        "write-content-oversized",
        lambda s: s.lore.write("u1", cand(content="x" * 4_001)),
        InvalidInputError,
        "content",
    ),
    (
        "write-memory-type",
        lambda s: s.lore.write("u1", cand(memory_type="long_term")),
        InvalidInputError,
        "memory_type",
    ),
    (
        "write-explicitness",
        lambda s: s.lore.write("u1", cand(explicitness="maybe")),
        InvalidInputError,
        "explicitness",
    ),
    (
        "write-producer",
        lambda s: s.lore.write("u1", cand(producer="hacker")),
        InvalidInputError,
        "producer",
    ),
    (
        "write-pipeline",
        lambda s: s.lore.write("u1", cand(pipeline="side_channel")),
        InvalidInputError,
        "pipeline",
    ),
    (
        "write-disclosure",
        lambda s: s.lore.write("u1", cand(disclosure="sometimes")),
        InvalidInputError,
        "disclosure",
    ),
    (
        "write-confidence-range",
        lambda s: s.lore.write("u1", cand(confidence=2.0)),
        InvalidInputError,
        "confidence",
    ),
    (
        "write-confidence-str",
        lambda s: s.lore.write("u1", cand(confidence="high")),
        InvalidInputError,
        "confidence",
    ),
    (
        "write-importance-nan",
        lambda s: s.lore.write("u1", cand(importance=float("nan"))),
        InvalidInputError,
        "importance",
    ),
    ("write-path-dots", lambda s: s.lore.write("u1", cand(path="a//b")), InvalidInputError, "path"),
    ("write-path-int", lambda s: s.lore.write("u1", cand(path=5)), InvalidInputError, "path"),
    (
        "write-key-empty",
        lambda s: s.lore.write("u1", cand(canonical_key="")),
        InvalidInputError,
        "canonical_key",
    ),
    (
        "write-key-int",
        lambda s: s.lore.write("u1", cand(canonical_key=5)),
        InvalidInputError,
        "canonical_key",
    ),
    ("write-value-int", lambda s: s.lore.write("u1", cand(value=5)), InvalidInputError, "value"),
    (
        "write-value-nul",
        lambda s: s.lore.write("u1", cand(value="v\x00")),
        InvalidInputError,
        "value",
    ),
    (
        "write-valid-from-str",
        lambda s: s.lore.write("u1", cand(valid_from="yesterday")),
        InvalidInputError,
        "valid_from",
    ),
    (
        "write-valid-from-naive",
        lambda s: s.lore.write("u1", cand(valid_from=NAIVE)),
        InvalidInputError,
        "valid_from",
    ),
    (
        "write-valid-until-before",
        lambda s: s.lore.write("u1", cand(valid_from=NOW, valid_until=NOW - timedelta(days=1))),
        InvalidInputError,
        "valid_until",
    ),
    (
        "write-supersedes-int",
        lambda s: s.lore.write("u1", cand(supersedes_record_id=5)),
        InvalidInputError,
        "supersedes_record_id",
    ),
    (
        "write-source-item-int",
        lambda s: s.lore.write("u1", cand(source_item_id=5)),
        InvalidInputError,
        "source_item_id",
    ),
    (
        "write-evidence-bytes",
        lambda s: s.lore.write("u1", cand(evidence_text=b"said it")),
        InvalidInputError,
        "evidence_text",
    ),
    (
        "write-evidence-surrogate",
        lambda s: s.lore.write("u1", cand(evidence_text="said \ud800")),
        InvalidInputError,
        "evidence_text",
    ),
    (
        "write-evidence-nul",
        lambda s: s.lore.write("u1", cand(evidence_text="said\x00")),
        InvalidInputError,
        "evidence_text",
    ),
    (
        "write-claim-int",
        lambda s: s.lore.write("u1", cand(sensitivity_claim=5)),
        InvalidInputError,
        "sensitivity_claim",
    ),
    (
        "write-author-int",
        lambda s: s.lore.write("u1", cand(author_agent_id=5)),
        InvalidInputError,
        "author_agent_id",
    ),
    (
        "write-thread-nul",
        lambda s: s.lore.write("u1", cand(thread_id="t\x00")),
        InvalidInputError,
        "thread_id",
    ),
    (
        "write-durability-empty",
        lambda s: s.lore.write("u1", cand(durability="")),
        InvalidInputError,
        "durability",
    ),
    (
        "write-session-long",
        lambda s: s.lore.write("u1", cand(session_key="k" * 301)),
        InvalidInputError,
        "session_key",
    ),
    # -- reads ----------------------------------------------------------------------------------
    (
        "records-state-unknown",
        lambda s: s.lore.records.list("u1", "bogus"),
        InvalidInputError,
        "state",
    ),
    (
        "records-state-list",
        lambda s: s.lore.records.list("u1", ["active", "nope"]),
        InvalidInputError,
        "state",
    ),
    ("records-state-int", lambda s: s.lore.records.list("u1", 5), InvalidInputError, "state"),
    ("records-kind-int", lambda s: s.lore.records.list("u1", kind=5), InvalidInputError, "kind"),
    (
        "records-prefix-bad",
        lambda s: s.lore.records.list("u1", path_prefix="a//b"),
        InvalidInputError,
        "path_prefix",
    ),
    (
        "records-limit-str",
        lambda s: s.lore.records.list("u1", limit="10"),
        InvalidInputError,
        "limit",
    ),
    (
        "records-limit-zero",
        lambda s: s.lore.records.list("u1", limit=0),
        InvalidInputError,
        "limit",
    ),
    ("records-scope-bad", lambda s: s.lore.records.list("u 1"), ScopeError, "scope"),
    ("get-id-int", lambda s: s.lore.records.get("u1", 5), InvalidInputError, "record_id"),
    (
        "get-id-surrogate",
        lambda s: s.lore.records.get("u1", "mem_\ud800"),
        InvalidInputError,
        "record_id",
    ),
    (
        "history-id-none",
        lambda s: s.lore.records.history("u1", None),
        InvalidInputError,
        "record_id",
    ),
    (
        "evidence-id-nul",
        lambda s: s.lore.records.evidence("u1", "mem\x00"),
        InvalidInputError,
        "record_id",
    ),
    (
        "traces-event-int",
        lambda s: s.lore.traces.list("u1", event_type=5),
        InvalidInputError,
        "event_type",
    ),
    (
        "traces-limit-negative",
        lambda s: s.lore.traces.list("u1", limit=-1),
        InvalidInputError,
        "limit",
    ),
    ("trash-scope-empty", lambda s: s.lore.records.trash(""), ScopeError, "scope"),
    # -- lifecycle ------------------------------------------------------------------------------
    (
        "update-content-bytes",
        lambda s: s.lore.records.update("u1", s.record_id, b"x"),
        InvalidInputError,
        "content",
    ),
    (
        "update-content-surrogate",
        lambda s: s.lore.records.update("u1", s.record_id, "x \ud800"),
        InvalidInputError,
        "content",
    ),
    (
        "update-content-nul",
        lambda s: s.lore.records.update("u1", s.record_id, "x\x00"),
        InvalidInputError,
        "content",
    ),
    (
        "update-id-int",
        lambda s: s.lore.records.update("u1", 12345, "new text"),
        InvalidInputError,
        "record_id",
    ),
    (
        "approve-content-int",
        lambda s: s.lore.records.approve("u1", s.record_id, content=5),
        InvalidInputError,
        "content",
    ),
    ("forget-id-int", lambda s: s.lore.records.forget("u1", 5), InvalidInputError, "record_id"),
    (
        "restore-scope-bad",
        lambda s: s.lore.records.restore("u 1", s.record_id),
        ScopeError,
        "scope",
    ),
    (
        "pin-id-list",
        lambda s: s.lore.records.pin("u1", [s.record_id]),
        InvalidInputError,
        "record_id",
    ),
    # -- read path ------------------------------------------------------------------------------
    ("plan-query-none", lambda s: s.lore.plan_context("u1", None), InvalidInputError, "query"),
    (
        "plan-query-surrogate",
        lambda s: s.lore.plan_context("u1", "deploy \ud800"),
        InvalidInputError,
        "query",
    ),
    (
        "plan-query-nul",
        lambda s: s.lore.plan_context("u1", "deploy\x00"),
        InvalidInputError,
        "query",
    ),
    (
        "plan-budget-str",
        lambda s: s.lore.plan_context("u1", "deploy", budget="big"),
        InvalidInputError,
        "budget",
    ),
    (
        "plan-budget-tiny",
        lambda s: s.lore.plan_context("u1", "deploy", budget=10),
        InvalidInputError,
        "budget",
    ),
    (
        "plan-session-int",
        lambda s: s.lore.plan_context("u1", "deploy", 5),
        InvalidInputError,
        "session_key",
    ),
    # -- consent --------------------------------------------------------------------------------
    (
        "consent-typo",
        lambda s: s.lore.consent.grant("u1", "healthh"),
        InvalidInputError,
        "category",
    ),
    ("consent-int", lambda s: s.lore.consent.grant("u1", 5), InvalidInputError, "category"),
    (
        "consent-revoke-unknown",
        lambda s: s.lore.consent.revoke("u1", "astrology"),
        InvalidInputError,
        "category",
    ),
    ("consent-scope-bad", lambda s: s.lore.consent.grant("u 1", "health"), ScopeError, "scope"),
    # -- seed 003 memory operations -------------------------------------------------------------
    (
        "remember-bytes",
        lambda s: s.lore.memory.remember("u1", b"x", path="p/q", memory_type="semantic"),
        InvalidInputError,
        "content must be str, not bytes",
    ),
    (
        "remember-surrogate",
        lambda s: s.lore.memory.remember("u1", "x \ud800", path="p/q", memory_type="semantic"),
        InvalidInputError,
        "content",
    ),
    (
        "remember-nul",
        lambda s: s.lore.memory.remember("u1", "x\x00", path="p/q", memory_type="semantic"),
        InvalidInputError,
        "content",
    ),
    (
        "remember-type",
        lambda s: s.lore.memory.remember("u1", FACT, path="p/q", memory_type="long_term"),
        InvalidInputError,
        "memory_type",
    ),
    (
        "remember-path",
        lambda s: s.lore.memory.remember("u1", FACT, path="p//q", memory_type="semantic"),
        InvalidInputError,
        "path",
    ),
    (
        "remember-session-int",
        lambda s: s.lore.memory.remember(
            "u1", FACT, path="p/q", memory_type="semantic", session_key=5
        ),
        InvalidInputError,
        "session_key",
    ),
    (
        "remember-agent-int",
        lambda s: s.lore.memory.remember(
            "u1", FACT, path="p/q", memory_type="semantic", author=Author(agent_id=5)
        ),
        InvalidInputError,
        "agent_id",
    ),
    ("recall-query-int", lambda s: s.lore.memory.recall("u1", 5), InvalidInputError, "query"),
    (
        "recall-query-surrogate",
        lambda s: s.lore.memory.recall("u1", "deploy \ud800"),
        InvalidInputError,
        "query",
    ),
    ("recall-k-zero", lambda s: s.lore.memory.recall("u1", "deploy", k=0), InvalidInputError, "k"),
    (
        "recall-path-int",
        lambda s: s.lore.memory.recall("u1", "deploy", path=5),
        InvalidInputError,
        "path",
    ),
    (
        "recall-type-int",
        lambda s: s.lore.memory.recall("u1", "deploy", memory_type=5),
        InvalidInputError,
        "memory_type",
    ),
    (
        "recall-session-nul",
        lambda s: s.lore.memory.recall("u1", "deploy", session_key="s\x00"),
        InvalidInputError,
        "session_key",
    ),
    (
        "update-memory-id-int",
        lambda s: s.lore.memory.update("u1", 5, "x"),
        InvalidInputError,
        "record_id",
    ),
    (
        "update-memory-bytes",
        lambda s: s.lore.memory.update("u1", s.record_id, b"x"),
        InvalidInputError,
        "content",
    ),
    (
        "update-memory-nul",
        lambda s: s.lore.memory.update("u1", s.record_id, "x\x00"),
        InvalidInputError,
        "content",
    ),
    # -- feedback -------------------------------------------------------------------------------
    (
        "feedback-rating",
        lambda s: s.lore.feedback.set_response_feedback("u1", "s1", NOW, "meh"),
        InvalidInputError,
        "rating",
    ),
    (
        "feedback-time-str",
        lambda s: s.lore.feedback.set_response_feedback("u1", "s1", "now", "helpful"),
        InvalidInputError,
        "response_at",
    ),
    (
        "feedback-time-naive",
        lambda s: s.lore.feedback.set_response_feedback("u1", "s1", NAIVE, "helpful"),
        InvalidInputError,
        "response_at",
    ),
    (
        "feedback-session-int",
        lambda s: s.lore.feedback.set_response_feedback("u1", 5, NOW, "helpful"),
        InvalidInputError,
        "session_key",
    ),
    (
        "correction-bytes",
        lambda s: s.lore.feedback.handle_correction("u1", b"No, I use emacs", "s1"),
        InvalidInputError,
        "content",
    ),
    (
        "correction-nul",
        lambda s: s.lore.feedback.handle_correction("u1", "No, I use emacs\x00", "s1"),
        InvalidInputError,
        "content",
    ),
    (
        "correction-turn-int",
        lambda s: s.lore.feedback.handle_correction("u1", "No, I use emacs", "s1", turn_id=12345),
        InvalidInputError,
        "turn_id",
    ),
    (
        "correction-at-str",
        lambda s: s.lore.feedback.handle_correction("u1", "No, I use emacs", "s1", at="x"),
        InvalidInputError,
        "at",
    ),
    # -- purge, export, import ------------------------------------------------------------------
    ("purge-scope-none", lambda s: s.lore.scopes.purge(None), ScopeError, "scope"),
    ("purge-prefix-int", lambda s: s.lore.scopes.purge("u1", 5), InvalidInputError, "path_prefix"),
    ("export-scope-empty", lambda s: s.lore.scopes.export(""), ScopeError, "scope"),
    ("import-data-list", lambda s: s.lore.scopes.import_("u2", []), InvalidInputError, "data"),
    ("import-data-str", lambda s: s.lore.scopes.import_("u2", "{}"), InvalidInputError, "data"),
    ("import-scope-bad", lambda s: s.lore.scopes.import_("u 2", {}), ScopeError, "scope"),
    # -- connected sources ----------------------------------------------------------------------
    ("sync-scope-int", lambda s: s.lore.sources.sync_pending(5), ScopeError, "scope"),
    (
        "sync-max-items-str",
        lambda s: s.lore.sources.sync_pending("u1", max_items="all"),
        InvalidInputError,
        "max_items",
    ),
    # -- facets ---------------------------------------------------------------------------------
    (
        "facet-class-unknown",
        lambda s: s.lore.facets.list("u1", "bogus"),
        InvalidInputError,
        "facet class",
    ),
    (
        "facet-value-nul",
        lambda s: s.lore.facets.update("u1", "style", "style/format", "bullets\x00"),
        InvalidInputError,
        "value",
    ),
]


def test_the_table_is_large_enough() -> None:
    assert len(CASES) >= 60
    assert len({c[0] for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    ("call", "error", "fragment"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_bad_input_is_typed_names_its_field_and_writes_nothing(
    seeded: Seeded, call: Call, error: type[UserloreError], fragment: str
) -> None:
    before = row_counts(seeded.lore)
    with pytest.raises(UserloreError) as info:
        call(seeded)
    assert isinstance(info.value, error), f"{type(info.value).__name__}: {info.value}"
    assert fragment in str(info.value)
    assert row_counts(seeded.lore) == before


def test_string_states_are_accepted(seeded: Seeded) -> None:
    by_value = seeded.lore.records.list("u1", "active")
    by_list = seeded.lore.records.list("u1", ["active", RecordState.CANDIDATE])
    by_enum = seeded.lore.records.list("u1", RecordState.ACTIVE)
    assert [r.id for r in by_value] == [r.id for r in by_enum] == [r.id for r in by_list]
    assert seeded.record_id in {r.id for r in by_value}


def test_consent_takes_the_enum_or_its_value(seeded: Seeded) -> None:
    lore = seeded.lore
    lore.consent.grant("u9", ConsentCategory.RELIGION)
    lore.consent.grant("u9", " Health ")
    assert lore.consent.list("u9") == {"religion", "health"}
    lore.consent.revoke("u9", "religion")
    assert lore.consent.list("u9") == {"health"}


# -- opening ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "fragment"),
    [
        ([], "config must be"),
        (42, "config must be"),
        (b"{}", "config must be"),
        ({"memory": {"sources": ["session", "nope"]}}, "memory.sources"),
        ({"memory": {"sources": "session"}}, "memory.sources"),
        ({"memory": {"mode": "sometimes"}}, "memory.mode"),
        ("missing\x00.json", "config file"),
    ],
)
def test_open_refuses_bad_config(config: object, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        Userlore.open("sqlite://", config=config)
    assert fragment in str(info.value)


def test_unknown_memory_source_lists_the_allowed_values() -> None:
    with pytest.raises(ConfigError) as info:
        Userlore.open("sqlite://", config={"memory": {"sources": ["nope"]}})
    message = str(info.value)
    assert "nope" in message and all(v in message for v in ("session", "curated", "connected"))


def test_open_refuses_a_non_string_url() -> None:
    with pytest.raises(ConfigError, match="url"):
        Userlore.open(5)
    with pytest.raises(ConfigError, match="url"):
        Userlore.open("sqlite:///tmp/a\x00b.db")


def test_a_corrupt_database_file_is_a_storage_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.db"
    path.write_bytes(os.urandom(8192))
    with pytest.raises(StorageError) as info:
        Userlore.open(f"sqlite:///{path}")
    assert str(path) in str(info.value)
    assert path.read_bytes() != b""  # left alone for the user to inspect


def test_an_unreachable_postgres_is_a_storage_error_without_the_password() -> None:
    url = "postgresql+psycopg://someone:hunter2@127.0.0.1:1/userlore"
    with pytest.raises(StorageError) as info:
        Userlore.open(url)
    assert "127.0.0.1" in str(info.value)
    assert "hunter2" not in str(info.value)


# -- arbitrary input ----------------------------------------------------------------------------

ANY_TEXT = st.text(
    alphabet=st.characters(codec=None, exclude_categories=()),  # surrogates, NUL, controls
    max_size=60,
)
HOSTILE = st.one_of(
    ANY_TEXT,
    st.text(alphabet="\x00\x01\x1b\x7f\u200b\ud800\udfff aé中", max_size=20),
    st.binary(max_size=20),
    st.integers(),
    st.none(),
    st.floats(allow_nan=True),
)
OPERATIONS = st.sampled_from(
    ["observe", "write", "remember", "kind", "consent", "plan", "update", "open"]
)


def _operate(
    lore: Userlore, op: str, scope: object, text: object, extra: object, record_id: str = ""
) -> object:
    if op == "kind":
        return lore.write(scope, CandidateInput(kind=text, content="A plain fact."))
    if op == "consent":
        return lore.consent.grant(scope, text)
    if op == "plan":
        return lore.plan_context(scope, text, extra)
    if op == "update":
        return lore.records.update(scope, record_id, text)
    if op == "open":
        Userlore.open("sqlite://", config=text).close()  # a fresh database, never this one
        return None
    if op == "observe":
        return lore.observe(scope, "user", text, extra)
    if op == "write":
        return lore.write(scope, CandidateInput(kind="note", content=text, value=extra))
    return lore.memory.remember(
        scope, text, path="notes/fuzz", memory_type="semantic", session_key=extra
    )


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    op=OPERATIONS,
    scope=st.one_of(st.just("u1"), HOSTILE),
    text=HOSTILE,
    extra=st.one_of(st.none(), HOSTILE),
)
def test_arbitrary_input_only_raises_typed_errors_and_never_writes_half(
    seeded: Seeded, op: str, scope: object, text: object, extra: object
) -> None:
    before = row_counts(seeded.lore)
    try:
        _operate(seeded.lore, op, scope, text, extra, seeded.record_id)
    except UserloreError:
        assert row_counts(seeded.lore) == before
