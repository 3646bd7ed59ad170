"""A statement drawn from a turn keeps the floor's reading of the whole turn (blind14).

The floor reads a value by its cue ("新的是248 613，旧的135 790"); extraction may keep a clause
that holds the value without its cue ("旧的135 790别再用了"). First run on main: 5 of the 8
turns below stored such a clause as a record; the record's own floor check saw no cue.
"""

from __future__ import annotations

import pytest

from userlore import Userlore
from userlore.policy.govern import context_claim, context_values

LEAKS = [
    ("支付宝支付密码刚改了，新的是248 613，旧的135 790别再用了", "135 790"),
    ("银行卡密码换了，新的是 902 771，以后别再用 447 120 了", "447 120"),
    ("The door PIN is 5521 now; always remember that 9034 is the old one.", "9034"),
    ("My password is Kf8!pq29 now, and please never suggest Winter2023 again.", "Winter2023"),
    ("我的身份证号是 110101199003074578，以后别再问我 110101199003074578 了", "110101199003074578"),
]
KEPT = [
    ("My PIN is 5521. Always answer me in Spanish.", "Spanish"),
    ("我的支付密码是248 613。以后请用中文回答我。", "中文"),
    ("Order 44871 shipped; always answer in bullet points.", "bullet"),
]


@pytest.mark.parametrize(("turn", "value"), LEAKS)
def test_a_clause_holding_the_turns_value_is_not_stored(turn: str, value: str) -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        lore.observe(scope="u1", role="user", content=turn)
        assert not [r for r in lore.records.list("u1") if value in r.content]
        plan = lore.plan_context(scope="u1", query=turn)
        assert value not in plan.text
    finally:
        lore.close()


@pytest.mark.parametrize(("turn", "word"), KEPT)
def test_a_clause_without_the_value_is_still_stored(turn: str, word: str) -> None:
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        lore.observe(scope="u1", role="user", content=turn)
        assert [r for r in lore.records.list("u1") if word in r.content]
    finally:
        lore.close()


def test_the_claim_names_the_strictest_value_found() -> None:
    found = context_values(LEAKS[0][0])
    assert context_claim(found, "旧的135 790别再用了") == "secret"
    assert context_claim(found, "以后请用中文") is None
    assert context_claim(context_values("Order 44871 shipped"), "Order 44871") is None


@pytest.mark.parametrize("turn", [KEPT[0][0], KEPT[1][0]])
def test_an_observed_turn_is_read_by_the_floor_once(
    turn: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its evidence item's redaction, its statements' claims and its safety report share one
    reading (each read it again before)."""
    import userlore.policy.govern as govern_module
    import userlore.policy.quote_gate as quote_gate_module
    import userlore.policy.sensitivity as sensitivity_module
    import userlore.understanding.turns as turns_module

    reads: list[str] = []
    real = sensitivity_module.classify

    def counted(text: str, **kwargs: bool) -> sensitivity_module.SensitivityReport:
        if text == turn:
            reads.append(text)
        return real(text, **kwargs)

    for module in (sensitivity_module, govern_module, turns_module, quote_gate_module):
        monkeypatch.setattr(module, "classify", counted, raising=False)
    lore = Userlore.open("sqlite://", config={"memory": {"mode": "auto"}})
    try:
        result = lore.observe(scope="u1", role="user", content=turn)
        assert lore.records.list("u1")  # the turn stated something: its claims were asked
        assert [r.split(":")[0] for r in result.safety.redacted] == ["secret"]
    finally:
        lore.close()
    assert len(reads) == 1
