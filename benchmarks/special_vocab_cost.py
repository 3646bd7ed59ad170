"""What a round of vocabulary data costs the quote gate per text, against a peer vocabulary.

The packaged vocabularies (``policy/data/special/*.json``) and a peer directory of the same files
(for example main's, exported with ``git archive main src/userlore/policy/data/special``) are
compiled in one process with the same code and timed alternately on the same texts: the
``special_lang.languages`` cache is swapped between rounds. Texts as in
``special_prefilter.py`` (``sensitivity_cases``, ``language_cases``, the first LoCoMo
conversations). Prints p50/p95 µs per text of ``special_cues`` + ``about_someone_else_or_topic``,
the ratio packaged/peer, and how many texts change verdict.

Usage: python benchmarks/special_vocab_cost.py --peer DIR [--rounds 3] [--locomo-conversations 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from special_prefilter import _texts  # type: ignore[import-not-found]

from userlore.policy.detectors import special_lang
from userlore.policy.detectors.special_lang_vocab import load_languages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--peer", type=Path, required=True, help="directory of peer *.json")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--locomo-conversations", type=int, default=2)
    args = parser.parse_args()
    texts = _texts(args.locomo_conversations)
    packaged = special_lang.languages()
    vocabularies = {"packaged": packaged, "peer": load_languages(args.peer)}
    original = special_lang.languages
    timings: dict[str, list[float]] = {name: [] for name in vocabularies}
    answers: dict[str, list[tuple[frozenset[str], bool]]] = {}
    try:
        for _ in range(args.rounds):
            for name, langs in vocabularies.items():
                special_lang.languages = lambda langs=langs: langs  # type: ignore[misc]
                special_lang._run_heads.cache_clear()
                special_lang._any_run.cache_clear()
                got = []
                for text in texts:
                    start = time.perf_counter()
                    got.append(
                        (
                            special_lang.special_cues(text),
                            special_lang.about_someone_else_or_topic(text),
                        )
                    )
                    timings[name].append((time.perf_counter() - start) * 1e6)
                answers[name] = got
    finally:
        special_lang.languages = original  # type: ignore[misc]
        special_lang._run_heads.cache_clear()
        special_lang._any_run.cache_clear()
    print(f"{len(texts)} texts, {args.rounds} rounds, alternated (under whatever load runs)")
    p50 = {}
    for name, values in timings.items():
        values.sort()
        p50[name] = statistics.median(values)
        print(f"  {name:9s} p50 {p50[name]:8.1f} µs  p95 {values[int(len(values) * 0.95)]:8.1f} µs")
    print(f"  ratio packaged/peer p50: {p50['packaged'] / p50['peer']:.2f}")
    changed = sum(a != b for a, b in zip(answers["packaged"], answers["peer"], strict=True))
    print(f"  texts whose cues or verdict differ: {changed}/{len(texts)}")


if __name__ == "__main__":
    main()
