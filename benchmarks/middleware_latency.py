"""What ``UserloreMiddleware`` adds to a ``create_agent`` turn (SQLite, fake chat models).

Runs the same agent with and without the middleware over ``--turns`` turns and reports p50/p95
of the whole ``invoke`` and of the difference (the middleware's added latency per turn):
- ``observe``: plan + inject + observe the user turn;
- ``review_due``: the same with a reviewer due on every turn (``reviewIntervalTurns=1``); the
  reviewer's fake model sleeps ``--reviewer-ms`` per call, standing in for an LLM.
The agent's own fake model answers at once, so the figures are the middleware's cost alone.

Runs against whatever ``userlore`` is importable, so ``PYTHONPATH=<old checkout>/src`` measures
the code before a change in the same way.

Usage: python benchmarks/middleware_latency.py [--turns 200] [--reviewer-ms 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain.agents import create_agent
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langgraph.checkpoint.memory import InMemorySaver

from userlore import Userlore
from userlore.extract.reviewer import LLMReviewer
from userlore.integrations import UserloreMiddleware

VERDICT = {
    "kind": "goal",
    "content": "The user is preparing a product launch.",
    "canonical_key": "goal/launch",
    "value": None,
    "confidence": 0.6,
    "sensitivity": "none",
    "evidence": "the launch next week",
}
TURNS = [
    "I use pnpm and deploy on Fridays.",
    "How do I add a dependency?",
    "I'm nervous about the launch next week.",
    "Please always answer in bullet points.",
    "What should I check before the release?",
]


class FakeModel(BaseChatModel):
    """Replies ``reply`` after ``delay_s`` (no network)."""

    reply: str = "ok"
    delay_s: float = 0.0

    @property
    def _llm_type(self) -> str:
        return "bench-fake"

    def _generate(
        self, messages: list[BaseMessage], stop: list[str] | None = None, **kw: Any
    ) -> ChatResult:
        if self.delay_s:
            time.sleep(self.delay_s)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=self.reply))])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, Any]:
        return self


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def run(turns: int, *, middleware: str, reviewer_ms: float) -> list[float]:
    """Wall time (ms) of each ``invoke``; ``middleware`` is ``none``, ``observe`` or
    ``review_due``."""
    folder = Path(tempfile.mkdtemp())
    cfg = {"memory": {"mode": "auto"}, "understanding": {"reviewIntervalTurns": 1}}
    lore = Userlore.open(f"sqlite:///{folder / 'lore.db'}", config=cfg)
    stack = []
    mw = None
    if middleware != "none":
        reviewer = None
        if middleware == "review_due":
            model = FakeModel(
                reply=json.dumps({"candidates": [VERDICT]}), delay_s=reviewer_ms / 1000
            )
            reviewer = LLMReviewer(model)
        mw = UserloreMiddleware(lore, reviewer=reviewer)
        stack.append(mw)
    agent = create_agent(FakeModel(), tools=[], middleware=stack, checkpointer=InMemorySaver())
    times = []
    for i in range(turns):
        config = {"configurable": {"thread_id": f"t{i // 10}"}}  # 10 turns per thread
        message = {"messages": [{"role": "user", "content": TURNS[i % len(TURNS)]}]}
        t0 = time.perf_counter()
        agent.invoke(message, config, context={"user_id": f"user{i % 3}"})
        times.append((time.perf_counter() - t0) * 1000)
    if mw is not None and hasattr(mw, "close"):
        mw.close(120)  # let background work finish outside the timed turns
    lore.close()
    return times


def summary(times: list[float], base: list[float]) -> dict[str, float]:
    added = [t - statistics.median(base) for t in times]
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(percentile(times, 95), 2),
        "added_p50_ms": round(statistics.median(added), 2),
        "added_p95_ms": round(percentile(added, 95), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--reviewer-ms", type=float, default=200.0)
    args = parser.parse_args()
    base = run(args.turns, middleware="none", reviewer_ms=args.reviewer_ms)
    out = {"turns": args.turns, "reviewer_ms": args.reviewer_ms}
    out["no_middleware"] = summary(base, base)
    for mode in ("observe", "review_due"):
        out[mode] = summary(run(args.turns, middleware=mode, reviewer_ms=args.reviewer_ms), base)
        print(f"{mode}: {out[mode]}", flush=True)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
