"""Piped ``userlore`` output (80 columns): ids and context blocks are never wrapped (issue 26).

A person copies an id into the next command and a script reads the plan's JSON block, so both
must stay whole; long record content still folds to the width. The two plan commands run the real
command in a subprocess (stdout a pipe, ``COLUMNS=80``); the listings call ``main(argv)`` in this
process with the same width and a captured (not a terminal) stdout, the same path without a
process start each.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from userlore import Userlore
from userlore.cli import main

LONG = "Our deployment checklist covers " + ", ".join(f"step number {n}" for n in range(40)) + "."


def run(args: list[str], db: str, home: Path) -> str:
    env = dict(os.environ, HOME=str(home), USERLORE_DB=db, COLUMNS="80")
    env.pop("USERLORE_CONFIG", None)
    done = subprocess.run(
        [sys.executable, "-m", "userlore.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=True,
    )
    return done.stdout


def run_here(args: list[str], db: str, home: Path) -> str:
    """The same command through ``main`` in this process, stdout captured at 80 columns."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        patch.setenv("USERLORE_DB", db)
        patch.setenv("COLUMNS", "80")
        patch.delenv("USERLORE_CONFIG", raising=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(args) == 0
    return out.getvalue()


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("cli-output")
    db = f"sqlite:///{home / 'out.db'}"
    with Userlore.open(db, config={"memory": {"mode": "auto"}}) as lore:
        lore.memory.remember("u1", LONG, path="team", memory_type="semantic")
        lore.memory.remember("u1", "Standup is at 9:30.", path="team", memory_type="semantic")
    piped = {
        "plan": ["plan", "deployment checklist standup", "--scope", "u1"],
        "plan json": ["plan", "deployment checklist standup", "--scope", "u1", "--json"],
    }
    here = {
        "records": ["records", "--scope", "u1"],
        "records json": ["records", "--scope", "u1", "--json"],
        "traces": ["trace", "list", "--scope", "u1"],
        "traces json": ["trace", "list", "--scope", "u1", "--json"],
    }
    # Plans write traces: the two trace listings run after every plan, or they could differ.
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {k: pool.submit(run, args, db, home) for k, args in piped.items()}
        out = {k: f.result() for k, f in futures.items()}
    out.update({k: run_here(args, db, home) for k, args in here.items()})
    return out


@pytest.mark.parametrize(
    ("table", "source"), [("records", "records json"), ("traces", "traces json")]
)
def test_every_id_is_on_one_line_and_long_content_folds(
    printed: dict[str, str], table: str, source: str
) -> None:
    ids = [row["id"] for row in json.loads(printed[source])]
    assert ids
    lines = printed[table].splitlines()
    for value in ids:
        assert any(value in line for line in lines), (value, printed[table])
    assert max(len(line) for line in lines) <= 80  # the rest folds to the width


def test_the_plan_block_and_its_ids_are_printed_unwrapped(printed: dict[str, str]) -> None:
    plan = json.loads(printed["plan json"])
    assert "Standup" in plan["text"]
    lines = printed["plan"].splitlines()
    for block_line in plan["text"].splitlines():
        assert block_line in lines, block_line  # every line of the block, whole
    # Each run writes its own trace: the printed one is whole when it is as long as the JSON's.
    [trace_line] = [line for line in lines if line.startswith("trace ")]
    assert len(trace_line.split()[1].rstrip(":")) == len(plan["trace_id"]), trace_line
    for rejected in plan["rejected"]:
        assert any(rejected["id"] in line for line in lines)
