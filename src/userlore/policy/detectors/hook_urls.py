"""Webhook URLs whose path is the secret: Slack, Discord, Feishu/Lark, DingTalk, WeCom, Teams,
Zapier, IFTTT, Mattermost, Rocket.Chat, Home Assistant and any self-hosted hook (issue 29).

Whoever holds a hook URL can post as the bot; the token is a path segment, not a query
parameter (``url_query_secret`` reads those), and only Slack's and Discord's shapes had a vendor
rule. The class is read by shape, not by vendor: a URL with a hook segment in its path
(``hook``, ``hooks``, ``webhook``, ``webhookb2``, ``robot``, ``bot``, ``trigger`` … ``key``,
``catch``) followed by a segment that is a token (letters and digits mixed, or a UUID). The docs'
stand-ins (``xxxxxxxx``, ``T00000000``, ``<TOKEN>``, ``{webhook.token}``, ``***``) and pages
about hooks (``/webhooks/creating-webhooks``, ``/settings/hooks/428193057``: words, or digits
alone) are no value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit, _is_placeholder
from userlore.policy.findings import _SECRET

__all__ = ["hook_urls"]

RULE: Final = "webhook_url"

_URL = re.compile(r"(?i)https?://([^\s/?#\"'<>]{1,100})(/[^\s?#\"'<>]{1,400})")
_HOOK_HOST = re.compile(r"(?i)(?:web)?hooks?\.")
# A path segment that names a hook (the rest of the path is its address).
_HOOK_SEGMENT = re.compile(
    r"(?i)/(?:web)?hooks?(?:b2)?/|/robot/|/bot/|/catch/|/with/key/|/incomingwebhook/"
)
# Literals one of which every hook URL holds: a text with none is not read.
_GATE: Final = ("hook", "/bot", "/robot", "/key/", "/catch/")
_SEGMENT = re.compile(r"[^/]+")
_TOKEN_MIN: Final = 6
_TOKEN = re.compile(r"[A-Za-z0-9_\-@.]+")


def hook_urls(t: str, lowered: str) -> Iterator[_Hit]:
    """Secret hits for the token part of every hook URL in ``t`` (see the module docstring)."""
    if "://" not in t or not any(w in lowered for w in _GATE):
        return
    for m in _URL.finditer(t):
        if _HOOK_HOST.match(m.group(1)):
            after = m.start(2)  # "hooks.slack.com/services/…": the whole path is the hook's
        else:
            hook = _HOOK_SEGMENT.search(t, m.start(2), m.end())
            if hook is None:
                continue
            after = hook.end() - 1
        start = None
        for seg in _SEGMENT.finditer(t, after, m.end()):
            if _is_token(seg.group(0)):
                start = seg.start()
                break
        if start is not None:
            yield (_SECRET, RULE, start, m.end(), None)


def _is_token(segment: str) -> bool:
    """Letters and digits mixed (a UUID, a hex or base-62 token), not a word, a number alone
    or a stand-in."""
    if len(segment) < _TOKEN_MIN or _TOKEN.fullmatch(segment) is None:
        return False
    if not any(c.isdigit() for c in segment) or not any(c.isalpha() for c in segment):
        return False
    return not any(_is_placeholder(part) for part in re.split(r"[-@]", segment) if part)
