"""Self-learning profile: facets learned from turns, a signature and habits, kept in PROFILE.md.

Runs offline on an in-memory SQLite database, with a clock we move by hand to show decay:

    python cookbook/07_learned_profile.py
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

from userlore import Userlore
from userlore.learning.producers import TurnHeuristics, signature_candidates

EMAIL = """From: Ana Lima <ana@acme.example>

Numbers attached.

Best,
Ana Lima
Product Manager, Acme
"""


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def main() -> None:
    clock = Clock()
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}}, clock=clock)
    scope = "acme:ana"
    workspace = Path(tempfile.mkdtemp())
    profile = workspace / "PROFILE.md"
    lore.facets.cache.set_workspace(lambda s: profile)
    lore.facets.cache.subscribe(
        lambda e: print(f"rebuilt: +{e.added} -{e.evicted} total={e.total_size}")
    )

    # (a) explicit statements are Explicit evidence
    lore.observe(scope, "user", "I use pnpm and I'm based in Lisbon.")
    # (b) two signed emails are Structural evidence
    lore.facets.cache.submit(signature_candidates(scope, EMAIL, own_addresses=["ana@acme.example"]))
    lore.facets.cache.submit(
        signature_candidates(
            scope, EMAIL.replace("Numbers", "Slides"), own_addresses=["ana@acme.example"]
        )
    )
    # (c) asking twice for shorter answers is a habit
    habits = TurnHeuristics(sink=lore.facets.cache.submit, clock=clock)
    for text in ("Too long, shorter please.", "Still too long, be concise."):
        item = lore.observe(scope, "user", text)
        habits.observe(scope, "user", text, source_item_id=item.source_item_id)

    # the user's own notes survive every rebuild
    profile.write_text(profile.read_text() + "\nMy notes: prefers calls after 10am.\n")
    for facet in lore.facets.list(scope):
        print(f"{facet.canonical_key} = {facet.value} [{facet.state.value}, {facet.stability:.2f}]")

    lore.facets.pin(scope, "tooling", "package_manager")
    lore.facets.forget(scope, "identity", "location")
    clock.now += timedelta(days=30)  # style evidence halves every 14 days
    lore.facets.rebuild(scope)
    print(profile.read_text())
    print(lore.facets.stats(scope)["by_class"]["style"])
    for entry in lore.facets.about(scope):
        print(entry["canonical_key"], "<-", [e["text"][:30] for e in entry["evidence"]])
    assert "My notes: prefers calls after 10am." in profile.read_text()
    lore.close()


if __name__ == "__main__":
    main()
