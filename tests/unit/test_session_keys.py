"""Session keys the floor blocks are refused; a ``CandidateInput`` kind is checked when built."""

from __future__ import annotations

import pytest

from userlore import CandidateInput, InvalidInputError, RecordKind
from userlore.policy.session_keys import checked_session_key


@pytest.mark.parametrize(
    "key",
    [
        "s?token=Zq8Lm2Rx9Kt4Wv7N",
        "AKIA0189ABCDEFGH0189",
        "thread-AKIA1111222233334444",
        "s?api_key=sk-abcdefghijklmnopqrstuvwxyz123456",
        "123-45-6789",
    ],
)
def test_a_secret_or_regulated_session_key_is_refused_by_name(key: str) -> None:
    with pytest.raises(InvalidInputError, match="session_key") as err:
        checked_session_key(key)
    assert key not in str(err.value)  # the message never repeats the secret


@pytest.mark.parametrize(
    "key",
    [
        None,
        "default",
        "sess-1",
        "cba70465-039c-4999-8cbf-8001f651d9b1",
        "thread_8f14e45fceea167a5a36dedd4bea2543",
        "slack:C024BE91L:1700000000.000100",
        "conv_01HZX3K9Q7RZ8V4N2M6P5T1W0Y",
    ],
)
def test_ordinary_session_keys_pass_unchanged(key: str | None) -> None:
    assert checked_session_key(key) == key


def test_the_identifier_rules_still_apply() -> None:
    for bad in ("", "a\nb", "x" * 301, 12):
        with pytest.raises(InvalidInputError, match="session_key"):
            checked_session_key(bad)


def test_an_unknown_kind_is_refused_when_the_candidate_is_built() -> None:
    with pytest.raises(InvalidInputError, match="kind"):
        CandidateInput(kind="bogus", content="A plain fact.")
    with pytest.raises(InvalidInputError, match="kind"):
        CandidateInput(kind=5, content="A plain fact.")  # type: ignore[arg-type]
    built = CandidateInput(kind=RecordKind.NOTE, content="A plain fact.")
    assert built.kind == "note" and type(built.kind) is str
