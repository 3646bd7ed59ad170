"""Stand-ins a template writes for a secret are no secret (issue 29, blindfix19a).

blind19 redacted ``STRIPE_SECRET_KEY=sk_test_xxx``, the scheme of
``postgres://user:password@localhost/db`` (as a high-entropy token) and
``SECRET_KEY=请在这里填写你的密钥``. A vendor prefix with x's for its body
(``common._is_placeholder``, ``public_material``), a default login pair on the user's machine
with its whole URL (``benign_shapes``) and "fill in … here" words before an owner word
(``data/placeholder_values.yaml``) are stand-ins. ``blindfix19a_placeholders.jsonl`` (first run
on main: benign 8/23 withheld or flagged, secret 8/8) and ``…placeholders2.jsonl`` (written after
the fix: first sight benign 0/21, secret 8/8) hold the class with twins that hold real values.
"""

from __future__ import annotations

import pytest

from tests.support import value_sets
from userlore.policy.quote_gate import quote_verdict
from userlore.policy.sensitivity import redact

SETS = ("blindfix19a_placeholders.jsonl", "blindfix19a_placeholders2.jsonl")
KNOWN: set[str] = set()


test_every_item_of_the_set, test_known_miss = value_sets.set_tests(SETS, KNOWN)


@pytest.mark.parametrize(
    ("text", "quotable"),
    [
        ("the template has STRIPE_SECRET_KEY=sk_test_xxx", True),
        ("my .env has STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc", False),
        ("docs: DATABASE_URL=postgres://user:password@localhost/db", True),
        ("prod: DATABASE_URL=postgres://admin:Gr8kQz71wp@db.internal/app", False),
        ("配置文件里写 SECRET_KEY=请在这里填写你的密钥 就行了吧", True),
        ("配置文件里写 SECRET_KEY=Vb82mQ1zLk7Tr0Pw3Xn9 就行了吧", False),
    ],
)
def test_twins_differ_by_what_the_value_is(text: str, quotable: bool) -> None:
    assert quote_verdict(text).quotable is quotable
    if quotable:
        assert redact(text) == text
