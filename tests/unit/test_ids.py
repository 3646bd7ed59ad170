"""Ids derived from a scope and a key never collide across scopes (issue 15)."""

from __future__ import annotations

import itertools

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
