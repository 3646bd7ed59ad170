"""Cost of the gate4 rules, each against itself switched off in the same run.

- ``classify`` (the floor) with the lock-code rule (``detectors.lock_codes``) against the same
  call with it replaced by a no-op, on every ``text`` of ``tests/data/*.jsonl`` (the money and
  identifier additions are a few more alternatives in regexes that already ran: not separable).
- ``identify`` (uncached) with the misread rule (``vouch=True``) against ``vouch=False``, on
  every Latin-script segment of the same texts.

Each text is timed fresh (the floor's caches are bypassed), rounds interleaved. Prints p50/p95
in ms and the ratios.

Usage: python benchmarks/gate4_cost.py [--rounds 2]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from floor_words_cost import compare, texts, timed

from userlore.policy import language, sensitivity


def _none(t: str, lowered: str) -> Iterator[sensitivity._Hit]:
    return iter(())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    items = texts()
    rule = sensitivity.lock_codes
    for t in items:  # warm every cache below the floor (identifier, spoken view) for both
        sensitivity.classify(t)

    def with_rule(t: str) -> object:
        sensitivity.lock_codes = rule
        return sensitivity.classify(t)

    def without(t: str) -> object:
        sensitivity.lock_codes = _none
        return sensitivity.classify(t)

    new: list[float] = []
    old: list[float] = []
    for i in range(args.rounds):  # alternate which goes first
        first, second = (with_rule, without) if i % 2 == 0 else (without, with_rule)
        a, b = timed(first, items, 1), timed(second, items, 1)
        new += a if first is with_rule else b
        old += b if first is with_rule else a
    sensitivity.lock_codes = rule
    compare("classify, lock codes", new, "classify, no lock codes (peer)", old)

    segments = sorted(
        {
            t[s.start : s.end]
            for t in items
            for s in language.segments(t)
            if s.script == "Latn" and s.language is not None
        }
    )
    raw = language.identify.__wrapped__
    for s in segments[:50]:
        raw(s)
    vouched: list[float] = []
    plain: list[float] = []
    for _ in range(args.rounds):
        vouched += timed(lambda s: raw(s, vouch=True), segments, 1)
        plain += timed(lambda s: raw(s, vouch=False), segments, 1)
    compare("identify, vouched", vouched, "identify, unvouched (peer)", plain)


if __name__ == "__main__":
    main()
