"""Close relatives read as covered, and values said in forms of uncovered languages: rates.

Scores ``tests/data/relatives_read_as_covered.jsonl`` (how often ``policy.language`` vouches a
covered language for a turn in a relative of one; the covered languages' own short turns must
stay vouched) and ``tests/data/uncovered_value_forms.jsonl`` (per family: values gone from
``redact``'s output; benign rows changed by it), each by split (``dev``: the languages looked
at while writing rules; ``held_out``: never looked at). Run from the worktree:
``.venv/bin/python benchmarks/relatives_forms.py [--misses]``.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from userlore.policy.language import COVERED_LANGUAGES, segments
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"


def _rows(name: str) -> list[dict[str, object]]:
    lines = (DATA / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--misses", action="store_true", help="print each miss")
    args = parser.parse_args()
    tally: dict[tuple[str, str], list[int]] = collections.defaultdict(lambda: [0, 0])
    for row in _rows("relatives_read_as_covered.jsonl"):
        text = str(row["text"])
        langs = [s.language for s in segments(text) if s.language is not None]
        vouched = any(lang in COVERED_LANGUAGES for lang in langs) and all(
            lang in COVERED_LANGUAGES for lang in langs
        )
        key = (f"{row['kind']} ({row['split']})", "vouched covered")
        tally[key][0] += vouched
        tally[key][1] += 1
        quoted = quote_verdict(text).quotable
        tally[(f"{row['kind']} ({row['split']})", "quotable")][0] += quoted
        tally[(f"{row['kind']} ({row['split']})", "quotable")][1] += 1
        bad = vouched if row["kind"] == "relative" else not vouched
        if args.misses and bad:
            print(f"  {row['id']}: {langs} {text!r}")
    for row in _rows("uncovered_value_forms.jsonl"):
        text = str(row["text"])
        red = redact(text)
        family = str(row["family"])
        if family == "benign":
            ok, what = red != text, "flagged"
        else:
            ok = all(str(v) not in red for v in row["values"])  # type: ignore[attr-defined]
            what = "values gone"
        tally[(f"{family} ({row['split']})", what)][0] += ok
        tally[(f"{family} ({row['split']})", what)][1] += 1
        if args.misses and ok == (family == "benign"):
            print(f"  {row['id']}: {red!r}")
    for (group, what), (hit, n) in sorted(tally.items()):
        print(f"{group:26} {what:16} {hit}/{n}")


if __name__ == "__main__":
    main()
