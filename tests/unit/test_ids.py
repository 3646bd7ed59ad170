"""Ids derived from a scope and a key never collide across scopes (issue 15)."""

from __future__ import annotations

import itertools

import pytest

from userlore.store import core
from userlore.store.ids import MAX_DERIVED_ID_CHARS, derived_id, escape_part, scoped_digest


def test_colon_scopes_and_keys_give_distinct_ids() -> None:
    pairs = [("a:b", "c"), ("a", "b:c"), ("a", "b%3Ac"), ("a%3Ab", "c"), ("a:b:c", "default")]
    ids = [derived_id("conversation", scope, key) for scope, key in pairs]
    assert len(set(ids)) == len(ids)
    # every id splits back into exactly its three escaped parts
    for (scope, key), built in zip(pairs, ids, strict=True):
        assert built.split(":") == ["conversation", escape_part(scope), escape_part(key)]


def test_plain_scopes_keep_their_previous_ids() -> None:
    assert derived_id("conversation", "alice", "default") == "conversation:alice:default"
    assert derived_id("tool", "team-a") == "tool:team-a"


def test_long_keys_are_digested_but_stay_apart_by_scope() -> None:
    key = "k" * 400
    one, two = derived_id("conversation", "a", key), derived_id("conversation", "b", key)
    assert len(one) <= MAX_DERIVED_ID_CHARS and one != two
    assert one.startswith("conversation:a:sha256-")
    assert derived_id("conversation", "a", key + "x") != one


def test_scoped_digest_includes_the_scope() -> None:
    digests = {scoped_digest(s, t) for s, t in itertools.product(["a", "a:b", "b"], ["x", "y"])}
    assert len(digests) == 6
    assert scoped_digest("a", "b:x") != scoped_digest("a:b", "x")


def test_new_ids_sort_by_the_millisecond_they_were_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ids made later sort after earlier ones (the unique indexes on ids take a bulk load's
    rows at their end), keep their shape, and differ within one millisecond."""
    made = []
    for ms in (1_700_000_000_000, 1_700_000_000_001, 1_800_000_000_000):
        monkeypatch.setattr(core.time, "time_ns", lambda ms=ms: ms * 1_000_000)
        made.extend(core._new_id("mem") for _ in range(50))
    assert made[::50] == sorted(made[::50]) and made[49] < made[50] < made[100]
    assert len(set(made)) == len(made)
    assert all(len(i) == 28 and i.startswith("mem_") and int(i[4:], 16) >= 0 for i in made)
