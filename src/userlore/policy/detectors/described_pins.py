"""A PIN or passcode described rather than named: "the code to unlock my iPad? It's 6652",
"use 7749 as the passcode", "5820 is my PIN" (the floor's password rules)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from userlore.policy.detectors.common import _Hit
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

_DEVICE = (
    r"(?:unlock|open|atm|cash\s+machine|card|phone|iphone|ipad|tablet|laptop|door|safe|alarm"
    r"|garage|gate|locker|keypad|screen|sim|bike\s+lock|padlock)"
)
_PIN_DESCRIBED = re.compile(  # lowercased text
    r"\b(?:code|digits|numbers?|combo|combination|passcode|pin)\s+(?:to|for|that|which|i|we|you"
    r"|on|of)\s+[^.!?\n]{0,40}?\b" + _DEVICE + r"\b[^.!\n\d]{0,24}?(?:is|are|it'?s|:|=|was)\s*"
    r"(?P<v>\d{4,8})(?!\d)"
    r"|\b(?:use|enter|type|punch\s+in|key\s+in|tap\s+in)\s+(?P<v2>\d{4,8})\s+(?:as|for|into)\s+"
    r"(?:the|my|your|our)\s+(?:[a-z']+\s+){0,2}(?:pin|passcode|pass\s+code|unlock\s+code"
    r"|password|combination|door\s+code|code)\b"
    r"|\b" + _DEVICE + r"\s+(?:opens|unlocks|unlock|open|disarms|is\s+unlocked)\s+with\s+"
    r"(?:the\s+)?(?:code\s+|pin\s+|passcode\s+)?(?P<v4>\d{4,8})(?!\d)"
    r"|(?<![\d.,$€£])(?P<v3>\d{4,8})\s+is\s+(?:my|our|the)\s+(?:[a-z']+\s+){0,2}(?:pin|passcode"
    r"|unlock\s+code|door\s+code|alarm\s+code|password)\b"
)


_PIN_DESCRIBED_GATE = GatedPattern(re.compile(r"code|digit|number|combo|pin|unlock|opens|disarm"))


def _described_pins(lowered: str) -> Iterator[_Hit]:
    if not _PIN_DESCRIBED_GATE.search(lowered):
        return
    for m in _PIN_DESCRIBED.finditer(lowered):
        group = next(g for g in ("v", "v2", "v3", "v4") if m.group(g) is not None)
        yield (_SECRET, "pin_code", m.start(group), m.end(group), None)
