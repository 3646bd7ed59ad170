"""Talk about credentials that states none (issue 29, blindfix17a).

blind17 withheld six such turns: a count in a list of counts ("4 oder 6 Stellen", "senha de 6
dígitos e não 4"), code reading a setting from the environment (``os.environ['SECRET']``), a
placeholder in Chinese brackets ("<在这里填你的key>"), AWS's documented example key
(``AKIAIOSFODNN7EXAMPLE``) and an issue tracker's key after "ticket" ("ticket JIRA PAY-4821").
``blindfix17a_credential_talk.jsonl`` (first run on main: benign 27/29 withheld or flagged,
sensitive 5/5 caught) and ``…2.jsonl`` (written after the fix: first sight benign 1/29, a count
unit in the singular; sensitive 5/5) hold them in the seven covered languages with twins that
do state a value.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix17a_credential_talk.jsonl", "blindfix17a_credential_talk2.jsonl")
KNOWN: set[str] = set()


test_every_item_of_the_set = value_sets.set_tests(SETS, KNOWN).every_item


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("hat eine Bank-PIN 4 oder 6 Ziffern?", True),
        ("meine PIN hat 4 Ziffern: 4417", False),
        ("in my script I do token = os.getenv('API_TOKEN')", True),
        ("in my script I do token = os.getenv('API_TOKEN', 'Hx9_live_Qp27zzK')", False),
        ("ticket AUTH-3310 is about the password reset email", True),
        ("my password is AUTH-3310x, the ticket can wait", False),
        ("the AWS docs example key AKIAIOSFODNN7EXAMPLE", True),
    ],
)
def test_twins_differ_by_whether_a_value_is_stated(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
    if quotable:
        assert redact(text) == text
