"""A pattern searched only where one of its own literals stands (issue 29/30, floorcost10).

:func:`~userlore.policy.literal_gate.required_literals` reads a compiled pattern's parse; the
gate it makes must never hide a match: every probe below is searched both ways, including a
word at the very end of the text, full-width and native digits, mixed scripts, a word glued
to another and a class of characters inside a word. A pattern whose alternative starts with
no literal gets no gate; one that ignores case is gated ignoring case.
"""

from __future__ import annotations

import re

import pytest

from userlore.policy.literal_gate import GatedPattern, required_literals
from userlore.policy.sensitivity import _OWN_MONEY_GATE

PATTERNS = [
    _OWN_MONEY_GATE.pattern,
    re.compile(r"salar|n[óo]mina|ira\b|工资|after tax|(?<![a-z])konto(?!s)"),
    re.compile(r"(?:pass|pin)(?:word|code)?\d{2}|\bcode:"),
    re.compile(r"[€$£]\s?\d+|dollars?"),
    # Case ignored: the gate reads the literals by the engine's own case rules ("ſ" is an
    # "s", the Kelvin sign a "k").
    re.compile(r"(?<![^\W_])(?:girokonto|conta\s+corrente|普通口座)(?![^\W_])", re.IGNORECASE),
    re.compile(r"(?i)(?<!\w)(?:my\s+boyfriend|mi\s+novio)"),
    re.compile(r"(?i:salary)|konto"),
    # A literal run after the start (floorcost12): a quote after a space, a word after a word
    # of any letters, a run of numerals, a key's fingerprint.
    re.compile(r"[«\"„“「『]|(?:^|[\s:=])['‘]"),
    re.compile(r"(?i)\w+salary"),
    re.compile(r"salary|(?:x|)y"),
    re.compile(r"[一二三四五六七八九十百千万两]{2,}"),
    re.compile(r"(?i)\b(?:ssh|(?:public )?key)[ \t-]+fingerprints?\b"),
    # Case ignored, literals of other scripts (floorcost16): an ASCII text is asked for the
    # ASCII ones only, unless one of the others may match ASCII letters ("ıd" is an "id").
    re.compile(r"(?i)(?<![^\W\d_])(?:[הושבל]?)(?:[ck][oó]{1,2}d|код|κωδ)"),
    re.compile(r"(?i)[<{$*•_-]|xxxx|change"),
    re.compile(r"(?i)ıd|pass"),
    re.compile(r"(?i)ſalt|пароль"),
]
PROBES = [
    "",
    "x",
    "store:notes#m1234",
    "my salary is 4k",
    "nómina ４５００",  # full-width digits
    "nomina ٤٥٠٠",  # Arabic-Indic digits
    "ira",  # a word at the very end
    "iraq",
    "月工资 8000",
    "工资",
    "Konto 12345678",
    "mein konto",
    "kontos",
    "after tax 3k",
    "aftertax",
    "passcode42 then pin77",
    "password",
    "code: 7",
    "€ 12 and 3 dollars",
    "$5",
    "dollar",
    "сальдо 500 and salar",  # mixed scripts, the word last
    "SALARY 12",
    "GiroKonto 1234",
    "\u212aonto 7",  # the Kelvin sign
    "Conta  Corrente",
    "三井住友銀行の普通口座7712345",
    "My Boyfriend",
    "mi  NOVIO",
    "ſalary",  # the long s
    "he said 'hi' and «bye»",
    "'quoted at the start",
    "x=‘y’ and „z“",
    "Mysalary",
    "MYSALARY 12",
    "y",
    "三千二百 and 两万",
    "一",
    "SSH-Key fingerprint: SHA256:abc",
    "public key  fingerprints",
    "the code is here",
    "Der KOD und der Kood",
    "мой код 7",
    "a • b",
    "x_y and XXXX",
    "my ID and my id",
    "SALT or salt",
    "пароль",
]


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.pattern[:30])
def test_gated_search_finds_what_the_pattern_finds(pattern: re.Pattern[str]) -> None:
    gated = GatedPattern(pattern)
    for text in PROBES:
        for probe in (text, text.lower(), f"{text} ", f"({text})"):
            want, got = pattern.search(probe), gated.search(probe)
            assert (want and want.span()) == (got and got.span()), probe


def test_required_literals_are_each_alternatives_prefix() -> None:
    assert required_literals(re.compile(r"n[óo]mina|ira\b|(?<!x)konto")) == {
        "nómina",
        "nomina",
        "ira",
        "konto",
    }
    assert required_literals(re.compile(r"(?i)(?<!\w)my\s+bf")) == {"my"}
    # A literal prefix stops at the first item that is not a literal.
    assert required_literals(re.compile(r"pin\d{4}|pass(?:word|code)s?")) == {
        "pin",
        "password",
        "passcode",
    }


@pytest.mark.parametrize("source", [r"\d+|salary", r"[^a]\w", r".+", r"x?|y", r"\s*(?:a|)"])
def test_no_gate_where_an_alternative_holds_no_literal(source: str) -> None:
    assert required_literals(re.compile(source)) is None


@pytest.mark.parametrize(
    ("source", "literals"),
    [
        (r"(?i)\w+salary", {"salary"}),
        (r"salary|(?:x|)y", {"salary", "y"}),
        (r"[^a]bc", {"bc"}),
        (r".salary", {"salary"}),
        (r"(?:^|\s)['‘]|«", {"'", "‘", "«"}),
        (r"\d{2}ab\d+abcd", {"abcd"}),  # the longest of an alternative's later runs
        (r"(?:ab)+c|[xy]{2,}", {"ab", "x", "y"}),  # a repetition's first round starts it
    ],
)
def test_an_alternative_without_a_prefix_is_gated_by_a_later_run(
    source: str, literals: set[str]
) -> None:
    assert required_literals(re.compile(source)) == literals


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.pattern[:30])
def test_no_match_between_pos_and_endpos_is_hidden(pattern: re.Pattern[str]) -> None:
    gated = GatedPattern(pattern)
    for text in PROBES:
        probe = f"x. {text}. y"
        for pos in range(0, len(probe), 3):
            for endpos in (pos + 4, len(probe) - 3, len(probe)):
                if list(pattern.finditer(probe, pos, endpos)):
                    assert gated.may_match(probe, pos, endpos), (probe, pos, endpos)


def test_an_ascii_text_is_asked_only_for_literals_it_may_hold() -> None:
    """A literal no ASCII letter matches ignoring case ("код", "•") never stands in an ASCII
    text: the gate reads the shared scan there; one with "ı" or "ſ" (which match "i" and "s")
    keeps the trie, so it is never read as absent."""
    mixed = GatedPattern(re.compile(r"(?i)код|pass"))
    assert mixed._words == {"pass"}
    assert not mixed.may_match("my code") and mixed.may_match("my PASS")
    assert GatedPattern(re.compile(r"(?i)ıd|pass"))._words is None
    assert GatedPattern(re.compile(r"(?i)ſalt|pass"))._words is None
    only_other = GatedPattern(re.compile(r"(?i)код|κωδ"))
    assert only_other._words == frozenset()
    assert not only_other.may_match("code kod", 2, 6)
    assert only_other.may_match("мой КОД", 2, 7)


def test_a_window_of_a_text_without_any_literal_is_closed_at_once() -> None:
    gated = GatedPattern(re.compile(r"(?:BRCA|HIV)\+?"))
    assert not gated.may_match("a long sentence. and another", 3, 20)
    text = "HIV. and later words"
    assert gated.may_match(text, 0, 4)
    assert not gated.may_match(text, 5, len(text))  # the text holds one, this window not
