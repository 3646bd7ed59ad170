"""The LLM reviewer with fake chat models: validation, bounded retries, governance, no writes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from sqlalchemy import func, select

from tests.support.chat_models import ScriptedChatModel
from userlore import (
    Explicitness,
    Producer,
    RecordState,
    ReviewerOutputError,
    Userlore,
    WriteAction,
)
from userlore.config import UnderstandingConfig
from userlore.extract.reviewer import LLMReviewer, ReviewerOutput
from userlore.store.schema import (
    KnowledgeSourceItem,
    MemoryEvidence,
    MemoryRecord,
    MemoryRecordVersion,
    MemoryTraceEvent,
)

GH_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
CONVERSATION = [
    ("user", "Hi! I'm Ana and I work on the billing service."),
    ("assistant", "Nice to meet you, Ana."),
    ("user", "Please keep answers terse, I read them on my phone."),
    ("assistant", "Understood."),
]


def cand(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "kind": "style",
        "content": "The user prefers terse answers.",
        "canonical_key": "style/verbosity",
        "value": "terse",
        "confidence": 0.9,
        "sensitivity": "none",
        "evidence": "Please keep answers terse",
    }
    base.update(kw)
    return base


def reply(*candidates: dict[str, Any]) -> AIMessage:
    return AIMessage(content=json.dumps({"candidates": list(candidates)}))


def plain(*replies: AIMessage | str) -> GenericFakeChatModel:
    """A model without tool calling: the reviewer parses its text as JSON."""
    messages: Iterator[AIMessage | str] = iter(replies)
    return GenericFakeChatModel(messages=messages)


def rows(lore: Userlore, model: type[Any]) -> int:
    with lore.store.transaction() as s:
        return int(s.scalar(select(func.count()).select_from(model)) or 0)


def all_text(lore: Userlore) -> str:
    with lore.store.transaction() as s:
        parts = [r.content + (r.value or "") for r in s.scalars(select(MemoryRecord))]
        parts += [v.content for v in s.scalars(select(MemoryRecordVersion))]
        parts += [i.text for i in s.scalars(select(KnowledgeSourceItem))]
        parts += [json.dumps(t.payload) for t in s.scalars(select(MemoryTraceEvent))]
    return "\n".join(parts)


def review_traces(lore: Userlore, scope: str = "u1") -> list[dict[str, Any]]:
    return lore.traces.list(scope, event_type="review")


# -- (a) malformed output ---------------------------------------------------------------------


def test_malformed_json_is_retried_then_recorded_as_failure(lore: Userlore) -> None:
    model = plain("{not json", '{"candidates": [{"kind": "mood"}]}', "still not json")
    result = LLMReviewer(model, max_attempts=3).review(lore, "u1", CONVERSATION)
    assert not result.ok and result.report.status == "invalid_output"
    assert result.report.attempts == 3
    assert rows(lore, MemoryRecord) == 0 and rows(lore, KnowledgeSourceItem) == 0
    [trace] = review_traces(lore)
    assert trace["reason_code"] == "invalid_output" and trace["payload"]["attempts"] == 3
    with pytest.raises(ReviewerOutputError, match="invalid_output"):
        result.raise_for_status()


def test_retry_recovers_and_correction_names_fields_not_user_text(lore: Userlore) -> None:
    model = ScriptedChatModel(replies=["```json\n{oops", reply(cand()).content])
    result = LLMReviewer(model).review(lore, "u1", CONVERSATION)
    assert result.ok and result.report.attempts == 2
    [outcome] = result.outcomes
    assert outcome.action is WriteAction.CREATED
    correction = model.calls[1][-1].text
    assert "did not validate" in correction and "Ana" not in correction


def test_structured_output_path_with_invalid_tool_arguments(lore: Userlore) -> None:
    bad = AIMessage(
        content="",
        invalid_tool_calls=[
            {
                "name": "ReviewerOutput",
                "args": "{broken",
                "id": "c1",
                "error": None,
                "type": "invalid_tool_call",
            }
        ],
    )
    good = AIMessage(
        content="",
        tool_calls=[{"name": "ReviewerOutput", "args": {"candidates": [cand()]}, "id": "c2"}],
    )
    model = ScriptedChatModel(replies=[bad, good])
    result = LLMReviewer(model).review(lore, "u1", CONVERSATION)
    assert result.ok and result.report.attempts == 2
    assert [r.canonical_key for r in lore.records.list("u1")] == ["style/verbosity"]


def test_schema_violations_are_invalid_output(lore: Userlore) -> None:
    too_many = reply(*[cand(canonical_key=f"style/k{i}") for i in range(21)])
    bad_key = reply(cand(canonical_key="Not A Key"))
    extra = AIMessage(content=json.dumps({"candidates": [cand(extra="x")]}))
    for bad in (too_many, bad_key, extra, reply(cand(kind="password"))):
        result = LLMReviewer(plain(bad), max_attempts=1).review(lore, "u1", CONVERSATION)
        assert result.report.status == "invalid_output"
    assert rows(lore, MemoryRecord) == 0


# -- (b) a secret labelled harmless -----------------------------------------------------------


def test_secret_labelled_harmless_is_never_stored(auto_lore: Userlore) -> None:
    conversation = [
        ("user", f"Here is my GitHub token {GH_TOKEN} for the deploy script."),
        ("user", "Please keep answers terse."),
    ]
    secret = cand(
        kind="tooling",
        content=f"The user's GitHub token is {GH_TOKEN}",
        canonical_key="tooling/github_token",
        value=GH_TOKEN,
        sensitivity="none",
        evidence=f"my GitHub token {GH_TOKEN}",
    )
    model = ScriptedChatModel(replies=[reply(secret, cand(evidence="Please keep answers terse"))])
    result = LLMReviewer(model).review(auto_lore, "u1", conversation)
    actions = [(o.action, o.reason) for o in result.outcomes]
    assert actions == [(WriteAction.REFUSED, "secret"), (WriteAction.CREATED, None)]
    assert GH_TOKEN not in all_text(auto_lore)
    assert GH_TOKEN not in auto_lore.plan_context("u1", "github token deploy").text
    # The model itself never saw the token: the transcript is redacted before review.
    assert all(GH_TOKEN not in m.text for m in model.calls[0])


# -- (c) a duplicate of an active record ------------------------------------------------------


def test_duplicate_of_active_record_reinforces(auto_lore: Userlore) -> None:
    observed = auto_lore.observe("u1", "user", "Please always answer in bullet points.")
    [active] = observed.candidates
    assert active.state is RecordState.ACTIVE and active.canonical_key == "style/format"
    dup = cand(
        content="The user wants bullet points.",
        canonical_key="style/format",
        value="bullets",
        evidence="always answer in bullet points",
    )
    conversation = [("user", "Please always answer in bullet points."), ("user", "Thanks!")]
    result = LLMReviewer(plain(reply(dup))).review(auto_lore, "u1", conversation)
    [outcome] = result.outcomes
    assert outcome.action is WriteAction.REINFORCED and outcome.record is not None
    assert outcome.record.id == active.id
    assert [r.id for r in auto_lore.records.list("u1")] == [active.id]
    assert outcome.record.explicitness is Explicitness.EXPLICIT  # inferred never downgrades it
    assert result.counts["reinforced"] == 1


# -- marking, evidence, bounds ----------------------------------------------------------------


def test_candidates_are_inferred_capped_and_linked_to_evidence(lore: Userlore) -> None:
    result = LLMReviewer(plain(reply(cand(confidence=0.99)))).review(
        lore, "u1", CONVERSATION, session_key="s1"
    )
    [outcome] = result.outcomes
    rec = outcome.record
    assert rec is not None and rec.state is RecordState.CANDIDATE
    assert rec.explicitness is Explicitness.INFERRED and rec.producer is Producer.REVIEWER
    assert rec.confidence <= 0.7
    [receipt] = lore.records.evidence("u1", rec.id)
    assert "terse" in receipt["text"]
    [trace] = review_traces(lore)
    assert trace["reason_code"] == "ok" and trace["payload"]["created"] == 1
    assert "terse" not in json.dumps(trace["payload"])


def test_unsupported_evidence_is_dropped(lore: Userlore) -> None:
    invented = cand(
        evidence="I love long essays",
        content="The user loves long essays.",
        canonical_key="style/length",
        value="long",
    )
    from_assistant = cand(evidence="Nice to meet you, Ana", canonical_key="identity/x")
    result = LLMReviewer(plain(reply(invented, from_assistant, cand()))).review(
        lore, "u1", CONVERSATION
    )
    assert result.report.dropped == 2
    assert [r.canonical_key for r in lore.records.list("u1")] == ["style/verbosity"]


def test_propose_writes_nothing(lore: Userlore) -> None:
    report = LLMReviewer(plain(reply(cand()))).propose(CONVERSATION)
    assert report.ok and len(report.candidates) == 1
    assert rows(lore, MemoryRecord) == 0 and rows(lore, MemoryTraceEvent) == 0


def test_history_window_is_bounded(lore: Userlore) -> None:
    model = ScriptedChatModel(replies=[reply()])
    turns = [("user", f"message number {i}") for i in range(30)]
    LLMReviewer(model, config=UnderstandingConfig(max_history_messages=5)).propose(turns)
    transcript = model.calls[0][-1].text
    assert "message number 29" in transcript and "message number 24" not in transcript


def test_max_duration_bounds_the_pass(lore: Userlore) -> None:
    slow = ScriptedChatModel(replies=[reply(cand())], delay_s=0.6)
    reviewer = LLMReviewer(slow, config=UnderstandingConfig(max_duration_ms=150))
    result = reviewer.review(lore, "u1", CONVERSATION)
    assert result.report.status == "timeout" and result.report.elapsed_ms < 550
    assert rows(lore, MemoryRecord) == 0
    assert review_traces(lore)[0]["reason_code"] == "timeout"


def test_provider_errors_are_bounded(lore: Userlore) -> None:
    class Broken(ScriptedChatModel):
        def _generate(self, *args: Any, **kwargs: Any) -> Any:
            self.calls.append([])
            raise ConnectionError("provider down")

    model = Broken()
    result = LLMReviewer(model, max_attempts=2).review(lore, "u1", CONVERSATION)
    assert result.report.status == "model_error" and len(model.calls) == 2
    assert rows(lore, MemoryRecord) == 0


@pytest.mark.parametrize("mode", ["off", "readOnly"])
def test_no_model_call_when_memory_cannot_be_written(make_lore: Any, mode: str) -> None:
    model = ScriptedChatModel(replies=[reply(cand())])
    result = LLMReviewer(model).review(make_lore(mode), "u1", CONVERSATION)
    assert result.report.status == "skipped" and model.calls == []


def test_candidate_rejected_by_govern_rolls_back_the_whole_pass(make_lore: Any) -> None:
    lore = make_lore("auto", maxContentChars=20)
    short = cand(content="Terse answers.", canonical_key="style/a")
    long = cand(content="The user prefers really terse answers.", canonical_key="style/b")
    result = LLMReviewer(plain(reply(short, long))).review(lore, "u1", CONVERSATION)
    assert result.report.status == "invalid_candidate" and result.outcomes == ()
    assert rows(lore, MemoryRecord) == 0 and rows(lore, MemoryEvidence) == 0
    assert review_traces(lore)[0]["reason_code"] == "invalid_candidate"


def test_schema_is_strict_and_provider_friendly() -> None:
    schema = ReviewerOutput.model_json_schema()
    item = schema["$defs"]["ProposedCandidate"]
    assert item["additionalProperties"] is False
    assert set(item["required"]) == set(item["properties"])  # strict modes need every field


async def test_async_twin(lore: Userlore) -> None:
    result = await LLMReviewer(plain(reply(cand()))).areview(lore, "u1", CONVERSATION)
    assert result.ok and len(lore.records.list("u1")) == 1
