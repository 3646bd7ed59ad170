"""Vendor token formats from a maintained rule set: detect-secrets' regex plugins.

``tokens`` holds the formats this project wrote down; detect-secrets (Yelp) maintains the
formats of AWS, GitHub, GitLab, Slack, Stripe, Twilio, SendGrid, npm, PyPI, OpenAI, Discord,
Telegram, Azure storage, JWTs and more, and each new release adds vendors. Its regex-based
plugins are loaded once (nothing is downloaded) and their deny-lists run on the folded text; a
match is a secret. Plugins that are not about credentials in a user's words are left out by
class: public IP addresses, and the URL and private-key plugins this floor already covers with
its own span rules (``_url_credentials``, ``_private_key_blocks``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

from userlore.policy.built_tables import built_table
from userlore.policy.detectors.common import _Hit, _is_placeholder, _overlaps
from userlore.policy.findings import _SECRET

_SKIPPED = frozenset({"IPPublicDetector", "BasicAuthDetector", "PrivateKeyDetector"})


@functools.cache
def _rules() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(rule, pattern) of every usable regex plugin, compiled from the stored sources."""
    return tuple((rule, re.compile(source, int(flags))) for rule, source, flags in _sources())


@built_table("vendor_rules.sources")
def _sources() -> tuple[tuple[str, str, str], ...]:
    """(rule, pattern source, flags) of every usable regex plugin: stored, since importing
    detect-secrets' plugins costs a new process ~0.2 s of CPU."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    out: list[tuple[str, str, str]] = []
    plugins: dict[str, Any] = dict(get_mapping_from_secret_type_to_class())
    for secret_type, cls in plugins.items():
        if not issubclass(cls, RegexBasedDetector) or cls.__name__ in _SKIPPED:
            continue
        try:
            patterns = list(cls().denylist)
        except Exception:  # a plugin that needs configuration to build: not usable here
            continue
        rule = re.sub(r"\W+", "_", secret_type.lower()).strip("_")
        out.extend((rule, p.pattern, str(p.flags)) for p in patterns)
    return tuple(out)


def maintained_vendor_tokens(t: str, taken: list[tuple[int, int]]) -> Iterator[_Hit]:
    """Secrets in ``t`` that a detect-secrets regex plugin recognises, outside ``taken`` (the
    spans the floor's own rules already reported)."""
    for rule, pattern in _rules():
        for m in pattern.finditer(t):
            start, end = m.span()
            if m.lastindex:
                groups = [m.span(i) for i in range(1, m.lastindex + 1) if m.group(i)]
                if groups:
                    start, end = max(groups, key=lambda s: s[1] - s[0])
            if end - start < 8 or _is_placeholder(t[start:end]) or _overlaps(start, end, taken):
                continue
            yield (_SECRET, f"vendor_{rule}", start, end, None)
