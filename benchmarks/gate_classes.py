"""Score the quote gate and the floor per class on a JSONL set, fast (no store, no plan).

For each item: the gate alone (``quote_verdict`` on the raw turn, no consent) withholds it or
not, and the floor (``redact``) leaves any of its ``values`` in the text or not. A sensitive
item is *caught* when the gate withholds it **and** the floor removes every value (an item
without values: the gate alone); a benign item is *withheld* when the gate withholds it and
*flagged* when the floor redacts anything. Used for the class rounds of issue 29 (gate4), where
``sensitivity.py --gate`` (the whole write and plan path) is the final check.

Usage: ``python benchmarks/gate_classes.py FILE... [--misses] [--by-lang] [--by-family]``
(``--by-family``: one line per item's ``family`` too, for a set that holds several classes,
e.g. ``tests/data/blindfix8_values.jsonl``).
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
    parser.add_argument(
        "--by-lang",
        action="store_true",
        help="one line per language too (class rounds per language)",
    )
    parser.add_argument(
        "--by-family",
        action="store_true",
        help="one line per class family too (the item's 'family' field)",
    )
    args = parser.parse_args()
    from userlore.policy.quote_gate import quote_verdict
    from userlore.policy.sensitivity import redact

    rows: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for path in args.files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            text = case["text"]
            gate = not quote_verdict(text).quotable
            red = redact(text)
            benign = case["class"] == "benign"
            if benign:
                bad = gate or red != text
            else:
                bad = not gate or any(v in red for v in case.get("values", []))
            keys = [(path.stem, case["group"], case["class"])]
            if args.by_lang:
                keys.append((path.stem, case["group"] + ":" + case["lang"], case["class"]))
            if args.by_family and "family" in case:
                keys.append((path.stem, "family:" + case["family"], case["class"]))
            for key in keys:
                rows[key][0] += 1
                rows[key][1] += int(bad)
            if args.misses and bad:
                what = "WITHHELD/FLAGGED" if benign else "MISSED"
                print(f"  {what} gate={gate} {case['id']}: {text!r} -> {red!r}")
    for (stem, group, cls), (n, bad) in sorted(rows.items()):
        label = "benign withheld/flagged" if cls == "benign" else "caught"
        got = bad if cls == "benign" else n - bad
        print(f"{stem:28} {group:20} {cls:10} {label}: {got}/{n}")


if __name__ == "__main__":
    main()
