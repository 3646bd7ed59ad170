"""The floor's and the quote gate's cost on long texts grows linearly (issue 29, blindfix23d).

A rule whose cost grows with the square (or the cube) of its findings passes every class test,
whose texts are a sentence or two, and stalls a long turn: last round one stalled
``test_agent_events`` for ten minutes, and 2,000 lines of a pasted test log took 6.4 s to
classify. Here each detector family gets a long text that makes it fire or nearly fire many
times (cue and value lines, digit runs, number words, special-category cues, amounts, ids, a
pasted log, a code file, text in languages no rule reads, near misses), and the CPU time
(``time.process_time``) of one quote verdict on it (the floor's ``classify`` runs inside it)
may be at most :data:`FACTOR` times what the same text at 1/8 of its length costs per
character, plus :data:`SLACK`. A linear rule measures about 8x the short text's cost (less,
since repeated lines hit the caches); a quadratic one about 64x.

Measured on this branch (per kilochar of the long text): see ``docs/benchmarks.md``.
"""

from __future__ import annotations

import gc
import itertools
import time
from collections.abc import Callable

import pytest

from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import classify

FACTOR = 1.75
"""How far above linear the long text may cost: 1.75x the 1/8 text's cost x 8. Measured, the
long text costs 4.3x to 10.6x the short one (repeated lines hit the caches); a quadratic rule
that dominates is about 64x (special_lang's text read as one sentence: 46x)."""
SLACK = 0.1
"""Seconds of CPU any measurement may add (a table built on first use, a collection)."""
LONG = 20_000
"""Characters of the long text; the short one is 1/8 of its lines."""
SHORT = 8

_UNIQUE = itertools.count()

Lines = tuple[str, ...]

FAMILIES: dict[str, Lines] = {
    # Credential cues and their values, in the covered languages (passwords, PINs, codes).
    "cued_values": (
        "my password is Tiger#{i}x and the PIN is {j:04d}",
        "la contraseña del wifi es Gato{k}!azul",
        "mein Passwort ist Sonne{i}Mond, die PIN {j:04d}",
        "密码是 Abc{j}!x",
        "パスワードは kumo#{j}sora です",
        "le code de la porte est {j:04d}",
        "a senha do banco é Caju{k}!",
    ),
    # Digit runs: cards, ids, IBANs, phone numbers, references.
    "digit_runs": (
        "card 4539 1488 0343 {j:04d} exp 09/28",
        "ref {i}{j}{k}{j}{i} and {j}-{k}-{i}",
        "IBAN DE89 3704 0044 0532 0130 {k:02d}",
        "phone +49 30 {j} {k}{i}",
        "{i}{j}{i}{j}{i}{j}",
        "CPF {j:03d}.{k:03d}.{i:03d}-{k:02d}",
    ),
    # Values said in number words, letters and NATO words.
    "number_words": (
        "the code is four one one seven nine two",
        "el pin es cinco ocho dos uno",
        "die PIN ist drei sieben null neun",
        "le code est six deux huit quatre",
        "密码是幺三五七九",
        "a senha é um dois três quatro",
        "spelled p a s s w 0 r d, alpha bravo {k}",
    ),
    # Special-category cues, first person and not.
    "special": (
        "I have diabetes and my sister is Muslim",
        "mi madre es católica y yo tengo asma",
        "ich bin seit Mai auf Insulin",
        "je suis en thérapie depuis {k} mois",
        "我有哮喘，我朋友是穆斯林",
        "うつ病と診断されました",
        "sou filiada ao sindicato desde {i}",
    ),
    # The user's own money in locale formats.
    "money": (
        "my salary is ${j},000 and I owe {k}.500 €",
        "gano {j} euros al mes",
        "ich verdiene {j} € netto",
        "mon loyer me coûte {j} €",
        "我月薪{j}元",
        "年収は{k}万円です",
        "ganho R$ {j},00 por mês",
    ),
    # A pasted test run and log (machine output).
    "pasted_log": (
        "tests/unit/test_parser.py::test_case_{i} PASSED [{k:3d}%]",
        "2024-03-12 10:15:{k:02d}.{j:03d} INFO [main] c.e.OrderService - batch size={k} took={j}ms",
        '  File "/app/src/mod_{k}.py", line {i}, in run_{k}',
        "test_{i} PASSED",
    ),
    # A long code file: names, literals, hex constants, keys by name.
    "code_file": (
        "def handler_{i}(event, ctx):",
        '    key = os.environ.get("API_KEY_{k}")',
        '    digest = "{j:04x}{i:08x}deadbeef{k:04x}"',
        '    return {{"status": {k}, "id": "{j}-{i}"}}',
        "# TODO({k}): retry after {j} ms",
        "CONST_{i} = 0x{j:04X}",
    ),
    # Languages no rule reads, and scripts no covered language writes.
    "uncovered": (
        "Мой пароль Qw{j}!rty и номер {j}{k}{i}",
        "Şifrem Kartal{k}! ve kartım {j} {j} {k}",
        "비밀번호는 Abc{j}! 입니다",
        "Il mio codice è {j:04d} e la password Luna{k}!",
    ),
    # Near misses: times, counts, versions, percentages, order numbers.
    "near_misses": (
        "meet at {k}:30 in room {j}, version {k}.{i}.2, {i} people",
        "order #{j}{i} shipped, tracking soon",
        "call me at 5:30 pm, page {k} of {j}",
        "the 2024 report lists {j} items at {k}%",
    ),
}


def _text(lines: Lines, n: int) -> str:
    tag = next(_UNIQUE)  # a text of its own: no cache answers for it
    body = "\n".join(
        lines[i % len(lines)].format(i=i, j=(i * 7919) % 10_000, k=(i * 31) % 97) for i in range(n)
    )
    return f"{body}\nrun {tag}"


def _lines_for(lines: Lines, size: int) -> int:
    per_line = len(_text(lines, 64)) / 64
    return max(SHORT * 8, int(size / per_line) // SHORT * SHORT)


def _cost(check: Callable[[str], object], text: str) -> float:
    # The rules' own cost: the collector is off while they run. In the beside shard's session
    # the heap holds thousands of tests' data, and a long text's allocations set off full
    # collections that scan all of it: the uncovered family measured 16x for 8x the text
    # there, 4x alone (merge of blindfix23).
    gc.collect()
    gc.disable()
    try:
        start = time.process_time()
        check(text)
        return time.process_time() - start
    finally:
        gc.enable()


@pytest.fixture(scope="module", autouse=True)
def _warm() -> None:
    # The tables every rule builds on first use, out of the measurements.
    for lines in FAMILIES.values():
        quote_verdict(_text(lines, 16))


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_cost_grows_linearly(family: str) -> None:
    lines = FAMILIES[family]
    n = _lines_for(lines, LONG)
    short = _cost(quote_verdict, _text(lines, n // SHORT))
    long_text = _text(lines, n)
    long = _cost(quote_verdict, long_text)
    bound = FACTOR * SHORT * short + SLACK
    assert long <= bound, (family, len(long_text), round(short, 3), round(long, 3))


def test_pasted_log_is_cheap_and_clean() -> None:
    """The issue's own case: 2,000 lines of a test run, with the prose before it."""
    text = "here's the log:\n" + "\n".join(f"test_{i % 50} PASSED" for i in range(2_000))
    assert _cost(classify, text) < 1.5
    assert classify(text).findings == ()
    assert quote_verdict(text).quotable
