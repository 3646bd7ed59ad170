"""A new process's first turns: the CPU of importing the floor and of its first 1, 5 and 20 texts.

Every CLI command, worker, recipe and test subprocess is a new process: it imports the floor
(``userlore.policy.sensitivity``) and the quote gate, then pays for the tables they build on
first use (CLDR word lists, big alternations, the language identifier's model) on its first
texts. This times that in fresh subprocesses: ``time.process_time`` of the import, then the
cumulative CPU after the first 1, 5 and 20 turns of a fixed mix (ordinary English chat first,
then the other covered languages, one turn in an uncovered language and a config line with a
number), each through ``classify`` and ``quote_verdict``.

``--base-src DIR`` runs the same with another tree's ``src`` on ``PYTHONPATH`` (an export,
``git archive BASE src | tar -x -C /tmp/base``), alternating head and base run by run so both
see the machine's load alike, and prints the head/base ratio of each median.

Usage:
    python benchmarks/first_turns.py --runs 5
    python benchmarks/first_turns.py --base-src /tmp/base/src --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent

TURNS: Final = (
    "I prefer dark mode in every editor, and please answer in short bullet points.",
    "Can you summarise the meeting notes from yesterday for me?",
    "Estoy aprendiendo a programar en Rust los fines de semana.",
    "Ich arbeite gern morgens und mache nachmittags lange Spaziergänge.",
    "max_retries = 5",
    "Je préfère des réponses courtes, avec un exemple de code si possible.",
    "Prefiro receber o resumo por e-mail toda segunda-feira.",
    "我喜欢简洁的回答，最好附上代码示例。",
    "返信は箇条書きでお願いします。",
    "Bugün toplantıyı yarına erteleyelim mi, yoksa akşam mı konuşalım?",
    "Remind me to water the plants when I get back from the trip.",
    "Let's use pandas for the data cleaning step, not polars.",
    "The deploy failed again because the cache volume filled up.",
    "Could you draft a polite reply declining the conference invitation?",
    "timeout_seconds: 30",
    "Mi equipo prefiere reuniones cortas de quince minutos.",
    "Bitte antworte auf Deutsch, wenn ich auf Deutsch schreibe.",
    "J'aime lire des romans policiers le soir.",
    "My sister is visiting next weekend, so keep Saturday free.",
    "What's a good name for a repository of small command-line tools?",
)
"""The fixed mix, in order: ordinary English first (what most processes see first)."""

MARKS: Final = (1, 5, 20)


def child() -> None:
    """Run in a fresh process: print the CPU of the import and after each of :data:`MARKS`."""
    start = time.process_time()
    from userlore.policy.quote_gate import quote_verdict
    from userlore.policy.sensitivity import classify

    imported = time.process_time()
    out = {"import": imported - start}
    for i, text in enumerate(TURNS, 1):
        classify(text)
        quote_verdict(text)
        if i in MARKS:
            out[f"turns_{i}"] = time.process_time() - imported
    print(json.dumps(out))


def run_once(src: Path) -> dict[str, float]:
    """One fresh subprocess with ``src`` first on ``PYTHONPATH``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    done = subprocess.run(
        [sys.executable, "-W", "ignore", __file__, "--child"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per tree (>= 3)")
    parser.add_argument("--head-src", type=Path, default=ROOT / "src")
    parser.add_argument("--base-src", type=Path, help="another tree's src, run alternately")
    args = parser.parse_args()
    if args.child:
        child()
        return
    trees = {"head": args.head_src}
    if args.base_src is not None:
        trees["base"] = args.base_src
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for i in range(max(3, args.runs)):
        for name, src in trees.items():
            runs[name].append(run_once(src))
            print(f"run {i + 1} {name}: {runs[name][-1]}", file=sys.stderr)
    keys = ["import", *(f"turns_{n}" for n in MARKS)]
    medians = {
        name: {k: statistics.median(r[k] for r in rs) for k in keys} for name, rs in runs.items()
    }
    print(f"CPU seconds, median of {max(3, args.runs)} fresh processes each")
    header = f"{'':10}" + "".join(f"{k:>12}" for k in keys)
    print(header)
    for name, m in medians.items():
        print(f"{name:10}" + "".join(f"{m[k]:12.3f}" for k in keys))
    if "base" in medians:
        ratios = "".join(f"{medians['head'][k] / medians['base'][k]:12.2f}" for k in keys)
        print(f"{'head/base':10}" + ratios)


if __name__ == "__main__":
    main()
