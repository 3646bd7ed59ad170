"""Cost of the dialects6 rules (issue 29), against themselves switched off in the same run.

- ``classify`` (the floor) with a segment read as a close relative by its own words
  (``language.relative_of``) and Cantonese in Han (``language.cantonese``) against the same
  call with both switched off (every segment keeps the identifier's or the script's verdict),
  on every ``text`` of ``tests/data/*.jsonl``.
- The quote gate's verdict (uncached, the floor's verdict cached for both), the same way.

Rounds interleaved, order alternating. Prints p50/p95 in ms and the ratios.

Usage: python benchmarks/dialects6_cost.py [--rounds 2]
"""

from __future__ import annotations

import argparse

from floor_words_cost import compare, texts
from values5_cost import _interleaved

from userlore.policy import language, quote_gate, sensitivity
from userlore.policy.detectors import uncovered


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    items = texts()
    relative_of, cantonese = language.relative_of, language.cantonese
    for t in items:  # warm the identifier, wordfreq, CLDR and the spoken view for both
        quote_gate.quote_verdict(t)

    def switch(on: bool) -> None:
        language.relative_of = relative_of if on else (lambda text, lang: None)
        language.cantonese = cantonese if on else (lambda chunk: False)
        uncovered.cantonese = language.cantonese

    def floor_on(t: str) -> object:
        switch(True)
        return sensitivity.classify(t)

    def floor_off(t: str) -> object:
        switch(False)
        return sensitivity.classify(t)

    new, old = _interleaved(floor_on, floor_off, items, args.rounds)
    compare("classify, dialects6 rules", new, "classify, without (peer)", old)

    raw = quote_gate._verdict.__wrapped__
    none: frozenset[str] = frozenset()

    def gate_on(t: str) -> object:
        switch(True)
        return raw(t, none, False)

    def gate_off(t: str) -> object:
        switch(False)
        return raw(t, none, False)

    new, old = _interleaved(gate_on, gate_off, items, args.rounds)
    switch(True)
    compare("gate verdict, dialects6 rules", new, "gate verdict, without (peer)", old)


if __name__ == "__main__":
    main()
