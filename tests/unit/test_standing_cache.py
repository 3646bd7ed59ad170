"""The always-eligible profile is cached by record generation, and the filter stays exact.

Each test checks both that the cache is used (fewer loads) and that what it holds never lets a
record through that the policy filter would keep out now (issue 23 item 5).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from userlore import CandidateInput, Userlore
from userlore.models import WriteOutcome
from userlore.store.standing import loads

SCOPE = "u1"


@pytest.fixture
def lore() -> Iterator[Userlore]:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    yield lore
    lore.close()


def _id(outcome: WriteOutcome) -> str:
    assert outcome.record is not None, outcome.reason
    return outcome.record.id


def _loads(lore: Userlore) -> int:
    with lore.store.connection() as conn:
        return loads(conn)


def _style(lore: Userlore, value: str) -> str:
    return _id(
        lore.write(
            SCOPE,
            CandidateInput(
                kind="style", canonical_key="style/format", value=value, content=f"Answer {value}"
            ),
        )
    )


def test_unchanged_scope_is_served_from_the_cache(lore: Userlore) -> None:
    first = _style(lore, "in bullet points")
    before = _loads(lore)
    plan = lore.plan_context(SCOPE, "weekend plans")
    assert first in plan.selected_ids
    assert _loads(lore) == before + 1
    lore.plan_context(SCOPE, "something else entirely")
    assert _loads(lore) == before + 1  # nothing changed: no statement for the profile
    # A note written between two reads (what an agent does) cannot change the profile.
    lore.write(SCOPE, CandidateInput(kind="note", content="lunch with Sam on Friday"))
    assert first in lore.plan_context(SCOPE, "lunch").selected_ids
    assert _loads(lore) == before + 1


def test_a_write_invalidates_and_a_superseded_record_never_shows(lore: Userlore) -> None:
    first = _style(lore, "in bullet points")
    assert first in lore.plan_context(SCOPE, "weekend plans").selected_ids
    before = _loads(lore)
    second = _style(lore, "in one short paragraph")
    plan = lore.plan_context(SCOPE, "weekend plans")
    assert _loads(lore) == before + 1
    assert second in plan.selected_ids
    assert first not in plan.selected_ids


def test_a_forgotten_record_never_shows(lore: Userlore) -> None:
    first = _style(lore, "in bullet points")
    assert first in lore.plan_context(SCOPE, "weekend plans").selected_ids
    lore.forget(first, scope=SCOPE)
    assert first not in lore.plan_context(SCOPE, "weekend plans").selected_ids


def test_withdrawn_consent_applies_on_a_cached_profile(lore: Userlore) -> None:
    lore.grant_consent(SCOPE, "health")
    health = _id(
        lore.write(
            SCOPE,
            CandidateInput(
                kind="identity",
                canonical_key="identity/condition",
                value="type 2 diabetes",
                content="I have type 2 diabetes",
            ),
        )
    )
    assert health in lore.plan_context(SCOPE, "weekend plans").selected_ids
    before = _loads(lore)
    lore.revoke_consent(SCOPE, "health")
    plan = lore.plan_context(SCOPE, "weekend plans")
    assert _loads(lore) == before  # no record changed: the rows came from the cache
    assert health not in plan.selected_ids
