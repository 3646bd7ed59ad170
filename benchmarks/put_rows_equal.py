"""Raw-row equality of store puts against a base tree (issue 30, bulkput9).

A change to the write path (the floor's verdict handed down instead of re-run, ids, statements)
must store exactly what the base stores. This puts one corpus through ``UserloreStore`` on a
SQLite file with a fixed clock and counting ids, then dumps every row of every table (the FTS
shadow tables included) as SQLite holds it, and each op's outcome (written, or the error type
and message). Generations start at a random number, so they are kept as their distance from
the scope's current one. An FTS5 index is also dumped as its terms (every term's row, column
and offset, ``fts5vocab``): where only its segment tables differ and the terms do not, the
difference is the segments' layout (when FTS5 flushed), printed and not counted.

The corpus: every ``text`` of the gate sets, the floor's class sets and ``sensitivity_cases``
(secrets, regulated ids, money, special categories, benign texts, in many languages) and 200
bench sentences, each put as ``{"text": X}``; every third also as nested JSON
(``{"content": X, "meta": {...}}``); each case's ``values`` as keys of a benign value; then
edits of a quarter of the keys (the path that revises a held key), exact repeats (reinforce),
a key twice in one batch, deletes, single puts with a TTL and another user. Ops go in batches
of 50; a batch that is refused (nothing of it is written) goes again op by op.

Usage (the base is an export, ``git archive BASE src | tar -x -C /tmp/base``):
    PYTHONPATH=/tmp/base/src python benchmarks/put_rows_equal.py --dump /tmp/rows_base.json
    python benchmarks/put_rows_equal.py --base /tmp/rows_base.json   # prints 0 differences
"""

from __future__ import annotations

import argparse
import itertools
import json
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from langgraph.store.base import PutOp
from plan_latency import TextGen

from userlore import Userlore
from userlore.errors import UserloreError
from userlore.integrations.langgraph_store import UserloreStore
from userlore.testing.embeddings import HashingEmbeddings

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"
SETS = ("gate_*.jsonl", "floor_*.jsonl", "blindfix9_*.jsonl", "sensitivity_cases.jsonl")
BATCH = 50


def corpus() -> list[tuple[str, list[str]]]:
    """(text, values) of every case of :data:`SETS`, then 200 bench sentences."""
    out: list[tuple[str, list[str]]] = []
    seen: set[str] = set()
    for pattern in SETS:
        for path in sorted(DATA.glob(pattern)):
            for line in path.read_text(encoding="utf-8").splitlines():
                case = json.loads(line) if line.strip() else {}
                text = case.get("text")
                if isinstance(text, str) and text.strip() and text not in seen:
                    seen.add(text)
                    values = case.get("values") or []
                    out.append((text, [v for v in values if isinstance(v, str) and v.strip()]))
    gen = TextGen(seed=7)
    out.extend((gen.sentence(gen.rng.randint(6, 14)), []) for _ in range(200))
    return out


def ops() -> list[list[PutOp]]:
    """The corpus as phases of ops (each phase batched in :data:`BATCH`)."""
    cases = corpus()
    notes, other = ("u1", "notes"), ("u2", "health", "diary")
    fresh: list[PutOp] = []
    for i, (text, values) in enumerate(cases):
        fresh.append(PutOp(notes, f"t{i}", {"text": text}))
        if i % 3 == 0:
            nested = {"content": text, "meta": {"tags": ["a", text[:12]], "at": {"n": i}}}
            fresh.append(PutOp(other, f"n{i}", nested))
        fresh.extend(PutOp(notes, v[:200], {"text": "a note to self"}) for v in values[:1])
    edits = [
        PutOp(notes, f"t{i}", {"text": f"{text} (edited)"})
        for i, (text, _) in enumerate(cases)
        if i % 4 == 1
    ]
    repeats = [PutOp(notes, f"t{i}", {"text": text}) for i, (text, _) in enumerate(cases)][::5]
    twice = [
        op
        for i, (text, _) in enumerate(cases[:300:7])
        for op in (
            PutOp(notes, f"d{i}", {"text": text}),
            PutOp(notes, f"d{i}", {"memory": f"again: {text}"}),
        )
    ]
    deletes = [PutOp(notes, f"t{i}", None) for i in range(0, len(cases), 11)]
    singles = [
        PutOp(("u3", "notes"), f"s{i}", {"text": text}, ttl=30.0)
        for i, (text, _) in enumerate(cases[::9])
    ]
    return [fresh, edits, repeats, twice, deletes, singles]


def run() -> dict[str, Any]:
    """Put the corpus and dump every table, raw, and each op's outcome."""
    counter = itertools.count()
    outcomes: list[str] = []
    index: Any = {"dims": 32, "embed": HashingEmbeddings(dims=32), "fields": ["text", "content"]}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows.db"
        lore = Userlore.open(
            f"sqlite:///{path}",
            config={"memory": {"mode": "auto"}},
            clock=lambda: datetime(2026, 12, 6, 3, 0, tzinfo=UTC),
            ids=lambda prefix: f"{prefix}_{next(counter):024x}",
        )
        store = UserloreStore(lore, namespace_template=("{user_id}",), index=index)
        for n, phase in enumerate(ops()):
            single = n == len(ops()) - 1
            for at in range(0, len(phase), 1 if single else BATCH):
                part = phase[at : at + (1 if single else BATCH)]
                try:
                    store.batch(part)
                    outcomes.append(f"ok {len(part)}")
                    continue
                except UserloreError:
                    outcomes.append("batch refused")
                for op in part:
                    try:
                        store.batch([op])
                        outcomes.append("ok")
                    except UserloreError as exc:
                        outcomes.append(f"{type(exc).__name__}: {exc}")
        lore.close()
        return {"outcomes": outcomes, "tables": dump(path)}


def dump(path: Path) -> dict[str, list[str]]:
    """Every row of every table, as ``repr`` of SQLite's values, sorted."""
    conn = sqlite3.connect(path)
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        vector_gen = dict(conn.execute("SELECT scope, generation FROM memory_vector_generations"))
        record_gen = dict(conn.execute("SELECT scope, generation FROM memory_record_generations"))
        out: dict[str, list[str]] = {}
        for table in sorted(tables):
            cur = conn.execute(f'SELECT * FROM "{table}"')
            names = [d[0] for d in cur.description]
            current = record_gen if table == "memory_record_changes" else vector_gen
            rows = []
            for row in cur:
                values = dict(zip(names, row, strict=True))
                if table.endswith("_generations"):
                    values.pop("generation", None)
                    values.pop("reset", None)
                elif "generation" in values and "scope" in values:
                    values["generation"] -= current.get(values["scope"], 0)
                rows.append(repr(sorted(values.items())))
            out[table] = sorted(rows)
        for table in sorted(t for t in tables if f"{t}_data" in tables and f"{t}_idx" in tables):
            # An FTS5 index logically: every term's row, column and offset (fts5vocab).
            vocab = f'fts5vocab(main, "{table}", instance)'
            conn.execute(f'CREATE VIRTUAL TABLE temp."{table}_terms" USING {vocab}')
            terms = conn.execute(f'SELECT term, doc, col, offset FROM temp."{table}_terms"')
            out[f"{table}{_TERMS}"] = sorted(repr(row) for row in terms)
        return out
    finally:
        conn.close()


_TERMS = "::terms"


def _layout_only(table: str, base: dict[str, Any], head: dict[str, Any]) -> bool:
    """Whether ``table`` is an FTS5 index's segment data (``_data``, ``_idx``) and the index
    holds the same terms at the same rows, columns and offsets both ways. When FTS5 flushes
    its pending terms into segments (per statement, per transaction) moves the segments' bytes,
    not what a query finds; a dump older than the terms counts as a difference."""
    fts, _, part = table.rpartition("_")
    terms = f"{fts}{_TERMS}"
    return part in ("data", "idx") and terms in base and base.get(terms) == head.get(terms)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="write this tree's rows here")
    parser.add_argument("--base", type=Path, help="compare this tree's rows with a dump")
    args = parser.parse_args()
    got = run()
    rows = sum(len(v) for v in got["tables"].values())
    print(f"{len(got['outcomes'])} outcomes, {rows} rows in {len(got['tables'])} tables")
    if args.dump:
        args.dump.write_text(json.dumps(got), encoding="utf-8")
    if args.base:
        base = json.loads(args.base.read_text(encoding="utf-8"))
        diffs = int(base["outcomes"] != got["outcomes"])
        for table in sorted(set(base["tables"]) | set(got["tables"])):
            before, after = base["tables"].get(table, []), got["tables"].get(table, [])
            if before != after:
                if _layout_only(table, base["tables"], got["tables"]):
                    print(f"{table}: {len(before)} -> {len(after)} rows, same terms (layout)")
                    continue
                diffs += 1
                gone, new = sorted(set(before) - set(after)), sorted(set(after) - set(before))
                print(f"{table}: {len(before)} -> {len(after)} rows")
                print(f"  e.g. base {gone[0][:400] if gone else '-'}")
                print(f"  head {new[0][:400] if new else '-'}")
        print(f"differences: {diffs}")
        sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
