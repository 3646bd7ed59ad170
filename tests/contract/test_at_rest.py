"""Nothing the floor blocks is ever stored in clear, in any table, on any backend.

One value of each structured class is planted through every public path that persists text: a
user turn (``observe``), a direct write, a connected source item (text, title, meta and external
id), an inbox edit, a record update, a facet update and a plan query. Then every row of every
table of the schema is read back, all columns serialised, and none may hold a planted value. The
check runs per table, so a new table that stores text is covered the day it is added.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest
from sqlalchemy import select
from stdnum import verhoeff

from tests.conftest import FakeClock, PostgresDatabases, sequential_ids
from userlore import (
    CandidateInput,
    InvalidInputError,
    PolicyViolationError,
    RecordState,
    Userlore,
)
from userlore.sources import ItemListSource, SourceItem
from userlore.store.schema import Base

_AADHAAR = "23456789012" + verhoeff.calc_check_digit("23456789012")
# (class, sentence, values that must never be stored as written)
PLANTED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("aws_key_id", "Our backup key id is AKIA0189ABCDEFGH0189 for now.", ("AKIA0189ABCDEFGH0189",)),
    (
        "github_token",
        "The CI token is ghp_9Kx2Lm8QrT4vNz7pWc1bH6yD3sJ0fG5eAuOi please keep it.",
        ("ghp_9Kx2Lm8QrT4vNz7pWc1bH6yD3sJ0fG5eAuOi",),
    ),
    (
        "url_query_key",
        "Fetch https://api.example.net/v1/feed?city=Oslo&api_key=Qm7Kx2Lr9TzW4vNp daily.",
        ("Qm7Kx2Lr9TzW4vNp",),
    ),
    (
        "split_key",
        "The deploy key is glpat-7Kx9Qm and then 2LrT4vNz8pWc for the runner.",
        ("glpat-7Kx9Qm", "2LrT4vNz8pWc"),
    ),
    (
        "recovery_codes",
        "My backup codes are 4821-9930, 7712-0458 and 3390-1176.",
        ("4821-9930", "7712-0458", "3390-1176"),
    ),
    ("spelled_password", "My wifi password is h-u-n-t-e-r-2-2 at home.", ("h-u-n-t-e-r-2-2",)),
    ("pin", "The code to unlock my phone is 271903, remember it.", ("271903",)),
    ("card", "Charge the card 4111 1111 1111 1111 for the renewal.", ("4111 1111 1111 1111",)),
    ("iban", "Salary goes to DE89 3704 0044 0532 0130 00 each month.", ("DE89 3704 0044 0532",)),
    ("sg_nric", "My NRIC is S1234567D for the form.", ("S1234567D",)),
    ("hkid", "My HKID is A123456(3) on file.", ("A123456(3)",)),
    ("mrz", "Passport MRZ: L898902C36UTO7408122F1204159ZE184226B<<<<<10 ok.", ("L898902C36",)),
    ("kr_rrn", "My resident registration number is 880714-2231712.", ("880714-2231712",)),
    (
        "aadhaar",
        f"My Aadhaar is {_AADHAAR[:4]} {_AADHAAR[4:8]} {_AADHAAR[8:]}.",
        (_AADHAAR[4:8] + " " + _AADHAAR[8:],),
    ),
    ("finance", "My credit score is 712 and I make 84,500 a year.", ("84,500",)),
)
# Session keys a caller might derive from a URL or a credential: refused on every entry that
# takes one (``InvalidInputError`` naming ``session_key``), so none reaches a trace, a source
# instance id or evidence. (key, values that must never be stored)
SESSION_SECRETS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("s?token=Zq8Lm2Rx9Kt4Wv7N", ("Zq8Lm2Rx9Kt4Wv7N",)),
    ("chat-AKIA1111222233334444", ("AKIA1111222233334444",)),
    ("ghp_4Rt7Yp2Lk9Mn3Bv6Cx1Za8Sd5Fg0Hj2Kq7WeX", ("ghp_4Rt7Yp2Lk9Mn3Bv6Cx1Za8Sd5Fg0Hj2Kq7WeX",)),
    ("ssn-123-45-6789", ("123-45-6789",)),
)
SCOPE = "u-at-rest"
NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


@dataclass
class Planted:
    lore: Userlore
    rows: dict[str, list[str]]
    edits: int
    refused: int
    session_tries: int
    session_refused: int


def _plant(lore: Userlore) -> tuple[int, int]:
    """Plant every value through every path; return (edits tried, edits refused)."""
    # Benign records first, so the inbox edits and record updates below have rows to change.
    seeds = [
        lore.write(SCOPE, CandidateInput(kind="note", content=f"Runbook {i} lives in the wiki."))
        for i in range(2 * len(PLANTED))
    ]
    for seed in seeds[len(PLANTED) :]:
        assert seed.record is not None
        lore.records.approve(SCOPE, seed.record.id)
    lore.observe(SCOPE, "user", "Always answer in bullet points.", "s-seed")
    items = []
    for i, (cls, sentence, _) in enumerate(PLANTED):
        lore.observe(SCOPE, "user", sentence, f"s-{cls}")
        lore.write(SCOPE, CandidateInput(kind="note", content=f"Note: {sentence}"))
        items.append(
            SourceItem(
                external_id=f"https://wiki.example/doc/{i}?api_key=Qm7Kx2Lr9TzW4vNp",
                text=f"Runbook entry {i}. {sentence}",
                title=sentence[:60],
                meta={"comment": sentence},
            )
        )
        lore.plan_context(SCOPE, sentence, f"s-{cls}")
    lore.sources.ingest(SCOPE, ItemListSource("runbooks", items))
    inbox = lore.records.list(SCOPE, [RecordState.CANDIDATE, RecordState.NEEDS_REVIEW])
    edits: list[Callable[[], object]] = []
    for view, (_, sentence, _) in zip(inbox, PLANTED, strict=False):
        edits.append(partial(lore.records.approve, SCOPE, view.id, content=f"Edited: {sentence}"))
    active = lore.records.list(SCOPE, [RecordState.ACTIVE])
    for view, (_, sentence, _) in zip(active, PLANTED, strict=False):
        edits.append(partial(lore.records.update, SCOPE, view.id, f"Updated: {sentence}"))
    for _, sentence, _ in PLANTED:
        edits.append(partial(lore.facets.update, SCOPE, "identity", "role", sentence))
    refused = 0
    for edit in edits:
        try:
            edit()
        except PolicyViolationError:
            refused += 1  # refusing the value outright is as good as storing it redacted
    return len(edits), refused


def _session_entries(lore: Userlore, key: str) -> list[Callable[[], object]]:
    """Every public entry that takes a session key, called with ``key``."""
    return [
        partial(lore.observe, SCOPE, "user", "Always answer in tables.", key),
        partial(lore.plan_context, SCOPE, "how should you answer", key),
        partial(lore.write, SCOPE, CandidateInput(kind="note", content="Plain.", session_key=key)),
        partial(
            lore.memory.remember,
            SCOPE,
            "Plain.",
            path="notes/a",
            memory_type="semantic",
            session_key=key,
        ),
        partial(lore.memory.recall, SCOPE, "plain", session_key=key),
        partial(lore.feedback.handle_correction, SCOPE, "No, use prose.", key),
        partial(lore.feedback.set_response_feedback, SCOPE, key, NOW, "helpful"),
    ]


def _plant_session_keys(lore: Userlore) -> tuple[int, int]:
    """Try every session-key entry with every secret key; return (tries, refused by name)."""
    tries = refused = 0
    for key, _ in SESSION_SECRETS:
        for entry in _session_entries(lore, key):
            tries += 1
            try:
                entry()
            except InvalidInputError as exc:
                refused += "session_key" in str(exc)
    return tries, refused


def _dump(lore: Userlore) -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    with lore.store.engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            rows[table.name] = [
                json.dumps(dict(r._mapping), default=str, ensure_ascii=False)
                for r in conn.execute(select(table))
            ]
    return rows


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def planted(request: pytest.FixtureRequest) -> Iterator[Planted]:
    if request.param == "sqlite":
        url = "sqlite://"
    else:
        dbs: PostgresDatabases = request.getfixturevalue("postgres_databases")
        url = dbs.fresh()
    config: dict[str, Any] = {
        "memory": {"mode": "confirmWrite", "sources": ["session", "curated", "connected"]}
    }
    lore = Userlore.open(url, config=config, clock=FakeClock(NOW), ids=sequential_ids())
    edits, refused = _plant(lore)
    tries, session_refused = _plant_session_keys(lore)
    yield Planted(lore, _dump(lore), edits, refused, tries, session_refused)
    lore.close()


# Tables every planting path above must have written to: the check is not vacuous.
WRITTEN = {
    "memory_records",
    "memory_record_versions",
    "knowledge_source_items",
    "memory_evidence",
    "memory_trace_events",
    "review_decisions",
    "knowledge_source_changes",
}


@pytest.mark.parametrize("table", [t.name for t in Base.metadata.sorted_tables])
def test_no_planted_value_is_stored_in_clear(planted: Planted, table: str) -> None:
    rows = planted.rows[table]
    if table in WRITTEN:
        assert rows, f"{table} got no rows: the planting paths changed"
    planted = [*PLANTED, *((key, key, values) for key, values in SESSION_SECRETS)]
    leaks = [
        (cls, value)
        for cls, _, values in planted
        for value in values
        for row in rows
        if value in row or value in row.replace("\\u003c", "<")
    ]
    assert not leaks, f"{table}: {sorted(set(leaks))}"


def test_the_planted_sentences_were_stored_redacted(planted: Planted) -> None:
    texts = "\n".join(planted.rows["knowledge_source_items"])
    assert "[REDACTED:" in texts
    assert "Runbook entry" in texts and "backup key id" in texts  # the prose around stays


def test_inbox_edits_record_updates_and_facet_values_with_a_secret_are_refused(
    planted: Planted,
) -> None:
    assert planted.edits == 3 * len(PLANTED)
    assert planted.refused == planted.edits


def test_a_session_key_with_a_secret_is_refused_on_every_entry(planted: Planted) -> None:
    assert planted.session_tries == len(SESSION_SECRETS) * 7
    assert planted.session_refused == planted.session_tries


def test_a_refused_session_key_writes_nothing(planted: Planted) -> None:
    before = _dump(planted.lore)
    for entry in _session_entries(planted.lore, SESSION_SECRETS[0][0]):
        with pytest.raises(InvalidInputError, match="session_key"):
            entry()
    assert _dump(planted.lore) == before


def test_an_external_id_with_a_secret_is_kept_unique_without_the_secret(planted: Planted) -> None:
    ids = [json.loads(r)["external_id"] for r in planted.rows["knowledge_source_items"]]
    hashed = [i for i in ids if i.startswith("sha256:")]
    assert len(hashed) == len(PLANTED) == len(set(hashed))


def test_a_source_instance_id_with_a_secret_is_refused(planted: Planted) -> None:
    before = len(_dump(planted.lore)["knowledge_source_items"])
    source = ItemListSource("feed?token=Zq8Lm2Rx9Kt4Wv7N", [SourceItem("a", "Plain text.")])
    with pytest.raises(InvalidInputError, match="source_instance_id"):
        planted.lore.sources.ingest(SCOPE, source)
    assert len(_dump(planted.lore)["knowledge_source_items"]) == before
