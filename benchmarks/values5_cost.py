"""Cost of the values5 rules (issue 29), each against itself switched off in the same run.

- ``classify`` (the floor) with the values5 rules (passwords after short words,
  ``passwords._abbreviated_passwords``; a covered verdict read by its words,
  ``uncovered.read_by_its_words``) against the same call with both switched off, on every
  ``text`` of ``tests/data/*.jsonl``. The currency-name and any-script token rules are a few
  more alternatives where the uncovered rules already ran: not separable.
- The quote gate's verdict (uncached, the floor's verdict cached for both) with the misread
  rule (``quote_gate._misread_with_value``) against it returning ``None``.

Rounds interleaved, order alternating. Prints p50/p95 in ms and the ratios.

Usage: python benchmarks/values5_cost.py [--rounds 2]
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator

from floor_words_cost import compare, texts, timed

from userlore.policy import quote_gate, sensitivity
from userlore.policy.detectors import uncovered


def _no_hits(t: str, lowered: str) -> Iterator[sensitivity._Hit]:
    return iter(())


def _interleaved(
    on: Callable[[str], object], off: Callable[[str], object], items: list[str], rounds: int
) -> tuple[list[float], list[float]]:
    new: list[float] = []
    old: list[float] = []
    for i in range(rounds):
        first, second = (on, off) if i % 2 == 0 else (off, on)
        a, b = timed(first, items, 1), timed(second, items, 1)
        new += a if first is on else b
        old += b if first is on else a
    return new, old


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    items = texts()
    abbreviated, by_words = sensitivity._abbreviated_passwords, uncovered.read_by_its_words
    misread = quote_gate._misread_with_value
    for t in items:  # warm the identifier, wordfreq, CLDR and the spoken view for both
        quote_gate.quote_verdict(t)

    def floor_on(t: str) -> object:
        sensitivity._abbreviated_passwords, uncovered.read_by_its_words = abbreviated, by_words
        return sensitivity.classify(t)

    def floor_off(t: str) -> object:
        sensitivity._abbreviated_passwords = _no_hits
        uncovered.read_by_its_words = lambda text, language: True
        return sensitivity.classify(t)

    new, old = _interleaved(floor_on, floor_off, items, args.rounds)
    floor_on("")
    compare("classify, values5 rules", new, "classify, without (peer)", old)

    raw = quote_gate._verdict.__wrapped__
    none: frozenset[str] = frozenset()

    def gate_on(t: str) -> object:
        quote_gate._misread_with_value = misread
        return raw(t, none, False)

    def gate_off(t: str) -> object:
        quote_gate._misread_with_value = lambda text: None
        return raw(t, none, False)

    new, old = _interleaved(gate_on, gate_off, items, args.rounds)
    quote_gate._misread_with_value = misread
    compare("gate verdict, misread rule", new, "gate verdict, without (peer)", old)


if __name__ == "__main__":
    main()
