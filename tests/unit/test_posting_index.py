"""The in-memory posting index answers as FTS5 does and follows every write (issue 23 item 5).

Parity is checked against the database's own ranking over the same records (scores, not only
ids: ties at the cut may be ordered differently); the generation triggers are checked per kind
of change, and the policy filter is checked to stay exact while the index is in use.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
from sqlalchemy import Connection, text

from userlore import CandidateInput, Userlore
from userlore.models import WriteOutcome
from userlore.store.posting_index import fts5_tokens, indexes_for
from userlore.store.purge import purge
from userlore.store.retrieval import RECORD_HITS, TermStatistics, fulltext_hits

SCOPE = "u1"
_WORDS = [
    "running",
    "runs",
    "run",
    "runner",
    "hiking",
    "hiked",
    "trail",
    "café",
    "cafe",
    "naïve",
    "résumé",
    "caroline's",
    "dentist",
    "appointment",
    "tuesday",
    "lisbon",
    "porto",
    "guitar",
    "lessons",
    "sourdough",
    "bakery",
    "vegan",
    "pnpm",
    "npm",
    "typescript",
    "rust",
    "compiler",
    "2024",
    "42",
    "marathon",
    "training",
    "knee",
    "injury",
]
_CJK = ["我们去西湖跑步", "西湖边跑步路线", "周二看牙医", "我喜欢吃寿司", "杭州的咖啡店"]


def _sentence(rng: random.Random) -> str:
    words = rng.choices(_WORDS, k=rng.randint(3, 12))
    if rng.random() < 0.2:
        words.append(rng.choice(_CJK))
    return " ".join(words)


@pytest.fixture
def lore() -> Iterator[Userlore]:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    rng = random.Random(7)
    store = lore.memory.store
    with store.transaction() as session:
        for _ in range(400):
            store.govern(session, SCOPE, CandidateInput(kind="note", content=_sentence(rng)))
    yield lore
    lore.close()


def _hits(conn: Connection, query: str, memory: bool, k: int = 10) -> dict[int, float]:
    registry = indexes_for(conn)
    assert registry is not None
    registry.above = 0 if memory else 10**9
    registry.clear()
    return fulltext_hits(conn, SCOPE, query, k, TermStatistics(), posting_budget=150)


def test_tokens_are_fts5s_own() -> None:
    assert fts5_tokens(["zqabrunning café caroline's zqab我 zqab们"]) == [
        ("zqabrun", "cafe", "carolin", "s", "zqab我", "zqab们")
    ]


def test_hits_match_fts5(lore: Userlore) -> None:
    rng = random.Random(11)
    queries = [" ".join(rng.sample(_WORDS, rng.randint(1, 5))) for _ in range(60)]
    queries += [*_CJK, "caroline's guitar", "runner's knee", "résumé naive"]
    compared = 0
    with lore.store.connection() as conn:
        for query in queries:
            memory, fts5 = _hits(conn, query, True), _hits(conn, query, False)
            assert sorted(memory.values()) == pytest.approx(sorted(fts5.values())), query
            if fts5:
                # Ids may differ only among records tied at the cut.
                cut = min(fts5.values())
                assert {s for s, v in memory.items() if v > cut + 1e-9} == {
                    s for s, v in fts5.items() if v > cut + 1e-9
                }, query
                compared += 1
    assert compared > 40


def _ids(conn: Connection, query: str) -> list[str]:
    return [row.id for row, _ in RECORD_HITS.search(conn, SCOPE, query, 20, TermStatistics())]


def test_writes_apply_as_deltas(lore: Userlore) -> None:
    with lore.store.connection() as conn:
        registry = indexes_for(conn)
        assert registry is not None
        registry.above = 0
        registry.clear()
        assert _ids(conn, "zanzibar") == []
        assert registry.rebuilds == 1
    written = lore.write(SCOPE, CandidateInput(kind="note", content="trip to zanzibar in june"))
    with lore.store.connection() as conn:
        assert _ids(conn, "zanzibar") == [_id(written)]
        # A state change keeps the text: the record stays indexed; the caller's filter decides.
        conn.execute(
            text("UPDATE memory_records SET state = 'deleted' WHERE id = :id"),
            {"id": _id(written)},
        )
        conn.execute(
            text("UPDATE memory_records SET search_text = :t WHERE id = :id"),
            {"t": "zzzz nothing here", "id": _id(written)},
        )
        assert _ids(conn, "zanzibar") == []
    assert registry.rebuilds == 1  # every change so far came as a delta


def test_hard_delete_rebuilds(lore: Userlore) -> None:
    written = lore.write(SCOPE, CandidateInput(kind="note", content="a quokka at the zoo"))
    with lore.store.connection() as conn:
        registry = indexes_for(conn)
        assert registry is not None
        registry.above = 0
        registry.clear()
        assert _ids(conn, "quokka") == [_id(written)]
        conn.execute(
            text("DELETE FROM memory_evidence WHERE record_id = :id"), {"id": _id(written)}
        )
        conn.execute(
            text("DELETE FROM memory_record_versions WHERE record_id = :id"),
            {"id": _id(written)},
        )
        conn.execute(text("DELETE FROM memory_records WHERE id = :id"), {"id": _id(written)})
        assert _ids(conn, "quokka") == []
        assert registry.rebuilds == 2


def _id(outcome: WriteOutcome) -> str:
    assert outcome.record is not None, outcome.reason
    return outcome.record.id


def _generation(conn: Connection, scope: str = SCOPE) -> tuple[int, int] | None:
    row = conn.execute(
        text("SELECT generation, reset FROM memory_record_generations WHERE scope = :s"),
        {"s": scope},
    ).first()
    return None if row is None else (int(row[0]), int(row[1]))


def test_every_change_bumps_the_generation(lore: Userlore) -> None:
    with lore.store.connection() as conn:
        before = _generation(conn)
    assert before is not None
    written = lore.write(SCOPE, CandidateInput(kind="note", content="bumped by an insert"))
    with lore.store.connection() as conn:
        after_insert = _generation(conn)
        assert after_insert is not None and after_insert[0] > before[0]
        changed = conn.execute(
            text(
                "SELECT generation FROM memory_record_changes WHERE seq = ("
                "SELECT seq FROM memory_records WHERE id = :id)"
            ),
            {"id": _id(written)},
        ).scalar_one()
        assert changed > before[0]
        conn.execute(
            text("UPDATE memory_records SET importance = importance WHERE id = :id"),
            {"id": _id(written)},
        )
        after_update = _generation(conn)
        assert after_update is not None and after_update[0] > after_insert[0]
        assert after_update[1] == after_insert[1]  # an update is a delta, not a reset
    lore.memory.forget(SCOPE, _id(written))
    with lore.store.connection() as conn:
        after_forget = _generation(conn)
        assert after_forget is not None and after_forget[0] > after_insert[0]


def test_purged_scope_leaves_no_generation(lore: Userlore) -> None:
    lore.write("u2", CandidateInput(kind="note", content="short lived scope"))
    with lore.store.connection() as conn:
        assert _generation(conn, "u2") is not None
    purge(lore.store, "u2")
    with lore.store.connection() as conn:
        assert _generation(conn, "u2") is None
        assert (
            conn.execute(
                text("SELECT count(*) FROM memory_record_changes WHERE scope = 'u2'")
            ).scalar_one()
            == 0
        )


def test_policy_stays_exact_with_the_index(lore: Userlore) -> None:
    old = lore.write(
        SCOPE,
        CandidateInput(
            kind="preference",
            canonical_key="diet/main",
            value="vegetarian",
            content="I am vegetarian",
        ),
    )
    with lore.store.connection() as conn:
        mine = indexes_for(conn)
        assert mine is not None
        mine.above = 0
        mine.clear()
    plan = lore.plan_context(SCOPE, "vegetarian diet")
    assert _id(old) in plan.selected_ids
    new = lore.write(
        SCOPE,
        CandidateInput(
            kind="preference",
            canonical_key="diet/main",
            value="pescatarian",
            content="I eat fish now, pescatarian",
        ),
    )
    plan = lore.plan_context(SCOPE, "vegetarian diet pescatarian")
    assert _id(old) not in plan.selected_ids
    assert _id(new) in plan.selected_ids
    assert mine.rebuilds == 1  # built by the first plan; the writes came as deltas


def test_a_changed_row_is_read_again(lore: Userlore) -> None:
    written = lore.write(SCOPE, CandidateInput(kind="note", content="the okapi enclosure"))
    with lore.store.connection() as conn:
        registry = indexes_for(conn)
        assert registry is not None
        registry.above = 0
        registry.clear()
        hits = RECORD_HITS.search(conn, SCOPE, "okapi", 5, TermStatistics())
        assert [row.state for row, _ in hits] == ["active"]
        conn.execute(
            text("UPDATE memory_records SET state = 'deleted' WHERE id = :id"), {"id": _id(written)}
        )
        hits = RECORD_HITS.search(conn, SCOPE, "okapi", 5, TermStatistics())
        assert [row.state for row, _ in hits] == ["deleted"]  # not the cached active row


def test_a_schema_without_generations_falls_back_to_fts5(lore: Userlore) -> None:
    written = lore.write(SCOPE, CandidateInput(kind="note", content="a wombat burrow"))
    with lore.store.connection() as conn:
        for trigger in ("ai", "au", "ad"):
            conn.execute(text(f"DROP TRIGGER memory_records_gen_{trigger}"))
        conn.execute(text("DROP TABLE memory_record_changes"))
        conn.execute(text("DROP TABLE memory_record_generations"))
        registry = indexes_for(conn)
        assert registry is not None
        registry.above = 0
        registry.clear()
        assert _ids(conn, "wombat") == [_id(written)]
        assert registry.rebuilds == 0
    assert _id(written) in lore.plan_context(SCOPE, "wombat burrow").selected_ids


def test_hit_rows_through_the_driver_are_sqlalchemys_rows(lore: Userlore) -> None:
    """The driver-level hit-row read (issue 23 item 5) returns what ``Connection.execute``
    does: same names, same values, same types (tz-aware datetimes, JSON decoded), every
    column of a record and the planner's narrower set."""
    from datetime import UTC, datetime, timedelta

    from userlore.planner.planner import PLAN_COLUMNS
    from userlore.store.retrieval import _BY_SEQ

    until = datetime(2031, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    lore.write(
        SCOPE,
        CandidateInput(
            kind="preference",
            canonical_key="food/breakfast",
            value="porridge",
            content="I eat porridge for breakfast",
            valid_until=until,
        ),
    )
    with lore.store.connection() as conn:
        seqs = {
            int(s): 0.5 + i
            for i, s in enumerate(conn.scalars(text("SELECT seq FROM memory_records")))
        }
        checked = 0
        for reader in (RECORD_HITS, PLAN_COLUMNS.hits):
            direct = reader.load_by_seq(conn, seqs)
            via = list(
                conn.execute(
                    reader._statement(conn, _BY_SEQ),
                    {"hits": json.dumps({str(s): v for s, v in seqs.items()})},
                )
            )
            assert len(direct) == len(via) == len(seqs) > 400
            for a, b in zip(direct, via, strict=True):
                assert tuple(a._fields) == tuple(b._fields)
                assert tuple(a) == tuple(b)
                assert [type(x) for x in a] == [type(x) for x in b]
                checked += 1
            dated = [r for r in direct if r.valid_until is not None]
            assert [r.valid_until for r in dated] == [until]
            assert all(
                r.updated_at.tzinfo is not None and r.updated_at.utcoffset() == timedelta(0)
                for r in direct
            )
        assert checked == 2 * len(seqs)


def test_top_k_is_the_full_sorts_prefix_with_ties_at_the_cut() -> None:
    """``top`` sorts only the records scoring at least the k-th best: the same k, same order
    (score, then newest) as sorting every match, also when many tie at the cut."""
    from userlore.store.posting_index import ScopePostings

    rng = random.Random(3)
    postings = ScopePostings(0, 0)
    words = ["alpha", "beta", "gamma", "delta"]
    postings.apply(
        1, [(seq, tuple(rng.choices(words, k=rng.randint(1, 3)))) for seq in range(1, 600)]
    )
    phrases = [("alpha",), ("beta",), ("gamma",)]
    for k in (1, 5, 40, 200, 1000):
        got = postings.top(phrases, k)
        everything = postings.top(phrases, 10**6)  # every match: no cut, the full sort
        assert got == everything[:k]
    scores = [s for _, s in postings.top(phrases, 10**6)]
    assert len(scores) > len(set(scores)) * 5  # many ties: the cut falls inside them


@pytest.mark.parametrize(
    "occurrences",
    [
        [],
        [7],
        [3, 3, 3],
        [1, 1, 2, 5, 5, 5, 9],  # as appended: in order, a record's occurrences together
        [2, 4, 4, 9, 4, 4],  # record 4 rewritten after 9: out of order
        [9, 1, 1, 3],
    ],
)
def test_counted_postings_and_merged_hits_are_numpys_unique(occurrences: list[int]) -> None:
    """The run-length counts of a phrase's postings and the stable-sort merge of several
    phrases' hits give exactly ``np.unique``'s arrays (dtypes too), in order or not."""
    import numpy as np

    from userlore.store.bm25 import _unique_inverse
    from userlore.store.posting_index import _counted

    occ = np.array(occurrences, dtype=np.int64)
    for got, want in zip(_counted(occ), np.unique(occ, return_counts=True), strict=True):
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
    merged = np.concatenate([occ, np.array(sorted(set(occurrences[::2])), dtype=np.int64)])
    for got, want in zip(
        _unique_inverse(merged), np.unique(merged, return_inverse=True), strict=True
    ):
        assert got.dtype == want.dtype and got.tolist() == want.tolist()


def test_postings_after_a_rewrite_count_like_a_fresh_build() -> None:
    """A record rewritten after newer ones (its postings appended last) scores as in an index
    built from the final texts."""
    from userlore.store.posting_index import ScopePostings

    texts = {1: ("a", "b", "a"), 2: ("a",), 3: ("b", "a", "a", "a")}
    grown = ScopePostings(0, 0)
    grown.apply(1, list(texts.items()))
    grown.top([("a",)], 10)  # cache the phrase's arrays, dropped by the rewrite below
    texts[1] = ("a", "a", "c")
    grown.apply(2, [(1, texts[1])])
    fresh = ScopePostings(0, 0)
    fresh.apply(2, sorted(texts.items()))
    for phrases in ([("a",)], [("a",), ("b",)], [("c",), ("a",)]):
        assert grown.top(phrases, 10) == fresh.top(phrases, 10)
