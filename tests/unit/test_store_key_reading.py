"""A store put's key is read apart from its namespace path by the floor's key check.

The canonical key of a put is ``store:<path>[@n]#<key>``. Read whole, the writer's ``#``
joined the last label and the caller's key into one password-shaped token: ``put(("u1",
"notes"), "17", …)`` was refused as a secret ("notes#17"), and a password-shaped key
("Sonnenblume#1987") passed, because the token's left edge was that ``#``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langgraph.store.base import PutOp

from userlore import Userlore
from userlore.errors import PolicyViolationError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.policy.govern import key_refusal, keys_as_read


@pytest.mark.parametrize(
    ("key", "path", "read"),
    [
        ("store:notes#17", "notes", "store:notes / 17"),
        ("store:a/b@#x", "a/b", "store:a/b@ / x"),
        ("store:a/b@2#x#y", "a/b", "store:a/b@2 / x#y"),  # only the writer's '#'
        ("store:other#17", "notes", "store:other#17"),  # not this candidate's path
        ("style/verbosity", None, "style/verbosity"),
        ("style#17", "style", "style#17"),  # no prefix: not a composed key
    ],
)
def test_the_writers_separator_is_read_apart(key: str, path: str | None, read: str) -> None:
    assert keys_as_read(key, path) == (read, path)


@pytest.mark.parametrize("label", ["notes", "memories", "prefs", "profile", "fruits", "token"])
@pytest.mark.parametrize("key", ["17", "2024", "4821", "123"])
def test_a_number_under_a_word_is_no_password(label: str, key: str) -> None:
    assert key_refusal(f"store:{label}#{key}") == "secret"  # read whole: the old verdict
    assert key_refusal(*keys_as_read(f"store:{label}#{key}", label)) is None


@pytest.mark.parametrize(
    ("label", "key", "refusal"),
    [
        ("notes", "Sonnenblume#1987", "secret"),  # passed when read whole
        ("password", "Hunter2x!", "secret"),
        ("notes", "sk_live_abcdefghijklmnop1234", "secret"),
        ("notes", "123-45-6789", "regulated"),
        ("notes", "4111111111111111", "regulated"),
        ("cvv", "123", "regulated"),
    ],
)
def test_what_the_key_holds_is_still_refused(label: str, key: str, refusal: str) -> None:
    assert key_refusal(*keys_as_read(f"store:{label}#{key}", label)) == refusal


def test_the_store_keeps_numbered_keys_and_refuses_a_password_key(
    make_lore: Callable[..., Userlore],
) -> None:
    store = UserloreStore(make_lore("auto"), namespace_template=("{user_id}",))
    for key in ("17", "2024"):
        store.put(("u1", "notes"), key, {"text": "a plain note"})
        item = store.get(("u1", "notes"), key)
        assert item is not None and item.value == {"text": "a plain note"}
    store.batch([PutOp(("u1", "notes"), str(i), {"text": f"note {i}"}) for i in range(40, 80)])
    assert len(store.search(("u1", "notes"), limit=100)) == 42
    with pytest.raises(PolicyViolationError):
        store.put(("u1", "notes"), "Sonnenblume#1987", {"text": "a plain note"})
    with pytest.raises(PolicyViolationError):
        store.batch(
            [
                PutOp(("u1", "notes"), "90", {"text": "x"}),
                PutOp(("u1", "notes"), "Pelican$1990", {"text": "y"}),
            ]
        )
    assert store.get(("u1", "notes"), "90") is None  # the refused batch wrote nothing
    assert store.get(("u1", "notes"), "Sonnenblume#1987") is None
