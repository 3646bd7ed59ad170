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
import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from userlore.policy import language, sensitivity

DATA = Path(__file__).parents[1] / "tests" / "data"


def texts() -> list[str]:
    found: set[str] = set()
    for path in DATA.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if isinstance(row, dict) and isinstance(row.get("text"), str):
                found.add(row["text"])
    return sorted(found)


def timed(fn: Callable[[str], object], items: list[str]) -> list[float]:
    out: list[float] = []
    for item in items:
        start = time.perf_counter()
        fn(item)
        out.append((time.perf_counter() - start) * 1000)
    return out


def summary(name: str, samples: list[float]) -> tuple[float, float]:
    p50, p95 = statistics.median(samples), statistics.quantiles(samples, n=20)[18]
    print(f"{name:36s} n={len(samples):5d} p50 {p50:.3f} ms  p95 {p95:.3f} ms")
    return p50, p95


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
        a, b = timed(first, items), timed(second, items)
        new += a if first is with_rule else b
        old += b if first is with_rule else a
    sensitivity.lock_codes = rule
    n50, n95 = summary("classify, lock codes", new)
    o50, o95 = summary("classify, no lock codes (peer)", old)
    print(f"ratio p50 {n50 / o50:.2f}  p95 {n95 / o95:.2f}")

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
        vouched += timed(lambda s: raw(s, vouch=True), segments)
        plain += timed(lambda s: raw(s, vouch=False), segments)
    v50, v95 = summary("identify, vouched", vouched)
    p50, p95 = summary("identify, unvouched (peer)", plain)
    print(f"ratio p50 {v50 / p50:.2f}  p95 {v95 / p95:.2f}")


if __name__ == "__main__":
    main()
