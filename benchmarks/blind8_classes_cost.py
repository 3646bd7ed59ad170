"""Cost of the blindfix8a rules (issue 29), against themselves switched off in the same run.

``classify`` (the floor) with blind8's value classes (``detectors/blind8_classes.py``: assembled
pieces, settings keys, social ids, the second amount; ``detectors/dial_combos.py``; and
``detectors/benign_shapes.py``'s spans, blanked before every rule) against the same call with
all three switched off, on every ``text`` of ``tests/data/*.jsonl`` and, with ``--locomo
FILE``, the first ``--turns`` LoCoMo turns (ordinary chat, where most of the floor's calls
are). Rounds interleaved, order alternating. Prints p50/p95 in ms and the ratios.

Usage: python benchmarks/blind8_classes_cost.py [--rounds 2] [--locomo FILE --turns 2000]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from floor_words_cost import compare, texts
from values5_cost import _interleaved

from userlore.policy import sensitivity
from userlore.policy.detectors import public_material


def _turns(path: Path, limit: int) -> list[str]:
    out: list[str] = []

    def walk(node: Any) -> None:
        if len(out) >= limit:
            return
        if isinstance(node, dict):
            if isinstance(node.get("text"), str) and "speaker" in node:
                out.append(f"{node['speaker']}: {node['text']}")
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(path.read_text(encoding="utf-8")))
    return out[:limit]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--locomo", type=Path)
    parser.add_argument("--turns", type=int, default=2000)
    args = parser.parse_args()
    sets = [("tests/data", texts())]
    if args.locomo is not None:
        sets.append(("LoCoMo", _turns(args.locomo, args.turns)))
    values, dials, shapes = (
        sensitivity.blind8_values,
        sensitivity.dial_combos,
        public_material.benign_spans,
    )

    def on(t: str) -> object:
        sensitivity.blind8_values, sensitivity.dial_combos = values, dials
        public_material.benign_spans = shapes
        return sensitivity.classify(t)

    def off(t: str) -> object:
        sensitivity.blind8_values = lambda t, lowered, hits: []
        sensitivity.dial_combos = lambda t, lowered: iter(())
        public_material.benign_spans = lambda text: []
        return sensitivity.classify(t)

    for name, items in sets:
        for t in items:  # warm the identifier, wordfreq, CLDR and the vocabularies for both
            on(t)
            off(t)
        new, old = _interleaved(on, off, items, args.rounds)
        on("")
        compare(f"classify {name}, blindfix8a", new, f"classify {name}, without (peer)", old)


if __name__ == "__main__":
    main()
