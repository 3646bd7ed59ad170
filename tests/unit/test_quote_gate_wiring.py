"""The quote gate at every verbatim placement: plan snippets and recall episodes.

A withheld snippet leaves a reason code and a category in the trace (never its text), and its
place goes to the next candidate; consent and the app's language opt-in are honoured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from userlore import CandidateInput, Pipeline, Producer, Userlore
from userlore.models import TurnSafety
from userlore.work.jobs import observe_job, run_job

KOREAN = "샐러드 주문은 내일 해요 salad"
FASTING = "salad: fasting for Ramadan this month"
BENIGN = "The salad place on Main Street opens at noon"


def episodic_trace(lore: Userlore, scope: str, event: str = "plan") -> dict[str, Any]:
    payload: dict[str, Any] = lore.traces.list(scope, event_type=event, limit=1)[0]["payload"]
    return payload


def test_a_withheld_snippet_is_traced_by_reason_and_category_and_the_next_takes_its_place(
    auto_lore: Userlore,
) -> None:
    fasting = auto_lore.observe("u1", "user", FASTING)
    benign = auto_lore.observe("u1", "user", BENIGN)
    plan = auto_lore.plan_context("u1", "salad")
    assert [s.item_id for s in plan.snippets] == [benign.source_item_id]
    assert "Ramadan" not in plan.text and BENIGN in plan.text
    rejected = episodic_trace(auto_lore, "u1")["episodic"]["rejected"]
    withheld = {"id": fasting.source_item_id, "reason": "quote_special", "category": "religion"}
    assert withheld in rejected
    assert "Ramadan" not in str(rejected)


def test_an_uncovered_language_is_withheld_unless_the_app_opts_in(
    auto_lore: Userlore, make_lore: Callable[..., Userlore]
) -> None:
    said = auto_lore.observe("u1", "user", KOREAN)
    plan = auto_lore.plan_context("u1", "salad")
    assert plan.snippets == ()
    rejected = episodic_trace(auto_lore, "u1")["episodic"]["rejected"]
    assert rejected == [{"id": said.source_item_id, "reason": "quote_language", "category": "ko"}]
    opted = make_lore("auto", planner={"quote_uncovered_languages": True})
    said = opted.observe("u1", "user", KOREAN)
    assert [s.item_id for s in opted.plan_context("u1", "salad").snippets] == [said.source_item_id]


def test_consent_for_the_category_lets_its_snippets_in(auto_lore: Userlore) -> None:
    said = auto_lore.observe("u1", "user", FASTING)
    assert auto_lore.plan_context("u1", "salad").snippets == ()
    auto_lore.consent.grant("u1", "religion")
    assert [s.item_id for s in auto_lore.plan_context("u1", "salad").snippets] == [
        said.source_item_id
    ]


def test_recall_episodes_pass_the_gate_and_report_what_was_withheld(
    auto_lore: Userlore,
) -> None:
    korean = auto_lore.observe("u1", "user", KOREAN)
    benign = auto_lore.observe("u1", "user", BENIGN)
    got = auto_lore.memory.recall("u1", "salad", episodes=3)
    assert [e.item_id for e in got.episodes] == [benign.source_item_id]
    trace = episodic_trace(auto_lore, "u1", "recall")
    assert trace["episodes_withheld"] == [
        {"id": korean.source_item_id, "reason": "quote_language", "category": "ko"}
    ]


def test_records_quoting_source_text_pass_the_gate(make_lore: Callable[..., Userlore]) -> None:
    lore = make_lore("auto", memory={"mode": "auto", "sources": ["session", "connected"]})

    def fact(content: str, key: str) -> str:
        outcome = lore.write(
            "u1",
            CandidateInput(
                kind="workspace_fact",
                content=content,
                canonical_key=key,
                producer=Producer.SOURCE,
                pipeline=Pipeline.CONNECTED_KNOWLEDGE,
            ),
        )
        assert outcome.record is not None
        return outcome.record.id

    korean = fact("배포 일정 deploy: 금요일 오후", "source/wiki/ko")
    english = fact("deploy: Friday afternoon, after the freeze", "source/wiki/en")
    plan = lore.plan_context("u1", "deploy")
    assert [s.id for s in plan.selected] == [english]
    reasons = {
        r["id"]: r
        for r in lore.traces.list("u1", event_type="plan", limit=1)[0]["payload"]["rejected"]
    }
    assert reasons[korean] == {"id": korean, "reason": "quote_language", "category": "ko"}


def test_observe_reports_redactions_refusals_and_languages_by_category(
    auto_lore: Userlore,
) -> None:
    token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b"
    pasted = auto_lore.observe("u1", "user", f"salad app deploy token is {token}")
    assert "secret:github_token" in pasted.safety.redacted
    assert token not in repr(pasted.safety)
    korean = auto_lore.observe("u1", "user", KOREAN)
    assert korean.safety.withheld_languages == ("ko",)
    assert (korean.safety.quote, korean.safety.quote_category) == ("quote_language", "ko")
    fasting = auto_lore.observe("u1", "user", FASTING)
    assert (fasting.safety.quote, fasting.safety.quote_category) == ("quote_special", "religion")
    assert auto_lore.observe("u1", "user", BENIGN).safety == TurnSafety()


def test_a_turn_whose_statement_was_refused_is_never_quoted(auto_lore: Userlore) -> None:
    said = auto_lore.observe("u1", "user", "I prefer the password hunter2 for salad test accounts")
    assert said.safety.refused == ("secret",)
    plan = auto_lore.plan_context("u1", "salad test accounts")
    assert plan.snippets == ()
    rejected = episodic_trace(auto_lore, "u1")["episodic"]["rejected"]
    assert rejected == [{"id": said.source_item_id, "reason": "secret"}]


def test_the_middlewares_observe_job_traces_the_report_never_the_value(
    auto_lore: Userlore,
) -> None:
    token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5b"
    run_job(
        auto_lore,
        observe_job("u1", f"deploy token is {token}", turn_id="m1", session_key="s", agent_id=None),
        None,
    )
    (event,) = auto_lore.traces.list("u1", event_type="observe")
    assert event["reason_code"] == "safety"
    assert "secret:github_token" in event["payload"]["redacted"]
    assert token not in str(event)
    run_job(
        auto_lore, observe_job("u1", BENIGN, turn_id="m2", session_key="s", agent_id=None), None
    )
    assert len(auto_lore.traces.list("u1", event_type="observe")) == 1  # nothing to report
