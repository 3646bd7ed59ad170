"""A key pasted into text no covered rule reads (issue 29, blindfix16a).

blind16 stored "Яндекс токенум y0_AgAAAABk7m… GitHub'ка киирэн хаалбыт": the key is its own
segment with no language (``zxx``), left to the key rules, which need a cue word of a covered
language. In a turn with a segment of an uncovered language, a token of a key's shape (twenty
characters or more, both cases and digits, high entropy; ``keys.key_shaped``) is redacted
there; not a hash, a UUID, a URL, a path, a public key, an IPFS id or a Bitcoin address.
``blindfix16a_token_uncovered.jsonl`` (first run on main: held-out 5/18 caught, benign 3/12
flagged) and ``…2.jsonl`` (written after the fix, first sight 15/15 caught, benign 4/10
flagged, two of them by this rule: an IPFS id, then fixed, and a Bitcoin address flagged by
another rule) hold keys in 26 uncovered languages and public shapes beside them.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.sensitivity import redact

SETS = ("blindfix16a_token_uncovered.jsonl", "blindfix16a_token_uncovered2.jsonl")
KNOWN = {
    # Flagged on main by the uncovered shape rules, not this one: a file name, a branch name,
    # a version with a build tag, a bech32 address and a Base58 address after "фонду".
    "token_uncovered-tr-benign-001",
    "token_uncovered-vi-benign-001",
    "token_uncovered-ar-benign-001",
    "token_uncovered2-uk-benign-001",
    "token_uncovered2-bn-benign-001",
    "token_uncovered2-am-benign-001",
    # Covered text the gate withholds on main (a UUID after "identifiant", an IPFS id after
    # "IPFS 上", a branch name): the gate's credential cue, not this rule.
    "token_uncovered-fr-benign-001",
    "token_uncovered2-zh-benign-001",
    "token_uncovered2-es-benign-001",
}


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(
    SETS, KNOWN, fails=value_sets.uncovered_fails
)


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("Яндекс токенум y0_AgAAAABk7mQ2vR9wLz4TnB8cYpH3dJ5sFg1aEu0iKoTq хаалбыт", True),
        ("коммит 11f6ad8ec52a2984abaafd7c3b516503785c2072 сломал сборку", False),  # a hash
        ("файл в IPFS: QmT5NvUtoM5nWFfrQdVrFtvGfKFmG7AHE8P34isapyhCxX, скачай", False),
    ],
)
def test_twins_differ_by_the_shape(text: str, redacted: bool) -> None:
    assert (redact(text) != text) is redacted
