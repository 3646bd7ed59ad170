"""Quickstart: observe a few turns, approve what was understood, plan the context of a new turn.

Runs offline on an in-memory SQLite database:

    python cookbook/01_quickstart.py
"""

from __future__ import annotations

from userlore import RecordState, Userlore


def main() -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "confirmWrite"}})
    scope = "acme:ana"

    # Write path: explicit statements in user turns become governed candidates.
    for turn in [
        "Hi, I'm Ana. Please always answer in bullet points.",
        "I use pnpm and never suggest jest to me.",
        "From now on, use my CI token ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8 for deploys.",
    ]:
        result = lore.observe(scope=scope, role="user", content=turn, session_key="s1")
        for outcome in result.outcomes:
            label = outcome.record.canonical_key if outcome.record else outcome.reason
            print(f"{outcome.action.value:>10}: {label}")

    # confirmWrite: nothing is used until a person approves it.
    for record in lore.records.list(scope, state=RecordState.CANDIDATE):
        lore.records.approve(scope, record.id)

    # Read path: a fenced, budgeted block plus a trace of what was selected and why.
    plan = lore.plan_context(scope=scope, query="How should I set up tests for my app?")
    print(plan.text)
    print(f"{plan.chars} characters; trace {plan.trace_id}")
    assert "ghp_" not in plan.text
    lore.close()


if __name__ == "__main__":
    main()
