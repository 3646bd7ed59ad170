"""Which store values the floor may judge by their content alone: the corpus behind
:func:`userlore.policy.govern.value_is_content` (issue 30, bulkput5).

For every text of the floor's corpus (each ``tests/data/*.jsonl`` text and value, the presidio
sentences, every LoCoMo turn, 2,000 bench sentences) wrapped as ``{"<key>": text}`` under each
wrapper key, it compares the verdict of the content alone with the verdict of content and JSON
together (the floor before), and counts where the one pass is looser: over all forms, and over
the forms :func:`value_is_content` sends to one pass. The second count must be 0.

Usage: python benchmarks/floor_one_pass.py [--locomo PATH] [--presidio PATH]
"""

from __future__ import annotations

import argparse
import json
from functools import lru_cache
from pathlib import Path

from plan_latency import bulk_sentences

from userlore.policy.govern import WRAPPER_KEYS, Assessment, _assess_text, value_is_content
from userlore.policy.sensitivity import SensitivityReport, classify

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"


def corpus(locomo: Path, presidio: Path) -> list[str]:
    """The distinct texts of the corpus (the sets missing on this machine are left out)."""
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "data").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line) if line.strip() else None
            if isinstance(case, dict):
                out.extend(t for t in [case.get("text")] if isinstance(t, str))
                out.extend(v for v in case.get("values") or [] if isinstance(v, str))
    if presidio.exists():
        out.extend(c["full_text"] for c in json.loads(presidio.read_text(encoding="utf-8")))
    if locomo.exists():
        from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text

        for sample in json.loads(locomo.read_text(encoding="utf-8")):
            for _, _, turns in LocomoTranscriptAdapter(sample).sessions():
                out.extend(turn_text(t) for t in turns)
    out += bulk_sentences(2000)
    return list(dict.fromkeys(t for t in out if t))


def _rank(a: Assessment) -> int:
    return {"secret": 3, "regulated": 2}.get(a.refused or "", 1 if a.category else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=SHARED / "locomo" / "locomo_public.json")
    parser.add_argument("--presidio", type=Path, default=SHARED / "presidio" / "synth_public.json")
    args = parser.parse_args()
    memo = lru_cache(maxsize=None)(classify)

    def cl(text: str, *, special: bool = True) -> SensitivityReport:
        return memo(text, special=special)

    texts = corpus(args.locomo, args.presidio)
    forms = looser = one = one_looser = one_verdict = 0
    looser_texts: set[str] = set()
    for text in texts:
        alone = _assess_text((text,), None, cl)
        for key in WRAPPER_KEYS:
            value = json.dumps(
                {key: text}, sort_keys=True, ensure_ascii=False, separators=(",", ":")
            )
            both = _assess_text((text, value), None, cl)
            forms += 1
            worse = _rank(alone) < _rank(both) or alone != both
            looser += worse
            if worse:
                looser_texts.add(text)
            if value_is_content(value, text):
                one += 1
                one_looser += worse
                one_verdict += _rank(both) > 0
    print(f"corpus: {len(texts):,} texts x {len(WRAPPER_KEYS)} wrapper keys = {forms:,} forms")
    print(
        f"content alone differs from content + JSON: {looser:,} forms ({len(looser_texts)} texts)"
    )
    print(
        f"judged by one pass (value_is_content): {one:,} forms, {one_verdict:,} with a verdict; "
        f"differs from two passes: {one_looser}"
    )
    print(
        json.dumps(
            {
                "texts": len(texts),
                "forms": forms,
                "differ": looser,
                "one_pass": one,
                "one_pass_verdicts": one_verdict,
                "one_pass_differ": one_looser,
            }
        )
    )


if __name__ == "__main__":
    main()
