"""Verdict equality and cost of the floor against a base tree (issue 29/30, floorcost7).

A change meant to make the floor cheaper must not change a verdict. ``--dump`` records, for
every text of ``tests/data/**/*.jsonl`` (texts and values), every LoCoMo turn, every presidio
sentence and the bulk bench's 2,000 sentences: ``classify``'s findings (level, rule, span,
category), ``redact``'s output, the quote gate's reason code and category, and the
special-category cues; for about 19,000 store keys, what the floor decides for a key; and
the cost of the timed calls on the timed sets. Without ``--dump``, the same is computed on this
tree and compared with ``--base``: it prints the differences (0 is the bar) and the cost before
(from the dump's run) and after, with the ratio.

``--base-src`` times this tree (or ``--head-src``) and an exported base ``src`` in one run
instead: two worker processes take turns, round by round, on the same items, so both see the
machine's load alike. It is the one way to time a floor change: the base is the tree before the
change (a rule's commit's parent, a round's merge's first parent; for data only, a tree with the
old ``policy/data``). An earlier round's cost is re-run with both trees exported, e.g. gate4's:
``git archive c495a17^1 src`` as the base and ``git archive c495a17 src`` as the head.

What is timed, in this thread's CPU ms per item (``--calls``, ``--sets``, comma-separated):

- calls: ``classify`` (the floor); ``gate`` (the quote gate's verdict, uncached, its floor
  pass included); ``identify`` (the language identifier, uncached, on the distinct Latin-script
  segments of the set); ``special`` (``special_cues`` + ``about_someone_else_or_topic``, what the
  gate asks the special-category vocabularies).
- sets: ``locomo`` (the first ``--turns`` LoCoMo turns, ordinary chat), ``class`` (every text
  and value of ``tests/data/**/*.jsonl``), ``texts`` (every ``text`` of ``tests/data/*.jsonl``),
  ``special`` (``sensitivity_cases``, ``language_cases`` and the first two LoCoMo
  conversations), ``presidio``, ``bulk`` (the 2,000 sentences ``bulk_puts.py`` puts) and
  ``keys`` (2,000 of its store keys, ``store:notes#m<i>``, classified as the store does, without
  the special rules: the per-call fixed cost).

Usage (the base tree is an export, ``git archive BASE src | tar -x -C /tmp/base``):
    PYTHONPATH=/tmp/base/src python benchmarks/floor_equal.py --dump /tmp/floor_base.json
    python benchmarks/floor_equal.py --base /tmp/floor_base.json   # after a change
    python benchmarks/floor_equal.py --base-src /tmp/base/src --rounds 4   # cost, same run
    python benchmarks/floor_equal.py --base-src /tmp/base/src --calls classify,gate --sets texts
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from userlore.policy import language, quote_gate, sensitivity
from userlore.policy.detectors import special_lang
from userlore.policy.govern import key_refusal

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
# ``shared/`` sits beside the checkout (/work/main) or one level up (a worktree, /work/wt/x).
SHARED = next(
    (d / "shared" / "data" for d in ROOT.parents if (d / "shared" / "data").is_dir()),
    ROOT.parent / "shared" / "data",
)
LOCOMO = SHARED / "locomo" / "locomo_public.json"
PRESIDIO = SHARED / "presidio" / "synth_public.json"
CALLS = ("classify", "gate", "identify", "special")
SETS = ("locomo", "class", "texts", "special", "presidio", "bulk", "keys")


def _cases(paths: list[Path]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").split("\n"):
            case = json.loads(line) if line.strip() else None
            if isinstance(case, dict):
                out.append(case)
    return out


def class_texts() -> list[str]:
    """Every text and value of the class sets, each once, in a stable order."""
    out: list[str] = []
    for case in _cases(sorted(DATA.rglob("*.jsonl"))):
        out.extend(t for t in [case.get("text")] if isinstance(t, str))
        out.extend(v for v in case.get("values") or [] if isinstance(v, str))
    return list(dict.fromkeys(t for t in out if t))


def data_texts(names: tuple[str, ...] = ()) -> list[str]:
    """Every ``text`` of ``tests/data/*.jsonl`` (of ``names`` only when given), sorted."""
    paths = [DATA / n for n in names] if names else sorted(DATA.glob("*.jsonl"))
    return sorted({t for c in _cases(paths) if isinstance(t := c.get("text"), str) and t})


def locomo_turns(conversations: int | None = None) -> list[str]:
    """Every LoCoMo turn as the adapter writes it (empty when the set is not on this machine)."""
    if not LOCOMO.exists():
        return []
    from userlore.sources.adapters.locomo import LocomoTranscriptAdapter, turn_text

    out: list[str] = []
    for sample in json.loads(LOCOMO.read_text(encoding="utf-8"))[:conversations]:
        for _, _, turns in LocomoTranscriptAdapter(sample).sessions():
            out.extend(turn_text(t) for t in turns)
    return out


def presidio_texts() -> list[str]:
    if not PRESIDIO.exists():
        return []
    return [str(c["full_text"]) for c in json.loads(PRESIDIO.read_text(encoding="utf-8"))]


def text_set(name: str, turns: int) -> tuple[str, list[str]]:
    """A timed set's label and texts."""
    if name == "locomo":
        return f"locomo {turns}", locomo_turns()[:turns]
    if name == "class":
        return "class sets", class_texts()
    if name == "texts":
        return "tests/data", data_texts()
    if name == "special":
        cases = data_texts(("sensitivity_cases.jsonl", "language_cases.jsonl"))
        return "special", [*cases, *locomo_turns(2)]
    if name == "presidio":
        return "presidio", presidio_texts()
    if name == "bulk":
        return "bulk contents", bench_sentences()
    if name == "keys":
        # The store keys ``bulk_puts.py`` times (``classify(key, special=False)``): key-sized.
        return KEYS, [f"store:notes#m{i}" for i in range(2000)]
    raise SystemExit(f"unknown set {name!r}: one of {', '.join(SETS)}")


def items(call: str, texts: list[str]) -> list[str]:
    """What ``call`` is timed on: the texts, or their distinct Latin segments for ``identify``."""
    if call != "identify":
        return texts
    segs = {
        t[s.start : s.end]
        for t in texts
        for s in language.segments(t)
        if s.script == "Latn" and s.language is not None
    }
    return sorted(segs)


KEYS: Final = "bulk keys"


def runner(call: str, label: str = "") -> Callable[[str], object]:
    """The function timed for ``call`` on the set ``label`` (uncached where the product caches
    it; a store key is classified without the special rules, as the store does)."""
    if call == "classify":
        if label == KEYS:
            return lambda t: sensitivity.classify(t, special=False)
        return sensitivity.classify
    if call == "gate":
        raw = quote_gate._verdict.__wrapped__
        floor = getattr(quote_gate, "_floor", None)
        clear = getattr(floor, "cache_clear", lambda: None)
        none: frozenset[str] = frozenset()

        def gate(t: str) -> object:
            clear()  # the gate's own floor pass too: its cache holds only some sets' texts
            return raw(t, none, False)

        return gate
    if call == "identify":
        return language.identify.__wrapped__
    if call == "special":
        return lambda t: (
            special_lang.special_cues(t),
            special_lang.about_someone_else_or_topic(t),
        )
    raise SystemExit(f"unknown call {call!r}: one of {', '.join(CALLS)}")


def store_keys() -> list[str]:
    """Store keys as ``UserloreStore`` builds them (``store:<path>#<key>``), judged without the
    special rules: bulk keys, and every word of the floor's data files and detector sources
    as a namespace label or in a key, so the cue words that make a key a secret are met."""
    words: set[str] = set()
    policy = ROOT / "src" / "userlore" / "policy"
    for path in sorted([*policy.glob("data/*.yaml"), *policy.rglob("*.py")]):
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{2,20}", path.read_text("utf-8")))
    out = [f"store:notes#k{i}" for i in range(0, 100_000, 97)]
    for word in sorted(words):
        # Digits from the word itself, not its place in the list: a word added to a source
        # leaves every other key as it was, so a dump still compares after the change.
        digits = f"{(zlib.crc32(word.encode()) * 7919) % 1_000_000:06d}"
        out += [f"store:{word}#k{digits[:4]}", f"store:notes#{word}{digits}"]
        out.append(f"store:{word}/notes@1#{word[:3]}{digits}")
    return out


def bench_sentences(n: int = 2000) -> list[str]:
    """The sentences ``benchmarks/bulk_puts.py`` puts (its seed)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from plan_latency import bulk_sentences

    return bulk_sentences(n)


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
        sorted(special_lang.special_cues(text)),
    ]


def _samples(fn: Callable[[str], object], items: list[str]) -> list[float]:
    """CPU ms of this thread per item: on a machine other processes load, wall time measures
    the scheduler (a p95 of 20 ms for a 1 ms call); CPU time still moves with cache and
    frequency effects, so compare figures of one run or of runs back to back."""
    out: list[float] = []
    for item in items:
        start = time.thread_time()
        fn(item)
        out.append((time.thread_time() - start) * 1000)
    return out


def _stats(samples: list[float]) -> dict[str, float]:
    qs = statistics.quantiles(samples, n=20)
    return {"p50": statistics.median(samples), "p95": qs[18], "mean": statistics.fmean(samples)}


def _warm(timed: dict[str, list[str]]) -> None:
    """One pass of every call on its items: the identifier, wordfreq, CLDR, the vocabularies."""
    for key, group in timed.items():
        fn = runner(*key.split(" ", 1))
        for t in group:
            fn(t)


def _worker(path: str) -> None:
    """Serve timing rounds on stdin/stdout: a line names a key of the items file, the answer
    is its samples."""
    timed: dict[str, list[str]] = json.loads(Path(path).read_text(encoding="utf-8"))
    _warm(timed)
    print("ready", flush=True)
    for line in sys.stdin:
        key = line.strip()
        print(json.dumps(_samples(runner(*key.split(" ", 1)), timed[key])), flush=True)


def _line(key: str, now: dict[str, float], n: int) -> str:
    return (
        f"{key:24s} n={n:6d} p50 {now['p50']:.3f} ms  p95 {now['p95']:.3f} ms"
        f"  mean {now['mean']:.3f} ms"
    )


def same_run(head_src: Path, base_src: Path, timed: dict[str, list[str]], rounds: int) -> None:
    """``head_src`` against ``base_src`` (exported ``src`` trees), two worker processes taking
    turns round by round on the same items, so both see the same load (the fair comparison on
    a busy machine)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", encoding="utf-8") as fh:
        json.dump(timed, fh, ensure_ascii=False)
        fh.flush()
        workers = {}
        for name, path in (("head", head_src), ("base", base_src)):
            env = {**os.environ, "PYTHONPATH": str(path)}
            proc = subprocess.Popen(
                [sys.executable, __file__, "--worker", fh.name],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
            workers[name] = proc
    samples: dict[tuple[str, str], list[float]] = {}
    for r in range(rounds):
        for key in timed:
            order = ("head", "base") if r % 2 == 0 else ("base", "head")
            for name in order:
                proc = workers[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(key + "\n")
                proc.stdin.flush()
                samples.setdefault((name, key), []).extend(json.loads(proc.stdout.readline()))
    for proc in workers.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    for key in timed:
        now, before = _stats(samples[("head", key)]), _stats(samples[("base", key)])
        print(
            f"same run, {key:24s} n={len(timed[key]):6d} head p50 {now['p50']:.3f}"
            f" p95 {now['p95']:.3f} mean {now['mean']:.3f} | base p50 {before['p50']:.3f}"
            f" p95 {before['p95']:.3f} mean {before['mean']:.3f}"
            f" | ratio p50 {now['p50'] / before['p50']:.2f} p95 {now['p95'] / before['p95']:.2f}"
            " (CPU ms)"
        )


def _split(value: str, known: tuple[str, ...]) -> list[str]:
    names = [v for v in value.split(",") if v]
    for v in names:
        if v not in known:
            raise argparse.ArgumentTypeError(f"{v!r} is not one of {', '.join(known)}")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dump", type=Path, help="write this tree's verdicts and cost here")
    parser.add_argument("--base", type=Path, help="compare this tree with a dump")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-cost", action="store_true", help="verdicts only")
    parser.add_argument("--no-verdicts", action="store_true", help="cost only")
    parser.add_argument("--base-src", type=Path, help="time this tree against an exported src")
    parser.add_argument(
        "--head-src", type=Path, default=ROOT / "src", help="the timed head (default: this tree)"
    )
    parser.add_argument(
        "--calls", default="classify", type=lambda v: _split(v, CALLS), help=", ".join(CALLS)
    )
    parser.add_argument(
        "--sets", default="locomo,class", type=lambda v: _split(v, SETS), help=", ".join(SETS)
    )
    parser.add_argument("--turns", type=int, default=2000, help="LoCoMo turns of 'locomo'")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args.worker)
        return
    timed: dict[str, list[str]] = {}
    if not args.no_cost:
        for set_name in args.sets:
            label, texts = text_set(set_name, args.turns)
            for call in args.calls:
                group = items(call, texts)
                if len(group) < 2:
                    print(f"skipped {call} {label}: {len(group)} items (is the set here?)")
                    continue
                timed[f"{call} {label}"] = group
    if args.base_src:
        same_run(args.head_src, args.base_src, timed, args.rounds)
        return
    verdicts: dict[str, list[Any]] = {}
    if not args.no_verdicts:
        sets = {
            "class sets": class_texts(),
            "locomo": locomo_turns(),
            "presidio": presidio_texts(),
            "bench": bench_sentences(),
        }
        keys = store_keys()
        print("texts: " + ", ".join(f"{name} {len(group)}" for name, group in sets.items()), end="")
        print(f", store keys {len(keys)}")
        texts = list(dict.fromkeys(t for group in sets.values() for t in group))
        verdicts = {t: verdict(t) for t in texts}
        # A key is judged apart from a text that happens to be the same string.
        verdicts.update({f"key {k}": key_verdict(k) for k in keys})
    _warm(timed)
    costs = {
        key: _stats(
            [s for _ in range(args.rounds) for s in _samples(runner(*key.split(" ", 1)), group)]
        )
        for key, group in timed.items()
    }
    if args.dump:
        args.dump.write_text(
            json.dumps({"verdicts": verdicts, "cost": costs}, ensure_ascii=False), "utf-8"
        )
        print(f"dumped {len(verdicts)} verdicts to {args.dump}")
    base: dict[str, Any] = {}
    if args.base:
        base = json.loads(args.base.read_text(encoding="utf-8"))
    if args.base and verdicts:
        old = base["verdicts"]
        missing = [t for t in verdicts if t not in old]
        diffs = [t for t in verdicts if t in old and old[t] != verdicts[t]]
        print(f"compared {len(verdicts) - len(missing)} texts: {len(diffs)} differences")
        for t in diffs[:20]:
            print(f"  DIFF {t[:100]!r}\n    base {old[t]}\n    now  {verdicts[t]}")
        if missing:
            print(f"  {len(missing)} texts not in the base dump")
    for key, now in costs.items():
        line = _line(key, now, len(timed[key]))
        before = base.get("cost", {}).get(key)
        if before:
            line += (
                f"  | base p50 {before['p50']:.3f}  p95 {before['p95']:.3f}"
                f"  mean {before['mean']:.3f}  | ratio p50 {now['p50'] / before['p50']:.2f}"
                f"  p95 {now['p95'] / before['p95']:.2f}"
            )
        print(line)


if __name__ == "__main__":
    main()
