"""Values left in stored evidence, per class, on held-out sets (issue 29: "values left in
stored evidence reported per class, goal 0").

An item's values are *left* when the floor's ``redact`` (what a record and its evidence keep)
still holds any of them. Reads the gate-set format (``class``, ``values``) and the spoken
uncovered set's (``kind``, ``value``); benign items report how many had anything redacted.

Usage: ``python benchmarks/values5_stored.py FILE...``
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("files", type=Path, nargs="+")
    args = parser.parse_args()
    from userlore.policy.sensitivity import redact

    rows: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for path in args.files:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            cls = case.get("class") or case.get("kind", "?")
            if case.get("group", "held_out") == "covered":
                continue
            values = case.get("values") or ([case["value"]] if case.get("value") else [])
            red = redact(case["text"])
            bad = red != case["text"] if cls == "benign" else any(v in red for v in values)
            rows[(path.stem, cls)][0] += 1
            rows[(path.stem, cls)][1] += int(bad)
    for (stem, cls), (n, bad) in sorted(rows.items()):
        label = "benign flagged" if cls == "benign" else "values left in evidence"
        print(f"{stem:28} {cls:10} {label}: {bad}/{n}")


if __name__ == "__main__":
    main()
