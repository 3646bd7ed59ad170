"""Generated keys are not personal identifiers: a workspace fact's key (``source/<12 hex>/<20
hex>``) must pass the floor's key check, or an ordinary source item is refused as regulated.

Before the fix about 1 key in 2,900 was refused (7 of 20,000 random external ids): one 20-hex
group validated as a Spanish cadastral reference. ``e303`` of source ``bulk`` was one of them,
which is what made the kill -9 drain test wait for an item that could never be ``done``.
"""

from __future__ import annotations

from userlore.policy.govern import key_refusal
from userlore.policy.sensitivity import classify
from userlore.sources.synthesis import fact_key


def test_the_key_refused_before_the_fix_passes() -> None:
    key = fact_key("bulk", "e303")
    assert key == "source/bf8348b4107d/bfab4360071fb80bc4fb"
    assert key_refusal(key) is None


def test_a_hex_group_of_a_separated_run_is_not_an_id_in_prose_either() -> None:
    assert classify("stored under source/bf8348b4107d/bfab4360071fb80bc4fb").findings == ()


def test_fact_keys_of_a_bulk_source_pass() -> None:
    refused = [i for i in range(200, 400) if key_refusal(fact_key("bulk", f"e{i}")) is not None]
    assert refused == []
