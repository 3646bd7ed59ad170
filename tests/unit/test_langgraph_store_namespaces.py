"""The store's namespace encoding: user label dropped from the path, its position in the key."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from userlore import InvalidInputError
from userlore.integrations.langgraph_store.namespaces import (
    NamespaceTemplate,
    locate,
    namespace_for,
    parse_store_key,
)

LABEL = st.from_regex(r"[a-z0-9_-]{1,8}", fullmatch=True)


@given(
    labels=st.lists(LABEL, max_size=4),
    position=st.one_of(st.none(), st.integers(0, 4)),
    key=st.text(min_size=1, max_size=20).filter(lambda k: "\x00" not in k),
)
def test_every_layout_round_trips(labels: list[str], position: int | None, key: str) -> None:
    user = "user-1"
    labels = [x for x in labels if x != user]
    namespace = list(labels)
    if position is not None:
        position = min(position, len(labels))
        namespace.insert(position, user)
    where = locate(namespace, user, position)
    assert where.path == "/".join(labels)  # the user label is never in the stored path
    parsed = parse_store_key(where.store_key(key))
    assert parsed == (position, key)  # keys may hold '#', '@' and '/'
    assert namespace_for(user, where.path, parsed[0]) == tuple(namespace)


def test_zero_x_keys_read_as_user_first() -> None:
    assert parse_store_key("store:prefs#food") == (0, "food")
    assert parse_store_key("style/verbosity") is None and parse_store_key(None) is None


def test_template_fits_only_its_layout() -> None:
    template = NamespaceTemplate.parse(("memories", "{user_id}", "profile"))
    assert template.position == 1
    assert template.user_in(("memories", "ana", "profile")) == "ana"
    assert template.user_in(("memories", "ana")) == "ana"  # a prefix reaching the user label
    assert template.user_in(("memories",)) is None
    assert template.user_in(("notes", "ana")) is None
    assert template.user_in(("memories", "ana", "other")) is None


@pytest.mark.parametrize("bad", [(), ("a",), ("{a}", "{b}"), ("{a}", ""), "x/{a}", ("*", "{a}")])
def test_bad_templates_are_refused(bad: object) -> None:
    with pytest.raises(InvalidInputError):
        NamespaceTemplate.parse(bad)  # type: ignore[arg-type]


@given(st.text(min_size=1).filter(lambda s: "." not in s and "\x00" not in s))
def test_every_label_langgraph_accepts_encodes_to_one_path_segment_and_back(label: str) -> None:
    from userlore.integrations.langgraph_store.namespaces import decode_label, encode_label
    from userlore.validation import validate_path

    segment = encode_label(label)
    assert "/" not in segment and validate_path(segment) == segment
    assert decode_label(segment) == label


@pytest.mark.parametrize(
    ("label", "segment"),
    [("prefs", "prefs"), ("a-b_c", "a-b_c"), ("a b", "-.a.20b"), ("-x y", "-..2Dx.20y")],
)
def test_word_labels_are_stored_as_they_are_and_others_are_marked(label: str, segment: str) -> None:
    from userlore.integrations.langgraph_store.namespaces import encode_label

    assert encode_label(label) == segment
