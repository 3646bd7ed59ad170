"""Cost of the blindfix7 rules (issue 29), each against itself switched off in the same run.

``classify`` (the floor) with the rules for values said otherwise (``detectors/said_values.py``:
spelled runs, pieces, grouped ids, money in words and slang; and ``policy/spelling.py``'s runs
in the spoken view) against the same call with both switched off, on every ``text`` of
``tests/data/*.jsonl``. Rounds interleaved, order alternating. Prints p50/p95 in ms and the
ratios.

Usage: python benchmarks/said_values_cost.py [--rounds 2]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from floor_words_cost import compare, texts
from values5_cost import _interleaved

from userlore.policy import sensitivity, spelling
from userlore.policy.detectors.common import _Hit


def _no_hits(t: str, lowered: str) -> Iterator[_Hit]:
    return iter(())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    items = texts()
    rules, spans = sensitivity.said_values, spelling.spelling_spans
    for t in items:  # warm the identifier, wordfreq, CLDR and the vocabularies for both
        sensitivity.classify(t)

    def on(t: str) -> object:
        sensitivity.said_values, spelling.spelling_spans = rules, spans
        return sensitivity.classify(t)

    def off(t: str) -> object:
        sensitivity.said_values = _no_hits
        spelling.spelling_spans = lambda text, lowered: []
        return sensitivity.classify(t)

    new, old = _interleaved(on, off, items, args.rounds)
    on("")
    compare("classify, blindfix7 rules", new, "classify, without (peer)", old)


if __name__ == "__main__":
    main()
