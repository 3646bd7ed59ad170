"""Values in languages no rule reads, by family and split: the floor's catch and false-flag rates.

Scores ``tests/data/unread_values.jsonl`` (issue 29, blindfix13c): per family, the rows whose
every value is gone from ``redact``'s output; for ``benign``, the rows ``redact`` changed. The
split ``held_out`` holds languages written with the rest and not looked at while writing the
rules. Run from the worktree: ``.venv/bin/python benchmarks/unread_values.py [--misses]``.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from userlore.policy.sensitivity import redact

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "unread_values.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--misses", action="store_true", help="print each miss and flag")
    args = parser.parse_args()
    tally: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for line in DATA.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        text, family = str(row["text"]), str(row["family"])
        red = redact(text)
        values = [str(v) for v in row["values"]]
        ok = red != text if family == "benign" else all(v not in red for v in values)
        tally[(family, str(row["split"]))][0] += ok
        tally[(family, str(row["split"]))][1] += 1
        if args.misses and ok == (family == "benign"):
            print(f"  {row['id']}: {red!r}")
    for (family, split), (hit, n) in sorted(tally.items()):
        what = "flagged" if family == "benign" else "values gone"
        print(f"{family:14} {split:9} {what:12} {hit}/{n}")


if __name__ == "__main__":
    main()
