"""Vendor token formats from detect-secrets' maintained regex plugins."""

from __future__ import annotations

from userlore.policy.detectors.vendor_rules import _rules, maintained_vendor_tokens
from userlore.policy.sensitivity import classify, redact

ARTIFACTORY = "AKCp8AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz012345"


def test_the_plugins_load_without_the_ones_that_are_not_credentials() -> None:
    rules = {rule for rule, _ in _rules()}
    assert {"sendgrid_api_key", "stripe_access_key", "artifactory_credentials"} <= rules
    assert not {"public_ip_ipv4", "basic_auth_credentials", "private_key"} & rules


def test_a_format_only_the_maintained_set_knows_is_redacted() -> None:
    text = f"artifactory {ARTIFACTORY} for the build"
    assert {f.rule for f in classify(text).findings} == {"vendor_artifactory_credentials"}
    assert ARTIFACTORY not in redact(text)


def test_spans_the_own_rules_took_are_not_reported_twice() -> None:
    text = "id AKIA0189ABCDEFGH0189 here"
    assert list(maintained_vendor_tokens(text, [(3, 23)])) == []
    assert {f.rule for f in classify(text).findings} == {"aws_access_key"}


def test_a_public_ip_address_is_no_secret() -> None:
    assert not classify("the server moved to 93.184.216.34 yesterday").is_blocked
