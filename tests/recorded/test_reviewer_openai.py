"""The LLM reviewer against the real ``langchain-openai`` client, replayed from cassettes.

Replay needs no key and no network: ``record_mode="none"`` and a fake key, so an unmatched
request fails. ``make record-cassettes`` re-records with a real ``OPENAI_API_KEY``; the
hand-written failure scenario is skipped then (a live model does not truncate on request).
"""

from __future__ import annotations

import pytest
from langchain_openai import ChatOpenAI

from tests.recorded.cassettes import capturing_client, openai_key, provider_vcr, recording
from userlore import Explicitness, Producer, RecordState, Userlore, WriteAction
from userlore.extract.reviewer import LLMReviewer

pytestmark = pytest.mark.recorded

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
CONVERSATION = [
    ("user", "Hi, I'm Ana. I look after the billing service."),
    ("assistant", "Hello Ana! What can I help you with today?"),
    ("user", f"ugh, that was way too long to read on my phone. The staging token is {TOKEN}"),
]


def openai_model(sent: list[str] | None = None) -> ChatOpenAI:
    return ChatOpenAI(
        model="gpt-4o-mini",
        api_key=openai_key(),
        base_url="https://api.openai.com/v1",  # ignore OPENAI_BASE_URL: cassettes name this host
        temperature=0,
        max_retries=0,
        http_client=capturing_client(sent if sent is not None else []),
    )


def test_reviewer_with_chat_openai_structured_output(lore: Userlore) -> None:
    sent: list[str] = []
    with provider_vcr().use_cassette("openai_reviewer_candidates.yaml") as cassette:
        result = LLMReviewer(openai_model(sent)).review(lore, "ana", CONVERSATION, session_key="s1")
    assert result.ok, result.report
    # What left the process: the structured-output request, with the token redacted.
    assert len(sent) == 1 and '"json_schema"' in sent[0] and '"strict":true' in sent[0]
    assert TOKEN not in sent[0] and "[REDACTED:github_token]" in sent[0]
    records = lore.records.list("ana")
    assert records and all(
        r.state is RecordState.CANDIDATE
        and r.explicitness is Explicitness.INFERRED
        and r.producer is Producer.REVIEWER
        and TOKEN not in r.content
        for r in records
    )
    if recording():
        return
    assert cassette.play_count == 1
    created = sorted(
        (o.record.kind, o.record.canonical_key)
        for o in result.outcomes
        if o.action is WriteAction.CREATED and o.record is not None
    )
    assert created == [("identity", "identity/name"), ("style", "style/verbosity")]
    assert result.report.dropped == 1  # the candidate quoting words the user never wrote


def test_truncated_output_is_retried(lore: Userlore) -> None:
    if recording():
        pytest.skip("hand-written failure scenario: a live model cannot be made to truncate")
    with provider_vcr().use_cassette("openai_reviewer_truncated_then_valid.yaml") as cassette:
        result = LLMReviewer(openai_model(), max_attempts=2).review(lore, "ana", CONVERSATION)
    assert cassette.play_count == 2
    assert result.ok and result.report.attempts == 2
    assert result.report.errors and result.report.errors[0].startswith("invalid:")
    assert [r.canonical_key for r in lore.records.list("ana")] == ["style/verbosity"]
