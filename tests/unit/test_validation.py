"""The input checks every entry point shares (``userlore.validation``)."""

from __future__ import annotations

import re
import sys
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from userlore import CandidateInput, InvalidInputError, MemoryType, RecordState, ScopeError
from userlore.store.governed import bounded as governed_bounded
from userlore.store.governed import validate_path as governed_validate_path
from userlore.store.governed import validate_scope as governed_validate_scope
from userlore.validation import (
    BLANK_CHARS,
    CONTROL_CHARS,
    IDENTIFIER_PATTERN,
    NON_BLANK_PATTERN,
    PATH_PATTERN,
    PATH_PREFIX_PATTERN,
    SCOPE_PATTERN,
    bounded,
    enum_field,
    enum_list,
    identifier,
    instant,
    int_field,
    text_field,
    unit_interval,
    validate_path,
    validate_scope,
)


def test_old_import_paths_still_work() -> None:
    assert governed_validate_scope is validate_scope
    assert governed_validate_path is validate_path
    assert governed_bounded is bounded


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (b"hello", "content must be str, not bytes"),
        (bytearray(b"hello"), "content must be str, not bytes"),
        (42, "content must be str, not int"),
        ("", "content must not be empty"),
        ("a\x00b", "content must not contain NUL characters"),
        ("ok \ud800", "content contains an unpaired surrogate at position 3"),
        ("x" * 11, "content is 11 characters; the limit is 10"),
    ],
)
def test_text_field_refusals_name_the_field(value: object, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        text_field(value, "content", max_chars=10)
    assert str(info.value) == message


def test_text_field_keeps_other_control_characters_and_pairs() -> None:
    text = "tab\there\nline \x1b[0m 😀 中文"
    assert text_field(text, "content", max_chars=None) == text
    assert text_field("", "query", max_chars=None, allow_empty=True) == ""


@pytest.mark.parametrize("value", [12345, "", "  ", "a\nb", "x" * 201, "t\x00", "\udc00"])
def test_identifier_refuses_non_strings_blank_control_and_long(value: object) -> None:
    with pytest.raises(InvalidInputError, match=r"^turn_id "):
        identifier(value, "turn_id")


def test_enum_field_takes_member_or_value_and_lists_allowed_values() -> None:
    assert enum_field(RecordState, "active", "state") is RecordState.ACTIVE
    assert enum_field(RecordState, RecordState.DELETED, "state") is RecordState.DELETED
    assert enum_list(RecordState, ["active", RecordState.CANDIDATE], "state") == (
        RecordState.ACTIVE,
        RecordState.CANDIDATE,
    )
    with pytest.raises(InvalidInputError) as info:
        enum_field(MemoryType, "long_term", "memory_type")
    message = str(info.value)
    assert message.startswith("memory_type must be one of")
    assert all(t.value in message for t in MemoryType) and "'long_term'" in message


def test_long_values_are_described_not_echoed() -> None:
    token = "ghp_" + "A1b2C3d4E5" * 4
    with pytest.raises(InvalidInputError) as info:
        enum_field(MemoryType, token, "memory_type")
    assert token not in str(info.value) and "44-character string" in str(info.value)
    with pytest.raises(ScopeError) as scope_info:
        validate_scope(token + " x")
    assert token not in str(scope_info.value)


@pytest.mark.parametrize("value", [True, "3", 2.5, None])
def test_int_field_wants_an_int(value: object) -> None:
    with pytest.raises(InvalidInputError, match=r"^limit "):
        int_field(value, "limit", lo=1, hi=10)


@pytest.mark.parametrize("value", [float("nan"), -0.1, 1.5, "0.5", True])
def test_unit_interval(value: object) -> None:
    with pytest.raises(InvalidInputError, match=r"^confidence "):
        unit_interval(value, "confidence")


def test_instant_must_be_aware() -> None:
    assert instant(datetime(2026, 1, 1, tzinfo=UTC), "at").tzinfo is UTC
    with pytest.raises(InvalidInputError, match="timezone-aware"):
        instant(datetime(2026, 1, 1), "at")
    with pytest.raises(InvalidInputError, match=r"^at must be a datetime"):
        instant("2026-01-01", "at")


def test_candidate_input_coerces_enum_values_and_refuses_unknown_ones() -> None:
    cand = CandidateInput(kind="note", content="x", memory_type="episodic")  # type: ignore[arg-type]
    assert cand.memory_type is MemoryType.EPISODIC
    with pytest.raises(InvalidInputError, match=r"^producer must be one of"):
        CandidateInput(kind="note", content="x", producer="hacker")  # type: ignore[arg-type]


# -- the exported rules are the checks (the HTTP schema states them) ------------------------------


def test_blank_chars_are_exactly_what_strip_removes() -> None:
    blank = re.compile(f"[{BLANK_CHARS}]")
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert bool(blank.fullmatch(char)) is char.isspace(), hex(code)


def test_control_chars_are_the_identifier_refusals() -> None:
    control = re.compile(f"[{CONTROL_CHARS}]")
    for code in range(0x100):
        char = chr(code)
        refused = False
        try:
            identifier(f"a{char}b", "id")
        except InvalidInputError:
            refused = True
        assert refused is bool(control.fullmatch(char)), hex(code)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet=st.characters(codec="utf-8", max_codepoint=0x3100), max_size=12))
def test_identifier_pattern_accepts_what_identifier_accepts(value: str) -> None:
    try:
        identifier(value, "id")
        accepted = True
    except InvalidInputError:
        accepted = False
    assert accepted is bool(re.fullmatch(IDENTIFIER_PATTERN, value))
    assert bool(re.search(NON_BLANK_PATTERN, value)) is bool(value.strip())


@pytest.mark.parametrize("value", ["", " ", " \u3000", "a\n", "\u0085", "\x1c", "ok", " a b "])
def test_identifier_pattern_on_edge_cases(value: str) -> None:
    try:
        identifier(value, "id")
        accepted = True
    except InvalidInputError:
        accepted = False
    assert accepted is bool(re.fullmatch(IDENTIFIER_PATTERN, value))


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(st.text(alphabet="ab_.-/ \u00e9\n", max_size=10))
def test_path_patterns_accept_what_the_path_checks_accept(value: str) -> None:
    def accepted(candidate: str) -> bool:
        try:
            validate_path(candidate)
        except InvalidInputError:
            return False
        return True

    assert accepted(value) is bool(re.fullmatch(PATH_PATTERN, value))
    assert accepted(value.strip("/")) is bool(re.fullmatch(PATH_PREFIX_PATTERN, value))


def test_scope_pattern_is_the_scope_check() -> None:
    for scope in ("acme:ana", "a" * 200, "a" * 201, "-a", "a b", "a\n", "u1@x.org/+-_"):
        try:
            validate_scope(scope)
            accepted = True
        except ScopeError:
            accepted = False
        assert accepted is bool(re.fullmatch(SCOPE_PATTERN, scope)), scope
