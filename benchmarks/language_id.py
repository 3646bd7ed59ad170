"""Language identification for the quote gate: py3langid against lingua on short turns.

Both run behind the same segmenter (``userlore.policy.language.segments``: sentences, then
script runs; only Latin-script segments reach the identifier). Measured on
``tests/data/langid_short.jsonl`` (short single-language turns and code-switched turns, each
labelled with the set of languages it holds):

- exact: the set of languages found equals the label;
- gate: the turn is rightly judged "all covered" or "holds an uncovered language" (what the gate
  acts on); ``missed_uncovered`` counts turns holding an uncovered language judged all covered
  (a leak), ``false_uncovered`` covered-only turns judged uncovered (a withheld benign snippet);
- latency per turn (p50/p95, ms), after a warm-up that loads each model.

lingua is not a dependency: ``pip install lingua-language-detector`` to compare.

Usage: python benchmarks/language_id.py [--data tests/data/langid_short.jsonl]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from userlore.policy.language import COVERED_LANGUAGES, UNDETERMINED, decide, identify, segments


def _lingua() -> Callable[[str], str] | None:
    try:
        from lingua import LanguageDetectorBuilder
    except ImportError:
        return None
    detector = LanguageDetectorBuilder.from_all_languages().build()

    def identify(text: str) -> str:
        values = detector.compute_language_confidence_values(text)
        ranking = [(str(v.language.iso_code_639_1.name).lower(), v.value) for v in values]
        return decide(ranking) if ranking else UNDETERMINED

    return identify


def evaluate(cases: list[dict[str, Any]], identify: Callable[[str], str]) -> dict[str, Any]:
    identify(cases[0]["text"])  # warm-up: load the model
    exact = gate = missed = false_uncovered = 0
    times: list[float] = []
    wrong: list[str] = []
    for case in cases:
        t0 = time.perf_counter()
        found = {s.language for s in segments(case["text"], identify) if s.language}
        times.append((time.perf_counter() - t0) * 1000)
        label = set(case["langs"])
        exact += found == label
        truly_uncovered = bool(label - COVERED_LANGUAGES)
        judged_uncovered = bool(found - COVERED_LANGUAGES)
        gate += truly_uncovered == judged_uncovered
        missed += truly_uncovered and not judged_uncovered
        false_uncovered += judged_uncovered and not truly_uncovered
        if found != label:
            wrong.append(f"{case['text'][:40]!r}: {sorted(found)} != {sorted(label)}")
    q = statistics.quantiles(times, n=20)
    return {
        "turns": len(cases),
        "exact": round(exact / len(cases), 3),
        "gate_accuracy": round(gate / len(cases), 3),
        "missed_uncovered": missed,
        "false_uncovered": false_uncovered,
        "p50_ms": round(statistics.median(times), 3),
        "p95_ms": round(q[18], 3),
        "wrong": wrong,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", type=Path, default=Path("tests/data/langid_short.jsonl"))
    args = parser.parse_args()
    lines = args.data.read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    out: dict[str, Any] = {"py3langid": evaluate(cases, identify)}
    lingua = _lingua()
    if lingua is not None:
        out["lingua"] = evaluate(cases, lingua)
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
