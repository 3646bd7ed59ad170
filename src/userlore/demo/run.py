"""The main job: replay a shipped multi-session conversation through the governed runtime.

It walks the whole story on the embedded SQLite default: explicit statements become candidates,
the user approves them (``confirmWrite``), a pasted API key is refused and redacted, a health
detail is stored but held back until consent, and a new question gets a fenced context block
with its trace.
"""

from __future__ import annotations

import json
import sys
from importlib.resources import files
from pathlib import Path
from typing import Any, TextIO

from sqlalchemy import select

from userlore.facade import Userlore
from userlore.models import RecordState, WriteAction, WriteOutcome
from userlore.store.schema import KnowledgeSourceItem

__all__ = ["load_script", "run_demo"]


def load_script() -> dict[str, Any]:
    """The shipped synthetic conversation."""
    data: dict[str, Any] = json.loads(
        files("userlore.demo").joinpath("conversation.json").read_text(encoding="utf-8")
    )
    return data


def _describe(outcome: WriteOutcome) -> str:
    rec = outcome.record
    if outcome.action is WriteAction.REFUSED:
        return f"REFUSED ({outcome.reason}): nothing stored, the evidence turn is kept redacted"
    if outcome.action is WriteAction.SKIPPED or rec is None:
        return f"skipped ({outcome.reason})"
    key = rec.canonical_key or rec.kind
    value = f" = {rec.value}" if rec.value else ""
    gated = (
        f", {rec.sensitivity_category}: ask before reference"
        if rec.disclosure.value == "ask_before_reference"
        else ""
    )
    return (
        f"{outcome.action.value:<11} {key}{value}  "
        f"[{rec.state.value}, {rec.explicitness.value}, confidence {rec.confidence:.2f}{gated}]"
    )


def run_demo(db_path: Path, out: TextIO = sys.stdout) -> Userlore:
    """Run the walkthrough against a fresh SQLite file at ``db_path``; return the open store."""
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    script = load_script()
    scope = script["scope"]
    lore = Userlore.open(f"sqlite:///{db_path}", config={"memory": {"mode": "confirmWrite"}})

    def say(text: str = "") -> None:
        print(text, file=out)

    say(f"userlore demo: {script['about']}")
    say(f"database: {db_path} (SQLite, WAL)   memory mode: confirmWrite   scope: {scope}")
    for session in script["sessions"]:
        say()
        say(f"== session {session['session_key']} ==")
        for turn in session["turns"]:
            say(f"  {turn['role']:>9}: {turn['content']}")
            result = lore.observe(
                scope=scope,
                role=turn["role"],
                content=turn["content"],
                session_key=session["session_key"],
            )
            for outcome in result.outcomes:
                say(f"             -> {_describe(outcome)}")

    say()
    say("== review inbox (confirmWrite: nothing is used until approved) ==")
    for rec in lore.records.list(scope, state=RecordState.CANDIDATE):
        approved = lore.records.approve(scope, rec.id)
        receipt = lore.records.evidence(scope, rec.id)[0]
        say(
            f"  approved {approved.id} {approved.canonical_key or approved.kind}"
            f"  <- receipt {receipt['source_item_id']}: {receipt['text'][:60]!r}"
        )

    say()
    say("== what was stored for the turn with the API key ==")
    leaked = [r for r in lore.records.list(scope) if "sk-proj" in r.content]
    say(f"  records containing the key: {len(leaked)}")
    refusals = lore.traces.list(scope, event_type="governance")
    say(f"  governance refusals traced: {[t['reason_code'] for t in refusals]}")
    with lore.sources.store.transaction() as session:
        items = list(
            session.scalars(
                select(KnowledgeSourceItem.text).where(KnowledgeSourceItem.scope == scope)
            )
        )
    say(f"  evidence texts containing the key: {sum('sk-proj' in text for text in items)}")
    stored_turn = next(text for text in items if "staging key" in text)
    say(f"  the turn as stored: {stored_turn!r}")

    question = script["question"]
    say()
    say(f"== new question ({question['session_key']}) ==")
    say(f"  user: {question['content']}")
    plan = lore.plan_context(
        scope=scope, query=question["content"], session_key=question["session_key"]
    )
    say()
    say(plan.text)
    say()
    say(f"== trace {plan.trace_id}: {plan.chars} of {plan.budget} characters ==")
    for sel in plan.selected:
        rec = lore.records.get(scope, sel.id)
        say(f"  selected {sel.id}@v{sel.version} [{sel.section}] {rec.canonical_key or rec.kind}")
    for rej in plan.rejected:
        rec = lore.records.get(scope, rej.id)
        say(f"  rejected {rej.id} ({rej.reason}) {rec.canonical_key or rec.kind}")
    return lore
