"""Cost of the blindfix8b rules (issue 29), against themselves switched off in the same run.

``classify`` (the floor) with the case-sensitive special abbreviations
(``detectors/special_abbrev.py``) and money in an uncovered language
(``detectors/uncovered_money.py``) against the same call with both switched off, on every
``text`` of ``tests/data/*.jsonl``. Rounds interleaved, order alternating. Prints p50/p95 in ms
and the ratios.

Usage: python benchmarks/blindfix8_cost.py [--rounds 2]
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from floor_words_cost import compare, texts
from values5_cost import _interleaved

from userlore.policy import sensitivity
from userlore.policy.detectors import special_lang
from userlore.policy.detectors.common import _Hit


def _no_money(t: str) -> Iterator[_Hit]:
    return iter(())


def _no_abbreviations(*args: object) -> Iterator[tuple[object, ...]]:
    return iter(())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    items = texts()
    money, abbreviations = sensitivity.uncovered_money, special_lang.abbreviation_cues
    for t in items:  # warm the identifier, CLDR and the vocabularies for both
        sensitivity.classify(t)

    def on(t: str) -> object:
        sensitivity.uncovered_money, special_lang.abbreviation_cues = money, abbreviations
        return sensitivity.classify(t)

    def off(t: str) -> object:
        sensitivity.uncovered_money = _no_money
        special_lang.abbreviation_cues = _no_abbreviations
        return sensitivity.classify(t)

    new, old = _interleaved(on, off, items, args.rounds)
    on("")
    compare("classify, blindfix8b rules", new, "classify, without (peer)", old)


if __name__ == "__main__":
    main()
