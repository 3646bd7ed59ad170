"""Versioned team memory: seed 003's six-state walkthrough from Python.

Two agents share one scope — agent A (Claude Desktop) and agent B (Codex CLI) — and walk a
memory through its lifecycle, each step printing its receipt:

1. A remembers a fact: v1, active, with immutable author metadata.
2. B recalls it from another client and cites ``id@v1``.
3. The owner corrects it through B: v2 goes live, v1 becomes a superseded snapshot with a diff.
4. Recall cites v2 only; the superseded v1 never reaches the model.
5. Forget moves it to the trash (restorable); recall finds nothing.
6. The disposable demo scope is purged to exactly 0 residual rows.

Runs offline on an embedded SQLite file in a temporary directory:

    python cookbook/06_versioned_team_memory.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from userlore import Userlore

SCOPE = "demo:team-sync"
AGENT_A = {"agent_id": "claude-desktop", "client": "Claude Desktop", "device": "MacBook",
           "instance": "04f9b8c2"}  # fmt: skip
AGENT_B = {"agent_id": "codex", "client": "Codex CLI", "device": "Workstation",
           "instance": "e81d7a31"}  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'team.db'}"
        # Two processes in real life (two MCP servers on one file); two handles here.
        with (
            Userlore.open(url, config={"memory": {"mode": "auto"}}) as lore_a,
            Userlore.open(url, config={"memory": {"mode": "auto"}}) as lore_b,
        ):
            walkthrough(lore_a, lore_b)


def walkthrough(lore_a: Userlore, lore_b: Userlore) -> None:
    # STATE 1: created, active, v1.
    v1 = lore_a.remember(
        SCOPE,
        "Weekly sync with the design team is in Room Orion at 10:00.",
        path="projects/memory-os/meetings",
        memory_type="semantic",
        **AGENT_A,
    )
    print(f"1 created   {v1.citation} state={v1.state.value} by {v1.author.client}")

    # STATE 2: another client recalls it, citing v1 and its author.
    cited = lore_b.memory.recall(
        SCOPE, "where is the weekly design sync?", path="projects/memory-os"
    )
    print(f"2 recalled  {list(cited.citations)} written by {cited.memories[0].author.agent_id}")
    assert cited.citations == (f"{v1.id}@v1",)

    # STATE 3: a correction makes v2 live; v1 stays as an immutable superseded snapshot.
    v2 = lore_b.update_memory(
        v1.id,
        "Weekly sync with the design team is in Room Polaris at 11:00.",
        scope=SCOPE,
        **AGENT_B,
    )
    print(f"3 updated   {v2.citation} parent=v{v2.parent_version} diff: {v2.diff}")

    # STATE 4: recall selects v2 only; v1 is excluded as superseded.
    live = lore_a.memory.recall(SCOPE, "weekly design sync room")
    print(f"4 recalled  {list(live.citations)}; excluded {[e['citation'] for e in live.excluded]}")
    assert live.citations == (f"{v1.id}@v2",)
    for version in lore_a.memory.history(SCOPE, v1.id):
        print(f"    history {version.citation} {version.state:<10} by {version.author.agent_id}")

    # STATE 5: tombstone into the trash; restorable, but out of recall at once.
    gone = lore_b.memory.forget(SCOPE, v1.id)
    trash = [r.citation for r in lore_b.memory.trash(SCOPE)]
    after = lore_a.memory.recall(SCOPE, "weekly design sync")
    print(f"5 forgotten state={gone.state.value} restorable={gone.as_dict()['restorable']} "
          f"trash={trash} recall count={len(after.memories)}")  # fmt: skip
    assert after.citations == ()

    # The team can take its memory with it before the reset.
    export = lore_b.scopes.export(SCOPE)
    print(f"  export    format={export['format']} v{export['format_version']} {export['counts']}")

    # STATE 6: purge the disposable scope; the receipt counts what is left (0).
    purged = lore_b.scopes.purge(SCOPE)
    print(f"6 purged    status={purged.status} residual_rows={purged.residual_rows} "
          f"deleted_rows={sum(purged.deleted.values())}")  # fmt: skip
    assert purged.residual_rows == 0


if __name__ == "__main__":
    main()
