"""run.py's split of a LangGraph package into sessions: every test still runs, exactly once.

The PostgreSQL package's large-batch tests run in a session of their own beside one that
deselects them (``make test``'s longest session was their sum with everything else).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

RUN = Path(__file__).resolve().parents[1] / "langgraph_suites" / "run.py"


def _run_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("userlore_lg_run", RUN)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("userlore_lg_run", module)
    spec.loader.exec_module(module)
    return module


run = _run_module()


def test_an_unsplit_package_is_one_session_of_all_its_files() -> None:
    for dist, files in run.SUITES.items():
        if dist in run.SPLIT:
            continue
        assert run.sessions_of(dist) == [("", files)]


def test_a_split_package_runs_its_split_tests_alone_and_deselects_them_from_the_rest() -> None:
    assert run.SPLIT, "nothing is split: this test would check nothing"
    for dist, nodes in run.SPLIT.items():
        sessions = dict(run.sessions_of(dist))
        assert list(sessions) == ["large batches", "the rest"]
        assert sessions["large batches"] == nodes
        rest = sessions["the rest"]
        # The rest collects every file of the package and deselects exactly the split tests.
        files = [a for a in rest if not a.startswith("--") and "::" not in a]
        assert files == run.SUITES[dist]
        deselected = [rest[i + 1] for i, a in enumerate(rest) if a == "--deselect"]
        assert deselected == nodes
        for node in nodes:
            assert node.split("::")[0] in run.SUITES[dist]
