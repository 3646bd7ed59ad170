"""Cost of the two word-reading rules of the gate3 round, each against itself switched off in
the same run.

- ``classify`` (the floor) with the digit-word rule for uncovered languages
  (``detectors.uncovered``: four or more CLDR digit words in a row) against the same call with
  the old digit-only shortcut: every digit-free text now passes a word-run pre-filter.
- ``identify`` (the gate's language identifier, uncached) with the covered lexicons
  (``language.lexicon_language``) against it switched off, on the short Latin segments.

Texts: every ``text`` of ``tests/data/*.jsonl`` (each timed fresh: caches are bypassed or
cleared). Prints p50/p95 in ms and the ratios.

Usage: python benchmarks/floor_words_cost.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from userlore.policy import language, sensitivity
from userlore.policy.detectors import uncovered

DATA = Path(__file__).parents[1] / "tests" / "data"


def texts() -> list[str]:
    found: set[str] = set()
    for path in DATA.glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else None
            if isinstance(row, dict) and isinstance(row.get("text"), str):
                found.add(row["text"])
    return sorted(found)


def timed(fn: Callable[[str], object], items: list[str], rounds: int) -> list[float]:
    out: list[float] = []
    for _ in range(rounds):
        for item in items:
            start = time.perf_counter()
            fn(item)
            out.append((time.perf_counter() - start) * 1000)
    return out


def summary(name: str, samples: list[float]) -> tuple[float, float]:
    qs = statistics.quantiles(samples, n=20)
    p50, p95 = statistics.median(samples), qs[18]
    print(f"{name:34s} n={len(samples):5d} p50 {p50:.3f} ms  p95 {p95:.3f} ms")
    return p50, p95


def compare(name: str, samples: list[float], peer: str, peer_samples: list[float]) -> None:
    """Both summaries and their ratio (the rule against itself switched off, one run)."""
    n50, n95 = summary(name, samples)
    o50, o95 = summary(peer, peer_samples)
    print(f"ratio p50 {n50 / o50:.2f}  p95 {n95 / o95:.2f}")


def _old_uncovered(t: str) -> Iterator[uncovered._Hit]:
    if not any(ch.isdigit() for ch in t):
        return iter(())
    return _new_uncovered(t)


_new_uncovered = uncovered.uncovered_values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    items = texts()
    # Warm-up: load py3langid, wordfreq lists, CLDR spell-out data once.
    for t in items:
        sensitivity.classify(t)

    def classify_new(t: str) -> object:
        sensitivity.uncovered_values = _new_uncovered  # type: ignore[attr-defined]
        return sensitivity.classify(t)

    def classify_old(t: str) -> object:
        sensitivity.uncovered_values = _old_uncovered  # type: ignore[attr-defined]
        return sensitivity.classify(t)

    print(f"{len(items)} texts, {args.rounds} rounds, interleaved per round")
    new: list[float] = []
    old: list[float] = []
    for _ in range(args.rounds):
        new += timed(classify_new, items, 1)
        old += timed(classify_old, items, 1)
    sensitivity.uncovered_values = _new_uncovered  # type: ignore[attr-defined]
    compare("classify, digit words read", new, "classify, digits only (peer)", old)

    shorts = sorted(
        {
            t[s.start : s.end]
            for t in items
            for s in language.segments(t)
            if s.script == "Latn" and language._letters(t[s.start : s.end]) < language.SHORT_LETTERS
        }
    )
    raw = language.identify.__wrapped__
    lexicon = language.lexicon_language

    def ident_new(t: str) -> object:
        language.lexicon_language = lexicon
        return raw(t)

    def ident_old(t: str) -> object:
        language.lexicon_language = lambda *a, **k: None
        return raw(t)

    new, old = [], []
    for _ in range(args.rounds):
        new += timed(ident_new, shorts, 1)
        old += timed(ident_old, shorts, 1)
    language.lexicon_language = lexicon
    compare("identify short, lexicon", new, "identify short, model only (peer)", old)


if __name__ == "__main__":
    main()
