"""What the special-category vocabularies cost per text, by regex-term prefilter (issue 29).

A regex term of a vocabulary (``re:`` in ``policy/data/special/*.json``) is tried on a sentence
only where one of its literal runs occurs. Two prefilters, compiled in the same process and
timed alternately on the same texts:

- ``required`` (the default): the rarest set of runs that every match of the term holds,
  parsed from the term (``special_lang_vocab.required_runs``);
- ``union`` (the peer): any literal run of the term, lookarounds left out (what it was before
  special4): common words inside a term ("for", "the", "like") open it on most sentences.

Texts: ``tests/data/sensitivity_cases.jsonl``, ``tests/data/language_cases.jsonl`` and the first
``--locomo-conversations`` LoCoMo conversations (``../shared/data/locomo/locomo_public.json``).
Prints p50/p95 µs per text of ``special_cues`` + ``about_someone_else_or_topic`` (what the quote
gate calls), the ratio union/required, and whether both found the same cues.

Usage: python benchmarks/special_prefilter.py [--rounds 3] [--locomo-conversations 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from userlore.policy.detectors import special_lang, special_lang_vocab

ROOT = Path(__file__).resolve().parent.parent
LOCOMO = ROOT.parent / "shared" / "data" / "locomo" / "locomo_public.json"
REQUIRED = special_lang_vocab.required_runs


def _texts(conversations: int) -> list[str]:
    texts: list[str] = []
    for name in ("sensitivity_cases.jsonl", "language_cases.jsonl"):
        with (ROOT / "tests" / "data" / name).open(encoding="utf-8") as fh:
            texts.extend(str(json.loads(line).get("text") or "") for line in fh if line.strip())
    if conversations and LOCOMO.exists():
        from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text

        for sample in json.loads(LOCOMO.read_text(encoding="utf-8"))[:conversations]:
            for _, _, turns in LocomoTranscriptAdapter(sample).sessions():
                texts.extend(turn_text(t) for t in turns)
    return [t for t in texts if t]


def _compile(prefilter: str) -> None:
    """Recompile the vocabularies with one prefilter (the module's caches cleared)."""
    special_lang_vocab.required_runs = (  # type: ignore[assignment]
        REQUIRED if prefilter == "required" else (lambda _pattern: frozenset())
    )
    for cached in (special_lang.languages, special_lang._run_heads, special_lang._any_run):
        cached.cache_clear()
    special_lang.languages()


def _one(text: str) -> tuple[frozenset[str], bool]:
    return special_lang.special_cues(text), special_lang.about_someone_else_or_topic(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--locomo-conversations", type=int, default=2)
    args = parser.parse_args()
    texts = _texts(args.locomo_conversations)
    timings: dict[str, list[float]] = {"required": [], "union": []}
    answers: dict[str, list[tuple[frozenset[str], bool]]] = {}
    for _ in range(args.rounds):
        for prefilter in ("required", "union"):
            _compile(prefilter)
            got = []
            for text in texts:
                start = time.perf_counter()
                got.append(_one(text))
                timings[prefilter].append((time.perf_counter() - start) * 1e6)
            answers[prefilter] = got
    _compile("required")
    print(f"{len(texts)} texts, {args.rounds} rounds, alternated (under whatever load runs)")
    p50 = {}
    for prefilter, values in timings.items():
        values.sort()
        p50[prefilter] = statistics.median(values)
        p95 = values[int(len(values) * 0.95)]
        print(f"  {prefilter:9s} p50 {p50[prefilter]:8.1f} µs  p95 {p95:8.1f} µs")
    print(f"  ratio union/required p50: {p50['union'] / p50['required']:.2f}")
    print(f"  same cues and verdicts: {answers['required'] == answers['union']}")


if __name__ == "__main__":
    main()
