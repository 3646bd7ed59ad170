"""The quality loop on every backend: attribution, remediation, correction, quality, cadence."""

from __future__ import annotations

import json
from collections.abc import Callable

from tests.conftest import FakeClock
from userlore import RecordState, Userlore
from userlore.feedback import decide_interval

SCOPE, SESSION = "u1", "chat-1"


def test_lifecycle_end_to_end(make_lore: Callable[..., Userlore], clock: FakeClock) -> None:
    lore = make_lore("confirmWrite")
    [old] = lore.observe(SCOPE, "user", "我喜欢简短的回答", session_key=SESSION).candidates
    lore.records.approve(SCOPE, old.id)
    results = []
    for question in ("解释一下装饰器", "解释一下生成器"):
        clock.advance(minutes=1)
        lore.plan_context(SCOPE, question, session_key=SESSION)
        at = clock.advance(seconds=5)
        results.append(lore.feedback.set_response_feedback(SCOPE, SESSION, at, "not_helpful"))
    assert results[0].remediation.paused == () and results[1].queued_for_review
    assert not lore.feedback.set_response_feedback(SCOPE, SESSION, at, "not_helpful").changed
    paused = lore.records.get(SCOPE, old.id)
    assert paused.state is RecordState.NEEDS_REVIEW and paused.review_after == clock.now

    fix = lore.feedback.handle_correction(
        SCOPE, "你记错了我的偏好，我更喜欢详细解释", SESSION, turn_id="m3"
    )
    [new] = fix.replacements
    assert new.supersedes_record_id == old.id and new.state is RecordState.CANDIDATE
    assert lore.feedback.handle_correction(
        SCOPE, "你记错了我的偏好，我更喜欢详细解释", SESSION, turn_id="m3"
    ).replayed
    assert not lore.feedback.handle_correction(SCOPE, "this code doesn't compile", SESSION).detected

    approved_at = clock.advance(minutes=1)
    lore.records.approve(SCOPE, new.id)
    archived = lore.records.get(SCOPE, old.id)
    assert archived.state is RecordState.ARCHIVED and archived.valid_until == approved_at

    dump = json.dumps(lore.traces.list(SCOPE, limit=1000), default=str, ensure_ascii=False)
    assert "记错" not in dump and "详细解释" not in dump
    report = lore.feedback.quality(SCOPE)
    assert report.helpfulness.not_helpful == 2 and report.remediation["paused"] == 1
    assert report.funnel.by_producer["explicit"]["approved"] == 2
    assert decide_interval(lore.store, SCOPE).interval == 10
