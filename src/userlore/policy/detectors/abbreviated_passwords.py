"""A password after a short or borrowed word for it (issue 29, values5): "pw:", "pwd", "mdp",
"la contra", "PW vom Laptop ist", "creds", "identifiants", "邮箱密", "口令", "暗証", "パスは".

Short words are also units, brands and everyday words ("pass the salt", "120 PW", "バスのパス"),
so the value must follow closely and read as a password: letters with digits, or with symbols
and a case change (a price or a count never does).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from userlore.policy.detectors.common import _Hit
from userlore.policy.detectors.nearby_passwords import _EXAMPLE_BEFORE, _NEAR_WINDOW
from userlore.policy.detectors.password_values import _near_password_token
from userlore.policy.findings import _SECRET
from userlore.policy.literal_gate import GatedPattern

_ABBREV_LATIN = re.compile(  # lowercased text
    r"(?<![a-z0-9])(?:pw|pwd|pwds|pass|mdp|contra|clave|kennwort|senha|creds|identifiants"
    r"|zugangsdaten|login)(?![a-z])"
)
# CJK: the word then a value within a separator or two; 密 alone only straight before one
# ("邮箱密 Tiger#2288", "wifi密是 …"), so 秘密, 加密 or 密度 never reach the token test.
_ABBREV_CJK = re.compile(
    r"(?:密|口令|暗証|(?<![ァ-ヺー])パス(?![ァ-ヺー]))(?:\s*(?:是|为|為|は|も|:|：|=)\s*|\s+)"
)
_ABBREV_GATE = GatedPattern(
    re.compile(
        r"pw|pass|mdp|contra|clave|kennwort|senha|creds|identifiants"
        r"|zugangsdaten|login|密|口令|暗証|パス"
    )
)
_ABBREV_WINDOW: Final = 40
_ABBREV_DIGITS = re.compile(r"\d(?:[ \-]?\d){3,11}(?!\d)")
# As ``nearby_passwords._PW_TOKEN``, but a colon may stand before it ("パス：kumo#7788sora",
# folded to ":").
_ABBREV_TOKEN = re.compile(
    r"(?<![A-Za-z0-9_@./%=\-])[A-Za-z0-9][A-Za-z0-9!@#$%^&*_+?\-]{3,63}(?![A-Za-z0-9_@/:%=])"
)


# The value drawn as a conclusion after the clause that says how it was made ("vault pass is
# the name of our first dog plus the street number, so Biscuit42!", "… also Minka1988", "… o
# sea Toby2016": blindfix18a): further from its word than a short word's window, still its value.
_STATED = re.compile(  # lowercased text: the word is what the clause describes ("pass is …")
    r"(?:\s+(?:del|de|do|da|du|of|for|vom|von)\s+[^\W\d_]+)?"
    r"\s+(?:is|was|es|era|ist|war|lautet|est|é|foi)\s[^.!?\n]*$"
)
_CONCLUDED = re.compile(
    r"(?i)(?:\bso|\bi\.?e\.?|\balso|\bdonc|\bo sea|\bou seja|\bd\.h\.|也就是|即|つまり)"
    r",?\s*[\"'`]?$"
)


def _abbreviated_passwords(t: str, lowered: str) -> Iterator[_Hit]:
    """Passwords after a short or borrowed word for one (see the block comment above)."""
    if not _ABBREV_GATE.search(lowered):
        return
    starts = [(m.end(), _ABBREV_WINDOW) for m in _ABBREV_LATIN.finditer(lowered)]
    for m in _ABBREV_CJK.finditer(lowered):
        starts.append((m.end(), 1))
        digits = _ABBREV_DIGITS.match(t, m.end())
        if digits is not None:  # "暗証：5 2 8 8", "口令 8 3 0 6": a code said as digits
            yield (_SECRET, "pin_code", digits.start(), digits.end(), None)
    for end, window in starts:
        for m in _ABBREV_TOKEN.finditer(t, end, min(len(t), end + _NEAR_WINDOW + 64)):
            if m.start() > end + window and not (
                m.start() <= end + _NEAR_WINDOW
                and _STATED.match(lowered, end, m.start()) is not None
                and _CONCLUDED.search(t, max(end, m.start() - 12), m.start()) is not None
            ):
                if m.start() > end + _NEAR_WINDOW:
                    break
                continue
            token = m.group(0)
            if not _near_password_token(token) or _EXAMPLE_BEFORE.search(t, end, m.start()):
                continue
            stop = m.end()
            while stop > m.start() and t[stop - 1] in ".,;:)":
                stop -= 1
            yield (_SECRET, "password_in_prose", m.start(), stop, None)
            break
