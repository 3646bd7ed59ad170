"""CPU a fresh process spends importing userlore, against a base tree in the same run (tidy15).

Each command runs in a new interpreter, alternating between this tree and ``--base-src`` (an
exported ``src``, put first on ``PYTHONPATH``), so both see the machine's load alike. The CPU is
the children's user + system time (``resource.RUSAGE_CHILDREN``), not the wall clock.

Usage:
    git archive BASE src | tar -x -C /tmp/base
    python benchmarks/import_cost.py --base-src /tmp/base/src --rounds 5
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

BIN = Path(sys.executable).parent
COMMANDS: dict[str, list[str]] = {
    "import userlore": [sys.executable, "-c", "import userlore"],
    "import userlore.errors": [sys.executable, "-c", "import userlore.errors"],
    "from userlore import Userlore": [sys.executable, "-c", "from userlore import Userlore"],
    "userlore --help": [str(BIN / "userlore"), "--help"],
    "userlore --version": [str(BIN / "userlore"), "--version"],
}


def cpu_ms(cmd: list[str], src: Path | None) -> float:
    """The CPU milliseconds ``cmd`` takes in a child process (``src`` first on its path)."""
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-src", type=Path, required=True, help="an exported base src")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; median CPU ms of {args.rounds} runs")
    print(f"{'command':32} {'base':>8} {'head':>8} {'ratio':>6}")
    for name, cmd in COMMANDS.items():
        base: list[float] = []
        head: list[float] = []
        for _ in range(args.rounds):
            base.append(cpu_ms(cmd, args.base_src))
            head.append(cpu_ms(cmd, None))
        b, h = statistics.median(base), statistics.median(head)
        print(f"{name:32} {b:8.0f} {h:8.0f} {h / b:6.2f}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
