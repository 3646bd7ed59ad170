"""Score the quote gate on special-category class sets (``tests/data/special/special*.jsonl``).

Each row carries ``class`` (the class family), ``lang``, ``form`` and ``expect`` (the special
category, or null for a near-miss). A statement is *caught* when the gate (``quote_verdict``, no
consent) withholds it; a near-miss is *withheld* when the gate withholds it. ``floor`` counts the
statements whose category the floor itself finds (a consent-gated record can start from it).
Used for the special-category rounds of issue 29 (special5): a set's first run is its first-sight
rate.

Usage: ``python benchmarks/special_classes.py FILE... [--misses]``.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--misses", action="store_true", help="print the items missed")
    args = parser.parse_args()
    from userlore.policy.quote_gate import quote_verdict
    from userlore.policy.sensitivity import classify

    # (set, class) -> [statements, caught, floor, near-misses, withheld]
    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    by_lang: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for path in args.files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            text = case["text"]
            withheld = not quote_verdict(text).quotable
            row = rows[(path.stem, case["class"])]
            if case["expect"]:
                found = {f.category for f in classify(text).findings}
                row[0] += 1
                row[1] += int(withheld)
                row[2] += int(case["expect"] in found)
                by_lang[(path.stem, case["lang"])][0] += 1
                by_lang[(path.stem, case["lang"])][1] += int(withheld)
                if args.misses and not withheld:
                    print(f"  MISSED {case['id']} ({case['form']}): {text!r}")
            else:
                row[3] += 1
                row[4] += int(withheld)
                if args.misses and withheld:
                    verdict = quote_verdict(text)
                    print(f"  WITHHELD {case['id']} ({verdict.category}): {text!r}")
    for (stem, cls), (n, caught, floor, near, held) in sorted(rows.items()):
        print(
            f"{stem:14} {cls:12} caught {caught}/{n}  floor {floor}/{n}  "
            f"near-misses withheld {held}/{near}"
        )
    for stem in sorted({s for s, _ in by_lang}):
        langs = " ".join(
            f"{lang} {c}/{n}" for (s, lang), (n, c) in sorted(by_lang.items()) if s == stem
        )
        print(f"{stem:14} by language  {langs}")


if __name__ == "__main__":
    main()
