"""Feedback and corrections: a wrong memory is paused by ratings, corrected in Chinese, replaced.

The seed 000 remediation lifecycle, end to end, offline on an in-memory SQLite database:

1. the assistant learns something wrong ("我喜欢简短的回答": the user prefers terse answers);
2. one "not helpful" rating changes nothing; a second one, on another response, pauses it
   (``needs_review``, confidence - 0.2, out of context at once);
3. the user corrects it in Chinese before the next turn is planned; the correction proposes a
   replacement candidate linked to the old record by ``supersedes_record_id``;
4. a reviewer approves the replacement; the old record is archived and its validity closed.

    python cookbook/05_feedback_and_corrections.py
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from userlore import RecordState, Userlore


class Clock:
    """A clock the recipe moves by hand, so the timeline is easy to follow."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


def answer(lore: Userlore, clock: Clock, scope: str, session: str, question: str) -> datetime:
    """Plan one turn's context (the model would answer with it); return the response time."""
    clock.advance(60)
    plan = lore.plan_context(scope, question, session_key=session)
    shown = ", ".join(plan.selected_ids) or "nothing"
    print(f"  turn {question!r}: context selected {shown}")
    return clock.advance(5)


def main() -> None:
    clock = Clock()
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "confirmWrite"}}, clock=clock)
    scope, session = "acme:li", "chat-7"

    # 1. A wrong memory: approved once, it is now injected into every turn.
    [wrong] = lore.observe(scope, "user", "我喜欢简短的回答", session_key=session).candidates
    wrong = lore.records.approve(scope, wrong.id)
    print(f"1. learned {wrong.canonical_key}={wrong.value} ({wrong.state.value})")

    # 2. Two negative ratings on two responses.
    at = answer(lore, clock, scope, session, "解释一下 Python 装饰器")
    first = lore.feedback.set_response_feedback(scope, session, at, "not_helpful")
    print(
        f"2. first 'not helpful': paused={len(first.remediation.paused)}, "
        f"record is {lore.records.get(scope, wrong.id).state.value}"
    )
    at = answer(lore, clock, scope, session, "再解释一下生成器")
    second = lore.feedback.set_response_feedback(scope, session, at, "not_helpful")
    paused = lore.records.get(scope, wrong.id)
    assert second.queued_for_review and paused.state is RecordState.NEEDS_REVIEW
    print(
        f"   second 'not helpful': paused and queued for review -> {paused.state.value}, "
        f"confidence {wrong.confidence} -> {paused.confidence}"
    )
    # The same rating sent again (a UI retry) changes nothing.
    assert not lore.feedback.set_response_feedback(scope, session, at, "not_helpful").changed

    # 3. A concrete correction in Chinese, handled before the correction turn is planned.
    text = "你记错了我的偏好，我更喜欢详细解释"
    correction = lore.feedback.handle_correction(scope, text, session, turn_id="msg-3")
    [replacement] = correction.replacements
    print(
        f"3. correction ({correction.form}): replacement {replacement.canonical_key}="
        f"{replacement.value} is a {replacement.state.value} superseding "
        f"{replacement.supersedes_record_id}"
    )
    assert replacement.supersedes_record_id == wrong.id
    lore.observe(scope, "user", text, session_key=session, turn_id="msg-3")  # reinforces it
    answer(lore, clock, scope, session, text)
    assert (
        lore.records.get(scope, wrong.id).state is RecordState.NEEDS_REVIEW
    )  # waits for the approval
    traces = lore.traces.list(scope, limit=1000)
    assert all("详细" not in str(t) for t in traces)  # traces hold codes and ids, never text
    print(
        f"   trace reason codes: {sorted({t['reason_code'] for t in traces if t['reason_code']})}"
    )

    # 4. A reviewer approves the replacement: the old record is archived, validity closed.
    clock.advance(3600)
    active = lore.records.approve(scope, replacement.id)
    old = lore.records.get(scope, wrong.id)
    assert active.state is RecordState.ACTIVE and old.state is RecordState.ARCHIVED
    assert old.valid_until == clock.now
    print(
        f"4. approved {active.value!r}; old record {old.state.value}, valid until "
        f"{old.valid_until:%Y-%m-%d %H:%M}"
    )
    answer(lore, clock, scope, session, "解释一下上下文管理器")

    report = lore.feedback.quality(scope)
    print(
        f"quality: acceptance {report.acceptance_rate}, helpfulness "
        f"{report.recall_helpfulness}, cadence every {report.cadence.interval} turns "
        f"({report.cadence.reason}), paused {report.remediation['paused']}"
    )
    lore.close()


if __name__ == "__main__":
    main()
