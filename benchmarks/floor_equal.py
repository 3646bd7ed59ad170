"""Verdict equality and cost of the floor against a dump of a base tree (issue 29/30, floorcost7).

A change meant to make the floor cheaper must not change a verdict. ``--dump`` records, for
every text of ``tests/data/**/*.jsonl`` (texts and values), every LoCoMo turn and every presidio
sentence: ``classify``'s findings (level, rule, span, category), ``redact``'s output and the
quote gate's reason code and category; and the cost of ``classify`` (p50/p95/mean in ms) on
the first 2,000 LoCoMo turns and on the class sets. Without ``--dump``, the same is computed on
this tree and compared with ``--base``: it prints the differences (0 is the bar) and the cost
before (from the dump's run) and after, with the ratio.

``--base-src`` times this tree and an exported base ``src`` in one run instead: two worker
processes take turns, round by round, so both see the machine's load alike.

Usage (the base tree is an export, ``git archive BASE src | tar -x -C /tmp/base``):
    PYTHONPATH=/tmp/base/src python benchmarks/floor_equal.py --dump /tmp/floor_base.json
    python benchmarks/floor_equal.py --base /tmp/floor_base.json   # after a change
    python benchmarks/floor_equal.py --base-src /tmp/base/src --rounds 4   # cost, same run
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from userlore.policy import quote_gate, sensitivity
from userlore.policy.govern import key_refusal

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "data"
LOCOMO = SHARED / "locomo" / "locomo_public.json"
PRESIDIO = SHARED / "presidio" / "synth_public.json"


def class_texts() -> list[str]:
    """Every text and value of the class sets, each once, in a stable order."""
    out: list[str] = []
    for path in sorted((ROOT / "tests" / "data").rglob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").split("\n"):
            case = json.loads(line) if line.strip() else None
            if isinstance(case, dict):
                out.extend(t for t in [case.get("text")] if isinstance(t, str))
                out.extend(v for v in case.get("values") or [] if isinstance(v, str))
    return list(dict.fromkeys(t for t in out if t))


def locomo_turns() -> list[str]:
    """Every LoCoMo turn as the adapter writes it (empty when the set is not on this machine)."""
    if not LOCOMO.exists():
        return []
    from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text

    out: list[str] = []
    for sample in json.loads(LOCOMO.read_text(encoding="utf-8")):
        for _, _, turns in LocomoTranscriptAdapter(sample).sessions():
            out.extend(turn_text(t) for t in turns)
    return out


def presidio_texts() -> list[str]:
    if not PRESIDIO.exists():
        return []
    return [str(c["full_text"]) for c in json.loads(PRESIDIO.read_text(encoding="utf-8"))]


def store_keys() -> list[str]:
    """Store keys as ``UserloreStore`` builds them (``store:<path>#<key>``), judged without the
    special rules: bulk keys, and every word of the floor's data files and detector sources
    as a namespace label or in a key, so the cue words that make a key a secret are met."""
    words: set[str] = set()
    policy = ROOT / "src" / "userlore" / "policy"
    for path in sorted([*policy.glob("data/*.yaml"), *policy.rglob("*.py")]):
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{2,20}", path.read_text("utf-8")))
    out = [f"store:notes#k{i}" for i in range(0, 100_000, 97)]
    for n, word in enumerate(sorted(words)):
        digits = f"{(n * 7919) % 1_000_000:06d}"
        out += [f"store:{word}#k{digits[:4]}", f"store:notes#{word}{digits}"]
        out.append(f"store:{word}/notes@1#{word[:3]}{digits}")
    return out


def bench_sentences(n: int = 2000) -> list[str]:
    """The sentences ``benchmarks/bulk_puts.py`` puts (its seed)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from plan_latency import TextGen

    gen = TextGen(seed=11)
    return [gen.sentence(gen.rng.randint(6, 14)) for _ in range(n)]


def key_verdict(key: str) -> list[Any]:
    """What the floor decides for a store key: ``classify`` without special rules, refusal."""
    report = sensitivity.classify(key, special=False)
    return [
        [[str(f.level), f.rule, f.start, f.end, f.category] for f in report.findings],
        key_refusal(key),
    ]


def verdict(text: str) -> list[Any]:
    """What the floor and the gate decide for ``text``, as JSON-comparable data."""
    report = sensitivity.classify(text)
    gate = quote_gate.quote_verdict(text)
    return [
        [[str(f.level), f.rule, f.start, f.end, f.category] for f in report.findings],
        sensitivity.redact(text, report),
        [None if gate.reason is None else str(gate.reason), gate.category],
    ]


def cost(items: list[str], rounds: int) -> dict[str, float]:
    """p50/p95/mean of ``classify`` in CPU ms over ``items`` (the gate's cache is not involved).

    CPU time of this thread, not wall time: on a machine other processes load, wall time
    measures the scheduler (a p95 of 20 ms for a 1 ms call); CPU time still moves with cache
    and frequency effects, so compare figures of one run or of runs back to back."""
    samples: list[float] = []
    for _ in range(rounds):
        for item in items:
            start = time.thread_time()
            sensitivity.classify(item)
            samples.append((time.thread_time() - start) * 1000)
    qs = statistics.quantiles(samples, n=20)
    return {"p50": statistics.median(samples), "p95": qs[18], "mean": statistics.fmean(samples)}


def _worker() -> None:
    """Serve timing rounds on stdin/stdout: a line names a set, the answer is its samples."""
    sets = {"locomo 2000": locomo_turns()[:2000], "class sets": class_texts()}
    for items in sets.values():
        for t in items:
            sensitivity.classify(t)
    print("ready", flush=True)
    for line in sys.stdin:
        samples = _samples(sets[line.strip()])
        print(json.dumps(samples), flush=True)


def _samples(items: list[str]) -> list[float]:
    out: list[float] = []
    for item in items:
        start = time.thread_time()
        sensitivity.classify(item)
        out.append((time.thread_time() - start) * 1000)
    return out


def _stats(samples: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(samples, n=20)
    return {"p50": statistics.median(samples), "p95": qs[18], "mean": statistics.fmean(samples)}


def same_run(base_src: Path, rounds: int) -> None:
    """This tree against ``base_src`` (an exported ``src``), two worker processes taking turns
    round by round, so both see the same load (the fair comparison on a busy machine)."""
    workers = {}
    for name, path in (("head", ROOT / "src"), ("base", base_src)):
        env = {**os.environ, "PYTHONPATH": str(path)}
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        workers[name] = proc
    samples: dict[tuple[str, str], list[float]] = {}
    for r in range(rounds):
        for set_name in ("locomo 2000", "class sets"):
            order = ("head", "base") if r % 2 == 0 else ("base", "head")
            for name in order:
                proc = workers[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(set_name + "\n")
                proc.stdin.flush()
                samples.setdefault((name, set_name), []).extend(json.loads(proc.stdout.readline()))
    for proc in workers.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for set_name in ("locomo 2000", "class sets"):
        now, before = _stats(samples[("head", set_name)]), _stats(samples[("base", set_name)])
        print(
            f"same run, classify {set_name:12s} head p50 {now['p50']:.3f} p95 {now['p95']:.3f}"
            f" mean {now['mean']:.3f} | base p50 {before['p50']:.3f} p95 {before['p95']:.3f}"
            f" mean {before['mean']:.3f} | ratio p50 {now['p50'] / before['p50']:.2f}"
            f" p95 {now['p95'] / before['p95']:.2f} (CPU ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="write this tree's verdicts and cost here")
    parser.add_argument("--base", type=Path, help="compare this tree with a dump")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-cost", action="store_true", help="verdicts only")
    parser.add_argument("--no-verdicts", action="store_true", help="cost only")
    parser.add_argument("--base-src", type=Path, help="time this tree against an exported src")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker()
        return
    if args.base_src:
        same_run(args.base_src, args.rounds)
        return
    turns = locomo_turns()
    sets = {
        "class sets": class_texts(),
        "locomo": turns,
        "presidio": presidio_texts(),
        "bench": bench_sentences(),
    }
    texts = list(dict.fromkeys(t for group in sets.values() for t in group))
    keys = [] if args.no_verdicts else store_keys()
    if args.no_verdicts:
        texts = list(dict.fromkeys([*turns[:2000], *sets["class sets"]]))
        verdicts = {t: [] for t in texts}
        for t in texts:  # warm every lazy table
            sensitivity.classify(t)
    else:
        verdicts = {t: verdict(t) for t in texts}  # also warms every lazy table
        # A key is judged apart from a text that happens to be the same string.
        verdicts.update({f"key {k}": key_verdict(k) for k in keys})
        texts += [f"key {k}" for k in keys]
    costs: dict[str, dict[str, float]] = {}
    if not args.no_cost:
        costs["locomo 2000"] = cost(turns[:2000], args.rounds)
        costs["class sets"] = cost(sets["class sets"], args.rounds)
    print("texts: " + ", ".join(f"{name} {len(group)}" for name, group in sets.items()), end="")
    print(f", store keys {len(keys)}")
    if args.dump:
        args.dump.write_text(
            json.dumps({"verdicts": verdicts, "cost": costs}, ensure_ascii=False), "utf-8"
        )
        print(f"dumped {len(verdicts)} verdicts to {args.dump}")
    base: dict[str, Any] = {}
    if args.base:
        base = json.loads(args.base.read_text(encoding="utf-8"))
    if args.base and not args.no_verdicts:
        old = base["verdicts"]
        missing = [t for t in texts if t not in old]
        diffs = [t for t in texts if t in old and old[t] != verdicts[t]]
        print(f"compared {len(texts) - len(missing)} texts: {len(diffs)} differences")
        for t in diffs[:20]:
            print(f"  DIFF {t[:100]!r}\n    base {old[t]}\n    now  {verdicts[t]}")
        if missing:
            print(f"  {len(missing)} texts not in the base dump")
    for name, now in costs.items():
        line = f"classify {name:12s} p50 {now['p50']:.3f} ms  p95 {now['p95']:.3f} ms"
        line += f"  mean {now['mean']:.3f} ms"
        before = base.get("cost", {}).get(name)
        if before:
            line += (
                f"  | base p50 {before['p50']:.3f}  p95 {before['p95']:.3f}"
                f"  mean {before['mean']:.3f}  | ratio p50 {now['p50'] / before['p50']:.2f}"
                f"  p95 {now['p95'] / before['p95']:.2f}"
            )
        print(line)


if __name__ == "__main__":
    main()
