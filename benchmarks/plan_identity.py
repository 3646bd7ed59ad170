"""Same plans before and after a change to the read path: every plan and trace written out.

Speed work on the read path (issue 23 item 5) must not change what a plan holds. This script
plans a fixed set of questions with deterministic ids and a fixed clock and writes one JSON
line per plan (its text, selected records with scores, rejections, sections, snippets and its
trace's payload); ``--compare A B`` counts the plans that differ. Run it on the code before and
after a change (for example over a ``git archive`` of the old commit on ``PYTHONPATH``) and
compare the two files.

Two sets, each ≥ 300 plans:
- ``--locomo FILE --select 1,2``: LoCoMo conversations ingested as connected sources (FTS5
  retrieval, episodic snippets, evidence pairs; as ``benchmarks/locomo.py``), every question
  with evidence planned at 6,000 characters;
- ``--database FILE``: a copy of a ``plan_latency.py`` 100k database (the in-memory posting
  index and the hit-row cache), a governed note written before each of ``--queries`` plans.

Usage: python benchmarks/plan_identity.py --out FILE (--locomo FILE [--select 1,2] |
       --database FILE [--queries 300])
       python benchmarks/plan_identity.py --compare BEFORE AFTER
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import shutil
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from userlore import CandidateInput, Userlore
from userlore.models import ContextPlan

CLOCK = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)


def _ids() -> Any:
    counter = itertools.count(1)
    return lambda prefix: f"{prefix}_{next(counter):024x}"


def _line(lore: Userlore, scope: str, query: str, plan: ContextPlan) -> dict[str, Any]:
    out = plan.as_dict()
    out["query"] = query
    out["sections"] = {k: list(v) for k, v in plan.sections.items()}
    out["scope"] = scope
    return out


def _with_traces(lore: Userlore, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each plan's trace payload in place of its (run-dependent) id."""
    for line in lines:
        trace_id = line.pop("trace_id")
        line["trace"] = lore.traces.get(line["scope"], trace_id)["payload"] if trace_id else None
    return lines


def locomo_plans(data_path: Path, select: str) -> list[dict[str, Any]]:
    from userlore.sources.adapters.locomo import LocomoTranscriptAdapter

    raw = json.loads(data_path.read_text(encoding="utf-8"))
    data = raw if isinstance(raw, list) else [raw]
    data = [data[int(n) - 1] for n in select.split(",") if n.strip()]
    config = {"memory": {"mode": "auto", "sources": ["session", "curated", "connected"]}}
    lines: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'locomo.db'}"
        with Userlore.open(url, config=config, clock=lambda: CLOCK, ids=_ids()) as lore:
            for sample in data:
                scope = "locomo-" + re.sub(r"[^A-Za-z0-9_.-]", "-", str(sample.get("sample_id")))
                lore.consent.grant(scope, "health")
                lore.sources.ingest(scope, LocomoTranscriptAdapter(sample))
                for qa in sample.get("qa", []):
                    if not qa.get("evidence"):
                        continue
                    question = str(qa["question"])
                    plan = lore.plan_context(scope, question, budget=6000)
                    lines.append(_line(lore, scope, question, plan))
            return _with_traces(lore, lines)


def database_plans(database: Path, queries: int) -> list[dict[str, Any]]:
    sys.path.insert(0, str(Path(__file__).parent))
    from plan_latency import SCOPE, TextGen

    gen = TextGen(seed=11)
    lines: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "copy.db"
        shutil.copy(database, path)
        config = {"memory": {"mode": "auto"}}
        with Userlore.open(
            f"sqlite:///{path}", config=config, clock=lambda: CLOCK, ids=_ids()
        ) as lore:
            for _ in range(queries):
                lore.write(SCOPE, CandidateInput(kind="note", content=gen.sentence(12)))
                query = gen.sentence(gen.rng.randint(3, 8))
                plan = lore.plan_context(SCOPE, query, session_key="identity")
                lines.append(_line(lore, SCOPE, query, plan))
            return _with_traces(lore, lines)


def compare(before: Path, after: Path) -> int:
    a = [json.loads(x) for x in before.read_text(encoding="utf-8").splitlines()]
    b = [json.loads(x) for x in after.read_text(encoding="utf-8").splitlines()]
    if len(a) != len(b):
        print(f"different plan counts: {len(a)} against {len(b)}")
        return 1
    texts = sum(x["text"] == y["text"] for x, y in zip(a, b, strict=True))
    whole = sum(x == y for x, y in zip(a, b, strict=True))
    print(
        f"{len(a)} plans: identical text {texts}/{len(a)},"
        f" identical plan and trace {whole}/{len(a)}"
    )
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            keys = sorted(k for k in x.keys() | y.keys() if x.get(k) != y.get(k))
            print(f"first difference: plan {i} ({x['query']!r}) in {keys}")
            break
    return 0 if whole == len(a) else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out")
    parser.add_argument("--locomo")
    parser.add_argument("--select", default="1,2")
    parser.add_argument("--database")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(Path(args.compare[0]), Path(args.compare[1]))
    if not args.out or bool(args.locomo) == bool(args.database):
        parser.error("--out and one of --locomo / --database (or --compare)")
    if args.locomo:
        lines = locomo_plans(Path(args.locomo), args.select)
    else:
        lines = database_plans(Path(args.database), args.queries)
    with open(args.out, "w", encoding="utf-8") as fh:
        for line in lines:
            fh.write(json.dumps(line, ensure_ascii=False, sort_keys=True, default=str) + "\n")
    print(f"{len(lines)} plans written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
